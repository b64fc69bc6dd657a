"""A game as a whole, once its deals are done or given up: marked paid (and locked),
unlocked by a league admin, abandoned by a scorekeeper, restored by a league admin. Each
change is one write under the game's lock (:func:`.service.locked_game`), with its audit
event and the league's records brought up to date in the same transaction."""

from scorekeeper.accounts.permissions import current_actor
from scorekeeper.database import writing
from scorekeeper.errors import Conflict
from scorekeeper.models import AuditAction, Game, User, db, utcnow
from scorekeeper.records import results, totals
from scorekeeper.table import audit, kind_service, seats
from scorekeeper.table.service import locked_game
from scorekeeper.web.translation import gettext


def mark_paid(game_id: int, *, version: int | None = None) -> Game:
    """The loser has paid: the game is settled and locked."""
    with writing():
        game = locked_game(game_id, version)
        record_payment(game)
    return game


def record_payment(game: Game) -> None:
    """Mark ``game`` (locked by :func:`locked_game`) paid by the acting user, in the audit
    trail and in who owes whom."""
    if not game.finished:
        raise Conflict(gettext("Only a finished game can be marked paid."))
    game.paid_at = utcnow()
    user = current_actor()
    game.paid_by_id = user.id if user else None
    game.version += 1
    payer, amount = kind_service.who_pays(game)
    audit.record(
        game,
        AuditAction.PAYMENT_MARKED,
        {"payer": payer, "amount": amount},
        after={"paid_at": game.paid_at.isoformat(), "amount": game.amount_due},
    )
    totals.payment_changed(game)  # who owes whom: same transaction


def unlock(game_id: int, *, version: int | None = None) -> Game:
    """A league admin reopens a settled game for corrections; the payment mark is removed
    (the seat links that died of it stay dead)."""
    with writing():
        game = locked_game(game_id, version, settled_ok=True)
        if not game.locked:
            raise Conflict(gettext("This game is not locked."))
        seats.keep_expired_links_dead(game)
        before = {"paid_at": game.paid_at.isoformat() if game.paid_at else None}
        game.paid_at = game.paid_by_id = None
        game.version += 1
        audit.record(
            game,
            AuditAction.GAME_UNLOCKED,
            before=before,
            after={"paid_at": None},
        )
        totals.payment_changed(game)
    return game


def abandon(game_id: int, *, version: int | None = None) -> Game:
    """A scorekeeper abandons a game started by mistake (or never to be finished): it then
    counts like no game — out of the games in progress, the standings, the ratings and who
    owes whom — but keeps its deals and its history, and a league admin can restore it.

    A settled game (marked paid) is refused: its payment happened.
    """
    with writing():
        game = locked_game(game_id, version)
        was_finished = game.finished
        game.abandoned_at = utcnow()
        user = current_actor()
        game.abandoned_by_id = user.id if user else None
        game.version += 1
        audit.record(
            game,
            AuditAction.GAME_ABANDONED,
            after={"abandoned_at": game.abandoned_at.isoformat()},
        )
        # Its results go, and every later result is re-rated: same transaction.
        results.game_changed(game, was_finished=was_finished)
    return game


def restore(game_id: int, *, version: int | None = None) -> Game:
    """A league admin restores an abandoned game: it counts again, everywhere."""
    with writing():
        game = locked_game(game_id, version, abandoned_ok=True)
        if not game.abandoned:
            raise Conflict(gettext("This game is not abandoned."))
        before = {"abandoned_at": game.abandoned_at.isoformat() if game.abandoned_at else None}
        game.abandoned_at = game.abandoned_by_id = None
        game.version += 1
        audit.record(game, AuditAction.GAME_RESTORED, before=before, after={"abandoned_at": None})
        results.game_changed(game, was_finished=False)
    return game


def abandoner(game: Game) -> str | None:
    """Who abandoned the game (None while it counts, or for an account since deleted)."""
    if game.abandoned_by_id is None:
        return None
    user = db.session.get(User, game.abandoned_by_id)
    return user.username if user else None
