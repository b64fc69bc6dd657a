"""Accounts: the first administrator, signing in and out, passwords, throttling, the CLI."""

import re

from scorekeeper.accounts import sign_in as sign_in_service
from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import ApiToken, User, db
from scorekeeper.records.leagues import league_by_slug


def test_a_fresh_install_offers_to_create_the_first_administrator(make_app):
    app = make_app()
    with app.app_context():
        db.session.execute(db.delete(User))
        db.session.commit()
    client = app.test_client()
    response = client.get("/")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/setup")
    with app.app_context():
        code = user_service.setup_code()
    response = client.post(
        "/setup",
        data={"code": code, "username": "Ana", "password": "long enough", "confirm": "long enough"},
    )
    assert response.status_code == 302
    assert "Start a new game" in client.get("/").get_data(as_text=True)  # signed in, admin
    assert client.get("/setup").status_code == 404  # only once
    with app.app_context():
        assert db.session.scalars(db.select(User)).one().is_admin


def test_setup_rejects_short_and_mismatched_passwords(make_app):
    app = make_app()
    with app.app_context():
        db.session.execute(db.delete(User))
        db.session.commit()
    page = (
        app.test_client()
        .post("/setup", data={"username": "Ana", "password": "short", "confirm": "other"})
        .get_data(as_text=True)
    )
    assert "A password has at least 8 characters." in page
    assert "The passwords differ." in page


def without_users(app):
    with app.app_context():
        db.session.execute(db.delete(User))
        db.session.commit()
        return user_service.setup_code()


def test_the_first_administrator_needs_the_setup_code_from_the_terminal(make_app):
    """Anyone on the network reaches the setup page: only who reads the terminal (or
    runs the CLI) can create the first administrator."""
    app = make_app()
    code = without_users(app)
    client = app.test_client()
    form = {"username": "Mallory", "password": "long enough", "confirm": "long enough"}
    for typed, message in [
        ("", "Enter the setup code printed in the terminal."),
        ("1234-5678-9012", "That is not the setup code"),
        (code[:-1], "That is not the setup code"),
    ]:
        response = client.post("/setup", data={**form, "code": typed})
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        assert re.search(r'<p class="error" id="code-error">' + re.escape(message), page), typed
        assert '<input aria-describedby="code-hint code-error" aria-invalid="true"' in page
    with app.app_context():
        assert not user_service.has_users()
        assert league_by_slug("our-table").public is False
    response = client.post("/setup", data={**form, "code": code.replace("-", " ")})
    assert response.status_code == 302
    with app.app_context():
        assert user_service.user_by_name("Mallory").is_admin


def test_the_setup_page_asks_for_the_code_and_says_where_it_is(make_app):
    app = make_app()
    without_users(app)
    page = app.test_client().get("/setup").get_data(as_text=True)
    assert '<label for="code">Setup code</label>' in page
    assert 'inputmode="numeric"' in page
    assert "Printed in the terminal where Mille Scorekeeper was started" in page


def test_the_cli_prints_the_setup_code_and_still_creates_an_administrator(make_app):
    app = make_app()
    code = without_users(app)
    runner = app.test_cli_runner()
    result = runner.invoke(args=["setup-code"])
    assert result.exit_code == 0
    assert result.output == f"Setup code: {code}\n"
    result = runner.invoke(args=["user", "create", "Ana", "--admin", "--password", "long enough"])
    assert result.exit_code == 0, result.output
    result = runner.invoke(args=["setup-code"])
    assert result.exit_code != 0
    assert "already has an administrator" in result.output


def test_sign_in_and_out(client):
    response = client.post("/login", data={"username": "ADMIN", "password": "admin-password"})
    assert response.status_code == 302
    assert ">admin</a>" in client.get("/").get_data(as_text=True)
    client.post("/logout")
    assert "Sign in to keep score" in client.get("/").get_data(as_text=True)


def test_wrong_password_is_refused_with_a_message(client):
    response = client.post("/login", data={"username": "admin", "password": "nope"})
    assert response.status_code == 401
    assert "The username or password is wrong." in response.get_data(as_text=True)


def test_sign_in_is_throttled_after_repeated_failures(client):
    for _ in range(sign_in_service.MAX_ATTEMPTS_PER_NAME):
        client.post("/login", data={"username": "admin", "password": "guess"})
    response = client.post("/login", data={"username": "admin", "password": "admin-password"})
    assert response.status_code == 429
    assert "Too many failed sign-ins" in response.get_data(as_text=True)


def test_remember_me_sets_a_long_lived_httponly_cookie(client):
    response = client.post(
        "/login", data={"username": "admin", "password": "admin-password", "remember": "y"}
    )
    cookies = response.headers.getlist("Set-Cookie")
    remember = next(c for c in cookies if c.startswith("remember_token="))
    assert "HttpOnly" in remember
    assert "SameSite=Lax" in remember
    session = next(c for c in cookies if c.startswith("session="))
    assert "HttpOnly" in session


