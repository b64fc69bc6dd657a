"""Backups round-trip a league with nothing lost."""

import json
import sqlite3
from contextlib import closing
from datetime import date
from pathlib import Path

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.script import ScriptDirectory

from scorekeeper.accounts import invitations
from scorekeeper.database import MIGRATIONS_DIR
from scorekeeper.league import seasons, settle_up
from scorekeeper.models import (
    AuditEvent,
    Deal,
    Game,
    League,
    LeagueRound,
    Player,
    Role,
    SeatLink,
    User,
    db,
)
from scorekeeper.ops import backup, restore


def snapshot(app):
    """Everything a user could notice, as plain values."""
    with app.app_context():
        games = db.session.scalars(db.select(Game).order_by(Game.id)).all()
        return {
            "leagues": [
                (lg.slug, lg.name, lg.public)
                for lg in db.session.scalars(db.select(League).order_by(League.id))
            ],
            "players": [p.name for p in db.session.scalars(db.select(Player).order_by(Player.id))],
            "games": [
                (
                    g.id,
                    g.status,
                    g.total0,
                    g.total1,
                    g.amount_due,
                    g.version,
                    g.small_stake,
                    g.paid_at,
                )
                for g in games
            ],
            "deals": [
                (d.game_id, d.number, d.score0, d.score1, d.stars0, d.stars1)
                for d in db.session.scalars(db.select(Deal).order_by(Deal.id))
            ],
            "users": [u.username for u in db.session.scalars(db.select(User).order_by(User.id))],
            "audit": db.session.scalar(db.select(db.func.count(AuditEvent.id))),
        }


def fill(table, wikipedia_card):
    finished = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(finished, out, scores, stars)
    table.client.post(f"/games/{finished}/paid")
    open_game = table.start_game("Cleo", "Dan", small="0.25")
    table.record(open_game, 1, (-20, 300))


def wipe(app):
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def test_json_backup_and_restore_bring_everything_back(table, app, auth, wikipedia_card, tmp_path):
    fill(table, wikipedia_card)
    before = snapshot(app)
    file = str(tmp_path / "league.json")
    runner = app.test_cli_runner()
    result = runner.invoke(args=["backup", file])
    assert result.exit_code == 0, result.output
    assert "1 league, 4 players, 2 games, 8 deals, 1 user." in result.output
    wipe(app)
    assert snapshot(app)["games"] == []
    result = runner.invoke(args=["restore", file, "--yes"])
    assert result.exit_code == 0, result.output
    assert snapshot(app) == before
    # A restore signs everyone out; signed in again, new rows continue after the restored
    # ids (PostgreSQL sequences are reset).
    auth.login(table.client)
    assert table.start_game("Eve", "Fay") == max(game[0] for game in before["games"]) + 1


def test_an_abandoned_game_stays_abandoned_through_a_backup(table, app, wikipedia_card, tmp_path):
    fill(table, wikipedia_card)
    with app.app_context():
        open_game = db.session.scalars(db.select(Game).where(Game.paid_at.is_(None))).one()
        game_id, version = open_game.id, open_game.version
        db.session.remove()
    response = table.client.post(f"/games/{game_id}/abandon", data={"version": version})
    assert response.status_code == 302

    def abandoned():
        with app.app_context():
            game = db.session.get(Game, game_id)
            found = (game.abandoned_at, game.abandoned_by_id)
            db.session.remove()
        return found

    before, marked = snapshot(app), abandoned()
    assert None not in marked
    file = str(tmp_path / "league.json")
    runner = app.test_cli_runner()
    assert runner.invoke(args=["backup", file]).exit_code == 0
    wipe(app)
    assert runner.invoke(args=["restore", file, "--yes"]).exit_code == 0
    assert snapshot(app) == before
    assert abandoned() == marked


@pytest.mark.slow
def test_sqlite_online_backup_while_the_app_runs(
    sqlite_app, sqlite_table, wikipedia_card, tmp_path
):
    app = sqlite_app  # an SQLite file of its own, also in the PostgreSQL run
    fill(sqlite_table, wikipedia_card)
    before = snapshot(app)
    file = str(tmp_path / "copy.sqlite")
    with app.app_context():
        backup.backup(file)
    wipe(app)
    with app.app_context():
        restore.restore(file)
    assert snapshot(app) == before


def test_restore_refuses_a_file_that_is_not_a_backup(app, tmp_path):
    file = tmp_path / "other.json"
    file.write_text('{"hello": 1}')
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code != 0
    assert "not a Mille Scorekeeper backup" in result.output


