"""Replaying a game's deals into its score card (RULES.md §3)."""

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import Rules
from .tally import Seat, Tally

Pair = tuple[int, int]


class DealAfterEnd(ValueError):
    """Deals follow the deal that ended the game; a finished game takes no more."""

    def __init__(self, ended_at: int, count: int) -> None:
        super().__init__(
            f"The game ends at deal {ended_at}, so deal {ended_at + 1} can't follow it."
        )
        self.ended_at = ended_at
        self.count = count


@dataclass(frozen=True)
class DealLine:
    """One row of the score card: a deal and the running totals after it."""

    number: int
    dealer: Seat
    tally: Tally
    totals: Pair
    stars_so_far: Pair

    def chapeau(self, seat: Seat) -> bool:
        return self.tally.chapeau(seat)


@dataclass(frozen=True)
class Scorecard:
    """Everything the deals so far say about a game."""

    rules: Rules
    first_dealer: Seat
    lines: tuple[DealLine, ...]
    winner: Seat | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def totals(self) -> Pair:
        return self.lines[-1].totals if self.lines else (0, 0)

    @property
    def stars(self) -> Pair:
        return self.lines[-1].stars_so_far if self.lines else (0, 0)

    @property
    def chapeaux(self) -> Pair:
        counts = [sum(line.chapeau(seat) for line in self.lines) for seat in Seat]
        return counts[0], counts[1]

    @property
    def next_dealer(self) -> Seat:
        """The deal alternates from the first dealer."""
        return Seat((self.first_dealer + len(self.lines)) % 2)

    @property
    def loser(self) -> Seat | None:
        return None if self.winner is None else self.winner.other

    @property
    def tied(self) -> bool:
        """Play goes on only because the totals are equal: both players have met the end
        condition, so nobody has won yet and play goes on, deal by deal, until they differ."""
        equal = self.totals[0] == self.totals[1]
        return not self.finished and equal and all(self.qualifies(seat) for seat in Seat)

    def qualifies(self, seat: Seat) -> bool:
        """Whether ``seat`` has met the end condition (target, and a star if one is needed)."""
        return _qualifies(self.rules, self.totals, self.stars, seat)


def _qualifies(rules: Rules, totals: Pair, stars: Pair, seat: Seat) -> bool:
    reached = totals[seat] >= rules.target
    return reached and (stars[seat] > 0 or not rules.natural_needed)


def _winner(rules: Rules, totals: Pair, stars: Pair) -> Seat | None:
    """Who has won once a deal is over, or None while play goes on."""
    qualified = [seat for seat in Seat if _qualifies(rules, totals, stars, seat)]
    if len(qualified) == 1 and rules.natural_needed:
        return qualified[0]
    if not qualified or totals[0] == totals[1]:
        return None  # a tie at the end plays on, deal by deal
    return Seat.FIRST if totals[0] > totals[1] else Seat.SECOND


def ends_with(rules: Rules, totals: Pair, stars: Pair, tally: Tally) -> bool:
    """Whether the deal ``tally`` ends a game that stands at ``totals`` and ``stars``
    (what :func:`replay` would say of it, without the deals before it)."""
    after = (totals[0] + tally.scores[0], totals[1] + tally.scores[1])
    stars_after = (stars[0] + tally.stars[0], stars[1] + tally.stars[1])
    return _winner(rules, after, stars_after) is not None


def replay(rules: Rules, first_dealer: Seat, tallies: Sequence[Tally]) -> Scorecard:
    """The score card of a game from its deals in order.

    Depends only on its arguments. Raises :class:`DealAfterEnd` when a deal
    follows the one that ended the game.
    """
    lines: list[DealLine] = []
    totals: Pair = (0, 0)
    stars: Pair = (0, 0)
    winner: Seat | None = None
    for number, tally in enumerate(tallies, start=1):
        if winner is not None:
            raise DealAfterEnd(ended_at=number - 1, count=len(tallies))
        totals = (totals[0] + tally.scores[0], totals[1] + tally.scores[1])
        stars = (stars[0] + tally.stars[0], stars[1] + tally.stars[1])
        dealer = Seat((first_dealer + number - 1) % 2)
        lines.append(DealLine(number, dealer, tally, totals, stars))
        winner = _winner(rules, totals, stars)
    return Scorecard(rules, first_dealer, tuple(lines), winner)
