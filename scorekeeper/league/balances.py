"""Who owes whom: each pair's unpaid balance, the games behind it, and the payments made,
read from the pair records of Mille's games (:mod:`..records.totals`), and the other games'
unpaid settlements added up per pair."""

from collections import defaultdict
from dataclasses import dataclass
from typing import Final

from sqlalchemy import ColumnElement, and_, bindparam, func, or_, select, tuple_
from sqlalchemy.orm import aliased, joinedload

from scorekeeper.engine.settle_up import fewest_payments
from scorekeeper.league.queries import PAGE_SIZE, GameFilters, seat_conditions
from scorekeeper.models import (
    FINISHED,
    MILLE,
    AuditEvent,
    Game,
    GameSeat,
    Movement,
    PairRecord,
    Player,
    User,
    db,
)
from scorekeeper.table.audit import IMPORTED


@dataclass(frozen=True)
class Balance:
    """What one player owes another over their unpaid games, netted."""

    debtor: Player
    creditor: Player
    amount: int  # cents, netted; 0 when they are even
    games: int
    debtor_won: int  # cents the debtor won in those games, before netting
    creditor_won: int

    @property
    def even(self) -> bool:
        return self.amount == 0


#: The two players of a pair record, made once: a fresh ``aliased()`` on every request
#: makes SQLAlchemy build and compile the statement anew each time (its cache keys on them).
_PAIR_PLAYER, _PAIR_OPPONENT = aliased(Player), aliased(Player)


_UNPAID_PAIRS: Final = (
    select(PairRecord, _PAIR_PLAYER, _PAIR_OPPONENT)
    .join(_PAIR_PLAYER, _PAIR_PLAYER.id == PairRecord.player_id)
    .join(_PAIR_OPPONENT, _PAIR_OPPONENT.id == PairRecord.opponent_id)
    .where(
        PairRecord.league_id == bindparam("league_id"),
        PairRecord.player_id < PairRecord.opponent_id,  # each pair once
        PairRecord.unpaid_games > 0,
    )
)


def balances(league_id: int) -> list[Balance]:
    """Unpaid settlements netted per pair of players, largest debt first."""
    rows = db.session.execute(_UNPAID_PAIRS, {"league_id": league_id})
    found = [_balance(pair, first, second) for pair, first, second in rows]
    found.sort(key=lambda b: (-b.amount, b.debtor.name_key, b.creditor.name_key))
    return found


def balance_between(first: Player, second: Player) -> Balance | None:
    """What two players owe each other over their unpaid games; None if nothing is unpaid."""
    pair = db.session.get(PairRecord, (first.id, second.id))
    return _balance(pair, first, second) if pair and pair.unpaid_games else None


def _balance(pair: PairRecord, first: Player, second: Player) -> Balance:
    """The balance of a pair record (``first``'s side): the one who won less owes; two who
    are even are named in alphabetical order."""
    won = {first.id: pair.unpaid_won, second.id: pair.unpaid_lost}
    debtor, creditor = sorted((first, second), key=lambda p: (won[p.id], p.name_key))
    amount = won[creditor.id] - won[debtor.id]
    return Balance(debtor, creditor, amount, pair.unpaid_games, won[debtor.id], won[creditor.id])


def unpaid_between(league_id: int, player_id: int, other_id: int, through: int) -> list[Game]:
    """The unpaid finished games of two players up to game ``through``, to mark them paid."""
    sides = seat_conditions(GameFilters(player=player_id, opponent=other_id))
    return list(
        db.session.scalars(
            select(Game)
            .options(joinedload(Game.player0), joinedload(Game.player1))
            .where(
                Game.league_id == league_id,
                Game.status == FINISHED,
                Game.paid_at.is_(None),
                Game.abandoned_at.is_(None),
                Game.id <= through,
                or_(*sides),
            )
            .order_by(Game.id)
        )
    )


def owed_to(player_id: int, games: list[Game]) -> int:
    """Cents owed to the player over ``games`` (their winnings minus their losses)."""
    return sum(
        (game.amount_due or 0) * (1 if game.player(game.winner_seat or 0).id == player_id else -1)
        for game in games
    )


@dataclass(frozen=True)
class Payment:
    game: Game
    marked_by: str | None
    #: Paid as a file said, not marked here: who imported it (None: nobody since removed).
    imported_by: str | None = None
    imported: bool = False
    #: Who paid whom, and how much in all: Mille's loser to its winner, its amount due; in
    #: any other game, every player who ended below zero to every one above, the sum of
    #: what they were owed (its settlement's total).
    payers: tuple[Player, ...] = ()
    payees: tuple[Player, ...] = ()
    amount: int = 0


@dataclass(frozen=True)
class PaymentPage:
    payments: list[Payment]
    older: int | None  # the game to continue after (``after=``)


_IMPORT_EVENT, _IMPORTER = aliased(AuditEvent), aliased(User)
#: A league's payments, latest first, keyset on the payment time and game id: built once
#: per process, not per request (issue 26), and bound to ``league_id`` and ``limit``.
_PAYMENTS = (
    select(Game, User.username, _IMPORT_EVENT.id, _IMPORTER.username)
    .options(joinedload(Game.player0), joinedload(Game.player1))
    .outerjoin(User, User.id == Game.paid_by_id)
    .outerjoin(
        _IMPORT_EVENT,
        and_(
            _IMPORT_EVENT.game_id == Game.id,
            _IMPORT_EVENT.action == IMPORTED,
            Game.paid_by_id.is_(None),
        ),
    )
    .outerjoin(_IMPORTER, _IMPORTER.id == _IMPORT_EVENT.user_id)
    .where(Game.league_id == bindparam("league_id"), Game.paid_at.is_not(None))
    .order_by(Game.paid_at.desc(), Game.id.desc())
    .limit(bindparam("limit"))
)
#: The same, after a game (``after``, paid at ``paid_at``): an older page.
_PAYMENTS_AFTER = _PAYMENTS.where(
    tuple_(Game.paid_at, Game.id) < tuple_(bindparam("paid_at"), bindparam("after"))
)


