"""Money as a ledger: every deal's payments are rows, and the balances, the pool and the
settlement are sums over them (RULES-MORE-GAMES.md §0), the same for every game."""

from collections.abc import Sequence
from dataclasses import dataclass

from ..settle_up import fewest_payments
from .base import Entry, Line, Payment, Setup, Sitting


@dataclass(frozen=True)
class Dealt:
    """What one deal did: the seat it paid (None: nobody), the money it moved, and, in a
    game kept in points, each side's deal score and running total."""

    winner: int | None
    payments: tuple[Payment, ...]
    scores: tuple[int, ...] | None = None
    totals: tuple[int, ...] | None = None


def dealer_of(first_dealer: int, number: int, players: int) -> int:
    """The dealer of deal ``number`` (from 1): the first dealer + number − 1, round the table."""
    return (first_dealer + number - 1) % players


def check_first_dealer(setup: Setup, first_dealer: int) -> None:
    """ValueError unless ``first_dealer`` is one of the game's seats."""
    if isinstance(first_dealer, bool) or not 0 <= first_dealer < setup.players:
        raise ValueError(f"the first dealer must be a seat from 0 to {setup.players - 1}")


def seats_alone(players: int) -> tuple[tuple[int, ...], ...]:
    """Every player a side of their own."""
    return tuple((seat,) for seat in range(players))


def moved(
    balances: Sequence[int], pool: int | None, payments: Sequence[Payment]
) -> tuple[tuple[int, ...], int | None]:
    """The balances and the pool after ``payments`` (a payer or payee of None is the pool)."""
    after = list(balances)
    for payment in payments:
        if payment.payer is None:
            pool = (pool or 0) - payment.amount
        else:
            after[payment.payer] -= payment.amount
        if payment.payee is None:
            pool = (pool or 0) + payment.amount
        else:
            after[payment.payee] += payment.amount
    return tuple(after), pool


def lines_of(
    setup: Setup,
    first_dealer: int,
    entries: Sequence[Entry],
    dealt: Sequence[Dealt],
    *,
    pool: int | None = None,
) -> tuple[Line, ...]:
    """The card's lines: each deal with its dealer and the balances (and the pool, when the
    game keeps one: ``pool`` is then where it starts, 0) after it."""
    check_first_dealer(setup, first_dealer)
    balances: tuple[int, ...] = (0,) * setup.players
    lines = []
    for number, (entry, deal) in enumerate(zip(entries, dealt, strict=True), start=1):
        balances, pool = moved(balances, pool, deal.payments)
        dealer = dealer_of(first_dealer, number, setup.players)
        lines.append(
            Line(
                number,
                dealer,
                entry,
                deal.winner,
                deal.payments,
                balances,
                pool,
                deal.scores,
                deal.totals,
            )
        )
    return tuple(lines)


def sitting_of(
    setup: Setup,
    first_dealer: int,
    lines: Sequence[Line],
    *,
    finished: bool,
    closing: Sequence[Payment] = (),
    pool: int | None = None,
    sides: tuple[tuple[int, ...], ...] | None = None,
    totals: tuple[int, ...] | None = None,
    winners: tuple[int, ...] | None = None,
) -> Sitting:
    """The game after ``lines`` and the ``closing`` payments; settled with the fewest
    payments once ``finished``. ``pool`` is the pool before the first deal (0) in a game
    that keeps one."""
    check_first_dealer(setup, first_dealer)
    if lines:
        balances, pool = lines[-1].balances, lines[-1].pool
    else:
        balances = (0,) * setup.players
    balances, pool = moved(balances, pool, closing)
    return Sitting(
        setup=setup,
        first_dealer=first_dealer,
        lines=tuple(lines),
        finished=finished,
        sides=seats_alone(setup.players) if sides is None else sides,
        closing=tuple(closing),
        balances=balances,
        pool=pool,
        totals=totals,
        winners=winners,
        next_dealer=dealer_of(first_dealer, len(lines) + 1, setup.players),
        settlement=fewest_payments(balances) if finished else None,
    )
