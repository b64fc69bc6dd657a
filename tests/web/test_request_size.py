"""How large a request may be, and when it is refused (issue 21, points 3 and 4).

A league import takes up to 50 MB, in production too, where forms carry a CSRF token that
is checked before the view runs; every other page takes 1 MiB. Whatever is larger than
its route takes is refused from its Content-Length alone, before a byte of it is read: by
the app, and by waitress itself, which would otherwise receive up to 1 GiB first.
"""

import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from werkzeug.test import EnvironBuilder

from scorekeeper.league.transfer.views import MAX_IMPORT_BYTES
from scorekeeper.ops import serve
from tests.ops.test_behind_nginx import (
    PASSWORD,
    SERVERS,
    START_SECONDS,
    _environment,
    _free_port,
    _start,
    _stop,
)
from tests.ops.test_behind_nginx import database as fresh_database

database = fresh_database  # the fixture, under its own name (a fresh database per test)

MiB = 1024 * 1024


class EndlessBody:
    """A body of ``size`` bytes, made as it is read; counts what is read of it."""

    def __init__(self, size: int) -> None:
        self.size, self.read_bytes = size, 0

    def read(self, n: int = -1) -> bytes:
        n = min(self.size - self.read_bytes, 65536 if n is None or n < 0 else n)
        self.read_bytes += n
        return b"x" * n

    def readline(self, n: int = -1) -> bytes:
        return self.read(n)


def send_without_reading(app, path: str, size: int, cookie: str = "") -> tuple[str, bytes, int]:
    """POST ``size`` bytes to ``path`` through the app: its status, page, and bytes read."""
    body = EndlessBody(size)
    environ = EnvironBuilder(path=path, method="POST").get_environ()
    environ.update(
        {
            "wsgi.input": body,
            "CONTENT_TYPE": "multipart/form-data; boundary=xyz",
            "CONTENT_LENGTH": str(size),
            "HTTP_COOKIE": cookie,
        }
    )
    answer: dict[str, str] = {}
    page = b"".join(app.wsgi_app(environ, lambda status, headers: answer.update(status=status)))
    return answer["status"], page, body.read_bytes


def _csrf_token(client, path: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(path).text)
    assert found, path
    return found.group(1)


@pytest.fixture
def admin_with_csrf(make_app):
    """The site administrator in a browser, on an app with CSRF protection on (production)."""
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = _csrf_token(client, "/login")
    signed_in = client.post(
        "/login", data={"csrf_token": token, "username": "admin", "password": "admin-password"}
    )
    assert signed_in.status_code == 302
    return app, client


def test_an_import_of_several_megabytes_is_read_with_csrf_on(admin_with_csrf):
    """The CSRF check parsed the form under the pages' 1 MiB limit, before the import's own
    limit was set: every import over 1 MiB was a 413 in production."""
    _app, client = admin_with_csrf
    token = _csrf_token(client, "/leagues/our-table/import")
    csv = b"x\n" * (3 * MiB // 2)  # 3 MiB of lines: refused as a score card, not for its size
    body = b"".join(
        [
            b'--xyz\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n',
            token.encode() + b"\r\n",
            b'--xyz\r\nContent-Disposition: form-data; name="format"\r\n\r\ncsv\r\n',
            b'--xyz\r\nContent-Disposition: form-data; name="file"; filename="cards.csv"\r\n',
            b"Content-Type: text/csv\r\n\r\n" + csv + b"\r\n--xyz--\r\n",
        ]
    )
    with client.post(
        "/leagues/our-table/import", data=body, content_type="multipart/form-data; boundary=xyz"
    ) as response:
        assert response.status_code == 422, response.text[:300]
        assert "Too large" not in response.text


def test_an_import_over_its_limit_is_refused_before_it_is_read_with_csrf_on(admin_with_csrf):
    app, client = admin_with_csrf
    cookie = f"session={client.get_cookie('session').value}"
    status, page, read = send_without_reading(
        app, "/leagues/our-table/import", MAX_IMPORT_BYTES + 2 * MiB, cookie
    )
    assert status.startswith("413")
    assert b"Too large" in page
    assert read == 0


@pytest.mark.parametrize("path", ["/", "/leagues", "/no-such-page", "/logout"])
def test_a_body_too_large_is_refused_from_its_length_whatever_the_route(app, path):
    """Even where nothing would read the body (a GET-only page, a 404), a server would still
    receive all of it to answer: the Content-Length alone is a 413."""
    status, page, read = send_without_reading(app, path, 400 * MiB)
    assert status.startswith("413")
    assert b"Too large" in page
    assert read == 0


def test_waitress_is_told_a_pages_limit_and_the_app_what_waitress_was_told(make_app):
    """Waitress has one limit for every route, and receives a body whole before the app
    sees it: the pages' (issue 34: the import's 51 MB were received on any route). The
    import page then sends a larger file in parts (``league/transfer/parts.py``)."""
    app = make_app()
    options = serve.waitress_options(app)
    assert options == {"max_request_body_size": MiB}
    try:
        serve.served_by_waitress(app, options)
        assert app.config["SERVER_MAX_BODY"] == MiB
    finally:
        app.config["SERVER_MAX_BODY"] = None  # the app is shared by the run's tests


@pytest.mark.slow
def test_waitress_refuses_a_body_too_large_before_it_is_sent(tmp_path):
    """A 400 MiB POST is answered 413 at once, from its headers: waitress doesn't wait
    for (and spool to disk) a body no route takes."""
    port, log = _free_port(), tmp_path / "waitress.log"
    env = _environment(f"sqlite:///{tmp_path / 'league.sqlite'}")
    command = [sys.executable, "-m", "scorekeeper.ops.serve", "--host", "127.0.0.1"]
    server = _start([*command, "--port", str(port)], env, log)
    try:
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, log.read_text()[-3000:]
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=10)
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()[-3000:]
                time.sleep(0.3)
        with connection:
            connection.sendall(
                b"POST /login HTTP/1.1\r\nHost: localhost\r\n"
                b"Content-Type: application/x-www-form-urlencoded\r\n"
                + f"Content-Length: {400 * MiB}\r\n\r\n".encode()
                + b"username=x&password="
            )
            answer = connection.recv(4096)  # within the timeout: not waiting for the body
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    finally:
        _stop(server)


