"""The generated OpenAPI description describes at least what the hand-written one did
(tests/api/data/openapi_before.json, served before issue 15): every path, method,
parameter and response code, and every field of every request and answer."""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.api.openapi import spec

BEFORE = json.loads((Path(__file__).parent / "data" / "openapi_before.json").read_text())
NOW = spec()


def field_paths(schema: dict[str, Any], document: dict[str, Any], at: str = "") -> Iterator[str]:
    """Every property the schema describes, as a path (``deals.*.scores``), refs followed."""
    if "$ref" in schema:
        name = schema["$ref"].rpartition("/")[2]
        if at.count(".") < 8:  # the schemas nest a few levels; no cycle is followed for ever
            yield from field_paths(document["components"]["schemas"][name], document, at)
        return
    for name, inner in schema.get("properties", {}).items():
        yield at + name
        yield from field_paths(inner, document, f"{at}{name}.")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from field_paths(schema[key], document, f"{at}*.")
    for key in ("anyOf", "oneOf", "allOf"):
        for inner in schema.get(key, []):
            yield from field_paths(inner, document, at)


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def described(operation: dict[str, Any], document: dict[str, Any]) -> dict[str, set[str]]:
    """What an operation describes: its parameters, its body's fields, each answer's fields."""
    found = {
        "parameters": {f"{p['in']}:{p['name']}" for p in operation.get("parameters", [])},
        "body": set(),
    }
    if "requestBody" in operation:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        found["body"] = {"(body)", *field_paths(schema, document)}
    for status, answer in operation["responses"].items():
        schema = answer["content"]["application/json"]["schema"]
        found[status] = {*field_paths(schema, document), *answer.get("headers", {})}
    return found


@pytest.mark.parametrize(
    ("path", "method"), [(path, method) for path, method, _ in operations(BEFORE)]
)
def test_every_operation_of_before_is_described_with_at_least_as_much(path, method):
    assert method in NOW["paths"].get(path, {}), f"{method.upper()} {path} is gone"
    before = described(BEFORE["paths"][path][method], BEFORE)
    now = described(NOW["paths"][path][method], NOW)
    for part, things in before.items():
        assert part in now, f"{method.upper()} {path}: no {part} any more"
        assert things <= now[part], (method, path, part, sorted(things - now[part]))


def test_the_comparison_sees_nested_fields_and_would_see_one_go():
    fields = described(BEFORE["paths"]["/games/{game_id}/deals"]["post"], BEFORE)
    assert {"out", "scores", "version", "cards.players.*.sets.*.rank"} <= fields["body"]
    assert {"deals.*.scores", "settlement.lines.*.amount", "Idempotent-Replayed"} <= fields["201"]

    shrunk = json.loads(json.dumps(NOW))
    del shrunk["components"]["schemas"]["Settlement"]["properties"]["total"]
    answer = described(shrunk["paths"]["/games/{game_id}"]["get"], shrunk)["200"]
    assert "settlement.total" not in answer
    assert "settlement.payer" in answer


def test_the_description_is_generated_and_every_schema_has_a_class():
    from scorekeeper.api import answers, kind_answers, kind_shapes, league_answers, shapes

    modules = (answers, kind_answers, kind_shapes, league_answers, shapes)
    classes = {name for module in modules for name in dir(module)}
    for name in NOW["components"]["schemas"]:
        assert name in classes or name in {"Preset", "SkunkRule", "DifferenceRule", "LineKind"}
