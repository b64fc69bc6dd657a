"""Requests generated from the OpenAPI description (Schemathesis) against the app:
never a 500, every answer as described, and a refused request changes nothing.

Schemathesis reads the OpenAPI description (the one the app serves, as
test_api_openapi.py checks) and makes, for every operation, valid requests
and requests that break it (wrong types, missing and unknown fields, values
out of range). Each is sent with the site administrator's token to one of a
few real games and leagues, so the requests reach the rules and services,
not only the 404 of an unknown id.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.specs.openapi.checks import positive_data_acceptance

from scorekeeper.api.openapi import spec

pytestmark = pytest.mark.slow  # Schemathesis generates hundreds of requests

schema = schemathesis.openapi.from_dict(spec())
# The token is the test's to send (below), not a parameter to generate or leave out.
schema.config.generation.update(with_security_parameters=False)

#: Valid data can still break a rule the description can't say (a score of 10 for the
#: player who went out, a name already taken): those get a 409 or 422, not a 2xx.
EXCLUDED = [positive_data_acceptance]


@pytest.fixture
def world(api):
    """A league with players and three games: in progress, finished, and paid."""
    playing = api.start_game()
    api.deal(playing["id"], 0, (140, 50))
    api.deal(playing["id"], 1, (20, 300))
    finished = api.start_game(("Cleo", "Dan"))
    api.play(finished["id"], [(0, (900, 50), (0, 0)), (0, (350, 10), (1, 0))])
    paid = api.start_game(("Ana", "Dan"))
    api.play(paid["id"], [(1, (-20, 1250), (0, 0))])
    api.post(f"/api/v1/games/{paid['id']}/paid")
    return {"games": [playing["id"], finished["id"], paid["id"]], "api": api}


PAIRS = [["Ana", "Ben"], ["Dan", "Cleo"], ["Ana", "ana"], ["Ben", "Zoe"]]


def aim(case, games):
    """Send the request to a real game, deal or league most of the time.

    Only a valid value is replaced, and by another valid one, so a request
    generated to break the description still breaks it.
    """
    parameters = case.path_parameters or {}
    game_id, number = parameters.get("game_id"), parameters.get("number")
    if _whole(game_id) and 0 < game_id < 10_000:
        parameters["game_id"] = games[game_id % len(games)]
    if _whole(number) and number > 0:
        parameters["number"] = 1 + number % 3
    slug = parameters.get("slug")
    if isinstance(slug, str) and len(slug) % 4:
        parameters["slug"] = "our-table"
    body = case.body
    if case.path == "/games" and isinstance(body, dict):
        if isinstance(body.get("league"), str):
            body["league"] = "our-table"
        players = body.get("players")
        if (
            isinstance(players, list)
            and len(players) == 2
            and all(isinstance(p, str) for p in players)
        ):
            body["players"] = PAIRS[len(players[0]) % len(PAIRS)]


def _whole(value):
    return isinstance(value, int) and not isinstance(value, bool)


@schema.parametrize()
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_generated_requests_never_fail_and_refusals_change_nothing(case, app, world):
    api = world["api"]
    # This test's app (each test has its own database; the description is the same).
    case.operation.schema.app = case.operation.app = app
    aim(case, world["games"])
    # Only a write can change rows: reads and counting are not compared, to stay quick.
    writes = case.method.upper() in ("POST", "PUT", "DELETE", "PATCH") and case.path != "/count"
    before = api.snapshot() if writes else None
    # Schemathesis's WSGI transport asks for gzip but never decodes it; compression has
    # tests of its own (test_wire.py), so here the answers come as they are.
    headers = {"Authorization": f"Bearer {api.token}", "Accept-Encoding": "identity"}

    response = case.call(headers=headers)

    assert response.status_code < 500, response.text
    if writes and response.status_code >= 400:
        assert api.snapshot() == before, (case.method, case.formatted_path, response.text)
    case.validate_response(response, headers=headers, excluded_checks=EXCLUDED)


# Nearly right deals, which reach the rules and the services more often than
# requests generated from the description alone.

SCORES = st.integers(-30, 300).map(lambda n: 5 * n) | st.sampled_from(
    [0, 10, 15, 1140, -1140, 4560, 4565, -1145, 7, 140.0, 2.5, "140", None, True]
)
STARS = st.integers(-1, 15) | st.sampled_from([None, "1", 1.0])
NEARLY_RIGHT_DEALS = st.fixed_dictionaries(
    {
        "out": st.sampled_from([0, 1, 0, 1, 2, -1, None, "0", 1.0, True]),
        "scores": st.lists(SCORES, min_size=1, max_size=3) | st.tuples(SCORES, SCORES).map(list),
    },
    optional={
        "naturals": st.tuples(STARS, STARS).map(list),
        "version": st.integers(-1, 12) | st.sampled_from([None, "3", 2.5]),
        "extra": st.just(1),
    },
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    deal=NEARLY_RIGHT_DEALS,
    method=st.sampled_from(["POST", "PUT", "DELETE"]),
    which=st.integers(0, 2),
    number=st.integers(0, 4),
)
def test_nearly_right_deals_never_fail_and_refusals_change_nothing(
    world, deal, method, which, number
):
    api = world["api"]
    game_id = world["games"][which]
    path = f"/api/v1/games/{game_id}/deals" + (f"/{number}" if method != "POST" else "")
    kwargs = {"json": deal} if method != "DELETE" else {}
    if method == "DELETE" and isinstance(deal.get("version"), int):
        path += f"?version={deal['version']}"
    before = api.snapshot()

    response = api.request(method, path, **kwargs)

    assert response.status_code in (200, 201, 404, 409, 422), response.get_json()
    if response.status_code >= 400:
        assert api.snapshot() == before
    else:
        game = response.get_json()
        assert [d["number"] for d in game["deals"]] == list(range(1, len(game["deals"]) + 1))
