"""What a restore must not bring back (docs/SECURITY.md): who was signed in, and the
secrets a user ended since the backup — an API token revoked, an invitation withdrawn or
used, a seat link stopped. Each such row stands for a secret, found by its SHA-256; after
a restore it works only if it worked just before it."""

import sqlite3
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, MetaData, Table, select, update

from scorekeeper.models import db, utcnow
from scorekeeper.ops.backup import SIGN_IN_STATE


@dataclass(frozen=True)
class Endable:
    """What a user can end and a restore must not bring back: a row standing for a secret,
    found by the secret's SHA-256 (``token_hash``), ended when one of ``ended`` is set."""

    table: str
    ended: tuple[str, ...]  # the first is the one a restore sets
    name: str
    kept: str


ENDABLE = (
    Endable("api_token", ("revoked_at",), "API token", "kept revoked"),
    Endable("invitation", ("withdrawn_at", "used_at"), "invitation", "kept closed"),
    Endable("seat_link", ("revoked_at",), "seat link", "kept stopped"),
)

_ENDABLE_TABLES: Final = frozenset(endable.table for endable in ENDABLE)


def working_secrets() -> dict[str, set[str]]:
    """Per :data:`ENDABLE` table, the hashes of the secrets that work now, before a restore."""
    db.session.remove()
    metadata = MetaData()
    with db.engine.connect() as connection:
        metadata.reflect(connection, only=lambda name, _metadata: name in _ENDABLE_TABLES)
        tables = metadata.tables
        return {
            endable.table: set(
                connection.scalars(
                    select(table.c.token_hash).where(
                        *(table.c[column].is_(None) for column in endable.ended)
                    )
                )
            )
            for endable in ENDABLE
            if (table := tables.get(endable.table)) is not None
        }


def keep_ended(
    connection: Connection, known: dict[str, Table], live: dict[str, set[str]]
) -> dict[str, int]:
    """End every restored secret that did not work just before the restore (ended or gone
    since the backup, or never known here); how many, per table."""
    ended: dict[str, int] = {}
    for endable in ENDABLE:
        table = known.get(endable.table)
        if table is None or not {"token_hash", *endable.ended} <= set(table.c.keys()):
            continue  # an older schema, without it
        restored = connection.execute(
            select(table.c.id, table.c.token_hash).where(
                *(table.c[column].is_(None) for column in endable.ended)
            )
        )
        working = live.get(endable.table, set())
        ids = [row_id for row_id, digest in restored if digest not in working]
        for start in range(0, len(ids), 500):
            connection.execute(
                update(table)
                .where(table.c.id.in_(ids[start : start + 500]))
                .values({endable.ended[0]: utcnow()})
            )
        ended[endable.table] = len(ids)
    return ended


def end_in_sqlite_copy(copy: sqlite3.Connection, live: dict[str, set[str]]) -> dict[str, int]:
    """Everyone signed out and :func:`keep_ended`, in an SQLite copy of any revision."""
    names = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for name in sorted(SIGN_IN_STATE & names):
        copy.execute(f'DELETE FROM "{name}"')
    ended: dict[str, int] = {}
    now = utcnow().isoformat(sep=" ", timespec="microseconds")  # as SQLAlchemy writes it
    for endable in ENDABLE:
        if endable.table not in names:
            continue
        columns = {row[1] for row in copy.execute(f'PRAGMA table_info("{endable.table}")')}
        if not {"token_hash", *endable.ended} <= columns:
            continue
        still_open = " AND ".join(f'"{column}" IS NULL' for column in endable.ended)
        restored = copy.execute(
            f'SELECT id, token_hash FROM "{endable.table}" WHERE {still_open}'
        ).fetchall()
        working = live.get(endable.table, set())
        ids = [(now, row_id) for row_id, digest in restored if digest not in working]
        copy.executemany(f'UPDATE "{endable.table}" SET "{endable.ended[0]}" = ? WHERE id = ?', ids)
        ended[endable.table] = len(ids)
    return ended


def ended_words(ended: dict[str, int]) -> str:
    """ "; 2 API tokens kept revoked", or nothing."""
    words = [
        f"{count} {endable.name}{'s' * (count > 1)} {endable.kept}"
        for endable in ENDABLE
        if (count := ended.get(endable.table, 0))
    ]
    return "".join(f"; {said}" for said in words)