def test_login_never_redirects_off_site(client):
    response = client.post(
        "/login?next=https://evil.example/",
        data={"username": "admin", "password": "admin-password"},
    )
    assert response.headers["Location"] == "/"


def test_change_password(table, app):
    page = table.client.post(
        "/account",
        data={
            "pw-current": "wrong-one",
            "pw-password": "a new password",
            "pw-confirm": "a new password",
            "pw-submit": "1",
        },
    ).get_data(as_text=True)
    assert "That is not your current password." in page
    response = table.client.post(
        "/account",
        data={
            "pw-current": "admin-password",
            "pw-password": "a new password",
            "pw-confirm": "a new password",
            "pw-submit": "1",
        },
    )
    assert response.status_code == 302
    with app.app_context():
        assert user_service.user_by_name("admin").check_password("a new password")


def test_api_tokens_are_shown_once_stored_hashed_and_revocable(table, app):
    response = table.client.post(
        "/account", data={"token-name": "club dashboard", "token-submit": "1"}
    )
    assert response.status_code == 201  # shown in the answer, never kept in the cookie
    page = response.get_data(as_text=True)
    assert '<code class="token">' not in table.client.get("/account").get_data(as_text=True)
    token = page.split('<code class="token">')[1].split("</code>")[0]
    with app.app_context():
        row = db.session.scalars(db.select(ApiToken)).one()
        assert row.token_hash == ApiToken.digest(token)
        assert token not in (row.token_hash, row.prefix)
        assert token_service.user_for_token(token).username == "admin"
    assert "club dashboard" in table.client.get("/account").get_data(as_text=True)
    table.client.post(f"/account/tokens/{row.id}/revoke")
    with app.app_context():
        assert token_service.user_for_token(token) is None


def test_cli_creates_users_and_tokens(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["user", "create", "Cleo", "--admin", "--password", "pw-for-cleo"])
    assert result.exit_code == 0, result.output
    assert "Created site administrator Cleo." in result.output
    result = runner.invoke(args=["token", "create", "cleo"])
    assert result.exit_code == 0
    token = result.output.split()[-1]
    with app.app_context():
        assert token_service.user_for_token(token).username == "Cleo"
    result = runner.invoke(args=["user", "create", "CLEO", "--password", "another-pw"])
    assert result.exit_code != 0
    assert "taken" in result.output


def test_cli_asks_for_the_password_when_not_given(app):
    runner = app.test_cli_runner()
    result = runner.invoke(args=["user", "create", "Dora"], input="secret-pw\nsecret-pw\n")
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert user_service.user_by_name("dora").check_password("secret-pw")


def test_league_defaults_start_new_games_and_never_change_past_ones(table, app):
    from scorekeeper.models import Game

    old_game = table.start_game()
    table.record(old_game, 0, (1250, 50), confirm=True)
    response = table.client.post(
        "/leagues/our-table/settings",
        data={
            "defaults-preset": "progressive",
            "defaults-target": "2000",
            "defaults-progressive": "y",
            "defaults-skunk": "mark",
            "defaults-difference": "round",
            "defaults-small": "0.25",
            "defaults-save_defaults": "1",
        },
    )
    assert response.status_code == 302
    form = table.client.get("/leagues/our-table/games/new").get_data(as_text=True)
    assert 'value="2000"' in form
    assert 'value="0.25"' in form
    assert 'value="0.75"' in form
    with app.app_context():
        game = db.session.get(Game, old_game)
        assert (game.target, game.big_stake, game.amount_due) == (1200, 300, 3000)  # ($3 + $12) × 2


def test_league_defaults_refuse_a_big_stake_over_the_limit_beside_its_field(table, app):
    response = table.client.post(
        "/leagues/our-table/settings",
        data={
            "defaults-preset": "standard",
            "defaults-target": "1200",
            "defaults-skunk": "multiply",
            "defaults-difference": "round",
            "defaults-small": "5000",
            "defaults-big": "",
            "defaults-save_defaults": "1",
        },
    )
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Three times the small stake is more than $10,000.00: enter the big stake." in page
    assert re.search(r'<input aria-describedby="[^"]*defaults-big-error" aria-invalid="true"', page)
    with app.app_context():
        assert league_by_slug("our-table").defaults is None


def test_league_settings_rename_and_make_private(table, app, auth):
    response = table.client.post(
        "/leagues/our-table/settings", data={"league-name": "Tuesday club", "league-submit": "1"}
    )
    assert response.status_code == 302
    assert auth.member("viewer").get("/leagues/our-table/players").status_code == 200
    assert app.test_client().get("/leagues/our-table/players").status_code == 404
