"""Gambler's Rummy (RULES-MORE-GAMES.md §4): four players, seven cards, nothing doubled;
a deal nobody went out of is dead: the counts are kept and nobody pays."""

from collections.abc import Mapping
from typing import Final

from .base import Problem, Setup
from .ledger import Dealt
from .reading import Reader
from .rummy_family import (
    WentOut,
    high_counts,
    most_count,
    paid_by_counts,
    read_went_out,
    usual_count,
)
from .schema import COUNTS, SEAT, body, nullable
from .sitting import DealByDeal, stake_of

#: Exactly four players.
PLAYERS: Final = 4


class GamblersRummy(DealByDeal[WentOut]):
    name = "gamblers-rummy"
    min_players = PLAYERS
    max_players = PLAYERS
    deal_schema = body(
        {"out": nullable(SEAT, "null: nobody went out (a dead deal)."), "counts": COUNTS},
        "out",
        "counts",
    )

    def read(self, setup: Setup, raw: Mapping[str, object]) -> WentOut:
        reader = Reader()
        reader.unknown(raw, ("out", "counts"))
        high = most_count(setup.players)
        return reader.result(read_went_out(reader, raw, setup.players, high, dead=True))

    def pays(self, setup: Setup, deal: WentOut) -> Dealt:
        if deal.out is None:
            return Dealt(None, ())
        point = stake_of(setup, "point")
        return Dealt(deal.out, paid_by_counts(deal.out, deal.counts, point))

    def deal_warnings(self, setup: Setup, deal: WentOut) -> list[Problem]:
        return high_counts(deal.counts, usual_count(setup.players))


#: Gambler's Rummy as the app keeps it.
GAMBLERS_RUMMY = GamblersRummy()
