"""Boathouse Rummy (RULES-MORE-GAMES.md §2): every win is declared in one turn, so nothing
is doubled; a hand may have grown, so a count goes up to 380, and Aces count 11, so no
count is 1."""

from collections.abc import Mapping
from typing import Final

from ..counting import Rank
from .base import Problem, Setup
from .ledger import Dealt
from .reading import Reader, complete
from .rummy_family import CARD_VALUES as RUMMY_VALUES
from .rummy_family import (
    CARDS_DEALT,
    WentOut,
    high_counts,
    paid_by_counts,
    read_counts,
    read_out,
)
from .schema import COUNTS, SEAT, body
from .sitting import DealByDeal, stake_of

#: Every card of the pack at Boathouse values: four Aces at 11, sixteen tens and court
#: cards at 10, and 2 to 9 in four suits.
MOST_COUNT: Final = 4 * 11 + 16 * 10 + 4 * sum(range(2, 10))
assert MOST_COUNT == 380
#: The four Aces, then tens and court cards: the most the cards first dealt can count.
ACES: Final = 4
ACE: Final = 11
TEN: Final = 10
#: No card is worth 1 (Aces count 11), so no hand counts 1.
NO_SUCH_COUNT: Final = 1
#: What each card left in a hand counts: as in Rummy, but an Ace 11.
CARD_VALUES: Final[Mapping[Rank, int]] = {**RUMMY_VALUES, Rank.ACE: ACE}


class BoathouseRummy(DealByDeal[WentOut]):
    name = "boathouse-rummy"
    min_players = 2
    max_players = 6
    deal_schema = body({"out": SEAT, "counts": COUNTS}, "out", "counts")

    def read(self, setup: Setup, raw: Mapping[str, object]) -> WentOut:
        reader = Reader()
        reader.unknown(raw, ("out", "counts"))
        out = read_out(reader, raw, setup.players)
        counts = read_counts(reader, raw, setup.players, MOST_COUNT, out)
        for seat, count in enumerate(counts or ()):
            if count == NO_SUCH_COUNT:
                reader.add(f"counts.{seat}", "count.one")
        read = complete(counts)
        return reader.result(None if out is None or read is None else WentOut(out, read))

    def pays(self, setup: Setup, deal: WentOut) -> Dealt:
        assert deal.out is not None  # always read
        point = stake_of(setup, "point")
        return Dealt(deal.out, paid_by_counts(deal.out, deal.counts, point))

    def deal_warnings(self, setup: Setup, deal: WentOut) -> list[Problem]:
        return high_counts(deal.counts, most_dealt(setup.players))


def most_dealt(players: int) -> int:
    """The most the cards first dealt can count (104, 74 or 64): a count above it is legal
    (the hand grew) but worth a second look."""
    return ACES * ACE + (CARDS_DEALT[players] - ACES) * TEN


#: Boathouse Rummy as the app keeps it.
BOATHOUSE_RUMMY = BoathouseRummy()
