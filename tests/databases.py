"""Throwaway PostgreSQL databases, for the tests and the benchmarks alike.

A plain module, not a fixture: ``tests/conftest.py``, ``tests/deploy`` and ``bench/``
all import it, and it imports nothing from pytest.
"""

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from scorekeeper.database import database_url


@contextmanager
def server_database(server: str, prefix: str) -> Iterator[str]:
    """A new, empty database ``<prefix>_<random>`` on the PostgreSQL server of ``server``,
    dropped afterwards (even from under connections still open); its URL.

    The server is reached through the database ``server`` names, or ``postgres`` when it
    names none.
    """
    base = make_url(database_url(server))
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    admin = create_engine(
        base.set(database=base.database or "postgres"), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
