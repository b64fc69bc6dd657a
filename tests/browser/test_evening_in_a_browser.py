"""The end of a game on a phone: the settlement adds up, a tie says so, a rematch in one tap,
and "Did you mean Alice?" — at 390×844 and 360×640, in a real Chromium."""

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import Screen

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}
#: Issue 13's skunk: Game $3 + difference $13 + Ana's natural $3 + Ben's chapeaux $6 = $25,
#: doubled because Ben finished below 600.
SKUNK_CARD = [(0, (300, -100), (1, 0)), (0, (400, -50), (0, 0)), (0, (600, 150), (0, 0))]


@pytest.fixture(params=list(PHONES))
def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    """A phone-sized tab; a script error or a CSP violation on any page fails the test."""
    context = browser.new_context(viewport=PHONES[request.param], is_mobile=True, has_touch=True)
    screen = Screen(context.new_page(), live_server, request.param)
    yield screen
    context.close()
    assert screen.errors == []


def on_screen_width(screen: Screen, selector: str) -> None:
    """Every element of ``selector`` lies inside the screen's width: nothing cut off."""
    width = screen.page.viewport_size["width"]
    for box in [loc.bounding_box() for loc in screen.page.locator(selector).all()]:
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width, selector


def amounts(screen: Screen) -> list[str]:
    cells = screen.page.locator(".settlement-lines td.amount").all_inner_texts()
    return [" ".join(cell.split()) for cell in cells]


def test_the_skunk_settlement_adds_up_on_a_phone(phone):
    phone.sign_in()
    phone.start_game()
    for deal in SKUNK_CARD:
        phone.record(*deal)
    assert amounts(phone) == ["$3.00", "$13.00", "$3.00", "$6.00", "$25.00", "+$25.00", "$50.00"]
    rows = phone.page.locator(".settlement-lines tr")
    assert " ".join(rows.nth(4).inner_text().split()) == "Subtotal $25.00"
    assert rows.nth(5).inner_text().startswith("Skunk ×2")
    assert phone.overflow() == 0
    on_screen_width(phone, ".settlement-lines td.amount")
    assert phone.accessibility_violations() == []
    assert phone.duplicate_ids() == []
    phone.page.locator(".settlement").scroll_into_view_if_needed()
    phone.shot("settlement-skunk")

    phone.from_menu("a.language[lang=fr]")
    phone.page.wait_for_load_state()
    assert amounts(phone) == [
        "3,00 $",
        "13,00 $",
        "3,00 $",
        "6,00 $",
        "25,00 $",
        "+25,00 $",
        "50,00 $",
    ]
    assert phone.page.locator(".line-subtotal th").inner_text() == "Sous-total"
    assert phone.overflow() == 0
    on_screen_width(phone, ".settlement-lines td.amount")
    phone.shot("settlement-skunk-fr")


def test_a_tie_at_the_target_says_play_goes_on(phone):
    phone.sign_in()
    phone.start_game()
    phone.record(0, (600, 600))
    assert phone.page.locator(".tie").count() == 0
    phone.record(1, (600, 600))
    status = phone.page.get_by_role("status").filter(has_text="Tied at 1,200")
    assert status.count() == 1
    assert " ".join(status.inner_text().split()) == (
        "Tied at 1,200 — nobody has won yet: play goes on, deal by deal, until the totals differ."
    )
    assert status.is_visible()
    on_screen_width(phone, ".tie")
    assert phone.overflow() == 0
    assert phone.page.locator("#deal-form").count() == 1  # the next deal can be recorded
    assert phone.accessibility_violations() == []
    status.scroll_into_view_if_needed()
    phone.shot("tie")
    phone.record(0, (100, 50))
    assert phone.page.locator(".tie").count() == 0
    assert "Ben pays Ana" in phone.text(".settlement")


def finish_a_game(phone: Screen) -> str:
    phone.sign_in()
    phone.start_game()  # Ana deals first
    phone.record(0, (700, 300))
    phone.record(0, (600, 300))
    return phone.page.url


