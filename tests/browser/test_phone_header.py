"""The header on the narrowest phones: one line, no sideways scrolling, and what doesn't fit
in one menu (a ``<details>``) that opens and works with and without a script, in English
and in French, whose links and buttons are each a thumb's 44 × 44 px target."""

import re

import pytest

from .conftest import ARTIFACTS, Screen, phone_at_each_size

pytestmark = pytest.mark.browser


HEADER = "header.site a.brand, header.site nav > a[href], header.site summary"
MENU = "header.site .menu-items a[href], header.site .menu-items button"


def shown(screen: Screen, selector: str) -> int:
    return int(
        screen.page.evaluate(
            "(s) => [...document.querySelectorAll(s)].filter((e) => e.checkVisibility()).length",
            selector,
        )
    )


phone = phone_at_each_size()


def check_header(screen: Screen, where: str) -> None:
    """One line, nothing wider than the screen, every control whole and uncovered; then the
    menu, open, with each of its links and buttons a whole, uncovered 44 × 44 target."""
    screen.page.evaluate("scrollTo(0, 0)")  # a game page opens at the deal form
    assert screen.overflow() == 0, where
    header = screen.page.locator("header.site").bounding_box()
    assert header is not None
    assert header["height"] <= 56, f"{where}: the header takes {header['height']} px"
    assert shown(screen, HEADER) >= 3, where  # the site's name, New game, Menu
    assert screen.unreachable(HEADER) == [], where
    assert shown(screen, MENU) == 0, f"{where}: the menu is closed until tapped"
    screen.page.click("header.site .site-menu summary")
    assert shown(screen, MENU) >= 3, where  # Leagues, then sign in or out, the language
    assert screen.unreachable(MENU) == [], f"{where}, the menu open"
    assert screen.overflow() == 0, f"{where}, the menu open"


def test_the_header_fits_and_its_menu_works_for_a_visitor(phone):
    phone.go("/leagues")
    check_header(phone, "visitor")
    assert phone.page.locator("header.site .menu-items a:has-text('Sign in')").is_visible()
    phone.page.click("header.site .menu-items a.language[lang=fr]")
    phone.page.wait_for_load_state()
    assert phone.page.locator("html").get_attribute("lang") == "fr-CA"
    check_header(phone, "visitor, in French")
    assert phone.page.locator("header.site .menu-items a:has-text('Ligues')").is_visible()


def test_the_header_fits_and_its_menu_works_at_the_table(phone):
    phone.sign_in()
    phone.start_game("Ana", "Benoît-Alexandre")
    check_header(phone, "a game")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    phone.page.screenshot(path=str(ARTIFACTS / f"header-menu-{phone.name}.png"))
    phone.from_menu("a.language[lang=fr]")
    phone.page.wait_for_load_state()
    assert phone.page.locator("html").get_attribute("lang") == "fr-CA"
    check_header(phone, "a game, in French")
    phone.from_menu("button:has-text('Se déconnecter')")
    phone.page.wait_for_url(re.compile(r".*/$"))
    assert phone.page.locator("header.site .menu-items a:has-text('Se connecter')").count() == 1
