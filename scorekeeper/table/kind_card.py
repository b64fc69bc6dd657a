"""What a game's page shows of a game of any kind but Mille: its newest deals, each with
what it paid and where it left everyone, and the game as it stands.

A sitting that its scorekeeper ends (a Rummy game, Spoil Five) may run to hundreds of
deals, so its page is read from its ledger, as the league's pages are: each deal's
payments are the game's :class:`~scorekeeper.models.Movement` rows, which every change
rewrites from the engine's replay, and the balances and the pool are sums over them. The
page then costs the same for a sitting of 200 deals as for one of 10: the newest deals'
entries and movements, and one sum for the deals before them; nothing is replayed. A game
that ends by its own rule (Scotch Whist, kept in points toward a target) is short, and is
replayed by its kind, which alone keeps its points. Either way the numbers are the
engine's: the page shows what the API says (``tests/table`` compares them).
"""

from dataclasses import dataclass, replace
from typing import Final

from sqlalchemy import bindparam, func, select

from scorekeeper.engine.games import Line, Payment, Reason, Sitting
from scorekeeper.engine.games.ledger import dealer_of, moved
from scorekeeper.engine.settle_up import fewest_payments
from scorekeeper.models import Deal, Game, Movement, db
from scorekeeper.table import kind_service


@dataclass(frozen=True)
class Card:
    """A game as its page shows it: a :class:`Sitting` whose ``lines`` are its newest
    deals only (``deals`` says how many it has)."""

    sitting: Sitting
    deals: int

    @classmethod
    def newest_of(cls, sitting: Sitting, newest: int | None) -> "Card":
        """``sitting`` (a replay) with its ``newest`` deals (every one: None)."""
        count = len(sitting.lines)
        shown = sitting.lines if newest is None else sitting.lines[max(0, count - newest) :]
        return cls(replace(sitting, lines=tuple(shown)), count)


def card_of(game: Game, newest: int | None) -> Card:
    """The game's card, its ``newest`` deals on it (every one: None)."""
    kind = kind_service.kind_of(game)
    if kind.ends_itself:
        return Card.newest_of(kind_service.sitting_of(game, kind_service.entries_of(game)), newest)
    return _from_ledger(game, game.deal_count if newest is None else newest)


def _from_ledger(game: Game, newest: int) -> Card:
    setup = kind_service.setup_of(game)
    count = game.deal_count
    first = max(1, count - newest + 1)  # the first deal shown
    # Where the game starts (no deal): its sides, and whether it keeps a pool (0) or not.
    start = kind_service.kind_of(game).replay(setup, game.first_dealer, (), ended=False)
    balances, pool = _before(game, first, setup.players, start.pool)
    paid, closing = _movements(game, first)
    lines = []
    for number, entry, winner in _entries(game, first):
        payments = paid.get(number, ())
        balances, pool = moved(balances, pool, payments)
        dealer = dealer_of(game.first_dealer, number, setup.players)
        lines.append(Line(number, dealer, entry, winner, payments, balances, pool, None, None))
    balances, pool = moved(balances, pool, closing)
    finished = game.finished
    sitting = replace(
        start,
        lines=tuple(lines),
        finished=finished,
        closing=closing,
        balances=balances,
        pool=pool,
        next_dealer=dealer_of(game.first_dealer, count + 1, setup.players),
        settlement=fewest_payments(balances) if finished else None,
    )
    return Card(sitting, count)


#: The statements of a card read from the ledger, built once (``game_id``, ``first``: the
#: first deal shown).
_ENTRIES: Final = (
    select(Deal.number, Deal.entry, Deal.winner_seat)
    .where(Deal.game_id == bindparam("game_id"), Deal.number >= bindparam("first"))
    .order_by(Deal.number)
)
_MOVED: Final = select(
    Movement.deal_number, Movement.payer_seat, Movement.payee_seat, Movement.amount, Movement.reason
).where(Movement.game_id == bindparam("game_id"))
#: The deals' from ``first`` on, and, once a sitting has ended, what its end moved.
_MOVED_SINCE: Final = _MOVED.where(Movement.deal_number >= bindparam("first")).order_by(Movement.id)
_MOVED_SINCE_AND_END: Final = _MOVED.where(
    (Movement.deal_number >= bindparam("first")) | Movement.deal_number.is_(None)
).order_by(Movement.id)
_SUMS_BEFORE: Final = (
    select(Movement.payer_seat, Movement.payee_seat, func.sum(Movement.amount))
    .where(Movement.game_id == bindparam("game_id"), Movement.deal_number < bindparam("first"))
    .group_by(Movement.payer_seat, Movement.payee_seat)
)


def _entries(game: Game, first: int) -> list[tuple[int, dict[str, object], int | None]]:
    rows = db.session.execute(_ENTRIES, {"game_id": game.id, "first": first})
    return [(number, entry or {}, winner) for number, entry, winner in rows]


def _movements(
    game: Game, first: int
) -> tuple[dict[int, tuple[Payment, ...]], tuple[Payment, ...]]:
    """The payments of each deal from ``first`` on, in the order the engine made them, and
    those of the game's end (a pool given back)."""
    moved_since = _MOVED_SINCE_AND_END if game.finished else _MOVED_SINCE
    rows = db.session.execute(moved_since, {"game_id": game.id, "first": first})
    by_deal: dict[int | None, list[Payment]] = {}
    for number, payer, payee, amount, reason in rows:
        by_deal.setdefault(number, []).append(Payment(payer, payee, amount, Reason(reason)))
    closing = tuple(by_deal.pop(None, ()))
    return {int(n): tuple(p) for n, p in by_deal.items() if n is not None}, closing


def _before(
    game: Game, first: int, seats: int, pool: int | None
) -> tuple[tuple[int, ...], int | None]:
    """Each seat's balance and the pool after the deals before ``first``: sums over their
    movements, one statement."""
    balances = [0] * seats
    if first > 1:
        sums = db.session.execute(_SUMS_BEFORE, {"game_id": game.id, "first": first})
        for payer, payee, amount in sums:
            if payer is None:
                pool = (pool or 0) - int(amount)
            else:
                balances[payer] -= int(amount)
            if payee is None:
                pool = (pool or 0) + int(amount)
            else:
                balances[payee] += int(amount)
    return tuple(balances), pool
