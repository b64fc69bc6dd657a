"""Real threads against a file database (and PostgreSQL, in CI's second run).

Concurrent writers wait for each other (SQLite: BEGIN IMMEDIATE and a busy
timeout; PostgreSQL: a row lock on the game), so nothing is lost, doubled, or
refused with "database is locked".
"""

import uuid

import pytest

from scorekeeper.models import Deal, Game, db
from tests.conftest import run_together

pytestmark = pytest.mark.slow  # real threads waiting on each other's locks

THREADS = 8


def phones(app, auth, count=THREADS):
    return [auth.login(app.test_client()) for _ in range(count)]


def deal(out=0, score0=15, score1=0, **extra):
    return {
        "out": str(out),
        "score0": str(score0),
        "score1": str(score1),
        "token": uuid.uuid4().hex,
        **extra,
    }


def test_concurrent_scorekeepers_lose_nothing(table, app, auth):
    game_id = table.start_game()
    clients = phones(app, auth)

    def work(index):
        return [
            clients[index].post(f"/games/{game_id}/deals", data=deal()).status_code
            for _ in range(4)
        ]

    statuses = [code for codes in run_together(work, THREADS) for code in codes]
    assert statuses == [302] * THREADS * 4
    with app.app_context():
        numbers = db.session.scalars(
            db.select(Deal.number).where(Deal.game_id == game_id).order_by(Deal.number)
        ).all()
        game = db.session.get(Game, game_id)
        assert numbers == list(range(1, THREADS * 4 + 1))
        assert (game.deal_count, game.total0) == (THREADS * 4, 15 * THREADS * 4)


def test_the_same_submission_from_many_threads_is_recorded_once(table, app, auth):
    game_id = table.start_game()
    clients = phones(app, auth)
    data = deal(token="one-token")
    statuses = run_together(
        lambda i: clients[i].post(f"/games/{game_id}/deals", data=data).status_code, THREADS
    )
    assert statuses == [302] * THREADS
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1


def test_saves_from_the_same_stale_page_let_exactly_one_through(table, app, auth):
    game_id = table.start_game()
    clients = phones(app, auth)
    statuses = run_together(
        lambda i: clients[i].post(f"/games/{game_id}/deals", data=deal(version="1")).status_code,
        THREADS,
    )
    assert sorted(statuses) == [302] + [409] * (THREADS - 1)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1


def test_games_of_one_league_ending_together_all_end(table, app, auth):
    """Each game's last deal updates the league's standings under the league's lock, after
    writing rows that refer to the league: the writers queue for it, none deadlocks."""
    clients = phones(app, auth)
    games = [table.start_game(f"Ana {i}", f"Ben {i}") for i in range(THREADS)]
    for game_id in games:
        assert table.record(game_id, 0, (1100, 1000), confirm=True).status_code == 302
    statuses = run_together(
        lambda i: (
            clients[i]
            .post(f"/games/{games[i]}/deals", data=deal(score0=150, score1=40))
            .status_code
        ),
        THREADS,
    )
    assert statuses == [302] * THREADS
    with app.app_context():
        assert all(db.session.get(Game, game_id).finished for game_id in games)
