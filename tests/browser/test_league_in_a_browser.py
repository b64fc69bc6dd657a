"""Browsing a league in a real browser: standings, a player, head-to-head, owes, the archive."""

import re

import pytest

pytestmark = pytest.mark.browser


def play_three_games(screen, wikipedia_card):
    """Ana beats Ben on the Wikipedia card twice; Ben beats Ana once."""
    for _ in range(2):
        screen.start_game()
        for deal in wikipedia_card:
            screen.record(*deal)
    screen.start_game()
    screen.record(1, (15, 1250), (0, 0))
    with screen.page.expect_navigation():
        screen.page.click("button:has-text('Yes, save it as typed')")
    screen.page.wait_for_load_state()
    assert "pays Ben" in screen.text(".settlement")


def test_standings_player_and_head_to_head(screen, wikipedia_card):
    screen.sign_in()
    play_three_games(screen, wikipedia_card)
    screen.go("/leagues/our-table")
    standings = screen.text("table")
    assert re.search(r"Ana\s+3\s+2\s+1", standings), standings
    screen.shot("standings")
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0  # the wide table scrolls on its own, the page doesn't

    screen.page.click("table a:has-text('Ana')")
    screen.page.wait_for_load_state()
    assert "Ana" in screen.text("h1")
    assert screen.page.locator("svg[role=img]").count() >= 1
    screen.shot("player")
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0

    screen.page.locator("a[href*='head-to-head']").first.click()
    screen.page.wait_for_load_state()
    head_to_head = screen.text()
    assert "Ana" in head_to_head
    assert "Ben" in head_to_head
    screen.shot("head-to-head")
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0

    for path in ("/leagues/our-table/owes", "/leagues/our-table/games"):
        screen.go(path)
        assert screen.accessibility_violations() == [], path
        assert screen.overflow() == 0, path
    screen.shot("archive")


def test_a_second_league_is_chosen_for_a_new_game_and_its_admin_pages_are_linked(screen):
    screen.sign_in()
    screen.go("/leagues/new")
    screen.type("#name", "Friday club")
    with screen.page.expect_navigation():
        screen.tap("button[type=submit].primary")
    assert screen.page.url.endswith("/leagues/friday-club/settings")
    nav = screen.page.locator("nav.league-nav")
    assert nav.locator("a[aria-current=page]").inner_text() == "Settings"
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0

    with screen.page.expect_navigation():
        nav.locator("a:has-text('Members')").click()
    assert screen.page.url.endswith("/leagues/friday-club/members")
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0

    screen.tap("header.site a:has-text('New game')")  # two leagues now: which one?
    screen.page.wait_for_url(screen.base + "/games/new")
    screen.shot("choose-league")
    assert screen.accessibility_violations() == []
    assert screen.overflow() == 0
    with screen.page.expect_navigation():
        screen.tap("main a:has-text('Friday club')")
    assert screen.page.url.endswith("/leagues/friday-club/games/new")
    screen.start_game("Cleo", "Dan", league="friday-club")
    screen.go("/")
    assert "Friday club" in screen.text("#main")  # its game in progress, under its name
