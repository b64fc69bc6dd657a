"""Real threads against a file database (and PostgreSQL, in CI's second run).

Concurrent writers wait for each other (SQLite: BEGIN IMMEDIATE and a busy
timeout; PostgreSQL: a row lock on the game), so nothing is lost, doubled, or
refused with "database is locked".
"""

import os
import threading
import uuid
from contextlib import contextmanager

import pytest
from sqlalchemy import select

from scorekeeper.models import Deal, Game, League, db
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


# A game's lock and its league's (PostgreSQL's row locks; SQLite has one writer) ----------

on_postgresql = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL"),
    reason="row locks are PostgreSQL's; SQLite has one writer (run with DATABASE_URL)",
)


@contextmanager
def league_held(app, game_id):
    """The game's league locked as a change to its derived rows locks it, by another
    connection, until the block ends."""
    with app.app_context():
        league_id = db.session.get(Game, game_id).league_id
        engine = db.engine
        db.session.remove()
    with engine.connect() as connection:
        connection.execute(
            select(League.id).where(League.id == league_id).with_for_update(key_share=True)
        )
        yield
        connection.rollback()


def post_in_thread(client, url, data):
    """POST from a thread of its own; the list gets the status when it comes."""
    answered = []
    thread = threading.Thread(target=lambda: answered.append(client.post(url, data=data)))
    thread.start()
    return thread, answered


@on_postgresql
def test_an_ordinary_deal_is_recorded_while_its_league_is_locked(table, app, auth):
    """A deal that ends no game changes nothing but its game: it doesn't wait for the
    league's lock, so the tables of one league record side by side (issue 26)."""
    game_id = table.start_game()
    client = auth.login(app.test_client())
    with league_held(app, game_id):
        thread, answered = post_in_thread(client, f"/games/{game_id}/deals", deal())
        thread.join(timeout=20)
        assert [response.status_code for response in answered] == [302]


@on_postgresql
def test_the_deal_that_ends_a_game_waits_for_its_league(table, app, auth):
    """The last deal adds to the league's standings: it waits for the league's lock, and
    is recorded once the lock is let go."""
    game_id = table.start_game()
    assert table.record(game_id, 0, (1100, 1000), confirm=True).status_code == 302
    client = auth.login(app.test_client())
    with league_held(app, game_id):
        thread, answered = post_in_thread(
            client, f"/games/{game_id}/deals", deal(score0=150, score1=40)
        )
        thread.join(timeout=2)
        assert thread.is_alive()
        assert not answered
    thread.join(timeout=20)
    assert [response.status_code for response in answered] == [302]
    with app.app_context():
        assert db.session.get(Game, game_id).finished


def test_games_ending_while_others_are_corrected_all_get_through(table, app, auth):
    """Games locked first, then the league, on every path: the last deals of some games
    and corrections and undos of other finished games, all at once, none deadlocks."""
    clients = phones(app, auth)
    games = [table.start_game(f"Ana {i}", f"Ben {i}") for i in range(THREADS)]
    for index, game_id in enumerate(games):
        assert table.record(game_id, 0, (1100, 1000), confirm=True).status_code == 302
        if index % 2:
            assert table.record(game_id, 0, (150, 40)).status_code == 302

    def work(index):
        game_id, client = games[index], clients[index]
        if index % 4 == 0:
            return client.post(f"/games/{game_id}/deals", data=deal(score0=150, score1=40))
        if index % 4 == 1:
            return client.post(f"/games/{game_id}/deals/2", data=deal(score0=160, score1=40))
        if index % 4 == 2:
            return client.post(f"/games/{game_id}/deals", data=deal(score0=200, score1=40))
        return client.post(f"/games/{game_id}/undo")

    responses = run_together(work, THREADS)
    assert [response.status_code for response in responses] == [302] * THREADS
    with app.app_context():
        finished = [db.session.get(Game, game_id).finished for game_id in games]
    assert finished == [index % 4 != 3 for index in range(THREADS)]
