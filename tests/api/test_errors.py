"""Every error status of API.md, provoked through the API: its JSON shape, its
sentence, the fields it names, and that the refused request changed nothing."""

import pytest

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.api import core
from scorekeeper.league import service as league_service
from scorekeeper.models import db
from scorekeeper.records.leagues import league_by_slug

GAME_BODY = {"league": "our-table", "players": ["Ana", "Ben"]}
DEAL = {"out": 0, "scores": [140, 50]}


@pytest.fixture
def game(api):
    """A game in progress between Ana and Ben, one deal played."""
    found = api.start_game()
    api.deal(found["id"], 0, (140, 50))
    return api.get(f"/api/v1/games/{found['id']}").get_json()


@pytest.fixture
def finished(api):
    found = api.start_game(("Cleo", "Dan"))
    return api.play(found["id"], [(0, (1250, 50), (0, 0))])


def refused_unchanged(api, method, path, status, *fields, **kwargs):
    """The request is refused with ``status`` (naming ``fields``) and nothing changes."""
    before = api.snapshot()
    response = api.request(method, path, **kwargs)
    error = api.refused(response, status, *fields)
    assert api.snapshot() == before
    return error


# 400 --------------------------------------------------------------------------------


NOT_JSON_OBJECTS = [
    ("league=our-table", "application/x-www-form-urlencoded"),
    ('{"league": "our-table"}', "text/plain"),
    ('{"league": ', "application/json"),
    ("[1, 2]", "application/json"),
    ("null", "application/json"),
    ("7", "application/json"),
    (b"\xff\xfe", "application/json"),
    ("", "application/json"),
]


@pytest.mark.parametrize("where", ["/api/v1/games", "/api/v1/games/{id}/deals"])
def test_a_body_that_is_not_a_json_object_is_a_400(api, game, where):
    for data, content_type in NOT_JSON_OBJECTS:
        path = where.format(id=game["id"])
        refused_unchanged(api, "POST", path, 400, data=data, content_type=content_type)


def test_a_correction_or_a_new_league_or_player_that_is_not_json_is_a_400(api, game):
    bad = {"data": "[]", "content_type": "application/json"}
    refused_unchanged(api, "PUT", f"/api/v1/games/{game['id']}/deals/1", 400, **bad)
    refused_unchanged(api, "POST", "/api/v1/leagues", 400, **bad)
    refused_unchanged(api, "POST", "/api/v1/leagues/our-table/players", 400, **bad)
    refused_unchanged(api, "POST", f"/api/v1/games/{game['id']}/paid", 400, **bad)


def test_a_malformed_idempotency_key_is_a_400(api, game):
    for key in ["", " ", "é", "a b", "x" * 256]:
        headers = {"Idempotency-Key": key}
        path = f"/api/v1/games/{game['id']}/deals"
        error = refused_unchanged(api, "POST", path, 400, json=DEAL, headers=headers)
        assert "Idempotency-Key" in error["error"]


# 401 --------------------------------------------------------------------------------


WRITES = [
    ("POST", "/api/v1/games", GAME_BODY),
    ("POST", "/api/v1/games/{id}/deals", DEAL),
    ("PUT", "/api/v1/games/{id}/deals/1", DEAL),
    ("DELETE", "/api/v1/games/{id}/deals/1", None),
    ("POST", "/api/v1/games/{id}/paid", {}),
    ("POST", "/api/v1/games/{id}/unlock", {}),
    ("POST", "/api/v1/leagues", {"name": "Friday"}),
    ("POST", "/api/v1/leagues/our-table/players", {"name": "Eve"}),
    ("GET", "/api/v1/games/{id}/history", None),
]


def test_a_write_without_a_token_is_a_401(public, api, game):
    anonymous = api.as_("anonymous")
    before = api.snapshot()
    for method, path, body in WRITES:
        kwargs = {} if body is None else {"json": body}
        response = anonymous.request(method, path.format(id=game["id"]), **kwargs)
        error = api.refused(response, 401)
        assert error["error"] == "Send Authorization: Bearer <token> to do this."
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert api.snapshot() == before


def test_without_a_token_a_missing_game_is_still_a_401_not_a_404(api):
    response = api.as_("anonymous").post("/api/v1/games/999/deals", DEAL)
    api.refused(response, 401)


