"""A game of any kind but Mille as its page shows it: each deal with what it paid in
words and where it left every player, the balances, the pool, who deals next, each side's
total, and once it is over, the fewest payments that settle it with the deals that made
each.

Read once from the game's :class:`~scorekeeper.engine.games.Sitting` (the replay of the
change just made, or of its deals) and worded here, in the page's language: the template
draws strings, and nothing in it adds money up or knows one game from another. A game
kept in points (a side's total, toward a target: Scotch Whist) shows each side's score and
total per deal; every other one each player's running balance in money.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from scorekeeper.engine.games import Line, Payment, Sitting
from scorekeeper.models import Game
from scorekeeper.table.kind_card import Card
from scorekeeper.web.formatting import money, number, signed, signed_money
from scorekeeper.web.payment_words import Written, paid_words, pays_words
from scorekeeper.web.translation import gettext

#: The deals the card shows in full unless it is asked for every one: the newest, those a
#: table looks back at and fixes. The card of a long sitting costs the same to draw as a
#: short one's, and its balances after the last deal are on it whole.
CARD_SHOWN: Final = 10


@dataclass(frozen=True)
class Cell:
    """One column of a deal's row: what it left (a total, a balance), the deal's own score
    (a game kept in points; its money is said in words), and how the deal went for it
    (``gain``, ``loss``, and ``winner`` for the seat it paid: CSS classes)."""

    standing: str
    change: str = ""
    mark: str = ""


@dataclass(frozen=True)
class Row:
    """A deal on the card."""

    line: Line
    dealer: str
    #: What the deal paid, a sentence per payment (none for a deal that moved no money).
    paid: list[str]
    cells: list[Cell]
    #: The pool after the deal, written (games with a pool).
    pool: str | None


@dataclass(frozen=True)
class Standing:
    """A column of the summary: a player (or a side) and where they stand."""

    name: str
    amount: str
    sign: int
    #: Points toward the target (a side of a game kept in points), else None.
    total: int | None = None
    won: bool = False
    deals_next: bool = False


@dataclass(frozen=True)
class Settling:
    """A payer's part of the fewest payments that settle a finished game ("Cy pays Ana
    $3.10"), with the deals that made the payer's balance."""

    payments: list[str]
    payer: str
    #: The payer's balance, and each deal (and the end) that moved it.
    balance: str
    lines: list[str]
    #: The payer's seat.
    seat: int


@dataclass(frozen=True)
class ShownSitting:
    game: Game
    sitting: Sitting
    names: list[str]
    #: The deals not drawn on the card (the oldest), unless every one is asked for.
    hidden: int
    #: The card's columns: each side's players' names (a seat each, or pairs).
    columns: list[str]
    #: Whether the card's columns are points toward a target (else money).
    in_points: bool
    rows: list[Row]
    standings: list[Standing]
    pool: str | None
    next_dealer: str
    target: int | None
    settling: list[Settling]
    #: What moved when the sitting ended (the pool given back), in sentences.
    closing: list[str]
    #: How many deals the game has.
    deals: int

    @classmethod
    def of(cls, game: Game, card: Card, *, every_deal: bool = False) -> "ShownSitting":
        """The game as ``card`` says it; its newest :data:`CARD_SHOWN` deals drawn, or
        ``every_deal`` it holds."""
        sitting = card.sitting
        names = [player.name for player in game.seated]
        skipped = 0 if every_deal else max(0, len(sitting.lines) - CARD_SHOWN)
        hidden = card.deals - len(sitting.lines) + skipped
        in_points = sitting.totals is not None
        columns = [" & ".join(names[seat] for seat in side) for side in sitting.sides]
        target = sitting.setup.rules.get("target")
        # The same amounts come back deal after deal: each is written once per page.
        written: Written = cache(money)
        return cls(
            game=game,
            sitting=sitting,
            names=names,
            hidden=hidden,
            columns=columns,
            in_points=in_points,
            rows=[_row(line, names, in_points, written) for line in sitting.lines[skipped:]],
            standings=_standings(sitting, names, columns),
            pool=None if sitting.pool is None else money(sitting.pool),
            deals=card.deals,
            next_dealer=names[sitting.next_dealer],
            target=target if isinstance(target, int) and not isinstance(target, bool) else None,
            settling=_settling(sitting, names, paid=game.locked),
            closing=paid_words(sitting.closing, names, money),
        )

    @property
    def finished(self) -> bool:
        return self.sitting.finished


