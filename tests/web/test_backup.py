"""Backups round-trip a league with nothing lost."""

from scorekeeper import backup
from scorekeeper.models import AuditEvent, Deal, Game, League, Player, User, db


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


def test_json_backup_and_restore_bring_everything_back(table, app, wikipedia_card, tmp_path):
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
    # New rows continue after the restored ids (PostgreSQL sequences are reset).
    assert table.start_game("Eve", "Fay") == max(game[0] for game in before["games"]) + 1


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
        backup.restore(file)
    assert snapshot(app) == before


def test_restore_refuses_a_file_that_is_not_a_backup(app, tmp_path):
    file = tmp_path / "other.json"
    file.write_text('{"hello": 1}')
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code != 0
    assert "not a Mille Scorekeeper backup" in result.output
