"""Leagues: finding, creating and changing one, its members, and its games for the pages."""

import re
import unicodedata
from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload

from scorekeeper.accounts.permissions import forget_roles
from scorekeeper.database import writing
from scorekeeper.errors import ServiceError
from scorekeeper.models import Game, League, Membership, Player, Role, User, db
from scorekeeper.names import check_printable, squeeze
from scorekeeper.web.translation import gettext

DEFAULT_LEAGUE_NAME = "Our table"


#: The longest league address (``league.slug``'s column), a ``-2`` to tell names apart included.
MAX_SLUG = 60


def slugify(name: str, suffix: str = "") -> str:
    """A league's address from its name: ``Friday club`` → ``friday-club``; ``suffix`` (``-2``)
    is kept within :data:`MAX_SLUG` by shortening the name's part."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "league"
    return base[: MAX_SLUG - len(suffix)].rstrip("-") + suffix


def default_league() -> League | None:
    return db.session.scalars(select(League).order_by(League.id).limit(1)).first()


def ensure_default_league() -> League:
    """The first start creates a league, so casual players never think about leagues.

    It is private: the app is reachable from the whole network, and who owes whom is
    the table's business until its administrator makes the league public.
    """
    league = default_league()
    if league is not None:
        return league
    try:
        with writing():
            db.session.add(
                League(slug=slugify(DEFAULT_LEAGUE_NAME), name=DEFAULT_LEAGUE_NAME, public=False)
            )
    except IntegrityError:
        pass  # another process made it first
    league = default_league()
    assert league is not None
    return league


def league_by_slug(slug: str) -> League | None:
    if "\x00" in slug:  # never in a slug, and PostgreSQL can't even compare one
        return None
    return db.session.scalars(select(League).where(League.slug == slug)).first()


def games_of_leagues(
    league_ids: Sequence[int], *, status: str | None = None, limit: int = 20
) -> list[Game]:
    """The newest games of these leagues (by when they were played), with their players:
    one query, however many rows."""
    query = select(Game).where(Game.league_id.in_(league_ids))
    if status:
        query = query.where(Game.status == status)
    query = query.options(joinedload(Game.player0), joinedload(Game.player1))
    order = (Game.played_at.desc(), Game.id.desc())
    return list(db.session.scalars(query.order_by(*order).limit(limit)))


def player_count(league_id: int) -> int:
    return (
        db.session.scalar(select(func.count(Player.id)).where(Player.league_id == league_id)) or 0
    )


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
