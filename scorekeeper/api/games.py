"""Games of every kind: start one, read it, record, correct and delete deals, end a sitting
and take the end back, mark it paid, unlock it, abandon it and restore it.

The same services as the table's pages do every change (with their role
checks, version checks and audit trail); the views only read JSON and answer
JSON.
"""

from collections.abc import Callable, Mapping
from typing import Any, Final

from flask import jsonify, request, url_for
from pydantic import ValidationError
from werkzeug.wrappers import Response

from scorekeeper.engine import InvalidTally, Rules, Seat, Stakes, Tally, validate_tally
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.engine.games import Refused, kind_named
from scorekeeper.errors import Conflict, NotFound, ServiceError, StaleVersion
from scorekeeper.models import MILLE, Game, League, Role
from scorekeeper.table import access, audit, closing, kind_service, starting
from scorekeeper.table import service as game_service
from scorekeeper.web.messages import problem_fields

from . import answers, kind_answers
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
from .kind_shapes import DealBody, GameToStart, NewGameOfKind
from .leagues import league_named
from .reading import fields_of, read
from .shapes import DealInput, DeleteQuery, NewGame, VersionInput, rules_overridden

#: The stakes a game gets when the request gives none and the league has no defaults.
DEFAULT_STAKES: Final = Stakes.from_small(100)


def readable_game(game_id: int) -> Game:
    """The game, if the caller may read its league (a private league's games are a 404)."""
    return access.game(game_id, api=True)


def writable_game(game_id: int, role: Role = Role.SCOREKEEPER) -> Game:
    """The game, for a caller with ``role`` in its league: 401, 404, then 403."""
    return access.game(game_id, role, api=True)


def _league_to_change(game_id: int) -> str:
    """What recording, correcting or deleting a deal checks before the service loads the
    game: a token (401), the game (404), then the scorekeeper role in its league (403),
    read from the league alone, in one statement; the game's kind, read with it."""
    return access.league_and_kind_of(game_id, Role.SCOREKEEPER, api=True)[1]


def game_json(game: Game, change: object = None) -> dict[str, Any]:
    """A game as every game endpoint answers it (:class:`.kind_answers.AnyGame`), from
    ``change``, the replay of the change just made, when given."""
    return kind_answers.game_answer(game, change)


def answer(game: Game, status: int = 200, change: object = None) -> Response:
    response = jsonify(game_json(game, change))
    response.status_code = status
    return response


Changed = game_service.Saved | kind_service.Played | Game


def changed(game_id: int, change: Callable[[], Changed], status: int = 200) -> Response:
    """Make a change through a service and answer the game it leaves (built from the
    change's own replay when it made one); refusals become 404 and 409."""
    try:
        done = change()
    except NotFound as error:
        raise ApiError(404, error.message) from None
    except StaleVersion:
        current = readable_game(game_id).version
        raise ApiError(
            409,
            f"The game changed since that version: it is at version {current} now. "
            "Read it again and send the change again if it is still needed.",
        ) from None
    except Conflict as error:
        raise ApiError(409, error.message) from None
    except Refused as refused:
        raise invalid(problem_fields(refused.problems)) from None
    if isinstance(done, Game):
        return answer(done, status)
    return answer(done.game, status, done)


def league_to_play_in() -> League:
    """The body's league, for a caller who keeps score in it: 401, 422, then 403."""
    require_user()
    league = league_named(json_body().get("league"))
    if league is None:
        raise invalid({"league": ["league must be the slug of a league, such as our-table."]})
    require_api_role(league, Role.SCOREKEEPER)
    return league


def league_stakes(defaults: Mapping[str, Any] | None) -> Stakes:
    """The stakes a league's new games start from (its settings), else 1.00 and 3.00."""
    stakes = (defaults or {}).get("stakes")
    if not stakes:
        return DEFAULT_STAKES
    return Stakes(small=int(stakes["small"]), big=int(stakes["big"]))


