"""Restoring a backup made by :mod:`.backup`: an SQLite copy, or a JSON dump read a batch of
rows at a time and loaded in one transaction.

A restore checks what it is given first — a backup of ours, of a schema revision this
app knows — and brings an older one up to date: an SQLite copy is migrated after it is
copied in; a JSON dump of an older revision is loaded into the database taken down to
that revision, then migrated.

A restore never brings back what was ended since the backup (:mod:`.ended`): it signs
everyone out, an API token works after it only if it worked just before it, and an account
disabled just before it stays disabled.
"""

import io
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import IO, Any

import flask_migrate
from sqlalchemy import JSON, Connection, Table, delete, func, select, text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.database import MIGRATIONS_DIR, writing
from scorekeeper.models import db
from scorekeeper.ops import bulk
from scorekeeper.ops.backup import (
    FORMAT,
    OUR_TABLES,
    SIGN_IN_STATE,
    BackupError,
    Progress,
    Told,
    check_revision,
    our_tables,
    quiet,
    revisions,
    said_counts,
    schema_revision,
    sqlite_path,
    write_dump,
)
from scorekeeper.ops.dump_file import DumpError, DumpReader, NotAnObject
from scorekeeper.ops.ended import (
    BeforeRestore,
    before_restore,
    end_in_sqlite_copy,
    ended_words,
    keep_disabled_once_upgraded,
    keep_ended,
)


def restore(file: str, progress: Progress = quiet) -> str:
    """Bring back a backup made by :func:`backup`, of this version of the app or an older one."""
    if file.endswith(".json"):
        try:
            handle = open(file, "rb")  # noqa: SIM115 (closed below, errors worded first)
        except OSError as error:
            raise BackupError(f"Can't read {file}: {error.strerror}.") from None
        with handle:
            return _load(handle, file, progress)
    return _restore_sqlite_copy(file, progress)


def load(data: Any) -> str:
    """Replace every row with those of a backup given as its JSON value (for a small one)."""
    with tempfile.TemporaryFile() as file:
        file.write(json.dumps(data).encode())
        return _load(file, "the backup")


def _load(file: IO[bytes], name: str, progress: Progress = quiet) -> str:
    """Replace every row with the file's, and bring an older dump's schema up to date.

    A dump of the app's own revision is loaded in one transaction. An older one is
    loaded into the database taken down to the dump's revision, which is then
    migrated; if the database refuses it, what it held before is put back.
    """
    reader = DumpReader(file)
    revision = _check_header(reader, name)
    live = before_restore()
    size = os.fstat(file.fileno()).st_size
    if revision == schema_revision():
        counts, revoked = _replace_rows(revision, reader, live, Told(progress, size, "bytes"))
    else:
        counts, revoked = _replace_older(revision, reader, live, Told(progress, size, "bytes"))
        revoked = keep_disabled_once_upgraded(live, revoked)
    if db.engine.dialect.name == "postgresql":
        with writing():
            _reset_sequences()
    return said_counts(counts) + ended_words(revoked)


def _check_header(reader: DumpReader, name: str) -> str:
    """The dump's schema revision, if it is a backup this app can restore."""
    try:
        header = reader.header(needed=frozenset({"format", "schema"}))
    except NotAnObject:
        raise BackupError("This is not a Mille Scorekeeper backup.") from None
    except DumpError as error:
        raise BackupError(f"Can't read {name}: {error}.") from None
    except (ValueError, RecursionError) as error:  # not UTF-8
        raise BackupError(f"Can't read {name}: {error}.") from None
    if header.get("format") != FORMAT:
        raise BackupError("This is not a Mille Scorekeeper backup.")
    revision = check_revision(header.get("schema"))
    if not header.get("tables"):
        raise BackupError("This backup is damaged: its tables are not lists of rows.")
    return revision


