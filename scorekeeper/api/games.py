"""Games: start one, read it, record, correct and delete deals, mark it paid, unlock it.

The same services as the table's pages do every change (with their role
checks, version checks and audit trail); the views only read JSON and answer
JSON.
"""

from collections.abc import Callable

from flask import jsonify, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import can_read, role_in
from scorekeeper.errors import Conflict, NotFound, ServiceError, StaleVersion
from scorekeeper.league.queries import MAX_ID
from scorekeeper.models import Game, League, Role, db
from scorekeeper.table import service as game_service

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
from .inputs import (
    body_version,
    league_named,
    league_stakes,
    query_version,
    read_deal,
    read_new_game,
)
from .outputs import event_json, game_json


def _game(game_id: int) -> Game:
    game = db.session.get(Game, game_id) if game_id <= MAX_ID else None
    if game is None:
        raise ApiError(404, "There is no such game.")
    return game


def readable_game(game_id: int) -> Game:
    """The game, if the caller may read its league (a private league's games are a 404)."""
    game = _game(game_id)
    if not can_read(game.league):
        raise ApiError(404, "There is no such game.")
    return game


def writable_game(game_id: int, role: Role = Role.SCOREKEEPER) -> Game:
    """The game, for a caller with ``role`` in its league: 401, 404, then 403."""
    require_user()
    game = _game(game_id)
    require_api_role(game.league, role)
    return game


def answer(game: Game, status: int = 200) -> Response:
    response = jsonify(game_json(game))
    response.status_code = status
    return response


def changed(game_id: int, change: Callable[[], object], status: int = 200) -> Response:
    """Make a change through a service and answer the game; refusals become 404 and 409."""
    try:
        change()
    except NotFound as error:
        raise ApiError(404, error.message) from None
    except StaleVersion:
        current = _game(game_id).version
        raise ApiError(
            409,
            f"The game changed since that version: it is at version {current} now. "
            "Read it again and send the change again if it is still needed.",
        ) from None
    except Conflict as error:
        raise ApiError(409, error.message) from None
    return answer(_game(game_id), status)


def league_to_play_in() -> League:
    """The body's league, for a caller who keeps score in it: 401, 422, then 403."""
    require_user()
    league = league_named(json_body().get("league"))
    if league is None:
        raise invalid({"league": ["league must be the slug of a league, such as our-table."]})
    require_api_role(league, Role.SCOREKEEPER)
    return league


@bp.post("/games")
@idempotent(allowed=league_to_play_in)
def new_game() -> Response:
    """Start a game in a league (scorekeepers): players, preset, rules, stakes, first dealer."""
    league = league_to_play_in()
    wanted = read_new_game(json_body(), league_stakes(league.defaults))
    try:
        game = game_service.start_game(
            league.id,
            wanted.names,
            wanted.rules,
            wanted.stakes,
            wanted.first_dealer,
            create_players=False,
        )
    except ServiceError as error:
        field = error.field if error.field and error.field.startswith("players") else "players"
        raise ApiError(422, error.message, {field: [error.message]}) from None
    response = answer(_game(game.id), 201)
    response.headers["Location"] = url_for(".game", game_id=game.id)
    return response


@bp.get("/games/<id:game_id>")
def game(game_id: int) -> Response:
    """The game: rules, stakes, every deal with the running totals, winner and settlement."""
    return answer(readable_game(game_id))


@bp.get("/games/<id:game_id>/history")
def history(game_id: int) -> Response:
    """The game's audit trail, newest first: members of its league only (as on its page)."""
    found = readable_game(game_id)
    require_user()
    if role_in(found.league) is None:
        raise ApiError(403, "Only members of the league can read a game's history.")
    return jsonify([event_json(event) for event in game_service.history(found.id)])


@bp.post("/games/<id:game_id>/deals")
@idempotent(allowed=writable_game)
def record_deal(game_id: int) -> Response:
    """Record the next deal; ``version``, when given, must be the game's current one."""
    writable_game(game_id)
    deal = read_deal(json_body())
    return changed(
        game_id,
        lambda: game_service.record_deal(
            game_id, deal.tally, version=deal.version, cards=deal.cards
        ),
        201,
    )


@bp.put("/games/<id:game_id>/deals/<id:number>")
def edit_deal(game_id: int, number: int) -> Response:
    """Correct any deal; everything after it is recomputed (a finished game may reopen)."""
    writable_game(game_id)
    deal = read_deal(json_body())
    return changed(
        game_id,
        lambda: game_service.edit_deal(
            game_id, number, deal.tally, version=deal.version, cards=deal.cards
        ),
    )


@bp.delete("/games/<id:game_id>/deals/<id:number>")
@query_arguments("version")
def delete_deal(game_id: int, number: int) -> Response:
    """Delete any deal; later deals move up one number. ``?version=`` as with a change."""
    writable_game(game_id)
    version = query_version(request.args.get("version"))
    return changed(game_id, lambda: game_service.delete_deal(game_id, number, version=version))


@bp.post("/games/<id:game_id>/paid")
@idempotent(allowed=writable_game)
def mark_paid(game_id: int) -> Response:
    """The loser has paid: the finished game is settled and locked (scorekeepers)."""
    writable_game(game_id)
    version = body_version(json_body(optional=True))
    return changed(game_id, lambda: game_service.mark_paid(game_id, version=version))


@bp.post("/games/<id:game_id>/unlock")
@idempotent(allowed=lambda game_id: writable_game(game_id, Role.ADMIN))
def unlock(game_id: int) -> Response:
    """A league admin unlocks a settled game for corrections; it is unpaid again."""
    writable_game(game_id, Role.ADMIN)
    version = body_version(json_body(optional=True))
    return changed(game_id, lambda: game_service.unlock(game_id, version=version))
