"""``python -m bench.recording``: what recording one deal costs, by every path a phone or a
script takes, in SQL statements and in time (issue 22: one save, one read).

The paths, each through the whole app with Flask's test client, signed in:

* **page, redirect**: the deal form posted without a script (``302`` to the game page);
* **page, one request**: the same form from ``static/app.js`` (``X-Requested-With:
  fetch``), answered with the game page itself;
* **page, last deal**: a deal that ends the game, answered in one request (the
  settlement, the league's results and records written with it);
* **API**: ``POST /api/v1/games/<id>/deals`` with a bearer token, answered with the game,
  and the same with an ``Idempotency-Key`` (the key and its answer kept with the deal);
* **correction** and **undo** (issue 26): the Fix page's form and the undo button, the
  API's ``PUT`` and ``DELETE`` of a deal, on a game in progress and on a finished game (a
  correction that changes its settlement, an undo that reopens it).
* **the other games** (issue 35): for each, through the API, a deal, a correction and a
  deletion of a deal on a game of three deals, and the end of a sitting.

Each path's statements are counted once (``BEGIN`` left out, as in
``tests/league/test_query_counts.py``; ``--show`` prints them), then it is timed
``--count`` times after a warm-up: median and p95 in milliseconds. Games are fresh ones
with three deals (four for a finished one), so no timed request ends a game but the
"last deal" ones. Timings are noisy on a shared machine; the statement counts are exact.
Run it before and after a change::

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
#: The deal that ends a game after the opening, and a correction of its second deal that
#: changes the settlement of the finished game without reopening it.
LAST = (0, (200, 5))
CORRECTION = (1, (150, 300))


#: Each other game: its players, stakes and rules, and a deal to record, correct and delete.
OTHER_GAMES: dict[str, tuple[list[str], dict[str, Any], dict[str, Any]]] = {
    "rummy": (["Ana", "Ben", "Cy"], {"point": "0.05"}, {"out": 1, "counts": [23, 0, 7]}),
    "boathouse-rummy": (["Ana", "Ben", "Cy"], {"point": "0.05"}, {"out": 0, "counts": [0, 9, 3]}),
    "continental-rummy": (
        ["Ana", "Ben", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"],
        {"unit": "0.25"},
        {"out": 2, "jokers": 1},
    ),
    "gamblers-rummy": (
        ["Ana", "Ben", "Cy", "Dan"],
        {"point": "0.10"},
        {"out": 0, "counts": [0, 12, 30, 4]},
    ),
    "knock-rummy": (
        ["Ana", "Ben", "Cy", "Dan"],
        {"point": "0.10"},
        {"knocker": 0, "counts": [6, 6, 14, 3]},
    ),
    "scotch-whist": (
        ["Ana", "Ben", "Cy", "Dan"],
        {"game": "1.00", "rules": {"target": 120, "partnerships": True}},
        {"honours": {"jack": 0, "ace": 1, "king": 1, "queen": 0, "ten": 0}, "cards": [20, 16]},
    ),
    "spoil-five": (["Ana", "Ben", "Cy", "Dan", "Eve"], {"ante": "0.50"}, {"winner": None}),
}


#: The deal that ends a Scotch Whist game to 120 after its three opening deals (75 to 21).
WHIST_LAST = {
    "honours": {"jack": 0, "ace": 0, "king": 0, "queen": 0, "ten": 0},
    "cards": [36, 0],
}


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

    def new_game(self, *, finished: bool = False) -> int:
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
        for out, scores in OPENING + ([LAST] if finished else []):
            self.page_deal(game_id, out, scores, fetch=False)
        return game_id

    @property
    def script(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def page_fix(self, game_id: int, number: int, deal: tuple[int, tuple[int, int]]) -> Any:
        out, scores = deal
        data = {
            "out": str(out),
            "score0": str(scores[0]),
            "score1": str(scores[1]),
            "stars0": "0",
            "stars1": "0",
        }
        response = self.browser.post(f"/games/{game_id}/deals/{number}", data=data)
        assert response.status_code == 302, response.status_code
        return response

    def page_undo(self, game_id: int) -> Any:
        response = self.browser.post(f"/games/{game_id}/undo", data={})
        assert response.status_code == 302, response.status_code
        return response

    def api_fix(self, game_id: int, number: int, deal: tuple[int, tuple[int, int]]) -> Any:
        body = {"out": deal[0], "scores": list(deal[1]), "naturals": [0, 0]}
        url = f"/api/v1/games/{game_id}/deals/{number}"
        response = self.browser.put(url, json=body, headers=self.script)
        assert response.status_code == 200, response.get_data()[:200]
        return response

    def api_undo(self, game_id: int, number: int) -> Any:
        url = f"/api/v1/games/{game_id}/deals/{number}"
        response = self.browser.delete(url, headers=self.script)
        assert response.status_code == 200, response.get_data()[:200]
        return response

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

    def new_sitting(self, game: str) -> int:
        """A game of ``game`` with three deals, through the API."""
        players, stakes, body = OTHER_GAMES[game]
        stakes = dict(stakes)
        rules = stakes.pop("rules", {})
        start = {"league": "our-table", "game": game, "players": players, "first_dealer": 0}
        for name in players:
            self.browser.post(
                "/api/v1/leagues/our-table/players", json={"name": name}, headers=self.script
            )
        started = self.browser.post(
            "/api/v1/games", json={**start, "stakes": stakes, "rules": rules}, headers=self.script
        )
        assert started.status_code == 201, started.get_data()[:300]
        game_id = int(started.get_json()["id"])
        for _ in range(3):
            self.api_send("POST", f"/api/v1/games/{game_id}/deals", body, 201)
        return game_id

    def api_send(self, method: str, url: str, body: Any, status: int) -> TestResponse:
        response = self.browser.open(url, method=method, json=body, headers=self.script)
        assert response.status_code == status, response.get_data()[:300]
        return response

    def api_deal(
        self, game_id: int, scores: tuple[int, int] = (20, 5), *, key: bool = False
    ) -> TestResponse:
        body = {"out": 0, "scores": list(scores), "naturals": [0, 0]}
        headers = self.script | ({"Idempotency-Key": uuid.uuid4().hex} if key else {})
        response = self.browser.post(f"/api/v1/games/{game_id}/deals", json=body, headers=headers)
        assert response.status_code == 201, response.get_data()[:200]
        return response


def paths(evening: Evening) -> dict[str, Callable[[], Callable[[], object]]]:
    """Each path: a setup (a fresh game, untimed) that returns the request to time."""

    def on_fresh_game(
        send: Callable[[int], object], *, finished: bool = False
    ) -> Callable[[], Callable[[], object]]:
        def setup() -> Callable[[], object]:
            game_id = evening.new_game(finished=finished)
            return lambda: send(game_id)

        return setup

    last = LAST[1]
    ended = len(OPENING) + 1
    return {
        "page, redirect": on_fresh_game(lambda g: evening.page_deal(g, 0, (20, 5), fetch=False)),
        "page, one request": on_fresh_game(lambda g: evening.page_deal(g, 0, (20, 5), fetch=True)),
        "page, last deal": on_fresh_game(lambda g: evening.page_deal(g, 0, last, fetch=True)),
        "page, last deal, redirect": on_fresh_game(
            lambda g: evening.page_deal(g, 0, last, fetch=False)
        ),
        "API": on_fresh_game(evening.api_deal),
        "API, last deal": on_fresh_game(lambda g: evening.api_deal(g, last)),
        "API, Idempotency-Key": on_fresh_game(lambda g: evening.api_deal(g, key=True)),
        "page, correction": on_fresh_game(lambda g: evening.page_fix(g, 2, CORRECTION)),
        "page, correction, finished": on_fresh_game(
            lambda g: evening.page_fix(g, 2, CORRECTION), finished=True
        ),
        "page, undo": on_fresh_game(evening.page_undo),
        "page, undo, reopens": on_fresh_game(evening.page_undo, finished=True),
        "API, correction": on_fresh_game(lambda g: evening.api_fix(g, 2, CORRECTION)),
        "API, correction, finished": on_fresh_game(
            lambda g: evening.api_fix(g, 2, CORRECTION), finished=True
        ),
        "API, undo": on_fresh_game(lambda g: evening.api_undo(g, len(OPENING))),
        "API, undo, reopens": on_fresh_game(lambda g: evening.api_undo(g, ended), finished=True),
        **{name: setup for game in OTHER_GAMES for name, setup in other_paths(evening, game)},
    }


def other_paths(
    evening: Evening, game: str
) -> list[tuple[str, Callable[[], Callable[[], object]]]]:
    """A game of another kind than Mille: a deal, a correction, a deletion, the end."""
    body = OTHER_GAMES[game][2]
    games = "/api/v1/games/{}"
    sends: list[tuple[str, str, str, Any, int]] = [
        ("deal", "POST", games + "/deals", body, 201),
        ("correction", "PUT", games + "/deals/2", body, 200),
        ("deletion", "DELETE", games + "/deals/3", None, 200),
        ("finish", "POST", games + "/finish", None, 200),
    ]

    def on_fresh_sitting(method: str, url: str, sent: Any, status: int) -> Any:
        def setup() -> Callable[[], object]:
            game_id = evening.new_sitting(game)
            return lambda: evening.api_send(method, url.format(game_id), sent, status)

        return setup

    return [
        (f"{game}, {what}", on_fresh_sitting(method, url, sent, status))
        for what, method, url, sent, status in sends
        if not (what == "finish" and game == "scotch-whist")  # it ends by its own rule
    ] + [
        ("scotch-whist, last deal", on_fresh_sitting("POST", games + "/deals", WHIST_LAST, 201))
        for _ in range(game == "scotch-whist")
    ]


def statements_of(app: Flask, send: Callable[[], object]) -> list[str]:
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
    return sent


def measure(app: Flask, count: int) -> dict[str, tuple[list[str], list[float]]]:
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
    parser.add_argument("--show", action="store_true", help="print each path's statements")
    args = parser.parse_args(argv)
    for kind in ["sqlite", "postgresql"] if args.db == "both" else [args.db]:
        with database(kind, args.postgres) as url:
            app = make_app(url, WTF_CSRF_ENABLED=False)  # the forms as the tests post them
            print(f"{kind}: {args.count} deals by each path")
            for name, (statements, times) in measure(app, args.count).items():
                timed = ""
                if times:
                    median = statistics.median(times) * 1000
                    p95 = percentile(times, 95) * 1000
                    timed = f"   median {median:6.2f} ms   p95 {p95:6.2f} ms"
                print(f"  {name:<32} {len(statements):3d} statements{timed}")
                for statement in statements if args.show else []:
                    print("      " + " ".join(statement.split())[:160])
            dispose(app)


if __name__ == "__main__":
    main()