BAD_HEADERS = [
    "Bearer mille_not-a-real-token",
    "Bearer ",
    "Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=",
    "mille_token-without-a-scheme",
]


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/api/v1/leagues"), ("GET", "/api/v1/games/{id}"), ("POST", "/api/v1/count")],
)
def test_a_bad_token_is_a_401_even_on_a_read(api, game, method, path):
    for header in BAD_HEADERS:
        response = api.as_("anonymous").request(
            method, path.format(id=game["id"]), headers={"Authorization": header}, json={}
        )
        api.refused(response, 401)
        assert "WWW-Authenticate" in response.headers


def test_a_revoked_token_is_a_401(app, api, game):
    with app.app_context():
        user = user_service.user_by_name("admin")
        token = next(t for t in token_service.tokens_of(user.id) if t.name == "tests")
        token_service.revoke_token(user.id, token.id)
        db.session.remove()
    error = refused_unchanged(api, "POST", f"/api/v1/games/{game['id']}/deals", 401, json=DEAL)
    assert "revoked" in error["error"]
    api.refused(api.get("/api/v1/leagues"), 401)


# 403 --------------------------------------------------------------------------------


WITHOUT_THE_ROLE = [
    ("viewer", "POST", "/api/v1/games", GAME_BODY),
    ("viewer", "POST", "/api/v1/games/{id}/deals", DEAL),
    ("viewer", "PUT", "/api/v1/games/{id}/deals/1", DEAL),
    ("viewer", "DELETE", "/api/v1/games/{id}/deals/1", None),
    ("viewer", "POST", "/api/v1/games/{done}/paid", None),
    ("scorekeeper", "POST", "/api/v1/games/{done}/unlock", None),
    ("scorekeeper", "POST", "/api/v1/leagues/our-table/players", {"name": "Eve"}),
    ("admin", "POST", "/api/v1/leagues", {"name": "Friday"}),
    ("none", "POST", "/api/v1/games/{id}/deals", DEAL),
    ("none", "GET", "/api/v1/games/{id}/history", None),
]


def test_a_token_without_the_role_is_a_403(public, api, game, finished):
    api.post(f"/api/v1/games/{finished['id']}/paid")  # so that only the role is missing
    scripts = {role: api.as_(role) for role in ("viewer", "scorekeeper", "admin", "none")}
    before = api.snapshot()
    for role, method, path, body in WITHOUT_THE_ROLE:
        kwargs = {} if body is None else {"json": body}
        path = path.format(id=game["id"], done=finished["id"])
        api.refused(scripts[role].request(method, path, **kwargs), 403)
    assert api.snapshot() == before


def make_private(app, slug="our-table"):
    with app.app_context():
        league = league_by_slug(slug)
        league_service.update_league(league.id, name=league.name, public=False, defaults=None)
        db.session.remove()


def test_a_private_league_is_a_403_to_an_outsider_who_writes(app, api, game):
    make_private(app)
    outsider = api.as_("none")
    before = api.snapshot()
    api.refused(outsider.post(f"/api/v1/games/{game['id']}/deals", DEAL), 403)
    api.refused(outsider.post("/api/v1/games", GAME_BODY), 403)
    api.refused(outsider.post("/api/v1/leagues/our-table/players", {"name": "Eve"}), 403)
    assert api.snapshot() == before


# 404 --------------------------------------------------------------------------------


PRIVATE_READS = [
    "/api/v1/leagues/our-table",
    "/api/v1/leagues/our-table/standings",
    "/api/v1/leagues/our-table/games",
    "/api/v1/games/{id}",
]


@pytest.mark.parametrize("who", ["anonymous", "none"])
def test_a_private_league_is_a_404_to_outsiders_who_read(app, api, game, who):
    make_private(app)
    reader, viewer = api.as_(who), api.as_("viewer")
    for path in PRIVATE_READS:
        error = api.refused(reader.get(path.format(id=game["id"])), 404)
        assert "private" not in error["error"]
        assert viewer.get(path.format(id=game["id"])).status_code == 200
    slugs = [league["slug"] for league in reader.get("/api/v1/leagues").get_json()]
    assert "our-table" not in slugs


