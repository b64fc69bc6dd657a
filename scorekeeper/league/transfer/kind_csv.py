"""A game of any other kind than Mille in the league's CSV: its columns, and its values
written in cells and read back (the export and the import share them).

Each kind has a section of its own, under a header of its columns, all derived from its
engine module (``engine.games``), so that nothing here knows one game from another:

* the game's: ``game`` (its key), ``kind``, ``date``, one ``player_<seat>`` per seat it can
  have, each rule option (``target``), each stake (``stake_point``, in dollars),
  ``first_dealer``, ``finished`` and ``paid``;
* the deal's: ``deal`` (its number), then each field of a deal's entry: a list per seat or
  per side becomes a column per seat (``counts_a``, ``counts_b``, …), an object a column
  per field (``honours_jack``), anything else one column (``knocker``).

Seats are written as Mille's are, ``a`` for the first player named, ``b`` for the next, …;
a side as its seats (``a+c`` under partnerships, side ``i`` holding seats ``i`` and
``i + n/2``, so a side's column is its first seat's); yes and no; money in dollars; a value
left out (a dead deal's ``out``) as an empty cell.
"""

from collections.abc import Mapping, Sequence
from functools import cache
from string import ascii_lowercase
from typing import Any, Final

from scorekeeper.engine import format_money
from scorekeeper.engine.games import KINDS, GameKind, Setup
from scorekeeper.engine.games.schema import SEAT, SIDE
from scorekeeper.models import MAX_SEATS, MILLE, Player
from scorekeeper.values import read_whole_number
from scorekeeper.web.translation import gettext

#: A seat's letter: ``a`` is seat 0.
LETTERS: Final = ascii_lowercase[:MAX_SEATS]
#: What every kind's section starts with, and the columns a section must have.
HEAD: Final = ("game", "kind", "date")
REQUIRED: Final = (*HEAD, "player_a", "player_b")
#: The game's columns after its players, rules and stakes; then the deal's number.
TAIL: Final = ("first_dealer", "finished", "paid")
DEAL: Final = "deal"
STAKE: Final = "stake_"

Schema = Mapping[str, Any]


def players_columns(kind: GameKind) -> tuple[str, ...]:
    return tuple(f"player_{letter}" for letter in LETTERS[: kind.max_players])


def properties_of(schema: Mapping[str, object]) -> Mapping[str, Schema]:
    """The fields a JSON Schema of an object declares, each with its own schema."""
    properties = schema.get("properties", {})
    assert isinstance(properties, Mapping)
    return properties


def entry_columns(kind: GameKind) -> dict[str, tuple[str, ...]]:
    """Each field of a deal's entry, and its columns (read once a kind: don't change it)."""
    return _entry_columns(kind.name)


def game_columns(kind: GameKind) -> tuple[str, ...]:
    """The columns a game of ``kind`` sets on its first row."""
    return _game_columns(kind.name)


def columns_of(kind: GameKind) -> tuple[str, ...]:
    """The header of ``kind``'s section."""
    return _columns_of(kind.name)


@cache
def _entry_columns(kind_name: str) -> dict[str, tuple[str, ...]]:
    kind = KINDS[kind_name]
    found = {}
    for name, schema in properties_of(kind.deal_schema).items():
        if schema.get("type") == "array":
            found[name] = tuple(f"{name}_{letter}" for letter in LETTERS[: kind.max_players])
        elif "properties" in schema:
            found[name] = tuple(f"{name}_{part}" for part in properties_of(schema))
        else:
            found[name] = (name,)
    return found


@cache
def _game_columns(kind_name: str) -> tuple[str, ...]:
    kind = KINDS[kind_name]
    return (
        *HEAD,
        *players_columns(kind),
        *properties_of(kind.rules_schema),
        *(STAKE + name for name in kind.stakes_taken),
        *TAIL,
    )


@cache
def _columns_of(kind_name: str) -> tuple[str, ...]:
    kind = KINDS[kind_name]
    deal = [column for columns in entry_columns(kind).values() for column in columns]
    return (*game_columns(kind), DEAL, *deal)


#: Every column a section of another kind than Mille's may have.
ALL_COLUMNS: Final = frozenset(
    column for kind in KINDS.values() if kind.name != MILLE for column in columns_of(kind)
)


def column_of(field: str) -> str:
    """The column the engine's ``field`` is read from: ``counts.2`` → ``counts_c``,
    ``honours.jack`` → ``honours_jack``, ``rules.target`` → ``target``, ``stakes.point`` →
    ``stake_point``."""
    first, _, rest = field.partition(".")
    if not rest:
        return first
    if first == "rules":
        return rest
    if first == "stakes":
        return STAKE + rest
    if rest.isdigit() and int(rest) < len(LETTERS):
        return f"{first}_{LETTERS[int(rest)]}"
    return f"{first}_{rest.replace('.', '_')}"


def _is(schema: Schema, wanted: Schema) -> bool:
    """Whether ``schema`` is ``wanted``, or ``wanted`` or null."""
    return dict(schema) == dict(wanted) or any(
        dict(choice) == dict(wanted) for choice in schema.get("anyOf", ())
    )


def _nullable(schema: Schema) -> bool:
    return any(choice.get("type") == "null" for choice in schema.get("anyOf", ()))


# Writing ---------------------------------------------------------------------------------


