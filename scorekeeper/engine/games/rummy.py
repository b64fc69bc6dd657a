"""Rummy, the parent game (RULES-MORE-GAMES.md §1): each other player pays the one who went
out their count × the point, all of it doubled when the winner went rummy."""

from collections.abc import Mapping
from dataclasses import dataclass

from .base import Entry, Problem, Setup
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
from .schema import COUNTS, SEAT, body
from .sitting import DealByDeal, stake_of


@dataclass(frozen=True)
class RummyDeal:
    """Who went out, every count, and whether the winner declared all their cards in one
    turn (rummy)."""

    went_out: WentOut
    rummy: bool

    def entry(self) -> Entry:
        return {**self.went_out.entry(), "rummy": self.rummy}


class Rummy(DealByDeal[RummyDeal]):
    name = "rummy"
    min_players = 2
    max_players = 6
    deal_schema = body(
        {
            "out": SEAT,
            "counts": COUNTS,
            "rummy": {"type": "boolean", "description": "All cards declared in one turn."},
        },
        "out",
        "counts",
    )

    def read(self, setup: Setup, raw: Mapping[str, object]) -> RummyDeal:
        reader = Reader()
        reader.unknown(raw, ("out", "counts", "rummy"))
        went_out = read_went_out(reader, raw, setup.players, most_count(setup.players))
        given = raw.get("rummy")
        rummy = False if given is None else reader.boolean("rummy", given)  # null: left out
        return RummyDeal(reader.result(went_out), bool(rummy))

    def pays(self, setup: Setup, deal: RummyDeal) -> Dealt:
        out, counts = deal.went_out.out, deal.went_out.counts
        assert out is not None  # nobody is out only in Gambler's dead deal
        point = stake_of(setup, "point")
        return Dealt(out, paid_by_counts(out, counts, point, doubled=deal.rummy))

    def deal_warnings(self, setup: Setup, deal: RummyDeal) -> list[Problem]:
        return high_counts(deal.went_out.counts, usual_count(setup.players))


#: Rummy as the app keeps it.
RUMMY = Rummy()
