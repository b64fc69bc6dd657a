"""Montreal Mille behind the one interface: the existing engine (``validate_tally``,
``replay``, ``settle``) does everything, this module only reads and writes its shapes.

A Mille deal pays nobody: its lines have scores and running totals per seat and no
payments, the balances stay 0 until the game is won, and then its closing is the one
payment of :func:`~..settlement.settle`'s total from the loser to the winner (which is
also its settlement).
"""

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from functools import partial
from typing import Final, TypeVar

from ..game import DealLine, Scorecard, replay
from ..rules import (
    MAX_STAKE,
    MAX_TARGET,
    MIN_TARGET,
    PRESETS,
    DifferenceRule,
    Preset,
    Rules,
    SkunkRule,
    Stakes,
)
from ..settlement import settle
from ..tally import (
    InvalidTally,
    Seat,
    Tally,
    TallyProblem,
    tally_warnings,
    validate_tally,
    whole_number,
)
from .base import Entry, Line, Payment, Problem, Reason, Setup, Sitting
from .ledger import check_first_dealer, sitting_of
from .reading import MIN_STAKE, Reader, read_players, read_stakes
from .schema import SEAT, body

T = TypeVar("T")
W = TypeVar("W", bound=StrEnum)

PLAYERS: Final = 2
#: The API's rule options, each defaulting to the standard preset's.
RULE_NAMES: Final = ("target", "progressive", "natural_needed", "skunk", "difference")
TARGET_STEP: Final = 5
#: The big stake, unless set, is this many small ones.
BIG_PER_SMALL: Final = 3


def read_rules(reader: Reader, rules: Mapping[str, object]) -> Rules:
    """The rule options given, the standard preset's for the others."""
    reader.unknown(rules, RULE_NAMES, "rules.")
    standard = PRESETS[Preset.STANDARD]
    return Rules(
        target=_rule(rules, "target", partial(read_target, reader), standard.target),
        progressive=_rule(rules, "progressive", reader.boolean, standard.progressive),
        natural_needed=_rule(rules, "natural_needed", reader.boolean, standard.natural_needed),
        skunk=_rule(rules, "skunk", partial(read_word, reader, SkunkRule), standard.skunk),
        difference=_rule(
            rules, "difference", partial(read_word, reader, DifferenceRule), standard.difference
        ),
    )


def _rule(
    rules: Mapping[str, object], name: str, read: Callable[[str, object], T | None], default: T
) -> T:
    """The rule ``name`` as ``read`` reads it, ``default`` when it is left out (or refused:
    the refusal is the reader's)."""
    given = rules.get(name)
    value = None if given is None else read(f"rules.{name}", given)
    return default if value is None else value


def read_target(reader: Reader, field: str, value: object) -> int | None:
    """A multiple of 5 from 100 to 10,000 (RULES.md §3)."""
    target = reader.whole(field, value, MIN_TARGET, MAX_TARGET, "target.range")
    if target is not None and target % TARGET_STEP:
        reader.add(field, "target.step", step=TARGET_STEP)
        return None
    return target


def read_word(reader: Reader, words: type[W], field: str, value: object) -> W | None:
    """One of the words of ``words`` (``"multiply"``, ``"mark"``)."""
    word = reader.choice(field, value, [member.value for member in words])
    return None if word is None else words(word)


