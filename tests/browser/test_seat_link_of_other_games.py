"""A second phone at a Knock Rummy sitting (issue 36): the scorekeeper's phone shows Ben
his seat's link; Ben's phone at 390×844, with no account and no cookies, follows the
sitting by it, live, through a deal and the end; Ben agrees with the finished card, and
the scorekeeper's page says so."""

import re
from typing import Any

import pytest

from .conftest import PHONES, Screen
from .test_other_games_at_the_table import league_app, phone, start  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser

#: A change on one phone shows on the other within this (live.js asks every 2 s).
LIVE = 4000


def test_bens_phone_follows_a_knock_rummy_sitting_and_agrees(
    browser: Any,
    live_server: str,
    league_app: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    keeper = phone(browser, live_server, "390x844", service_workers="block")
    game_id = start(league_app, "knock-rummy", 4, {}, {"point": 10})
    keeper.go(f"/games/{game_id}")
    keeper.tap("#sharing button:has-text('Show the card to Ben')")
    expect(keeper.page.locator("svg.qr")).to_be_visible()
    link = keeper.page.locator("a.share-link").get_attribute("href")
    assert link
    assert re.search(r"/s/[A-Za-z0-9_-]{22}$", link)

    context = browser.new_context(viewport=PHONES["390x844"], is_mobile=True, has_touch=True)
    ben = Screen(context.new_page(), live_server, "ben-knock-rummy")
    ben.page.goto(link)
    expect(ben.page.locator(".seat-line")).to_contain_text("Ben's card, on Ben's phone.")
    assert "No deal yet." in ben.text()

    # A deal on the scorekeeper's phone shows on Ben's without a reload.
    keeper.go(f"/games/{game_id}")
    keeper.tap("label:has(#knocker-0)")
    for seat, count in enumerate([6, 6, 14, 20]):
        keeper.type(f"#counts_{seat}", str(count))
    keeper.save()
    expect(ben.page.locator(".sitting-card")).to_contain_text("Ana knocked; Ben won.", timeout=LIVE)
    ben.page.reload()  # the live note is gone; the card is the new one
    expect(ben.page.locator(".standing-list")).to_contain_text("Ana")

    # The end, asked first; Ben's phone shows the settlement and his bill, then agrees.
    keeper.tap("details.end-sitting summary")
    keeper.tap("details.end-sitting button.primary")
    keeper.page.wait_for_url(re.compile(r".*#play$"))
    expect(ben.page.locator(".kind-settlement")).to_be_visible(timeout=LIVE + 2000)
    ben.page.reload()
    # Ben won: each payer's bill to him, with what he is owed.
    for payer, amount in (("Ana", "$1.00"), ("Cy", "$0.80"), ("Dan", "$1.40")):
        assert f"{payer} pays Ben {amount}" in ben.text(".kind-settlement")
        assert f"{payer} owes Ben {amount}." in ben.text(f".kind-receipt:has-text('{payer}')")
    ben.shot("knock-rummy-seat-finished")
    ben.tap("#your-agreement button:has-text('I agree with this card')")
    expect(ben.page.locator("#agreements")).to_contain_text("You agreed at")
    assert ben.overflow() == 0
    ben.shot("knock-rummy-seat-agreed")

    keeper.go(f"/games/{game_id}")
    agreements = keeper.text("#agreements")
    assert "Ben agreed at" in agreements
    assert "Ana has not agreed with this card yet." in agreements
    assert ben.unexpected_errors() == []
    assert keeper.unexpected_errors() == []
    context.close()
    keeper.page.context.close()
