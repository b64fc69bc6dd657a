"""An invisible character in a name is refused beside the field, on a phone."""

import pytest

from .conftest import ARTIFACTS, Screen

pytestmark = pytest.mark.browser

ZERO_WIDTH = "Ana\u200b"


@pytest.mark.parametrize("viewport", [(390, 844), (360, 640)], ids=["390x844", "360x640"])
def test_a_hidden_second_ana_is_refused_beside_the_field(browser, live_server, viewport):
    width, height = viewport
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
    )
    screen = Screen(context.new_page(), live_server, f"{width}x{height}")
    try:
        screen.sign_in()
        screen.go("/leagues/our-table/players")
        screen.page.fill("#name", "Ana")
        screen.page.click("button[type=submit].primary")
        screen.page.fill("#name", ZERO_WIDTH)
        screen.page.click("button[type=submit].primary")
        error = screen.page.locator("#name-error")
        assert "invisible characters" in error.inner_text()
        assert "name-error" in screen.page.locator("#name").get_attribute("aria-describedby")
        assert screen.overflow() == 0
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        screen.page.screenshot(path=str(ARTIFACTS / f"invisible-name-{screen.name}.png"))
        screen.go("/leagues/our-table/members")
        screen.page.fill("#username", "eve\u202e")
        screen.page.fill("#password", "a-long-password-1")
        screen.page.click("button[type=submit].primary")
        assert "invisible characters" in screen.page.locator("#username-error").inner_text()
        screen.page.locator("#username-error").scroll_into_view_if_needed()
        screen.page.screenshot(path=str(ARTIFACTS / f"invisible-username-{screen.name}.png"))
    finally:
        context.close()