UNKNOWN = [
    ("GET", "/api/v1/games/999"),
    ("GET", "/api/v1/games/99999999999999999999"),
    ("POST", "/api/v1/games/999/deals"),
    ("PUT", "/api/v1/games/{id}/deals/2"),
    ("PUT", "/api/v1/games/{id}/deals/0"),
    ("DELETE", "/api/v1/games/{id}/deals/9"),
    ("DELETE", "/api/v1/games/2147483648/deals/1"),
    ("GET", "/api/v1/leagues/no-such-league"),
    ("GET", "/api/v1/leagues/no-such-league/standings"),
    ("GET", "/api/v1/leagues/no-such-league/games"),
    ("POST", "/api/v1/leagues/no-such-league/players"),
    ("GET", "/api/v1/leagues/%00"),
    ("GET", "/api/v1/nothing-here"),
    ("GET", "/api/v1/games/-1"),
]


def test_an_unknown_league_game_or_deal_is_a_404(api, game):
    before = api.snapshot()
    for method, path in UNKNOWN:
        body = {"name": "Eve"} if "players" in path else DEAL
        kwargs = {"json": body} if method in ("POST", "PUT") else {}
        described = "nothing-here" not in path and "-1" not in path
        response = api.request(method, path.format(id=game["id"]), check=described, **kwargs)
        api.refused(response, 404)
    assert api.snapshot() == before


def test_a_method_an_address_doesnt_take_is_a_405_with_allow(api):
    response = api.request("GET", "/api/v1/games", check=False)
    api.refused(response, 405)
    assert "POST" in response.headers["Allow"]


# 409 --------------------------------------------------------------------------------


def test_a_deal_on_a_finished_game_is_a_409(api, finished):
    error = refused_unchanged(api, "POST", f"/api/v1/games/{finished['id']}/deals", 409, json=DEAL)
    assert error["error"] == "The game is over: it takes no more deals."


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "/api/v1/games/{id}/deals", DEAL),
        ("PUT", "/api/v1/games/{id}/deals/1", DEAL),
        ("DELETE", "/api/v1/games/{id}/deals/1?version={stale}", None),
    ],
)
def test_a_stale_version_is_a_409_and_records_nothing(api, game, method, path, body):
    stale = game["version"] - 1
    kwargs = {} if body is None else {"json": {**body, "version": stale}}
    error = refused_unchanged(api, method, path.format(id=game["id"], stale=stale), 409, **kwargs)
    assert f"version {game['version']}" in error["error"]


def test_a_stale_version_on_payment_is_a_409(api, finished):
    path = f"/api/v1/games/{finished['id']}/paid"
    refused_unchanged(api, "POST", path, 409, json={"version": finished["version"] - 1})
    assert api.post(path, {"version": finished["version"]}).status_code == 200


def test_a_locked_game_is_a_409_until_a_league_admin_unlocks_it(api, finished):
    paid = api.post(f"/api/v1/games/{finished['id']}/paid").get_json()
    assert paid["locked"] is True
    assert paid["paid_at"] is not None
    number = f"/api/v1/games/{finished['id']}/deals/1"
    for method, kwargs in [("PUT", {"json": DEAL}), ("DELETE", {})]:
        error = refused_unchanged(api, method, number, 409, **kwargs)
        assert "locked" in error["error"]
    refused_unchanged(api, "POST", f"/api/v1/games/{finished['id']}/paid", 409)

    unlocked = api.post(f"/api/v1/games/{finished['id']}/unlock").get_json()
    assert (unlocked["locked"], unlocked["paid_at"]) == (False, None)
    assert api.put(number, DEAL).status_code == 200
    refused_unchanged(api, "POST", f"/api/v1/games/{finished['id']}/unlock", 409)


def test_marking_an_unfinished_game_paid_is_a_409(api, game):
    refused_unchanged(api, "POST", f"/api/v1/games/{game['id']}/paid", 409)


def test_a_correction_that_would_end_the_game_before_later_deals_is_a_409(api, game):
    api.deal(game["id"], 1, (100, 200))
    error = refused_unchanged(
        api, "PUT", f"/api/v1/games/{game['id']}/deals/1", 409, json={"out": 0, "scores": [1300, 0]}
    )
    assert "Delete the later deals first" in error["error"]


# 422 --------------------------------------------------------------------------------


