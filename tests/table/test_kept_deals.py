"""A deal of another game kept on a phone offline, sent to the page's record route as the
API's JSON body under the page's session (issue 36): saved once however often its key
comes, refused with the field named, asked about when unusual, its CSRF token needed, and
refused to whoever may not send the deal form."""

import json
import re
import uuid
from typing import Any

import pytest

from scorekeeper.accounts import users as user_service
from scorekeeper.models import db
from scorekeeper.table.deal_forms import form_of
from tests.conftest import make_public

from .kind_helpers import GAMES, deal_count, start

#: A deal of each game as the API takes it (one of kind_helpers' deals, as JSON).
BODIES: dict[str, dict[str, Any]] = {
    "rummy": {"out": 1, "counts": [23, 0, 7], "rummy": False},
    "boathouse-rummy": {"out": 1, "counts": [23, 0, 11]},
    "continental-rummy": {"out": 2, "jokers": 2},
    "gamblers-rummy": {"out": None, "counts": [12, 30, 4, 9]},
    "knock-rummy": {"knocker": 0, "counts": [6, 6, 14, 20]},
    "scotch-whist": {
        "honours": {"jack": 0, "ace": 1, "king": 1, "queen": 0, "ten": 0},
        "cards": [20, 16],
    },
    "spoil-five": {"winner": None, "jink": "none"},
}


def send(client: Any, game_id: int, body: object, key: str | None = None, **headers: str) -> Any:
    return client.post(
        f"/games/{game_id}/deals",
        data=json.dumps(body),
        content_type="application/json",
        headers={"Idempotency-Key": key or uuid.uuid4().hex, **headers},
    )


def test_every_other_game_has_a_body_here():
    assert set(BODIES) == set(GAMES)


@pytest.mark.parametrize("kind", sorted(BODIES))
def test_a_kept_deal_is_saved_once_however_often_its_key_comes(table, app, api, kind):
    game_id = start(app, kind)
    key = uuid.uuid4().hex
    first = send(table.client, game_id, {**BODIES[kind], "version": 1}, key)
    assert first.status_code == 201, first.get_json()
    assert first.get_json() == {"recorded": True, "deals": 1, "version": 2}
    again = send(table.client, game_id, {**BODIES[kind], "version": 1}, key)
    assert again.status_code == 200
    assert again.get_json() == {"recorded": False, "deals": 1, "version": 2}
    assert len(api.get(f"/api/v1/games/{game_id}").get_json()["deals"]) == 1
    # The same deal as the API records it: the page's form and the API read one body.
    deal = api.get(f"/api/v1/games/{game_id}").get_json()["deals"][0]
    for name, value in BODIES[kind].items():
        if name != "rummy":
            assert deal[name] == value, name


def test_a_refused_body_names_each_field_and_saves_nothing(table, app):
    game_id = start(app, "knock-rummy")
    answer = send(table.client, game_id, {"knocker": 7, "counts": [6, -1, 14, "x"]})
    assert answer.status_code == 422
    said = answer.get_json()
    assert set(said["fields"]) >= {"knocker", "counts.1", "counts.3"}
    assert said["error"].startswith("Not saved: ")
    assert deal_count(app, game_id) == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [([1, 2], None), ({"knocker": 0, "counts": [1, 2, 3, 4], "version": "2"}, "version")],
)
def test_a_body_that_is_no_deal_is_refused_in_json(table, app, body, field):
    game_id = start(app, "knock-rummy")
    answer = send(table.client, game_id, body)
    assert answer.status_code == (422 if field else 400)
    assert answer.is_json
    assert answer.get_json()["error"]
    if field:
        assert field in answer.get_json()["fields"]
    assert deal_count(app, game_id) == 0


@pytest.mark.parametrize("key", [None, "", "no spaces allowed", "x" * 101])
def test_a_kept_deal_needs_its_key(table, app, key):
    game_id = start(app, "spoil-five")
    headers = {} if key is None else {"Idempotency-Key": key}
    answer = table.client.post(
        f"/games/{game_id}/deals", json=BODIES["spoil-five"], headers=headers
    )
    assert answer.status_code == 400
    assert "Idempotency-Key" in answer.get_json()["fields"]
    assert deal_count(app, game_id) == 0