def seat_letter(seat: int) -> str:
    return LETTERS[seat]


def side_text(side: int, sides: Sequence[Sequence[int]]) -> str:
    """A side as its seats: ``a``, or ``a+c`` under partnerships."""
    return "+".join(LETTERS[seat] for seat in sides[side])


def _cell(value: object, schema: Schema, sides: Sequence[Sequence[int]]) -> object:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int) and _is(schema, SEAT):
        return seat_letter(value)
    if isinstance(value, int) and _is(schema, SIDE):
        return side_text(value, sides)
    return value


def entry_cells(
    kind: GameKind, entry: Mapping[str, Any], sides: Sequence[Sequence[int]]
) -> list[object]:
    """A deal's entry in its kind's entry columns, in order."""
    cells: list[object] = []
    for name, columns in entry_columns(kind).items():
        schema, value = properties_of(kind.deal_schema)[name], entry.get(name)
        if schema.get("type") == "array":
            values = list(value or ())
            items = schema.get("items", {})
            cells += [_cell(v, items, sides) for v in values] + [""] * (len(columns) - len(values))
        elif "properties" in schema:
            parts = properties_of(schema)
            cells += [_cell((value or {}).get(part), parts[part], sides) for part in parts]
        else:
            cells.append(_cell(value, schema, sides))
    return cells


def setup_cells(kind: GameKind, setup: Setup) -> list[object]:
    """The game's rule options and stakes, in their columns."""
    rules = [
        _cell(setup.rules.get(name), schema, ())
        for name, schema in properties_of(kind.rules_schema).items()
    ]
    amounts = [setup.stakes.get(name) for name in kind.stakes_taken]
    return rules + ["" if amount is None else format_money(amount) for amount in amounts]


def sides_of(kind: GameKind, setup: Setup) -> tuple[tuple[int, ...], ...]:
    """The seats of each side of a game of ``kind`` with ``setup``."""
    return kind.replay(setup, 0, [], ended=False).sides


# Reading ---------------------------------------------------------------------------------


class Unreadable(ValueError):
    """A cell that can't be read as its column says; the message says what to write."""


def read_seat(text: str, names: Sequence[str]) -> int:
    """A seat written as its letter or its player's name; Unreadable otherwise."""
    wanted = text.strip().casefold()
    if len(wanted) == 1 and wanted in LETTERS[: len(names)]:
        return LETTERS.index(wanted)
    for seat, name in enumerate(names):
        if Player.key(name) == Player.key(text.strip()):
            return seat
    raise Unreadable(
        gettext(
            "%(text)s is not a seat; write a seat's letter (a to %(last)s) or a player's name.",
            text=repr(text),
            last=LETTERS[len(names) - 1],
        )
    )


def read_side(text: str, names: Sequence[str], sides: Sequence[Sequence[int]]) -> int:
    """A side written as its seats (``a+c``) or one of them; Unreadable otherwise."""
    try:
        seats = {read_seat(part, names) for part in text.split("+")}
    except Unreadable:
        seats = set()
    for side, members in enumerate(sides):
        if seats and seats <= set(members) and (len(seats) == 1 or seats == set(members)):
            return side
    raise Unreadable(
        gettext(
            "%(text)s is not a side; write one of %(sides)s.",
            text=repr(text),
            sides=", ".join(side_text(side, sides) for side in range(len(sides))),
        )
    )


def read_cell(
    text: str, schema: Schema, names: Sequence[str], sides: Sequence[Sequence[int]]
) -> object:
    """A cell as its kind reads the value (None when empty: left out, or null): a seat, a
    side, yes or no, a whole number, or the text as written, for the kind to judge."""
    if not text:
        return None
    if _is(schema, SEAT):
        return read_seat(text, names)
    if _is(schema, SIDE):
        return read_side(text, names, sides)
    if schema.get("type") == "boolean":
        folded = text.casefold()
        return True if folded in ("yes", "true") else False if folded in ("no", "false") else text
    if schema.get("type") == "integer":
        return read_whole_number(text)
    return text


def read_entry(
    kind: GameKind,
    values: Mapping[str, str],
    names: Sequence[str],
    sides: Sequence[Sequence[int]],
    problems: list[tuple[str, str]],
) -> dict[str, object]:
    """A deal's cells as the body its kind reads (``GameKind.read_deal``); each cell that
    can't be read is added to ``problems`` (its column, and why)."""
    raw: dict[str, object] = {}

    def cell(column: str, schema: Schema) -> object:
        try:
            return read_cell(values.get(column, ""), schema, names, sides)
        except Unreadable as error:
            problems.append((column, str(error)))
            return None

    for name, columns in entry_columns(kind).items():
        schema = properties_of(kind.deal_schema)[name]
        if schema.get("type") == "array":
            cells = [values.get(column, "") for column in columns]
            while cells and not cells[-1]:
                cells.pop()
            raw[name] = [cell(column, schema.get("items", {})) for column in columns[: len(cells)]]
        elif "properties" in schema:
            parts = properties_of(schema)
            raw[name] = {part: cell(f"{name}_{part}", parts[part]) for part in parts}
        elif values.get(name, ""):
            raw[name] = cell(name, schema)
        elif name in values and _nullable(schema):
            raw[name] = None  # empty, where null says something: nobody went out, or won
    return raw
