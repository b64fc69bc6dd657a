"""Hardening of accounts (issue 16): what an attacker with a copied cookie, a list of
guesses or a stopwatch can no longer do, and what a password must not be."""

from datetime import timedelta

import pytest

from scorekeeper.accounts import sign_in as sign_in_service
from scorekeeper.accounts import users as user_service
from scorekeeper.models import accounts as account_models
from scorekeeper.models import db, utcnow
from tests.conftest import run_together


def test_a_wrong_password_checks_a_hash_whether_or_not_the_user_exists(client, monkeypatch):
    """The time a refusal takes does not tell whether the account exists: both check a
    hash made with the same method (asserted by the calls, not by timing)."""
    checked = []
    real_check = account_models.check_password_hash

    def recording_check(password_hash, password):
        checked.append(password_hash.split("$")[0])
        return real_check(password_hash, password)

    monkeypatch.setattr(account_models, "check_password_hash", recording_check)
    assert client.post("/login", data={"username": "admin", "password": "no!"}).status_code == 401
    assert client.post("/login", data={"username": "nobody", "password": "no!"}).status_code == 401
    assert len(checked) == 2
    assert checked[0] == checked[1] == "pbkdf2:sha256:1000"


def test_a_new_api_token_is_shown_in_the_answer_to_the_post_and_never_put_in_the_cookie(table):
    response = table.client.post(
        "/account", data={"token-name": "club dashboard", "token-submit": "1"}
    )
    assert response.status_code == 201  # created, and shown once
    page = response.get_data(as_text=True)
    token = page.split('<code class="token">')[1].split("</code>")[0]
    assert token.startswith("mille_")
    assert "no-store" in response.headers["Cache-Control"]
    assert token not in _decoded_session(table.client)
    assert '<code class="token">' not in table.client.get("/account").get_data(as_text=True)


def _decoded_session(client):
    """The session cookie as its holder can read it (signed, not encrypted)."""
    import base64
    import zlib

    cookie = client.get_cookie("session")
    if cookie is None:
        return ""
    value = cookie.value
    compressed = value.startswith(".")
    payload = value.lstrip(".").split(".")[0]
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    return (zlib.decompress(data) if compressed else data).decode()


# Sessions end on the server ---------------------------------------------------------


def _signed_in(app, remember=True, password="admin-password"):
    client = app.test_client()
    data = {"username": "admin", "password": password, **({"remember": "y"} if remember else {})}
    assert client.post("/login", data=data).status_code == 302
    return client


def _copy(app, client, *names):
    """Another browser holding copies of ``client``'s cookies ``names``."""
    thief = app.test_client()
    for name in names:
        thief.set_cookie(name, client.get_cookie(name).value)
    return thief


def _opens_the_account(client):
    return client.get("/account").status_code == 200


def test_sign_out_ends_every_copy_of_the_cookies(app):
    phone = _signed_in(app)
    session_copy = _copy(app, phone, "session")
    remember_copy = _copy(app, phone, "remember_token")
    assert _opens_the_account(session_copy)
    assert _opens_the_account(remember_copy)
    phone.post("/logout")
    assert not _opens_the_account(phone)
    assert not _opens_the_account(session_copy)
    assert not _opens_the_account(remember_copy)


def test_a_password_change_ends_every_other_session_and_keeps_this_one(app):
    phone, laptop = _signed_in(app), _signed_in(app, remember=False)
    session_copy = _copy(app, phone, "session")
    remember_copy = _copy(app, phone, "remember_token")
    response = phone.post(
        "/account",
        data={
            "pw-current": "admin-password",
            "pw-password": "a brand new passphrase",
            "pw-confirm": "a brand new passphrase",
            "pw-submit": "1",
        },
    )
    assert response.status_code == 302
    assert _opens_the_account(phone)
    assert not _opens_the_account(laptop)
    assert not _opens_the_account(session_copy)
    assert not _opens_the_account(remember_copy)
    # the phone's new remember-me cookie works on its own
    assert _opens_the_account(_copy(app, phone, "remember_token"))


def test_sign_out_everywhere_ends_every_session_from_the_account_page(app):
    phone, laptop = _signed_in(app), _signed_in(app, remember=False)
    remember_copy = _copy(app, phone, "remember_token")
    page = laptop.get("/account").get_data(as_text=True)
    assert 'action="/account/sign-out-everywhere"' in page
    assert "Sign out everywhere" in page
    response = laptop.post("/account/sign-out-everywhere")
    assert response.status_code == 302
    for client in (phone, laptop, remember_copy):
        assert not _opens_the_account(client)


