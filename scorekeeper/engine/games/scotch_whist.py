"""Scotch Whist, or Catch the Ten (RULES-MORE-GAMES.md §6): sides score the trump honours
they took and the cards they took beyond those dealt to them; the game ends after the
first deal with a side at or above the target and highest alone, and each losing player
then pays the game stake, shared by the winning side's players."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..game import DealAfterEnd
from .base import Entry, Payment, Problem, Reason, Setup, Sitting
from .ledger import Dealt, lines_of, sitting_of
from .reading import Reader, complete, known_rules, read_players, read_stakes
from .schema import SIDE, body

#: The trump honours and what each is worth, in the order the API lists them.
HONOURS: Final = {"jack": 11, "ace": 4, "king": 3, "queen": 2, "ten": 10}
#: Cards dealt to each player, by the number of players.
CARDS_DEALT: Final = {2: 18, 3: 12, 4: 9, 5: 7, 6: 6, 7: 5, 8: 4}
#: The pack, A down to 6: without the 6♠ for 5 or 7 players, without the four 6s for 8.
PACK: Final = {2: 36, 3: 36, 4: 36, 5: 35, 6: 36, 7: 35, 8: 32}
#: Partnerships are played by an even number of players, in pairs.
PARTNERSHIP_PLAYERS: Final = (4, 6, 8)
DEFAULT_TARGET: Final = 41
MIN_TARGET: Final = 1
MAX_TARGET: Final = 1000

assert all(PACK[players] == players * CARDS_DEALT[players] for players in PACK)


@dataclass(frozen=True)
class Table:
    """A game's setup, read: its players, whether they play in pairs, the target, the stake."""

    players: int
    partnerships: bool
    target: int
    game: int

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """A seat each, or pairs of players n/2 seats apart (side i: seats i and i + n/2)."""
        if not self.partnerships:
            return tuple((seat,) for seat in range(self.players))
        half = self.players // 2
        return tuple((side, side + half) for side in range(half))


@dataclass(frozen=True)
class WhistDeal:
    """The side that took each honour (in :data:`HONOURS`' order) and each side's cards."""

    honours: tuple[int, ...]
    cards: tuple[int, ...]

    def entry(self) -> Entry:
        return {"honours": dict(zip(HONOURS, self.honours, strict=True)), "cards": list(self.cards)}

    def scores(self, table: Table) -> tuple[int, ...]:
        """Each side's honours, and 1 for every card beyond those dealt to its players."""
        dealt = CARDS_DEALT[table.players]
        return tuple(
            sum(
                worth
                for worth, taker in zip(HONOURS.values(), self.honours, strict=True)
                if taker == side
            )
            + max(0, cards - len(players) * dealt)
            for side, (players, cards) in enumerate(zip(table.sides, self.cards, strict=True))
        )


def read_table(
    reader: Reader, players: object, rules: Mapping[str, object], stakes: Mapping[str, object]
) -> Table:
    """The setup: 2 to 8 players, a target from 1 to 1,000 (41), partnerships (false) only
    with 4, 6 or 8 players, and the ``game`` stake."""
    count = read_players(reader, players, 2, 8)
    known_rules(reader, rules, ("target", "partnerships"))
    target = rules.get("target")
    target = (
        DEFAULT_TARGET
        if target is None
        else reader.whole("rules.target", target, MIN_TARGET, MAX_TARGET, "target.range")
    )
    pairs = rules.get("partnerships")
    partnerships = False if pairs is None else reader.boolean("rules.partnerships", pairs)
    if partnerships and count not in PARTNERSHIP_PLAYERS:
        reader.add("rules.partnerships", "partnerships.players")
    game = read_stakes(reader, stakes, ("game",))["game"]
    reader.done()
    return Table(count, bool(partnerships), target or DEFAULT_TARGET, game or 0)


def read_whist_deal(table: Table, raw: Mapping[str, object]) -> WhistDeal:
    reader = Reader()
    reader.unknown(raw, ("honours", "cards"))
    sides = len(table.sides)
    taken = reader.mapping("honours", raw.get("honours"))
    takers: list[int | None] = []
    if taken is not None:
        reader.unknown(taken, HONOURS, "honours.")
        takers = [
            reader.seat(f"honours.{name}", taken.get(name), sides, "side.range") for name in HONOURS
        ]
    cards = read_cards(reader, table, raw.get("cards"))
    if cards is not None:
        for name, side in zip(HONOURS, takers, strict=False):
            if side is not None and cards[side] == 0:
                reader.add(f"honours.{name}", "honour.no_trick", side=side)
    honours = complete(takers) if taken is not None else None
    counted = complete(cards)
    return reader.result(
        None if honours is None or counted is None else WhistDeal(honours, counted)
    )


