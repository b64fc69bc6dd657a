"""The OpenAPI description matches the API: the same addresses and methods, and
schemas that are themselves valid JSON Schema."""

import re

import pytest
from flask import Blueprint, Flask
from jsonschema import Draft202012Validator

from scorekeeper.api import league_answers, openapi
from scorekeeper.api.declared import declared
from scorekeeper.api.idempotency import idempotent
from scorekeeper.api.openapi import spec
from scorekeeper.api.shapes import NewPlayer


def test_the_description_is_served_as_json(api):
    response = api.as_("anonymous").get("/api/v1/openapi.json")
    assert response.status_code == 200
    described = response.get_json()
    assert described == spec()
    assert described["openapi"].startswith("3.1")
    assert described["servers"] == [{"url": "/api/v1"}]


def test_every_route_of_the_api_is_described_and_nothing_else(app):
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule.removeprefix("/api/v1"))
            routes |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}

    described = {(path, method) for path, item in spec()["paths"].items() for method in item}

    assert described == routes


def test_every_schema_is_valid_json_schema_and_every_reference_resolves():
    document = spec()
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)
    text = repr(document)
    for reference in re.findall(r"#/components/schemas/(\w+)", text):
        assert reference in document["components"]["schemas"], reference


def test_every_operation_documents_its_errors_with_the_error_schema():
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            responses = operation["responses"]
            assert {"401", "422"} <= set(responses), (method, path)
            for status, answer in responses.items():
                schema = answer["content"]["application/json"]["schema"]
                if int(status) >= 400:
                    assert schema == {"$ref": "#/components/schemas/Error"}
            if operation.get("security") == [{"bearer": []}]:
                assert "403" in responses, (method, path)


def test_a_route_is_described_from_its_declaration_alone():
    """What a new route needs to be described: its Flask decorator and @declared under it."""
    extra = Blueprint("api", __name__, url_prefix="/api/v1")

    @extra.post("/leagues/<slug>/invitations")
    @declared(
        201, league_answers.Player, errors=(403, 404), body=NewPlayer, token=True, location=True
    )
    @idempotent(allowed=lambda slug: None)
    def invite(slug):
        """Invite someone to the league; they answer by mail."""

    app = Flask(__name__)
    app.register_blueprint(extra)
    document = openapi.document(app)
    described = document["paths"]["/leagues/{slug}/invitations"]["post"]

    assert described["summary"] == "Invite someone to the league."
    assert set(described["responses"]) == {"201", "401", "403", "404", "422"}
    assert set(described["responses"]["201"]["headers"]) == {"Location", "Idempotent-Replayed"}
    assert described["requestBody"]["required"] is True
    assert described["security"] == [{"bearer": []}]
    assert [p["name"] for p in described["parameters"]] == ["slug", "Idempotency-Key"]
    assert {"NewPlayer", "Player", "Error"} <= set(document["components"]["schemas"])
    assert list(document["paths"]) == ["/leagues/{slug}/invitations"]


def test_a_route_without_a_declaration_is_not_described_quietly():
    bare = Blueprint("api", __name__, url_prefix="/api/v1")

    @bare.get("/somewhere")
    def somewhere():
        """Not declared."""

    app = Flask(__name__)
    app.register_blueprint(bare)
    with pytest.raises(LookupError, match="/api/v1/somewhere has no @declared"):
        openapi.document(app)