def fill_every_table(app, table, api, auth, wikipedia_card, *, other_kinds=True):
    """Rows in every table, made the way the app makes them (a game of another kind than
    Mille's too, unless the schema is to go back to before there were any)."""
    fill(table, wikipedia_card)
    table.client.post("/login", data={"username": "admin", "password": "wrong"})  # a failure
    auth.member("viewer")
    api.add_players("Eve", "Fay")
    body = {"league": "our-table", "players": ["Eve", "Fay"], "first_dealer": 0}
    started = api.post("/api/v1/games", body, headers={"Idempotency-Key": "backup-test"})
    assert started.status_code == 201
    if other_kinds:
        fill_a_sitting(api, body)
    with app.app_context():
        league = db.session.scalars(db.select(League)).first()
        seasons.add_season(league.id, "All of it", date(2020, 1, 1), date.today())
        invitations.create(league.id, Role.VIEWER, None)
        game_id = db.session.scalars(db.select(Game.id)).first()
        db.session.add(SeatLink(game_id=game_id, seat=1, token_hash=SeatLink.digest("seat")))
        sat_out = db.session.scalars(db.select(Player.id)).first()
        db.session.add(LeagueRound(league_id=league.id, sitting_out_id=sat_out, token="round"))
        deal = db.session.scalars(db.select(Deal).order_by(Deal.id)).first()
        deal.cards = {"players": [{"sets": [{"rank": "A", "count": 8}]}, {"sets": []}]}
        db.session.commit()
        db.session.remove()


def fill_a_sitting(api, body):
    """A game of another kind than Mille: its setup, its deals' entries and its movements."""
    api.add_players("Gus")
    body = {**body, "game": "spoil-five", "players": ["Eve", "Fay", "Gus"]}
    sitting = api.post("/api/v1/games", {**body, "stakes": {"ante": "0.25"}}).get_json()
    spoilt = api.post(f"/api/v1/games/{sitting['id']}/deals", {"winner": None})
    assert spoilt.status_code == 201
    taken = api.post(f"/api/v1/games/{sitting['id']}/deals", {"winner": 2, "jink": "won"})
    assert taken.status_code == 201
    assert api.post(f"/api/v1/games/{sitting['id']}/finish").status_code == 200
    # A payment of the night ticked as made (settled_payment).
    with api.app.app_context():
        league = db.session.scalars(db.select(League)).first()
        night = settle_up.night_of(league, settle_up.chosen_games(league, [sitting["id"]]))
        payment = night.payments[0]
        settle_up.tick(league, [sitting["id"]], payment.payer.id, payment.payee.id)
        db.session.remove()


def every_row(app):
    """Every row of every table the app backs up, generically: a new table is covered too
    (who is signed in is not backed up: see ``signed_in``)."""
    with app.app_context():
        rows = {
            table.name: [
                dict(row._mapping)
                for row in db.session.execute(db.select(table).order_by(*table.primary_key.columns))
            ]
            for table in [*db.metadata.sorted_tables, alembic_version]
            if table.name not in backup.SIGN_IN_STATE
        }
        db.session.remove()
    return rows


HEAD = ScriptDirectory(MIGRATIONS_DIR).get_current_head()
alembic_version = sa.table("alembic_version", sa.column("version_num"))


def signed_in(app):
    """Whether anyone is signed in or has failed to sign in: state a backup leaves out."""
    with app.app_context():
        counts = [
            db.session.scalar(sa.select(sa.func.count()).select_from(table))
            for table in db.metadata.sorted_tables
            if table.name in backup.SIGN_IN_STATE
        ]
        db.session.remove()
    return any(counts)


alembic_version.primary_key = sa.PrimaryKeyConstraint(sa.column("version_num"))


def secrets_ended(rows):
    """``rows``, once it is checked that every API token in them is revoked and every
    invitation withdrawn, with that left out: what a restore into a database where none of
    them worked (a new one, or one emptied) brings back (docs/SECURITY.md, "Backups")."""
    ended = {}
    for table, column in (
        ("api_token", "revoked_at"),
        ("invitation", "withdrawn_at"),
        ("seat_link", "revoked_at"),
    ):
        if table in rows:
            assert all(row[column] is not None for row in rows[table])
            ended[table] = [{**row, column: None} for row in rows[table]]
    return {**rows, **ended}


