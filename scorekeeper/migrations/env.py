"""Alembic environment: migrate the app's own database (Flask-Migrate supplies the app)."""

from collections.abc import Iterator
from contextlib import contextmanager

from alembic import context
from flask import current_app
from sqlalchemy import Connection

db = current_app.extensions["migrate"].db


def run_migrations_offline() -> None:
    context.configure(
        url=str(db.engine.url),
        target_metadata=db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    with db.engine.connect() as connection, _foreign_keys_off_on_sqlite(connection):
        context.configure(
            connection=connection,
            target_metadata=db.metadata,
            # SQLite can't ALTER most things; batch mode copies the table instead.
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
            _check_foreign_keys(connection)


@contextmanager
def _foreign_keys_off_on_sqlite(connection: Connection) -> Iterator[None]:
    """Batch mode copies a table and drops the old one; with foreign keys enforced,
    dropping ``game`` would delete its deals (``ON DELETE CASCADE``). As Alembic
    advises, they are off while migrating — set outside any transaction, on the driver's
    connection, which the app keeps out of autocommit only by its own ``BEGIN``."""
    if connection.dialect.name != "sqlite":
        yield
        return
    driver = connection.connection.driver_connection
    assert driver is not None
    driver.execute("PRAGMA foreign_keys = OFF")
    try:
        yield
    finally:
        # The PRAGMA is a no-op inside a transaction, and the connection has begun one of
        # its own again by now (nothing in it: the migrations were committed): end it, or
        # the pool hands the app a connection with foreign keys off.
        if connection.in_transaction():
            connection.rollback()
        driver.execute("PRAGMA foreign_keys = ON")


def _check_foreign_keys(connection: Connection) -> None:
    """Refuse (and so roll back) a SQLite migration that left a dangling reference."""
    if connection.dialect.name == "sqlite":
        dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        if dangling:
            raise RuntimeError(f"the migration left rows pointing nowhere: {dangling[:5]}")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
