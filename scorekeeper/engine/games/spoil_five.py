"""Spoil Five (RULES-MORE-GAMES.md §7): a pool that every player antes into when it starts
and the dealer adds to on the other deals, taken by the player who wins three tricks (and
a jink won is paid the ante by every other player besides); a spoilt deal or a failed
jink leaves it for the next deal, and a sitting that ends gives it back to its givers."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .base import Entry, Payment, Problem, Reason, Setup, Sitting
from .ledger import Dealt, check_first_dealer, dealer_of, lines_of, sitting_of
from .reading import Reader, known_rules, read_players, read_stakes
from .schema import NO_RULES, SEAT, body, nullable

JINKS: Final = ("none", "won", "failed")


@dataclass(frozen=True)
class Stakes:
    """Each player's ante when a pool starts, the dealer's stake on the other deals, and the
    most the dealer brings the pool up to (None: no maximum)."""

    ante: int
    dealer: int
    maximum: int | None


@dataclass(frozen=True)
class SpoilDeal:
    """Who won three tricks (None: the deal was spoilt), and how their jink went."""

    winner: int | None
    jink: str

    def entry(self) -> Entry:
        return {"winner": self.winner, "jink": self.jink}

    @property
    def takes_pool(self) -> bool:
        return self.winner is not None and self.jink != "failed"


def read_pool_stakes(reader: Reader, players: int, stakes: Mapping[str, object]) -> Stakes:
    """``ante`` (required), ``dealer`` (the ante unless set) and ``maximum`` (none unless set;
    refused below every player's ante)."""
    amounts = read_stakes(reader, stakes, ("ante",), ("dealer", "maximum"))
    ante = amounts["ante"] or 0
    maximum = amounts["maximum"]
    if ante and maximum is not None and maximum < players * ante:
        reader.add("stakes.maximum", "maximum.below_antes", least=players * ante)
    return Stakes(ante, amounts["dealer"] or ante, maximum)


def read_spoil_deal(players: int, raw: Mapping[str, object]) -> SpoilDeal:
    reader = Reader()
    reader.unknown(raw, ("winner", "jink"))
    spoilt = "winner" in raw and raw["winner"] is None
    winner = None if spoilt else reader.seat("winner", raw.get("winner"), players)
    given = raw.get("jink")
    jink = "none" if given is None else reader.choice("jink", given, JINKS)  # null: left out
    if spoilt and jink not in (None, "none"):
        reader.add("jink", "jink.no_winner")
    return reader.result(None if jink is None else SpoilDeal(winner, jink))


def stakes_in(
    stakes: Stakes, players: int, dealer: int, put_in: Sequence[int] | None
) -> tuple[Payment, ...]:
    """What goes into the pool before a deal: every player's ante when it starts
    (``put_in`` None), else the dealer's stake, only up to the maximum."""
    if put_in is None:
        return tuple(Payment(seat, None, stakes.ante, Reason.ANTE) for seat in range(players))
    amount = stakes.dealer
    if stakes.maximum is not None:
        amount = max(0, min(amount, stakes.maximum - sum(put_in)))
    return (Payment(dealer, None, amount, Reason.DEALER),) if amount else ()


def result(deal: SpoilDeal, stakes: Stakes, players: int, pool: int) -> tuple[Payment, ...]:
    """The pool to its taker, and a won jink's ante from every other player."""
    if deal.winner is None or not deal.takes_pool:
        return ()
    taken = [Payment(None, deal.winner, pool, Reason.POOL)]
    if deal.jink == "won":
        taken += [
            Payment(seat, deal.winner, stakes.ante, Reason.JINK)
            for seat in range(players)
            if seat != deal.winner
        ]
    return tuple(taken)


def added(put_in: Sequence[int] | None, payments: Sequence[Payment], players: int) -> list[int]:
    """What each player has put into the pool, with ``payments`` into it."""
    after = list(put_in or (0,) * players)
    for payment in payments:
        if payment.payee is None and payment.payer is not None:
            after[payment.payer] += payment.amount
    return after


class SpoilFive:
    name = "spoil-five"
    min_players = 2
    max_players = 10
    ends_itself = False
    deal_schema = body(
        {
            "winner": nullable(SEAT, "Who won three tricks; null: the deal was spoilt."),
            "jink": {"enum": list(JINKS), "default": "none"},
        },
        "winner",
    )
    rules_schema = NO_RULES
    stakes_taken: Final = {"ante": True, "dealer": False, "maximum": False}

    def setup(
        self, players: int, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> Setup:
        reader = Reader()
        count = read_players(reader, players, self.min_players, self.max_players)
        known_rules(reader, rules, ())
        read = read_pool_stakes(reader, count, stakes)
        reader.done()
        return Setup(count, {}, {"ante": read.ante, "dealer": read.dealer, "maximum": read.maximum})

    def read_deal(self, setup: Setup, raw: Mapping[str, object]) -> Entry:
        return read_spoil_deal(setup.players, raw).entry()

    def warnings(self, setup: Setup, entry: Entry) -> list[Problem]:
        read_spoil_deal(setup.players, entry)
        return []

    def replay(
        self, setup: Setup, first_dealer: int, entries: Sequence[Entry], *, ended: bool
    ) -> Sitting:
        reader, players = Reader(), setup.players
        stakes = read_pool_stakes(reader, players, setup.stakes)
        reader.done()
        check_first_dealer(setup, first_dealer)
        deals = [read_spoil_deal(players, entry) for entry in entries]
        put_in: list[int] | None = None  # None: the next deal starts a new pool
        dealt: list[Dealt] = []
        for number, deal in enumerate(deals, start=1):
            dealer = dealer_of(first_dealer, number, players)
            payments = stakes_in(stakes, players, dealer, put_in)
            put_in = added(put_in, payments, players)
            payments += result(deal, stakes, players, sum(put_in))
            if deal.takes_pool:
                put_in = None
            dealt.append(Dealt(deal.winner if deal.takes_pool else None, payments))
        closing = pool_back(put_in) if ended else ()
        lines = lines_of(setup, first_dealer, [deal.entry() for deal in deals], dealt, pool=0)
        return sitting_of(setup, first_dealer, lines, finished=ended, closing=closing, pool=0)


def pool_back(put_in: Sequence[int] | None) -> tuple[Payment, ...]:
    """Each player's money in the pool, back to them when the sitting ends."""
    return tuple(
        Payment(None, seat, amount, Reason.POOL_BACK)
        for seat, amount in enumerate(put_in or ())
        if amount
    )


#: Spoil Five as the app keeps it.
SPOIL_FIVE = SpoilFive()
