"""What a game's page shows of a game of any kind but Mille: its newest deals, each with
what it paid and where it left everyone, and the game as it stands.

A sitting that its scorekeeper ends (a Rummy game, Spoil Five) may run to hundreds of
deals, so its page is read from its ledger, as the league's pages are: each deal's
payments are the game's :class:`~scorekeeper.models.Movement` rows, which every change
rewrites from the engine's replay, with each seat's balance and the pool as the game
stands kept beside them (``Game.balances``, ``Game.pool``). The page reads its newest
deals' entries and movements and takes them back from those to find where the deals
before them left everyone: it costs the same for a sitting of 200 deals as for one of 10,
and nothing is replayed. A game that ends by its own rule (Scotch Whist, kept in points
toward a target) is short, and is replayed by its kind, which alone keeps its points.
Either way the numbers are the engine's: the page shows what the API says (``tests/table``
compares them).
"""

import json
from dataclasses import dataclass, replace
from typing import Final

from sqlalchemy import (
    Integer,
    Text,
    bindparam,
    cast,
    literal,
    null,
    select,
    text,
    type_coerce,
    union_all,
)

from scorekeeper.engine.games import Entry, Line, Payment, Reason, Sitting
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
    deals, closing = _ledger(game, first)
    balances, pool = _before(game, start.pool, [*(paid for *_, paid in deals), closing])
    lines = []
    for number, entry, winner, payments in deals:
        balances, pool = moved(balances, pool, payments)
        dealer = dealer_of(game.first_dealer, number, setup.players)
        lines.append(Line(number, dealer, entry, winner, payments, balances, pool, None, None))
    balances, pool = moved(balances, pool, closing)
    sitting = replace(
        start,
        lines=tuple(lines),
        finished=game.finished,
        closing=closing,
        balances=balances,
        pool=pool,
        next_dealer=dealer_of(game.first_dealer, count + 1, setup.players),
        settlement=fewest_payments(balances) if game.finished else None,
    )
    return Card(sitting, count)


def _before(
    game: Game, pool: int | None, shown: list[tuple[Payment, ...]]
) -> tuple[tuple[int, ...], int | None]:
    """The balances and the pool (None: the game keeps none) before the ``shown`` payments:
    the game's as it stands, less what they moved."""
    assert game.balances is not None  # every game of another kind than Mille keeps them
    moved_by, pool_moved = moved((0,) * len(game.balances), 0, [p for one in shown for p in one])
    balances = tuple(now - by for now, by in zip(game.balances, moved_by, strict=True))
    return balances, None if pool is None else game.pool - (pool_moved or 0)


Dealt = tuple[int, Entry, int | None, tuple[Payment, ...]]

#: A card's ledger read in one statement (``game_id``; ``first``, the first deal shown),
#: two parts in order: (1) each deal from ``first`` on with its payments in the order the
#: engine made them, a row a payment (a deal that paid nothing, a row of none), the deal's
#: entry as its JSON text, read once a deal rather than once a row; (2) what the end of a
#: sitting moved (a pool given back).
_PAID = (Movement.payer_seat, Movement.payee_seat, Movement.amount, Movement.reason)
_LEDGER: Final = union_all(
    select(literal(1), Deal.number, cast(Deal.entry, Text), Deal.winner_seat, *_PAID)
    .add_columns(Movement.id)
    .outerjoin(Movement, (Movement.game_id == Deal.game_id) & (Movement.deal_number == Deal.number))
    .where(Deal.game_id == bindparam("game_id"), Deal.number >= bindparam("first")),
    select(literal(2), type_coerce(null(), Integer), type_coerce(null(), Text))
    .add_columns(type_coerce(null(), Integer), *_PAID, Movement.id)
    .where(Movement.game_id == bindparam("game_id"), Movement.deal_number.is_(None)),
).order_by(text("1, 2, 9"))


def _ledger(game: Game, first: int) -> tuple[list[Dealt], tuple[Payment, ...]]:
    """Each deal from ``first`` on (its number, entry, winner and payments), and what the
    end moved."""
    deals: list[tuple[int, Entry, int | None, list[Payment]]] = []
    closing: list[Payment] = []
    # Fetched at once: a row at a time cost a driver call a row (ten deals of Continental
    # for 12: up to 220 rows).
    rows = db.session.execute(_LEDGER, {"game_id": game.id, "first": first}).all()
    for part, number, entry, winner, payer, payee, amount, reason, _order in rows:
        if part == 1 and (not deals or deals[-1][0] != number):
            deals.append((number, json.loads(entry) if entry else {}, winner, []))
        if amount is None:
            continue  # a deal that paid nothing
        paid = Payment(payer, payee, int(amount), Reason(reason))
        (deals[-1][3] if part == 1 else closing).append(paid)
    dealt = [(number, entry, winner, tuple(paid)) for number, entry, winner, paid in deals]
    return dealt, tuple(closing)
