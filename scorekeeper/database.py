"""Database wiring: SQLite pragmas, write transactions, and migrating on start."""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from sqlalchemy import Engine, event, text

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
