"""The API described for machines: OpenAPI 3.1, served at ``/api/v1/openapi.json``.

The schemas are generated from the classes the API reads (:mod:`.shapes`) and
answers (:mod:`.answers`) with; only the operations are declared here: each path,
its method, its answer and the errors it can give. The tests send every example
through the app and validate each answer against this description, and
Schemathesis generates requests from it.
"""

import copy
import functools
from dataclasses import dataclass, field
from typing import Any, Final

from flask import jsonify
from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue, models_json_schema
from pydantic_core import core_schema
from werkzeug.wrappers import Response

from ..league_queries import MAX_ID, PAGE_SIZE
from . import answers, shapes
from .core import PREFIX, bp
from .idempotency import HEADER, KEY_PATTERN

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


def _query(model: type[shapes.Shape]) -> list[Schema]:
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


SLUG: Final = _path("slug", {"type": "string"}, "The league's slug, e.g. our-table.")
GAME: Final = _path(
    "game_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, "The game's id."
)
NUMBER: Final = _path("number", {"type": "integer", "minimum": 1}, "The deal's number, from 1.")
IDEMPOTENCY: Final = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "schema": {"type": "string", "pattern": KEY_PATTERN},
    "description": "A retry with the same key gets the first answer instead of a second change.",
}
REPLAYED: Final = ("Idempotent-Replayed",)
DEAL_ERRORS: Final = (400, 403, 404, 409, 422)


@dataclass(frozen=True)
class Op:
    """One operation: its answer, its errors, and for a write the bearer token it needs."""

    summary: str
    status: int
    answer: str
    schema: Schema
    errors: tuple[int, ...] = ()
    body: type[BaseModel] | None = None
    body_required: bool = True
    parameters: list[Schema] = field(default_factory=list)
    headers: tuple[str, ...] = ()
    write: bool = False

    def described(self) -> Schema:
        answer: Schema = {"description": self.answer, **_json(self.schema)}
        if self.headers:
            answer["headers"] = {name: {"schema": {"type": "string"}} for name in self.headers}
        found: Schema = {
            "summary": self.summary,
            "responses": {
                str(self.status): answer,
                **{
                    str(code): {"description": ERRORS[code], **_json(ref(answers.Error))}
                    for code in sorted({401, 422, *self.errors})
                },
            },
        }
        if self.body is not None:
            found["requestBody"] = {"required": self.body_required, **_json(ref(self.body))}
        if self.parameters:
            found["parameters"] = self.parameters
        if self.write:
            found["security"] = [{"bearer": []}]
        return found


def _json(schema: Schema) -> Schema:
    return {"content": {"application/json": {"schema": schema}}}


def _writes(*parameters: Schema, headers: tuple[str, ...] = REPLAYED) -> dict[str, Any]:
    return {"parameters": [*parameters, IDEMPOTENCY], "headers": headers, "write": True}


A = answers
PATHS: Final[dict[str, dict[str, Op]]] = {
    "/leagues": {
        "get": Op("The leagues the caller may read.", 200, "Leagues.", array(A.LeagueSummary)),
        "post": Op(
            "A site administrator creates a league; its slug is made from its name.",
            201,
            "The league.",
            ref(A.League),
            (400, 403, 409, 422),
            shapes.NewLeague,
            **_writes(headers=("Location", *REPLAYED)),
        ),
    },
    "/leagues/{slug}": {
        "get": Op(
            "A league and its players.",
            200,
            "The league.",
            ref(A.League),
            (404,),
            parameters=[SLUG],
        ),
    },
    "/leagues/{slug}/players": {
        "post": Op(
            "A league admin adds a player (a name new in the league, ignoring case).",
            201,
            "The player.",
            ref(A.Player),
            (400, 403, 404, 409, 422),
            shapes.NewPlayer,
            **_writes(SLUG),
        ),
    },
    "/leagues/{slug}/standings": {
        "get": Op(
            "Every player with a finished game, best first: most wins, then best net.",
            200,
            "Standings.",
            array(A.Standing),
            (404,),
            parameters=[SLUG],
        ),
    },
    "/leagues/{slug}/games": {
        "get": Op(
            f"The league's games, newest first, {PAGE_SIZE} a page.",
            200,
            "A page of games.",
            ref(A.GamePage),
            (404, 422),
            parameters=[SLUG, *_query(shapes.GamesQuery)],
        ),
    },
    "/games": {
        "post": Op(
            "A scorekeeper of the league starts a game.",
            201,
            "The game.",
            ref(A.Game),
            (400, 403, 409, 422),
            shapes.NewGame,
            **_writes(headers=("Location", *REPLAYED)),
        ),
    },
    "/games/{game_id}": {
        "get": Op(
            "The game: every deal with the running totals, the winner and the settlement.",
            200,
            "The game.",
            ref(A.Game),
            (404,),
            parameters=[GAME],
        ),
    },
    "/games/{game_id}/history": {
        "get": Op(
            "The game's audit trail, newest first (members of its league).",
            200,
            "Changes.",
            array(A.Event),
            (403, 404),
            parameters=[GAME],
        ),
    },
    "/games/{game_id}/deals": {
        "post": Op(
            "Record the next deal.",
            201,
            "The game, with the deal.",
            ref(A.Game),
            DEAL_ERRORS,
            shapes.DealInput,
            **_writes(GAME),
        ),
    },
    "/games/{game_id}/deals/{number}": {
        "put": Op(
            "Correct a deal; everything after it is recomputed.",
            200,
            "The game, after the change.",
            ref(A.Game),
            DEAL_ERRORS,
            shapes.DealInput,
            parameters=[GAME, NUMBER],
            write=True,
        ),
        "delete": Op(
            "Delete a deal; later deals are renumbered.",
            200,
            "The game, after the change.",
            ref(A.Game),
            (403, 404, 409, 422),
            parameters=[GAME, NUMBER, *_query(shapes.DeleteQuery)],
            write=True,
        ),
    },
    "/games/{game_id}/paid": {
        "post": Op(
            "Mark the loser's payment paid: the finished game is settled and locked.",
            200,
            "The game.",
            ref(A.Game),
            DEAL_ERRORS,
            shapes.VersionInput,
            body_required=False,
            **_writes(GAME),
        ),
    },
    "/games/{game_id}/unlock": {
        "post": Op(
            "A league admin unlocks a settled game; it is unpaid again.",
            200,
            "The game.",
            ref(A.Game),
            DEAL_ERRORS,
            shapes.VersionInput,
            body_required=False,
            **_writes(GAME),
        ),
    },
    "/count": {
        "post": Op(
            "Count a deal from the cards: both deal scores and stars.",
            200,
            "The count.",
            ref(A.Count),
            (400, 422),
            shapes.CountRequest,
        ),
    },
    "/openapi.json": {
        "get": Op("This description.", 200, "OpenAPI 3.1.", {"type": "object"}),
    },
}

#: Every class of the description, and whether it is read (validation) or answered.
READ: Final = (
    shapes.NewGame,
    shapes.DealInput,
    shapes.VersionInput,
    shapes.NewLeague,
    shapes.NewPlayer,
    shapes.CountRequest,
    shapes.Cards,
)
ANSWERED: Final = (
    A.Error,
    A.Game,
    A.GamePage,
    A.LeagueSummary,
    A.League,
    A.Player,
    A.Standing,
    A.Event,
    A.Count,
)


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
        "paths": {
            path: {method: op.described() for method, op in item.items()}
            for path, item in PATHS.items()
        },
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
