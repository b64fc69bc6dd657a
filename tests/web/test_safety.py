"""CSRF, security headers, and two phones on one game."""

import re
import uuid

import pytest
from sqlalchemy import func, select

from scorekeeper.models import Game, Player, Season, db
from tests.conftest import NEW_GAME_FORM


def test_forms_without_a_csrf_token_are_refused(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    response = client.post("/leagues/our-table/players", data={"name": "Ana"})
    assert response.status_code == 400
    assert "Form expired" in response.get_data(as_text=True)


def test_every_page_sends_security_headers(client):
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


def test_pages_use_no_inline_script_or_style_attributes(table, wikipedia_card):
    game_id = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game_id, out, scores, stars)
    page = table.page(game_id)
    assert " style=" not in page
    assert "<script>" not in page
    assert " onclick=" not in page


def test_two_phones_one_stale_save_is_refused_not_applied(table, app, auth):
    game_id = table.start_game()
    phone_a, phone_b = auth.login(app.test_client()), auth.member("scorekeeper")
    # Both phones load the card at version 1; A saves first.
    a = phone_a.post(
        f"/games/{game_id}/deals",
        data={
            "out": "0",
            "score0": "100",
            "score1": "50",
            "version": "1",
            "token": uuid.uuid4().hex,
        },
    )
    b = phone_b.post(
        f"/games/{game_id}/deals",
        data={
            "out": "1",
            "score0": "60",
            "score1": "200",
            "version": "1",
            "token": uuid.uuid4().hex,
        },
    )
    assert a.status_code == 302
    assert b.status_code == 409
    page = b.get_data(as_text=True)
    assert "Not saved: the score card changed on another phone" in page
    assert 'id="deal-1"' in page  # the current card, with A's deal, is shown
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.deal_count, game.total0, game.total1) == (1, 100, 50)
    # B's typed deal waits in the form, now on the current version: one tap saves it.
    form = dict(re.findall(r'<input[^>]* name="(\w+)"[^>]* value="([^"]*)"', page))
    assert (form["score0"], form["score1"], form["version"]) == ("60", "200", "2")
    assert '<input checked id="out-1" name="out"' in page  # who went out: the second player
    again = phone_b.post(f"/games/{game_id}/deals", data={**form, "out": "1"})
    assert again.status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).total1 == 250


@pytest.mark.parametrize("version", ["abc", "²", "9" * 5000, "-1", "0"])
def test_a_change_from_a_page_with_a_garbled_version_is_refused(table, app, version):
    game_id = table.start_game()
    table.record(game_id, 0, (100, 50))
    table.record(game_id, 0, (100, 50))
    for path in ("undo", "deals/1/delete"):
        response = table.client.post(f"/games/{game_id}/{path}", data={"version": version})
        assert response.status_code == 409
    response = table.client.post(
        f"/games/{game_id}/deals",
        data={"out": "0", "score0": "100", "score1": "50", "version": version},
    )
    assert response.status_code == 409
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 2


def test_a_double_tap_records_the_deal_once(table, app):
    game_id = table.start_game()
    data = {"out": "0", "score0": "100", "score1": "50", "version": "1", "token": "tap"}
    phone = table.client
    first, second = (phone.post(f"/games/{game_id}/deals", data=data) for _ in range(2))
    assert (first.status_code, second.status_code) == (302, 302)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1


def test_templates_and_static_files_ship_with_the_package(app, client):
    assert app.jinja_loader.get_source(app.jinja_env, "table/game.html")
    for name in ("style.css", "app.js"):
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200


NUL_REQUESTS = [
    ("/leagues/our-table/players", {"name": "A\x00b"}),
    ("/leagues/our-table/games/new", {"player0": "A\x00b", "player1": "Ben", "small": "1"}),
    ("/login", {"username": "ad\x00min", "password": "x"}),
    ("/leagues/new", {"name": "L\x00"}),
    ("/leagues/our-table/seasons", {"name": "S\x00", "starts_on": "2026-01-01"}),
    ("/leagues/our-table/members", {"username": "u\x00", "role": "viewer"}),
]


@pytest.mark.parametrize(("path", "data"), NUL_REQUESTS)
def test_a_nul_character_is_a_400_that_changes_nothing(auth, client, path, data):
    """PostgreSQL can't store or even compare a NUL, so none gets as far as a query."""
    signed_in = auth.login(client)
    with signed_in.application.app_context():
        players_before = db.session.scalar(select(func.count()).select_from(Player))
    response = signed_in.post(path, data=data)
    assert response.status_code == 400
    assert "Bad request" in response.get_data(as_text=True)
    assert signed_in.get("/leagues/our-table/games?player=%00").status_code == 400
    with signed_in.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == players_before


@pytest.mark.parametrize(
    ("path", "data", "field"),
    [
        ("/leagues/our-table/players", {"name": "A\x1bb"}, "name"),
        (
            "/leagues/our-table/games/new",
            {**NEW_GAME_FORM, "player1": "B\x07en"},
            "player1",
        ),
        (
            "/leagues/our-table/seasons",
            {"name": "S\x7f", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
            "name",
        ),
    ],
)
def test_a_name_with_a_control_character_is_refused_beside_its_field(
    auth, client, path, data, field
):
    """The one rule for names (names.check_printable) that imports and the API follow too."""
    signed_in = auth.login(client)
    response = signed_in.post(path, data=data)
    assert response.status_code in (200, 422)
    page = response.get_data(as_text=True)
    message = "A name can&#39;t contain control characters."
    assert f'<p class="error" id="{field}-error">{message}</p>' in page
    with signed_in.application.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0
        assert db.session.scalar(select(func.count()).select_from(Season)) == 0


@pytest.mark.parametrize(
    "path",
    ["/leagues/a%00b", "/leagues/a%00b/games", "/api/v1/leagues/a%00b", "/api/v1/leagues/%00"],
)
def test_a_nul_character_in_a_league_address_is_a_404(auth, client, path):
    assert auth.login(client).get(path).status_code == 404


@pytest.mark.parametrize(
    ("query", "field"), [("player=A%00b", "player"), ("status=%00", "status"), ("page=%00", "page")]
)
def test_a_nul_character_in_an_api_query_is_a_422_naming_the_field(public, client, query, field):
    """The API checks its own arguments (API.md: 422 names the field), NULs included."""
    response = client.get(f"/api/v1/leagues/our-table/games?{query}")
    assert response.status_code == 422
    assert response.is_json
    assert field in response.get_json()["fields"]