def _replace_older(
    revision: str, reader: DumpReader, live: BeforeRestore, told: "Told"
) -> tuple[dict[str, int], dict[str, int]]:
    """The dump loaded into the database taken down to its revision, then migrated; what
    the database held is put back if the dump is refused."""
    _read_through(reader)  # a damaged file is found before anything changes
    with tempfile.TemporaryFile() as kept:
        text_out = io.TextIOWrapper(kept, encoding="utf-8")
        write_dump(text_out)
        text_out.flush()
        text_out.detach()
        with writing():
            _delete_everything(db.session.connection())
        _migrate(revision)
        try:
            loaded = _replace_rows(revision, reader, live, told)
        except BackupError:
            _migrate()
            put_back = DumpReader(kept)
            _check_header(put_back, "the database as it was")
            _replace_rows(revisions()[-1], put_back, None, Told(quiet, 0, "bytes"))
            raise
        _migrate()
    return loaded


def _read_through(reader: DumpReader) -> None:
    """Read every row once (keeping none) to find a damaged file; then back to the tables."""
    try:
        for _name, rows in reader.tables():
            for _row in rows:
                pass
    except (DumpError, ValueError, RecursionError) as error:
        raise BackupError(f"This backup is damaged: {error}.") from None
    reader.rewind()


def _migrate(revision: str | None = None) -> None:
    """Take the schema to ``revision``, down or up (up to the newest when None)."""
    db.session.remove()
    if revision is None:
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
    else:
        flask_migrate.downgrade(directory=MIGRATIONS_DIR, revision=revision)


def _replace_rows(
    revision: str, reader: DumpReader, live: BeforeRestore | None, told: "Told"
) -> tuple[dict[str, int], dict[str, int]]:
    """Every row of the database replaced by the dump's, in one transaction, parents
    before children whatever the file's order; rows per table, and the secrets kept ended
    and accounts kept disabled (none when ``live`` is None: every one as in the dump)."""
    dbapi_error = db.engine.dialect.loaded_dbapi.Error
    try:
        with writing(), tempfile.TemporaryDirectory() as spool:
            connection = db.session.connection()
            _delete_everything(connection)
            known = {table.name: table for table in our_tables(connection)}
            loader = _Loader(connection, known, Path(spool), told, reader)
            unknown = []
            with bulk.keys_checked_at_the_end(connection, known.values()):
                for name, rows in reader.tables():
                    if name in SIGN_IN_STATE:
                        continue
                    if name not in known:
                        unknown.append(name)
                        continue
                    loader.take(name, rows)
                if unknown:
                    raise BackupError(
                        f"This backup has tables the schema {revision} doesn't: "
                        f"{', '.join(sorted(unknown))}."
                    )
                loader.finish()
            revoked = {} if live is None else keep_ended(connection, known, live)
            told.finished()
            return loader.counts, revoked
    except (DumpError, ValueError, TypeError, RecursionError) as error:
        raise BackupError(f"This backup is damaged: {error}") from None
    except (SQLAlchemyError, dbapi_error) as error:  # a row the database refuses: say why
        raise BackupError(f"The database refused this backup: {_first_line(error)}") from None


