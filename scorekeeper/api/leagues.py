"""Leagues: the list, a new league, its players, its standings and its games.

Reads use the league pages' own queries (:mod:`~scorekeeper.league.queries`);
changes use the same services as the pages.
"""

import re
from typing import Any, Final

from flask import request, url_for
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import Forbidden
from werkzeug.wrappers import Response

from scorekeeper.accounts import invitations as invitation_service
from scorekeeper.accounts.permissions import acting_user, can_read, require_site_admin
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.league import queries
from scorekeeper.league import service as league_service
from scorekeeper.league import standings as standing_queries
from scorekeeper.league.kind_standings import kind_standings
from scorekeeper.models import MILLE, Game, League, Player, Role, User, db
from scorekeeper.names import printable, squeeze
from scorekeeper.records import merging
from scorekeeper.records import players as player_service
from scorekeeper.records.leagues import MAX_SLUG, league_by_slug
from scorekeeper.table import audit

from . import answers, league_answers
from .core import (
    ApiError,
    bp,
    invalid,
    json_body,
    require_api_role,
    require_user,
)
from .declared import CHANGE, declared
from .idempotency import idempotent
from .reading import read
from .shapes import (
    GamesQuery,
    NewInvitation,
    NewLeague,
    NewPlayer,
    PlayerMerge,
    PlayerRename,
    StandingsQuery,
)

_SLUG: Final = re.compile(rf"[a-z0-9-]{{1,{MAX_SLUG}}}")


def league_named(slug: object) -> League | None:
    """The league with this slug, if the value can be one (no query for any other value)."""
    if not isinstance(slug, str) or not _SLUG.fullmatch(slug):
        return None
    return league_by_slug(slug)


def readable_league(slug: str) -> League:
    """The league, if the caller may read it; a private league is a 404 to outsiders."""
    league = league_named(slug)
    if league is None or not can_read(league):
        raise ApiError(404, "There is no such league.")
    return league


def _counts(column: Any, leagues: list[League], *also: Any) -> dict[int, int]:
    """How many rows of ``column``'s table each league has (that meet ``also``), in one query."""
    rows = db.session.execute(
        select(column, func.count())
        .where(column.in_([league.id for league in leagues]), *also)
        .group_by(column)
    )
    return {row[0]: row[1] for row in rows}


@bp.get("/leagues")
@declared(200, [league_answers.LeagueSummary])
def leagues() -> Response:
    """The leagues the caller may read, with how many players and games each has."""
    found = queries.readable_leagues(acting_user())
    players = _counts(Player.league_id, found)
    games = _counts(Game.league_id, found, Game.abandoned_at.is_(None))  # those that count
    return answers.sent_list(
        [
            league_answers.LeagueSummary(
                slug=league.slug,
                name=league.name,
                public=league.public,
                players=players.get(league.id, 0),
                games=games.get(league.id, 0),
            )
            for league in found
        ]
    )


def _league_answer(league: League, status: int = 200) -> Response:
    return league_answers.League.of(league, queries.players_of(league.id)).sent(status)


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
@declared(
    201, league_answers.League, errors=(400, 403, 409), body=NewLeague, token=True, location=True
)
@idempotent(allowed=site_admin)
def new_league() -> Response:
    """A site administrator creates a league; its slug is made from its name."""
    user = site_admin()
    wanted = read(NewLeague, json_body())
    public = True if wanted.public is None else wanted.public
    try:
        league = league_service.create_league(wanted.name, public=public, owner_id=user.id)
    except ServiceError as error:
        raise invalid({"name": [error.message]}) from None
    response = _league_answer(league, 201)
    response.headers["Location"] = url_for(".league", slug=league.slug)
    return response


@bp.get("/leagues/<slug>")
@declared(200, league_answers.League, errors=(404,))
def league(slug: str) -> Response:
    """The league and its players."""
    return _league_answer(readable_league(slug))


@bp.post("/leagues/<slug>/players")
@declared(201, league_answers.Player, errors=CHANGE, body=NewPlayer, token=True)
@idempotent(allowed=league_for_admin)
def add_player(slug: str) -> Response:
    """A league admin adds a player; the name must be new in the league, ignoring case."""
    found = league_for_admin(slug)
    name = read(NewPlayer, json_body()).name
    try:
        player = player_service.add_player(found.id, name)
    except ServiceError as error:
        raise invalid({"name": [error.message]}) from None
    except IntegrityError:  # the same name, added by another request at the same moment
        raise invalid({"name": [f"{name} is already a player in this league."]}) from None
    return league_answers.Player.of(player).sent(201)


NO_PLAYER: Final = "There is no such player in this league."


def admin_of_player(slug: str, player_id: int) -> League:
    """The player's league, for one of its admins (:func:`league_for_admin`)."""
    return league_for_admin(slug)


def _player_of(league: League, player_id: int) -> Player:
    """The league's player with this id (after the caller's checks): 404 otherwise."""
    player = queries.player_in(league.id, player_id)
    if player is None:
        raise ApiError(404, NO_PLAYER)
    return player