def read_mille_stakes(reader: Reader, stakes: Mapping[str, object]) -> Stakes:
    """``small`` (required) and ``big`` (three small ones unless set, so then the small one
    is at most a third of the most a stake may be)."""
    amounts = read_stakes(reader, stakes, ("small",), ("big",))
    small, big = amounts["small"] or MIN_STAKE, amounts["big"]
    if big is None and small * BIG_PER_SMALL > MAX_STAKE:
        reader.add("stakes.small", "stake.range", low=MIN_STAKE, high=MAX_STAKE // BIG_PER_SMALL)
        small = MIN_STAKE
    return Stakes(small=small, big=big or BIG_PER_SMALL * small)


def renamed(problems: Sequence[TallyProblem]) -> list[Problem]:
    """The tally's problems with the API's field names: ``naturals.1`` for ``stars.1``."""
    return [Problem(p.field.replace("stars", "naturals"), p.code, p.params) for p in problems]


def read_tally(raw: Mapping[str, object]) -> Tally:
    """``{"out", "scores", "naturals"}`` (``naturals`` [0, 0] unless given) as a tally."""
    reader = Reader()
    reader.unknown(raw, ("out", "scores", "naturals"))
    scores = reader.listed("scores", raw.get("scores"), PLAYERS)
    given = raw.get("naturals")
    naturals = reader.listed("naturals", [0, 0] if given is None else given, PLAYERS)
    tally = None
    if scores is None or naturals is None:
        if whole_number(raw.get("out")) not in (0, 1):
            reader.add("out", "out.missing")
    else:
        try:
            tally = validate_tally(raw.get("out"), scores, naturals)
        except InvalidTally as refused:
            reader.problems += renamed(refused.problems)
    return reader.result(tally)


def entry_of(tally: Tally) -> Entry:
    return {"out": int(tally.out), "scores": list(tally.scores), "naturals": list(tally.stars)}


class Mille:
    name = "mille"
    min_players = PLAYERS
    max_players = PLAYERS
    ends_itself = True
    deal_schema = body(
        {
            "out": SEAT,
            "scores": {"type": "array", "items": {"type": "integer"}},
            "naturals": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        },
        "out",
        "scores",
    )
    rules_schema = body(
        {
            "target": {"type": "integer", "multipleOf": 5},
            "progressive": {"type": "boolean"},
            "natural_needed": {"type": "boolean"},
            "skunk": {"enum": [rule.value for rule in SkunkRule]},
            "difference": {"enum": [rule.value for rule in DifferenceRule]},
        }
    )
    stakes_taken: Final = {"small": True, "big": False}

    def setup(
        self, players: int, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> Setup:
        reader = Reader()
        count = read_players(reader, players, PLAYERS, PLAYERS)
        read = read_rules(reader, rules)
        amounts = read_mille_stakes(reader, stakes)
        reader.done()
        return Setup(
            players=count,
            rules={name: _plain(getattr(read, name)) for name in RULE_NAMES},
            stakes={"small": amounts.small, "big": amounts.big},
        )

    def read_deal(self, setup: Setup, raw: Mapping[str, object]) -> Entry:
        return entry_of(read_tally(raw))

    def warnings(self, setup: Setup, entry: Entry) -> list[Problem]:
        return renamed(tally_warnings(read_tally(entry)))

    def replay(
        self, setup: Setup, first_dealer: int, entries: Sequence[Entry], *, ended: bool
    ) -> Sitting:
        """Ends by its own rule (``ended`` is ignored); ``DealAfterEnd`` as the engine's
        :func:`~..game.replay`."""
        reader = Reader()
        rules, stakes = read_rules(reader, setup.rules), read_mille_stakes(reader, setup.stakes)
        reader.done()
        check_first_dealer(setup, first_dealer)
        card = replay(rules, Seat(first_dealer), [read_tally(entry) for entry in entries])
        return sitting_of(
            setup,
            first_dealer,
            [line_of(line) for line in card.lines],
            finished=card.finished,
            closing=closing_of(card, stakes),
            totals=card.totals,
            winners=None if card.winner is None else (int(card.winner),),
        )


def line_of(line: DealLine) -> Line:
    """A deal on Mille's card: scores and running totals per seat, no payment."""
    return Line(
        number=line.number,
        dealer=int(line.dealer),
        entry=entry_of(line.tally),
        winner=None,
        payments=(),
        balances=(0, 0),
        pool=None,
        scores=line.tally.scores,
        totals=line.totals,
    )


def closing_of(card: Scorecard, stakes: Stakes) -> tuple[Payment, ...]:
    """A won game's one payment, the settlement's total from the loser to the winner."""
    if card.winner is None:
        return ()
    settlement = settle(card, stakes)
    payer, payee = int(settlement.payer), int(settlement.payee)
    return (Payment(payer, payee, settlement.total, Reason.GAME),)


def _plain(value: object) -> int | bool | str:
    """A rule's value as JSON holds it: a word for a rule chosen among words."""
    if isinstance(value, SkunkRule | DifferenceRule):
        return value.value
    assert isinstance(value, int)
    return value


#: Montreal Mille as the app keeps it.
MILLE = Mille()
