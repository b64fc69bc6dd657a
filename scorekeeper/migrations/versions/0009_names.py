"""Names read by one rule: NFKC, nothing invisible, keys that fit

Names are now kept in NFKC with nothing invisible in them, and compared by
their NFKC case-folded key (scorekeeper.names). The key columns grow from 40 to
120 characters: a name of 40 characters folds to at most 120 (``ß`` → ``ss``,
``ΐ`` → three), which overflowed PostgreSQL's VARCHAR(40) with a 500.

Names stored before are read again by the same rule: invisible and control
characters dropped, NFKC, spaces squeezed, the key made again. Two names that
were told apart only by what no one can see (``Ana`` and ``Ana`` with a
zero-width space, or an accent composed and decomposed) now have one key: one
keeps the name and the other is renamed ``Ana (2)``, so no player or account is
merged or lost, and a league admin sees both.

Which one keeps the name (changed for issue 21): the one whose stored name is
already its own folded key (``alice``), else one whose stored name this rule keeps
as it is (``Alice``), else the older. Oldest first, as it was, gave ``alice`` to a
full-width ``ａｌｉｃｅ`` a league admin had made before the real ``alice``, who
then could not sign in as herself. Every name changed is said on the command line
(standard error), with what it was and why.

Revision ID: 0009_names
Revises: 0008_played_order
"""

import sys
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0009_names"
down_revision = "0008_played_order"
branch_labels = None
depends_on = None

NAME_LENGTH = 40
KEYS = {"player": "name_key", "user": "username_key"}

# The name rule of scorekeeper.names, frozen at this revision: this migration must read
# the names of its day the same way whatever the app's rule becomes.
_CONTROL_CATEGORIES = frozenset({"Cc", "Cs"})
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
_BLANKS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
_VARIATION_SELECTORS = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0x180B, 0x1810)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)


def squeeze(name):
    """A name as it is kept: NFKC, trimmed, with runs of spaces inside it made one."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def printable(text):
    """Whether a name can be stored, compared and shown: no control, nothing invisible."""
    categories = {unicodedata.category(char) for char in text}
    if categories & _CONTROL_CATEGORIES or categories & _INVISIBLE_CATEGORIES:
        return False
    return _BLANKS.isdisjoint(text)


def key(name):
    """The name folded for comparison (NFKC_Casefold, without variation selectors)."""
    folded = unicodedata.normalize("NFKC", squeeze(name).casefold())
    return "".join(char for char in folded if char not in _VARIATION_SELECTORS)


def upgrade():
    for table, column in KEYS.items():
        with op.batch_alter_table(table) as batch_op:
            batch_op.alter_column(column, type_=sa.String(120), existing_type=sa.String(40))
    _read_again("player", "name", "name_key", scope="league_id")
    _read_again("user", "username", "username_key", scope=None)


def downgrade():
    for table, column in KEYS.items():
        with op.batch_alter_table(table) as batch_op:
            batch_op.alter_column(column, type_=sa.String(40), existing_type=sa.String(120))


def _clean(name):
    kept = "".join(char for char in name if printable(char))
    return squeeze(kept)[:NAME_LENGTH].strip() or "?"


def _preference(name):
    """Who keeps a name shared by look-alikes, first to last: a name already stored as its
    own folded key, then one this rule keeps as it is, then any other."""
    if name == key(name) and name == _clean(name):
        return 0
    return 1 if name == _clean(name) else 2


def _read_again(table, name_column, key_column, scope):
    connection = op.get_bind()
    rows = sa.table(
        table,
        sa.column("id"),
        sa.column(name_column),
        sa.column(key_column),
        *([sa.column(scope)] if scope else []),
    )
    found = connection.execute(sa.select(rows).order_by(rows.c.id)).mappings().all()
    # Every key first set aside, so a row's new key never meets another row's old one.
    connection.execute(rows.update().values({key_column: sa.literal("~") + sa.cast(rows.c.id, sa.String)}))
    taken = {}
    for row in sorted(found, key=lambda row: (_preference(row[name_column]), row["id"])):
        where = row[scope] if scope else None
        name = _clean(row[name_column])
        number = 1
        while (where, key(name)) in taken:
            number += 1
            suffix = f" ({number})"
            name = _clean(row[name_column])[: NAME_LENGTH - len(suffix)].rstrip() + suffix
        if number > 1:
            kept = taken[where, key(_clean(row[name_column]))]
            _report(table, row, name_column, name, f"{table} {kept} has that name")
        elif name != row[name_column]:
            _report(table, row, name_column, name, "invisible characters, width or spacing")
        taken[where, key(name)] = row["id"]
        connection.execute(
            rows.update()
            .where(rows.c.id == row["id"])
            .values({name_column: name, key_column: key(name)})
        )


def _report(table, row, name_column, name, why):
    print(
        f"0009_names: {table} {row['id']} renamed from {row[name_column]!r} to {name!r} ({why})",
        file=sys.stderr,
    )
