"""Database wiring: SQLite pragmas, write transactions, and migrating on start."""

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from sqlalchemy import JSON, Connection, Date, DateTime, Engine, event, text

try:
    import fcntl
except ImportError:  # Windows: one waitress process, the only way to serve there
    fcntl = None  # type: ignore[assignment]

from sqlalchemy.dialects import postgresql, sqlite

from scorekeeper.extensions import db, migrate

MIGRATIONS_DIR = str(Path(__file__).resolve().parent / "migrations")

#: How long a writer waits for another writer before SQLite gives up (ms).
SQLITE_BUSY_TIMEOUT_MS = 30_000


def database_url(url: str) -> str:
    """Accept the URLs hosting services hand out and use psycopg 3 for PostgreSQL."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def _configure_sqlite(engine: Engine) -> None:
    """WAL, foreign keys, and BEGIN issued by us so writes can take the lock up front."""

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver must not BEGIN on its own
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection: Any) -> None:
        # A write transaction takes the write lock at BEGIN, so concurrent
        # writers wait (busy_timeout) instead of failing half-way with
        # "database is locked" when a read lock can't be upgraded.
        immediate = connection.get_execution_options().get("write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def init_app(app: Flask) -> None:
    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS_DIR)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            _configure_sqlite(db.engine)


#: ``session.info`` key: the request's writes stay open in one transaction, which the
#: request commits itself (:func:`holding_writes`).
_HOLD = "writes_held"


@contextmanager
def writing() -> Iterator[None]:
    """One write transaction: committed at the end, rolled back on any error.

    Any read transaction the request had open is ended first, so the write
    starts from fresh data and, on SQLite, with the write lock already held.
    Inside :func:`holding_writes` the changes are flushed, not committed: the
    holder commits them together with what it adds.
    """
    session = db.session
    held = session.info.get(_HOLD)
    if held != "open":
        session.rollback()
        session.connection(execution_options={"write": True})
        if held:
            session.info[_HOLD] = "open"
    try:
        yield
        session.flush() if held else session.commit()
    except BaseException:
        session.rollback()
        if held:
            session.info[_HOLD] = True
        raise


@contextmanager
def holding_writes() -> Iterator[None]:
    """Keep every :func:`writing` of this block in one transaction, left open for the
    caller to add to and commit (or roll back) before the block ends; rolled back if
    it doesn't."""
    session = db.session
    session.info[_HOLD] = True
    try:
        yield
    finally:
        session.info.pop(_HOLD, None)
        session.rollback()


def begin_held_write() -> None:
    """Inside :func:`holding_writes`: make sure the held transaction is a write one."""
    if db.session.info.get(_HOLD) != "open":
        db.session.rollback()
        db.session.connection(execution_options={"write": True})
        db.session.info[_HOLD] = "open"


#: The PostgreSQL advisory lock a new account's name is chosen under ("names" in ASCII).
NAMES_LOCK_ID = 0x6E616D6573


