"""``python -m bench.wire``: the bytes one recorded deal puts on the wire (issue 17).

On a generated league (SQLite, 200 games), a signed-in scorekeeper with a browser's
``Accept-Encoding: gzip, deflate, br`` records deals two ways, through the real app
(Flask's test client): as the page's script does — one POST answered with the game
page (``X-Requested-With: fetch``) — and as a browser without the script does — the
POST, its redirect, the game page. Counted: each request's line, headers and body, and
each answer's status line, headers and body as sent (compressed). The static files
are cached for good (``scorekeeper.web.assets``), so they cost nothing here. Target: under
5 KB a deal with the script.
"""

import tempfile
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from scorekeeper.engine import PRESETS, Preset, Seat, Stakes
from scorekeeper.models import db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import starting

from .common import PASSWORD, SCOREKEEPER, dispose, make_app
from .generate import generate_into
from .load import SLUG

ACCEPT = {"Accept-Encoding": "gzip, deflate, br", "Accept": "text/html"}
DEALS = [(0, 300, 200), (1, 150, 400), (0, 100, 50), (1, 200, 250)]


def request_bytes(method: str, path: str, headers: dict[str, str], body: str = "") -> int:
    lines = [f"{method} {path} HTTP/1.1", "Host: 192.168.1.20:5000"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return len("\r\n".join(lines).encode()) + 4 + len(body.encode())


def answer_bytes(response: Any) -> int:
    head = [f"HTTP/1.1 {response.status}"]
    head += [f"{name}: {value}" for name, value in response.headers.items()]
    return len("\r\n".join(head).encode()) + 4 + len(response.data)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="mille-wire-") as work:
        app = make_app(f"sqlite:///{Path(work) / 'wire.sqlite'}", WTF_CSRF_ENABLED=False)
        try:
            generate_into(app, players=16, games=200, seed=7, scorekeepers=1)
            with app.app_context():
                league = league_by_slug(SLUG)
                assert league is not None
                rules, stakes = PRESETS[Preset.STANDARD], Stakes.from_small(100)
                game_ids = [
                    starting.start_game(league.id, pair, rules, stakes, Seat(0)).id
                    for pair in (("Ana", "Ben"), ("Cleo", "Dan"))
                ]
                db.session.remove()
            client = app.test_client()
            login = {"username": f"{SCOREKEEPER}-1", "password": PASSWORD}
            assert client.post("/login", data=login).status_code == 302
            session = client.get_cookie("session")
            assert session is not None
            cookie = f"session={session.value}"
            print("One recorded deal, bytes on the wire (compressed answers, cached static files)")
            for label, game_id, scripted in (
                ("with the script: one request", game_ids[0], True),
                ("without: POST, redirect, GET", game_ids[1], False),
            ):
                totals = []
                for out, score0, score1 in DEALS:
                    form = {
                        "out": str(out),
                        "score0": str(score0),
                        "score1": str(score1),
                        "stars0": "0",
                        "stars1": "0",
                        "token": uuid.uuid4().hex,
                    }
                    headers = {**ACCEPT, "Cookie": cookie}
                    if scripted:
                        headers["X-Requested-With"] = "fetch"
                    body = urlencode(form)
                    path = f"/games/{game_id}/deals"
                    sent = request_bytes("POST", path, headers, body)
                    answer = client.post(path, data=form, headers=headers)
                    received = answer_bytes(answer)
                    requests = 1
                    if answer.status_code == 302:
                        location = answer.headers["Location"].split("#")[0]
                        page = client.get(location, headers=ACCEPT)
                        sent += request_bytes("GET", location, {**ACCEPT, "Cookie": cookie})
                        received += answer_bytes(page)
                        requests += 1
                    else:
                        assert answer.status_code == 200, answer.status_code
                    totals.append((requests, sent, received))
                requests, sent, received = (
                    round(sum(t[i] for t in totals) / len(totals)) for i in range(3)
                )
                print(
                    f"  {label:<30} {requests} request(s), sent {sent:,} B, "
                    f"received {received:,} B, total {sent + received:,} B"
                )
        finally:
            dispose(app)


if __name__ == "__main__":
    main()