@contextmanager
def served(server: str, database_url: str, folder: Path) -> Iterator[int]:
    """The app under ``server`` (waitress as ``mille-scorekeeper`` runs it, or gunicorn) on
    a fresh database with an administrator, keeping a file sent in parts in ``folder``'s
    ``parts``; the port it answers on."""
    env = {**_environment(database_url), "SCOREKEEPER_IMPORT_PARTS_FOLDER": str(folder / "parts")}
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    subprocess.run(
        [*flask, "user", "create", "admin", "--admin", "--password", PASSWORD],
        env=env, cwd=folder, check=True, capture_output=True, timeout=START_SECONDS,
    )  # fmt: skip
    port, log = _free_port(), folder / f"{server}.log"
    command = [*SERVERS[server]]
    command += [str(port)] if server == "waitress" else [f"127.0.0.1:{port}"]
    command += ["scorekeeper:create_app()"] if server == "gunicorn" else []
    process = _start(command, env, log)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                if requests.get(f"http://127.0.0.1:{port}/healthz", timeout=5).ok:
                    break
            except (requests.ConnectionError, requests.Timeout):
                pass  # still starting (slowly, on a busy machine): ask again until the deadline
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.3)
        yield port
    finally:
        _stop(process)


def answer_before_the_body(port: int, path: str, size: int) -> bytes:
    """What the server answers to the headers of a POST of ``size`` bytes, sending none
    of them (a server that waits for the body answers nothing: a timeout)."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(
            f"POST {path} HTTP/1.1\r\nHost: localhost\r\n".encode()
            + b"Content-Type: application/x-www-form-urlencoded\r\n"
            + f"Content-Length: {size}\r\n\r\n".encode()
        )
        try:
            return connection.recv(4096)
        except TimeoutError:
            return b"(no answer: the server waits for the body)"


#: Routes that take no large body (the import's is the one that does).
PAGES = ["/login", "/leagues/our-table/members", "/leagues/our-table/import/parts", "/nothing"]


@pytest.mark.slow
@pytest.mark.parametrize("server", sorted(SERVERS))
def test_a_body_over_a_pages_limit_is_refused_before_it_is_sent(server, database, tmp_path):
    """2 MiB: more than a page takes, less than an import's file. Waitress received up to
    51 MB on every route, anonymous /login included, before its 413 (and spooled it to
    disk); now neither server waits for a byte of it on any route but the import's. Under
    waitress not even there: the import page sends a larger file in parts."""
    with served(server, database, tmp_path) as port:
        for path in PAGES + ["/leagues/our-table/import"] * (server == "waitress"):
            answer = answer_before_the_body(port, path, 2 * MiB)
            assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:200])


def signed_in_at(port: int) -> tuple[requests.Session, str]:
    """A browser signed in as the administrator, and the import page's CSRF token."""
    browser = requests.Session()
    base = f"http://127.0.0.1:{port}"
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', browser.get(
        f"{base}/login").text)  # fmt: skip
    assert token
    data = {"csrf_token": token.group(1), "username": "admin", "password": PASSWORD}
    assert browser.post(f"{base}/login", data=data, allow_redirects=False).status_code == 302
    page = browser.get(f"{base}/leagues/our-table/import").text
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert found
    return browser, found.group(1)


@pytest.mark.slow
def test_under_waitress_an_import_larger_than_a_page_is_sent_in_parts(database, tmp_path):
    """What the import page's script does with a file over the server's limit: parts under
    it, then the import names the upload. 3 MiB of lines: refused as a score card, not for
    its size."""
    csv = b"x\n" * (3 * MiB // 2)
    with served("waitress", database, tmp_path) as port:
        browser, token = signed_in_at(port)
        base = f"http://127.0.0.1:{port}/leagues/our-table/import"
        page = browser.get(base).text
        size = int(re.search(r'data-parts="(\d+)"', page).group(1))
        assert size <= MiB // 2
        upload = ""
        for offset in range(0, len(csv), size):
            sent = browser.post(
                f"{base}/parts",
                data={"csrf_token": token, "upload": upload, "offset": str(offset)},
                files={"part": ("cards.csv", csv[offset : offset + size])},
            )
            assert sent.status_code == 200, sent.text[:300]
            upload = sent.json()["upload"]
            assert sent.json()["received"] == min(offset + size, len(csv))
        imported = browser.post(base, data={"csrf_token": token, "upload": upload, "format": "csv"})
        assert imported.status_code == 422, imported.text[:300]
        assert "Nothing was imported" in imported.text
        assert list((tmp_path / "parts").iterdir()) == []  # the parts are let go
