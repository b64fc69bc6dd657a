"""What the loser pays the winner (RULES.md §4)."""

from dataclasses import dataclass
from enum import StrEnum

from .game import Scorecard
from .rules import DifferenceRule, Rules, SkunkRule, Stakes
from .tally import Seat


class LineKind(StrEnum):
    GAME = "game"
    DIFFERENCE = "difference"
    NATURALS = "naturals"
    CHAPEAUX = "chapeaux"
    SKUNK = "skunk"


@dataclass(frozen=True)
class SettlementLine:
    """One reason the loser pays: ``count`` of something, worth the sum of ``terms``."""

    kind: LineKind
    count: int
    terms: tuple[int, ...]

    @property
    def amount(self) -> int:
        return sum(self.terms)


@dataclass(frozen=True)
class Settlement:
    """Every line of a finished game's payment, before and after the skunk multiplier."""

    payer: Seat
    payee: Seat
    totals: tuple[int, int]
    rounded: tuple[int, int]
    difference: int
    skunk: bool
    multiplier: int
    lines: tuple[SettlementLine, ...]

    @property
    def subtotal(self) -> int:
        return sum(line.amount for line in self.lines)

    @property
    def total(self) -> int:
        return self.subtotal * self.multiplier

    @property
    def skunk_extra(self) -> int:
        """What the skunk multiplier adds to the subtotal (0 without one): shown as a line of
        its own, the amounts listed add up to the total."""
        return self.total - self.subtotal


def round_total(total: int) -> int:
    """Nearest 100, a total ending in 50 going up, towards +∞ also below zero."""
    return (total + 50) // 100 * 100


def difference_count(rules: Rules, winner_total: int, loser_total: int) -> int:
    """How many small stakes the point difference is worth; never below 0."""
    if rules.difference is DifferenceRule.CEIL:
        return max(0, -((loser_total - winner_total) // 100))
    return max(0, (round_total(winner_total) - round_total(loser_total)) // 100)


def _multiples(big: int, count: int, progressive: bool) -> tuple[int, ...]:
    """The big stake once per count, or b, 2b, 3b … under the progressive variant."""
    return tuple(big * (k if progressive else 1) for k in range(1, count + 1))


def _skunk_multiplier(rules: Rules, loser_total: int) -> int:
    if rules.skunk is not SkunkRule.MULTIPLY or not rules.is_skunk(loser_total):
        return 1
    return 3 if loser_total < 0 else 2


def settle(card: Scorecard, stakes: Stakes) -> Settlement:
    """The settlement of a finished game; ValueError if nobody has won yet."""
    if card.winner is None:
        raise ValueError("only a finished game can be settled")
    rules, winner, loser = card.rules, card.winner, card.winner.other
    won, lost = card.totals[winner], card.totals[loser]
    if rules.difference is DifferenceRule.CEIL:
        rounded = card.totals
    else:
        rounded = (round_total(card.totals[0]), round_total(card.totals[1]))
    difference = difference_count(rules, won, lost)
    skunk = rules.is_skunk(lost)
    candidates = [
        SettlementLine(LineKind.GAME, 1, (stakes.big,)),
        SettlementLine(LineKind.DIFFERENCE, difference, (stakes.small * difference,)),
        SettlementLine(
            LineKind.NATURALS,
            card.stars[winner],
            _multiples(stakes.big, card.stars[winner], rules.progressive),
        ),
        SettlementLine(
            LineKind.CHAPEAUX,
            card.chapeaux[loser],
            _multiples(stakes.big, card.chapeaux[loser], rules.progressive),
        ),
        SettlementLine(LineKind.SKUNK, int(skunk and rules.skunk is SkunkRule.MARK), (stakes.big,)),
    ]
    return Settlement(
        payer=loser,
        payee=winner,
        totals=card.totals,
        rounded=rounded,
        difference=difference,
        skunk=skunk,
        multiplier=_skunk_multiplier(rules, lost),
        lines=tuple(line for line in candidates if line.count),
    )
