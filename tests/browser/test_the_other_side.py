"""The other side of the table (issue 23), in one evening's game: the scorekeeper's phone at
390×844 shows Ben the card's QR code; Ben's phone at 360×640, no account and no cookies,
follows the whole game by its link, live; both agree, a fix voids it, the bill and Ana's
PayPal.me, marking it paid asks first, and stopping sharing takes the card off Ben's phone.
On the way: the screen's wake lock (navigator.wakeLock stubbed) and the guard on leaving a
page with deals kept unsent.
"""

import re
import time
from typing import Any

import pytest

from .conftest import Screen

pytestmark = pytest.mark.browser

#: A change on one phone shows on the other within this (live.js asks every 2 s).
LIVE = 3000

#: A wake lock that records what it was asked, as Chromium's real one can't be seen.
WAKE_LOCK_STUB = """
window.wakeLog = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (type) => {
    const sentinel = new EventTarget();
    sentinel.type = type;
    sentinel.release = async () => {
      window.wakeLog.push("release");
      sentinel.dispatchEvent(new Event("release"));
    };
    window.wakeLog.push("request");
    return sentinel;
  },
}});
// No share sheet here: the bill offers Copy.
Object.defineProperty(navigator, "share", { configurable: true, value: undefined });
"""

#: A share sheet that keeps what it was given.
SHARE_STUB = """
Object.defineProperty(navigator, "share", { configurable: true, value: async (data) => {
  window.shared = data;
}});
"""


def _phone(browser: Any, base: str, size: dict[str, int], name: str, **options: Any) -> Screen:
    context = browser.new_context(viewport=size, is_mobile=True, has_touch=True, **options)
    screen = Screen(context.new_page(), base, name)
    screen.context = context  # type: ignore[attr-defined]
    return screen


def _seen_within(screen: Screen, selector: str, text: str) -> float:
    """Seconds until ``text`` shows in ``selector`` on ``screen`` (fails after LIVE)."""
    from playwright.sync_api import expect

    start = time.monotonic()
    expect(screen.page.locator(selector).first).to_contain_text(text, timeout=LIVE)
    return time.monotonic() - start