def _row(line: Line, names: Sequence[str], in_points: bool, written: Written) -> Row:
    if in_points:
        assert line.scores is not None
        assert line.totals is not None
        cells = [
            Cell(number(total), signed(score))
            for score, total in zip(line.scores, line.totals, strict=True)
        ]
    else:
        changes = _changes(line.payments, len(names))
        cells = [
            Cell(written(balance), mark=_mark(change, seat == line.winner))
            for seat, (change, balance) in enumerate(zip(changes, line.balances, strict=True))
        ]
    return Row(
        line=line,
        dealer=names[line.dealer],
        paid=paid_words(line.payments, names, written),
        cells=cells,
        pool=None if line.pool is None else written(line.pool),
    )


def _mark(change: int, winner: bool) -> str:
    sign = "gain" if change > 0 else "loss" if change < 0 else ""
    return f"{sign} winner" if winner else sign


def _changes(payments: Sequence[Payment], seats: int) -> list[int]:
    """What ``payments`` did to each seat's balance."""
    changes = [0] * seats
    for payment in payments:
        if payment.payer is not None:
            changes[payment.payer] -= payment.amount
        if payment.payee is not None:
            changes[payment.payee] += payment.amount
    return changes


def _standings(sitting: Sitting, names: Sequence[str], columns: Sequence[str]) -> list[Standing]:
    """Each side's total toward the target (a game kept in points), else each player's
    balance."""
    winners = set(sitting.winners or ())
    if sitting.totals is not None:
        return [
            Standing(column, number(total), total, total, won=bool(winners & set(side)))
            for column, total, side in zip(columns, sitting.totals, sitting.sides, strict=True)
        ]
    going_on = not sitting.finished
    return [
        Standing(
            name,
            signed_money(balance),
            balance,
            deals_next=going_on and seat == sitting.next_dealer,
        )
        for seat, (name, balance) in enumerate(zip(names, sitting.balances, strict=True))
    ]


def _settling(sitting: Sitting, names: Sequence[str], *, paid: bool) -> list[Settling]:
    """The settlement's payments, each with how its payer's balance was made."""
    if sitting.settlement is None:
        return []
    made = _made_of(sitting, len(names))
    by_payer: dict[int, list[str]] = {}
    for transfer in sitting.settlement:
        by_payer.setdefault(transfer.payer, []).append(
            pays_words(transfer, names, money, paid=paid)
        )
    return [
        Settling(
            payments=payments,
            payer=names[payer],
            balance=signed_money(sitting.balances[payer]),
            lines=made[payer],
            seat=payer,
        )
        for payer, payments in by_payer.items()
    ]


def _made_of(sitting: Sitting, seats: int) -> list[list[str]]:
    """For each seat, every deal that moved its balance and by how much ("deal 3: −$1.00"),
    then what the end of the sitting gave back."""
    made: list[list[str]] = [[] for _ in range(seats)]
    deal = gettext("deal %(number)s: %(amount)s")  # worded once, filled in for each deal
    for line in sitting.lines:
        for seat, change in enumerate(_changes(line.payments, seats)):
            if change:
                made[seat].append(deal % {"number": line.number, "amount": signed_money(change)})
    for seat, change in enumerate(_changes(sitting.closing, seats)):
        if change:
            made[seat].append(
                gettext("the pool given back: %(amount)s", amount=signed_money(change))
            )
    return made
