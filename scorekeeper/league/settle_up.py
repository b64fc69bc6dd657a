"""Settling up a night: every unpaid finished game of a set, of every kind, added up per
player, and the fewest payments that bring everyone to zero at once (issue 37).

A game's money is read as it is kept: a game of Mille moves its settlement's amount from
its loser to its winner (``Game.amount_due``); any other game, each seat's balance as its
ledger leaves it (``Game.balances``). The plan is the engine's (``engine.settle_up``): the least
number of payments, exactly for up to 16 players who owe or are owed, close to it beyond.
Each payment can be ticked as made (:class:`SettledPayment`, in the league's history);
when every one is, or a scorekeeper settles the night at once, every game of it is marked
paid and locked, as a game marked paid is.

By default the set is tonight's games: those finished since 6 in the morning, in the
league's time zone (before 6, since 6 the morning before), so that a night that goes past
midnight stays one night.
"""

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from scorekeeper.accounts.permissions import current_actor
from scorekeeper.database import writing
from scorekeeper.engine.settle_up import exact, fewest_payments
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.models import (
    FINISHED,
    MILLE,
    AuditAction,
    AuditEvent,
    Game,
    League,
    Player,
    SettledPayment,
    db,
    utcnow,
)
from scorekeeper.records.totals import lock_league
from scorekeeper.table import closing
from scorekeeper.table.service import locked_game
from scorekeeper.web.translation import gettext

#: When a night begins, in the league's time zone.
NIGHT_STARTS: Final = time(6)


@dataclass(frozen=True)
class Payment:
    """One payment of the plan: ``payer`` gives ``payee`` ``amount`` cents; ``paid_at``
    once it was ticked as made."""

    payer: Player
    payee: Player
    amount: int
    paid_at: datetime | None = None


@dataclass(frozen=True)
class Night:
    """A set of unpaid finished games, what each player nets over them, and the plan."""

    games: tuple[Game, ...]
    nets: tuple[tuple[Player, int], ...]
    payments: tuple[Payment, ...]
    #: The plan is the least number of payments (False: close to it, past 16 players).
    fewest: bool

    @property
    def key(self) -> str:
        """The set's name, as its ticks are kept: its game ids, sorted, with commas."""
        return games_key(game.id for game in self.games)

    @property
    def settled(self) -> bool:
        return bool(self.payments) and all(p.paid_at is not None for p in self.payments)


def games_key(ids: Iterable[int]) -> str:
    return ",".join(str(game_id) for game_id in sorted(set(ids)))


def night_began(time_zone: str | None, now: datetime | None = None) -> datetime:
    """When tonight began, in UTC without a zone (as times are stored): the last 6 a.m. in
    the league's time zone (the server's when it has none)."""
    try:
        zone = ZoneInfo(time_zone) if time_zone else None
    except (ZoneInfoNotFoundError, ValueError):
        zone = None
    here = (now or utcnow()).replace(tzinfo=UTC).astimezone(zone)
    began = datetime.combine(here.date(), NIGHT_STARTS, tzinfo=here.tzinfo)
    if here < began:
        began -= timedelta(days=1)
    return began.astimezone(UTC).replace(tzinfo=None)


def unpaid_games(
    league: League,
    *,
    since: datetime | None = None,
    ids: Sequence[int] | None = None,
    limit: int | None = None,
) -> list[Game]:
    """The league's finished games not yet paid nor abandoned, newest first: those finished
    since ``since``, of ``ids``, or the ``limit`` newest, if given. A page reads only those
    it shows, whatever the number of the league's unpaid games."""
    query = select(Game).where(
        Game.league_id == league.id,
        Game.status == FINISHED,
        Game.paid_at.is_(None),
        Game.abandoned_at.is_(None),
    )
    if since is not None:
        query = query.where(Game.finished_at >= since)
    if ids is not None:
        query = query.where(Game.id.in_(list(ids)))
    ordered = query.order_by(Game.finished_at.desc(), Game.id.desc()).limit(limit)
    return list(db.session.scalars(ordered.options(selectinload(Game.seats))))


def chosen_games(league: League, ids: Sequence[int]) -> list[Game]:
    """The games ``ids``, each an unpaid finished game of the league; a ServiceError on the
    field ``games`` naming the first that isn't."""
    wanted = list(dict.fromkeys(ids))
    found = {game.id: game for game in unpaid_games(league, ids=wanted)}
    missing = [game_id for game_id in wanted if game_id not in found]
    if missing:
        raise ServiceError(
            gettext("Game %(id)s is not an unpaid finished game of this league.", id=missing[0]),
            field="games",
        )
    return [found[game_id] for game_id in wanted]


