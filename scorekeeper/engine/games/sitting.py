"""A game kept as a sitting whose every deal settles its own money: the Rummy games.

Each such game says how it reads a deal (:meth:`DealByDeal.read`) and what a deal pays
(:meth:`DealByDeal.pays`); the rest, its setup of players and one stake, its replay into
lines and balances, and its end when the scorekeeper ends it, is this one class's.
"""

from collections.abc import Mapping, Sequence
from typing import Generic, Protocol, TypeVar

from .base import Entry, Problem, Setup, Sitting
from .ledger import Dealt, lines_of, sitting_of
from .reading import Reader, known_rules, read_players, read_stakes
from .schema import NO_RULES


class Deal(Protocol):
    """A deal as a game reads it, which writes itself back as its entry."""

    def entry(self) -> Entry: ...


D = TypeVar("D", bound=Deal)


class DealByDeal(Generic[D]):
    """A :class:`~.base.GameKind` with no rule options and one stake, each deal paid by
    itself, finished when the scorekeeper ends it."""

    name: str
    min_players: int
    max_players: int
    ends_itself: bool = False
    #: The one stake the game is played for.
    stake: str = "point"
    deal_schema: Mapping[str, object]
    rules_schema: Mapping[str, object] = NO_RULES

    @property
    def stakes_taken(self) -> Mapping[str, bool]:
        return {self.stake: True}

    def read(self, setup: Setup, raw: Mapping[str, object]) -> D:
        """The deal ``raw`` as the game reads it; :class:`~.base.Refused` when it breaks a
        rule."""
        raise NotImplementedError

    def pays(self, setup: Setup, deal: D) -> Dealt:
        """Whom ``deal`` pays, and who pays what."""
        raise NotImplementedError

    def deal_warnings(self, setup: Setup, deal: D) -> list[Problem]:
        """Legal but unusual values in ``deal``; none unless the game says."""
        return []

    def setup(
        self, players: int, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> Setup:
        reader = Reader()
        count = read_players(reader, players, self.min_players, self.max_players)
        known_rules(reader, rules, ())
        amounts = read_stakes(reader, stakes, (self.stake,))
        reader.done()
        return Setup(players=count, rules={}, stakes=amounts)

    def read_deal(self, setup: Setup, raw: Mapping[str, object]) -> Entry:
        return self.read(setup, raw).entry()

    def warnings(self, setup: Setup, entry: Entry) -> list[Problem]:
        return self.deal_warnings(setup, self.read(setup, entry))

    def replay(
        self, setup: Setup, first_dealer: int, entries: Sequence[Entry], *, ended: bool
    ) -> Sitting:
        deals = [self.read(setup, entry) for entry in entries]
        dealt = [self.pays(setup, deal) for deal in deals]
        lines = lines_of(setup, first_dealer, [deal.entry() for deal in deals], dealt)
        return sitting_of(setup, first_dealer, lines, finished=ended)


def stake_of(setup: Setup, name: str) -> int:
    """A stake the game requires, in cents (its setup has it)."""
    amount = setup.stakes[name]
    if amount is None:
        raise ValueError(f"the setup has no {name} stake")
    return amount
