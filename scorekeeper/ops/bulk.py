"""Every row of a table out and in, as fast as each database does it, a batch at a time.

Out: each row as the JSON text of an object of its columns, made by the database itself
(PostgreSQL's ``row_to_json``, SQLite's ``json_object``) and read with a server-side
cursor, so no Python object is built per value. In: PostgreSQL's ``COPY … FROM STDIN``,
SQLite's ``executemany`` of plain tuples. Any other database goes through SQLAlchemy's
Core, row by row, as before.

The values are the backup's (``ops/backup.py``): dates and moments as ISO 8601 text,
booleans as JSON booleans, JSON columns as JSON.
"""

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from operator import itemgetter
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    Date,
    DateTime,
    Table,
    Text,
    cast,
    func,
    insert,
    select,
    text,
)

from scorekeeper.database import write_rows

#: Rows fetched, or sent, at a time.
BATCH: Final = 5000


def rows_as_json(connection: Connection, table: Table) -> Iterator[list[str]]:
    """The table's rows in primary-key order, each as JSON text, a batch at a time."""
    name = connection.dialect.name
    if name == "postgresql":
        alias = table.alias("t")
        statement = select(cast(func.row_to_json(alias.table_valued()), Text)).order_by(
            *(alias.c[column.name] for column in table.primary_key.columns)
        )
    elif name == "sqlite":
        yield from _sqlite_rows(connection, table)
        return
    else:
        yield from _rows_in_python(connection, table)
        return
    result = connection.execute(statement, execution_options={"yield_per": BATCH})
    for batch in result.scalars().partitions(BATCH):
        yield list(batch)


def _sqlite_rows(connection: Connection, table: Table) -> Iterator[list[str]]:
    """SQLite's rows read with the driver's own cursor: there is nothing to do per row, and
    SQLAlchemy's result added a seventh to a backup's time (issue 26)."""
    driver = connection.connection.driver_connection
    assert driver is not None
    cursor = driver.cursor()
    try:
        cursor.execute(_sqlite_json(connection, table))
        while batch := cursor.fetchmany(BATCH):
            yield [row for (row,) in batch]
    finally:
        cursor.close()


def _sqlite_json(connection: Connection, table: Table) -> str:
    """``SELECT json_object('id', "id", …)``: booleans written as JSON booleans (SQLite keeps
    0 and 1), moments with a ``T`` as ISO 8601 and Python write them, JSON kept as JSON."""
    quote = connection.dialect.identifier_preparer.quote
    pairs = []
    for column in table.columns:
        value = quote(column.name)
        if isinstance(column.type, Boolean):
            value = (
                f"json(CASE WHEN {value} IS NULL THEN NULL "
                f"WHEN {value} THEN 'true' ELSE 'false' END)"
            )
        elif isinstance(column.type, DateTime):
            value = f"replace({value}, ' ', 'T')"
        elif isinstance(column.type, JSON):
            value = f"json({value})"
        pairs.append(f"'{column.name}', {value}")
    order = ", ".join(quote(column.name) for column in table.primary_key.columns)
    ordered = f" ORDER BY {order}" if order else ""
    return f"SELECT json_object({', '.join(pairs)}) FROM {quote(table.name)}{ordered}"


def _rows_in_python(connection: Connection, table: Table) -> Iterator[list[str]]:
    statement = select(table).order_by(*table.primary_key.columns)
    result = connection.execute(statement, execution_options={"yield_per": BATCH})
    for batch in result.mappings().partitions(BATCH):
        yield [json.dumps(dict(row), default=_iso) for row in batch]


def _iso(value: Any) -> str:
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} can't be written in a backup")


# In ---------------------------------------------------------------------------------------


@contextmanager
def keys_checked_at_the_end(connection: Connection, tables: Iterable[Table]) -> Iterator[None]:
    """While the block inserts rows, ``tables``' foreign keys are dropped, then added back
    as they were, each checking every row in one query — as ``pg_restore`` does —
    instead of a check per row inserted (PostgreSQL; nothing changes elsewhere).

    In the block's transaction: if anything fails, the keys are back as they were with
    the rest; a row a key refuses is refused when the key is added back, in the same
    words as a check per row (``insert or update on table … violates foreign key …``).
    """
    if connection.dialect.name != "postgresql":
        yield
        return
    keys = connection.execute(
        text(
            "SELECT c.conrelid::regclass::text, c.conname, pg_get_constraintdef(c.oid)"
            " FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid"
            " WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace"
            " AND t.relname = ANY(:names) ORDER BY c.oid"
        ),
        {"names": [table.name for table in tables]},
    ).all()
    quote = connection.dialect.identifier_preparer.quote
    for table, name, _definition in keys:
        connection.exec_driver_sql(f"ALTER TABLE {table} DROP CONSTRAINT {quote(name)}")
    yield
    for table, name, definition in keys:
        connection.exec_driver_sql(f"ALTER TABLE {table} ADD CONSTRAINT {quote(name)} {definition}")