def test_an_unusual_deal_is_asked_about_then_saved_as_typed(table, app):
    game_id = start(app, "knock-rummy")
    body, key = {"knocker": 0, "counts": [6, 6, 14, 65]}, uuid.uuid4().hex
    asked = send(table.client, game_id, body, key)
    assert asked.status_code == 409
    assert "65 is an unusually high count" in asked.get_json()["error"]
    assert deal_count(app, game_id) == 0
    saved = send(table.client, game_id, body, key, **{"X-Confirm": asked.get_json()["confirm"]})
    assert saved.status_code == 201
    assert deal_count(app, game_id) == 1


def test_a_deal_kept_on_a_card_changed_since_is_refused(table, app):
    game_id = start(app, "spoil-five")
    assert send(table.client, game_id, {**BODIES["spoil-five"], "version": 1}).status_code == 201
    stale = send(table.client, game_id, {"winner": 2, "jink": "won", "version": 1})
    assert stale.status_code == 409
    assert "changed since" in stale.get_json()["error"]
    assert deal_count(app, game_id) == 1


def test_a_finished_sitting_takes_no_kept_deal(table, app):
    game_id = start(app, "spoil-five")
    assert send(table.client, game_id, {"winner": 1, "jink": "none"}).status_code == 201
    assert table.client.post(f"/games/{game_id}/finish", data={"version": "2"}).status_code == 302
    answer = send(table.client, game_id, BODIES["spoil-five"])
    assert answer.status_code == 409
    assert "takes no more deals" in answer.get_json()["error"]
    assert deal_count(app, game_id) == 1


def test_the_page_s_csrf_token_is_needed(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    game_id = start(app, "spoil-five")
    client = app.test_client()
    login = client.get("/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', login)
    assert csrf
    client.post(
        "/login",
        data={"username": "admin", "password": "admin-password", "csrf_token": csrf.group(1)},
    )
    page = client.get(f"/games/{game_id}").get_data(as_text=True)
    token = re.search(r'data-csrf="([^"]+)"', page)
    assert token, "the page gives its script its CSRF token"
    refused = send(client, game_id, BODIES["spoil-five"])
    assert refused.status_code == 400
    assert "reload" in refused.get_json()["error"]
    assert deal_count(app, game_id) == 0
    saved = send(client, game_id, BODIES["spoil-five"], **{"X-CSRFToken": token.group(1)})
    assert saved.status_code == 201
    assert deal_count(app, game_id) == 1


@pytest.mark.parametrize(("who", "status"), [("visitor", 401), ("viewer", 403), ("out", 404)])
def test_who_may_not_send_the_deal_form_may_not_send_a_kept_deal(app, auth, who, status):
    game_id = start(app, "knock-rummy")
    if who == "visitor":
        client = app.test_client()
        make_public(app)
    elif who == "viewer":
        client = auth.member("viewer")
    else:  # signed in, in no league: a private league's game is not there
        with app.app_context():
            user_service.create_user("outsider", "member-password")
            db.session.remove()
        client = auth.login(app.test_client(), "outsider", "member-password")
    answer = send(client, game_id, BODIES["knock-rummy"])
    assert answer.status_code == status
    assert answer.is_json
    assert answer.get_json()["error"]
    assert deal_count(app, game_id) == 0


def test_each_field_of_the_form_says_where_it_goes_in_the_body(table, app):
    """The form's fields carry their place in the body and each choice its JSON: what
    static/offline.js reads to build the body without a game's rules."""
    game_id = start(app, "gamblers-rummy")
    page = table.page(game_id)
    assert 'data-json-path="out"' in page
    assert 'value="nobody" required data-json-path="out" data-json-value="null"' in page
    assert 'data-json-value="2" data-json-fills="{&#34;counts.2&#34;: 0}"' in page
    assert 'data-json-path="counts.3" data-json-type="number"' in page
    assert form_of("gamblers-rummy").null_choices == ("nobody",)
