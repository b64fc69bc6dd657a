"""Backups: SQLite's online backup, or a portable JSON dump of every table for any database.

A restore checks what it is given first — a backup of ours, of a schema revision this
app knows — and brings an older one up to date: an SQLite copy is migrated after it is
copied in; a JSON dump of an older revision is loaded into the database taken down to
that revision, then migrated.
"""

import json
import sqlite3
from contextlib import closing
from datetime import date, datetime
from pathlib import Path
from typing import Any

import flask_migrate
from alembic.script import ScriptDirectory
from sqlalchemy import Date, DateTime, MetaData, Table, delete, func, insert, select, text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.database import MIGRATIONS_DIR, writing
from scorekeeper.models import db

FORMAT = "mille-scorekeeper-backup/1"
#: Tables every version of the app has: a database without them is not ours.
OUR_TABLES = frozenset({"alembic_version", "league", "player", "game", "deal"})
#: Who is signed in, and the sign-in throttle's counters, are not backed up: a restore
#: signs everyone out (a copied cookie must not come back to life with an old backup)
#: and forgets recent failed guesses. Older backups may hold ``login_failure``.
SIGN_IN_STATE = frozenset({"user_session", "login_throttle", "login_failure"})


class BackupError(Exception):
    """A backup or restore that can't be done; nothing was changed."""


def _tables(*, sign_in_state: bool = False) -> list[Table]:
    """The tables as the database has them now (which may be an older revision's), less
    :data:`SIGN_IN_STATE` unless asked for."""
    metadata = MetaData()
    metadata.reflect(db.engine)
    left_out = {"alembic_version"} | (set() if sign_in_state else SIGN_IN_STATE)
    return [table for table in metadata.sorted_tables if table.name not in left_out]


def _schema_revision() -> str | None:
    return db.session.scalar(text("SELECT version_num FROM alembic_version"))


def _revisions() -> list[str]:
    """Every schema revision of the app, oldest first."""
    script = ScriptDirectory(MIGRATIONS_DIR)
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


def _check_revision(revision: object) -> str:
    """The backup's revision, if this app can restore it: its own or an older one."""
    known = _revisions()
    if revision not in known:
        raise BackupError(
            f"The backup is of schema {revision!r}, which this version of the app doesn't "
            f"know (it knows {known[0]} to {known[-1]}): restore it with a newer version."
        )
    return str(revision)


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, date) else value


def _counts(rows: dict[str, list[Any]]) -> str:
    wanted = ("league", "player", "game", "deal", "user")
    counts = ((len(rows.get(name, [])), name) for name in wanted)
    return ", ".join(f"{count} {name}{'' if count == 1 else 's'}" for count, name in counts)


def dump() -> dict[str, Any]:
    """Every row of every table, read in one transaction so the copy is consistent."""
    db.session.rollback()
    tables: dict[str, list[dict[str, Any]]] = {}
    for table in _tables():
        result = db.session.execute(select(table).order_by(*table.primary_key.columns))
        tables[table.name] = [
            {key: _plain(value) for key, value in row._mapping.items()} for row in result
        ]
    revision = _schema_revision()
    db.session.rollback()
    return {"format": FORMAT, "schema": revision, "tables": tables}


def _sqlite_path() -> str | None:
    url = db.engine.url
    return url.database if url.get_backend_name() == "sqlite" and url.database else None


def backup(file: str) -> str:
    """Write a backup to ``file`` (JSON if it ends in .json, else an SQLite copy)."""
    if file.endswith(".json"):
        data = dump()
        Path(file).write_text(json.dumps(data, indent=1, sort_keys=True))
        return _counts(data["tables"])
    if _sqlite_path() is None:
        raise BackupError("Only an SQLite database can be copied as a file: name a .json file.")
    raw = db.engine.raw_connection()
    try:
        target = sqlite3.connect(file)
        with target:
            raw.driver_connection.backup(target)  # type: ignore[union-attr]
        target.close()
    finally:
        raw.close()
    return f"SQLite copy of {_sqlite_path()}"


