"""Backups: SQLite's online backup, or a portable JSON dump of every table for any database."""

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import DateTime, delete, func, insert, select, text

from .database import writing
from .models import db

FORMAT = "mille-scorekeeper-backup/1"


class BackupError(Exception):
    """A backup or restore that can't be done; nothing was changed."""


def _tables() -> list[Any]:
    return list(db.metadata.sorted_tables)


def _schema_revision() -> str | None:
    return db.session.scalar(text("SELECT version_num FROM alembic_version"))


def _plain(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else value


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


def _load_row(table: Any, row: dict[str, Any]) -> dict[str, Any]:
    values = {}
    for column in table.columns:
        if column.name not in row:
            continue
        value = row[column.name]
        if isinstance(column.type, DateTime) and isinstance(value, str):
            value = datetime.fromisoformat(value)
        values[column.name] = value
    return values


def load(data: dict[str, Any]) -> str:
    """Replace every row with the dump's, in one transaction."""
    if data.get("format") != FORMAT:
        raise BackupError("This is not a Mille Scorekeeper backup.")
    if data.get("schema") != _schema_revision():
        raise BackupError(
            f"The backup is of schema {data.get('schema')}, the database is at "
            f"{_schema_revision()}: restore it into the same version of the app."
        )
    tables = data["tables"]
    with writing():
        for table in reversed(_tables()):
            db.session.execute(delete(table))
        for table in _tables():
            rows = [_load_row(table, row) for row in tables.get(table.name, [])]
            if rows:
                db.session.execute(insert(table), rows)
        if db.engine.dialect.name == "postgresql":
            _reset_sequences()
    return _counts(tables)


def _reset_sequences() -> None:
    """PostgreSQL's id sequences must continue after the restored ids."""
    for table in _tables():
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


def restore(file: str) -> str:
    """Bring back a backup made by :func:`backup`."""
    if file.endswith(".json"):
        try:
            data = json.loads(Path(file).read_text())
        except (OSError, ValueError) as error:
            raise BackupError(f"Can't read {file}: {error}") from None
        return load(data)
    if _sqlite_path() is None:
        raise BackupError("Only an SQLite database can be restored from a file copy.")
    db.session.remove()
    source = sqlite3.connect(f"file:{file}?mode=ro", uri=True)
    raw = db.engine.raw_connection()
    try:
        source.backup(raw.driver_connection)  # type: ignore[arg-type]
    finally:
        raw.close()
        source.close()
    return f"SQLite copy into {_sqlite_path()}"
