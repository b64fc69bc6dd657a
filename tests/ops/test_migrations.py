"""The schema that migrations build is the schema the models describe."""

import os
from datetime import date, datetime, timedelta

import flask_migrate
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select, text, update
from werkzeug.security import generate_password_hash

from scorekeeper import create_app
from scorekeeper.database import MIGRATIONS_DIR
from scorekeeper.engine import Rules, Seat, Stakes, Tally
from scorekeeper.engine.games import kind_named
from scorekeeper.league import seasons
from scorekeeper.models import (
    AuditAction,
    AuditEvent,
    Game,
    GameResult,
    League,
    PlayerRecord,
    SeasonRecord,
    db,
)
from scorekeeper.records import results, skill
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table import audit, kind_service, starting
from scorekeeper.table import service as game_service
from tests.conftest import TEST_CONFIG, TEST_DATABASES
from tests.databases import server_database


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, db.metadata)
    assert differences == []


def test_first_start_creates_the_default_league_private(client, auth):
    """The app is reachable from the network: who owes whom is the table's business."""
    assert client.get("/leagues/our-table/players").status_code == 404
    page = auth.login(client).get("/leagues/our-table/players")
    assert page.status_code == 200
    assert "Players of Our table" in page.get_data(as_text=True)


# 0011: audit events kept as an action and its values ------------------------------------

#: Sentences the trail kept up to 0010, each with the action and values 0011 reads from it.
OLD_EVENTS = [
    ("deal_recorded", "Deal 1 recorded.", {"number": 1}),
    ("deal_edited", "Deal 12 corrected.", {"number": 12}),
    ("deal_deleted", "Deal 3 deleted; later deals moved up.", {"number": 3}),
    ("game_finished", "Ana won after deal 7.", {"winner": "Ana", "number": 7}),
    (
        "game_finished",
        "Jo won after deal 2 won after deal 9.",  # a name can say anything
        {"winner": "Jo won after deal 2", "number": 9},
    ),
    ("game_reopened", "The game is in progress again.", {}),
    ("payment_marked", "Ben's payment of 1234.50 marked paid.", {"payer": "Ben", "amount": 123450}),
    (
        "payment_marked",
        "Zoë's son's payment of 0.25 marked paid.",
        {"payer": "Zoë's son", "amount": 25},
    ),
    ("game_unlocked", "Game unlocked; its payment is unpaid again.", {}),
    (
        "game_imported",
        "Imported from a paper score card (line 12).",
        {"file": "score_card", "place": "line", "where": "12", "paid_by": None},
    ),
    (
        "game_imported",
        "Imported from a league export (game 3 (id 57)). The file says root marked it paid.",
        {"file": "league_export", "place": "game", "where": "3 (id 57)", "paid_by": "root"},
    ),
    (
        "game_imported",  # cut at 200 characters: who paid, as far as it was kept
        f"Imported from a league export (game 4). The file says {'x' * 300} marked it paid."[:200],
        {"file": "league_export", "place": "game", "where": "4", "paid_by": "x" * 146},
    ),
    ("game_finished", "Someone rewrote this by hand.", {"text": "Someone rewrote this by hand."}),
]


def test_0011_reads_every_kept_sentence_into_its_action_and_values_and_back(app):
    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0010_sessions")
        try:
            league_id = db.session.scalar(text("SELECT min(id) FROM league"))
            db.session.execute(
                text(
                    "INSERT INTO audit_event (league_id, action, summary, created_at)"
                    " VALUES (:league, :action, :summary, :at)"
                ),
                [
                    {"league": league_id, "action": a, "summary": s, "at": datetime(2026, 1, 1)}
                    for a, s, _ in OLD_EVENTS
                ],
            )
            db.session.commit()
            db.session.remove()
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)
            events = db.session.scalars(select(AuditEvent).order_by(AuditEvent.id)).all()
            assert [(e.action, e.params) for e in events] == [(a, p) for a, _, p in OLD_EVENTS]
            assert all(isinstance(e.action, AuditAction) for e in events)
            kept = [sentence for _, sentence, _ in OLD_EVENTS]
            kept[11] += " marked it paid."  # the sentence cut at 200, whole again
            assert [audit.summary(event) for event in events] == kept  # the API's English
            db.session.remove()
            flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0010_sessions")
            sentences = db.session.execute(
                text("SELECT action, summary FROM audit_event ORDER BY id")
            )
            assert sentences.all() == [(a, s) for a, s, _ in OLD_EVENTS]
        finally:
            db.session.remove()
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)


# 0014: how sure a rating is --------------------------------------------------------------


