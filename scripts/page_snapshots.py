"""``python -m scripts.page_snapshots OUT``: a fixed set of pages, rendered to files, to
compare a change that should show nothing new against the code before it.

It builds the real app on a fresh SQLite file, plays a deterministic evening through
the pages themselves (a game in progress, a finished and paid one, a tie, a skunk, a
season, a second member), with the clock stopped at a known moment for each step, then
saves each page of :data:`PAGES` in English and in French as ``OUT/<lang>/<name>.html``.
Only the pages' URLs and forms are used, plus two calls that have not moved in years
(``create_app``, ``accounts.users``), so the script runs unchanged on older checkouts::

    git worktree add /tmp/before main
    (cd /tmp/before && python -m scripts.page_snapshots /tmp/pages-before)
    python -m scripts.page_snapshots /tmp/pages-after
    diff -r /tmp/pages-before /tmp/pages-after && echo identical

What can't be the same twice is masked: the one-time tokens of forms (``uuid4``), the
sign-out button's CSRF token, and the fingerprints of static files (a changed script is
not a changed page).

``--api`` saves the JSON API's answers too (:data:`API`, each game's and its history):
``OUT/api/<name>.json``. ``--league`` keeps the league the evening made, to render again
with newer code after it upgraded it (:func:`replay`; ``tests/ops/test_upgrade.py``):
``OUT/league.sqlite``, the database as the evening left it, and ``OUT/league.json``,
what was rendered from it (the games' ids, the API token, the clock, every request).
``--checkout DIR`` runs the app of another checkout (older code, its own virtualenv) with
this script, ``--gzip`` compresses every file written (``.gz``, the same bytes each time)::

    /tmp/before/.venv/bin/python -m scripts.page_snapshots --checkout /tmp/before \
        --league --gzip tests/ops/data/upgrade_0017
"""

import argparse
import gzip
import json
import re
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

#: The moment the evening starts; each step of it happens one minute after the last.
START = datetime(2024, 3, 8, 19, 30, tzinfo=UTC)
PASSWORD = "snapshot-password"

#: (name, method, path, form) of every page compared; ``{in_progress}`` and the like are
#: the ids of the evening's games.
PAGES: list[tuple[str, str, str, dict[str, str] | None]] = [
    ("home", "GET", "/", None),
    ("game-in-progress", "GET", "/games/{in_progress}", None),
    ("game-finished", "GET", "/games/{finished}", None),
    ("game-paid", "GET", "/games/{paid}", None),
    ("game-tie", "GET", "/games/{tie}", None),
    ("game-skunk-settlement", "GET", "/games/{skunk}", None),
    ("edit-deal", "GET", "/games/{in_progress}/deals/1", None),
    ("count", "GET", "/games/{in_progress}/count", None),
    ("new-game", "GET", "/leagues/our-table/games/new", None),
    ("leagues", "GET", "/leagues", None),
    ("standings", "GET", "/leagues/our-table", None),
    ("standings-season", "GET", "/leagues/our-table?season=1&sort=net&order=asc", None),
    ("player", "GET", "/leagues/our-table/players/1", None),
    ("head-to-head", "GET", "/leagues/our-table/head-to-head?first=1&second=2", None),
    ("archive", "GET", "/leagues/our-table/games", None),
    ("owes", "GET", "/leagues/our-table/owes", None),
    ("balance", "GET", "/leagues/our-table/owes/1/2", None),
    ("payments", "GET", "/leagues/our-table/payments", None),
    ("players", "GET", "/leagues/our-table/players", None),
    ("settings", "GET", "/leagues/our-table/settings", None),
    ("members", "GET", "/leagues/our-table/members", None),
    ("seasons", "GET", "/leagues/our-table/seasons", None),
    ("import", "GET", "/leagues/our-table/import", None),
    ("receipt", "GET", "/games/{paid}/receipt", None),
    ("receipt-skunk", "GET", "/games/{skunk}/receipt", None),
    ("count-again", "GET", "/games/{in_progress}/deals/2/count", None),
    ("chances", "GET", "/leagues/our-table/games/new/chances?player0=Ana&player1=Chlo%C3%A9", None),
    ("tonight", "GET", "/leagues/our-table/tonight", None),
    ("season", "GET", "/leagues/our-table/seasons/1", None),
    ("player-chloe", "GET", "/leagues/our-table/players/3", None),
    # Forms with errors: what was typed stays, each problem is said beside its field.
    (
        "deal-errors",
        "POST",
        "/games/{in_progress}/deals",
        {"out": "0", "score0": "12", "score1": "abc", "stars0": "9", "stars1": "-1"},
    ),
    (
        "deal-warning",
        "POST",
        "/games/{in_progress}/deals",
        {"out": "0", "score0": "1005", "score1": "10", "stars0": "0", "stars1": "1"},
    ),
    (
        "count-errors",
        "POST",
        "/games/{in_progress}/count",
        {
            "went_out": "0",
            "player0-sets-0-rank": "K",
            "player0-sets-0-naturals": "2",
            "player0-sets-1-rank": "Q",
            "player0-sets-1-naturals": "9",
            "player0-sets-1-specials": "3",
            "player1-threes_to_nines": "x",
        },
    ),
    (
        "count-result",
        "POST",
        "/games/{in_progress}/count",
        {
            "went_out": "0",
            "player0-sets-0-rank": "10",
            "player0-sets-0-naturals": "8",
            "player0-sets-1-rank": "K",
            "player0-sets-1-naturals": "3",
            "player0-sets-1-wild_twos": "1",
            "player1-sets-0-rank": "5",
            "player1-sets-0-naturals": "3",
            "player1-queen_of_spades": "1",
            "player1-aces": "2",
        },
    ),
    (
        "new-game-errors",
        "POST",
        "/leagues/our-table/games/new",
        {"player0": "Ana", "player1": "ana", "preset": "custom", "target": "-5", "small": "x"},
    ),
    (
        "season-errors",
        "POST",
        "/leagues/our-table/seasons",
        {"name": "", "starts_on": "2024-05-01", "ends_on": "2024-04-01"},
    ),
    ("member-errors", "POST", "/leagues/our-table/members", {"username": "nobody", "role": "1"}),
]