@pytest.mark.slow
def test_a_json_backup_carries_every_row_of_every_table_between_databases(
    app, table, api, auth, wikipedia_card, sqlite_app, tmp_path
):
    """In the PostgreSQL run: PostgreSQL → SQLite → PostgreSQL; else SQLite → SQLite."""
    fill_every_table(app, table, api, auth, wikipedia_card)
    before = every_row(app)
    assert [name for name, rows in before.items() if not rows] == []
    there, back = str(tmp_path / "there.json"), str(tmp_path / "back.json")
    with app.app_context():
        backup.backup(there)
    assert signed_in(app)
    with sqlite_app.app_context():
        restore.restore(there)
    assert secrets_ended(every_row(sqlite_app)) == before
    assert not signed_in(sqlite_app)  # a restore signs everyone out
    with sqlite_app.app_context():
        backup.backup(back)
    wipe(app)
    with app.app_context():
        restore.restore(back)
    assert secrets_ended(every_row(app)) == before


def at_revision(app, revision, action):
    """Do ``action`` with the database taken down to an older schema revision."""
    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision=revision)
        try:
            action()
        finally:
            db.session.remove()
            flask_migrate.upgrade(directory=MIGRATIONS_DIR)


@pytest.mark.slow
def test_an_older_json_backup_is_restored_and_upgraded(
    app, table, api, auth, wikipedia_card, tmp_path
):
    fill_every_table(app, table, api, auth, wikipedia_card, other_kinds=False)
    before = every_row(app)
    file = str(tmp_path / "old.json")
    at_revision(app, "0006_perf", lambda: backup.backup(file))
    assert json.loads(Path(file).read_text())["schema"] == "0006_perf"
    wipe(app)
    result = app.test_cli_runner().invoke(args=["restore", file, "--yes"])
    assert result.exit_code == 0, result.output
    assert "1 API token kept revoked" in result.output  # wiped: it did not work before
    newer = {"invitation": [], "league_round": [], "seat_link": []}  # made after 0006
    assert secrets_ended(every_row(app)) == before | newer  # at the newest revision again


@pytest.mark.slow
def test_an_older_sqlite_copy_is_restored_and_upgraded(
    sqlite_app, sqlite_table, wikipedia_card, tmp_path
):
    fill(sqlite_table, wikipedia_card)
    before = every_row(sqlite_app)
    file = str(tmp_path / "old.sqlite")
    at_revision(sqlite_app, "0006_perf", lambda: backup.backup(file))
    wipe(sqlite_app)
    with sqlite_app.app_context():
        assert "upgraded from schema 0006_perf" in restore.restore(file)
    assert every_row(sqlite_app) == before
    assert before["alembic_version"] == [{"version_num": HEAD}]


@pytest.mark.slow
def test_a_restore_refuses_what_is_not_a_backup_of_ours(sqlite_app, tmp_path):
    before = every_row(sqlite_app)
    other = tmp_path / "other.sqlite"
    with closing(sqlite3.connect(other)) as connection:
        connection.execute("CREATE TABLE game (id INTEGER PRIMARY KEY, name TEXT)")
    text_file = tmp_path / "notes.sqlite"
    text_file.write_text("just some notes\n" * 100)
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps({"format": backup.FORMAT, "schema": "0099_future", "tables": {}}))
    damaged = tmp_path / "damaged.json"
    damaged.write_text(json.dumps({"format": backup.FORMAT, "schema": "0006_perf", "tables": 3}))
    expected = {
        other: "is not a Mille Scorekeeper database",
        text_file: "is not an SQLite database",
        newer: "schema '0099_future', which this version of the app doesn't know",
        damaged: "its tables are not lists of rows",
    }
    runner = sqlite_app.test_cli_runner()
    for file, message in expected.items():
        result = runner.invoke(args=["restore", str(file), "--yes"])
        assert result.exit_code != 0
        assert message in result.output, result.output
    assert every_row(sqlite_app) == before


@pytest.mark.slow
def test_an_older_backup_the_database_refuses_leaves_everything_as_it_was(
    sqlite_app, sqlite_table, wikipedia_card, tmp_path
):
    fill(sqlite_table, wikipedia_card)
    before = every_row(sqlite_app)
    with sqlite_app.app_context():
        data = backup.dump()
    data["schema"] = "0010_sessions"  # 0011 changed only the audit events' columns:
    for event in data["tables"]["audit_event"]:
        del event["params"]
        event["summary"] = "Deal 1 recorded."  # 0010 kept a sentence
    data["tables"]["deal"].append({**data["tables"]["deal"][0], "id": 99, "game_id": 99})
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    result = sqlite_app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code != 0
    assert "The database refused this backup: FOREIGN KEY constraint failed" in result.output
    assert "INSERT" not in result.output
    assert every_row(sqlite_app) == before