@bp.post("/games")
@declared(
    201, kind_answers.AnyGame, errors=(400, 403, 409), body=GameToStart, token=True, location=True
)
@idempotent(allowed=league_to_play_in)
def new_game() -> Response:
    """Start a game in a league (scorekeepers): which game, its players in seat order, its
    rules and stakes, the first dealer; a game of Mille by default."""
    league = league_to_play_in()
    body = json_body()
    started = _start_mille(league, body) if body.get("game", MILLE) == MILLE else None
    if started is None:
        started = _start_of_kind(league, read(NewGameOfKind, body))
    response = answer(started, 201)
    response.headers["Location"] = url_for(".game", game_id=started.id)
    return response


def _start_mille(league: League, body: dict[str, Any]) -> Game:
    wanted = read(NewGame, body)
    stakes = league_stakes(league.defaults)
    if wanted.stakes is not None:
        small = wanted.stakes.small
        stakes = Stakes(small=small, big=wanted.stakes.big or 3 * small)
    return _started(
        lambda: starting.start_game(
            league.id,
            (wanted.players[0], wanted.players[1]),
            Rules(**rules_overridden(wanted.preset, wanted.rules)),
            stakes,
            None if wanted.first_dealer is None else Seat(wanted.first_dealer),
            create_players=False,
        )
    )


def _start_of_kind(league: League, wanted: NewGameOfKind) -> Game:
    return _started(
        lambda: starting.start_game_of(
            kind_named(wanted.game),
            league.id,
            wanted.players,
            wanted.rules or {},
            wanted.stakes or {},
            wanted.first_dealer,
            create_players=False,
        )
    )


def _started(start: Callable[[], Game]) -> Game:
    """The game ``start`` started; a player or a setup it refused is a 422 at its field."""
    try:
        return start()
    except Refused as refused:
        raise invalid(problem_fields(refused.problems)) from None
    except ServiceError as error:
        field = error.field or "players"
        raise ApiError(422, error.message, {field: [error.message]}) from None


@bp.get("/games/<id:game_id>")
@declared(200, kind_answers.AnyGame, errors=(404,))
def game(game_id: int) -> Response:
    """The game: rules, stakes, every deal with the running totals, winner and settlement."""
    return answer(readable_game(game_id))


@bp.get("/games/<id:game_id>/history")
@declared(200, [answers.Event], errors=(403, 404))
def history(game_id: int) -> Response:
    """The game's audit trail, newest first: members of its league only (as on its page)."""
    found = access.game(game_id, Role.VIEWER, api=True)
    return answers.sent_list([answers.Event.of(event) for event in audit.history(found.id)])


def read_deal(body: dict[str, Any]) -> tuple[Tally, DealInput]:
    """A deal's body: its shape, then every rule of a valid tally, by the engine (RULES.md §2).

    Both are reported at once, as the deal form reports them: the engine reads the raw
    values too (its messages for a value that isn't a whole number are the shape's).
    """
    try:
        deal, fields = DealInput.model_validate(body), {}
    except ValidationError as error:
        deal, fields = None, fields_of(error)
    scores, naturals = body.get("scores"), body.get("naturals") or [0, 0]
    tally = None
    if (
        isinstance(scores, list)
        and isinstance(naturals, list)
        and len(scores) == len(naturals) == 2
    ):
        try:
            tally = validate_tally(body.get("out"), scores, naturals)
        except InvalidTally as error:
            for field, messages in problem_fields(error.problems).items():
                found = fields.setdefault(field.replace("stars", "naturals"), [])
                found += [message for message in messages if message not in found]
    if fields or deal is None or tally is None:
        raise invalid(fields)
    return tally, deal


