""" "Newest first" is by when a game was played (finished, else started), not by id: an
imported 2025 game shows below this week's games, on every list, in keyset pages (issue 13)."""

import re

import flask_migrate
import pytest
from sqlalchemy import func, select

from scorekeeper.database import MIGRATIONS_DIR
from scorekeeper.engine import Seat, Tally
from scorekeeper.league.transfer.read_csv import parse_csv
from scorekeeper.league.transfer.save import import_all
from scorekeeper.models import Game, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import service as game_service

IMPORTED = 30  # with this week's 4 games: more than a page (25)


def game_ids(html: str) -> list[int]:
    return [int(i) for i in re.findall(r'<li class="game-row">\s*<a href="/games/(\d+)"', html)]


@pytest.fixture
def played(app, table):
    """Three games started this week (the first one finished), then 30 games of January
    2025 imported, the later the day the lower the id, then one more game started: the
    order of ids is nothing like the order of play. Returns the ids newest first."""
    first, second, third = (table.start_game() for _ in range(3))
    table.record(first, 0, (1250, 50), confirm=True)  # finished after the others started
    rows = ["game,date,player_a,player_b,out,score_a,score_b"] + [
        # Day 30 first; Ana and Ben take turns in the first seat.
        f"{n},2025-01-{30 - n:02d},{'Ana,Ben' if n % 2 else 'Ben,Ana'},a,1200,100"
        for n in range(IMPORTED)
    ]
    with app.app_context():
        league_id = league_by_slug("our-table").id
        import_all(league_id, parse_csv("\n".join(rows)))
        imported = list(db.session.scalars(select(Game.id).where(Game.id > third)))
        db.session.remove()
    assert imported == sorted(imported)
    assert len(imported) == IMPORTED
    latest = table.start_game()
    return [latest, first, third, second, *imported]


def pages(client, path):
    """Every page of a paged list, following "Older games", then back with "Newer"."""
    found, url = [], path
    while url:
        html = client.get(url).get_data(as_text=True)
        found.append(game_ids(html))
        more = re.search(r'rel="next" href="([^"]+)"', html)
        url = more[1].replace("&amp;", "&") if more else None
    back = re.search(r'rel="prev" href="([^"]+)"', html)[1].replace("&amp;", "&")
    return found, game_ids(client.get(back).get_data(as_text=True))


def test_every_game_lists_games_by_when_they_were_played_across_pages(table, played):
    found, back = pages(table.client, "/leagues/our-table/games")
    assert found == [played[:25], played[25:]]
    assert back == played[:25]


def test_a_players_games_by_when_they_were_played_across_pages(app, table, played):
    with app.app_context():
        ana = player_service.find_player(league_by_slug("our-table").id, "Ana").id
    found, back = pages(table.client, f"/leagues/our-table/games?player={ana}")
    assert found == [played[:25], played[25:]]
    assert back == played[:25]
    page = table.client.get(f"/leagues/our-table/players/{ana}").get_data(as_text=True)
    assert game_ids(page) == played[:10]


def test_the_standings_and_home_page_show_the_games_played_last(table, played):
    standings = table.client.get("/leagues/our-table").get_data(as_text=True)
    assert game_ids(standings) == played[:10]
    home = table.client.get("/").get_data(as_text=True)
    in_progress = [played[0], played[2], played[3]]
    finished = [played[1], *played[4:13]]
    assert game_ids(home) == in_progress + finished


def test_the_api_lists_games_by_when_they_were_played_across_pages(api, played):
    first = api.get("/api/v1/leagues/our-table/games").get_json()
    second = api.get(f"/api/v1/leagues/our-table/games?page={first['next_page']}").get_json()
    assert [game["id"] for game in first["games"]] == played[:25]
    assert first["next_page"] == played[24]
    assert [game["id"] for game in second["games"]] == played[25:]
    assert second["next_page"] is None


def test_a_game_in_progress_again_goes_back_to_when_it_started(app, table, played):
    finished = played[1]
    with app.app_context():
        game_service.edit_deal(finished, 1, Tally(Seat.FIRST, (100, 50)))  # no longer ends it
        game = db.session.get(Game, finished)
        assert game.finished_at is None
        assert game.played_at == game.created_at
        db.session.remove()
    found, _back = pages(table.client, "/leagues/our-table/games")
    assert found[0][:4] == [played[0], played[2], played[3], finished]


def test_upgrading_fills_in_when_each_game_was_played(app, played):
    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0007_money_64bit")
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        wrong = db.session.scalar(
            select(func.count(Game.id)).where(
                Game.played_at != func.coalesce(Game.finished_at, Game.created_at)
            )
        )
        assert wrong == 0
        assert db.session.scalar(select(func.count(Game.id))) == len(played)