def test_each_sign_in_gets_its_own_remember_token_and_it_expires(app):
    first, second = _signed_in(app), _signed_in(app)
    token = first.get_cookie("remember_token").value
    assert token != second.get_cookie("remember_token").value
    with app.app_context():
        for row in db.session.scalars(db.select(account_models.UserSession)):
            row.expires_at = utcnow() - timedelta(seconds=1)
        db.session.commit()
    assert not _opens_the_account(_copy(app, first, "remember_token"))
    assert not _opens_the_account(first)


def test_a_cookie_holding_only_a_user_id_opens_nothing(app):
    """What the cookies held before: the user's id, which never changes."""
    from flask_login.utils import encode_cookie

    with app.test_request_context():
        forged = encode_cookie("1")
    client = app.test_client()
    client.set_cookie("remember_token", forged)
    assert not _opens_the_account(client)


# Sign-in throttling -------------------------------------------------------------------


def _sign_in_from(app, address, username="admin", password="admin-password"):
    return app.test_client().post(
        "/login",
        data={"username": username, "password": password},
        environ_base={"REMOTE_ADDR": address},
    )


def test_guessing_one_name_from_one_address_is_stopped_but_its_owner_still_signs_in(app):
    for _ in range(sign_in_service.MAX_ATTEMPTS_PER_NAME):
        assert _sign_in_from(app, "10.0.0.66", password="guess").status_code == 401
    refused = _sign_in_from(app, "10.0.0.66")
    assert refused.status_code == 429
    assert "Too many failed sign-ins" in refused.get_data(as_text=True)
    assert _sign_in_from(app, "10.0.0.7").status_code == 302  # the owner, elsewhere


def test_failures_from_one_address_do_not_lock_the_other_accounts_there(app, auth):
    auth.member("viewer", username="Cleo")
    for index in range(sign_in_service.MAX_ATTEMPTS_PER_NAME):
        _sign_in_from(app, "10.0.0.5", username=f"someone-{index}", password="guess")
    for _ in range(sign_in_service.MAX_ATTEMPTS_PER_NAME - 1):
        _sign_in_from(app, "10.0.0.5", password="typo")
    assert _sign_in_from(app, "10.0.0.5").status_code == 302  # the same club's connection
    assert _sign_in_from(app, "10.0.0.5", "Cleo", "member-password").status_code == 302


def test_one_address_guessing_many_names_is_stopped_at_its_looser_limit(app):
    for index in range(sign_in_service.MAX_ATTEMPTS_PER_ADDRESS):
        assert _sign_in_from(app, "10.0.0.9", f"n{index}", "guess").status_code == 401
    assert _sign_in_from(app, "10.0.0.9").status_code == 429
    assert _sign_in_from(app, "10.0.0.10").status_code == 302


@pytest.mark.slow
def test_concurrent_guesses_are_all_counted(app, monkeypatch):
    """40 guesses at once for one name: only the allowed few reach the password check."""
    checked = []
    real_check = account_models.check_password_hash

    def recording_check(password_hash, password):
        checked.append(password)
        return real_check(password_hash, password)

    monkeypatch.setattr(account_models, "check_password_hash", recording_check)
    statuses = run_together(
        lambda index: _sign_in_from(app, "10.0.0.99", password=f"guess-{index}").status_code,
        count=40,
        seconds=120,
    )
    assert sorted(set(statuses)) == [401, 429]
    assert statuses.count(401) == sign_in_service.MAX_ATTEMPTS_PER_NAME
    assert len(checked) == sign_in_service.MAX_ATTEMPTS_PER_NAME


# HTTPS and reverse proxies --------------------------------------------------------------


def _sign_in_cookies(client, **kwargs):
    response = client.post(
        "/login",
        data={"username": "admin", "password": "admin-password", "remember": "y"},
        **kwargs,
    )
    assert response.status_code == 302
    cookies = response.headers.getlist("Set-Cookie")
    assert {c.split("=")[0] for c in cookies} >= {"session", "remember_token"}
    return response, cookies


def test_over_https_every_cookie_is_secure_and_hsts_is_sent(client):
    response, cookies = _sign_in_cookies(client, base_url="https://localhost")
    assert all("; Secure" in cookie for cookie in cookies), cookies
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" in client.get("/", base_url="https://localhost").headers


def test_over_plain_http_on_the_lan_cookies_still_work(client):
    response, cookies = _sign_in_cookies(client)
    assert not any("Secure" in cookie for cookie in cookies)
    assert "Strict-Transport-Security" not in response.headers


FORWARDED_HTTPS = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example"}


def test_behind_a_trusted_proxy_https_is_seen_and_cookies_are_secure(make_app):
    client = make_app(PROXY_FIX=1).test_client()
    response, cookies = _sign_in_cookies(client, headers=FORWARDED_HTTPS)
    assert all("; Secure" in cookie for cookie in cookies), cookies
    assert response.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_forwarded_headers_count_for_nothing_unless_configured(client):
    response, cookies = _sign_in_cookies(client, headers=FORWARDED_HTTPS)
    assert not any("Secure" in cookie for cookie in cookies)
    assert "Strict-Transport-Security" not in response.headers


