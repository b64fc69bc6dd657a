"""Users, memberships, API tokens and sign-in throttling: load, check, persist.

Like :mod:`.services`, every function that writes owns its transaction.
"""

import hashlib
from datetime import timedelta

from flask import current_app
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from .database import writing
from .i18n import gettext
from .models import ApiToken, League, LoginFailure, Membership, Role, User, db, utcnow
from .permissions import forget_roles
from .services import ServiceError, slugify, squeeze

MIN_PASSWORD_LENGTH = 8
MAX_USERNAME_LENGTH = 40
#: Failed sign-ins allowed per username, and per address, in the window below.
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)


def _hash_method() -> str:
    """werkzeug's scrypt by default; tests choose a cheaper method to stay fast."""
    return str(current_app.config.get("PASSWORD_HASH_METHOD", "scrypt"))


def has_users() -> bool:
    return db.session.scalar(select(User.id).limit(1)) is not None


def user_by_name(username: str) -> User | None:
    return db.session.scalars(select(User).where(User.username_key == User.key(username))).first()


def check_password_rules(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(
            gettext("A password has at least %(least)s characters.", least=MIN_PASSWORD_LENGTH),
            field="password",
        )


def create_user(username: str, password: str, *, admin: bool = False) -> User:
    """A new account; usernames are unique ignoring case."""
    name = squeeze(username)
    if not name or len(name) > MAX_USERNAME_LENGTH:
        raise ServiceError(gettext("A username has 1 to 40 characters."), field="username")
    check_password_rules(password)
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


def create_first_admin(username: str, password: str) -> User:
    """The first account of a fresh install; refused once any account exists."""
    if has_users():
        raise ServiceError(gettext("This site already has an administrator."))
    user = create_user(username, password, admin=True)
    from .services import ensure_default_league

    league = ensure_default_league()
    set_membership(league.id, user.id, Role.ADMIN)
    return user


def _failure_keys(username: str, address: str | None) -> list[str]:
    """What failures are counted against: the username (hashed: any length fits) and address."""
    keys = ["user:" + hashlib.sha256(User.key(username).encode()).hexdigest()]
    if address:
        keys.append(f"addr:{address[:100]}")
    return keys


def sign_in_blocked(username: str, address: str | None) -> bool:
    """Too many recent failures for this username or from this address."""
    since = utcnow() - FAILURE_WINDOW
    for key in _failure_keys(username, address):
        count = db.session.scalar(
            select(func.count(LoginFailure.id)).where(
                LoginFailure.key == key, LoginFailure.created_at >= since
            )
        )
        if (count or 0) >= MAX_FAILURES:
            return True
    return False


def authenticate(username: str, password: str, address: str | None) -> User | None:
    """The user if the password is right; failures are counted and then throttled."""
    if sign_in_blocked(username, address):
        raise ServiceError(
            gettext("Too many failed sign-ins. Wait 15 minutes and try again."), field="password"
        )
    user = user_by_name(username)
    if user is not None and user.check_password(password):
        with writing():
            db.session.execute(
                delete(LoginFailure).where(LoginFailure.key.in_(_failure_keys(username, None)))
            )
        return db.session.get(User, user.id)
    with writing():
        for key in _failure_keys(username, address):
            db.session.add(LoginFailure(key=key))
        db.session.execute(
            delete(LoginFailure).where(LoginFailure.created_at < utcnow() - FAILURE_WINDOW)
        )
    return None


def change_password(user_id: int, current: str, new: str) -> None:
    check_password_rules(new)
    with writing():
        user = db.session.get(User, user_id)
        if user is None or not user.check_password(current):
            raise ServiceError(gettext("That is not your current password."), field="current")
        user.set_password(new, _hash_method())


# Leagues and members -------------------------------------------------------


def create_league(name: str, *, public: bool = True, owner_id: int | None = None) -> League:
    cleaned = squeeze(name)
    if not cleaned or len(cleaned) > 60:
        raise ServiceError(gettext("A league name has 1 to 60 characters."), field="name")
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
