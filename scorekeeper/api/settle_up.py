"""Settling up a night through the API (API.md, ``settle-up``): its games' nets per player
and the fewest payments, read by the league's members; every game of it marked paid at
once by a scorekeeper. The same service as the league's page (:mod:`..league.settle_up`)."""

from flask import request
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import role_in
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.league import settle_up
from scorekeeper.models import League, Role

from . import league_answers
from .core import ApiError, bp, invalid, json_body, require_api_role, require_user
from .declared import CHANGE, declared
from .idempotency import idempotent
from .leagues import league_named, readable_league
from .reading import read
from .shapes import SettleUpInput, SettleUpQuery


def _member_league(slug: str) -> League:
    """The league, for one of its members: 401 without a token, 404 if the caller may not
    read it (a private league), then 403 for a public league's outsider."""
    require_user()
    league = readable_league(slug)
    if role_in(league) is None:
        raise ApiError(403, "Only members of the league can settle up.")
    return league


def _scorekeeping_league(slug: str) -> League:
    """The league, for one of its scorekeepers: 401, 404, then 403 (API.md)."""
    require_user()
    league = league_named(slug)
    if league is None:
        raise ApiError(404, "There is no such league.")
    require_api_role(league, Role.SCOREKEEPER)
    return league


@bp.get("/leagues/<slug>/settle-up")
@declared(200, league_answers.Night, errors=(403, 404), query=SettleUpQuery, token=True)
def night(slug: str) -> Response:
    """A night's games (by default tonight's), each player's net and the fewest payments."""
    league = _member_league(slug)
    ids = read(SettleUpQuery, request.args.to_dict()).games
    try:
        games = (
            settle_up.chosen_games(league, ids)
            if ids is not None
            else settle_up.unpaid_games(league, since=settle_up.night_began(league.time_zone))
        )
    except ServiceError as error:
        raise invalid({"games": [error.message]}) from None
    return league_answers.Night.of(settle_up.night_of(league, games)).said()


@bp.post("/leagues/<slug>/settle-up")
@declared(200, league_answers.Night, errors=CHANGE, body=SettleUpInput, token=True)
@idempotent(allowed=_scorekeeping_league)
def settle(slug: str) -> Response:
    """Mark every game of the night paid and locked, or none (409 if one is not an unpaid
    finished game)."""
    league = _scorekeeping_league(slug)
    ids = read(SettleUpInput, json_body()).games
    try:
        settled = settle_up.settle(league, ids)
    except Conflict as error:  # a Conflict is a ServiceError: asked first
        raise ApiError(409, error.message) from None
    except ServiceError as error:
        raise invalid({"games": [error.message]}) from None
    return league_answers.Night.of(settled).said()