INVALID_DEALS = [
    ({"out": 0, "scores": [141, 50]}, ["scores.0"], "multiples of 5"),
    ({"out": 0, "scores": [10, 50]}, ["scores.0"], "at least 15"),
    ({"out": 1, "scores": [50, 5000]}, ["scores.1"], "between"),
    ({"out": 0, "scores": ["140", 50]}, ["scores.0"], "whole number"),
    ({"out": 0, "scores": [140.5, 50]}, ["scores.0"], "whole number"),
    ({"out": 2, "scores": [140, 50]}, ["out"], "went out"),
    ({"out": True, "scores": [140, 50]}, ["out"], "went out"),
    ({"scores": [140, 50]}, ["out"], "went out"),
    ({"out": 0}, ["scores"], "two deal scores"),
    ({"out": 0, "scores": [140]}, ["scores"], "two deal scores"),
    ({"out": 0, "scores": [140, 50], "naturals": [0, -1]}, ["naturals.1"], "negative"),
    ({"out": 0, "scores": [140, 50], "naturals": [0, 14]}, ["naturals.1"], "at most 13"),
    ({"out": 0, "scores": [140, 50], "naturals": 1}, ["naturals"], "star counts"),
    ({**DEAL, "version": 0}, ["version"], "version"),
    ({**DEAL, "version": "3"}, ["version"], "version"),
    ({**DEAL, "stars": [0, 0]}, ["stars"], "not a field"),
    ({**DEAL, "cards": []}, ["cards"], "object"),
    ({**DEAL, "cards": {"out": 0}}, ["cards.players"], "both players"),
    (
        {"out": 5, "scores": [3, 7], "naturals": [-1, 99]},
        ["out", "scores.0", "scores.1", "naturals.0", "naturals.1"],
        "",
    ),
]


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_an_invalid_deal_is_a_422_naming_each_field_and_the_rule(api, game, method):
    path = f"/api/v1/games/{game['id']}/deals" + ("/1" if method == "PUT" else "")
    for body, fields, words in INVALID_DEALS:
        error = refused_unchanged(api, method, path, 422, *fields, json=body)
        messages = " ".join(m for found in error["fields"].values() for m in found)
        assert words in messages, body
        if len(fields) == 1:
            assert error["error"] == error["fields"][fields[0]][0]


INVALID_NEW_GAMES = [
    ({"players": ["Ana", "Zoe"]}, ["players.1"], "Zoe is not a player in this league"),
    ({"players": ["Ana", "ana"]}, ["players.1"], "two different players"),
    ({"players": ["Ana"]}, ["players"], "two players"),
    ({"players": ["Ana", 7]}, ["players.1"], "string"),
    ({"players": ["Ana", "  "]}, ["players.1"], "1 to 40"),
    ({"players": ["Ana", "B\x00n"]}, ["players.1"], "printable"),
    ({"league": "no-such-league"}, ["league"], "slug of a league"),
    ({"league": None}, ["league"], "slug of a league"),
    ({"preset": "fast"}, ["preset"], "standard, progressive, marks"),
    ({"rules": {"target": 1000, "speed": 2}}, ["rules.speed"], "not a field of rules"),
    ({"rules": {"target": 1203}}, ["rules.target"], "multiple of 5"),
    ({"rules": {"target": 50}}, ["rules.target"], "from 100"),
    ({"rules": {"progressive": "yes"}}, ["rules.progressive"], "true or false"),
    ({"rules": {"skunk": "double"}}, ["rules.skunk"], "multiply, mark"),
    ({"rules": {"difference": ["ceil"]}}, ["rules.difference"], "round, ceil"),
    ({"rules": []}, ["rules"], "object"),
    ({"stakes": {"small": 1}}, ["stakes.small"], "never a JSON number"),
    ({"stakes": {"small": 0.25}}, ["stakes.small"], "never a JSON number"),
    ({"stakes": {"small": "1.005"}}, ["stakes.small"], "two places"),
    ({"stakes": {"small": "$1"}}, ["stakes.small"], "two places"),
    ({"stakes": {"small": "-1.00"}}, ["stakes.small"], "two places"),
    ({"stakes": {"small": "0.00"}}, ["stakes.small"], "more than 0.00"),
    ({"stakes": {"small": "10000.01"}}, ["stakes.small"], "at most 10,000.00"),
    ({"stakes": {"small": "4000"}}, ["stakes.big"], "three times"),
    ({"stakes": {"big": "3.00"}}, ["stakes.small"], "small stake"),
    ({"stakes": {"small": "1", "tip": "1"}}, ["stakes.tip"], "not a field of stakes"),
    ({"stakes": "1.00"}, ["stakes"], "object"),
    ({"first_dealer": 2}, ["first_dealer"], "0 or 1"),
    ({"first_dealer": "0"}, ["first_dealer"], "0 or 1"),
    ({"deals": []}, ["deals"], "not a field of a new game"),
]


