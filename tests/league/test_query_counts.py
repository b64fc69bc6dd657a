"""Every league page, the game pages, recording a deal and who owes whom send a pinned
number of SQL statements, the same for a league of 6 games and of 60: a query per row
(an N+1) can't come back unnoticed. Counts, never times (the timings are
``python -m bench.pages``'s; see docs/PERFORMANCE.md).

A count leaves out the ``BEGIN`` that SQLite's connections send themselves
(:mod:`scorekeeper.database`), so the pins hold on SQLite and PostgreSQL alike.
"""

import uuid
from datetime import date, timedelta

import pytest
from sqlalchemy import event

from scorekeeper.engine import PRESETS, Preset, Rules, Seat, Stakes, Tally
from scorekeeper.league import seasons
from scorekeeper.models import Game, db
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import closing, starting
from scorekeeper.table import service as game_service
from tests.conftest import make_token

PLAYERS = ["Ana", "Ben", "Cleo", "Dan", "Eva"]
#: (who went out, scores, stars) — a chapeau, a star, and a close finish.
GAME = [(0, (600, 250), (1, 0)), (1, (150, -50), (0, 0)), (0, (500, 400), (0, 0))]

#: What a viewer reads: every league page.
VIEWER_PAGES = {
    "home": "/",
    "leagues": "/leagues",
    "standings": "/leagues/our-table",
    "standings sorted": "/leagues/our-table?sort=net&order=asc",
    "standings of a season": "/leagues/our-table?season={season}",
    "player": "/leagues/our-table/players/{ana}",
    "head-to-head, none chosen": "/leagues/our-table/head-to-head",
    "head-to-head": "/leagues/our-table/head-to-head?a={ana}&b={ben}",
    "archive": "/leagues/our-table/games",
    "archive, older page": "/leagues/our-table/games?after={middle}",
    "archive, newer page": "/leagues/our-table/games?before={middle}",
    "archive of a player": "/leagues/our-table/games?player={ana}",
    "archive, every filter": (
        "/leagues/our-table/games?player={ana}&opponent={ben}&season={season}&status=finished"
        "&preset=standard"
    ),
    "archive, unpaid": "/leagues/our-table/games?status=unpaid",
    "archive, abandoned": "/leagues/our-table/games?status=abandoned",
    "who owes whom": "/leagues/our-table/owes",
    "balance of two players": "/leagues/our-table/owes/{ben}/{ana}",
    "payments": "/leagues/our-table/payments",
    "players": "/leagues/our-table/players",
    "export csv": "/leagues/our-table/export.csv",
    "export json": "/leagues/our-table/export.json",
}
#: A league admin's pages.
ADMIN_PAGES = {
    "seasons": "/leagues/our-table/seasons",
    "a season": "/leagues/our-table/seasons/{season}",
    "import": "/leagues/our-table/import",
    "settings": "/leagues/our-table/settings",
    "members": "/leagues/our-table/members",
}
#: A scorekeeper's game pages.
SCOREKEEPER_PAGES = {
    "home, keeping score": "/",
    "game in progress": "/games/{open}",
    "finished game": "/games/{finished}",
    "new game form": "/leagues/our-table/games/new",
    "deal to correct": "/games/{open}/deals/1",
    "abandoned game": "/games/{abandoned}",
}

