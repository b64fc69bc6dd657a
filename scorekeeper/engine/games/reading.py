"""Reading what a game is given (a deal's body, the rules, the stakes) into values the
games trust: every problem is kept, tied to its field, and all of them refused at once.

The codes are :mod:`.problems`'. A whole number may come as ``3`` or ``3.0`` (as Mille's
tally reads it), never as ``true``; a list may be a JSON array or a tuple.
"""

from collections.abc import Collection, Mapping, Sequence
from typing import Final, TypeVar

from ..rules import MAX_STAKE
from ..tally import problem, whole_number
from .base import Problem, Refused

T = TypeVar("T")

#: The least stake, in cents.
MIN_STAKE: Final = 1


class Reader:
    """The problems found so far while reading one setup or one deal."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, field: str, code: str, **params: object) -> None:
        self.problems.append(problem(field, code, **params))

    def done(self) -> None:
        """Refuse what was read if anything was wrong with it."""
        if self.problems:
            raise Refused(self.problems)

    def result(self, value: T | None) -> T:
        """``value``, read from a body with nothing wrong in it; :class:`Refused` otherwise."""
        self.done()
        if value is None:
            raise ValueError("a value was refused without a problem")
        return value

    def unknown(self, raw: Mapping[str, object], known: Collection[str], prefix: str = "") -> None:
        """Every key of ``raw`` that is not ``known`` (``prefix`` names where it is)."""
        for key in raw:
            if key not in known:
                self.add(f"{prefix}{key}", "field.unknown")

    def given(self, field: str, value: object) -> bool:
        """Whether a required ``value`` is there (not left out, not null)."""
        if value is None:
            self.add(field, "field.missing")
        return value is not None

    def whole(self, field: str, value: object, low: int, high: int, code: str) -> int | None:
        """A whole number from ``low`` to ``high``; else None and ``code`` (``field.not_whole``
        when it is not a whole number at all)."""
        if not self.given(field, value):
            return None
        number = whole_number(value)
        if number is None:
            self.add(field, "field.not_whole")
        elif not low <= number <= high:
            self.add(field, code, low=low, high=high)
            return None
        return number

    def seat(self, field: str, value: object, players: int, code: str = "seat.range") -> int | None:
        """A seat (or, with ``code="side.range"``, a side) from 0 to ``players`` − 1."""
        if not self.given(field, value):
            return None
        number = whole_number(value)
        if number is None or not 0 <= number < players:
            self.add(field, code, high=players - 1)
            return None
        return number

    def boolean(self, field: str, value: object) -> bool | None:
        if isinstance(value, bool):
            return value
        self.add(field, "field.not_bool")
        return None

    def choice(self, field: str, value: object, choices: Sequence[str]) -> str | None:
        if isinstance(value, str) and value in choices:
            return value
        self.add(field, "field.choice", choices=tuple(choices))
        return None

    def listed(self, field: str, value: object, length: int) -> Sequence[object] | None:
        """A list of ``length`` values (one per seat or per side)."""
        if isinstance(value, list | tuple) and len(value) == length:
            return value
        if self.given(field, value):
            self.add(field, "list.length", length=length)
        return None

    def mapping(self, field: str, value: object) -> Mapping[str, object] | None:
        if isinstance(value, Mapping):
            return value
        if self.given(field, value):
            self.add(field, "field.not_object")
        return None


def complete(values: Sequence[int | None] | None) -> tuple[int, ...] | None:
    """The values, if every one of them was read."""
    if values is None or any(value is None for value in values):
        return None
    return tuple(value for value in values if value is not None)


# --- a game's setup ----------------------------------------------------------------------


def read_players(reader: Reader, players: object, low: int, high: int) -> int:
    """The number of players, from ``low`` to ``high``."""
    number = whole_number(players)
    if number is None or not low <= number <= high:
        reader.add("players", "players.range", low=low, high=high)
        return low
    return number


def read_stakes(
    reader: Reader,
    stakes: Mapping[str, object],
    required: Sequence[str],
    optional: Sequence[str] = (),
) -> dict[str, int | None]:
    """Each stake, a whole number of cents from 1 to :data:`~..rules.MAX_STAKE`: every
    ``required`` one, and the ``optional`` ones, None when left out."""
    reader.unknown(stakes, (*required, *optional), "stakes.")
    amounts: dict[str, int | None] = {}
    for name in (*required, *optional):
        value = stakes.get(name)
        if value is None and name in optional:
            amounts[name] = None
            continue
        amounts[name] = reader.whole(f"stakes.{name}", value, MIN_STAKE, MAX_STAKE, "stake.range")
    return amounts


def known_rules(reader: Reader, rules: Mapping[str, object], known: Collection[str]) -> None:
    """Refuse a rule option the game doesn't have."""
    reader.unknown(rules, known, "rules.")
