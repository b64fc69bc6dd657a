"""Backups: SQLite's online backup, or a portable JSON dump of every table for any database.

Both are written as a new file beside the one named, renamed over it only once whole:
a backup that fails (a full disk, say) leaves the previous one as it was.

A JSON dump is written a batch of rows at a time (``ops/bulk.py``, ``ops/dump_file.py``),
in one consistent snapshot of the database, so it never has to fit in memory. Reading one
back is :mod:`.restore`'s.
"""

import errno
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import closing, contextmanager
from functools import cache
from pathlib import Path
from typing import IO, Any, Protocol, TypeVar

from alembic.script import ScriptDirectory
from sqlalchemy import Connection, MetaData, Table, func, select, text

from scorekeeper.database import MIGRATIONS_DIR
from scorekeeper.models import db
from scorekeeper.ops import bulk
from scorekeeper.ops.dump_file import DumpWriter

FORMAT = "mille-scorekeeper-backup/1"
#: Tables every version of the app has: a database without them is not ours.
OUR_TABLES = frozenset({"alembic_version", "league", "player", "game", "deal"})
#: Who is signed in, and the sign-in throttle's counters, are not backed up: a restore
#: signs everyone out (a copied cookie must not come back to life with an old backup)
#: and forgets recent failed guesses. Older backups may hold ``login_failure``.
SIGN_IN_STATE = frozenset({"user_session", "login_throttle", "login_failure"})

T = TypeVar("T")


class BackupError(Exception):
    """A backup or restore that can't be done; nothing was changed."""


class Progress(Protocol):
    """Told how far a long job has got: ``done`` of ``total`` (rows, bytes or pages)."""

    def __call__(self, done: int, total: int, unit: str) -> None: ...


def quiet(done: int, total: int, unit: str) -> None:
    """Nobody to tell."""


# The database's tables and revisions -------------------------------------------------------


def our_tables(connection: Connection, *, sign_in_state: bool = False) -> list[Table]:
    """The tables as the database has them now (which may be an older revision's), parents
    before children, less :data:`SIGN_IN_STATE` unless asked for."""
    metadata = MetaData()
    metadata.reflect(connection)
    left_out = {"alembic_version"} | (set() if sign_in_state else SIGN_IN_STATE)
    return [table for table in metadata.sorted_tables if table.name not in left_out]


def schema_revision() -> str | None:
    revision = db.session.scalar(text("SELECT version_num FROM alembic_version"))
    db.session.rollback()
    return revision


@cache
def revisions() -> tuple[str, ...]:
    """Every schema revision of the app, oldest first (read from the migrations once)."""
    script = ScriptDirectory(MIGRATIONS_DIR)
    return tuple(revision.revision for revision in reversed(list(script.walk_revisions())))


def check_revision(revision: object) -> str:
    """The backup's revision, if this app can restore it: its own or an older one."""
    known = revisions()
    if revision not in known:
        raise BackupError(
            f"The backup is of schema {revision!r}, which this version of the app doesn't "
            f"know (it knows {known[0]} to {known[-1]}): restore it with a newer version."
        )
    return str(revision)


def said_counts(rows: dict[str, int]) -> str:
    wanted = ("league", "player", "game", "deal", "user")
    counts = ((rows.get(name, 0), name) for name in wanted)
    return ", ".join(f"{count} {name}{'' if count == 1 else 's'}" for count, name in counts)


def sqlite_path() -> str | None:
    url = db.engine.url
    return url.database if url.get_backend_name() == "sqlite" and url.database else None


# Backing up --------------------------------------------------------------------------------


def backup(file: str, progress: Progress = quiet) -> str:
    """Write a backup to ``file`` (JSON if it ends in .json, else an SQLite copy)."""
    if not file.endswith(".json") and sqlite_path() is None:
        raise BackupError("Only an SQLite database can be copied as a file: name a .json file.")
    with _new_file(file) as draft:
        if not file.endswith(".json"):
            _copy_sqlite(draft)
            return f"SQLite copy of {sqlite_path()}"
        with draft.open("w", encoding="utf-8") as out:
            counts = write_dump(out, progress)
            out.flush()
            os.fsync(out.fileno())
    return said_counts(counts)


