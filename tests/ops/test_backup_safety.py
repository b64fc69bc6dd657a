"""What a backup and a restore must not do (issue 21): bring back what was ended since the
backup — a session signed out, an API token revoked — or destroy the previous good backup
when the new one can't be written."""

import resource
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import db
from scorekeeper.ops import backup


def signed_in(app):
    client = app.test_client()
    data = {"username": "admin", "password": "admin-password", "remember": "y"}
    assert client.post("/login", data=data).status_code == 302
    return client


def stolen(app, client):
    """Another browser holding copies of both of ``client``'s cookies."""
    thief = app.test_client()
    for name in ("session", "remember_token"):
        thief.set_cookie(name, client.get_cookie(name).value)
    return thief


def opens_the_account(client):
    return client.get("/account").status_code == 200


def restore(app, file):
    result = app.test_cli_runner().invoke(args=["restore", str(file), "--yes"])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_a_restore_does_not_sign_a_stolen_cookie_in_again(sqlite_app, tmp_path, kind):
    """The SQLite copy holds the sessions signed in when it was made."""
    phone = signed_in(sqlite_app)
    thief = stolen(sqlite_app, phone)
    file = tmp_path / f"before-sign-out.{kind}"
    with sqlite_app.app_context():
        backup.backup(str(file))
    assert phone.post("/account/sign-out-everywhere").status_code == 302
    assert not opens_the_account(thief)
    restore(sqlite_app, file)
    assert not opens_the_account(thief)
    assert not opens_the_account(phone)  # everyone signs in again
    assert opens_the_account(signed_in(sqlite_app))


def tokens(app):
    """Two API tokens of the administrator: one to be revoked after the backup, one not."""
    with app.app_context():
        admin = user_service.user_by_name("admin")
        made = (
            token_service.create_token(admin.id, "stolen"),
            token_service.create_token(admin.id, "dashboard"),
        )
        db.session.remove()
    return made


def revoke(app, token):
    with app.app_context():
        user = token_service.user_for_token(token)
        (row,) = [row for row in token_service.tokens_of(user.id) if row.name == "stolen"]
        token_service.revoke_token(user.id, row.id)
        db.session.remove()


def works(app, token):
    with app.app_context():
        user = token_service.user_for_token(token)
        db.session.remove()
    return user is not None


def test_a_json_restore_keeps_a_token_revoked_after_the_backup_revoked(app, tmp_path):
    revoked, kept = tokens(app)
    file = tmp_path / "league.json"
    with app.app_context():
        backup.backup(str(file))
    revoke(app, revoked)
    output = restore(app, file)
    assert "1 API token kept revoked" in output
    assert not works(app, revoked)
    assert works(app, kept)  # a token that worked before the restore goes on working


def test_an_sqlite_copy_restore_keeps_a_token_revoked_after_the_backup_revoked(
    sqlite_app, tmp_path
):
    revoked, kept = tokens(sqlite_app)
    file = tmp_path / "copy.sqlite"
    with sqlite_app.app_context():
        backup.backup(str(file))
    revoke(sqlite_app, revoked)
    output = restore(sqlite_app, file)
    assert "1 API token kept revoked" in output
    assert not works(sqlite_app, revoked)
    assert works(sqlite_app, kept)


def test_a_restore_into_a_database_that_never_had_the_tokens_revokes_them(
    app, sqlite_app, tmp_path
):
    """A backup moved to another server brings no working token with it: a token works after a
    restore only if it worked just before it."""
    revoked, kept = tokens(app)
    file = tmp_path / "league.json"
    with app.app_context():
        backup.backup(str(file))
    assert "2 API tokens kept revoked" in restore(sqlite_app, file)
    assert not works(sqlite_app, revoked)
    assert not works(sqlite_app, kept)