@bp.post("/leagues/<slug>/players/<id:player_id>/rename")
@declared(200, league_answers.Player, errors=(400, 403, 404), body=PlayerRename, token=True)
@idempotent(allowed=admin_of_player)
def rename_player(slug: str, player_id: int) -> Response:
    """A league admin renames a player; a name another player of the league has is refused
    (if they are one person, merge them). The pages show the new name everywhere; the
    history keeps what was said then."""
    found = league_for_admin(slug)
    player = _player_of(found, player_id)
    name = read(PlayerRename, json_body()).name
    try:
        player = player_service.rename_player(found.id, player.id, name, by=audit.actor_id())
    except NotFound:
        raise ApiError(404, NO_PLAYER) from None
    except ServiceError as error:
        raise invalid({"name": [error.message]}) from None
    except IntegrityError:  # the same name, given by another request at the same moment
        raise invalid({"name": [f"{name} is already a player in this league."]}) from None
    return league_answers.Player.of(player).sent()


@bp.post("/leagues/<slug>/players/<id:player_id>/merge")
@declared(200, league_answers.Player, errors=CHANGE, body=PlayerMerge, token=True)
@idempotent(allowed=admin_of_player)
def merge_player(slug: str, player_id: int) -> Response:
    """A league admin merges a player into another who is the same person; the answer is the
    player kept. Every game, record, rating and payment follows, as if there had always been
    one player; two players who sat at the same game are refused (409)."""
    found = league_for_admin(slug)
    player = _player_of(found, player_id)
    wanted = read(PlayerMerge, json_body())
    try:
        kept = merging.merge_players(
            found.id, player.id, wanted.into, handle=wanted.handle, by=audit.actor_id()
        )
    except Conflict as error:
        raise ApiError(409, error.message) from None
    except NotFound:
        raise ApiError(404, NO_PLAYER) from None
    except ServiceError as error:
        raise invalid({error.field or "into": [error.message]}) from None
    return league_answers.Player.of(kept).sent()


@bp.get("/leagues/<slug>/standings")
@declared(200, league_answers.Standings, errors=(404,), query=StandingsQuery)
def standings(slug: str) -> Response:
    """Every player with a finished game of one game (Mille unless ``game`` says), best first:
    Mille's by most wins, then best net money; any other game's by best net money."""
    found = readable_league(slug)
    game = read(StandingsQuery, request.args.to_dict()).game
    if game is not None and game != MILLE:
        return answers.sent_list(
            [league_answers.KindStanding.of(row) for row in kind_standings(found.id, game)]
        )
    return answers.sent_list(
        [league_answers.Standing.of(row) for row in standing_queries.standings(found.id)]
    )


@bp.get("/leagues/<slug>/games")
@declared(200, answers.GamePage, errors=(404,), query=GamesQuery)
def games(slug: str) -> Response:
    """The league's games, newest first, by player and status; ``next_page`` is a cursor."""
    found = readable_league(slug)
    wanted = read(GamesQuery, request.args.to_dict())
    player_id = None
    if wanted.player is not None:
        name = wanted.player
        player = player_service.find_player(found.id, name) if printable(name) else None
        if player is None:
            raise invalid({"player": [f"There is no player {squeeze(name)} in this league."]})
        player_id = player.id
    # An abandoned game counts like no game: the API lists only the others.
    filters = queries.GameFilters(player=player_id, status=wanted.status, abandoned=False)
    found_page = queries.archive(found.id, filters, after=wanted.page)
    return answers.GamePage(
        games=[answers.summary(game, found) for game in found_page.games],
        next_page=found_page.older,
    ).sent()


@bp.get("/leagues/<slug>/invitations")
@declared(200, [league_answers.Invitation], errors=(403, 404), token=True)
def invitations(slug: str) -> Response:
    """A league admin lists the league's open invitations, newest first (never a token)."""
    found = league_for_admin(slug)
    return answers.sent_list(
        [league_answers.Invitation.of(row) for row in invitation_service.open_invitations(found.id)]
    )


@bp.post("/leagues/<slug>/invitations")
@declared(
    201, league_answers.CreatedInvitation, errors=(400, 403, 404), body=NewInvitation, token=True
)
def invite(slug: str) -> Response:
    """A league admin makes an invitation link with a role; its token is in this answer
    only. No ``Idempotency-Key``: a kept answer would keep the token."""
    found = league_for_admin(slug)
    role = Role[read(NewInvitation, json_body()).role.upper()]
    user = require_user()
    try:
        invitation, token = invitation_service.create(found.id, role, user.id)
    except ServiceError as error:
        raise invalid({"role": [error.message]}) from None
    url = url_for("auth.invitation", token=token, _external=True)
    response = league_answers.CreatedInvitation.made(invitation, token, url).sent(201)
    response.headers["Cache-Control"] = "no-store"  # shown once: kept by no cache
    return response