#: The pinned counts. A change that adds a statement to a page updates its pin on purpose;
#: one that makes a count depend on the league's size fails here whatever the pin.
EXPECTED = {
    # Issue 37: the standings read which games the league has played (its picker); a
    # player's page their record in each other game; head-to-head the other games the
    # two sat at together; who owes whom the other games' unpaid settlements (one more
    # read when there are some).
    "home": 4,
    "home, keeping score": 5,
    "leagues": 2,
    "standings": 6,
    "standings sorted": 6,
    "standings of a season": 7,
    "player": 11,  # its renames and merges too, and the ids it had (issue 37)
    "head-to-head, none chosen": 3,
    "head-to-head": 8,
    "archive": 5,
    "archive, older page": 5,
    "archive, newer page": 5,
    "archive of a player": 6,
    "archive, every filter": 8,
    "archive, unpaid": 5,
    "archive, abandoned": 5,
    "who owes whom": 5,
    "balance of two players": 6,
    "payments": 3,
    "players": 4,  # the league's renames and merges too (issue 37)
    "export csv": 3,
    "export json": 5,  # games and deals read as plain rows (issue 26)
    "seasons": 3,
    "a season": 3,
    "import": 2,
    "settings": 2,
    "members": 5,  # the open invitations (issue 25), the players one may be for (issue 38)
    "game in progress": 4,  # its open seat links too (issue 23)
    "finished game": 4,
    "new game form": 3,
    "deal to correct": 2,
    # Who abandoned it is the signed-in user here, already loaded; no seat links are read.
    "abandoned game": 3,
    # Abandoning and restoring (issue 24): a finished game's results go, and come back.
    # The newest game of both its players changes its records by the difference
    # (records.results.change_newest, issue 26), not by the walk from that game on. The
    # league is locked by a statement of its own, after the game: a game's lock no longer
    # takes its league's (table.service.locked_game, issue 26).
    "abandon a game in progress": 7,
    "abandon the newest finished game": 12,
    "restore it": 10,
    "record a deal": 7,
    # A finished game's records, its seasons' and its head-to-head in one statement on
    # PostgreSQL (records/totals.add_game, issue 26): three on SQLite.
    "record a game's last deal": 10,
    # Answered with the game page (static/app.js) or the game's JSON, built from what the
    # save wrote and replayed: the game is read once, by the save (issue 22).
    "record a deal, answered in one request": 9,
    # The token and its user in one statement (issue 26).
    "record a deal through the API": 9,
    # Corrected and deleted by the API (issue 26): the caller checked from the league
    # joined on the game, one statement, before the service locks the game. A finished
    # game's results are rewritten or deleted, and its records, its seasons' and its
    # head-to-head change by the difference in one statement (records.totals.change_game).
    "record a game's last deal through the API": 10,
    "correct a deal through the API": 7,
    "delete a deal through the API": 7,
    "correct a finished game's last deal through the API": 9,
    "delete a finished game's last deal through the API": 11,
    # The same from the pages (issue 26's cap of 15 for a correction and an undo).
    "correct a finished game's last deal": 11,
    "undo a finished game's last deal": 12,
}
#: SQLite can't return the ids of a many-row INSERT in the rows' order, which the ORM needs,
#: so the two audit events of the deal that ends a game (recorded, finished) go in one by
#: one there; and it takes no INSERT inside a WITH, so a finished game's records go in by
#: three statements, not one, and a game's records left with no game are deleted by three
#: too. PostgreSQL's counts are the ones issue 26 caps at 12 (15 for a correction or undo).
SQLITE_EXTRA = {
    "record a game's last deal": 3,
    "record a game's last deal through the API": 3,
    "correct a finished game's last deal through the API": 2,
    "delete a finished game's last deal through the API": 5,
    "correct a finished game's last deal": 2,
    "undo a finished game's last deal": 5,
    "abandon the newest finished game": 4,
    "restore it": 2,
}


def count_statements(app, send):
    """The SQL statements ``send()`` makes the app send (a streamed body read to its end)."""
    statements = []

    def seen(_conn, _cursor, statement, *_args):
        if not statement.startswith("BEGIN"):
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        response = send()
        response.get_data()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    return response, len(statements)


def play(app, games, start=0):
    """``games`` more games among five players, every pair and both seats; two in three
    marked paid, every fifth under another preset."""
    pairs = [(a, b) for a in PLAYERS for b in PLAYERS if a != b]
    with app.app_context():
        league = league_by_slug("our-table")
        for n in range(start, start + games):
            preset = Preset.MARKS if n % 5 == 4 else Preset.STANDARD
            game = starting.start_game(
                league.id, pairs[n % len(pairs)], PRESETS[preset], Stakes.from_small(100), Seat(0)
            )
            for out, scores, stars in GAME:
                game_service.record_deal(game.id, Tally(Seat(out), scores, stars))
            if n % 3:
                closing.mark_paid(game.id)
        db.session.remove()


#: Two deals that end a game: the second takes Ana from 1,100 past the target of 1,200.
FINISHING = [(0, (1100, 1000)), (0, (150, 40))]


def fresh_game(app, deals):
    """A new game between Ana and Ben with ``deals`` recorded; its id."""
    with app.app_context():
        league = league_by_slug("our-table")
        game = starting.start_game(league.id, ("Ana", "Ben"), Rules(), Stakes.from_small(100))
        game_id = game.id
        for out, scores in deals:
            game_service.record_deal(game_id, Tally(Seat(out), scores))
        db.session.remove()
    return game_id