@contextmanager
def disk_full_past(size):
    """Every write of this process past ``size`` bytes of a file fails as on a full disk
    (EFBIG: the file size limit, which needs no special file system)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # an error, not a signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)


def backup_on_a_full_disk(app, file):
    file.write_text("the previous good backup\n")
    with disk_full_past(4096):
        result = app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert file.read_text() == "the previous good backup\n"
    assert [path.name for path in file.parent.iterdir()] == [file.name]  # no draft left
    assert "Traceback" not in result.output
    assert "nothing was written. The backup that was there is as it was." in result.output
    return result.output


def test_a_json_backup_on_a_full_disk_keeps_the_previous_one(app, table, wikipedia_card, tmp_path):
    game = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game, out, scores, stars)
    folder = tmp_path / "backups"
    folder.mkdir()
    output = backup_on_a_full_disk(app, folder / "league.json")
    assert f"Error: Not enough room for the backup in {folder} (File too large)" in output


def test_an_sqlite_copy_on_a_full_disk_keeps_the_previous_one(sqlite_app, tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    output = backup_on_a_full_disk(sqlite_app, folder / "copy.sqlite")
    assert f"Error: Can't write {folder / 'copy.sqlite'} (disk I/O error)" in output


def test_a_backup_into_a_missing_folder_says_so(app, tmp_path):
    file = tmp_path / "not-made-yet" / "league.json"
    result = app.test_cli_runner().invoke(args=["backup", str(file)])
    assert result.exit_code == 1
    assert f"Error: There is no folder {file.parent}: nothing was written." in result.output
    assert not file.parent.exists()


def test_a_backup_replaces_the_previous_one_whole(app, tmp_path):
    file = tmp_path / "league.json"
    file.write_text("x" * 10_000_000)  # longer than the new one: nothing of it may be left
    with app.app_context():
        backup.backup(str(file))
    assert file.read_text().startswith("{")
    assert file.read_text().endswith("}\n")
    assert Path(file).stat().st_mode & 0o077 == 0  # it holds password hashes: the owner's only


@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_a_restore_does_not_reopen_an_invitation_withdrawn_after_the_backup(
    sqlite_app, tmp_path, kind
):
    from scorekeeper.accounts import invitations
    from scorekeeper.models import League, Role

    with sqlite_app.app_context():
        league_id = db.session.scalars(db.select(League.id)).first()
        withdrawn, _token = invitations.create(league_id, Role.VIEWER, None)
        kept, _token = invitations.create(league_id, Role.SCOREKEEPER, None)
        withdrawn_id, kept_id = withdrawn.id, kept.id
        db.session.remove()
    file = tmp_path / f"league.{kind}"
    with sqlite_app.app_context():
        backup.backup(str(file))
        invitations.withdraw(league_id, withdrawn_id)
        db.session.remove()
    assert "1 invitation kept closed" in restore(sqlite_app, file)
    with sqlite_app.app_context():
        still_open = [invitation.id for invitation in invitations.open_invitations(league_id)]
        db.session.remove()
    assert still_open == [kept_id]


@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_a_restore_does_not_reopen_a_seat_link_stopped_after_the_backup(sqlite_app, tmp_path, kind):
    from scorekeeper.engine import Rules, Seat, Stakes
    from scorekeeper.models import League
    from scorekeeper.table import seats, starting

    with sqlite_app.app_context(), sqlite_app.test_request_context():
        league_id = db.session.scalars(db.select(League.id)).first()
        game_id = starting.start_game(
            league_id, ("Ana", "Ben"), Rules(), Stakes.from_small(100), Seat(0)
        ).id
        stopped, kept = seats.share(game_id, 0), seats.share(game_id, 1)
        db.session.remove()
    file = tmp_path / f"league.{kind}"
    with sqlite_app.app_context():
        backup.backup(str(file))
        seats.stop_sharing(game_id, 0)
        db.session.remove()
    assert "1 seat link kept stopped" in restore(sqlite_app, file)
    with sqlite_app.app_context():
        assert seats.open_seat(stopped) is None
        assert seats.open_seat(kept) is not None
        db.session.remove()


def make_account(app, username="mallory"):
    with app.app_context():
        user_service.create_user(username, "a long passphrase")
        db.session.remove()


def disable(app, username="mallory"):
    with app.app_context():
        user_service.set_disabled(user_service.user_by_name(username).id, True, by=0)
        db.session.remove()


def signs_in(app, username="mallory"):
    data = {"username": username, "password": "a long passphrase"}
    return app.test_client().post("/login", data=data).status_code == 302


def backup_disable_restore(app, file, back_at=None):
    """An account in use in the backup, disabled after it; then the backup restored."""
    from tests.ops.test_backup import at_revision

    make_account(app)
    assert signs_in(app)
    if back_at is None:
        with app.app_context():
            backup.backup(str(file))
    else:
        at_revision(app, back_at, lambda: backup.backup(str(file)))
    disable(app)
    assert not signs_in(app)
    return restore(app, file)


@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_a_restore_keeps_an_account_disabled_since_the_backup_disabled(sqlite_app, tmp_path, kind):
    """Disabled because its password leaked, say: the backup must not put it back in use."""
    output = backup_disable_restore(sqlite_app, tmp_path / f"league.{kind}")
    assert "1 account kept disabled" in output
    assert not signs_in(sqlite_app)
    assert opens_the_account(signed_in(sqlite_app))  # the others as they were


def test_a_json_restore_keeps_an_account_disabled_on_this_database(app, tmp_path):
    """The same on the tests' database (PostgreSQL when DATABASE_URL is set)."""
    assert "1 account kept disabled" in backup_disable_restore(app, tmp_path / "league.json")
    assert not signs_in(app)
    assert opens_the_account(signed_in(app))


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sqlite", "json"])
def test_a_backup_from_before_accounts_could_be_disabled_keeps_one_disabled(
    sqlite_app, tmp_path, kind
):
    """A backup of schema 0015, which had no ``disabled_at``: the account is disabled again
    once the restored database is brought up to date."""
    output = backup_disable_restore(sqlite_app, tmp_path / f"old.{kind}", "0015_seat_links")
    assert "1 account kept disabled" in output
    assert not signs_in(sqlite_app)