def nets_of(games: Sequence[Game]) -> dict[int, int]:
    """Each player's money received minus paid over ``games`` (cents, by player id)."""
    nets: dict[int, int] = defaultdict(int)
    for game in games:
        if game.kind == MILLE:
            loser = game.player1_id if game.winner_seat == 0 else game.player0_id
            winner = game.player0_id if game.winner_seat == 0 else game.player1_id
            nets[winner] += game.amount_due or 0
            nets[loser] -= game.amount_due or 0
        else:  # each seat's balance, kept with the game's ledger
            assert game.balances is not None
            for seat in game.seats:
                nets[seat.player_id] += game.balances[seat.seat]
    return dict(nets)


def night_of(league: League, games: Sequence[Game]) -> Night:
    """The night of these games: each player's net, the fewest payments, and which of
    them were ticked as made."""
    nets = nets_of(games)
    players = {
        player.id: player
        for player in db.session.scalars(select(Player).where(Player.id.in_(list(nets))))
    }
    owing = sorted((pid for pid, net in nets.items() if net), key=lambda p: players[p].name_key)
    plan = fewest_payments([nets[pid] for pid in owing])
    key = games_key(game.id for game in games)
    ticked = _ticked(league.id, key)
    payments = tuple(
        Payment(
            players[owing[t.payer]],
            players[owing[t.payee]],
            t.amount,
            ticked.get((owing[t.payer], owing[t.payee], t.amount)),
        )
        for t in plan
    )
    shown = sorted(nets.items(), key=lambda item: (-item[1], players[item[0]].name_key))
    return Night(
        games=tuple(sorted(games, key=lambda game: game.id)),
        nets=tuple((players[pid], net) for pid, net in shown),
        payments=payments,
        fewest=exact([nets[pid] for pid in owing]),
    )


def _ticked(league_id: int, key: str) -> dict[tuple[int, int, int], datetime]:
    rows = db.session.scalars(
        select(SettledPayment).where(
            SettledPayment.league_id == league_id, SettledPayment.games == key
        )
    )
    return {(row.payer_id, row.payee_id, row.amount): row.paid_at for row in rows}


def tick(league: League, game_ids: Sequence[int], payer_id: int, payee_id: int) -> Night:
    """Tick a payment of the night of ``game_ids`` as made, in the league's history; when
    it was the last one, every game of the night is marked paid and locked."""
    with writing():
        night = _locked_night(league, game_ids)
        payment = next(
            (p for p in night.payments if (p.payer.id, p.payee.id) == (payer_id, payee_id)),
            None,
        )
        if payment is None:
            raise Conflict(gettext("This payment is not one of this night's: reload the page."))
        if payment.paid_at is None:
            _keep_tick(league, night, payment)
        night = night_of(league, night.games)
        if night.settled:
            _mark_paid(league, night)
    return night


def settle(league: League, game_ids: Sequence[int]) -> Night:
    """Mark every game of the night of ``game_ids`` paid and locked at once, or none: a
    Conflict if one is not finished or already paid (ServiceError for a game not of the
    league)."""
    with writing():
        night = _locked_night(league, game_ids)
        _mark_paid(league, night)
    return night


def _locked_night(league: League, game_ids: Sequence[int]) -> Night:
    """The night of these games, each locked (in order of id, then the league: the order
    every writer takes), checked to be finished and unpaid."""
    if not game_ids:
        raise ServiceError(gettext("Choose at least one game."), field="games")
    for game_id in sorted(set(game_ids)):
        game = locked_game(game_id, settled_ok=True)
        if game.league_id != league.id:
            raise ServiceError(
                gettext("Game %(id)s is not a game of this league.", id=game_id), field="games"
            )
        if not game.finished or game.paid_at is not None or game.abandoned:
            raise Conflict(
                gettext("Game %(id)s is not an unpaid finished game any more.", id=game_id)
            )
    lock_league(league.id)
    return night_of(league, chosen_games(league, game_ids))


def _keep_tick(league: League, night: Night, payment: Payment) -> None:
    user = current_actor()
    db.session.add(
        SettledPayment(
            league_id=league.id,
            games=night.key,
            payer_id=payment.payer.id,
            payee_id=payment.payee.id,
            amount=payment.amount,
            paid_by_id=user.id if user else None,
        )
    )
    _event(
        league,
        AuditAction.PAYMENT_TICKED,
        {
            "payer": payment.payer.name,
            "payee": payment.payee.name,
            "amount": payment.amount,
            "games": len(night.games),
        },
    )
    db.session.flush()


def _mark_paid(league: League, night: Night) -> None:
    for game in night.games:
        closing.record_payment(game)
    _event(league, AuditAction.NIGHT_SETTLED, {"games": len(night.games)})


def _event(league: League, action: AuditAction, params: dict[str, object]) -> None:
    user = current_actor()
    db.session.add(
        AuditEvent(
            league_id=league.id,
            game_id=None,
            user_id=user.id if user else None,
            action=action,
            params=params,
            before=None,  # as every event keeps them: JSON null, not SQL NULL
            after=None,
        )
    )