def _load_row(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    values = {}
    for column in table.columns:
        if column.name not in row:
            continue
        value = row[column.name]
        if isinstance(value, str) and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        elif isinstance(value, str) and isinstance(column.type, Date):
            value = date.fromisoformat(value)
        values[column.name] = value
    return values


def _checked_dump(data: Any) -> tuple[str, dict[str, list[dict[str, Any]]]]:
    """The dump's schema revision and rows, if it is a backup this app can restore."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError("This is not a Mille Scorekeeper backup.")
    revision = _check_revision(data.get("schema"))
    tables = data.get("tables")
    if not isinstance(tables, dict) or not all(
        isinstance(rows, list) and all(isinstance(row, dict) for row in rows)
        for rows in tables.values()
    ):
        raise BackupError("This backup is damaged: its tables are not lists of rows.")
    return revision, tables


def load(data: Any) -> str:
    """Replace every row with the dump's, and bring an older dump's schema up to date.

    A dump of the app's own revision is loaded in one transaction. An older one is
    loaded into the database taken down to the dump's revision, which is then
    migrated; if the database refuses it, what it held before is put back.
    """
    revision, tables = _checked_dump(data)
    if revision == _schema_revision():
        _replace_rows(revision, tables)
    else:
        kept = dump()
        with writing():
            _delete_everything()
        _migrate(revision)
        try:
            _replace_rows(revision, tables)
        except BackupError:
            _migrate()
            load(kept)
            raise
        _migrate()
    if db.engine.dialect.name == "postgresql":
        with writing():
            _reset_sequences()
    return _counts(tables)


def _migrate(revision: str | None = None) -> None:
    """Take the schema to ``revision``, down or up (up to the newest when None)."""
    db.session.remove()
    if revision is None:
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
    else:
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision=revision)


def _replace_rows(revision: str, tables: dict[str, list[dict[str, Any]]]) -> None:
    """Every row of the database replaced by the dump's, in one transaction."""
    try:
        with writing():
            _delete_everything()
            known = _tables()
            unknown = set(tables) - {table.name for table in known} - SIGN_IN_STATE
            if unknown:
                raise BackupError(
                    f"This backup has tables the schema {revision} doesn't: "
                    f"{', '.join(sorted(unknown))}."
                )
            for table in known:
                rows = [_load_row(table, row) for row in tables.get(table.name, [])]
                if rows:
                    db.session.execute(insert(table), rows)
    except (ValueError, TypeError) as error:
        raise BackupError(f"This backup is damaged: {error}") from None
    except SQLAlchemyError as error:  # a row the database refuses: say why, not the SQL
        raise BackupError(f"The database refused this backup: {_first_line(error)}") from None


def _first_line(error: SQLAlchemyError) -> str:
    """The driver's own words, without the statement SQLAlchemy adds to them."""
    cause = getattr(error, "orig", None) or error
    return (str(cause).strip().splitlines() or [type(cause).__name__])[0]


def _delete_everything() -> None:
    for table in reversed(_tables(sign_in_state=True)):
        db.session.execute(delete(table))


def _reset_sequences() -> None:
    """PostgreSQL's id sequences must continue after the restored ids."""
    for table in db.metadata.sorted_tables:
        key = list(table.primary_key.columns)
        if len(key) != 1 or not key[0].autoincrement or key[0].type.python_type is not int:
            continue
        highest = db.session.scalar(select(func.max(key[0]))) or 0
        db.session.execute(
            text("SELECT setval(pg_get_serial_sequence(:table, :column), :value, :called)"),
            {
                "table": table.name,
                "column": key[0].name,
                "value": max(highest, 1),
                "called": highest > 0,
            },
        )


def _open_read_only(file: str) -> closing[sqlite3.Connection]:
    return closing(sqlite3.connect(f"{Path(file).absolute().as_uri()}?mode=ro", uri=True))


def _check_sqlite_copy(file: str) -> str:
    """The copy's schema revision, if it is an intact copy of our database."""
    try:
        with _open_read_only(file) as source:
            names = {row[0] for row in source.execute("SELECT name FROM sqlite_master")}
            if not names >= OUR_TABLES:
                raise BackupError(f"{file} is not a Mille Scorekeeper database.")
            damage = source.execute("PRAGMA quick_check").fetchone()[0]
            if damage != "ok":
                raise BackupError(f"{file} is damaged: {damage}")
            revision = source.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{file} is not an SQLite database ({error}).") from None
    return _check_revision(revision[0] if revision else None)


def restore(file: str) -> str:
    """Bring back a backup made by :func:`backup`, of this version of the app or an older one."""
    if file.endswith(".json"):
        try:
            data = json.loads(Path(file).read_text())
        except (OSError, ValueError, RecursionError) as error:
            raise BackupError(f"Can't read {file}: {error}") from None
        return load(data)
    if _sqlite_path() is None:
        raise BackupError("Only an SQLite database can be restored from a file copy.")
    revision = _check_sqlite_copy(file)
    db.session.remove()
    raw = db.engine.raw_connection()
    try:
        with _open_read_only(file) as source:
            source.backup(raw.driver_connection)  # type: ignore[arg-type]
    finally:
        raw.close()
    db.engine.dispose()
    flask_migrate.upgrade(directory=MIGRATIONS_DIR)
    upgraded = "" if revision == _revisions()[-1] else f", upgraded from schema {revision}"
    return f"SQLite copy into {_sqlite_path()}{upgraded}"