class _Loader:
    """Inserts each table as soon as the tables it refers to are in; a table that comes
    before them in the file waits on disk, a row per line."""

    def __init__(
        self,
        connection: Connection,
        known: dict[str, Table],
        spool: Path,
        told: "Told",
        reader: DumpReader,
    ) -> None:
        self.connection, self.known, self.spool = connection, known, spool
        self.told, self.reader = told, reader
        self.counts: dict[str, int] = {}
        self.waiting: list[str] = []
        self.null_json = _null_json_columns()

    def take(self, name: str, rows: Iterator[dict[str, Any]]) -> None:
        if self._ready(name):
            self._insert(name, rows)
            self._insert_ready()
            return
        with (self.spool / name).open("w", encoding="utf-8") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        self.waiting.append(name)

    def finish(self) -> None:
        """The tables still waiting, parents first (a parent the file lacks has no rows)."""
        for table in self.known:
            if table in self.waiting:
                self._insert_spooled(table)

    def _ready(self, name: str) -> bool:
        parents = {key.column.table.name for key in self.known[name].foreign_keys}
        return parents - {name} <= self.counts.keys()

    def _insert_ready(self) -> None:
        while ready := [name for name in self.waiting if self._ready(name)]:
            self._insert_spooled(ready[0])

    def _insert_spooled(self, name: str) -> None:
        self.waiting.remove(name)
        with (self.spool / name).open(encoding="utf-8") as spooled:
            self._insert(name, (json.loads(line) for line in spooled))

    def _insert(self, name: str, rows: Iterable[dict[str, Any]]) -> None:
        table = self.known[name]
        self.counts[name] = bulk.insert_rows(
            self.connection, table, self._told(rows), self.null_json.get(name, frozenset())
        )

    def _told(self, rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for count, row in enumerate(rows, start=1):
            yield row
            if count % bulk.BATCH == 0:
                self.told.advance(self.reader.bytes_read - self.told.done)


def _null_json_columns() -> dict[str, frozenset[str]]:
    """The JSON columns that keep None as SQL NULL, by table (the others keep JSON null)."""
    return {
        table.name: frozenset(
            column.name
            for column in table.columns
            if isinstance(column.type, JSON) and column.type.none_as_null
        )
        for table in db.metadata.sorted_tables
    }


def _first_line(error: Exception) -> str:
    """The driver's own words, without the statement SQLAlchemy adds to them."""
    cause = getattr(error, "orig", None) or error
    return (str(cause).strip().splitlines() or [type(cause).__name__])[0]


def _delete_everything(connection: Connection) -> None:
    tables = our_tables(connection, sign_in_state=True)
    if connection.dialect.name == "postgresql":  # at once, without a trigger per row
        quote = connection.dialect.identifier_preparer.quote
        connection.execute(text(f"TRUNCATE {', '.join(quote(t.name) for t in tables)}"))
        return
    for table in reversed(tables):
        connection.execute(delete(table))


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


# Restoring an SQLite copy ------------------------------------------------------------------


def _open_read_only(file: str | Path) -> closing[sqlite3.Connection]:
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
    return check_revision(revision[0] if revision else None)


def _restore_sqlite_copy(file: str, progress: Progress) -> str:
    """The copy's pages in place of the database's, then migrated. The copy is first made
    again beside the database and its sessions and ended tokens taken out there, so that
    not even for a moment does the database hold them."""
    database = sqlite_path()
    if database is None:
        raise BackupError("Only an SQLite database can be restored from a file copy.")
    revision = _check_sqlite_copy(file)
    live = before_restore()
    db.session.remove()
    with tempfile.TemporaryDirectory(dir=Path(database).parent, prefix=".restore-") as folder:
        draft = Path(folder) / "restoring.sqlite"
        with _open_read_only(file) as source, closing(sqlite3.connect(draft)) as copy:
            # A draft thrown away if anything stops the restore: nothing needs it to
            # survive a crash, so it is written without a journal or syncing.
            copy.execute("PRAGMA journal_mode = OFF")
            copy.execute("PRAGMA synchronous = OFF")
            source.backup(copy)
            with copy:
                revoked = end_in_sqlite_copy(copy, live)
        raw = db.engine.raw_connection()
        try:
            with _open_read_only(draft) as source:
                pages = source.execute("PRAGMA page_count").fetchone()[0]
                source.backup(
                    raw.driver_connection,  # type: ignore[arg-type]
                    pages=max(256, pages // 100),
                    progress=lambda _status, left, total: progress(total - left, total, "pages"),
                )
        finally:
            raw.close()
    db.engine.dispose()
    upgraded = ""
    if revision != revisions()[-1]:
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        upgraded = f", upgraded from schema {revision}"
        revoked = keep_disabled_once_upgraded(live, revoked)
    return f"SQLite copy into {sqlite_path()}{upgraded}{ended_words(revoked)}"
