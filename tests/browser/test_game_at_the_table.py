"""The game page at a real card table: two phone sizes, one screen per deal, two phones on
one game, a correction from an out-of-date phone, and taking back the deal that ended it."""

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import ARTIFACTS, Screen

pytestmark = pytest.mark.browser

PHONES = {"390x844": {"width": 390, "height": 844}, "360x640": {"width": 360, "height": 640}}

#: What must be on screen, whole and not under anything, after every saved deal.
AT_THE_TABLE = {
    "Ana's total": ".player-total.seat0 .total",
    "Ben's total": ".player-total.seat1 .total",
    "who deals next": ".next-dealer",
    "Ana went out": "label.choice.big:has(input[value='0'])",
    "Ben went out": "label.choice.big:has(input[value='1'])",
    "Ana's score": "#score0",
    "Ben's score": "#score1",
    "Save": "button.save",
}

#: "" when the element is wholly on screen and its centre is the element itself (or inside
#: it: a label's text), as a thumb would hit it; otherwise what is wrong.
UNCOVERED = """(selector) => {
  const element = document.querySelector(selector);
  if (!element) return "missing";
  const box = element.getBoundingClientRect();
  if (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth) {
    return `off screen (top ${Math.round(box.top)}, bottom ${Math.round(box.bottom)})`;
  }
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (hit === element || element.contains(hit)) return "";
  return `covered by ${hit && hit.outerHTML.slice(0, 60)}`;
}"""


def new_phone(browser: Any, base: str, size: str) -> tuple[Any, Screen]:
    context = browser.new_context(viewport=PHONES[size], is_mobile=True, has_touch=True)
    return context, Screen(context.new_page(), base, size)


@pytest.fixture(params=list(PHONES))
def phone(request: pytest.FixtureRequest, browser: Any, live_server: str) -> Iterator[Screen]:
    context, screen = new_phone(browser, live_server, request.param)
    yield screen
    context.close()
    unexpected = screen.unexpected_errors()
    assert unexpected == [], unexpected


def problems_on_screen(screen: Screen) -> dict[str, str]:
    """What of :data:`AT_THE_TABLE` is not on screen or is covered, as the page opened."""
    found = {
        name: screen.page.evaluate(UNCOVERED, selector) for name, selector in AT_THE_TABLE.items()
    }
    return {name: problem for name, problem in found.items() if problem}


#: True when who went out (the first choice) has the focus; otherwise what has it.
FOCUS = """document.activeElement.matches('input[name=out][value="0"]')
  || document.activeElement.outerHTML.slice(0, 80)"""


def focused(screen: Screen) -> str:
    return str(screen.page.evaluate(FOCUS))