def _sign_in_through_proxy(app, client_address, password="admin-password"):
    return app.test_client().post(
        "/login",
        data={"username": "admin", "password": password},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},  # the proxy
        headers={"X-Forwarded-For": client_address},
    )


def test_behind_a_trusted_proxy_throttling_counts_the_clients_address(make_app):
    app = make_app(PROXY_FIX=1)
    for _ in range(sign_in_service.MAX_ATTEMPTS_PER_NAME):
        _sign_in_through_proxy(app, "203.0.113.5", "guess")
    assert _sign_in_through_proxy(app, "203.0.113.5").status_code == 429
    assert _sign_in_through_proxy(app, "198.51.100.7").status_code == 302


def test_without_the_proxy_setting_a_forged_forwarded_for_does_not_escape_throttling(app):
    for index in range(sign_in_service.MAX_ATTEMPTS_PER_NAME):
        _sign_in_through_proxy(app, f"203.0.113.{index}", "guess")
    assert _sign_in_through_proxy(app, "198.51.100.7").status_code == 429


# Passwords ---------------------------------------------------------------------------

COMMON = "This is one of the most common passwords"
TOO_LONG = "A password has at most 256 characters."
REFUSED_PASSWORDS = [
    ("12345678", COMMON),
    ("password", COMMON),
    ("PassWord1", COMMON),
    ("x" * 400_000, TOO_LONG),
    ("y" * 257, TOO_LONG),
]


def _on_a_page(password, message):
    """What a page says instead: a password far longer than any is not even read."""
    return "This is far longer than anything this field takes." if len(password) > 1000 else message


def _error_beside(page, field_id):
    """The error message shown beside the input ``field_id``, tied to it for screen readers."""
    assert f'aria-describedby="{field_id}-error"' in page or f"{field_id}-error" in page
    return page.split(f'id="{field_id}-error">')[1].split("</p>")[0]


def _fresh_install(make_app):
    app = make_app()
    with app.app_context():
        db.session.execute(db.delete(account_models.User))
        db.session.commit()
    return app


def _setup(app, username: str, password: str):
    """The first administrator's form, with the setup code the terminal printed."""
    with app.app_context():
        code = user_service.setup_code()
    data = {"username": username, "password": password, "confirm": password, "code": code}
    return app.test_client().post("/setup", data=data)


@pytest.mark.parametrize(("password", "message"), REFUSED_PASSWORDS)
def test_setup_refuses_common_and_overlong_passwords_beside_the_field(make_app, password, message):
    app = _fresh_install(make_app)
    response = _setup(app, "Ana", password)
    assert response.status_code == 200
    assert _on_a_page(password, message) in _error_beside(
        response.get_data(as_text=True), "password"
    )
    with app.app_context():
        assert not user_service.has_users()


def test_setup_refuses_the_username_as_password(make_app):
    app = _fresh_install(make_app)
    response = _setup(app, "Anastasia", "anastasia")
    assert "differ from the username" in _error_beside(response.get_data(as_text=True), "password")


def test_a_long_passphrase_of_64_characters_and_more_is_allowed(make_app):
    app = _fresh_install(make_app)
    passphrase = "correct horse battery staple " * 8 + "x" * 24  # 256 characters
    assert len(passphrase) == 256
    response = _setup(app, "Ana", passphrase)
    assert response.status_code == 302


@pytest.mark.parametrize(("password", "message"), REFUSED_PASSWORDS[:4])
def test_changing_to_a_common_or_overlong_password_is_refused_beside_the_field(
    table, app, password, message
):
    response = table.client.post(
        "/account",
        data={
            "pw-current": "admin-password",
            "pw-password": password,
            "pw-confirm": password,
            "pw-submit": "1",
        },
    )
    assert _on_a_page(password, message) in _error_beside(
        response.get_data(as_text=True), "pw-password"
    )
    with app.app_context():
        assert user_service.user_by_name("admin").check_password("admin-password")


def test_changing_to_the_username_is_refused_beside_the_field(auth):
    client = auth.member("viewer", username="Cleopatra7")
    response = client.post(
        "/account",
        data={
            "pw-current": "member-password",
            "pw-password": "cleopatra7",
            "pw-confirm": "cleopatra7",
            "pw-submit": "1",
        },
    )
    page = response.get_data(as_text=True)
    assert "differ from the username" in _error_beside(page, "pw-password")