def read_cards(reader: Reader, table: Table, value: object) -> list[int | None] | None:
    """Each side's cards: whole tricks (a multiple of the players), adding up to the pack."""
    values = reader.listed("cards", value, len(table.sides))
    if values is None:
        return None
    pack, trick = PACK[table.players], table.players
    cards: list[int | None] = []
    for side, given in enumerate(values):
        number = reader.whole(f"cards.{side}", given, 0, pack, "cards.range")
        if number is not None and number % trick:
            reader.add(f"cards.{side}", "cards.step", step=trick)
            number = None
        cards.append(number)
    read = complete(cards)
    if read is not None and sum(read) != pack:
        reader.add("cards", "cards.total", total=pack)
    return cards


def winning_side(target: int, totals: Sequence[int]) -> int | None:
    """The side that has won once a deal is over: at or above the target with the highest
    total alone; None while play goes on (a tie for the highest plays on)."""
    highest = max(totals)
    if highest < target or list(totals).count(highest) > 1:
        return None
    return list(totals).index(highest)


def game_payments(table: Table, side: int) -> tuple[Payment, ...]:
    """Each losing player pays the game stake to one of the winners, the losers in seat order
    taking the winners in turn, so the winners share it equally, a whole stake each line."""
    winners = table.sides[side]
    losers = [seat for seat in range(table.players) if seat not in winners]
    return tuple(
        Payment(loser, winners[index % len(winners)], table.game, Reason.GAME)
        for index, loser in enumerate(losers)
    )


class ScotchWhist:
    name = "scotch-whist"
    min_players = 2
    max_players = 8
    ends_itself = True
    deal_schema = body(
        {
            "honours": body(
                dict.fromkeys(HONOURS, SIDE),
                *HONOURS,
            ),
            "cards": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "description": "The cards each side took in tricks, in side order.",
            },
        },
        "honours",
        "cards",
    )
    rules_schema = body(
        {
            "target": {
                "type": "integer",
                "minimum": MIN_TARGET,
                "maximum": MAX_TARGET,
                "default": DEFAULT_TARGET,
            },
            "partnerships": {
                "type": "boolean",
                "default": False,
                "description": "With 4, 6 or 8 players: pairs n/2 seats apart.",
            },
        }
    )
    stakes_taken: Final = {"game": True}

    def setup(
        self, players: int, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> Setup:
        table = read_table(Reader(), players, rules, stakes)
        return Setup(
            players=table.players,
            rules={"target": table.target, "partnerships": table.partnerships},
            stakes={"game": table.game},
        )

    def read_deal(self, setup: Setup, raw: Mapping[str, object]) -> Entry:
        return read_whist_deal(self._table(setup), raw).entry()

    def warnings(self, setup: Setup, entry: Entry) -> list[Problem]:
        read_whist_deal(self._table(setup), entry)
        return []

    def replay(
        self, setup: Setup, first_dealer: int, entries: Sequence[Entry], *, ended: bool
    ) -> Sitting:
        """Ends by its own rule (``ended`` is ignored); :class:`DealAfterEnd` when a deal
        follows the one that ended it."""
        table = self._table(setup)
        deals = [read_whist_deal(table, entry) for entry in entries]
        totals = (0,) * len(table.sides)
        won: int | None = None
        dealt: list[Dealt] = []
        for number, deal in enumerate(deals, start=1):
            if won is not None:
                raise DealAfterEnd(ended_at=number - 1, count=len(deals))
            scores = deal.scores(table)
            totals = tuple(total + score for total, score in zip(totals, scores, strict=True))
            won = winning_side(table.target, totals)
            payments = () if won is None else game_payments(table, won)
            dealt.append(Dealt(None, payments, scores, totals))
        lines = lines_of(setup, first_dealer, [deal.entry() for deal in deals], dealt)
        return sitting_of(
            setup,
            first_dealer,
            lines,
            finished=won is not None,
            sides=table.sides,
            totals=totals,
            winners=None if won is None else table.sides[won],
        )

    @staticmethod
    def _table(setup: Setup) -> Table:
        return read_table(Reader(), setup.players, setup.rules, setup.stakes)


#: Scotch Whist as the app keeps it.
SCOTCH_WHIST = ScotchWhist()