def _skills_kept() -> dict:
    """Every result's skill, and what every record takes from its last result."""
    kept: dict = {
        "results": {
            (r.game_id, r.player_id): (r.skill_mu_after, r.skill_sigma_after)
            for r in db.session.scalars(select(GameResult))
        }
    }
    for model in (PlayerRecord, SeasonRecord):
        kept[model.__name__] = sorted(
            (r.player_id, r.skill_mu, r.skill_sigma, r.career_games, r.last_played_at)
            for r in db.session.scalars(select(model))
        )
    return kept


def test_0014_works_out_the_skills_of_past_games_as_a_rebuild_does(app):
    """Games played before 0014, over a year with long breaks and a season: the migration
    gives every result and record the skill the app's own rebuild gives them."""
    wins = [(0, (500, 100), (0, 0))] * 3  # the first player wins, 1,500 to 300
    losses = [(1, (100, 500), (0, 0))] * 3
    pairs = [("Ana", "Ben"), ("Cleo", "Dan"), ("Ana", "Cleo"), ("Ben", "Dan"), ("Ana", "Dan")]
    with app.app_context():
        league = league_by_slug("our-table").id
        seasons.add_season(league, "Spring", date(2024, 3, 1), date(2024, 5, 31))
        ids = []
        for n in range(15):
            game = starting.start_game(
                league, pairs[n % 5], Rules(), Stakes.from_small(100), Seat.FIRST
            )
            for out, scores, stars in wins if n % 3 else losses:
                game_service.record_deal(game.id, Tally(Seat(out), scores, stars))
            ids.append(game.id)
        start = datetime(2024, 1, 10, 21, 0)
        for n, game_id in enumerate(ids):
            when = start + timedelta(days=9 * n + 150 * (n >= 8))
            db.session.execute(
                update(Game).where(Game.id == game_id).values(finished_at=when, played_at=when)
            )
        results.rebuild_league(league)
        db.session.commit()
        expected = _skills_kept()
        assert len(expected["results"]) == 30
        assert expected["SeasonRecord"], "the season holds games"
        assert len({sigma for _, sigma in expected["results"].values()}) > 5
        db.session.remove()
        try:
            flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0013_invitations")
            db.session.remove()
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)
            assert _skills_kept() == expected
            assert skill.FIRST not in {
                skill.Skill(*values) for values in _skills_kept()["results"].values()
            }
        finally:
            db.session.remove()
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)


def test_0020_leaves_every_league_in_canadian_dollars_and_goes_back_cleanly(app, table):
    """Issue 37: after the upgrade every league's currency is NULL, written as Canadian
    dollars as before; a downgrade drops the column and nothing else."""
    game_id = table.start_game()
    with app.app_context():
        db.session.execute(update(League).values(currency="EUR"))
        db.session.commit()
        db.session.remove()
        try:
            flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0019_seat_link_hardening")
            with db.engine.connect() as connection:
                columns = {column["name"] for column in inspect(connection).get_columns("league")}
            assert "currency" not in columns
            assert {"time_zone", "slug"} <= columns
            db.session.remove()
        finally:
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)
            db.session.remove()
        assert db.session.scalars(select(League.currency)).all() == [None]
        db.session.remove()
    assert "Small stake ($ per 100 points)" in table.client.get(
        "/leagues/our-table/games/new"
    ).get_data(as_text=True)
    assert table.page(game_id)


def test_0027_fills_each_game_s_balances_and_pool_from_its_ledger(app, table):
    """Each game's balances and pool as its ledger leaves it, as the app keeps them: a Spoil
    Five sitting with money in its pool, a finished Knock Rummy one, a game of Mille (none:
    NULL and 0), and a sitting without a deal (every balance 0)."""
    mille = table.start_game()
    with app.app_context():
        league = league_by_slug("our-table").id
        five = starting.start_game_of(
            kind_named("spoil-five"), league, ["Ana", "Ben", "Cy"], {}, {"ante": 50}, 0
        ).id
        knock = starting.start_game_of(
            kind_named("knock-rummy"), league, ["Ana", "Ben", "Cy", "Dan"], {}, {"point": 10}, 1
        ).id
        empty = starting.start_game_of(
            kind_named("rummy"), league, ["Ben", "Cy"], {}, {"point": 5}, 0
        ).id
        kind_service.record(five, {"winner": None})
        kind_service.record(five, {"winner": 2, "jink": "won"})
        kind_service.record(five, {"winner": None})
        for knocker in (0, 1, 3):
            kind_service.record(knock, {"knocker": knocker, "counts": [6, 9, 14, 31]})
        kind_service.finish(knock)
        db.session.remove()

        def kept():
            return dict(
                db.session.execute(select(Game.id, Game.balances).order_by(Game.id)).all()
            ), dict(db.session.execute(select(Game.id, Game.pool)).all())

        expected = kept()
        assert expected[0][mille] is None
        assert expected[0][empty] == [0, 0]
        assert expected[1][five] == 150
        assert sum(expected[0][five]) + expected[1][five] == 0
        assert any(expected[0][knock])
        db.session.remove()
        try:
            flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision="0026_movement_ledger_index")
            with db.engine.connect() as connection:
                columns = {column["name"] for column in inspect(connection).get_columns("game")}
            assert not {"balances", "pool"} & columns
            db.session.remove()
        finally:
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)
            db.session.remove()
        assert kept() == expected
        db.session.remove()


