"""Database wiring: SQLite pragmas, write transactions, and migrating on start."""

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import flask_migrate
from flask import Flask
from flask_migrate import Migrate
from sqlalchemy import Engine, event

from .models import db

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


@contextmanager
def writing() -> Iterator[None]:
    """One write transaction: committed at the end, rolled back on any error.

    Any read transaction the request had open is ended first, so the write
    starts from fresh data and, on SQLite, with the write lock already held.
    """
    session = db.session
    session.rollback()
    session.connection(execution_options={"write": True})
    try:
        yield
        session.commit()
    except BaseException:
        session.rollback()
        raise


migrate = Migrate()


def migrate_and_seed(app: Flask) -> None:
    """Bring the schema up to date and make sure a league exists to play in."""
    from . import services

    with app.app_context():
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        services.ensure_default_league()
        db.session.remove()
