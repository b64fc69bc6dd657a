"""The API described for machines: OpenAPI 3.1, served at ``/api/v1/openapi.json``.

The schemas are generated from the classes the API reads (:mod:`.shapes`) and
answers (:mod:`.answers`) with; only the operations are declared here: each path,
its method, its answer and the errors it can give. The tests send every example
through the app and validate each answer against this description, and
Schemathesis generates requests from it.
"""

import copy
import functools
import re
from http import HTTPStatus
from typing import Any, Final

from flask import jsonify
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema
from werkzeug.wrappers import Response

from scorekeeper.league.queries import MAX_ID

from . import answers, count, games, leagues, seats
from .core import PREFIX, bp
from .idempotency import HEADER, KEY_PATTERN
from .shapes import (
    Cards,
    CountRequest,
    DealInput,
    DeleteQuery,
    GamesQuery,
    NewGame,
    NewLeague,
    NewPlayer,
    Shape,
    VersionInput,
)

Schema = dict[str, Any]
REF: Final = "#/components/schemas/{model}"

ERRORS: Final = {
    400: "The body is not JSON, or not a JSON object (or the Idempotency-Key is malformed).",
    401: "No token on a write, or a bad token on any request.",
    403: "The token's user doesn't have the role this needs.",
    404: "No such league, game or deal (a private league is a 404 to outsiders).",
    409: "The request conflicts with the game's state: finished, locked, or a stale version.",
    422: "A field or query argument is invalid (or unknown); fields names each one "
    "with the rule it broke.",
}


