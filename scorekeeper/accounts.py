"""Users, memberships, API tokens and sign-in throttling: load, check, persist.

Like :mod:`.services`, every function that writes owns its transaction.
"""

import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import case, delete, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from .database import writing
from .models import (
    ApiToken,
    League,
    LoginThrottle,
    Membership,
    Role,
    User,
    UserSession,
    db,
    utcnow,
)
from .passwords import MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, is_common
from .permissions import forget_roles
from .services import ServiceError, check_key_length, check_printable, slugify, squeeze
from .translation import gettext

MAX_USERNAME_LENGTH = 40
SETUP_CODE_DIGITS = 12


def _hash_method() -> str:
    """werkzeug's scrypt by default; tests choose a cheaper method to stay fast."""
    return str(current_app.config.get("PASSWORD_HASH_METHOD", "scrypt"))


def has_users() -> bool:
    return db.session.scalar(select(User.id).limit(1)) is not None


def user_by_name(username: str) -> User | None:
    return db.session.scalars(select(User).where(User.username_key == User.key(username))).first()


def password_problem(password: str, username: str | None = None) -> str | None:
    """What is wrong with the password, in a sentence; None if nothing is."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return gettext("A password has at least %(least)s characters.", least=MIN_PASSWORD_LENGTH)
    if len(password) > MAX_PASSWORD_LENGTH:
        return gettext("A password has at most %(most)s characters.", most=MAX_PASSWORD_LENGTH)
    if is_common(password):
        return gettext(
            "This is one of the most common passwords, the first a guesser tries. Choose another."
        )
    if username is not None and password.casefold() == User.key(username):
        return gettext("A password must differ from the username.")
    return None


def check_password_rules(password: str, username: str | None = None) -> None:
    """Every place a password is set asks here (pages, the command line)."""
    problem = password_problem(password, username)
    if problem is not None:
        raise ServiceError(problem, field="password")


def create_user(username: str, password: str, *, admin: bool = False) -> User:
    """A new account; usernames are unique ignoring case."""
    name = squeeze(username)
    if not name or len(name) > MAX_USERNAME_LENGTH:
        raise ServiceError(gettext("A username has 1 to 40 characters."), field="username")
    check_printable(name, "username")
    check_key_length(name, "username")
    check_password_rules(password, name)
    try:
        with writing():
            if user_by_name(name) is not None:
                raise ServiceError(
                    gettext("The username %(name)s is taken.", name=name), field="username"
                )
            user = User(username=name, username_key=User.key(name), is_admin=admin)
            user.set_password(password, _hash_method())
            db.session.add(user)
    except IntegrityError:
        raise ServiceError(
            gettext("The username %(name)s is taken.", name=name), field="username"
        ) from None
    return user


def setup_code() -> str:
    """The code that creating the first administrator from the setup page asks for.

    Derived from the secret key, so every process of the app (each gunicorn worker)
    knows the same code without storing it, and whoever can read the terminal (or the
    instance folder) can claim the site, but not whoever reaches the page first.
    Twelve digits in groups of four: typed on a phone's number pad.
    """
    digest = hmac.digest(
        str(current_app.secret_key).encode(), b"mille-scorekeeper first administrator", "sha256"
    )
    digits = f"{int.from_bytes(digest[:8]) % 10**SETUP_CODE_DIGITS:0{SETUP_CODE_DIGITS}d}"
    return "-".join(digits[i : i + 4] for i in range(0, SETUP_CODE_DIGITS, 4))


def is_setup_code(typed: str) -> bool:
    """``typed`` is the setup code, read with or without its dashes and spaces."""
    typed = "".join(typed.split()).replace("-", "")
    return hmac.compare_digest(typed.encode(), setup_code().replace("-", "").encode())


def create_first_admin(username: str, password: str) -> User:
    """The first account of a fresh install; refused once any account exists."""
    if has_users():
        raise ServiceError(gettext("This site already has an administrator."))
    user = create_user(username, password, admin=True)
    from .services import ensure_default_league

    league = ensure_default_league()
    set_membership(league.id, user.id, Role.ADMIN)
    return user


# Signing in: throttled per (username, address) and per address ---------------------

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
    return db.session.get(User, user.id)


# Sessions: one row per signed-in browser ---------------------------------------------


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


def user_for_session(key: str) -> User | None:
    """The user signed in with this session key, if the session has not ended; with the
    user's memberships, in the same query (the menu asks for them)."""
    if not key or len(key) > 100:
        return None
    user = db.session.scalars(
        select(User)
        .join(UserSession, UserSession.user_id == User.id)
        .where(UserSession.key_hash == UserSession.digest(key), UserSession.expires_at > utcnow())
        .options(joinedload(User.memberships))
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


def change_password(user_id: int, current: str, new: str) -> None:
    with writing():
        user = db.session.get(User, user_id)
        if user is None or not user.check_password(current):
            raise ServiceError(gettext("That is not your current password."), field="current")
        check_password_rules(new, user.username)
        user.set_password(new, _hash_method())
        # Whoever else knew the old password may be signed in with it: no longer.
        db.session.execute(delete(UserSession).where(UserSession.user_id == user_id))


# Leagues and members -------------------------------------------------------


def create_league(name: str, *, public: bool = True, owner_id: int | None = None) -> League:
    cleaned = squeeze(name)
    if not cleaned or len(cleaned) > 60:
        raise ServiceError(gettext("A league name has 1 to 60 characters."), field="name")
    check_printable(cleaned)
    with writing():
        slug, n = slugify(cleaned), 1
        while db.session.scalar(select(League.id).where(League.slug == slug)) is not None:
            n += 1
            slug = slugify(cleaned, f"-{n}")
        league = League(name=cleaned, slug=slug, public=public)
        db.session.add(league)
        db.session.flush()
        if owner_id is not None:
            db.session.add(Membership(user_id=owner_id, league_id=league.id, role=Role.ADMIN))
    return league


def update_league(league_id: int, *, name: str, public: bool, defaults: dict | None) -> None:  # type: ignore[type-arg]
    cleaned = squeeze(name)
    if not cleaned or len(cleaned) > 60:
        raise ServiceError(gettext("A league name has 1 to 60 characters."), field="name")
    check_printable(cleaned)
    with writing():
        league = db.session.get(League, league_id)
        if league is None:
            raise ServiceError(gettext("There is no such league."))
        league.name, league.public, league.defaults = cleaned, public, defaults


def members(league_id: int) -> list[tuple[User, Role]]:
    rows = db.session.execute(
        select(User, Membership.role)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.league_id == league_id)
        .order_by(User.username_key)
    )
    return [(user, Role(role)) for user, role in rows]


def set_membership(league_id: int, user_id: int, role: Role | None) -> None:
    """Give the user a role in the league, change it, or (``None``) remove them."""
    forget_roles()
    with writing():
        membership = db.session.scalars(
            select(Membership).where(
                Membership.league_id == league_id, Membership.user_id == user_id
            )
        ).first()
        if role is None:
            if membership is not None:
                db.session.delete(membership)
        elif membership is None:
            db.session.add(Membership(league_id=league_id, user_id=user_id, role=int(role)))
        else:
            membership.role = int(role)


# API tokens ----------------------------------------------------------------


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
        select(ApiToken).where(
            ApiToken.token_hash == ApiToken.digest(token), ApiToken.revoked_at.is_(None)
        )
    ).first()
    if row is None:
        return None
    user_id, now = row.user_id, utcnow()
    if touch and (row.last_used_at is None or row.last_used_at < now - LAST_USED_RESOLUTION):
        with writing():
            db.session.execute(
                update(ApiToken).where(ApiToken.id == row.id).values(last_used_at=now)
            )
    return db.session.get(User, user_id)
