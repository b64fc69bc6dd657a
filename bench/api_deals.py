"""What reading a deal costs the API: ``POST /api/v1/games/<id>/deals`` through the
Flask test client on a throwaway SQLite database (issue 15).

Three kinds of request, each sent ``--count`` times after a warm-up:

* **recorded**: a valid deal (201): reading, the engine, the write and the game's answer;
* **refused, shape**: wrong types, a missing and an unknown field (422), refused while
  the body is read, before the engine;
* **refused, rule**: well-formed but breaking RULES.md §2 (422), refused by the engine.

The two refusals change nothing, so they isolate what reading and checking a body
costs next to the token and the game's look-up. Run it before and after a change
to the readers: ``python -m bench.api_deals``.
"""

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import db
from scorekeeper.records.leagues import ensure_default_league

from .common import dispose, make_app, percentile

WARM_UP = 50
RECORDED = {"out": 0, "scores": [20, 5], "naturals": [0, 0]}
REFUSED_SHAPE = {"out": True, "scores": ["140", 50.5], "naturals": [0, -1], "colour": "red"}
REFUSED_RULE = {"out": 0, "scores": [141, 10], "naturals": [0, 14]}


class Script:
    """The site administrator's token and a game to post to (a new one when it ends)."""

    def __init__(self, client: FlaskClient, token: str, league: str) -> None:
        self.client, self.league = client, league
        self.headers = {"Authorization": f"Bearer {token}"}
        for name in ("Ana", "Ben"):
            self.post(f"/api/v1/leagues/{league}/players", {"name": name}, 201)
        self.game_id = self.new_game()

    def post(self, path: str, body: dict[str, Any], status: int) -> Any:
        response = self.client.post(path, json=body, headers=self.headers)
        if response.status_code != status:
            raise RuntimeError(f"{path}: {response.status_code} {response.get_data()[:200]!r}")
        return response.get_json()

    def new_game(self) -> int:
        body = {"league": self.league, "players": ["Ana", "Ben"], "first_dealer": 0}
        return int(self.post("/api/v1/games", body, 201)["id"])

    def deal(self, body: dict[str, Any], status: int) -> None:
        game = self.post(f"/api/v1/games/{self.game_id}/deals", body, status)
        if status == 201 and game["status"] == "finished":
            self.game_id = self.new_game()


def timed(send: Callable[[], None], count: int) -> list[float]:
    for _ in range(WARM_UP):
        send()
    times = []
    for _ in range(count):
        began = time.perf_counter()
        send()
        times.append(time.perf_counter() - began)
    return times


def report(name: str, times: list[float]) -> None:
    median = statistics.median(times) * 1000
    p95 = percentile(times, 95) * 1000
    rate = len(times) / sum(times)
    print(f"{name:<16} {rate:8.0f} req/s   median {median:6.2f} ms   p95 {p95:6.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="requests of each kind")
    count = parser.parse_args().count
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(f"sqlite:///{Path(folder) / 'bench.db'}")
        with app.app_context():
            admin = user_service.create_first_admin("bench-admin", "bench-password")
            token = token_service.create_token(admin.id, "bench")
            league = ensure_default_league().slug
            db.session.remove()
        script = Script(app.test_client(), token, league)
        print(f"POST /api/v1/games/<id>/deals, {count} of each, SQLite, Flask test client")
        report("recorded", timed(lambda: script.deal(RECORDED, 201), count))
        report("refused, shape", timed(lambda: script.deal(REFUSED_SHAPE, 422), count))
        report("refused, rule", timed(lambda: script.deal(REFUSED_RULE, 422), count))
        dispose(app)


if __name__ == "__main__":
    main()
