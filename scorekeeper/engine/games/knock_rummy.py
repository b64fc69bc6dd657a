"""Knock Rummy, or Poker Rum (RULES-MORE-GAMES.md §5): a player knocks, the lowest count
wins, and every other player pays the winner the difference of their counts; a knocker
who doesn't win pays 10 points more, and one who wins with no unmatched card gets 25
points more from every other player."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .base import Entry, Payment, Problem, Reason, Setup
from .ledger import Dealt
from .reading import Reader, complete
from .rummy_family import high_counts, most_count, read_counts, usual_count
from .schema import COUNTS, SEAT, body
from .sitting import DealByDeal, stake_of

#: What a knocker who does not win pays the winner, in points.
KNOCK_PENALTY: Final = 10
#: What a knocker who went rummy (count 0) and won gets from every other player, in points.
RUMMY_BONUS: Final = 25


@dataclass(frozen=True)
class Knock:
    """Who knocked, and every player's count, the knocker's too."""

    knocker: int
    counts: tuple[int, ...]

    def entry(self) -> Entry:
        return {"knocker": self.knocker, "counts": list(self.counts)}

    @property
    def winner(self) -> int:
        """The lowest count; a player who ties the knocker wins over them, and of several
        such players the first in turn after the knocker."""
        players = len(self.counts)
        in_turn = [(self.knocker + step) % players for step in range(1, players)]
        lowest = min(self.counts)
        return next((seat for seat in in_turn if self.counts[seat] == lowest), self.knocker)


def knock_payments(knock: Knock, point: int) -> tuple[Payment, ...]:
    """Each other player, in seat order: the difference of counts, and the knocker's penalty
    or the rummy bonus; no line for 0."""
    winner, counts = knock.winner, knock.counts
    went_rummy = winner == knock.knocker and counts[winner] == 0
    payments: list[Payment] = []
    for seat in range(len(counts)):
        if seat == winner:
            continue
        difference = counts[seat] - counts[winner]
        if difference:
            payments.append(Payment(seat, winner, difference * point, Reason.COUNT))
        if seat == knock.knocker:
            payments.append(Payment(seat, winner, KNOCK_PENALTY * point, Reason.KNOCK_PENALTY))
        if went_rummy:
            payments.append(Payment(seat, winner, RUMMY_BONUS * point, Reason.RUMMY_BONUS))
    return tuple(payments)


class KnockRummy(DealByDeal[Knock]):
    name = "knock-rummy"
    min_players = 2
    max_players = 6
    deal_schema = body({"knocker": SEAT, "counts": COUNTS}, "knocker", "counts")

    def read(self, setup: Setup, raw: Mapping[str, object]) -> Knock:
        reader = Reader()
        reader.unknown(raw, ("knocker", "counts"))
        knocker = reader.seat("knocker", raw.get("knocker"), setup.players)
        counts = complete(read_counts(reader, raw, setup.players, most_count(setup.players), None))
        return reader.result(None if knocker is None or counts is None else Knock(knocker, counts))

    def pays(self, setup: Setup, deal: Knock) -> Dealt:
        return Dealt(deal.winner, knock_payments(deal, stake_of(setup, "point")))

    def deal_warnings(self, setup: Setup, deal: Knock) -> list[Problem]:
        return high_counts(deal.counts, usual_count(setup.players))


#: Knock Rummy as the app keeps it.
KNOCK_RUMMY = KnockRummy()
