"""Fixtures for the JSON API's tests: tokens, and a client that checks every answer
against the OpenAPI description the app serves."""

import re
import uuid
from typing import Any

import pytest
from flask import Flask
from jsonschema import Draft202012Validator
from sqlalchemy import select

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.api.openapi import spec
from scorekeeper.league import service as league_service
from scorekeeper.models import Role, db

SPEC = spec()
#: Each path of the description as a regular expression, with its template.
PATHS = [
    (re.compile("^/api/v1" + re.sub(r"\{[^}]+\}", "[^/]+", template) + "$"), template)
    for template in SPEC["paths"]
]


def documented(method: str, path: str, status: int) -> dict[str, Any]:
    """The description's answer for this request and status; fails if it has none."""
    path = path.partition("?")[0]
    template = next((t for pattern, t in PATHS if pattern.match(path)), None)
    assert template is not None, f"{path} is not in the OpenAPI description"
    operation = SPEC["paths"][template].get(method.lower())
    assert operation is not None, f"{method} {template} is not in the OpenAPI description"
    answer = operation["responses"].get(str(status))
    assert answer is not None, f"{method} {template} doesn't document a {status}"
    return answer  # type: ignore[no-any-return]


def check_against_description(method: str, path: str, response: Any) -> None:
    """The answer is JSON, with a status and a body the description documents."""
    assert response.is_json, response.get_data(as_text=True)[:200]
    answer = documented(method, path, response.status_code)
    schema = {
        "components": SPEC["components"],
        **answer["content"]["application/json"]["schema"],
    }
    Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        response.get_json()
    )


def make_token(app: Flask, role: str | None = None, league: str = "our-table") -> str:
    """A token for the site administrator, or for a new user with ``role`` in the league
    (``role`` "none": a user in no league)."""
    with app.app_context():
        if role is None:
            user = user_service.user_by_name("admin")
        else:
            user = user_service.create_user(f"{role}-{uuid.uuid4().hex[:6]}", "member-password")
            found = league_service.league_by_slug(league)
            if role != "none" and found is not None:
                league_service.set_membership(found.id, user.id, Role[role.upper()])
        assert user is not None
        token = token_service.create_token(user.id, "tests")
        db.session.remove()
    return token


class Api:
    """A script using the API with a token (or none), every answer checked against
    the OpenAPI description."""

    def __init__(self, app: Flask, token: str | None = None) -> None:
        self.app = app
        self.client = app.test_client()
        self.token = token

    def as_(self, role: str | None = None, league: str = "our-table") -> "Api":
        """Another script: a new user with ``role`` ("anonymous" for no token)."""
        if role == "anonymous":
            return Api(self.app)
        return Api(self.app, make_token(self.app, role, league))

    def request(self, method: str, path: str, *, check: bool = True, **kwargs: Any) -> Any:
        headers = dict(kwargs.pop("headers", {}))
        if self.token and "Authorization" not in headers:
            headers["Authorization"] = f"Bearer {self.token}"
        response = self.client.open(path, method=method, headers=headers, **kwargs)
        if check:
            check_against_description(method, path, response)
        return response

    def get(self, path: str, **kwargs: Any) -> Any:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        if body is not None:
            kwargs["json"] = body
        return self.request("POST", path, **kwargs)

    def put(self, path: str, body: Any = None, **kwargs: Any) -> Any:
        if body is not None:
            kwargs["json"] = body
        return self.request("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> Any:
        return self.request("DELETE", path, **kwargs)

    def snapshot(self) -> dict[str, list[str]]:
        """Every row of every table, to show that a refused request changed nothing.

        Left out: when a token was last used (a request with a token records it,
        refused or not) and the sign-in failure log.
        """
        with self.app.app_context():
            rows = {}
            for table in db.metadata.sorted_tables:
                if table.name == "login_throttle":
                    continue
                columns = [c for c in table.columns if c.name != "last_used_at"]
                rows[table.name] = sorted(map(repr, db.session.execute(select(*columns)).all()))
            db.session.remove()
        return rows

    # What most tests need first --------------------------------------------------

    def add_players(self, *names: str, league: str = "our-table") -> None:
        for name in names:
            response = self.post(f"/api/v1/leagues/{league}/players", {"name": name})
            assert response.status_code == 201, response.get_json()

    def start_game(self, players: tuple[str, str] = ("Ana", "Ben"), **fields: Any) -> Any:
        """A new game (players are added to the league first when they aren't in it)."""
        league = fields.get("league", "our-table")
        known = {p["name"] for p in self.get(f"/api/v1/leagues/{league}").get_json()["players"]}
        self.add_players(*(name for name in players if name not in known), league=league)
        body = {"league": league, "players": list(players), "first_dealer": 0, **fields}
        response = self.post("/api/v1/games", body)
        assert response.status_code == 201, response.get_json()
        return response.get_json()

    def deal(
        self,
        game_id: int,
        out: int,
        scores: tuple[int, int],
        naturals: tuple[int, int] = (0, 0),
        **fields: Any,
    ) -> Any:
        body = {"out": out, "scores": list(scores), "naturals": list(naturals), **fields}
        return self.post(f"/api/v1/games/{game_id}/deals", body)

    @staticmethod
    def refused(response: Any, status: int, *fields: str) -> dict[str, Any]:
        """An error answer: the status, a sentence, and ``fields`` naming exactly these."""
        return refused(response, status, *fields)

    def play(self, game_id: int, deals: Any) -> Any:
        """Record deals given as (out, scores, naturals); the game after the last one."""
        game = None
        for out, scores, naturals in deals:
            response = self.deal(game_id, out, scores, naturals)
            assert response.status_code == 201, response.get_json()
            game = response.get_json()
        return game


@pytest.fixture
def api(app: Flask) -> Api:
    """A script with a token of the site administrator."""
    return Api(app, make_token(app))


def refused(response: Any, status: int, *fields: str) -> dict[str, Any]:
    """An error answer: the status, a sentence, and ``fields`` naming exactly these."""
    assert response.status_code == status, response.get_data(as_text=True)
    error = response.get_json()
    assert isinstance(error["error"], str)
    assert error["error"].endswith((".", ")"))
    if fields:
        assert set(error["fields"]) == set(fields), error
        for messages in error["fields"].values():
            assert messages
            assert all(isinstance(message, str) and message for message in messages)
    else:
        assert "fields" not in error, error
    return error  # type: ignore[no-any-return]