#: (name, path) of the JSON API's answers saved with ``--api``, besides each game's own
#: (``game-<name>``) and its history (``history-<name>``), for every game of the evening.
API: list[tuple[str, str]] = [
    ("leagues", "/api/v1/leagues"),
    ("league", "/api/v1/leagues/our-table"),
    ("standings", "/api/v1/leagues/our-table/standings"),
    ("games", "/api/v1/leagues/our-table/games"),
    ("games-finished", "/api/v1/leagues/our-table/games?status=finished"),
    ("games-of-ana", "/api/v1/leagues/our-table/games?player=Ana"),
]
GAME_API: list[tuple[str, str]] = [
    ("game-{name}", "/api/v1/games/{id}"),
    ("history-{name}", "/api/v1/games/{id}/history"),
]


class StoppedClock(datetime):
    """``datetime`` whose ``now()`` is :attr:`moment`, moved on by hand between steps."""

    moment = START

    @classmethod
    def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
        return cls.moment.astimezone(tz) if tz else cls.moment.replace(tzinfo=None)


@contextmanager
def stopped_clock() -> Iterator[type[StoppedClock]]:
    """Every time the app stores (``models.base.utcnow``) read from the stopped clock."""
    from scorekeeper.models import base

    real = base.datetime
    base.datetime = StoppedClock  # type: ignore[misc]
    try:
        yield StoppedClock
    finally:
        base.datetime = real  # type: ignore[misc]


def tick() -> None:
    StoppedClock.moment += timedelta(minutes=1)


def build(database: str) -> Flask:
    """The app on ``database`` (a URL), migrated to the newest schema the code knows."""
    from scorekeeper import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "snapshots",
            "WTF_CSRF_ENABLED": False,
            "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
            "SQLALCHEMY_DATABASE_URI": database,
        }
    )


def let_go(app: Flask) -> None:
    """Close the app's connections (SQLite's write-ahead log goes into the file)."""
    with app.app_context():
        from scorekeeper.models import db

        db.session.remove()
        db.engine.dispose()


def ok(response: Any, *codes: int) -> Any:
    if response.status_code not in (codes or (200, 302)):
        problems = re.findall(r'class="[^"]*(?:error|flash)[^"]*"[^>]*>([^<]*)', response.text)
        raise AssertionError(f"{response.request.path}: {response.status_code} {problems}")
    tick()
    return response


def new_game(client: FlaskClient, first: str, second: str, **fields: str) -> int:
    data = {
        "player0": first,
        "player1": second,
        "new_player0": first,
        "new_player1": second,
        "preset": "standard",
        "target": "1200",
        "skunk": "multiply",
        "difference": "round",
        "small": "1",
        "big": "",
        "first_dealer": "0",
        "submit": "1",
        **fields,
    }
    response = ok(client.post("/leagues/our-table/games/new", data=data), 302)
    found = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert found, response.headers["Location"]
    return int(found[1])


