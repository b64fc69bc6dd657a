"""The API described for machines: OpenAPI 3.1, served at ``/api/v1/openapi.json``.

Derived from the routes registered on the API's blueprint and the declaration under each
(:func:`.declared.declared`): the path and method from the route, the summary from the
view's docstring, the rest from the declaration; the schemas from the classes the API
reads (:mod:`.shapes`) and answers (:mod:`.answers`) with. Nothing here names a route.
The tests send every example through the app and validate each answer against this
description, and Schemathesis generates requests from it.

Imported when the description is first asked for (pydantic's JSON Schema machinery).
"""

import copy
import functools
import re
from http import HTTPStatus
from typing import Any, Final

from flask import Flask
from pydantic import BaseModel
from pydantic.json_schema import (
    GenerateJsonSchema,
    JsonSchemaMode,
    JsonSchemaValue,
    models_json_schema,
)
from pydantic_core import core_schema

from scorekeeper.models import MAX_ID
from scorekeeper.version import app_version

from . import answers
from .core import PREFIX, bp
from .declared import Operation, operation_of
from .idempotency import HEADER, KEY_PATTERN
from .shapes import Cards

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
#: Every route gives these: a bad token (401), an unknown query argument (422).
ALWAYS: Final = (401, 422)
#: Described besides the classes the routes name: ``DealInput.cards`` refers to it.
ALSO_READ: Final[tuple[type[BaseModel], ...]] = (Cards,)


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


def _path(name: str, schema: Schema, description: str) -> Schema:
    return {
        "name": name,
        "in": "path",
        "required": True,
        "schema": schema,
        "description": description,
    }


#: Each path parameter, by its name in the routes.
PARAMETERS: Final = {
    "slug": _path("slug", {"type": "string"}, "The league's slug, e.g. our-table."),
    "game_id": _path("game_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, "The id."),
    "player_id": _path(
        "player_id", {"type": "integer", "minimum": 1, "maximum": MAX_ID}, "The player's id."
    ),
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


def _json(schema: Schema) -> Schema:
    return {"content": {"application/json": {"schema": schema}}}


def _ref(model: type[BaseModel]) -> Schema:
    return {"$ref": REF.format(model=model.__name__)}


def _schema(answered: Any) -> Schema:
    if isinstance(answered, list):
        return {"type": "array", "items": _ref(answered[0])}
    return answered if isinstance(answered, dict) else _ref(answered)


def _query(model: type[BaseModel]) -> list[Schema]:
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


def _answers(declared: Operation, idempotent: bool) -> Schema:
    answer: Schema = {
        "description": declared.described_as or HTTPStatus(declared.status).phrase + ".",
        **_json(_schema(declared.answer)),
    }
    headers = ["Location"] * declared.location + ["Idempotent-Replayed"] * idempotent
    if headers:
        answer["headers"] = {name: {"schema": {"type": "string"}} for name in headers}
    refused = {
        str(code): {"description": ERRORS[code], **_json(_ref(answers.Error))}
        for code in sorted({*ALWAYS, *declared.errors})
    }
    return {str(declared.status): answer, **refused}


def _operation(path: str, view: Any, declared: Operation) -> Schema:
    idempotent = getattr(view, "idempotent", False)
    found: Schema = {
        "summary": view.__doc__.split("\n")[0].split("; ")[0].rstrip(".:") + ".",
        "responses": _answers(declared, idempotent),
    }
    parameters = [PARAMETERS[name] for name in re.findall(r"{(\w+)}", path)]
    if declared.query is not None:
        parameters += _query(declared.query)
    if declared.body is not None:
        body = _json(_ref(declared.body))
        found["requestBody"] = {"required": not declared.optional_body, **body}
    if idempotent:
        parameters.append(IDEMPOTENCY)
    if parameters:
        found["parameters"] = parameters
    if declared.token:
        found["security"] = [{"bearer": []}]
    return found


def _declared_routes(app: Flask) -> list[tuple[str, str, Any, Operation]]:
    """(path, method, view, declaration) of every route of the API, in the order registered;
    a route without a declaration is an error."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.endpoint.startswith(f"{bp.name}."):
            continue
        view = app.view_functions[rule.endpoint]
        declared = operation_of(view)
        if declared is None:
            raise LookupError(f"{rule.rule} has no @declared(...) under its route")
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix(PREFIX))
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            found.append((path, method.lower(), view, declared))
    return found


def _schemas(operations: list[Operation]) -> Schema:
    """Every class the routes read or answer, named in ``components``."""
    read: list[type[BaseModel]] = [o.body for o in operations if o.body is not None]
    answered: list[type[BaseModel]] = [answers.Error]
    for declared in operations:
        model = declared.answer[0] if isinstance(declared.answer, list) else declared.answer
        if isinstance(model, type):
            answered.append(model)
    validation: JsonSchemaMode = "validation"
    serialization: JsonSchemaMode = "serialization"
    modes = [(model, validation) for model in dict.fromkeys([*read, *ALSO_READ])]
    modes += [(model, serialization) for model in dict.fromkeys(answered)]
    _, schemas = models_json_schema(
        modes,
        ref_template=REF,
        schema_generator=_Described,
    )
    return schemas["$defs"]  # type: ignore[no-any-return]


def document(app: Flask) -> dict[str, Any]:
    """The description of the API as ``app`` serves it (made once per app)."""
    if "api.openapi" not in app.extensions:
        routes = _declared_routes(app)
        paths: dict[str, Any] = {}
        for path, method, view, declared in routes:
            paths.setdefault(path, {})[method] = _operation(path, view, declared)
        app.extensions["api.openapi"] = {
            "openapi": "3.1.0",
            "info": {
                "title": "Mille Scorekeeper API",
                "version": app_version(),  # the app's (pyproject.toml); v1 is in the paths
                "description": "Everything a page can do with a league or a game, as JSON. "
                "Money is a decimal string with two places; seats are 0 and 1; every "
                "per-player list is in seat order. See the README's API section.",
            },
            "servers": [{"url": PREFIX}],
            "security": [{}, {"bearer": []}],
            "paths": paths,
            "components": {
                "schemas": _schemas([declared for *_, declared in routes]),
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
    return app.extensions["api.openapi"]  # type: ignore[no-any-return]


@functools.cache
def _described() -> dict[str, Any]:
    """The description, from an app with only the API's blueprint on it."""
    app = Flask(__name__)
    app.register_blueprint(bp)
    return document(app)


def spec() -> dict[str, Any]:
    """The whole description, as a new dict (no app needed: for the tests and tools)."""
    return copy.deepcopy(_described())
