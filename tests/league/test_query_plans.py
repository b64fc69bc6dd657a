"""The pages that grew with the league in ``python -m bench.pages --mixed`` (issues 36 and
37) read by an index, as SQLite plans them: a plan is the same for 6 rows as for 400,000
(no statistics are kept), so a read that walks a whole table is seen on a small league.

* A game page (and the locked game a deal of another game is recorded into) joined every
  seat of the database to its player before finding its own (a nested join, SQLite's
  "MATERIALIZE"): a quarter of a second at 20,000 games.
* A player's page read the league's renames and merges among every event of the league
  (an index on ``league_id`` alone): a second at 20,000 games.

Plans, never times (the timings are ``python -m bench.pages``'s; see docs/PERFORMANCE.md).
"""

import pytest
from sqlalchemy import event

from scorekeeper.models import db
from tests.api.test_settle_up import knock_sitting, mille_won_by_ana
from tests.conftest import make_public

#: The tables that grow with a league's history: none may be walked whole.
GROWING = ("game", "game_seat", "deal", "movement", "audit_event", "kind_result", "game_result")


def plans(app, send):
    """Each SELECT ``send()`` makes the app send, with SQLite's plan of it."""
    seen = []

    def keep(_conn, _cursor, statement, parameters, *_args):
        if statement.lstrip().upper().startswith(("SELECT", "WITH")):
            seen.append((statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", keep)
    try:
        response = send()
        response.get_data()
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    assert response.status_code in (200, 201, 302), response.status_code
    with engine.connect() as connection:
        return [
            (
                statement,
                [
                    row[3]
                    for row in connection.exec_driver_sql(
                        f"EXPLAIN QUERY PLAN {statement}", parameters
                    )
                ],
            )
            for statement, parameters in seen
        ]


def walked(found):
    """The steps of these plans that read a growing table whole or join it first."""
    return [
        (" ".join(statement.split())[:200], step)
        for statement, steps in found
        for step in steps
        if step.startswith("MATERIALIZE")
        or any(step.startswith(f"SCAN {table}") for table in GROWING)
    ]


@pytest.fixture
def league(app, api):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        pytest.skip("the plans read here are SQLite's")
    make_public(app)
    return mille_won_by_ana(api), knock_sitting(api)


def test_every_game_page_reads_its_own_rows_by_index(app, api, league, client):
    mille, knock = league
    for game in (mille, knock):
        assert walked(plans(app, lambda game=game: client.get(f"/games/{game['id']}"))) == []


def test_a_deal_of_another_game_locks_its_game_by_index(app, api, league):
    game = api.post(
        "/api/v1/games",
        {"league": "our-table", "game": "knock-rummy", "players": ["Ben", "Cy", "Dan"]}
        | {"first_dealer": 0, "stakes": {"point": "0.10"}},
    ).get_json()
    body = {"knocker": 0, "counts": [6, 6, 14]}
    found = plans(app, lambda: api.post(f"/api/v1/games/{game['id']}/deals", body))
    assert walked(found) == []


def test_a_player_page_reads_the_league_s_name_changes_by_their_action(app, api, league, auth):
    admin = auth.member("admin")
    players = api.get("/api/v1/leagues/our-table").get_json()["players"]
    ben = next(player["id"] for player in players if player["name"] == "Ben")
    found = plans(app, lambda: admin.get(f"/leagues/our-table/players/{ben}"))
    assert walked(found) == []
    league_events = [
        step
        for _statement, steps in found
        for step in steps
        if step.startswith("SEARCH audit_event") and "league_id=?" in step
    ]
    assert league_events
    assert all("league_id=? AND action=?" in step for step in league_events), league_events


def test_a_long_sitting_reads_its_newest_deals_alone(app, api, league, client):
    """Past its newest ten deals, a sitting's page reads no deal: where they left everyone
    is the seats' balances less what the newest moved (the 12-player, 200-deal
    Continental page summed 2,000 ledger rows a request)."""
    game = api.post(
        "/api/v1/games",
        {"league": "our-table", "game": "knock-rummy", "players": ["Ben", "Cy", "Dan"]}
        | {"first_dealer": 0, "stakes": {"point": "0.10"}},
    ).get_json()
    for number in range(12):
        body = {"knocker": number % 3, "counts": [6, 6, 14]}
        assert api.post(f"/api/v1/games/{game['id']}/deals", body).status_code == 201
    found = plans(app, lambda: client.get(f"/games/{game['id']}"))
    ledger = [steps for statement, steps in found if "FROM movement" in statement]
    assert len(ledger) == 1, "the card reads its ledger in one statement"
    steps = ledger[0]
    assert any(step.startswith("SEARCH deal") and "number>?" in step for step in steps), steps
    assert not any(step.startswith("SEARCH movement") and "deal_number<" in step for step in steps)
    assert not any("sum(" in statement.lower() for statement, _ in found if "movement" in statement)


def test_who_owes_whom_sums_each_ledger_from_its_index_alone(app, api, league, auth):
    """Who owes whom adds up each unpaid game's ledger pair of seats by pair: from
    ``ix_movement_ledger`` alone, in its order (no sort into groups)."""
    found = plans(app, lambda: auth.member("admin").get("/leagues/our-table/owes"))
    ledger = [steps for statement, steps in found if "sum(movement.amount)" in statement]
    assert ledger, "no ledger was summed"
    steps = [step for plan in ledger for step in plan]
    assert any("COVERING INDEX ix_movement_ledger" in step for step in steps), steps
    assert not any("TEMP B-TREE FOR GROUP BY" in step for step in steps), steps
