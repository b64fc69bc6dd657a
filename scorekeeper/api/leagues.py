"""Leagues: the list, a new league, its players, its standings and its games.

Reads use the league pages' own queries (:mod:`~scorekeeper.league.queries`);
changes use the same services as the pages.
"""

from typing import Any

from flask import jsonify, request, url_for
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import Forbidden
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import acting_user, can_read, require_site_admin
from scorekeeper.errors import ServiceError
from scorekeeper.league import players as player_service
from scorekeeper.league import queries
from scorekeeper.league import service as league_service
from scorekeeper.models import Game, League, Player, Role, User, db
from scorekeeper.names import MAX_NAME_LENGTH, printable, squeeze

from .core import (
    ApiError,
    bp,
    invalid,
    json_body,
    query_arguments,
    require_api_role,
    require_user,
)
from .idempotency import idempotent
from .inputs import Problems, league_named, read_id, read_text
from .outputs import game_summary, league_json, player_json, standing_json

MAX_LEAGUE_NAME = 60


def readable_league(slug: str) -> League:
    """The league, if the caller may read it; a private league is a 404 to outsiders."""
    league = league_named(slug)
    if league is None or not can_read(league):
        raise ApiError(404, "There is no such league.")
    return league


def _counts(column: Any, leagues: list[League]) -> dict[int, int]:
    """How many rows of ``column``'s table each league has, in one query."""
    rows = db.session.execute(
        select(column, func.count())
        .where(column.in_([league.id for league in leagues]))
        .group_by(column)
    )
    return {row[0]: row[1] for row in rows}


@bp.get("/leagues")
def leagues() -> Response:
    """The leagues the caller may read, with how many players and games each has."""
    found = queries.readable_leagues(acting_user())
    players, games = _counts(Player.league_id, found), _counts(Game.league_id, found)
    return jsonify(
        [
            {
                "slug": league.slug,
                "name": league.name,
                "public": league.public,
                "players": players.get(league.id, 0),
                "games": games.get(league.id, 0),
            }
            for league in found
        ]
    )


def _league_answer(league: League, status: int = 200) -> Response:
    response = jsonify(league_json(league, queries.players_of(league.id)))
    response.status_code = status
    return response


def site_admin() -> User:
    """The caller, a site administrator: 401, then 403."""
    user = require_user()
    try:
        require_site_admin()
    except Forbidden:
        raise ApiError(403, "Only a site administrator can create a league.") from None
    return user


def league_for_admin(slug: str) -> League:
    """The league, for one of its admins: 401, 404, then 403 (a private one's outsiders too,
    API.md)."""
    require_user()
    found = league_named(slug)
    if found is None:
        raise ApiError(404, "There is no such league.")
    require_api_role(found, Role.ADMIN)
    return found


@bp.post("/leagues")
@idempotent(allowed=site_admin)
def new_league() -> Response:
    """A site administrator creates a league; its slug is made from its name."""
    user = site_admin()
    body = json_body()
    problems = Problems()
    problems.unknown(body, ("name", "public"), "a new league")
    name = read_text(body.get("name"), "name", "name", MAX_LEAGUE_NAME, problems)
    public = True if body.get("public") is None else body["public"]
    if not isinstance(public, bool):
        problems.add("public", "public must be true or false.")
    problems.check()
    try:
        league = league_service.create_league(name or "", public=public, owner_id=user.id)
    except ServiceError as error:
        raise invalid({"name": [error.message]}) from None
    response = _league_answer(league, 201)
    response.headers["Location"] = url_for(".league", slug=league.slug)
    return response


@bp.get("/leagues/<slug>")
def league(slug: str) -> Response:
    """The league and its players."""
    return _league_answer(readable_league(slug))


@bp.post("/leagues/<slug>/players")
@idempotent(allowed=league_for_admin)
def add_player(slug: str) -> Response:
    """A league admin adds a player; the name must be new in the league, ignoring case."""
    found = league_for_admin(slug)
    body = json_body()
    problems = Problems()
    problems.unknown(body, ("name",), "a new player")
    name = read_text(body.get("name"), "name", "name", MAX_NAME_LENGTH, problems)
    problems.check()
    try:
        player = player_service.add_player(found.id, name or "")
    except ServiceError as error:
        raise invalid({"name": [error.message]}) from None
    except IntegrityError:  # the same name, added by another request at the same moment
        raise invalid({"name": [f"{name} is already a player in this league."]}) from None
    response = jsonify(player_json(player))
    response.status_code = 201
    return response


@bp.get("/leagues/<slug>/standings")
def standings(slug: str) -> Response:
    """Every player with a finished game, best first: most wins, then best net money."""
    found = readable_league(slug)
    return jsonify([standing_json(row) for row in queries.standings(found.id)])


@bp.get("/leagues/<slug>/games")
@query_arguments("player", "status", "page")
def games(slug: str) -> Response:
    """The league's games, newest first, by player and status; ``next_page`` is a cursor."""
    found = readable_league(slug)
    problems = Problems()
    player_id = _player_filter(found, request.args.get("player"), problems)
    status = request.args.get("status")
    if status is not None and status not in queries.STATUSES:
        problems.add("status", f"status must be one of {', '.join(queries.STATUSES)}.")
    page = read_id(request.args.get("page"), "page", problems)
    problems.check()
    filters = queries.GameFilters(player=player_id, status=status)
    found_page = queries.archive(found.id, filters, after=page)
    return jsonify(
        {
            "games": [game_summary(game, found) for game in found_page.games],
            "next_page": found_page.older,
        }
    )


def _player_filter(league: League, name: str | None, problems: Problems) -> int | None:
    if name is None:
        return None
    player = player_service.find_player(league.id, name) if printable(name) else None
    if player is None:
        problems.add("player", f"There is no player {squeeze(name)} in this league.")
        return None
    return player.id
