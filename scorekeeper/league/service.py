"""Leagues: creating and changing one, its games for the pages, and settling up between
two players (marking their unpaid games paid together)."""

from collections.abc import Mapping, Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from scorekeeper.database import writing
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Game, League, Membership, Player, Role, db
from scorekeeper.names import check_printable, squeeze
from scorekeeper.records.leagues import slugify
from scorekeeper.table import closing
from scorekeeper.table import service as game_service
from scorekeeper.web.formatting import CURRENCIES, time_zones
from scorekeeper.web.translation import gettext


def games_of_leagues(
    league_ids: Sequence[int], *, status: str | None = None, limit: int = 20
) -> list[Game]:
    """The newest games of these leagues (by when they were played), with their players:
    one query, however many rows. Abandoned games are left out."""
    query = select(Game).where(Game.league_id.in_(league_ids), Game.abandoned_at.is_(None))
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


def update_league(
    league_id: int,
    *,
    name: str,
    public: bool,
    defaults: dict | None,  # type: ignore[type-arg]
    time_zone: str | None = None,
    currency: str | None = None,
) -> None:
    """Rename a league, open or close it, and set its defaults for new games, the time
    zone of its pages (None: the server's) and the currency they write amounts in (one of
    ``CURRENCIES``; None: the default). No amount changes with the currency."""
    cleaned = squeeze(name)
    if time_zone is not None and time_zone not in time_zones():
        raise ServiceError(gettext("Choose a time zone from the list."), field="time_zone")
    if currency is not None and currency not in CURRENCIES:
        raise ServiceError(gettext("Choose a currency from the list."), field="currency")
    if not cleaned or len(cleaned) > 60:
        raise ServiceError(gettext("A league name has 1 to 60 characters."), field="name")
    check_printable(cleaned)
    with writing():
        league = db.session.get(League, league_id)
        if league is None:
            raise ServiceError(gettext("There is no such league."))
        league.name, league.public, league.defaults = cleaned, public, defaults
        league.time_zone, league.currency = time_zone, currency


def mark_games_paid(league_id: int, versions: Mapping[int, int | None]) -> list[Game]:
    """Settle several games of a league at once (two players settling up): all, or none.

    ``versions`` maps each game to the version the page showed, so an amount
    that changed since then is not marked paid unseen.
    """
    with writing():
        games = [
            game_service.locked_game(game_id, versions[game_id]) for game_id in sorted(versions)
        ]
        for game in games:
            if game.league_id != league_id:
                raise NotFound(gettext("There is no such game in this league."))
            closing.record_payment(game)
    return games