def deal(client: FlaskClient, game: int, out: int, scores: tuple[int, int], stars=(0, 0)) -> None:
    data = {
        "out": str(out),
        "score0": str(scores[0]),
        "score1": str(scores[1]),
        "stars0": str(stars[0]),
        "stars1": str(stars[1]),
        "token": f"{int(StoppedClock.moment.timestamp()):032x}",
    }
    page = client.post(f"/games/{game}/deals", data=data)
    if page.status_code == 200:  # a warning: the form asks "save it as typed?"
        confirm = re.search(r'name="confirm"[^>]*value="([^"]+)"', page.get_data(as_text=True))
        assert confirm, page.get_data(as_text=True)[:2000]
        page = client.post(f"/games/{game}/deals", data={**data, "confirm": confirm[1]})
    ok(page, 302)


#: The Wikipedia score card of RULES.md §5: Ben wins, 1,600 to 1,165.
WIKIPEDIA = [
    (1, (140, 350), (0, 0)),
    (0, (290, 160), (0, 0)),
    (0, (220, 80), (1, 0)),
    (0, (150, -50), (0, 0)),
    (1, (140, 300), (0, 1)),
    (0, (210, 190), (0, 0)),
    (0, (125, 150), (0, 0)),
]


def evening(app: Flask) -> dict[str, int]:
    """Play the fixed evening; the games' ids by name."""
    from scorekeeper.accounts import users

    with app.app_context():
        users.create_first_admin("admin", PASSWORD)
    client = app.test_client()
    ok(client.post("/login", data={"username": "admin", "password": PASSWORD}), 302)
    member = {"username": "kim", "role": "2", "password": PASSWORD, "submit": "1"}
    ok(client.post("/leagues/our-table/members", data=member), 302)
    season = {"name": "Spring", "starts_on": "2024-03-01", "ends_on": "2024-05-31"}
    ok(client.post("/leagues/our-table/seasons", data=season), 302)
    games = {"finished": new_game(client, "Ana", "Ben")}
    for out, scores, stars in WIKIPEDIA:
        deal(client, games["finished"], out, scores, stars)
    games["paid"] = new_game(client, "Ana", "Ben", small="2", big="5")
    for out, scores, stars in WIKIPEDIA[::-1]:
        deal(client, games["paid"], 1 - out, scores[::-1], stars[::-1])
    ok(client.post(f"/games/{games['paid']}/paid", data={}), 302)
    games["tie"] = new_game(client, "Ben", "Chloé")
    deal(client, games["tie"], 0, (600, 600))
    deal(client, games["tie"], 1, (600, 600))
    games["skunk"] = new_game(client, "Chloé", "Ana", small="1", big="3")
    skunk = [(0, (900, 100), (1, 0)), (1, (-50, 100), (0, 1)), (0, (500, 0), (2, 0))]
    for out, scores, stars in skunk:
        deal(client, games["skunk"], out, scores, stars)
    games["in_progress"] = new_game(client, "Ana", "Chloé", first_dealer="1")
    deal(client, games["in_progress"], 1, (130, 285), (0, 1))
    deal(client, games["in_progress"], 0, (210, 95))
    return games


def snapshot(out: Path, *, api: bool = False, league: bool = False, zipped: bool = False) -> int:
    """Play the evening, then render every page of :data:`PAGES` in both languages into
    ``out`` (and the answers of :data:`API` with ``api``; with ``league``, keep the league
    to render again, :func:`replay`); how many files."""
    StoppedClock.moment = START
    with tempfile.TemporaryDirectory() as folder, stopped_clock():
        database = Path(folder) / "snapshots.sqlite"
        app = build(f"sqlite:///{database}")
        games = evening(app)
        record = requests(games, api_token(app) if api or league else None)
        written = 0
        if league:
            let_go(app)
            record["revision"] = revision(database)
            kept = copied(database, Path(folder) / "copy.sqlite")
            text = json.dumps(record, indent=1, ensure_ascii=False) + "\n"
            written = write(out, "league.sqlite", kept, zipped)
            written += write(out, "league.json", text.encode(), zipped=False)
        written += replay(app, record, out, zipped)
        let_go(app)
    return written


