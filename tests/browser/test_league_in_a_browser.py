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
    if screen.name == "phone":  # the record and the rating; net in the row's "more"
        assert re.search(r"Ana\s+2–1\s.*1514 ±202.*Net −\$12\.00", standings), standings
    else:  # won, lost, net, played
        assert re.search(r"Ana\s+2\s+1\s+\S+\s+3", standings), standings
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


@pytest.mark.parametrize("size", [(360, 640), (390, 844)], ids=["360x640", "390x844"])
def test_standings_on_a_phone_show_player_won_lost_and_net_without_scrolling(
    browser, live_server, wikipedia_card, size
):
    """The columns a phone shows (player, record, rating with its ± and mark: issue 38,
    point 14) are inside the screen, and so is the net money in each row's "more"."""
    from .conftest import Screen

    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
    )
    try:
        screen = Screen(context.new_page(), live_server, f"{width}x{height}")
        screen.sign_in()
        screen.start_game("Marie-Alexandrine de la Fontaine", "Maximilien")
        for deal in wikipedia_card:
            screen.record(*deal)
        screen.go("/leagues/our-table")
        headers = screen.page.locator("table.standings thead th").evaluate_all(
            "ths => ths.filter((th) => th.checkVisibility()).map((th) => th.innerText)"
        )
        labels = [re.match(r"[A-Za-z]+", header)[0] for header in headers]
        assert labels == ["Player", "Record", "Rating"]
        # Every shown cell, header and rows: its box on the screen.
        boxes = screen.page.evaluate(
            """() => [...document.querySelectorAll('table.standings tr')].flatMap(
                tr => [...tr.children].filter((cell) => cell.checkVisibility()).map(cell => {
                    const box = cell.getBoundingClientRect();
                    return [cell.innerText.trim(), box.left, box.right];
                }))"""
        )
        assert len(boxes) == 3 * 3 + 2  # the header and two players, each with its "more"
        outside = [(text, left, right) for text, left, right in boxes if left < 0 or right > width]
        assert outside == [], outside
        net = screen.page.locator("table.standings tr.row-more summary span").first
        assert net.inner_text().startswith(("+$", "−$"))
        assert net.bounding_box()["x"] + net.bounding_box()["width"] <= width
        assert screen.overflow() == 0  # the page itself never scrolls sideways
        screen.shot("standings-phone")
    finally:
        context.close()
