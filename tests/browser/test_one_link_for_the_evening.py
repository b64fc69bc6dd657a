"""One link for the evening, on the opponent's phone (issue 38, point 4), at 390×844, 360×640
and 320×568 (each read in turn), with and without the script: after the rematch, Ben's seat
link shows the new game and says "New game: Ana vs Ben, game 2" on its first screen; the old
card stays readable from it."""

import re

import pytest

from .test_seat_first_screen import _keeper, _on_first_screen, _player, _share

pytestmark = pytest.mark.browser

LIVE = 5000


@pytest.mark.parametrize("script", [True, False], ids=["js", "no-js"])
def test_bens_link_follows_him_into_the_rematch(browser, live_server, script):
    from playwright.sync_api import expect

    keeper = _keeper(browser, live_server)
    keeper.start_game()
    game_path = re.sub(r"^https?://[^/]+", "", keeper.page.url)
    keeper.record(0, (600, 50))
    keeper.record(0, (700, 50))
    link = _share(keeper, game_path, "Ben")
    ben = _player(browser, live_server, script)
    ben.page.goto(link)
    assert ben.page.locator(".evening").count() == 0
    keeper.go(game_path)
    keeper.tap(".rematch button")
    keeper.page.wait_for_url(re.compile(r".*/games/\d+#play$"))
    if script:  # the page sees the new game by itself
        expect(ben.page.locator(".new-game")).to_be_visible(timeout=LIVE)
    for _size in ben.each_size():
        ben.page.goto(link)
        assert "New game: Ana vs Ben, game 2" in ben.text(".new-game")
        assert _on_first_screen(ben, ".new-game"), ben.name
        assert "No deal yet." in ben.text()
        assert ben.overflow() == 0, ben.name
        ben.shot("one-link-new-game")
    ben.tap(".evening a:has-text('Game 1')")
    ben.page.wait_for_load_state()
    assert "Game 1 of this evening" in ben.text(".evening")
    assert "1,300" in ben.text(".summary")
    ben.shot("one-link-old-game")
    assert ben.unexpected_errors() == []
    ben.page.context.close()
    keeper.page.context.close()
