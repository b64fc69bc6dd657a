"""API tokens: created, listed, revoked, and the user a bearer token stands for."""

from datetime import timedelta

from sqlalchemy import select, update
from sqlalchemy.orm import joinedload

from scorekeeper.database import writing
from scorekeeper.errors import ServiceError
from scorekeeper.models import ApiToken, User, db, utcnow
from scorekeeper.names import squeeze
from scorekeeper.web.translation import gettext


def create_token(user_id: int, name: str) -> str:
    """A new API token for the user; returns the token, which is shown only this once."""
    label = squeeze(name)[:60] or "API token"
    with writing():
        user = db.session.get(User, user_id)
        if user is None:
            raise ServiceError(gettext("There is no such user."))
        row, token = ApiToken.issue(user, label)
        db.session.add(row)
    return token


def tokens_of(user_id: int) -> list[ApiToken]:
    return list(
        db.session.scalars(
            select(ApiToken)
            .where(ApiToken.user_id == user_id, ApiToken.revoked_at.is_(None))
            .order_by(ApiToken.created_at.desc())
        )
    )


def revoke_token(user_id: int, token_id: int) -> None:
    with writing():
        row = db.session.get(ApiToken, token_id)
        if row is None or row.user_id != user_id:
            raise ServiceError(gettext("There is no such token."))
        row.revoked_at = utcnow()


#: How stale a token's "last used" may get before a request using it writes it again.
LAST_USED_RESOLUTION = timedelta(minutes=1)


def user_for_token(token: str, *, touch: bool = False) -> User | None:
    """The user a bearer token belongs to, if it is valid and not revoked.

    ``touch`` (a request made with the token) records when it was used, at
    most once a minute so that reading with a token stays a read.
    """
    row = db.session.scalars(
        select(ApiToken)
        .where(ApiToken.token_hash == ApiToken.digest(token), ApiToken.revoked_at.is_(None))
        .options(joinedload(ApiToken.user, innerjoin=True))  # one statement, not two
    ).first()
    if row is None or row.user.disabled_at is not None:
        return None
    user, now = row.user, utcnow()
    if touch and (row.last_used_at is None or row.last_used_at < now - LAST_USED_RESOLUTION):
        with writing():  # which expires what was read: the user is read again after
            db.session.execute(
                update(ApiToken).where(ApiToken.id == row.id).values(last_used_at=now)
            )
    return user
