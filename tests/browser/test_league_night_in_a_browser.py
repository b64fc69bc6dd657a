"""A whole league night on a phone (390×844): six players, two rounds of three games
paired by Tonight, every game recorded, the standings up to date."""

import re

import pytest

from tests.browser.conftest import Screen

pytestmark = pytest.mark.browser

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eve", "Fay"]


def play_a_round(phone: Screen) -> list[frozenset[str]]:
    """Pair everyone here, start the round in one tap, and play each game to its end."""
    phone.go("/leagues/our-table/tonight")
    for name in PLAYERS:
        phone.page.get_by_label(name, exact=True).check()
    phone.tap("button[name=pair]")
    assert "sits out this round" not in phone.text()
    games = [
        frozenset(re.split(r"\s+vs\s+", line.strip()))
        for line in phone.page.locator("ol.pairings li .pair").all_inner_texts()
    ]
    assert len(games) == 3
    phone.tap("text=Start these 3 games")
    phone.page.wait_for_url(re.compile(r".*/tonight\?.*"))
    assert "3 games started." in phone.text()
    links = phone.page.locator("#in-progress ~ ul.games a").evaluate_all(
        "links => links.map(link => link.getAttribute('href'))"
    )
    assert len(links) == 3
    for link in links:
        phone.go(link)
        phone.record(0, (700, 300))
        phone.record(0, (600, 300))
        assert "won" in phone.text(".summary, main")
    return games


def test_a_league_night_of_six(browser, live_server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone = Screen(context.new_page(), live_server, "390x844")
    phone.sign_in()
    for name in PLAYERS:
        phone.go("/leagues/our-table/players")
        phone.type("#name", name)
        phone.tap("form button.primary")
    first = play_a_round(phone)
    second = play_a_round(phone)
    assert len(set(first) | set(second)) == 6  # nobody met twice
    phone.go("/leagues/our-table")
    phone.shot("league-night-standings")
    # On a phone each player's row shows the record, won–lost (issue 38, point 14); the
    # rest is in a row of its own under it.
    rows = phone.page.locator("table.standings tbody tr:not(.row-more)").all_inner_texts()
    assert len(rows) == 6
    wins = 0
    for name in PLAYERS:
        row = next(row for row in rows if row.split()[0] == name)
        record = re.search(r"(\d+)–(\d+)", row)
        assert record, row
        won, lost = int(record[1]), int(record[2])
        assert won + lost == 2  # two games each
        wins += won
    assert wins == 6
    assert phone.overflow() == 0
    context.close()
    assert phone.errors == []