def test_the_opponent_follows_agrees_and_gets_the_bill(browser, live_server):
    from playwright.sync_api import expect

    keeper = _phone(
        browser, live_server, {"width": 390, "height": 844}, "keeper", service_workers="block"
    )
    keeper.context.add_init_script(WAKE_LOCK_STUB)  # type: ignore[attr-defined]
    ben = _phone(browser, live_server, {"width": 360, "height": 640}, "ben")
    ben.context.add_init_script(SHARE_STUB)  # type: ignore[attr-defined]
    keeper.sign_in()
    keeper.start_game("Carla", "Dora")  # another game, other players of this private league
    keeper.start_game()
    game_url = keeper.page.url

    # The screen stays awake while the game is on, with a toggle to turn it off.
    expect(keeper.page.locator("#wake-lock")).to_be_visible()
    keeper.page.wait_for_function("window.wakeLog.includes('request')")

    # "Show the card to Ben": a QR code drawn by the server, and the link beside it.
    keeper.tap("button:has-text('Show the card to Ben')")
    qr = keeper.page.locator("figure.qr-code svg.qr")
    expect(qr).to_be_visible()
    assert qr.bounding_box()["width"] >= 200  # type: ignore[index]
    link = keeper.page.locator("a.share-link").inner_text()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]{22}", link)
    keeper.shot("share-qr")

    # Ben's phone opens it: no cookies, the card and nothing else.
    assert ben.context.cookies() == []  # type: ignore[attr-defined]
    ben.page.goto(link)
    expect(ben.page.locator("h1")).to_contain_text("Ana vs Ben")
    page = ben.text("body")
    for hidden in ("Carla", "Dora", "Our table", "Leagues", "Sign in", "admin"):
        assert hidden not in page, hidden
    assert "History (0 changes)" in page  # issue 38, point 3: what changed, never who
    assert ben.page.locator("a[href*='/leagues'], a[href*='/games/']").count() == 0

    # The whole game, live on Ben's phone.
    keeper.go(game_url.removeprefix(keeper.base))
    delays = []
    for number, (out, scores) in enumerate([(0, (290, 160)), (1, (140, 350))], start=1):
        keeper.record(out, scores)
        delays.append(_seen_within(ben, ".scorecard", f"{scores[1]}"))
        expect(ben.page.locator(f"#deal-{number}")).to_be_visible()

    # Hidden (another app on top), the lock is let go; back on screen, it is taken again.
    visible = (
        "(hidden) => { Object.defineProperty(document, 'hidden', {configurable: true,"
        " get: () => hidden}); document.dispatchEvent(new Event('visibilitychange')); }"
    )
    keeper.page.evaluate(visible, True)
    keeper.page.wait_for_function("window.wakeLog.includes('release')")
    keeper.page.evaluate(visible, False)
    keeper.page.wait_for_function("window.wakeLog.filter((x) => x === 'request').length === 2")
    keeper.page.evaluate("window.wakeLog = []")

    # Deals kept unsent on a page no service worker keeps: leaving asks first.
    leaving = "() => { const e = new Event('beforeunload', {cancelable: true});" \
        " window.dispatchEvent(e); return e.defaultPrevented; }"  # fmt: skip
    assert keeper.page.evaluate(leaving) is False
    keeper.context.set_offline(True)  # type: ignore[attr-defined]
    keeper.expected_errors.append("ERR_INTERNET_DISCONNECTED")
    keeper.page.locator("label.choice.big:has(input[value='0'])").click()
    keeper.page.fill("#score0", "600")
    keeper.page.fill("#score1", "50")
    keeper.page.locator("button.save").click()
    expect(keeper.page.locator("tr.unsaved-row")).to_have_count(1)
    assert keeper.page.evaluate(leaving) is True
    keeper.context.set_offline(False)  # type: ignore[attr-defined]
    expect(keeper.page.locator("#deal-3")).to_be_visible(timeout=15000)
    assert keeper.page.evaluate(leaving) is False
    delays.append(_seen_within(ben, ".scorecard", "600"))

    keeper.record(0, (500, 50))  # 1,530 to 610: Ana wins, Ben pays $3 + 9 × $1
    delays.append(_seen_within(ben, ".settlement", "Ben pays Ana $12.00"))
    # The game is over: the screen may sleep again, and the toggle goes.
    keeper.page.wait_for_function("window.wakeLog.includes('release')")
    expect(keeper.page.locator("#wake-lock")).to_be_hidden()

    # Both agree: Ben on his phone, Ana on the scorekeeper's; each phone sees the other's.
    ben.tap("button:has-text('I agree with this card')")
    expect(ben.page.locator(".agreements")).to_contain_text("You agreed at")
    delays.append(_seen_within(keeper, ".agreements", "Ben agreed at"))
    keeper.tap("button:has-text('Ana agrees with this card')")
    delays.append(_seen_within(ben, ".agreements", "Ana agreed at"))

    # A fix voids both, and both phones say which deal changed.
    keeper.tap("a:has-text('Fix deal 2')")
    keeper.type("#score0", "190")  # Ana 1,580: the difference is 10 now
    keeper.save()
    keeper.go(game_url.removeprefix(keeper.base))
    expect(keeper.page.locator(".agreements")).to_contain_text(
        "Deal 2 was corrected after Ben agreed: look again."
    )
    delays.append(
        _seen_within(ben, ".agreements", "Deal 2 was corrected after you agreed: look again.")
    )
    expect(ben.page.locator(".agreements")).to_contain_text(
        "Deal 2 was corrected after Ana agreed: look again."
    )
    ben.shot("opponent-voided")

    # Ana is paid on PayPal.me: she says so through her own seat's link.
    keeper.tap("button:has-text('Show the card to Ana')")
    ana_link = keeper.page.locator("a.share-link").inner_text()
    keeper.page.goto(ana_link)
    keeper.page.locator("details.how-paid summary").click()
    keeper.page.check("input[name=kind][value=paypal]")
    keeper.page.fill("#handle", "Ana Tremblay")  # not a PayPal.me name: refused, beside it
    keeper.expected_errors.append("422 (UNPROCESSABLE ENTITY)")
    with keeper.page.expect_navigation():
        keeper.page.locator("details.how-paid button[type=submit]").click()
    expect(keeper.page.locator("#handle-error")).to_contain_text("letters and digits")
    keeper.page.fill("#handle", "AnaTremblay")
    with keeper.page.expect_navigation():
        keeper.page.locator("details.how-paid button[type=submit]").click()

    # Ben's bill: every amount exact, the sentence to share, and Ana's PayPal.me with it.
    ben.page.reload()
    bill = ben.text(".receipt")
    assert "Ben owes Ana $13.00." in bill, bill
    sentence = ben.text(".share-text")
    # It ends with the receipt's own address, which opens nothing else (issue 34).
    receipt = ben.page.locator("a:has-text('The receipt, to print')").get_attribute("href")
    assert "/r/" in receipt
    assert re.fullmatch(
        r"Ben owes Ana \$13\.00 for the game of \d{1,2} \w+ \d{4}: game \$3\.00, "
        r"difference \$10\.00\. The receipt: " + re.escape(receipt),
        sentence,
    ), sentence
    assert link not in sentence
    paypal = ben.page.locator("a:has-text('Pay $13.00 on PayPal')")
    assert paypal.get_attribute("href") == "https://paypal.me/AnaTremblay/13.00CAD"
    # "Share" hands the same sentence to the phone's share sheet.
    ben.tap(".share button:has-text('Share')")
    assert ben.page.evaluate("window.shared.text") == sentence
    ben.tap("button:has-text('I agree with this card')")
    ben.shot("opponent")

    # Marking it paid asks first: Ana has not agreed with the corrected card.
    keeper.go(game_url.removeprefix(keeper.base))
    keeper.tap("form[action*='/paid'] button")
    expect(keeper.page.locator(".payment .confirm")).to_contain_text(
        "Ana has not agreed with this card yet. Mark it paid anyway?"
    )
    keeper.tap("button:has-text('paid anyway')")
    expect(keeper.page.locator(".payment")).to_contain_text("Paid")
    delays.append(_seen_within(ben, ".settlement", "Ben paid Ana $13.00"))
    # The members' receipt, where the browser has no share sheet: Copy.
    keeper.tap("a:has-text('The receipt, to print or share')")
    assert "Ben paid Ana $13.00 for the game of" in keeper.text(".share-text")
    keeper.tap(".share button:has-text('Copy')")
    expect(keeper.page.locator(".share .copy-status")).to_have_text(re.compile("Copied|Selected"))
    keeper.go(game_url.removeprefix(keeper.base))

    # Stop sharing: Ben's phone loses the card at once, and the link opens nothing.
    keeper.page.locator("#sharing form[action$='/seats/1/stop'] button").click()
    keeper.page.wait_for_load_state()
    delays.append(_seen_within(ben, "main", "This link no longer opens the card"))
    assert ben.page.locator(".scorecard").count() == 0
    ben.expected_errors.append("404")
    assert ben.page.goto(link).status == 404

    print("seconds until the other phone showed each change:", [round(d, 2) for d in delays])
    assert max(delays) < LIVE / 1000
    for screen in (keeper, ben):
        assert screen.overflow() == 0, screen.name
        screen.context.close()  # type: ignore[attr-defined]
        assert screen.unexpected_errors() == [], (screen.name, screen.unexpected_errors())