@pytest.mark.parametrize(("password", "message"), REFUSED_PASSWORDS[:4])
def test_the_command_line_refuses_common_and_overlong_passwords(app, password, message):
    result = app.test_cli_runner().invoke(args=["user", "create", "Dora", "--password", password])
    assert result.exit_code != 0
    assert message in result.output
    with app.app_context():
        assert user_service.user_by_name("Dora") is None


@pytest.mark.parametrize(("password", "message"), REFUSED_PASSWORDS[:4])
def test_a_league_admin_adding_a_member_cant_give_a_common_or_overlong_password(
    table, app, password, message
):
    response = table.client.post(
        "/leagues/our-table/members",
        data={"username": "Eve", "role": "2", "password": password, "submit": "1"},
    )
    assert _on_a_page(password, message) in _error_beside(
        response.get_data(as_text=True), "password"
    )
    with app.app_context():
        assert user_service.user_by_name("Eve") is None


# Request size ------------------------------------------------------------------------


class EndlessBody:
    """A multipart body of ``size`` bytes, one huge file, made as it is read; counts what
    is read of it."""

    START = b'--xyz\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n'

    def __init__(self, size):
        self.size, self.read_bytes = size, 0

    def read(self, n=-1):
        n = min(self.size - self.read_bytes, 65536 if n is None or n < 0 else n)
        start = self.START[self.read_bytes : self.read_bytes + n]
        self.read_bytes += n
        return start + b"x" * (n - len(start))

    def readline(self, n=-1):
        return self.read(n)

    def tell(self):
        return self.read_bytes


def test_a_huge_post_is_refused_before_it_is_read(app):
    from werkzeug.test import EnvironBuilder

    body = EndlessBody(300 * 1024 * 1024)
    environ = EnvironBuilder(path="/login", method="POST").get_environ()
    environ.update(
        {
            "wsgi.input": body,
            "CONTENT_TYPE": "multipart/form-data; boundary=xyz",
            "CONTENT_LENGTH": str(body.size),
        }
    )
    answer = {}
    page = b"".join(app.wsgi_app(environ, lambda status, headers: answer.update(status=status)))
    assert answer["status"].startswith("413")
    assert b"Too large" in page
    assert body.read_bytes == 0


def test_a_page_refuses_a_body_over_the_limit_with_a_page_that_says_so(table, app):
    response = table.client.post("/leagues/our-table/players", data={"name": "x" * 2_000_000})
    assert response.status_code == 413
    assert "larger than this site accepts" in response.get_data(as_text=True)
    assert app.config["MAX_CONTENT_LENGTH"] == 1024 * 1024


def test_an_import_may_be_larger_than_a_form(table):
    """The import's file has a limit of its own (transfer.views.MAX_IMPORT_BYTES)."""
    from scorekeeper.league.transfer import views as transfer_views

    assert transfer_views.MAX_IMPORT_BYTES > 2 * 1024 * 1024
    csv = b"x\n" * (1024 * 1024)  # 2 MB of lines: refused as a score card, not for its size
    body = b"".join(
        [
            b'--xyz\r\nContent-Disposition: form-data; name="format"\r\n\r\ncsv\r\n',
            b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="cards.csv"\r\n',
            b"Content-Type: text/csv\r\n\r\n" + csv + b"\r\n--xyz--\r\n",
        ]
    )
    with table.client.post(
        "/leagues/our-table/import", data=body, content_type="multipart/form-data; boundary=xyz"
    ) as response:
        assert response.status_code == 422
        assert "Too large" not in response.get_data(as_text=True)


# What a browser keeps for the site after signing out ---------------------------------


def _owner_key(client, path="/"):
    import re

    found = re.search(r'<body data-owner="([0-9a-f]+)"', client.get(path).get_data(as_text=True))
    return found[1] if found else None


def test_each_page_names_whose_offline_deals_it_keeps_by_an_opaque_key(app, auth):
    admin = _signed_in(app)
    scorekeeper = auth.member("scorekeeper")
    admin_key, scorekeeper_key = _owner_key(admin), _owner_key(scorekeeper)
    assert admin_key
    assert scorekeeper_key
    assert admin_key != scorekeeper_key
    assert len(admin_key) == 32  # derived from the secret: not the user's id, not guessable
    assert _owner_key(_signed_in(app, remember=False)) == admin_key  # the same in every session
    assert _owner_key(app.test_client()) is None  # nobody signed in: no key at all


@pytest.mark.parametrize("path", ["/logout", "/account/sign-out-everywhere"])
def test_signing_out_empties_the_browsers_storage_and_cache_for_the_site(app, path):
    phone = _signed_in(app)
    response = phone.post(path)
    assert response.status_code == 302
    # The deals kept offline and the service worker's copies of private pages go too.
    assert response.headers["Clear-Site-Data"] == '"cache", "storage"'
    assert "Clear-Site-Data" not in phone.get("/").headers
