"""What a restore must not bring back (docs/SECURITY.md): who was signed in, the secrets a
user ended since the backup — an API token revoked, an invitation withdrawn or used, a seat
link stopped —, and the accounts disabled since. Each secret's row is found by its SHA-256;
after a restore it works only if it worked just before it. An account is found by its
username's key; one disabled just before a restore is disabled after it (an account the
database never had is restored as the backup has it: a new server's are all new)."""

import sqlite3
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, MetaData, Table, select, update

from scorekeeper.database import writing
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


#: A row of ``user`` is an account; a restore keeps one disabled that was just before it.
ACCOUNTS = Endable("user", ("disabled_at",), "account", "kept disabled")

ENDABLE = (
    Endable("api_token", ("revoked_at",), "API token", "kept revoked"),
    Endable("invitation", ("withdrawn_at", "used_at"), "invitation", "kept closed"),
    Endable("seat_link", ("revoked_at",), "seat link", "kept stopped"),
)

_ENDABLE_TABLES: Final = frozenset(endable.table for endable in (*ENDABLE, ACCOUNTS))


@dataclass(frozen=True)
class BeforeRestore:
    """What worked and what was ended just before a restore."""

    #: Per :data:`ENDABLE` table, the hashes of the secrets that work.
    working: dict[str, set[str]]
    #: The username keys of the accounts disabled.
    disabled: frozenset[str]


def before_restore() -> BeforeRestore:
    """What works now, and which accounts are disabled, before a restore replaces them."""
    db.session.remove()
    metadata = MetaData()
    with db.engine.connect() as connection:
        metadata.reflect(connection, only=lambda name, _metadata: name in _ENDABLE_TABLES)
        tables = metadata.tables
        working = {
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
        users = tables.get(ACCOUNTS.table)
        disabled: frozenset[str] = frozenset()
        if users is not None and "disabled_at" in users.c:
            query = select(users.c.username_key).where(users.c.disabled_at.is_not(None))
            disabled = frozenset(connection.scalars(query))
    return BeforeRestore(working, disabled)


def keep_ended(
    connection: Connection, known: dict[str, Table], before: BeforeRestore
) -> dict[str, int]:
    """End every restored secret that did not work just before the restore (ended or gone
    since the backup, or never known here), and :func:`keep_disabled`; how many, per table."""
    live = before.working
    ended: dict[str, int] = {}
    if (users := known.get(ACCOUNTS.table)) is not None:
        ended[ACCOUNTS.table] = keep_disabled(connection, users, before.disabled)
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


def keep_disabled(connection: Connection, users: Table, disabled: frozenset[str]) -> int:
    """Disable every restored account that was disabled just before the restore (a schema
    older than disabling has nothing to set: the restore asks again once it is upgraded)."""
    if not disabled or "disabled_at" not in users.c:
        return 0
    keys = sorted(disabled)
    count = 0
    for start in range(0, len(keys), 500):
        count += connection.execute(
            update(users)
            .where(
                users.c.username_key.in_(keys[start : start + 500]),
                users.c.disabled_at.is_(None),
            )
            .values(disabled_at=utcnow())
        ).rowcount
    return count


def keep_disabled_once_upgraded(before: BeforeRestore, ended: dict[str, int]) -> dict[str, int]:
    """:func:`keep_disabled` again, in a transaction of its own, once a backup older than
    disabling is restored and brought up to date; ``ended`` with its count added."""
    with writing():
        users = db.metadata.tables[ACCOUNTS.table]
        count = keep_disabled(db.session.connection(), users, before.disabled)
    return {**ended, ACCOUNTS.table: ended.get(ACCOUNTS.table, 0) + count}


def end_in_sqlite_copy(copy: sqlite3.Connection, before: BeforeRestore) -> dict[str, int]:
    """Everyone signed out and :func:`keep_ended`, in an SQLite copy of any revision."""
    live = before.working
    names = {row[0] for row in copy.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for name in sorted(SIGN_IN_STATE & names):
        copy.execute(f'DELETE FROM "{name}"')
    ended: dict[str, int] = {ACCOUNTS.table: _keep_disabled_in_copy(copy, before.disabled)}
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


def _keep_disabled_in_copy(copy: sqlite3.Connection, disabled: frozenset[str]) -> int:
    """:func:`keep_disabled` in an SQLite copy (nothing where it has no ``disabled_at``)."""
    columns = {row[1] for row in copy.execute('PRAGMA table_info("user")')}
    if not disabled or "disabled_at" not in columns:
        return 0
    now = utcnow().isoformat(sep=" ", timespec="microseconds")  # as SQLAlchemy writes it
    return sum(
        copy.execute(
            'UPDATE "user" SET disabled_at = ? WHERE username_key = ? AND disabled_at IS NULL',
            (now, key),
        ).rowcount
        for key in sorted(disabled)
    )


def ended_words(ended: dict[str, int]) -> str:
    """ "; 2 API tokens kept revoked", or nothing."""
    words = [
        f"{count} {endable.name}{'s' * (count > 1)} {endable.kept}"
        for endable in (ACCOUNTS, *ENDABLE)
        if (count := ended.get(endable.table, 0))
    ]
    return "".join(f"; {said}" for said in words)