def requests(games: dict[str, int], token: str | None) -> dict[str, Any]:
    """What :func:`replay` renders after the evening: its pages (and answers, given a
    token), each request written out, the clock's moment, the games' ids."""
    answers = list(API) + [
        (name.format(name=game), path.format(id=number))
        for game, number in games.items()
        for name, path in GAME_API
    ]
    return {
        "moment": StoppedClock.moment.isoformat(),
        "games": games,
        "token": token,
        "pages": [[name, method, path.format(**games), form] for name, method, path, form in PAGES],
        "api": [list(answer) for answer in answers] if token else [],
    }


def replay(app: Flask, record: dict[str, Any], out: Path, zipped: bool = False) -> int:
    """Sign in at the moment ``record`` says, then render its pages in English and French,
    masked, and its API answers, into ``out``; how many files. On a league an older
    version of the app made, it renders what that version rendered, through this one."""
    StoppedClock.moment = datetime.fromisoformat(record["moment"])
    written = 0
    with stopped_clock():
        client = app.test_client()
        ok(client.post("/login", data={"username": "admin", "password": PASSWORD}), 302)
        for language in ("en", "fr"):
            client.set_cookie("lang", language)
            for name, method, path, form in record["pages"]:
                response = client.open(path, method=method, data=form)
                assert response.status_code < 500, (name, response.status_code)
                page = f"<!-- {response.status_code} -->\n{masked(response.get_data(as_text=True))}"
                written += write(out, f"{language}/{name}.html", page.encode(), zipped)
        script = app.test_client()
        for name, path in record["api"]:
            headers = {"Authorization": f"Bearer {record['token']}"}
            answer = script.get(path, headers=headers)
            assert answer.status_code == 200, (name, answer.status_code, answer.get_data())
            written += write(out, f"api/{name}.json", answer.get_data(), zipped)
    return written


def api_token(app: Flask) -> str:
    """An API token of the site administrator, made on the account page."""
    client = app.test_client()
    ok(client.post("/login", data={"username": "admin", "password": PASSWORD}), 302)
    form = {"token-name": "snapshots", "token-submit": "1"}
    page = ok(client.post("/account", data=form), 201).get_data(as_text=True)
    found = re.search(r'<code class="token">([^<]+)</code>', page)
    assert found, page[:2000]
    return found[1]


def revision(database: Path) -> str:
    with sqlite3.connect(database) as connection:
        (found,) = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    connection.close()
    return str(found)


def copied(database: Path, copy: Path) -> bytes:
    """The SQLite file's bytes, compacted (``VACUUM INTO``: no free pages, no log)."""
    with sqlite3.connect(database) as connection:
        connection.execute("VACUUM INTO ?", (str(copy),))
    connection.close()
    return copy.read_bytes()


def write(out: Path, name: str, data: bytes, zipped: bool) -> int:
    """Write ``out/name`` (``name.gz`` when ``zipped``, the same bytes every time); 1."""
    path = out / (f"{name}.gz" if zipped else name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(data, mtime=0) if zipped else data)
    return 1


def use_checkout(folder: Path) -> None:
    """Import the app from the checkout in ``folder`` rather than from this one."""
    root = folder.resolve()
    sys.path.insert(0, str(root))
    import scorekeeper

    if not Path(scorekeeper.__file__).resolve().is_relative_to(root):
        raise SystemExit(f"scorekeeper was already imported from {scorekeeper.__file__}")


def masked(page: str) -> str:
    """The page without what differs on every render: form tokens and file fingerprints."""
    page = re.sub(r'value="[0-9a-f]{32}"', 'value="TOKEN"', page)
    page = re.sub(r'(name="csrf_token" value=)"[^"]*"', r'\1"CSRF"', page)
    page = re.sub(r"\?v=[0-9a-f]{8,}", "?v=HASH", page)
    # The app's version in every page's footer (since 0.3.0): a release is not a change of
    # the pages it shows.
    page = re.sub(r'\n *<p class="version">[^<]*</p>', "", page)
    # Tonight beside New game in every page's header for a scorekeeper (issue 38, point 11):
    # one link the old pages lacked, not a change of what they show.
    return re.sub(r'\n *<a class="nav-tonight" href="[^"]*">[^<]*</a>', "", page)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write the pages into")
    parser.add_argument("--api", action="store_true", help="the API's answers too")
    parser.add_argument("--league", action="store_true", help="keep the league (and --api)")
    parser.add_argument("--gzip", action="store_true", help="compress every file written")
    parser.add_argument("--checkout", type=Path, help="run the app of this checkout")
    args = parser.parse_args(argv)
    if args.checkout:
        use_checkout(args.checkout)
    written = snapshot(args.out, api=args.api, league=args.league, zipped=args.gzip)
    print(f"{written} files written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
