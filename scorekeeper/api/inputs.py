"""Reading the values a request sends: its JSON fields and query arguments.

Each reader checks the JSON's shape and types and notes every problem under
the field it names (``players.1``, ``stakes.small``, ``scores.0``), so one
422 reports them all. What makes a tally valid is the engine's business
(:func:`~scorekeeper.engine.validate_tally`); what makes a rule set or
stakes valid is :class:`~scorekeeper.engine.Rules` and
:class:`~scorekeeper.engine.Stakes`. Strings that a database can't hold
(control characters, lone surrogates) are refused here, before any query.
"""

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Final

from scorekeeper.engine import (
    PRESETS,
    DifferenceRule,
    InvalidTally,
    Preset,
    Rules,
    Seat,
    SkunkRule,
    Stakes,
    Tally,
    validate_tally,
    whole_number,
)
from scorekeeper.engine.rules import MAX_STAKE, MAX_TARGET, MIN_TARGET
from scorekeeper.league import service as league_service
from scorekeeper.league.queries import MAX_ID
from scorekeeper.league.service import MAX_SLUG
from scorekeeper.models import League
from scorekeeper.names import MAX_NAME_LENGTH, squeeze, unseen
from scorekeeper.table.counted_cards import BadCards, CountedCards

from .core import invalid

#: Money in a request: a decimal string with at most two places, "1", "0.25", "1.50".
MONEY_PATTERN: Final = r"^[0-9]{1,7}(\.[0-9]{1,2})?$"
_MONEY = re.compile(MONEY_PATTERN)
_SLUG = re.compile(rf"[a-z0-9-]{{1,{MAX_SLUG}}}")
#: The stakes a game gets when the request gives none and the league has no defaults.
DEFAULT_STAKES: Final = Stakes.from_small(100)
RULE_FIELDS: Final = ("target", "progressive", "natural_needed", "skunk", "difference")


class Problems:
    """Field problems gathered while reading a request, raised together as one 422."""

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}

    def add(self, field: str, message: str) -> None:
        self.fields.setdefault(field, []).append(message)

    def unknown(
        self, data: Mapping[str, Any], known: Collection[str], what: str, at: str = ""
    ) -> None:
        """A problem for each key of ``data`` that is not a field of ``what``."""
        for key in data:
            if key not in known:
                self.add(f"{at}{key}", f'"{key}" is not a field of {what}.')

    def check(self) -> None:
        if self.fields:
            raise invalid(self.fields)


def read_text(value: object, field: str, label: str, most: int, problems: Problems) -> str | None:
    """A name: a string, trimmed with inner runs of spaces made one, 1 to ``most`` characters."""
    if not isinstance(value, str) or unseen(value) == "control":
        problems.add(field, f"{label} must be a string of printable characters.")
        return None
    if unseen(value) == "invisible":
        problems.add(
            field,
            f"{label} can't contain invisible characters "
            "(such as a zero-width space, a soft hyphen or a right-to-left mark).",
        )
        return None
    cleaned = squeeze(value)
    if not 1 <= len(cleaned) <= most:
        problems.add(field, f"{label} must have 1 to {most} characters.")
        return None
    return cleaned


def read_seat(value: object, field: str, problems: Problems) -> Seat | None:
    number = whole_number(value)
    if number not in (0, 1):
        problems.add(field, f"{field} must be a seat: 0 or 1.")
        return None
    return Seat(number)


def read_version(value: object, problems: Problems) -> int | None:
    """The optional ``version`` of the game the change was made against."""
    if value is None:
        return None
    number = whole_number(value)
    if number is None or number < 1:
        problems.add("version", "version must be a whole number from 1: the game's version.")
        return None
    return number


