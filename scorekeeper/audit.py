"""The audit trail: every change to a game, with who made it and the values before and after.

Services call :func:`record` inside their write transaction, so a change and
its audit row are committed together or not at all.
"""

from typing import Any

from sqlalchemy import inspect

from scorekeeper.accounts.permissions import current_actor
from scorekeeper.models import AuditEvent, Game, User, db

#: The action of a game imported from a file; its user is who imported it.
IMPORTED = "game_imported"


def _user_id(user: User) -> int:
    """The user's id, read from the session's identity map when it is there: a write
    transaction starts with a rollback that expires the signed-in user, and reading
    ``user.id`` would then load the whole row again just for its key."""
    identity: tuple[Any, ...] | None = inspect(user).identity
    return int(identity[0]) if identity else user.id


def record(
    game: Game, action: str, summary: str, before: Any = None, after: Any = None
) -> AuditEvent:
    event = AuditEvent(
        league_id=game.league_id,
        game_id=game.id,
        user_id=_user_id(actor) if (actor := current_actor()) else None,
        action=action,
        summary=summary,
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
