"""Continental Rummy (RULES-MORE-GAMES.md §3): each other player pays the winner one unit,
and two units more for every Joker in the winner's fifteen melded cards."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from .base import Entry, Payment, Problem, Reason, Setup
from .ledger import Dealt
from .reading import Reader
from .schema import SEAT, body
from .sitting import DealByDeal, stake_of

#: Two packs and two Jokers for 2–5 players, three and three for 6–8, four and four for 9–12.
JOKERS_IN_PLAY: Final = {
    players: 2 if players <= 5 else 3 if players <= 8 else 4 for players in range(2, 13)
}
#: What each Joker in the winner's hand is worth, in units.
UNITS_A_JOKER: Final = 2


@dataclass(frozen=True)
class ContinentalDeal:
    """Who went out, and how many Jokers were among their melded cards."""

    out: int
    jokers: int

    def entry(self) -> Entry:
        return {"out": self.out, "jokers": self.jokers}


class ContinentalRummy(DealByDeal[ContinentalDeal]):
    name = "continental-rummy"
    min_players = 2
    max_players = 12
    stake = "unit"
    deal_schema = body(
        {
            "out": SEAT,
            "jokers": {
                "type": "integer",
                "minimum": 0,
                "description": "The Jokers among the winner's melded cards.",
            },
        },
        "out",
        "jokers",
    )

    def read(self, setup: Setup, raw: Mapping[str, object]) -> ContinentalDeal:
        reader = Reader()
        reader.unknown(raw, ("out", "jokers"))
        out = reader.seat("out", raw.get("out"), setup.players)
        most = JOKERS_IN_PLAY[setup.players]
        jokers = reader.whole("jokers", raw.get("jokers"), 0, most, "jokers.range")
        deal = None if out is None or jokers is None else ContinentalDeal(out, jokers)
        return reader.result(deal)

    def pays(self, setup: Setup, deal: ContinentalDeal) -> Dealt:
        unit = stake_of(setup, "unit")
        payments: list[Payment] = []
        for seat in range(setup.players):
            if seat != deal.out:
                payments.append(Payment(seat, deal.out, unit, Reason.UNIT))
                if deal.jokers:
                    amount = UNITS_A_JOKER * deal.jokers * unit
                    payments.append(Payment(seat, deal.out, amount, Reason.JOKER))
        return Dealt(deal.out, tuple(payments))

    def deal_warnings(self, setup: Setup, deal: ContinentalDeal) -> list[Problem]:
        if deal.jokers < JOKERS_IN_PLAY[setup.players]:
            return []
        reader = Reader()
        reader.add("jokers", "warning.all_jokers", jokers=deal.jokers)
        return reader.problems


#: Continental Rummy as the app keeps it.
CONTINENTAL_RUMMY = ContinentalRummy()