def ids(app):
    """The rows the pages are asked for."""
    with app.app_context():
        league = league_by_slug("our-table")
        games = db.session.scalars(
            db.select(Game.id).where(Game.league_id == league.id).order_by(Game.id)
        ).all()
        ana, ben = (player_service.find_player(league.id, name).id for name in ("Ana", "Ben"))
        season = seasons.seasons_of(league.id)[0].id
        db.session.remove()
    return {
        "ana": ana,
        "ben": ben,
        "season": season,
        "middle": games[len(games) // 2],
        "finished": games[0],
    }


def counts(app, viewer, admin, scorekeeper):
    """Every pinned page's statement count, for a league as it stands."""
    values = ids(app) | {"open": fresh_game(app, [(0, (300, 200))])}
    values["abandoned"] = fresh_game(app, [(0, (300, 200))])
    with app.app_context():
        closing.abandon(values["abandoned"])
        db.session.remove()
    found = {}
    for pages, client in (
        (VIEWER_PAGES, viewer),
        (ADMIN_PAGES, admin),
        (SCOREKEEPER_PAGES, scorekeeper),
    ):
        for name, url in pages.items():
            response, found[name] = count_statements(
                app, lambda url=url, client=client: client.get(url.format(**values))
            )
            assert response.status_code == 200, name
    for name, deals, tally, headers in (
        ("record a deal", [(0, (300, 200))], (0, (100, 50)), {}),
        ("record a game's last deal", [(0, (1100, 1000))], (0, (150, 40)), {}),
        (
            "record a deal, answered in one request",
            [(0, (300, 200))],
            (0, (100, 50)),
            {"X-Requested-With": "fetch"},
        ),
    ):
        game_id = fresh_game(app, deals)
        out, scores = tally
        form = {
            "out": str(out),
            "score0": str(scores[0]),
            "score1": str(scores[1]),
            "stars0": "0",
            "stars1": "0",
            "token": uuid.uuid4().hex,
        }
        response, found[name] = count_statements(
            app,
            lambda game_id=game_id, form=form, headers=headers: scorekeeper.post(
                f"/games/{game_id}/deals", data=form, headers=headers
            ),
        )
        assert response.status_code == (200 if headers else 302), name
    game_id = fresh_game(app, [(0, (300, 200))])
    script = {"Authorization": f"Bearer {make_token(app)}"}
    deal = {"out": 0, "scores": [100, 50], "naturals": [0, 0]}
    response, found["record a deal through the API"] = count_statements(
        app,
        lambda: app.test_client().post(f"/api/v1/games/{game_id}/deals", json=deal, headers=script),
    )
    assert response.status_code == 201
    found |= api_change_counts(app, script)
    found |= page_change_counts(app, scorekeeper)
    for name, deals, path in (
        ("abandon a game in progress", [(0, (300, 200))], "abandon"),
        ("abandon the newest finished game", [(0, (1100, 1000)), (0, (150, 40))], "abandon"),
        ("restore it", None, "restore"),
    ):
        if deals is not None:
            game_id = fresh_game(app, deals)
        client = admin if path == "restore" else scorekeeper
        response, found[name] = count_statements(
            app,
            lambda game_id=game_id, client=client, path=path: client.post(
                f"/games/{game_id}/{path}", data={}
            ),
        )
        assert response.status_code == 302, name
    return found


def page_change_counts(app, scorekeeper):
    """The statements of the pages' correction and undo of a finished game's last deal."""
    found = {}
    game_id = fresh_game(app, FINISHING)
    fix = {"out": "0", "score0": "150", "score1": "60", "stars0": "0", "stars1": "0"}
    url = f"/games/{game_id}/deals/{len(FINISHING)}"
    response, found["correct a finished game's last deal"] = count_statements(
        app, lambda: scorekeeper.post(url, data=fix)
    )
    assert response.status_code == 302
    response, found["undo a finished game's last deal"] = count_statements(
        app, lambda: scorekeeper.post(f"/games/{game_id}/undo", data={})
    )
    assert response.status_code == 302
    return found


def api_change_counts(app, script):
    """The statements of the API's changes to a game's deals, ordinary and finishing."""
    found = {}
    client = app.test_client()
    deal = {"out": 0, "scores": [150, 40], "naturals": [0, 0]}
    game_id = fresh_game(app, [(0, (1100, 1000))])
    response, found["record a game's last deal through the API"] = count_statements(
        app, lambda: client.post(f"/api/v1/games/{game_id}/deals", json=deal, headers=script)
    )
    assert response.status_code == 201
    assert response.get_json()["status"] == "finished"
    for which, deals in (("a deal", [(0, (300, 200))]), ("a finished game's last deal", FINISHING)):
        game_id = fresh_game(app, deals)
        url = f"/api/v1/games/{game_id}/deals/{len(deals)}"
        response, found[f"correct {which} through the API"] = count_statements(
            app, lambda url=url: client.put(url, json=deal, headers=script)
        )
        assert response.status_code == 200
        response, found[f"delete {which} through the API"] = count_statements(
            app, lambda url=url: client.delete(url, headers=script)
        )
        assert response.status_code == 200
        assert response.get_json()["status"] == "in_progress" or which == "a deal"
    return found


@pytest.fixture
def members(app, auth, table):
    viewer = auth.member("viewer")
    scorekeeper = auth.member("scorekeeper")
    for client in (viewer, table.client, scorekeeper):
        client.get("/leagues/our-table")  # a client's first request signs it in
    return viewer, table.client, scorekeeper


@pytest.mark.slow
def test_every_page_sends_its_pinned_number_of_statements_whatever_the_league_size(
    public, app, members
):
    play(app, 6)
    today = date.today()
    with app.app_context():
        league = league_by_slug("our-table")
        seasons.add_season(league.id, "Always", today - timedelta(400), today + timedelta(400))
        db.session.remove()
    small = counts(app, *members)
    play(app, 54, start=6)
    big = counts(app, *members)
    expected = dict(EXPECTED)
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        expected |= {name: expected[name] + extra for name, extra in SQLITE_EXTRA.items()}
    assert small == expected
    assert big == expected