def test_an_invalid_new_game_is_a_422_naming_each_field(api):
    api.add_players("Ana", "Ben")
    for change, fields, words in INVALID_NEW_GAMES:
        body = GAME_BODY | change
        error = refused_unchanged(api, "POST", "/api/v1/games", 422, *fields, json=body)
        assert words in " ".join(m for found in error["fields"].values() for m in found), change


def test_every_problem_of_a_new_game_is_reported_at_once(api):
    body = {
        "league": "our-table",
        "players": ["Ana"],
        "preset": "x",
        "stakes": {"small": 2},
        "first_dealer": 3,
        "colour": "red",
    }
    error = refused_unchanged(
        api,
        "POST",
        "/api/v1/games",
        422,
        "players",
        "preset",
        "stakes.small",
        "first_dealer",
        "colour",
        json=body,
    )
    assert error["error"] == "Some fields are invalid; see fields."


INVALID_LEAGUES_AND_PLAYERS = [
    ("/api/v1/leagues/our-table/players", {"name": "ana"}, ["name"]),
    ("/api/v1/leagues/our-table/players", {"name": ""}, ["name"]),
    ("/api/v1/leagues/our-table/players", {"name": "x" * 41}, ["name"]),
    ("/api/v1/leagues/our-table/players", {}, ["name"]),
    ("/api/v1/leagues/our-table/players", {"name": "Eve", "id": 3}, ["id"]),
    ("/api/v1/leagues", {"name": ""}, ["name"]),
    ("/api/v1/leagues", {"name": "Friday", "public": "yes"}, ["public"]),
    ("/api/v1/leagues", {"name": "y" * 61}, ["name"]),
]


def test_an_invalid_league_or_player_is_a_422(api):
    api.add_players("Ana")
    for path, body, fields in INVALID_LEAGUES_AND_PLAYERS:
        refused_unchanged(api, "POST", path, 422, *fields, json=body)


def test_a_one_button_change_takes_only_a_version(api, finished):
    path = f"/api/v1/games/{finished['id']}/paid"
    refused_unchanged(api, "POST", path, 422, "amount", json={"amount": "3.00"})
    refused_unchanged(api, "POST", path, 422, "version", json={"version": -1})
    delete = f"/api/v1/games/{finished['id']}/deals/1?version=abc"
    refused_unchanged(api, "DELETE", delete, 422, "version")


INVALID_ARGUMENTS = [
    ("status=done", ["status"]),
    ("page=0", ["page"]),
    ("page=abc", ["page"]),
    ("page=99999999999", ["page"]),
    ("player=Zoe", ["player"]),
    ("player=%00", ["player"]),
    ("stauts=finished", ["stauts"]),
    ("page=1&order=asc", ["order"]),
]


def test_invalid_or_unknown_query_arguments_are_a_422(api, game):
    for query, fields in INVALID_ARGUMENTS:
        api.refused(api.get(f"/api/v1/leagues/our-table/games?{query}"), 422, *fields)
    api.refused(api.get(f"/api/v1/games/{game['id']}?verbose=1"), 422, "verbose")


def test_a_body_over_the_limit_is_a_413_and_changes_nothing(api, game):
    padding = "x" * (core.MAX_BODY + 1)
    refused_unchanged(
        api,
        "POST",
        f"/api/v1/games/{game['id']}/deals",
        413,
        json={"out": 0, "scores": [140, 50], "padding": padding},
        check=False,  # the description needn't list a 413 for every write
    )


def test_ids_are_ascii_digits(api, game):
    assert api.get(f"/api/v1/games/{game['id']}").status_code == 200
    full_width = "".join(chr(0xFF10 + int(digit)) for digit in str(game["id"]))
    api.refused(api.get(f"/api/v1/games/{full_width}", check=False), 404)
