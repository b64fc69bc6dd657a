"""``python -m bench.recording``: what recording one deal costs, by every path a phone or a
script takes, in SQL statements and in time (issue 22: one save, one read).

The paths, each through the whole app with Flask's test client, signed in:

* **page, redirect**: the deal form posted without a script (``302`` to the game page);
* **page, one request**: the same form from ``static/app.js`` (``X-Requested-With:
  fetch``), answered with the game page itself;
* **page, last deal**: a deal that ends the game, answered in one request (the
  settlement, the league's results and records written with it);
* **API**: ``POST /api/v1/games/<id>/deals`` with a bearer token, answered with the game.

Each path's statements are counted once (``BEGIN`` left out, as in
``tests/league/test_query_counts.py``), then it is timed ``--count`` times after a
warm-up: median and p95 in milliseconds. Games are fresh ones with three deals, so no
timed request ends a game but the "last deal" one. Timings are noisy on a shared
machine; the statement counts are exact. Run it before and after a change::

    python -m bench.recording --db both
"""

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event
from werkzeug.test import TestResponse

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import db
from tests.databases import server_database

from .common import DEFAULT_POSTGRES, PASSWORD, dispose, make_app, percentile

WARM_UP = 10
#: Three deals that leave the game at 1,030 to 600: the next deal of 200 ends it.
OPENING = [(0, (300, 200)), (1, (150, 250)), (0, (580, 150))]


class Evening:
    """A scorekeeper's browser and script on one app, and fresh games to record into."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        with app.app_context():
            admin = user_service.create_first_admin("bench-admin", PASSWORD)
            self.token = token_service.create_token(admin.id, "bench")
            db.session.remove()
        self.browser = app.test_client()
        login = {"username": "bench-admin", "password": PASSWORD}
        assert self.browser.post("/login", data=login).status_code == 302

    def new_game(self) -> int:
        data = {
            "player0": "Ana",
            "player1": "Ben",
            "new_player0": "Ana",
            "new_player1": "Ben",
            "preset": "standard",
            "target": "1200",
            "skunk": "multiply",
            "difference": "round",
            "small": "1",
            "big": "",
            "first_dealer": "0",
            "submit": "1",
        }
        response = self.browser.post("/leagues/our-table/games/new", data=data)
        game_id = int(response.headers["Location"].rsplit("/", 1)[1])
        for out, scores in OPENING:
            self.page_deal(game_id, out, scores, fetch=False)
        return game_id

    def page_deal(self, game_id: int, out: int, scores: tuple[int, int], *, fetch: bool) -> Any:
        data = {
            "out": str(out),
            "score0": str(scores[0]),
            "score1": str(scores[1]),
            "stars0": "0",
            "stars1": "0",
            "token": uuid.uuid4().hex,
        }
        headers = {"X-Requested-With": "fetch"} if fetch else {}
        response = self.browser.post(f"/games/{game_id}/deals", data=data, headers=headers)
        assert response.status_code == (200 if fetch else 302), response.status_code
        return response

    def api_deal(self, game_id: int) -> TestResponse:
        body = {"out": 0, "scores": [20, 5], "naturals": [0, 0]}
        headers = {"Authorization": f"Bearer {self.token}"}
        response = self.browser.post(f"/api/v1/games/{game_id}/deals", json=body, headers=headers)
        assert response.status_code == 201, response.get_data()[:200]
        return response


def paths(evening: Evening) -> dict[str, Callable[[], Callable[[], object]]]:
    """Each path: a setup (a fresh game, untimed) that returns the request to time."""

    def on_fresh_game(send: Callable[[int], object]) -> Callable[[], Callable[[], object]]:
        def setup() -> Callable[[], object]:
            game_id = evening.new_game()
            return lambda: send(game_id)

        return setup

    return {
        "page, redirect": on_fresh_game(lambda g: evening.page_deal(g, 0, (20, 5), fetch=False)),
        "page, one request": on_fresh_game(lambda g: evening.page_deal(g, 0, (20, 5), fetch=True)),
        "page, last deal": on_fresh_game(lambda g: evening.page_deal(g, 0, (200, 5), fetch=True)),
        "API": on_fresh_game(evening.api_deal),
    }


def statements_of(app: Flask, send: Callable[[], object]) -> int:
    """The SQL statements ``send()`` makes the app send, ``BEGIN`` left out."""
    sent: list[str] = []

    def seen(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if not statement.startswith("BEGIN"):
            sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        send()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return len(sent)


def measure(app: Flask, count: int) -> dict[str, tuple[int, list[float]]]:
    evening = Evening(app)
    found = {}
    for name, setup in paths(evening).items():
        statements = statements_of(app, setup())
        times = []
        for round_ in range(WARM_UP + count):
            send = setup()
            began = time.perf_counter()
            send()
            if round_ >= WARM_UP:
                times.append(time.perf_counter() - began)
        found[name] = (statements, times)
    return found


@contextmanager
def database(kind: str, server: str) -> Iterator[str]:
    if kind == "postgresql":
        with server_database(server, prefix="mille_bench") as url:
            yield url
        return
    with tempfile.TemporaryDirectory() as folder:
        yield f"sqlite:///{Path(folder) / 'bench.db'}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="server URL")
    parser.add_argument("--count", type=int, default=40, help="timed requests of each path")
    args = parser.parse_args(argv)
    for kind in ["sqlite", "postgresql"] if args.db == "both" else [args.db]:
        with database(kind, args.postgres) as url:
            app = make_app(url, WTF_CSRF_ENABLED=False)  # the forms as the tests post them
            print(f"{kind}: {args.count} deals by each path")
            for name, (statements, times) in measure(app, args.count).items():
                median = statistics.median(times) * 1000
                p95 = percentile(times, 95) * 1000
                print(
                    f"  {name:<18} {statements:3d} statements   "
                    f"median {median:6.2f} ms   p95 {p95:6.2f} ms"
                )
            dispose(app)


if __name__ == "__main__":
    main()
