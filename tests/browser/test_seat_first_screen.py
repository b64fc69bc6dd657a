"""The opponent's phone reads from the top (issue 38, points 2 and 3), at 390×844, 360×640 and
320×568 (each step's screen read at each size), with and without the script: on a seat's
link the totals, the last deal with what it changed, and the action that matters now (at the
end, "I agree") are on the first screen, the card and the bill below; a deal corrected after
the player agreed is marked on the card with old → new, and the link reads the game's
history without who made each change. Mille and a Knock Rummy sitting for four alike."""

import re
from typing import Any

import pytest

from .conftest import PHONE, PHONES, Screen
from .test_other_games_at_the_table import league_app, start  # noqa: F401  (fixture)

pytestmark = pytest.mark.browser


def _keeper(browser: Any, base: str) -> Screen:
    context = browser.new_context(viewport=PHONES["390x844"], service_workers="block")
    keeper = Screen(context.new_page(), base, "keeper")
    keeper.sign_in()
    return keeper


def _share(keeper: Screen, game_path: str, name: str) -> str:
    keeper.go(game_path)
    keeper.tap(f"#sharing button:has-text('Show the card to {name}')")
    link = keeper.page.locator("a.share-link").get_attribute("href")
    assert link is not None
    return link


def _player(browser: Any, base: str, script: bool) -> Screen:
    """The player's phone, with the script or without, looked at in each of its sizes at
    each step (``each_size``): the game is played once, its screens read three times."""
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=script
    )
    player = Screen(context.new_page(), base, f"390x844-{'js' if script else 'nojs'}")
    player.script, player.sizes = script, tuple(PHONES)
    return player


def _on_first_screen(screen: Screen, selector: str) -> bool:
    """Whether ``selector`` is whole within the first screen of the page (not scrolled)."""
    box = screen.page.locator(selector).first.bounding_box()
    height = screen.page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_the_mille_opponent_reads_from_the_top(browser, live_server, script):
    keeper = _keeper(browser, live_server)
    keeper.start_game()
    game_path = re.sub(r"^https?://[^/]+", "", keeper.page.url)
    keeper.record(0, (290, 160))
    keeper.record(1, (300, 150))
    link = _share(keeper, game_path, "Ben")
    ben = _player(browser, live_server, script)
    for _size in ben.each_size():
        ben.page.goto(link)
        # During the game: the totals and the last deal with what it changed, at once.
        assert _on_first_screen(ben, ".summary"), ben.name
        assert _on_first_screen(ben, ".last-deal"), ben.name
        last = ben.text(".last-deal")
        assert "Deal 2" in last
        assert "Ben went out." in last
        assert "Ana +300 → 590" in last
        assert ben.page.locator("#your-agreement").count() == 0  # nothing to do yet
        ben.shot("seat-first-screen-mille-playing")

    # The end: "I agree" on the first screen, the bill and the card below.
    keeper.go(game_path)
    keeper.record(0, (700, 50))
    for _size in ben.each_size():
        ben.page.goto(link)
        assert _on_first_screen(ben, "#your-agreement button"), ben.name
        assert not _on_first_screen(ben, ".scorecard"), ben.name
        ben.shot("seat-first-screen-mille-finished")
    ben.tap("#your-agreement button")
    ben.page.wait_for_load_state()
    assert "You agreed at" in ben.text("#your-agreement")

    # Deal 1 corrected after Ben agreed: the row marked, old → new, and the history.
    keeper.go(f"{game_path}/deals/1")
    keeper.type("#score0", "310")
    keeper.tap("button.save")
    keeper.page.wait_for_url(re.compile(r".*/games/\d+$"))
    for _size in ben.each_size():
        ben.page.goto(link)
        assert _on_first_screen(ben, "#changed-after"), ben.name
        changed = ben.text("#changed-after")
        assert "Deal 1 corrected" in changed
        assert "Ana 290 → 310" in changed
        # What changed is what is new to Ben: the last deal is left to the card below, so
        # that "I agree" stays on a 320 × 568 first screen too.
        assert ben.page.locator(".last-deal").count() == 0
        assert ben.page.locator("tr#deal-1.changed-since").count() == 1
        assert ben.page.locator("tr#deal-2.changed-since").count() == 0
        assert _on_first_screen(ben, "#your-agreement button"), ben.name  # to agree again
        history = ben.page.locator("#history")
        if not script:
            assert history.get_attribute("open") is None
        ben.tap("#history summary")
        assert "Deal 1 corrected." in ben.text("#history")
        assert "admin" not in ben.text("#history")
        assert ben.overflow() == 0, ben.name
        ben.shot("seat-changed-after-mille")
    assert ben.unexpected_errors() == []
    ben.page.context.close()
    keeper.page.context.close()


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_a_knock_rummy_opponent_reads_from_the_top(
    browser,
    live_server,
    league_app,  # noqa: F811
    script,
):
    keeper = _keeper(browser, live_server)
    game_id = start(league_app, "knock-rummy", 4, {}, {"point": 10})
    game_path = f"/games/{game_id}"
    keeper.go(game_path)
    for knocker, counts in ((0, [6, 6, 14, 20]), (1, [9, 0, 20, 31])):
        keeper.tap(f"label:has(#knocker-{knocker})")
        for seat, count in enumerate(counts):
            keeper.type(f"#counts_{seat}", str(count))
        keeper.save()
    link = _share(keeper, game_path, "Cy")
    cy = _player(browser, live_server, script)
    for _size in cy.each_size():
        cy.page.goto(link)
        assert _on_first_screen(cy, ".standings-now"), cy.name
        assert _on_first_screen(cy, ".last-deal"), cy.name
        assert "Deal 2" in cy.text(".last-deal")
        assert "Ben knocked" in cy.text(".last-deal")
    keeper.go(game_path)
    keeper.tap("details.end-sitting summary")
    keeper.tap("details.end-sitting button.primary")
    keeper.page.wait_for_url(re.compile(r".*#play$"))
    for _size in cy.each_size():
        cy.page.goto(link)
        assert _on_first_screen(cy, "#your-agreement button"), cy.name
        cy.shot("seat-first-screen-knock-rummy-finished")
    cy.tap("#your-agreement button")
    cy.page.wait_for_load_state()
    assert "You agreed at" in cy.text("#your-agreement")
    keeper.go(game_path)
    keeper.tap("form.resume button")
    keeper.page.wait_for_url(re.compile(r".*#play$"))
    for _size in cy.each_size():
        cy.page.goto(link)
        assert "The end was taken back" in cy.text("#changed-after")
        assert cy.overflow() == 0, cy.name
    assert cy.unexpected_errors() == []
    cy.page.context.close()
    keeper.page.context.close()