def payments(league_id: int, *, after: int | None = None, limit: int = PAGE_SIZE) -> PaymentPage:
    """Games marked paid, latest payment first (keyset on the payment time and game id)."""
    query = _PAYMENTS
    values: dict[str, object] = {"league_id": league_id, "limit": limit + 1}
    if after is not None:
        cursor = db.session.execute(
            select(Game.paid_at).where(Game.id == after, Game.league_id == league_id)
        ).scalar_one_or_none()
        if cursor is not None:
            query, values = _PAYMENTS_AFTER, {**values, "paid_at": cursor, "after": after}
    rows = db.session.execute(query, values).all()
    games = [row[0] for row in rows[:limit]]
    sides = _sides_of(games)
    found = [
        Payment(game, username, imported_by, event is not None, *sides[game.id])
        for game, username, event, imported_by in rows[:limit]
    ]
    return PaymentPage(found, found[-1].game.id if len(rows) > limit else None)


#: A payment's payers, payees and amount.
Sides = tuple[tuple[Player, ...], tuple[Player, ...], int]


def _sides_of(games: list[Game]) -> dict[int, Sides]:
    """Each game's payers, payees and amount paid (:class:`Payment`): a game of Mille's
    from its columns, the others' from the sums of their ledgers (two reads for all of them
    when there are some, none when there are not)."""
    sides: dict[int, Sides] = {
        game.id: (
            (game.player(1 - (game.winner_seat or 0)),),
            (game.player(game.winner_seat or 0),),
            game.amount_due or 0,
        )
        for game in games
        if game.kind == MILLE
    }
    others = [game.id for game in games if game.kind != MILLE]
    if not others:
        return sides
    nets = _balances_of(Movement.game_id.in_(others))
    seated = db.session.execute(
        select(GameSeat.game_id, GameSeat.seat, Player)
        .join(Player, Player.id == GameSeat.player_id)
        .where(GameSeat.game_id.in_(others))
        .order_by(GameSeat.game_id, GameSeat.seat)
    )
    players = {(game_id, seat): player for game_id, seat, player in seated}
    for game_id in others:
        by_seat = sorted(nets.get(game_id, {}).items())
        sides[game_id] = (
            tuple(players[game_id, seat] for seat, net in by_seat if net < 0),
            tuple(players[game_id, seat] for seat, net in by_seat if net > 0),
            sum(net for _, net in by_seat if net > 0),
        )
    return sides


@dataclass(frozen=True)
class Debt:
    """What one player owes another over the unpaid games of the other kinds than Mille:
    each game's own settlement (its fewest payments), added up and netted per pair."""

    debtor: Player
    creditor: Player
    amount: int
    games: int


def other_games_debts(league_id: int) -> list[Debt]:
    """Who owes whom over the unpaid finished games of kinds other than Mille, largest
    first: a pair's payments in each game's settlement, netted. One read when there are none,
    two when there are, whatever the league's size (the unpaid games are few)."""
    balances = _unpaid_balances(league_id)
    if not balances:
        return []
    seats = db.session.execute(
        select(GameSeat.game_id, GameSeat.seat, Player)
        .join(Player, Player.id == GameSeat.player_id)
        .where(GameSeat.game_id.in_(list(balances)))
    )
    players = {(game_id, seat): player for game_id, seat, player in seats}
    owed: dict[tuple[Player, Player], int] = defaultdict(int)
    games: dict[tuple[Player, Player], set[int]] = defaultdict(set)
    for game_id, by_seat in balances.items():
        order = sorted(by_seat)
        for transfer in fewest_payments([by_seat[seat] for seat in order]):
            payer = players[game_id, order[transfer.payer]]
            payee = players[game_id, order[transfer.payee]]
            pair = (payer, payee) if payer.id < payee.id else (payee, payer)
            owed[pair] += transfer.amount if pair[0] is payer else -transfer.amount
            games[pair].add(game_id)
    debts = [
        Debt(a, b, amount, len(games[a, b]))
        if amount >= 0
        else Debt(b, a, -amount, len(games[a, b]))
        for (a, b), amount in owed.items()
    ]
    return sorted(debts, key=lambda d: (-d.amount, d.debtor.name_key, d.creditor.name_key))


def _unpaid_balances(league_id: int) -> dict[int, dict[int, int]]:
    """Each unpaid finished game of another kind than Mille: each seat's balance, from the
    sums of its ledger."""
    unpaid = select(Game.id).where(
        Game.league_id == league_id,
        Game.kind != MILLE,
        Game.status == FINISHED,
        Game.paid_at.is_(None),
        Game.abandoned_at.is_(None),
    )
    return _balances_of(Movement.game_id.in_(unpaid))


def _balances_of(games: ColumnElement[bool]) -> dict[int, dict[int, int]]:
    """Each seat's balance in the games of the ledger's rows ``games`` picks, by game."""
    balances: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    sums = db.session.execute(
        select(
            Movement.game_id, Movement.payer_seat, Movement.payee_seat, func.sum(Movement.amount)
        )
        .where(games)
        .group_by(Movement.game_id, Movement.payer_seat, Movement.payee_seat)
    )
    for game_id, payer, payee, amount in sums:  # the pool's side is nobody's
        if payer is not None:
            balances[game_id][payer] -= int(amount)
        if payee is not None:
            balances[game_id][payee] += int(amount)
    return balances
