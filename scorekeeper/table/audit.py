"""The audit trail: every change to a game, with who made it and the values before and after.

Services call :func:`record` inside their write transaction, so a change and
its audit row are committed together or not at all. An event keeps what happened
as data, an :class:`~.models.AuditAction` and the values it is worded from; the
words are chosen when it is shown: :func:`summary` for the API (English, as it has
always answered), ``event_words.event_summary`` for a page (in the reader's language).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.orm import joinedload

from scorekeeper.accounts.permissions import current_actor
from scorekeeper.engine import Tally
from scorekeeper.models import AuditAction, AuditEvent, Game, User, db
from scorekeeper.web.event_words import event_summary

#: The action of a game imported from a file; its user is who imported it.
IMPORTED: Final = AuditAction.GAME_IMPORTED


def _user_id(user: User) -> int:
    """The user's id, read from the session's identity map when it is there: a write
    transaction starts with a rollback that expires the signed-in user, and reading
    ``user.id`` would then load the whole row again just for its key."""
    identity: tuple[Any, ...] | None = inspect(user).identity
    return int(identity[0]) if identity else user.id


def actor_id() -> int | None:
    """The id of whoever is acting (None for nobody: a command, say)."""
    actor = current_actor()
    return _user_id(actor) if actor else None


def record(
    game: Game,
    action: AuditAction,
    params: Mapping[str, Any] | None = None,
    *,
    before: Any = None,
    after: Any = None,
) -> AuditEvent:
    """Add to the session the event of ``action`` on ``game`` by whoever is acting, with
    the values it is worded from (``params``, as :class:`~.models.AuditAction` lists)."""
    event = AuditEvent(
        league_id=game.league_id,
        game_id=game.id,
        user_id=actor_id(),
        action=action,
        params=dict(params or {}),
        before=before,
        after=after,
    )
    db.session.add(event)
    return event


def tally_values(number: int, tally: Any) -> dict[str, Any]:
    """A deal as the audit trail keeps it."""
    return {
        "number": number,
        "out": int(tally.out),
        "scores": list(tally.scores),
        "stars": list(tally.stars),
    }


def summary(event: AuditEvent) -> str:
    """What the change was, in one English sentence, as the API shows it (the catalog's)."""
    return event_summary(event, english=True)


# Reading it back ----------------------------------------------------------------------


#: A game's changes, newest first, with who made them (every game page asks: built once).
_HISTORY: Final = (
    select(AuditEvent)
    .where(AuditEvent.game_id == bindparam("game_id"))
    .order_by(AuditEvent.id.desc())
    .options(joinedload(AuditEvent.user))
)


_LATEST: Final = _HISTORY.limit(bindparam("count"))


def history(game_id: int, *, latest: int | None = None) -> list[AuditEvent]:
    """A game's changes, newest first: every one, or the ``latest`` so many."""
    if latest is None:
        return list(db.session.scalars(_HISTORY, {"game_id": game_id}))
    return list(db.session.scalars(_LATEST, {"game_id": game_id, "count": latest}))


#: The audit actions of which every write to a game leaves exactly one (and moves its
#: version one on); "game finished" and "in progress again" come along with one of them.
ONE_PER_WRITE = (
    AuditAction.DEAL_RECORDED,
    AuditAction.DEAL_EDITED,
    AuditAction.DEAL_DELETED,
    AuditAction.PAYMENT_MARKED,
    AuditAction.GAME_UNLOCKED,
    AuditAction.GAME_ABANDONED,
    AuditAction.GAME_RESTORED,
)


@dataclass(frozen=True)
class StaleSave:
    """A deal or a correction refused because the game changed since its page was loaded."""

    #: What changed since that page, oldest first (who did it and when, from the audit trail).
    changes: list[AuditEvent]
    #: The deal typed and refused (None for a correction: its page shows it).
    typed: Tally | None = None
    #: The deal already on the card with exactly the tally typed, recorded since: a duplicate.
    duplicate: int | None = None


def stale_save(game: Game, version: int | None, tally: Tally | None = None) -> StaleSave:
    """What changed in ``game`` since the page that showed ``version``, and which deal
    recorded since then (and still on the card as it was recorded) ``tally`` would repeat."""
    missed = game.version - version if version is not None else 0
    changes = list(
        db.session.scalars(
            select(AuditEvent)
            .where(AuditEvent.game_id == game.id, AuditEvent.action.in_(ONE_PER_WRITE))
            .order_by(AuditEvent.id.desc())
            .limit(max(missed, 0))
            .options(joinedload(AuditEvent.user))
        )
    )[::-1]
    duplicate = None
    for event in changes if tally is not None else []:
        recorded = event.after if event.action == AuditAction.DEAL_RECORDED else None
        number = recorded["number"] if recorded else 0
        if 1 <= number <= len(game.deals) and game.deals[number - 1].tally == tally:
            duplicate = number
    return StaleSave(changes, tally, duplicate)