def insert_rows(
    connection: Connection,
    table: Table,
    rows: Iterable[dict[str, Any]],
    null_json: frozenset[str] = frozenset(),
) -> int:
    """Insert ``rows`` (a backup's: values as :func:`rows_as_json` writes them) into ``table``
    in this connection's transaction; how many. A row's keys that are not columns are
    left out, a column the row lacks is NULL. ``null_json`` names the JSON columns that
    keep a None as SQL NULL (the others keep JSON ``null``, as SQLAlchemy writes them).

    ValueError or TypeError for a value that is not what its column holds; the
    database's own error for a row it refuses.
    """
    names = [column.name for column in table.columns]
    readers = [
        (index, read)
        for index, column in enumerate(table.columns)
        if (read := _reader(column, null_json)) is not _same
    ]
    every = _getter(names)
    tuples = (_values(row, names, every, readers) for row in rows)
    if connection.dialect.name in ("postgresql", "sqlite"):
        return write_rows(connection, table.name, names, tuples)
    count = 0
    for batch in _batches(tuples):  # any other database: SQLAlchemy's Core
        connection.execute(insert(table), [dict(zip(names, row, strict=True)) for row in batch])
        count += len(batch)
    return count


def _getter(names: list[str]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """The values of ``names`` in a row, as a tuple (KeyError if the row lacks one)."""
    if len(names) == 1:
        (name,) = names
        return lambda row: (row[name],)
    return itemgetter(*names)


def _values(
    row: dict[str, Any],
    names: list[str],
    every: Callable[[dict[str, Any]], tuple[Any, ...]],
    readers: list[tuple[int, Callable[[Any], Any]]],
) -> tuple[Any, ...]:
    """A row's values in column order, None for a column it lacks; only the columns that
    need it are read further. A backup's row has every column, taken in one C call
    (``every``); the look-up by name, a fifth of a restore's time, is for the others."""
    try:
        taken = every(row)
    except KeyError:
        taken = tuple(row.get(name) for name in names)
    if not readers:
        return taken
    values = list(taken)
    for index, read in readers:
        values[index] = read(values[index])
    return tuple(values)


def _batches(rows: Iterable[Any]) -> Iterator[list[Any]]:
    batch: list[Any] = []
    for row in rows:
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _reader(column: Any, null_json: frozenset[str]) -> Callable[[Any], Any]:
    """What a backup's value becomes for the database, checked, for ``column``'s type."""
    if isinstance(column.type, DateTime):
        return moment_as_kept
    if isinstance(column.type, Date):
        return _day
    if isinstance(column.type, JSON):
        return _json_or_null if column.name in null_json else _json
    return _same


def _same(value: Any) -> Any:
    return value


#: A moment as a backup writes it (``datetime.isoformat`` with microseconds, no zone).
_WRITTEN: Final = "2025-03-14T20:15:00.000000"


def moment_as_kept(value: Any) -> str | None:
    """A moment as SQLAlchemy keeps it (and PostgreSQL reads it): ``2025-03-14 20:15:00.000000``."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a moment")
    moment = datetime.fromisoformat(value)  # checked, whatever its form
    if len(value) == len(_WRITTEN) and value[4:20:3] == _WRITTEN[4:20:3]:
        return value[:10] + " " + value[11:]  # as a backup writes it: the T made a space
    if moment.tzinfo is not None:
        moment = moment.replace(tzinfo=None)  # as the column keeps it
    return moment.isoformat(sep=" ", timespec="microseconds")


def _day(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a day")
    return date.fromisoformat(value).isoformat()


def _json(value: Any) -> str:
    return "null" if value is None else json.dumps(value)


def _json_or_null(value: Any) -> str | None:
    return None if value is None else json.dumps(value)