def league_named(slug: object) -> League | None:
    """The league with this slug, if the value can be one (no query for any other value)."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        return None
    return league_service.league_by_slug(slug)


def body_version(body: Mapping[str, Any]) -> int | None:
    """The body of a one-button change: nothing, or ``{"version": n}``."""
    problems = Problems()
    problems.unknown(body, ("version",), "this change")
    version = read_version(body.get("version"), problems)
    problems.check()
    return version


def query_version(value: str | None) -> int | None:
    """``?version=`` of a ``DELETE``, as ``version`` in the body of other changes."""
    problems = Problems()
    version = read_id(value, "version", problems)
    problems.check()
    return version


# Rules and stakes ------------------------------------------------------------


def read_rules(preset_value: object, rules_value: object, problems: Problems) -> Rules | None:
    """The preset's rules (standard when none is named) with any of ``rules`` overriding them."""
    preset = Preset.STANDARD
    if preset_value is not None:
        if not isinstance(preset_value, str) or preset_value not in set(Preset):
            problems.add("preset", f"preset must be one of {', '.join(Preset)}.")
            return None
        preset = Preset(str(preset_value))
    base = PRESETS[preset]
    if rules_value is None:
        return base
    if not isinstance(rules_value, dict):
        problems.add("rules", "rules must be an object of rule options.")
        return None
    options: dict[str, Any] = {name: getattr(base, name) for name in RULE_FIELDS}
    before = len(problems.fields)
    problems.unknown(rules_value, RULE_FIELDS, "rules", "rules.")
    for name, value in rules_value.items():
        if name in RULE_FIELDS:
            options[name] = _rule_option(name, value, problems)
    return None if len(problems.fields) > before else Rules(**options)


def _rule_option(name: str, value: object, problems: Problems) -> Any:
    field = f"rules.{name}"
    if name == "target":
        target = whole_number(value)
        if target is None or not MIN_TARGET <= target <= MAX_TARGET or target % 5:
            problems.add(
                field,
                f"target must be a whole number, a multiple of 5 from {MIN_TARGET:,} "
                f"to {MAX_TARGET:,}.",
            )
        return target
    if name in ("progressive", "natural_needed"):
        if not isinstance(value, bool):
            problems.add(field, f"{name} must be true or false.")
        return value
    choices: type[SkunkRule] | type[DifferenceRule] = (
        SkunkRule if name == "skunk" else DifferenceRule
    )
    if not isinstance(value, str) or value not in set(choices):
        problems.add(field, f"{name} must be one of {', '.join(choices)}.")
        return None
    return choices(str(value))


def read_money(value: object, field: str, problems: Problems) -> int | None:
    """An amount of money in cents, from a decimal string such as ``"0.25"``."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        problems.add(
            field, 'Money is a decimal string such as "1.00", never a JSON number (it is exact).'
        )
        return None
    if not isinstance(value, str) or not _MONEY.fullmatch(value):
        problems.add(field, 'Money is a decimal string with at most two places, such as "0.25".')
        return None
    whole, _, cents = value.partition(".")
    amount = int(whole) * 100 + int(cents.ljust(2, "0") or 0)
    if not 0 < amount <= MAX_STAKE:
        problems.add(field, f"A stake must be more than 0.00 and at most {MAX_STAKE // 100:,}.00.")
        return None
    return amount


def read_stakes(value: object, default: Stakes, problems: Problems) -> Stakes | None:
    """``{"small", "big"}``: big defaults to three times small; no stakes at all, ``default``."""
    if value is None:
        return default
    if not isinstance(value, dict):
        problems.add("stakes", 'stakes must be an object: {"small": "1.00", "big": "3.00"}.')
        return None
    problems.unknown(value, ("small", "big"), "stakes", "stakes.")
    if "small" not in value:
        problems.add("stakes.small", 'Give the small stake, such as "1.00".')
        return None
    small = read_money(value["small"], "stakes.small", problems)
    big = read_money(value["big"], "stakes.big", problems) if "big" in value else None
    if small is None or ("big" in value and big is None):
        return None
    big = 3 * small if big is None else big
    if big > MAX_STAKE:
        problems.add(
            "stakes.big",
            f"The big stake (three times the small one unless given) must be at most "
            f"{MAX_STAKE // 100:,}.00.",
        )
        return None
    return Stakes(small=small, big=big)


def league_stakes(defaults: Mapping[str, Any] | None) -> Stakes:
    """The stakes a league's new games start from (its settings), else 1.00 and 3.00."""
    stakes = (defaults or {}).get("stakes")
    if not stakes:
        return DEFAULT_STAKES
    return Stakes(small=int(stakes["small"]), big=int(stakes["big"]))


# A new game -------------------------------------------------------------------

