"""A site administrator disables an account, and can undo it (issue 21, point 9); what a
password change and a sign-in end on their way (point 8)."""

import re

import pytest

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import AuditEvent, Game, db
from tests.conftest import Table

PASSWORD = "member-password"


@pytest.fixture
def bea(app, auth):
    """A scorekeeper of the league, signed in on her phone, with an API token, who has
    recorded a deal: (her id, her phone, her token, her game)."""
    phone = auth.member("scorekeeper", username="bea")
    with app.app_context():
        user = user_service.user_by_name("bea")
        token = token_service.create_token(user.id, "her script")
        user_id = user.id
        db.session.remove()
    game_id = Table(phone).start_game()
    assert Table(phone).record(game_id, 0, (100, 50)).status_code == 302
    return user_id, phone, token, game_id


def _opens(client, token):
    """(whether her phone opens a scorekeeper's page, the API's answer to her token)."""
    page = client.get("/leagues/our-table/games/new")
    api = client.get("/api/v1/leagues", headers={"Authorization": f"Bearer {token}"})
    return page.status_code == 200, api.status_code


def _sign_in(app, password=PASSWORD):
    return app.test_client().post("/login", data={"username": "bea", "password": password})


def test_a_site_administrator_disables_an_account_at_once_and_undoes_it(app, table, bea):
    user_id, phone, token, game_id = bea
    assert _opens(phone, token) == (True, 200)
    listed = table.client.get("/users")
    assert listed.status_code == 200
    assert re.search(r"<strong>bea</strong>.*?in use", listed.text, re.S)

    disabled = table.client.post(f"/users/{user_id}/disable", follow_redirects=True)
    assert "bea is disabled: signed out everywhere, API tokens revoked." in disabled.text
    assert re.search(r"<strong>bea</strong>.*?disabled ", disabled.text, re.S)
    # At once: her phone's session and her token open nothing any more.
    assert _opens(phone, token) == (False, 401)
    refused = _sign_in(app)
    assert refused.status_code == 403
    assert "This account is disabled. Ask a site administrator." in refused.text
    assert _sign_in(app, "a-wrong-password").status_code == 401  # says nothing more
    # Her history stays: the game, and the deal credited to her.
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 1
        credited = db.session.scalars(
            db.select(AuditEvent.user_id).where(AuditEvent.game_id == game_id)
        )
        assert user_id in set(credited)

    undone = table.client.post(f"/users/{user_id}/enable", follow_redirects=True)
    assert "bea can sign in again." in undone.text
    again = _sign_in(app)
    assert again.status_code == 302
    # Back in use, with new tokens: the old one stays revoked.
    assert (
        app.test_client()
        .get("/api/v1/leagues", headers={"Authorization": f"Bearer {token}"})
        .status_code
        == 401
    )


def test_only_a_site_administrator_disables_an_account(app, auth, bea):
    user_id, phone, token, _ = bea
    league_admin = auth.member("admin")
    for client in (league_admin, phone):
        assert client.get("/users").status_code == 403
        assert client.post(f"/users/{user_id}/disable").status_code == 403
    assert app.test_client().post(f"/users/{user_id}/disable").status_code == 401
    assert app.test_client().get("/users").status_code == 302  # to the sign-in page
    assert _opens(phone, token) == (True, 200)


def test_nobody_disables_their_own_account(app, table):
    with app.app_context():
        own = user_service.user_by_name("admin").id
    answer = table.client.post(f"/users/{own}/disable", follow_redirects=True)
    assert "You can&#39;t disable your own account." in answer.text
    assert table.client.get("/users").status_code == 200
    assert table.client.post("/users/99999/disable").status_code == 404


def test_the_command_line_disables_and_enables_an_account(app, bea):
    _, phone, token, _ = bea
    runner = app.test_cli_runner()
    result = runner.invoke(args=["user", "disable", "bea"])
    assert result.exit_code == 0, result.output
    assert "bea is disabled" in result.output
    assert _opens(phone, token) == (False, 401)
    assert runner.invoke(args=["user", "enable", "bea"]).exit_code == 0
    assert _sign_in(app).status_code == 302
    assert runner.invoke(args=["user", "disable", "nobody"]).exit_code != 0


# Point 8: what a password change and a sign-in end ------------------------------------


def test_a_password_change_revokes_the_accounts_api_tokens(app, bea):
    _, phone, token, _ = bea
    changed = phone.post(
        "/account",
        data={
            "pw-current": PASSWORD,
            "pw-password": "a-brand-new-passphrase",
            "pw-confirm": "a-brand-new-passphrase",
            "pw-submit": "1",
        },
        follow_redirects=True,
    )
    assert "your API tokens are revoked" in changed.text
    assert _opens(phone, token) == (True, 401)  # this phone stays signed in; the token doesn't


def _csrf_token(client, path):
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


def test_signing_in_rotates_the_csrf_secret(make_app):
    """A CSRF token made before signing in (one someone could have planted with the session
    cookie) no longer passes once signed in; the page's new one does."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    before = _csrf_token(client, "/login")
    signed_in = client.post(
        "/login", data={"csrf_token": before, "username": "admin", "password": "admin-password"}
    )
    assert signed_in.status_code == 302
    stale = client.post("/leagues/our-table/players", data={"csrf_token": before, "name": "Eve"})
    assert stale.status_code == 400
    fresh = _csrf_token(client, "/leagues/our-table/players")
    assert fresh != before
    added = client.post("/leagues/our-table/players", data={"csrf_token": fresh, "name": "Eve"})
    assert added.status_code == 302