def view_shot(screen: Screen, label: str) -> None:
    """What the phone shows, as it is (not the whole page)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    screen.page.screenshot(path=str(ARTIFACTS / f"{label}-{screen.name}.png"))


def test_a_whole_game_one_screen_per_deal(phone, wikipedia_card):
    phone.sign_in()
    phone.start_game()
    header = phone.page.locator("header.site").bounding_box()
    assert header["height"] <= 56  # one line on a phone
    assert phone.overflow() == 0
    for number, (out, scores, stars) in enumerate(wikipedia_card[:-1], start=1):
        assert phone.record(out, scores, stars) <= 4 + sum(stars)  # taps, besides the digits
        assert phone.page.url.endswith("#play")
        assert f"Deal {number} saved." in phone.text(".flashes")
        assert problems_on_screen(phone) == {}, f"after deal {number}"
        assert focused(phone) == "True", f"after deal {number}"
        assert phone.overflow() == 0
        if number == 4:
            view_shot(phone, "table-after-deal-4")
    # The last deal, mistyped: 1,250 for 125, confirmed. It ends the game.
    out, scores, stars = wikipedia_card[-1]
    phone.record(out, (1250, scores[1]), stars)
    phone.save("button:has-text('Yes, save it as typed')")
    assert "Ana won" in phone.text(".summary")
    view_shot(phone, "table-game-over-typo")
    # The deal that ended the game is taken back below the settlement, asked once (issue 24).
    question = phone.page.locator("details.undo-end summary")
    assert question.inner_text() == "Undo deal 7 (1,250 / 150)…"
    below = phone.page.evaluate(
        "document.querySelector('.settlement').compareDocumentPosition("
        "document.querySelector('details.undo-end')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert below, "the undo sits below the settlement"
    assert phone.page.locator("form.undo button").is_visible() is False
    question.scroll_into_view_if_needed()
    phone.tap("details.undo-end summary")  # the question
    undo = phone.page.locator("form.undo button")
    undo.scroll_into_view_if_needed()
    assert undo.inner_text() == "Yes, take back deal 7: the game goes on"
    assert phone.page.evaluate(UNCOVERED, "form.undo button") == ""
    with phone.page.expect_event("load"):
        phone.tap("form.undo button")  # the answer
    assert "Deal 7 (1,250 / 150) was taken back: the game is in progress again." in phone.text(
        ".flashes"
    )
    assert problems_on_screen(phone) == {}
    assert focused(phone) == "True"
    phone.record(out, scores, stars)
    assert "Ben pays Ana $10.00" in phone.text(".settlement")
    view_shot(phone, "table-game-over")
    phone.shot("table-settled")
    # Paid, it is locked: nothing on the page takes a deal back.
    with phone.page.expect_event("load"):
        phone.tap("button:has-text('paid')")
    # Nobody agreed with the card (issue 23): the page asks first.
    with phone.page.expect_event("load"):
        phone.tap("button:has-text('paid anyway')")
    assert phone.page.locator("form.undo").count() == 0


def test_two_phones_one_deal_is_never_counted_twice(browser, live_server, wikipedia_card):
    for size in PHONES:
        contexts = []
        a_context, a = new_phone(browser, live_server, size)
        b_context, b = new_phone(browser, live_server, size)
        contexts += [a_context, b_context]
        a.sign_in()
        b.sign_in()
        a.start_game()
        game = a.page.url
        a.record(*wikipedia_card[0])
        b.page.goto(game)  # phone B opens the game after deal 1
        a.record(*wikipedia_card[1])  # phone A records deal 2: 290 / 160
        b.expected_errors.append("status of 409")
        b.record(*wikipedia_card[1])  # phone B, not refreshed, types the same deal
        stale = b.text(".stale")
        assert re.search(r"Deal 2, 290 / 160, was recorded from another phone \(admin, ", stale)
        assert "Yours, 290 / 160, is the same deal: it is already on the card as deal 2." in stale
        # The first button, the one Enter presses and the focus is on, keeps the card as it is.
        first = b.page.locator(".deal-form .actions button").first
        assert first.inner_text() == "Discard mine"
        assert b.page.evaluate("document.activeElement.textContent.trim()") == "Discard mine"
        assert b.page.locator("button.save").inner_text() == "Record it again as deal 3"
        for selector in (".stale h2", ".deal-form .actions .discard", "button.save"):
            assert b.page.evaluate(UNCOVERED, selector) == "", selector
        view_shot(b, "table-two-phones")
        with b.page.expect_event("load"):
            b.tap(".deal-form .actions .discard")
        assert "Your deal was not recorded." in b.text(".flashes")
        assert b.page.locator(".scorecard tbody tr").count() == 2
        assert "510" in b.text(".player-total.seat1 .total")  # 350 + 160, once
        for context in contexts:
            context.close()
        for screen in (a, b):
            unexpected = screen.unexpected_errors()
            assert unexpected == [], unexpected


def test_a_correction_from_an_out_of_date_phone_keeps_what_was_typed(
    browser, live_server, wikipedia_card
):
    for size in PHONES:
        a_context, a = new_phone(browser, live_server, size)
        b_context, b = new_phone(browser, live_server, size)
        a.sign_in()
        b.sign_in()
        a.start_game()
        game = a.page.url.split("#")[0]
        for deal in wikipedia_card[:3]:
            a.record(*deal)
        b.page.goto(game + "/deals/1")  # phone B opens "Fix deal 1"
        a.record(*wikipedia_card[3])  # meanwhile phone A records deal 4
        b.expected_errors.append("status of 409")
        b.type("#score0", "150")
        b.save()
        assert "Deal 4, 150 / −50, was recorded from another phone" in b.text(".stale")
        assert b.page.url == game + "/deals/1"  # still its own Fix page
        assert b.page.locator("h1").inner_text().startswith("Fix deal 1")
        assert b.page.locator("#score0").input_value() == "150"  # nothing typed is lost
        view_shot(b, "table-stale-fix")
        b.save()  # against the card as it is now
        assert "Deal 1 corrected" in b.text(".flashes")
        assert b.page.locator("#deal-1 .deal-score").first.inner_text().startswith("150")
        assert b.page.locator(".scorecard tbody tr").count() == 4
        a_context.close()
        b_context.close()


def test_without_a_script_a_saved_deal_opens_at_the_next_deal_too(browser, live_server):
    for size in PHONES:
        context = browser.new_context(
            viewport=PHONES[size], is_mobile=True, has_touch=True, java_script_enabled=False
        )
        phone = Screen(context.new_page(), live_server, size)
        phone.sign_in()
        phone.start_game()
        for number, deal in enumerate([(1, (140, 350)), (0, (290, 160)), (0, (220, 80))], 1):
            phone.record(*deal)
            assert phone.page.url.endswith("#play")
            assert f"Deal {number} saved." in phone.text(".flashes")
            assert problems_on_screen(phone) == {}, f"{size}, after deal {number}"
        view_shot(phone, "table-no-script")
        context.close()
