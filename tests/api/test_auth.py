"""Tokens: made on the command line or the account page, stored hashed, revoked there,
and the only way the API knows who is asking."""

import hashlib
import re

from scorekeeper.models import ApiToken, db


def cli(app, *args):
    result = app.test_cli_runner().invoke(args=list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_command_line_makes_an_administrator_and_a_token_that_works(app, api):
    created = cli(app, "user", "create", "cleo", "--admin", "--password", "cleo-password")
    assert created.strip() == "Created site administrator cleo."
    token = cli(app, "token", "create", "cleo").split()[-1]
    headers = {"Authorization": f"Bearer {token}"}

    response = api.as_("anonymous").post(
        "/api/v1/leagues", {"name": "Cleo's table"}, headers=headers
    )

    assert response.status_code == 201
    assert response.get_json()["slug"] == "cleo-s-table"


def test_a_token_of_a_plain_user_carries_only_that_users_roles(app, api):
    cli(app, "user", "create", "dan", "--password", "dan-password")
    token = cli(app, "token", "create", "dan", "--name", "scoreboard").split()[-1]
    dan = api.as_("anonymous")
    dan.token = token

    api.refused(dan.post("/api/v1/leagues", {"name": "Dan's"}), 403)
    assert dan.get("/api/v1/leagues").status_code == 200


def test_tokens_are_stored_hashed_and_record_when_they_were_used(app, api):
    with app.app_context():
        rows = db.session.scalars(db.select(ApiToken)).all()
        assert [row.token_hash for row in rows] == [hashlib.sha256(api.token.encode()).hexdigest()]
        assert rows[0].prefix == api.token[:12]
        assert rows[0].last_used_at is None
        db.session.remove()

    api.get("/api/v1/leagues")

    with app.app_context():
        assert db.session.scalars(db.select(ApiToken)).one().last_used_at is not None
        db.session.remove()


def test_the_account_page_lists_and_revokes_tokens(app, api, auth):
    page_client = auth.login(app.test_client())
    page = page_client.get("/account").get_data(as_text=True)
    assert api.token[:12] in page
    assert api.token not in page
    token_id = re.search(r"/account/tokens/(\d+)/revoke", page).group(1)
    assert api.get("/api/v1/leagues").status_code == 200

    assert page_client.post(f"/account/tokens/{token_id}/revoke").status_code == 302

    api.refused(api.get("/api/v1/leagues"), 401)


def test_a_token_made_on_the_account_page_works(app, api, auth):
    page_client = auth.login(app.test_client())
    response = page_client.post(
        "/account", data={"token-name": "laptop", "token-submit": "1"}, follow_redirects=True
    )
    token = re.search(r"mille_[\w-]+", response.get_data(as_text=True)).group(0)
    script = api.as_("anonymous")
    script.token = token
    assert script.post("/api/v1/leagues", {"name": "Laptop league"}).status_code == 201


def test_the_api_ignores_the_session_cookie(public, app, api, auth):
    """A signed-in browser can't be made to write through the API: only a token counts."""
    browser = auth.login(app.test_client())
    game = api.start_game()
    response = browser.post(
        "/api/v1/games", json={"league": "our-table", "players": ["Ana", "Ben"]}
    )
    assert response.status_code == 401
    assert browser.get(f"/api/v1/games/{game['id']}/history").status_code == 401
    assert browser.get(f"/games/{game['id']}").status_code == 200  # the pages still know it