def test_foreign_keys_are_enforced_on_sqlite_after_the_start_migrated(tmp_path):
    """Migrating turns SQLite's foreign keys off (batch mode copies tables) and back on;
    the app's own connection, used next, must have them on, or a game could be deleted
    from under its deals."""
    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'fresh.sqlite'}", "SECRET_KEY": "x"}
    )
    with app.app_context():
        with db.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        db.engine.dispose()


# 0009: look-alike names, upgraded from the first version with accounts -------------------


@pytest.fixture
def first_version_database(tmp_path):
    """A database nothing has touched yet: PostgreSQL when DATABASE_URL names one."""
    if os.environ.get("DATABASE_URL"):
        with server_database(os.environ["DATABASE_URL"], prefix=TEST_DATABASES) as url:
            yield url
        return
    yield f"sqlite:///{tmp_path / 'first.sqlite'}"


def test_0009_gives_the_plain_name_to_the_account_that_already_had_it(
    first_version_database, capsys
):
    """Issue 21: a full-width ``ａｌｉｃｅ`` a league admin made before the real ``alice``
    took her name on upgrade (the older kept it), and she could not sign in as herself."""
    app = create_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": first_version_database,
            "AUTO_MIGRATE": False,
        }
    )
    at = datetime(2025, 1, 1)
    with app.app_context():
        flask_migrate.upgrade(directory=MIGRATIONS_DIR, revision="0002_accounts")
        users = [("ａｌｉｃｅ", "lookalike-password"), ("alice", "alices-password")]
        for number, (name, password) in enumerate(users, start=1):
            db.session.execute(
                text(
                    'INSERT INTO "user" (id, username, username_key, password_hash, is_admin,'
                    " created_at) VALUES (:id, :name, :key, :hash, false, :at)"
                ),
                {
                    "id": number,
                    "name": name,
                    "key": name.lower(),  # how the first version compared names
                    "hash": generate_password_hash(password, "pbkdf2:sha256:1000"),
                    "at": at,
                },
            )
        db.session.execute(
            text(
                "INSERT INTO league (id, slug, name, public, created_at)"
                " VALUES (1, 'club', 'Club', true, :at)"
            ),
            {"at": at},
        )
        players = ["Ａna", "Ana", "Ana\u200b"]  # full-width, the real one, a zero-width space
        for number, name in enumerate(players, start=1):
            db.session.execute(
                text(
                    "INSERT INTO player (id, league_id, name, name_key, created_at)"
                    " VALUES (:id, 1, :name, :key, :at)"
                ),
                {"id": number, "name": name, "key": name.lower(), "at": at},
            )
        db.session.commit()
        db.session.remove()
        capsys.readouterr()
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        said = capsys.readouterr().err
        names = dict(db.session.execute(text('SELECT id, username FROM "user"')).all())
        player_names = dict(db.session.execute(text("SELECT id, name FROM player")).all())
        db.session.remove()
    assert names == {1: "alice (2)", 2: "alice"}
    assert player_names == {1: "Ana (2)", 2: "Ana", 3: "Ana (3)"}
    # Every rename is said, with what it was and why.
    assert "user 1 renamed from 'ａｌｉｃｅ' to 'alice (2)' (user 2 has that name)" in said
    assert "player 1 renamed from 'Ａna' to 'Ana (2)' (player 2 has that name)" in said
    assert "player 3 renamed from 'Ana\\u200b' to 'Ana (3)' (player 2 has that name)" in said
    assert said.count("0009_names:") == 3
    # The real alice signs in as herself.
    client = app.test_client()
    signed_in = client.post("/login", data={"username": "alice", "password": "alices-password"})
    assert signed_in.status_code == 302
    assert client.get("/account").text.count("<h1>alice</h1>") == 1
    with app.app_context():
        db.engine.dispose()
