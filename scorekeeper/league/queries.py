"""What the league pages read besides standings and balances: the archive of games (with
its filters and pages), the leagues a user may read, and a league's players.

Every function here reads the derived tables of :mod:`.stats` or the games' own derived
columns with a fixed number of queries, whatever the league's size: no query per row,
and no page that replays a game. The JSON API calls the same functions; they return
plain rows, not HTML.
"""

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import and_, bindparam, or_, select, true, tuple_, union_all
from sqlalchemy.orm import joinedload
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.models import (
    FINISHED,
    IN_PROGRESS,
    MAX_ID,
    Game,
    League,
    Membership,
    Player,
    Season,
    User,
    db,
)
from scorekeeper.records.totals import season_range

PAGE_SIZE = 25


STATUSES = {
    IN_PROGRESS: "In progress",
    FINISHED: "Finished",
    "unpaid": "Finished, not paid",
    "paid": "Paid",
}

#: Abandoned games: never counted, listed only in the archive, by this filter or unfiltered.
ABANDONED = "abandoned"

#: The archive page's filters: the API's, and the abandoned games.
ARCHIVE_STATUSES = {**STATUSES, ABANDONED: "Abandoned"}


@dataclass(frozen=True)
class GameFilters:
    """Which games to list; None means any."""

    player: int | None = None
    opponent: int | None = None  # only with a player
    season: Season | None = None
    status: str | None = None
    preset: str | None = None  # a preset's value, or "custom"
    #: Abandoned games too, when no status is chosen (the archive page lists them, marked);
    #: everything else reads only the games that count.
    abandoned: bool = False


@dataclass(frozen=True)
class ArchivePage:
    """One page of games, newest first, with the cursors to the pages on either side."""

    games: list[Game]
    newer: int | None  # list games played after this game (``before=``) for the newer page
    older: int | None  # list games played before this game (``after=``) for the older page


def archive(
    league_id: int,
    filters: GameFilters = GameFilters(),
    *,
    after: int | None = None,
    before: int | None = None,
    limit: int = PAGE_SIZE,
) -> ArchivePage:
    """Games newest first, by when they were played (:attr:`Game.played_at`, the id
    breaking ties): those played before game ``after``, or after game ``before``.

    Keyset pages (``(played_at, id) < (that game's, its id)``) cost the same at page 500
    as at page 1; the cursor stays a game id, so links and the API's ``next_page`` keep
    their form.
    """
    newest_first = before is None
    bound: ColumnElement[bool] = true()
    if after is not None:
        bound = _played_key() < _played_key_of(league_id, after)
    elif before is not None:
        bound = _played_key() > _played_key_of(league_id, before)
    games = _games(league_id, filters, bound, newest_first, limit + 1)
    more = len(games) > limit  # beyond this page, in the direction read
    games = games[:limit]
    if not games:
        return ArchivePage([], None, None)
    if newest_first:
        # Reached from a newer page (``after``), there is one to go back to.
        return ArchivePage(games, games[0].id if after else None, games[-1].id if more else None)
    games.reverse()
    # Reached from an older page (``before``), there is one to go forward to.
    return ArchivePage(games, games[0].id if more else None, games[-1].id)


def _played_key() -> Any:
    """The order of "newest first", read backwards."""
    return tuple_(Game.played_at, Game.id)


def _played_key_of(league_id: int, game_id: int) -> Any:
    """The cursor game's place in that order, read inside the page's own query (a
    game of another league, or none, is no place: the page is empty)."""
    played_at = (
        select(Game.played_at)
        .where(Game.id == game_id, Game.league_id == league_id)
        .scalar_subquery()
    )
    return tuple_(played_at, game_id)


def _games(
    league_id: int,
    filters: GameFilters,
    bound: ColumnElement[bool],
    newest_first: bool,
    limit: int,
) -> list[Game]:
    order: list[ColumnElement[Any]] = (
        [Game.played_at.desc(), Game.id.desc()]
        if newest_first
        else [Game.played_at.asc(), Game.id.asc()]
    )
    conditions = [Game.league_id == league_id, bound, *_filter_conditions(filters)]
    sides = seat_conditions(filters)
    query = select(Game).options(joinedload(Game.player0), joinedload(Game.player1))
    if len(sides) == 1:
        query = query.where(*conditions, *sides)
    else:
        # One index range per seat, each already in the order read, instead of an OR
        # that would read every game of the player and sort them.
        branches = [
            select(Game.id).where(*conditions, side).order_by(*order).limit(limit).subquery()
            for side in sides
        ]
        ids = union_all(*(select(branch.c.id) for branch in branches)).subquery()
        query = query.where(Game.id.in_(select(ids.c.id)))
    return list(db.session.scalars(query.order_by(*order).limit(limit)))


def seat_conditions(filters: GameFilters) -> list[ColumnElement[bool]]:
    player, opponent = filters.player, filters.opponent
    if player is None:
        return [true()]
    if opponent is None:
        return [Game.player0_id == player, Game.player1_id == player]
    return [
        and_(Game.player0_id == player, Game.player1_id == opponent),
        and_(Game.player0_id == opponent, Game.player1_id == player),
    ]


def _filter_conditions(filters: GameFilters) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if filters.status == ABANDONED:
        conditions.append(Game.abandoned_at.is_not(None))
    elif filters.status is not None or not filters.abandoned:
        conditions.append(Game.abandoned_at.is_(None))
    if filters.status in (IN_PROGRESS, FINISHED):
        conditions.append(Game.status == filters.status)
    elif filters.status == "unpaid":
        conditions += [Game.status == FINISHED, Game.paid_at.is_(None)]
    elif filters.status == "paid":
        conditions.append(Game.paid_at.is_not(None))
    if filters.preset == "custom":
        conditions.append(Game.preset.is_(None))
    elif filters.preset:
        conditions.append(Game.preset == filters.preset)
    if filters.season is not None:
        start, end = season_range(filters.season)
        # A finished game belongs to the season it ended in; one in progress to the
        # season it started in.
        conditions.append(
            or_(
                and_(Game.finished_at >= start, Game.finished_at < end),
                and_(Game.finished_at.is_(None), Game.created_at >= start, Game.created_at < end),
            )
        )
    return conditions


def readable_leagues(user: User | None) -> list[League]:
    """The leagues ``user`` may read (None: a visitor): public ones, and their own."""
    query = select(League).order_by(League.name)
    if user is None:
        query = query.where(League.public)
    elif not user.is_admin:
        member_of = select(Membership.league_id).where(Membership.user_id == user.id)
        query = query.where(or_(League.public, League.id.in_(member_of)))
    return list(db.session.scalars(query))


_PLAYERS: Final = (
    select(Player).where(Player.league_id == bindparam("league_id")).order_by(Player.name_key)
)


def players_of(league_id: int) -> list[Player]:
    """The league's players by name, for the pages' choosers."""
    return list(db.session.scalars(_PLAYERS, {"league_id": league_id}))


def player_in(league_id: int, player_id: int | None) -> Player | None:
    if player_id is None or not 0 < player_id <= MAX_ID:
        return None
    player = db.session.get(Player, player_id)
    return player if player is not None and player.league_id == league_id else None
