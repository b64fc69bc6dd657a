"""A league found by its address, and the league every install starts with."""

import re
import unicodedata
from typing import Final

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.database import writing
from scorekeeper.models import League, db

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


#: Every league page starts here: the statement is built once.
_BY_SLUG: Final = select(League).where(League.slug == bindparam("slug"))


def league_by_slug(slug: str) -> League | None:
    if "\x00" in slug:  # never in a slug, and PostgreSQL can't even compare one
        return None
    return db.session.scalars(_BY_SLUG, {"slug": slug}).first()