def one_at_a_time(lock_id: int) -> None:
    """Within a write: wait until no other write holds ``lock_id``, and hold it to the end
    of this one (PostgreSQL's advisory transaction lock; SQLite's writes take turns
    already). For a check across many rows that no unique index can hold."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(text("SELECT pg_advisory_xact_lock(:id)"), {"id": lock_id})


#: The PostgreSQL advisory lock held while one app process migrates (any fixed number will
#: do; this one spells "mille" in ASCII).
MIGRATE_LOCK_ID = 0x6D696C6C65


def migrate_and_seed(app: Flask, seed: Callable[[], object]) -> None:
    """Bring the schema up to date, then ``seed()`` (which makes sure a league exists to
    play in: the caller passes it, so this module needs nothing above the models).

    Several app processes (``gunicorn -w 4``) start at once on one database: one
    migrates and seeds while the others wait for its lock, then find the schema at
    its head and the league there, and do nothing.
    """
    with app.app_context(), _migrating_alone(db.engine):
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        seed()
        db.session.remove()


@contextmanager
def _migrating_alone(engine: Engine) -> Iterator[None]:
    """Hold the database's migration lock: an advisory lock on its own PostgreSQL
    connection, or a file lock beside a SQLite file (a SQLite transaction can't be the
    lock: the migration writes through connections of its own)."""
    if engine.dialect.name == "postgresql":
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATE_LOCK_ID})
            try:
                yield
            finally:
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATE_LOCK_ID})
        return
    database = engine.url.database
    if engine.dialect.name != "sqlite" or not database or database == ":memory:" or not fcntl:
        yield  # a database no other process can open
        return
    with open(f"{database}-migrate-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def insert(model: Any) -> Any:
    """An ``INSERT`` with ``ON CONFLICT`` clauses for the session's database: PostgreSQL and
    SQLite write them alike, and SQLAlchemy offers them per dialect."""
    if db.session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(model)
    return sqlite.insert(model)


#: Rows SQLite is handed in one ``executemany``.
WRITE_BATCH = 5000


def write_rows(
    connection: Connection, table: str, names: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """``rows`` (values in the order of ``names``, each as the database reads it: JSON as
    its text) written into the table named ``table``, in this connection's transaction,
    the fastest way each database takes many rows: PostgreSQL's ``COPY … FROM STDIN``,
    SQLite's ``executemany`` of tuples, a batch at a time; how many."""
    quote = connection.dialect.identifier_preparer.quote
    columns = ", ".join(quote(name) for name in names)
    count = 0
    if connection.dialect.name == "sqlite":
        statement = (
            f"INSERT INTO {quote(table)} ({columns}) VALUES ({', '.join('?' for _ in names)})"
        )
        remaining = iter(rows)
        while batch := [tuple(row) for row in islice(remaining, WRITE_BATCH)]:
            connection.exec_driver_sql(statement, batch)
            count += len(batch)
        return count
    driver = connection.connection.driver_connection
    assert driver is not None
    with (
        driver.cursor() as cursor,
        cursor.copy(f"COPY {quote(table)} ({columns}) FROM STDIN") as copy,
    ):
        for row in rows:
            copy.write_row(row)
            count += 1
    return count


def reserve_ids(connection: Connection, table: str, count: int) -> list[int]:
    """``count`` new ids for the table named ``table``, in increasing order, for rows
    inserted by a plain ``executemany`` (issue 26): asking for the ids back makes one long
    statement of every row, which takes three times as long. PostgreSQL takes them from
    the ``id`` column's sequence; SQLite, whose one writer is this transaction, after
    the largest id there is."""
    if connection.dialect.name == "postgresql":
        taken = connection.execute(
            text("SELECT nextval(pg_get_serial_sequence(:t, 'id')) FROM generate_series(1, :n)"),
            {"t": table, "n": count},
        )
        return sorted(taken.scalars())
    quote = connection.dialect.identifier_preparer.quote
    last = connection.exec_driver_sql(f"SELECT max(id) FROM {quote(table)}").scalar() or 0
    return list(range(last + 1, last + 1 + count))


def insert_many(connection: Connection, model: Any, rows: Sequence[dict[str, Any]]) -> None:
    """Many rows of Python values inserted into ``model``'s table at once, without
    SQLAlchemy's work per row and value (issue 26): ``COPY`` on PostgreSQL, an
    ``executemany`` of tuples on SQLite. Each row gives the same columns, every one the
    table needs: no Python-side default is applied. The values are written as SQLAlchemy
    writes them (:func:`_as_stored`)."""
    if not rows:
        return
    table = model.__table__
    if connection.dialect.name not in ("postgresql", "sqlite"):
        connection.execute(table.insert(), rows)  # any other database: SQLAlchemy's way
        return
    names = list(rows[0])
    kinds = [_as_stored(table.c[name], connection.dialect.name) for name in names]
    tuples = (
        tuple(kind(row[name]) for name, kind in zip(names, kinds, strict=True)) for row in rows
    )
    write_rows(connection, table.name, names, tuples)


def _as_stored(column: Any, dialect: str) -> Callable[[Any], Any]:
    """What a value of ``column`` is sent as: JSON as its text (None as SQL NULL or JSON
    ``null``, as the column says), and on SQLite moments with their microseconds and days
    as ISO text, SQLAlchemy's forms there."""
    if isinstance(column.type, JSON):
        null = None if column.type.none_as_null else "null"
        return lambda value: null if value is None else json.dumps(value)
    if dialect == "sqlite" and isinstance(column.type, DateTime):
        return lambda value: value and value.isoformat(sep=" ", timespec="microseconds")
    if dialect == "sqlite" and isinstance(column.type, Date):
        return lambda value: value and value.isoformat()
    return _unchanged


def _unchanged(value: Any) -> Any:
    return value
