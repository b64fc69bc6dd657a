"""The one interface every game the table keeps has (RULES-MORE-GAMES.md §0).

A game is a module of this package with one object that has the shape of
:class:`GameKind`: how many players it takes, what its rules and stakes are, what a
deal holds and whether it is valid (:meth:`GameKind.read_deal`), and, from its deals
in order, what each deal pays and to whom, when the game ends and who deals next
(:meth:`GameKind.replay`). Nothing outside the engine knows one game from another:
the app stores a game's setup and its deals as the JSON mappings this interface reads
and writes, and shows what :class:`Sitting` says.

Money is whole cents. A seat is an ``int`` from 0 (the first player named); ``None``
in a payment's ``payer`` or ``payee`` is the pool.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from ..settle_up import Transfer as Transfer
from ..tally import TallyProblem

#: One broken rule, tied to the field that broke it (``counts.2``, ``stakes.point``,
#: ``honours.jack``): a code and the values it names, worded by ``web/messages.py``.
Problem = TallyProblem

#: A deal as the API's body says it (``{"knocker": 0, "counts": [6, 6, 14]}``), and,
#: once :meth:`GameKind.read_deal` has read it, with every default filled in: the one
#: form a deal is stored, answered and replayed in.
Entry = Mapping[str, object]


class Refused(ValueError):
    """A setup or a deal that breaks the game's rules; ``problems`` says which and where."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(f"{p.field}: {p.code}" for p in problems))
        self.problems = tuple(problems)


class Reason(StrEnum):
    """Why money moves: the API's ``reason`` codes."""

    COUNT = "count"  # the points left in a hand (Rummy, Boathouse, Gambler's, Knock)
    RUMMY = "rummy"  # Rummy's doubling, paid on top of the count
    UNIT = "unit"  # Continental: one unit for winning
    JOKER = "joker"  # Continental: two units for each Joker
    KNOCK_PENALTY = "knock_penalty"  # Knock: a knocker who did not win pays 10 points more
    RUMMY_BONUS = "rummy_bonus"  # Knock: a knocker who went rummy and won gets 25 more
    ANTE = "ante"  # Spoil Five: each player's stake when a pool starts
    DEALER = "dealer"  # Spoil Five: the dealer's stake on the other deals
    POOL = "pool"  # Spoil Five: the pool taken by the winner
    JINK = "jink"  # Spoil Five: what each other player pays a jink that was won
    POOL_BACK = "pool_back"  # Spoil Five: a pool given back to its givers when a sitting ends
    GAME = "game"  # what a losing player pays at the end (Scotch Whist; Mille's settlement)


@dataclass(frozen=True)
class Payment:
    """Money moved by a deal, or at the end: from ``payer`` to ``payee`` (None: the pool)."""

    payer: int | None
    payee: int | None
    amount: int
    reason: Reason


@dataclass(frozen=True)
class Setup:
    """What a game was started with, as the engine read it: how many players, its rule
    options (``{"target": 41, "partnerships": True}``; ``{}`` when it has none; Mille's
    ``skunk`` and ``difference`` are words) and its stakes in cents (``{"point": 5}``; an
    optional stake left out is ``None``). Stored with the game and never changed
    afterwards."""

    players: int
    rules: Mapping[str, int | bool | str]
    stakes: Mapping[str, int | None]


@dataclass(frozen=True)
class Line:
    """One deal on the card: what was entered, who it paid, and where it left the game."""

    number: int
    dealer: int
    entry: Entry
    #: The seat the deal pays (who went out, the knock's winner, who took the pool);
    #: None for a dead or a spoilt deal, a failed jink, and every Scotch Whist deal.
    winner: int | None
    payments: tuple[Payment, ...]
    #: Each seat's money received minus paid over the deals so far.
    balances: tuple[int, ...]
    #: Money in the pool after this deal (games with a pool), else None.
    pool: int | None
    #: Each side's deal score and running total (games kept in points), else None.
    scores: tuple[int, ...] | None
    totals: tuple[int, ...] | None


@dataclass(frozen=True)
class Sitting:
    """Everything a game's deals say about it, replayed by its kind."""

    setup: Setup
    first_dealer: int
    lines: tuple[Line, ...]
    finished: bool
    #: The seats of each side: a seat each, or pairs under Scotch Whist's partnerships.
    sides: tuple[tuple[int, ...], ...]
    #: Money moved when the game ends rather than by a deal (a pool given back, Mille's
    #: settlement); empty while it goes on.
    closing: tuple[Payment, ...]
    #: Each seat's balance after every deal and the closing: they add up to zero, or,
    #: with ``pool``, to zero.
    balances: tuple[int, ...]
    pool: int | None
    totals: tuple[int, ...] | None
    #: The seats of the winning side of a game that ends by its own rule, once it has.
    winners: tuple[int, ...] | None
    next_dealer: int
    #: Once finished: the fewest payments that bring every balance to zero.
    settlement: tuple[Transfer, ...] | None

    def deals_won(self, seat: int) -> int:
        """How many deals paid ``seat``."""
        return sum(line.winner == seat for line in self.lines)


class GameKind(Protocol):
    """A game the table keeps: one object per game module, found by its ``name``."""

    #: The API's and the database's word for it: ``"knock-rummy"``.
    name: str
    min_players: int
    max_players: int
    #: The game ends by its own rule (a target): the scorekeeper can't end or resume it.
    ends_itself: bool
    #: The JSON Schema of a deal's body and of the rule options: what the API describes.
    deal_schema: Mapping[str, object]
    rules_schema: Mapping[str, object]

    @property
    def stakes_taken(self) -> Mapping[str, bool]:
        """Each stake the game is played for, and whether it must be given (a stake that
        may be left out has a default, or means "none")."""
        ...

    def setup(
        self, players: int, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> Setup:
        """The game's setup for ``players`` players, from rule options as given (the
        defaults filled in) and stakes already read as cents; :class:`Refused` naming
        ``players``, ``rules.<name>`` or ``stakes.<name>`` when one breaks a rule."""
        ...

    def read_deal(self, setup: Setup, raw: Mapping[str, object]) -> Entry:
        """The deal ``raw`` (the API's body, or a stored entry) with every default filled
        in; :class:`Refused` naming each field at fault."""
        ...

    def warnings(self, setup: Setup, entry: Entry) -> list[Problem]:
        """Legal but unusual values the scorekeeper should confirm before saving."""
        ...

    def replay(
        self, setup: Setup, first_dealer: int, entries: Sequence[Entry], *, ended: bool
    ) -> Sitting:
        """The game from its deals in order (each one read by :meth:`read_deal`).

        ``ended``: the scorekeeper ended the sitting (ignored by a game that ends
        itself). Raises ``DealAfterEnd`` when a deal follows the one that ended a game
        that ends itself."""
        ...
