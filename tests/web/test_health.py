"""``GET /healthz``: what a load balancer's probe or systemd's watchdog asks every few
seconds. It answers from one trivial statement, and never starts a session or sets a
cookie (a probe would otherwise fill the sessions table, or be sent cookies)."""

from importlib.metadata import version

import pytest
from sqlalchemy import event

from scorekeeper.models import db

VERSION = version("mille-scorekeeper")


def statements_of(app, client, path):
    """The answer to ``GET path`` and the SQL statements it ran (transaction control aside)."""
    seen = []

    def count(_conn, _cursor, statement, *_args):
        if statement.split()[0].upper() not in {"BEGIN", "COMMIT", "ROLLBACK"}:
            seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        answer = client.get(path)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return answer, seen


def test_a_healthy_app_answers_ok_with_its_version_from_one_statement(app):
    client = app.test_client()
    answer, statements = statements_of(app, client, "/healthz")
    assert answer.status_code == 200
    assert answer.get_json() == {"status": "ok", "database": "ok", "version": VERSION}
    assert statements == ["SELECT 1"]
    assert "Set-Cookie" not in answer.headers
    assert answer.headers["Cache-Control"] == "no-store"


def test_a_probe_holding_cookies_is_given_none_and_starts_no_session(app):
    """A browser that opens it while signed in, or before any account exists."""
    client = app.test_client()
    data = {"username": "admin", "password": "admin-password", "remember": "y"}
    assert client.post("/login", data=data).status_code == 302
    client.set_cookie("lang", "fr")
    answer = client.get("/healthz", headers={"Accept-Language": "fr"})
    assert answer.status_code == 200
    assert "Set-Cookie" not in answer.headers
    assert answer.get_json()["status"] == "ok"
    client.delete_cookie("session")  # the remember-me cookie alone signs nobody in here
    answer = client.get("/healthz")
    assert "Set-Cookie" not in answer.headers


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:////nonexistent-folder/scorekeeper.sqlite",
        "postgresql://postgres@127.0.0.1:1/nothing-listens-here",
    ],
)
def test_without_a_database_it_is_a_503_not_a_500(make_app, url):
    app = make_app(SQLALCHEMY_DATABASE_URI=url)
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json() == {
        "status": "unavailable",
        "database": "unreachable",
        "version": VERSION,
    }
    assert "Set-Cookie" not in answer.headers
