"""Fixtures: an app on a fresh database per test, its client, and a scorekeeper helper.

The database is migrated once per run: an SQLite file, copied over the tests' database
before each test, or, when ``DATABASE_URL`` is set, a PostgreSQL database made for this
run, emptied and seeded again after every test. The apps are built once per run and
shared by the tests (:func:`make_app`).
"""

import os
import re
import shutil
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from jsonschema import Draft202012Validator
from sqlalchemy import select, text

from scorekeeper import create_app
from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.members import set_membership
from scorekeeper.api.openapi import spec
from scorekeeper.engine import Seat, Tally
from scorekeeper.league import service as league_service
from scorekeeper.models import Role, db
from scorekeeper.records.leagues import league_by_slug
from scorekeeper.table.change_forms import confirmation
from tests.databases import server_database

IN_CI = os.environ.get("CI") == "true"
TEST_CONFIG = {
    "TESTING": True,
    "SECRET_KEY": "test",
    "WTF_CSRF_ENABLED": False,
    "PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",  # scrypt is slow on purpose
}
ADMIN = ("admin", "admin-password")
#: What the tests' PostgreSQL databases are called: ``scorekeeper_test_<random>``.
TEST_DATABASES = "scorekeeper_test"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in tests/browser is a browser test, and a slow one too, so
    ``pytest -m "not slow"`` starts no Chromium even when a module forgets its mark."""
    browser_tests = Path(__file__).parent / "browser"
    for item in items:
        if item.path.is_relative_to(browser_tests):
            item.add_marker(pytest.mark.browser)
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


def _seed(app: Flask) -> None:
    """What every test starts from: the default league and a site administrator."""

    with app.app_context():
        user_service.create_first_admin(*ADMIN)
        db.session.remove()
        db.engine.dispose()


def run_together(work: Any, count: int, seconds: float = 60) -> list[Any]:
    """Start ``count`` threads at the same moment; what ``work(index)`` returned in each.
    A thread still running after ``seconds`` is left behind (its result stays None)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def target(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:
            errors.append(error)

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds)
    assert not errors, errors
    return results