def dump() -> dict[str, Any]:
    """Every row of every table, as a backup file holds them (for a small database: the
    whole of it is in memory)."""
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        write_dump(out)
        out.seek(0)
        return dict(json.load(out))


@contextmanager
def _new_file(file: str) -> Iterator[Path]:
    """A new file beside ``file`` to write, put in its place when the block ends without an
    error and removed otherwise; BackupError, in words, when it can't be written."""
    target = Path(file).absolute()
    if not target.parent.is_dir():
        raise BackupError(f"There is no folder {target.parent}: nothing was written.")
    draft: Path | None = None
    try:
        handle, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
        os.close(handle)
        draft = Path(name)
        yield draft
        os.replace(draft, target)
        _sync_folder(target.parent)
    except (OSError, sqlite3.Error) as error:
        raise BackupError(_not_written(target, error)) from None
    finally:
        if draft is not None:
            draft.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    """The rename itself on disk, so that a crash just after it doesn't undo it."""
    handle = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def _not_written(target: Path, error: OSError | sqlite3.Error) -> str:
    kept = " The backup that was there is as it was." if target.exists() else ""
    reason = (getattr(error, "strerror", None) or str(error)).rstrip(".")
    no_room = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
    if (isinstance(error, OSError) and error.errno in no_room) or (
        isinstance(error, sqlite3.Error) and "full" in str(error)
    ):
        return (
            f"Not enough room for the backup in {target.parent} ({reason}): "
            f"nothing was written.{kept}"
        )
    return f"Can't write {target} ({reason}): nothing was written.{kept}"


def write_dump(out: IO[str], progress: Progress = quiet) -> dict[str, int]:
    """Every row of every table as JSON, read in one consistent snapshot; rows per table."""
    with _snapshot() as connection:
        revision = connection.scalar(text("SELECT version_num FROM alembic_version"))
        tables = our_tables(connection)
        counts = {
            table.name: connection.scalar(select(func.count()).select_from(table)) or 0
            for table in tables
        }
        told = Told(progress, sum(counts.values()), "rows")
        writer = DumpWriter(out, {"format": FORMAT, "schema": revision})
        for table in tables:
            writer.table(table.name, told.batches(bulk.rows_as_json(connection, table)))
        writer.close()
        told.finished()
    return counts


class Told:
    """Tells ``progress`` how far a job has got, batch by batch."""

    def __init__(self, progress: Progress, total: int, unit: str) -> None:
        self.progress, self.total, self.unit, self.done = progress, total, unit, 0
        progress(0, total, unit)

    def batches(self, batches: Iterable[list[T]]) -> Iterator[list[T]]:
        for batch in batches:
            yield batch
            self.advance(len(batch))

    def advance(self, count: int) -> None:
        self.done += count
        self.progress(min(self.done, self.total), self.total, self.unit)

    def finished(self) -> None:
        self.progress(self.total, self.total, self.unit)


@contextmanager
def _snapshot() -> Iterator[Connection]:
    """A connection reading the whole database as it was at one moment, writers going on."""
    db.session.remove()
    with db.engine.connect() as connection:
        if connection.dialect.name == "postgresql":  # one snapshot for every statement
            connection.execution_options(
                isolation_level="REPEATABLE READ", postgresql_readonly=True
            )
        with connection.begin():  # SQLite, in WAL mode: the first read fixes what is seen
            yield connection


def _copy_sqlite(draft: Path) -> None:
    """SQLite's online backup into ``draft``, in one step: writers going on never make it
    start over, as they would between steps."""
    raw = db.engine.raw_connection()
    try:
        with closing(sqlite3.connect(draft)) as target:
            raw.driver_connection.backup(target)  # type: ignore[union-attr]
    finally:
        raw.close()