class _Described(GenerateJsonSchema):
    """pydantic's JSON Schema without the titles it makes up from class and field names."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def model_schema(self, schema: core_schema.ModelSchema) -> JsonSchemaValue:
        found = super().model_schema(schema)
        found.pop("title", None)
        return found

    def enum_schema(self, schema: core_schema.EnumSchema) -> JsonSchemaValue:
        found = super().enum_schema(schema)
        found.pop("title", None)
        return found


def ref(model: type[BaseModel]) -> Schema:
    return {"$ref": REF.format(model=model.__name__)}


def array(model: type[BaseModel]) -> Schema:
    return {"type": "array", "items": ref(model)}


def _path(name: str, schema: Schema, description: str) -> Schema:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": schema,
        "description": description,
    }


def _query(model: type[Shape]) -> list[Schema]:
    """The query arguments of ``model``: each optional, never null."""
    found = []
    properties = model.model_json_schema(schema_generator=_Described)["properties"]
    for name, schema in properties.items():
        schema = dict(schema)
        description = schema.pop("description", "")
        schema.pop("default", None)
        choices = [s for s in schema.pop("anyOf", [schema]) if s != {"type": "null"}]
        found.append(
            {
                "name": name,
                "in": "query",
                "required": False,
                "schema": {**schema, **choices[0]},
                "description": description,
            }
        )
    return found


PARAMETERS: Final = {
    "slug": _path("slug", {"type": "string"}, "The league's slug, e.g. our-table."),
    "game_id": _path("game_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, "The id."),
    "number": _path("number", {"type": "integer", "minimum": 1}, "The deal's number, from 1."),
    "token": _path(
        "token",
        {"type": "string"},
        "A seat's link's token (the end of /s/<token>): no bearer token is needed.",
    ),
}
IDEMPOTENCY: Final = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": KEY_PATTERN},
    "description": "A retry with the same key gets the first answer instead of a second change.",
}
A = answers
DEAL: Final = "/games/{game_id}/deals/{number}"
CHANGE: Final = (400, 403, 404, 409, 422)
#: Each operation: method, path, view (its docstring is the summary), status, answer,
#: errors besides 401 and 422, and the body or query it reads. A write needs a token.
OPERATIONS: Final[list[tuple[Any, ...]]] = [
    ("get", "/leagues", leagues.leagues, 200, [A.LeagueSummary], ()),
    ("post", "/leagues", leagues.new_league, 201, A.League, (400, 403, 409), NewLeague),
    ("get", "/leagues/{slug}", leagues.league, 200, A.League, (404,)),
    ("post", "/leagues/{slug}/players", leagues.add_player, 201, A.Player, CHANGE, NewPlayer),
    ("get", "/leagues/{slug}/standings", leagues.standings, 200, [A.Standing], (404,)),
    ("get", "/leagues/{slug}/games", leagues.games, 200, A.GamePage, (404,), GamesQuery),
    ("post", "/games", games.new_game, 201, A.Game, (400, 403, 409), NewGame),
    ("get", "/games/{game_id}", games.game, 200, A.Game, (404,)),
    ("get", "/games/{game_id}/history", games.history, 200, [A.Event], (403, 404)),
    ("post", "/games/{game_id}/deals", games.record_deal, 201, A.Game, CHANGE, DealInput),
    ("put", DEAL, games.edit_deal, 200, A.Game, CHANGE, DealInput),
    ("delete", DEAL, games.delete_deal, 200, A.Game, CHANGE, DeleteQuery),
    ("post", "/games/{game_id}/paid", games.mark_paid, 200, A.Game, CHANGE, VersionInput),
    ("post", "/games/{game_id}/unlock", games.unlock, 200, A.Game, CHANGE, VersionInput),
    ("post", "/count", count.count, 200, A.Count, (400,), CountRequest),
    ("get", "/games/{game_id}/agreements", seats.agreements, 200, [A.Agreement], (404,)),
    ("get", "/seats/{token}", seats.seat, 200, A.SeatCard, (404,)),
    ("post", "/seats/{token}/agreement", seats.agree, 201, A.SeatCard, (400, 404, 409),
     VersionInput),
]  # fmt: skip


def _json(schema: Schema) -> Schema:
    return {"content": {"application/json": {"schema": schema}}}


def _operation(
    method: str, path: str, view: Any, status: int, answered: Any, errors: tuple[int, ...],
    reads: type[BaseModel] | None = None,
) -> Schema:  # fmt: skip
    schema = array(answered[0]) if isinstance(answered, list) else ref(answered)
    write = method != "get" and 403 in errors
    answer: Schema = {"description": HTTPStatus(status).phrase + ".", **_json(schema)}
    headers = ["Location"] * (status == 201 and "{" not in path) + ["Idempotent-Replayed"]
    if write and method == "post":
        answer["headers"] = {name: {"schema": {"type": "string"}} for name in headers}
    found: Schema = {
        "summary": view.__doc__.split("\n")[0].split("; ")[0].rstrip(".:") + ".",
        "responses": {
            str(status): answer,
            **{
                str(code): {"description": ERRORS[code], **_json(ref(A.Error))}
                for code in sorted({401, 422, *errors})
            },
        },
    }
    parameters = [PARAMETERS[name] for name in re.findall(r"{(\w+)}", path)]
    if reads in (GamesQuery, DeleteQuery):
        parameters += _query(reads)  # type: ignore[arg-type]
    elif reads is not None:
        found["requestBody"] = {"required": reads is not VersionInput, **_json(ref(reads))}
    if write and method == "post":
        parameters.append(IDEMPOTENCY)
    if parameters:
        found["parameters"] = parameters
    if write:
        found["security"] = [{"bearer": []}]
    return found


#: Every class of the description, and whether it is read (validation) or answered.
READ: Final = (NewGame, DealInput, VersionInput, NewLeague, NewPlayer, CountRequest, Cards)
ANSWERED: Final = (
    A.Error, A.Game, A.GamePage, A.LeagueSummary, A.League, A.Player, A.Standing, A.Event, A.Count,
    A.Agreement, A.SeatCard,
)  # fmt: skip


def paths() -> dict[str, Any]:
    found: dict[str, Any] = {}
    for method, path, *rest in OPERATIONS:
        found.setdefault(path, {})[method] = _operation(method, path, *rest)
    answer = {"200": {"description": "OpenAPI 3.1.", **_json({"type": "object"})}}
    for code in (401, 422):
        answer[str(code)] = {"description": ERRORS[code], **_json(ref(A.Error))}
    found["/openapi.json"] = {"get": {"summary": "This description.", "responses": answer}}
    return found


@functools.cache
def _document() -> dict[str, Any]:
    _, schemas = models_json_schema(
        [(model, "validation") for model in READ]
        + [(model, "serialization") for model in ANSWERED],
        ref_template=REF,
        schema_generator=_Described,
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Mille Scorekeeper API",
            "version": "1.0.0",
            "description": "Everything a page can do with a league or a game, as JSON. "
            "Money is a decimal string with two places; seats are 0 and 1; every "
            "per-player list is in seat order. See the README's API section.",
        },
        "servers": [{"url": PREFIX}],
        "security": [{}, {"bearer": []}],
        "paths": paths(),
        "components": {
            "schemas": schemas["$defs"],
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "flask --app scorekeeper token create USERNAME, "
                    "or the account page.",
                }
            },
        },
    }


def spec() -> dict[str, Any]:
    """The whole description, as a new dict."""
    return copy.deepcopy(_document())


@bp.get("/openapi.json")
def openapi() -> Response:
    """This API described in OpenAPI 3.1."""
    return jsonify(_document())