@pytest.fixture(scope="session")
def database_template(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated database: a file to copy (SQLite) or a server database to empty."""
    server_url = os.environ.get("DATABASE_URL")
    if server_url:
        with server_database(server_url, prefix=TEST_DATABASES) as url:
            _seed(create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url}))
            yield url
        return
    path = tmp_path_factory.mktemp("template") / "scorekeeper.sqlite"
    _seed(create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"}))
    yield str(path)


@pytest.fixture(scope="session")
def _shared_database(database_template: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The URL of the database every test's apps use, put back as new before each test:
    an SQLite file the template is copied over, or the server database itself."""
    if os.environ.get("DATABASE_URL"):
        return database_template
    return f"sqlite:///{tmp_path_factory.mktemp('shared') / 'scorekeeper.sqlite'}"


def _close_connections(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def _forget_the_database(app: Flask) -> None:
    """The app on a database put back as new: it closes its connections and forgets what it
    learned of the last one (that it has accounts, ``first_visit_offers_setup``)."""
    _close_connections(app)
    app.extensions.pop("scorekeeper", None)


def _empty_server_database(app: Flask) -> None:
    """Every row deleted, children first, and every sequence back to 1, in one statement.

    ``TRUNCATE … RESTART IDENTITY`` does the same, but it replaces each table's files:
    about 0.2 s a test for these 25 tables, where deleting the few rows a test wrote takes
    a hundredth of that (a whole PostgreSQL run: minutes)."""
    with app.app_context():
        deletes = [f'DELETE FROM "{table.name}"' for table in reversed(db.metadata.sorted_tables)]
        sequences = db.session.scalars(
            text("SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()")
        )
        restarts = [f"SELECT setval('\"{name}\"', 1, false)" for name in sequences]
        db.session.execute(text("; ".join(deletes + restarts)))
        db.session.commit()
        db.session.remove()
    _seed(app)


@pytest.fixture(scope="session")
def _shared_apps() -> dict[str, Flask]:
    """The run's apps, one for each configuration a test asks :func:`make_app` for.

    Building an app costs ~0.1 s (werkzeug compiles every route; Jinja and the static
    files are read afresh), more than most tests. The tests don't change an app, only
    the database, which :func:`database_url_for_test` puts back before each test.
    """
    return {}


@pytest.fixture
def database_url_for_test(
    database_template: str, _shared_database: str, _shared_apps: dict[str, Flask]
) -> Iterator[str]:
    """This test's database, as the template left it: the URL of the shared one.

    Every shared app's connections are closed after the test, then the database is put
    back: the template's file copied over it (SQLite), or every table emptied and seeded
    again (PostgreSQL).
    """
    if not os.environ.get("DATABASE_URL"):
        path = Path(_shared_database.removeprefix("sqlite:///"))
        for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
            leftover.unlink(missing_ok=True)
        shutil.copy(database_template, path)
    yield _shared_database
    for app in _shared_apps.values():
        _forget_the_database(app)
    if os.environ.get("DATABASE_URL") and _shared_apps:
        _empty_server_database(next(iter(_shared_apps.values())))


@pytest.fixture
def make_app(database_url_for_test: str, _shared_apps: dict[str, Flask]) -> Iterator[Any]:
    """An app on this test's database, configured as ``TEST_CONFIG`` and ``config`` say.

    The first app of a configuration in a test is the run's shared one (:func:`_shared_apps`);
    asked again in the same test, another app is built: two apps stand for two app
    processes.
    """
    given: set[str] = set()
    own: list[Flask] = []

    def make(**config: Any) -> Flask:
        key = repr(sorted(config.items()))
        if key not in given and key in _shared_apps:
            given.add(key)
            return _shared_apps[key]
        app = create_app(
            {
                **TEST_CONFIG,
                "SQLALCHEMY_DATABASE_URI": database_url_for_test,
                "AUTO_MIGRATE": False,
                **config,
            }
        )
        if key in given:
            own.append(app)
        else:
            given.add(key)
            _shared_apps[key] = app
        return app

    yield make
    for app in own:
        _close_connections(app)


@pytest.fixture
def app(make_app: Any) -> Flask:
    return make_app()


def make_public(app: Flask, slug: str = "our-table") -> None:
    """Let anyone read the league (the first league starts private)."""

    with app.app_context():
        league = league_by_slug(slug)
        assert league is not None
        league_service.update_league(
            league.id, name=league.name, public=True, defaults=league.defaults
        )
        db.session.remove()


@pytest.fixture
def public(app: Flask) -> None:
    """The first league made public by its administrator, for tests of what visitors see."""
    make_public(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A visitor who is not signed in."""
    return app.test_client()


class Auth:
    """Signs test clients in: as the site administrator, or as a member with a role."""

    def __init__(self, app: Flask) -> None:
        self.app = app

    def login(
        self, client: FlaskClient, username: str = ADMIN[0], password: str = ADMIN[1]
    ) -> FlaskClient:
        response = client.post("/login", data={"username": username, "password": password})
        assert response.status_code == 302, response.get_data(as_text=True)
        return client

    def member(self, role: str, league: str = "our-table", username: str | None = None) -> Any:
        """A new account with ``role`` (viewer, scorekeeper, admin) in the league; its client."""
        from scorekeeper.models import Role

        name = username or f"{role}-{uuid.uuid4().hex[:6]}"
        with self.app.app_context():
            user = user_service.create_user(name, "member-password")
            found = league_by_slug(league)
            assert found is not None
            set_membership(found.id, user.id, Role[role.upper()])
            db.session.remove()
        return self.login(self.app.test_client(), name, "member-password")


@pytest.fixture
def auth(app: Flask) -> Auth:
    return Auth(app)


#: The new-game form filled in: Ana and Ben, Standard to 1,200, $1–$3, Ana deals first.
NEW_GAME_FORM = {
    "player0": "Ana",
    "player1": "Ben",
    "preset": "standard",
    "target": "1200",
    "skunk": "multiply",
    "difference": "round",
    "small": "1",
    "first_dealer": "0",
}


def confirmed(out: int, scores: tuple[int, int], stars: tuple[int, int] = (0, 0)) -> str:
    """The value "Yes, save it as typed" sends for these numbers."""
    return confirmation(Tally(Seat(out), scores, stars))


class Table:
    """A scorekeeper at the table, using the pages through a test client.

    ``Table.signed_in(app)`` makes one for any app.
    """

    def __init__(self, client: FlaskClient) -> None:
        self.client = client

    @classmethod
    def signed_in(cls, app: Flask) -> "Table":
        return cls(Auth(app).login(app.test_client()))

    def post_new_game(self, player0: str = "Ana", player1: str = "Ben", **fields: str) -> Any:
        """Send the new-game form: Ana and Ben, Standard, $1–$3, Ana deals; ``fields`` change it.

        Names new to the league are sent as confirmed ("Yes, a new player …"), so a name
        close to another's (random names in a long test) is not asked about.
        """
        data = {
            **NEW_GAME_FORM,
            "player0": player0,
            "player1": player1,
            "new_player0": player0,
            "new_player1": player1,
            "big": "",
            "submit": "1",
            **fields,
        }
        return self.client.post("/leagues/our-table/games/new", data=data)

    def start_game(self, player0: str = "Ana", player1: str = "Ben", **fields: str) -> int:
        response = self.post_new_game(player0, player1, **fields)
        assert response.status_code == 302, response.get_data(as_text=True)
        match = re.search(r"/games/(\d+)$", response.headers["Location"])
        assert match
        return int(match.group(1))

    def record(
        self,
        game_id: int,
        out: int,
        scores: tuple[int, int],
        stars: tuple[int, int] = (0, 0),
        confirm: bool = False,
        **extra: str,
    ) -> Any:
        """Post a deal; ``confirm``: as after "Yes, save it as typed" for these numbers."""
        data = {
            "out": str(out),
            "score0": str(scores[0]),
            "score1": str(scores[1]),
            "stars0": str(stars[0]),
            "stars1": str(stars[1]),
            "token": uuid.uuid4().hex,
            **({"confirm": confirmed(out, scores, stars)} if confirm else {}),
            **extra,
        }
        return self.client.post(f"/games/{game_id}/deals", data=data)

    def page(self, game_id: int) -> str:
        response = self.client.get(f"/games/{game_id}")
        assert response.status_code == 200
        return response.get_data(as_text=True)


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    """An app on an SQLite file of its own, migrated on start, whatever DATABASE_URL says."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/own.db"})
    _seed(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def sqlite_table(sqlite_app: Flask) -> "Table":
    return Table.signed_in(sqlite_app)


@pytest.fixture
def table(app: Flask) -> Table:
    """A scorekeeper at the table: a client signed in as the site administrator."""
    return Table.signed_in(app)


#: The Wikipedia score card of RULES.md §5: (who went out, scores, stars) per deal.
WIKIPEDIA_CARD = [
    (1, (140, 350), (0, 0)),
    (0, (290, 160), (0, 0)),
    (0, (220, 80), (1, 0)),
    (0, (150, -50), (0, 0)),
    (1, (140, 300), (0, 1)),
    (0, (210, 190), (0, 0)),
    (0, (125, 150), (0, 0)),
]


@pytest.fixture
def wikipedia_card() -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    return list(WIKIPEDIA_CARD)


def require_or_skip(condition: bool, reason: str) -> None:
    """Skip on a laptop without the tool; under CI=true a missing tool is a failure."""
    if condition:
        return
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: this must be available)")
    pytest.skip(reason)


# The JSON API's helpers: tokens, and a client that checks every answer against the
# OpenAPI description the app serves.

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
            found = league_by_slug(league)
            if role != "none" and found is not None:
                set_membership(found.id, user.id, Role[role.upper()])
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


# Reading a page as text.
def text_of(html: str) -> str:
    """The page's words, without tags or repeated spaces."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def section(html: str, css_class: str) -> str:
    start = html.index(f'<section class="{css_class}')
    return html[start : html.index("</section>", start)]
