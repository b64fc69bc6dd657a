"""A league's seasons: named date ranges that standings can be read for.

Each change owns its transaction and adds up the season's records again in
it, so a season's standings are never read from an out-of-date table.
"""

from datetime import date
from typing import Final

from sqlalchemy import bindparam, select

from scorekeeper.database import writing
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import MAX_ID, Season, db
from scorekeeper.names import check_printable, squeeze
from scorekeeper.records import totals
from scorekeeper.values import EARLIEST_DAY
from scorekeeper.web.translation import gettext

MAX_SEASON_NAME = 60
#: The last day a season may end on: far enough ahead for any plan, and a day with a day
#: after it, where :func:`..records.totals.season_range` ends the season.
LAST_SEASON_DAY = date(2999, 12, 31)


_SEASONS: Final = (
    select(Season)
    .where(Season.league_id == bindparam("league_id"))
    .order_by(Season.starts_on.desc(), Season.id.desc())
)


def seasons_of(league_id: int) -> list[Season]:
    """The league's seasons, latest first."""
    return list(db.session.scalars(_SEASONS, {"league_id": league_id}))


def season_in(league_id: int, season_id: int) -> Season | None:
    if not 0 < season_id <= MAX_ID:
        return None
    season = db.session.get(Season, season_id)
    return season if season is not None and season.league_id == league_id else None


def check_season(name: str, starts_on: date, ends_on: date) -> str:
    """The season's name, cleaned; ServiceError, naming the field, if the name or a day
    won't do. Whether the name is taken is for :func:`_checked` to ask the database."""
    cleaned = squeeze(name)
    if not cleaned:
        raise ServiceError(gettext("Give the season a name."), field="name")
    check_printable(cleaned)
    if len(cleaned) > MAX_SEASON_NAME:
        raise ServiceError(
            gettext("A season's name is at most %(most)s characters.", most=MAX_SEASON_NAME),
            field="name",
        )
    for field, day in (("starts_on", starts_on), ("ends_on", ends_on)):
        if not EARLIEST_DAY <= day <= LAST_SEASON_DAY:
            raise ServiceError(
                gettext(
                    "Give a day from %(first)s to %(last)s.",
                    first=EARLIEST_DAY.isoformat(),
                    last=LAST_SEASON_DAY.isoformat(),
                ),
                field=field,
            )
    if ends_on < starts_on:
        raise ServiceError(gettext("The season can't end before it starts."), field="ends_on")
    return cleaned


def _checked(league_id: int, name: str, starts_on: date, ends_on: date, *, own: int = 0) -> str:
    cleaned = check_season(name, starts_on, ends_on)
    taken = db.session.scalar(
        select(Season.id).where(
            Season.league_id == league_id, Season.name == cleaned, Season.id != own
        )
    )
    if taken is not None:
        raise ServiceError(
            gettext("This league already has a season called %(name)s.", name=cleaned),
            field="name",
        )
    return cleaned


def add_season(league_id: int, name: str, starts_on: date, ends_on: date) -> Season:
    """A new season; seasons may overlap (a year, and a summer inside it)."""
    with writing():
        totals.lock_league(league_id)
        season = Season(
            league_id=league_id,
            name=_checked(league_id, name, starts_on, ends_on),
            starts_on=starts_on,
            ends_on=ends_on,
        )
        db.session.add(season)
        db.session.flush()
        totals.refresh_season(season)
    return season


def update_season(
    league_id: int, season_id: int, name: str, starts_on: date, ends_on: date
) -> Season:
    """Rename a season or move its dates; its standings are added up again."""
    with writing():
        totals.lock_league(league_id)
        season = season_in(league_id, season_id)
        if season is None:
            raise NotFound(gettext("There is no such season."))
        season.name = _checked(league_id, name, starts_on, ends_on, own=season.id)
        season.starts_on, season.ends_on = starts_on, ends_on
        db.session.flush()
        totals.refresh_season(season)
    return season


def delete_season(league_id: int, season_id: int) -> None:
    """Remove a season; its games stay, only the date range goes."""
    with writing():
        season = season_in(league_id, season_id)
        if season is None:
            raise NotFound(gettext("There is no such season."))
        db.session.delete(season)
