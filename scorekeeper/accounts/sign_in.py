"""Signing in: throttled password checks, and server-side sessions that sign-out ends."""

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any, Final

from flask import current_app
from sqlalchemy import bindparam, case, delete, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import joinedload

from scorekeeper.accounts.users import _hash_method, user_by_name
from scorekeeper.database import writing
from scorekeeper.errors import ServiceError
from scorekeeper.models import (
    LoginThrottle,
    User,
    UserSession,
    db,
    utcnow,
)
from scorekeeper.web.translation import gettext

#: Attempts allowed in one window for a username from one address: guessing one
#: account is slow, and its owner, from anywhere else, still signs in.
MAX_ATTEMPTS_PER_NAME = 5


#: Attempts allowed in one window from one address, whatever the usernames: loose, so
#: a club's shared connection is not locked out by one person's typos.
MAX_ATTEMPTS_PER_ADDRESS = 50


THROTTLE_WINDOW = timedelta(minutes=15)


#: How many stale counters one sign-in clears away, at most.
_CLEANUP_BATCH = 100


def _throttle_keys(username: str, address: str | None) -> dict[str, int]:
    """What attempts are counted against, and the limit of each. A username is never
    counted alone: that would let anyone lock anyone out."""
    where = (address or "unknown")[:100]
    pair = hashlib.sha256(f"{User.key(username)}\0{where}".encode()).hexdigest()
    return {f"name:{pair}": MAX_ATTEMPTS_PER_NAME, f"addr:{where}": MAX_ATTEMPTS_PER_ADDRESS}


def _insert_ignoring_duplicates(key: str) -> Any:
    dialect = db.session.get_bind().dialect.name
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    row = {"key": key, "attempts": 0, "window_start": utcnow()}
    return insert(LoginThrottle).values(row).on_conflict_do_nothing()


def _count_attempt(keys: dict[str, int]) -> bool:
    """Count one attempt against every key, atomically; whether all are within their limits.

    The attempt is counted *before* the password is checked, each counter in one
    ``UPDATE … RETURNING`` (a row lock on PostgreSQL, the write lock on SQLite), so
    concurrent guesses can't all pass a check made before any of them was counted.
    """
    now = utcnow()
    stale = LoginThrottle.window_start < now - THROTTLE_WINDOW
    allowed = True
    with writing():
        for key in sorted(keys):  # always in the same order: no deadlock between two
            db.session.execute(_insert_ignoring_duplicates(key))
            attempts = db.session.scalar(
                update(LoginThrottle)
                .where(LoginThrottle.key == key)
                .values(
                    attempts=case((stale, 1), else_=LoginThrottle.attempts + 1),
                    window_start=case((stale, now), else_=LoginThrottle.window_start),
                )
                .returning(LoginThrottle.attempts)
            )
            allowed = allowed and (attempts or 0) <= keys[key]
        # Old counters go, a few at a time, skipping any another sign-in holds.
        old = (
            select(LoginThrottle.id)
            .where(stale)
            .limit(_CLEANUP_BATCH)
            .with_for_update(skip_locked=True)
        )
        db.session.execute(delete(LoginThrottle).where(LoginThrottle.id.in_(old)))
    return allowed


def _forgive_attempt(keys: dict[str, int]) -> None:
    """A right password: the username's count starts again; the address's loses this one."""
    name_key = next(key for key in keys if key.startswith("name:"))
    address_key = next(key for key in keys if key.startswith("addr:"))
    with writing():
        db.session.execute(delete(LoginThrottle).where(LoginThrottle.key == name_key))
        db.session.execute(
            update(LoginThrottle)
            .where(LoginThrottle.key == address_key, LoginThrottle.attempts > 0)
            .values(attempts=LoginThrottle.attempts - 1)
        )


def authenticate(username: str, password: str, address: str | None) -> User | None:
    """The user if the password is right; attempts are counted and then throttled."""
    keys = _throttle_keys(username, address)
    if not _count_attempt(keys):
        raise ServiceError(
            gettext("Too many failed sign-ins. Wait 15 minutes and try again."), field="password"
        )
    user = user_by_name(username)
    if user is None:
        User.check_no_password(password, _hash_method())
        return None
    if not user.check_password(password):
        return None
    _forgive_attempt(keys)
    if user.disabled_at is not None:  # said only to whoever knows the password
        raise AccountDisabled(
            gettext("This account is disabled. Ask a site administrator."), field="password"
        )
    return db.session.get(User, user.id)


class AccountDisabled(ServiceError):
    """The right password, for an account a site administrator disabled."""


def _session_lifetime() -> timedelta:
    lifetime = current_app.config["REMEMBER_COOKIE_DURATION"]
    return lifetime if isinstance(lifetime, timedelta) else timedelta(seconds=int(lifetime))


def start_session(user_id: int) -> str:
    """A new session for the user; returns its key, for the cookies (see ``User.get_id``)."""
    key = secrets.token_urlsafe(32)
    now = utcnow()
    with writing():
        db.session.execute(
            delete(UserSession).where(UserSession.user_id == user_id, UserSession.expires_at < now)
        )
        db.session.add(
            UserSession(
                user_id=user_id,
                key_hash=UserSession.digest(key),
                expires_at=now + _session_lifetime(),
            )
        )
    return key


#: The user of a session key that has not ended, with their memberships (the menu asks for
#: them): every signed-in request asks, so the statement is built once.
_SESSION_USER: Final = (
    select(User)
    .join(UserSession, UserSession.user_id == User.id)
    .where(
        UserSession.key_hash == bindparam("key_hash"),
        UserSession.expires_at > bindparam("now"),
        User.disabled_at.is_(None),
    )
    .options(joinedload(User.memberships))
)


def user_for_session(key: str) -> User | None:
    """The user signed in with this session key, if the session has not ended; with the
    user's memberships, in the same query."""
    if not key or len(key) > 100:
        return None
    user = db.session.scalars(
        _SESSION_USER, {"key_hash": UserSession.digest(key), "now": utcnow()}
    ).first()
    return user.in_session(key) if user is not None else None


def end_session(key: str | None) -> None:
    """Sign one browser out: its cookies, and every copy of them, open nothing any more."""
    if not key:
        return
    with writing():
        db.session.execute(
            delete(UserSession).where(UserSession.key_hash == UserSession.digest(key))
        )


def end_all_sessions(user_id: int) -> None:
    """Sign the user out everywhere: every browser, every copied cookie."""
    with writing():
        db.session.execute(delete(UserSession).where(UserSession.user_id == user_id))


def queue_owner(user_id: int) -> str:
    """The opaque key a page gives its scripts for the signed-in user: deals kept offline
    carry it, and are sent on their own only in a session of the same user (offline.js).
    Derived from the app's secret, so nobody can write another user's key into the
    browser's storage; the same for every session of the user, so a deal kept before a
    session ended is still the user's own after signing in again."""
    secret = str(current_app.secret_key).encode()
    return hmac.new(secret, f"offline-queue:{user_id}".encode(), hashlib.sha256).hexdigest()[:32]