GAME_FIELDS: Final = ("league", "players", "preset", "rules", "stakes", "first_dealer")


def read_players(value: object, problems: Problems) -> tuple[str, str] | None:
    """The two players' names, in seat order."""
    if not isinstance(value, list) or len(value) != 2:
        problems.add("players", "players must be a list of the two players' names, in seat order.")
        return None
    names = [
        read_text(name, f"players.{seat}", "A name", MAX_NAME_LENGTH, problems)
        for seat, name in enumerate(value)
    ]
    if names[0] is None or names[1] is None:
        return None
    return names[0], names[1]


@dataclass(frozen=True)
class NewGame:
    """What ``POST /games`` asks for, once read."""

    names: tuple[str, str]
    rules: Rules
    stakes: Stakes
    first_dealer: Seat | None


def read_new_game(body: Mapping[str, Any], default_stakes: Stakes) -> NewGame:
    """Every field of a new game but ``league``, or a 422 naming each one at fault."""
    problems = Problems()
    problems.unknown(body, GAME_FIELDS, "a new game")
    names = read_players(body.get("players"), problems)
    rules = read_rules(body.get("preset"), body.get("rules"), problems)
    stakes = read_stakes(body.get("stakes"), default_stakes, problems)
    dealer = body.get("first_dealer")
    first_dealer = None if dealer is None else read_seat(dealer, "first_dealer", problems)
    problems.check()
    assert names is not None
    assert rules is not None
    assert stakes is not None
    return NewGame(names, rules, stakes, first_dealer)


# A deal -----------------------------------------------------------------------

DEAL_FIELDS: Final = ("out", "scores", "naturals", "version", "cards")


@dataclass(frozen=True)
class DealInput:
    """A deal's tally as ``POST`` or ``PUT`` sends it, with the version and counted cards."""

    tally: Tally
    version: int | None
    cards: CountedCards | None


def _pair(body: Mapping[str, Any], name: str, default: list[int] | None) -> list[object] | None:
    """A list of two (left out or ``null``: ``default``)."""
    value = body.get(name)
    if value is None:
        value = default
    return value if isinstance(value, list) and len(value) == 2 else None


def read_deal(body: Mapping[str, Any]) -> DealInput:
    """A deal's body; every rule of a valid tally is the engine's (RULES.md §2)."""
    problems = Problems()
    problems.unknown(body, DEAL_FIELDS, "a deal")
    version = read_version(body.get("version"), problems)
    scores = _pair(body, "scores", None)
    naturals = _pair(body, "naturals", [0, 0])
    if scores is None:
        problems.add("scores", "scores must be a list of the two deal scores, in seat order.")
    if naturals is None:
        problems.add("naturals", "naturals must be a list of the two star counts, in seat order.")
    cards = _read_cards(body.get("cards"), problems)
    tally = None
    if scores is not None and naturals is not None:
        try:
            tally = validate_tally(_seat_or_none(body.get("out")), scores, naturals)
        except InvalidTally as error:
            for problem in error.problems:
                problems.add(problem.field.replace("stars", "naturals"), problem.message)
    problems.check()
    assert tally is not None
    return DealInput(tally, version, cards)


def _seat_or_none(value: object) -> int | None:
    """Who went out, for the engine: a whole number of a seat, anything else None."""
    number = whole_number(value)
    return number if number in (0, 1) else None


def _read_cards(value: object, problems: Problems) -> CountedCards | None:
    """The optional cards the deal was counted from, as ``POST /count`` takes them."""
    if value is None:
        return None
    if not isinstance(value, dict):
        problems.add("cards", "cards must be an object, as POST /count takes it.")
        return None
    try:
        return CountedCards.from_json(value)
    except BadCards as bad:
        for field, messages in bad.fields.items():
            for message in messages:
                problems.add(f"cards.{field}", message)
        return None


# Query arguments ----------------------------------------------------------------


def read_id(value: str | None, field: str, problems: Problems) -> int | None:
    """A row id from the query string (absent: None)."""
    if value is None:
        return None
    if not (value.isascii() and value.isdigit()) or not 0 < int(value) <= MAX_ID:
        problems.add(field, f"{field} must be a whole number from 1 to {MAX_ID}.")
        return None
    return int(value)
