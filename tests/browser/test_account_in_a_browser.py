"""The account page on a phone: a new token shown once, and "Sign out everywhere"."""

import pytest

pytestmark = pytest.mark.browser


def test_account_page_token_and_sign_out_everywhere(screen):
    screen.sign_in()
    screen.go("/account")
    assert screen.overflow() == 0
    assert screen.accessibility_violations() == []
    assert screen.duplicate_ids() == []
    screen.shot("account")
    screen.page.fill("#token-name", "club dashboard")
    screen.page.click("button[name=token-submit]")
    assert "copy it now" in screen.text()
    assert screen.page.locator("code.token").inner_text().startswith("mille_")
    if screen.name == "phone":
        screen.page.set_viewport_size({"width": 360, "height": 640})
        assert screen.overflow() == 0
        screen.shot("account-new-token-360")
        screen.page.set_viewport_size({"width": 390, "height": 844})
    screen.shot("account-new-token")
    screen.page.click("text=Sign out everywhere")
    # The script first empties this phone's kept deals and copies (static/app.js), then
    # signs out: wait for the next page rather than read the one being left.
    screen.page.wait_for_selector("text=You are signed out everywhere.")
    assert "You are signed out everywhere." in screen.text()
    screen.go("/account")
    assert "/login" in screen.page.url
