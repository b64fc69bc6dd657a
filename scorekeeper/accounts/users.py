"""Users: the first administrator and its setup code, creating users, passwords."""

import hmac

from flask import current_app
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.accounts.members import end_invitations_made_by, set_membership
from scorekeeper.accounts.passwords import MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, is_common
from scorekeeper.database import NAMES_LOCK_ID, one_at_a_time, writing
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.look_alike import mixes_scripts, skeletons
from scorekeeper.models import ApiToken, Role, User, UserSession, db, utcnow
from scorekeeper.names import check_key_length, check_printable, squeeze
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.web.translation import gettext, lazy_gettext

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
    if mixes_scripts(name):
        raise ServiceError(str(MIXED_SCRIPTS), field="username")
    check_password_rules(password, name)
    try:
        with writing():
            one_at_a_time(NAMES_LOCK_ID)  # two look-alikes made at once: one waits
            if user_by_name(name) is not None:
                raise ServiceError(
                    gettext("The username %(name)s is taken.", name=name), field="username"
                )
            _refuse_a_look_alike(name)
            user = User(username=name, username_key=User.key(name), is_admin=admin)
            user.set_password(password, _hash_method())
            db.session.add(user)
    except IntegrityError:
        raise ServiceError(
            gettext("The username %(name)s is taken.", name=name), field="username"
        ) from None
    return user


#: Why a username is refused for the way it looks (``look_alike``), beside the field.
MIXED_SCRIPTS = lazy_gettext(
    "A username can't mix alphabets, such as Latin and Cyrillic letters: "
    "it could pass for someone else's."
)
LOOKS_LIKE = lazy_gettext(
    "This username looks too much like an existing one (letters of another alphabet, "
    "1, l and I, or 0 and O look alike): choose another."
)


def _refuse_a_look_alike(name: str) -> None:
    """ServiceError if ``name`` would pass for an existing account's (Unicode's skeleton,
    ``look_alike``). Existing accounts are compared as they are, never changed."""
    mine = skeletons(name)
    for other in db.session.scalars(select(User.username)):
        if mine & skeletons(other):
            raise ServiceError(str(LOOKS_LIKE), field="username")


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
    league = ensure_default_league()
    set_membership(league.id, user.id, Role.ADMIN)
    return user


def change_password(user_id: int, current: str, new: str) -> None:
    with writing():
        user = db.session.get(User, user_id)
        if user is None or not user.check_password(current):
            raise ServiceError(gettext("That is not your current password."), field="current")
        check_password_rules(new, user.username)
        user.set_password(new, _hash_method())
        # Whoever else knew the old password may be signed in with it, or have made a token
        # with it: no longer.
        _end_sessions_and_tokens(user_id)


def _end_sessions_and_tokens(user_id: int) -> None:
    """Within a write: every session of the user ends, every API token of theirs is revoked
    (kept, as revoked: the account page and a restore know it was)."""
    db.session.execute(delete(UserSession).where(UserSession.user_id == user_id))
    db.session.execute(
        update(ApiToken)
        .where(ApiToken.user_id == user_id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )


def all_users() -> list[User]:
    """Every account, by name, for the site administrators' page."""
    return list(db.session.scalars(select(User).order_by(User.username_key)))


def set_disabled(user_id: int, disabled: bool, *, by: int) -> User:
    """Disable an account (its sessions end, its API tokens are revoked and its open
    invitations withdrawn at once; its history stays) or put it back in use (it signs in
    again; its old tokens and invitations stay ended).
    Nobody disables their own account: a site keeps an administrator who can undo it."""
    if disabled and user_id == by:
        raise ServiceError(gettext("You can't disable your own account."))
    with writing():
        user = db.session.get(User, user_id)
        if user is None:
            raise NotFound(gettext("There is no such user."))
        if disabled and user.disabled_at is None:
            user.disabled_at = utcnow()
            _end_sessions_and_tokens(user_id)
            end_invitations_made_by(user_id)
        elif not disabled:
            user.disabled_at = None
    return user
