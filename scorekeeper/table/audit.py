"""The audit trail: every change to a game, with who made it and the values before and after.

Services call :func:`record` inside their write transaction, so a change and
its audit row are committed together or not at all. An event keeps what happened
as data, an :class:`~.models.AuditAction` and the values it is worded from; the
words are chosen when it is shown: :func:`summary` for the API (English, as it has
always answered), ``messages.event_summary`` for a page (in the reader's language).
"""

from collections.abc import Mapping
from typing import Any, Final

from sqlalchemy import inspect

from scorekeeper.accounts.permissions import current_actor
from scorekeeper.engine.money import format_money
from scorekeeper.models import AuditAction, AuditEvent, Game, User, db
from scorekeeper.web.messages import unread_text

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


# The API's words: English, amounts as the API sends money ("12.50").

#: Where a game was imported from, by :attr:`~.transfer.ImportPlan.source`.
IMPORT_FILES: Final = {"score_card": "a paper score card", "league_export": "a league export"}


def summary(event: AuditEvent) -> str:
    """What the change was, in one English sentence, as the API shows it."""
    try:
        return _summary(event.action, event.params)
    except (KeyError, TypeError):
        return unread_text(event)


def _summary(action: AuditAction, values: Mapping[str, Any]) -> str:
    match action:
        case AuditAction.DEAL_RECORDED:
            return f"Deal {values['number']} recorded."
        case AuditAction.DEAL_EDITED:
            return f"Deal {values['number']} corrected."
        case AuditAction.DEAL_DELETED:
            return f"Deal {values['number']} deleted; later deals moved up."
        case AuditAction.GAME_FINISHED:
            return f"{values['winner']} won after deal {values['number']}."
        case AuditAction.GAME_REOPENED:
            return "The game is in progress again."
        case AuditAction.PAYMENT_MARKED:
            return f"{values['payer']}'s payment of {format_money(values['amount'])} marked paid."
        case AuditAction.GAME_UNLOCKED:
            return "Game unlocked; its payment is unpaid again."
        case AuditAction.GAME_ABANDONED:
            return "Game abandoned: it no longer counts."
        case AuditAction.GAME_RESTORED:
            return "Game restored: it counts again."
        case AuditAction.CARD_AGREED:
            phone = " on their own phone" if values["by"] == "link" else ""
            return f"{values['name']} agreed with the card (version {values['version']}){phone}."
        case AuditAction.GAME_IMPORTED:
            source = IMPORT_FILES[values["file"]]
            said = values.get("paid_by")
            claimed = f" The file says {said} marked it paid." if said else ""
            if "abandoned_by" in values:
                who = values["abandoned_by"] or "someone"
                claimed += f" The file says {who} abandoned it."
            return f"Imported from {source} ({values['place']} {values['where']}).{claimed}"
    raise KeyError(action)
