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

from scorekeeper.engine.games import Line, Payment, Sitting
from scorekeeper.models import Game
from scorekeeper.web.formatting import money, number, signed, signed_money
from scorekeeper.web.payment_words import paid_words, pays_words
from scorekeeper.web.translation import gettext


@dataclass(frozen=True)
class Cell:
    """One column of a deal's row: what the deal changed (a score, or money won or lost),
    what it left (a total, a balance), and whether that is a gain or a loss."""

    change: str
    standing: str
    sign: int


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


@dataclass(frozen=True)
class ShownSitting:
    game: Game
    sitting: Sitting
    names: list[str]
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

    @classmethod
    def of(cls, game: Game, sitting: Sitting) -> "ShownSitting":
        names = [player.name for player in game.seated]
        in_points = sitting.totals is not None
        columns = [" & ".join(names[seat] for seat in side) for side in sitting.sides]
        target = sitting.setup.rules.get("target")
        return cls(
            game=game,
            sitting=sitting,
            names=names,
            columns=columns,
            in_points=in_points,
            rows=[_row(line, names, in_points) for line in sitting.lines],
            standings=_standings(sitting, names, columns),
            pool=None if sitting.pool is None else money(sitting.pool),
            next_dealer=names[sitting.next_dealer],
            target=target if isinstance(target, int) and not isinstance(target, bool) else None,
            settling=_settling(sitting, names, paid=game.locked),
            closing=paid_words(sitting.closing, names, money),
        )

    @property
    def finished(self) -> bool:
        return self.sitting.finished

    @property
    def deals(self) -> int:
        return len(self.sitting.lines)


def _row(line: Line, names: Sequence[str], in_points: bool) -> Row:
    if in_points:
        assert line.scores is not None
        assert line.totals is not None
        cells = [
            Cell(signed(score), number(total), score)
            for score, total in zip(line.scores, line.totals, strict=True)
        ]
    else:
        changes = _changes(line.payments, len(names))
        cells = [
            Cell(signed_money(change) if change else "", money(balance), change)
            for change, balance in zip(changes, line.balances, strict=True)
        ]
    return Row(
        line=line,
        dealer=names[line.dealer],
        paid=paid_words(line.payments, names, money),
        cells=cells,
        pool=None if line.pool is None else money(line.pool),
    )


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
        )
        for payer, payments in by_payer.items()
    ]


def _made_of(sitting: Sitting, seats: int) -> list[list[str]]:
    """For each seat, every deal that moved its balance and by how much ("deal 3: −$1.00"),
    then what the end of the sitting gave back."""
    made: list[list[str]] = [[] for _ in range(seats)]
    for line in sitting.lines:
        for seat, change in enumerate(_changes(line.payments, seats)):
            if change:
                made[seat].append(
                    gettext(
                        "deal %(number)s: %(amount)s",
                        number=line.number,
                        amount=signed_money(change),
                    )
                )
    for seat, change in enumerate(_changes(sitting.closing, seats)):
        if change:
            made[seat].append(
                gettext("the pool given back: %(amount)s", amount=signed_money(change))
            )
    return made