def test_a_rematch_in_one_tap(phone):
    finished = finish_a_game(phone)
    button = phone.page.get_by_role("button", name="Rematch")
    assert "Ben deals first" in phone.text(".rematch")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    assert box["height"] >= 40  # big enough for a thumb
    on_screen_width(phone, ".rematch button")
    phone.shot("rematch-offered")
    with phone.page.expect_navigation():
        button.click()
    phone.page.wait_for_load_state()
    assert re.fullmatch(r".*/games/\d+(#play)?", phone.page.url)
    assert phone.page.url != finished
    assert "Rematch: Ana and Ben again. Ben deals first." in phone.text(".flashes")
    assert "Deal 1: Ben deals next." in phone.text(".next-dealer")
    assert phone.page.locator("#deal-form").is_visible()
    assert phone.overflow() == 0
    assert phone.accessibility_violations() == []
    phone.shot("rematch-started")
    # The rematch is a game like any other: its first deal goes in as usual.
    phone.record(1, (140, 350))
    assert "Deal 1 saved." in phone.text(".flashes")


def test_a_rematch_without_javascript(browser, live_server):
    context = browser.new_context(
        viewport=PHONES["360x640"], is_mobile=True, has_touch=True, java_script_enabled=False
    )
    try:
        phone = Screen(context.new_page(), live_server, "360x640-nojs")
        phone.sign_in()
        phone.go("/games/new")
        phone.page.fill("#player0", "Ana")
        phone.page.fill("#player1", "Ben")
        phone.page.check("#first_dealer-2")  # Ben deals first
        phone.page.click("button[name=submit].primary")
        phone.page.wait_for_url(re.compile(r".*/games/\d+(#play)?$"))
        for out, scores in ((0, (700, 300)), (1, (300, 600))):
            phone.page.check(f"input[name=out][value='{out}']")
            phone.page.fill("#score0", str(scores[0]))
            phone.page.fill("#score1", str(scores[1]))
            with phone.page.expect_navigation():
                phone.page.click("button.save")
        phone.page.locator("input[name=out][value='0']").check()
        phone.page.fill("#score0", "300")
        phone.page.fill("#score1", "0")
        with phone.page.expect_navigation():
            phone.page.click("button.save")
        assert "Ben pays Ana" in phone.text(".settlement")
        with phone.page.expect_navigation():
            phone.page.get_by_role("button", name="Rematch").click()
        assert "Ana deals first." in phone.text(".flashes")
        assert "Deal 1: Ana deals next." in phone.text(".next-dealer")
    finally:
        context.close()


def test_did_you_mean_alice(phone):
    phone.sign_in()
    phone.start_game("Alice", "Ben")
    phone.go("/games/new")
    phone.page.fill("#player0", "Alcie")
    phone.page.fill("#player1", "Ben")
    phone.page.click("button[name=submit].primary")
    phone.page.wait_for_load_state()
    question = phone.page.locator("#player0-question")
    assert question.is_visible()
    assert "Did you mean Alice?" in question.inner_text()
    assert phone.page.locator("#player0").get_attribute("aria-describedby") == "player0-question"
    assert phone.overflow() == 0
    on_screen_width(phone, "#player0-question button")
    assert phone.accessibility_violations() == []
    assert phone.duplicate_ids() == []
    phone.shot("did-you-mean")
    # Enter (a phone keyboard's Go) in a field is "Start the game", never "Use Alice":
    # the name is still unanswered, so the question comes back.
    with phone.page.expect_navigation():
        phone.page.press("#player1", "Enter")
    assert "Did you mean Alice?" in phone.text("#player0-question")
    with phone.page.expect_navigation():
        phone.page.get_by_role("button", name="Use Alice").click()
    assert re.fullmatch(r".*/games/\d+(#play)?", phone.page.url)
    assert phone.text("h1").startswith("Alice vs Ben")