@bp.post("/games/<id:game_id>/deals")
@declared(201, kind_answers.AnyGame, errors=CHANGE, body=DealBody, token=True)
@idempotent(allowed=writable_game)
def record_deal(game_id: int) -> Response:
    """Record the next deal; ``version``, when given, must be the game's current one."""
    if _league_to_change(game_id) != MILLE:
        raw, version = _entry_and_version(json_body())
        return changed(game_id, lambda: kind_service.record(game_id, raw, version=version), 201)
    tally, deal = read_deal(json_body())
    cards: CountedCards | None = deal.cards
    return changed(
        game_id,
        lambda: game_service.record_deal(game_id, tally, version=deal.version, cards=cards),
        201,
    )


@bp.put("/games/<id:game_id>/deals/<id:number>")
@declared(200, kind_answers.AnyGame, errors=CHANGE, body=DealBody, token=True)
def edit_deal(game_id: int, number: int) -> Response:
    """Correct any deal; everything after it is recomputed (a finished game may reopen)."""
    if _league_to_change(game_id) != MILLE:
        raw, version = _entry_and_version(json_body())
        return changed(game_id, lambda: kind_service.edit(game_id, number, raw, version=version))
    tally, deal = read_deal(json_body())
    cards: CountedCards | None = deal.cards
    return changed(
        game_id,
        lambda: game_service.edit_deal(game_id, number, tally, version=deal.version, cards=cards),
    )


def _entry_and_version(body: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """A deal of another kind than Mille: its entry, for its kind to read, and the
    ``version`` the caller saw."""
    entry = dict(body)
    return entry, read(VersionInput, {"version": entry.pop("version", None)}).version


@bp.delete("/games/<id:game_id>/deals/<id:number>")
@declared(200, kind_answers.AnyGame, errors=CHANGE, query=DeleteQuery, token=True)
def delete_deal(game_id: int, number: int) -> Response:
    """Delete any deal; later deals move up one number. ``?version=`` as with a change."""
    service = game_service if _league_to_change(game_id) == MILLE else kind_service
    version = read(DeleteQuery, request.args.to_dict()).version
    return changed(game_id, lambda: service.delete_deal(game_id, number, version=version))


@bp.post("/games/<id:game_id>/finish")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=writable_game)
def finish(game_id: int) -> Response:
    """End a sitting (scorekeepers): a game that ends by its own rule is a 409."""
    writable_game(game_id)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: kind_service.finish(game_id, version=version))


@bp.post("/games/<id:game_id>/resume")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=writable_game)
def resume(game_id: int) -> Response:
    """Take back the end of a sitting (scorekeepers): it is in progress again, until paid."""
    writable_game(game_id)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: kind_service.resume(game_id, version=version))


@bp.post("/games/<id:game_id>/paid")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=writable_game)
def mark_paid(game_id: int) -> Response:
    """The loser has paid: the finished game is settled and locked (scorekeepers)."""
    writable_game(game_id)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: closing.mark_paid(game_id, version=version))


@bp.post("/games/<id:game_id>/unlock")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=lambda game_id: writable_game(game_id, Role.ADMIN))
def unlock(game_id: int) -> Response:
    """A league admin unlocks a settled game for corrections; it is unpaid again."""
    writable_game(game_id, Role.ADMIN)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: closing.unlock(game_id, version=version))


@bp.post("/games/<id:game_id>/abandon")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=writable_game)
def abandon(game_id: int) -> Response:
    """A scorekeeper abandons a game: it counts like no game until a league admin restores it."""
    writable_game(game_id)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: closing.abandon(game_id, version=version))


@bp.post("/games/<id:game_id>/restore")
@declared(
    200, kind_answers.AnyGame, errors=CHANGE, body=VersionInput, optional_body=True, token=True
)
@idempotent(allowed=lambda game_id: writable_game(game_id, Role.ADMIN))
def restore(game_id: int) -> Response:
    """A league admin restores an abandoned game: it counts again, everywhere."""
    writable_game(game_id, Role.ADMIN)
    version = read(VersionInput, json_body(optional=True)).version
    return changed(game_id, lambda: closing.restore(game_id, version=version))
