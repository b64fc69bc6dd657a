"""How large a request may be, and when it is refused (issue 21, points 3 and 4).

A league import takes up to 50 MB, in production too, where forms carry a CSRF token that
is checked before the view runs; every other page takes 1 MiB. Whatever is larger than
its route takes is refused from its Content-Length alone, before a byte of it is read: by
the app, and by waitress itself, which would otherwise receive up to 1 GiB first.
"""

import re
import socket
import sys
import time

import pytest
from werkzeug.test import EnvironBuilder

from scorekeeper.league.transfer.views import MAX_IMPORT_BYTES
from scorekeeper.ops import serve
from tests.ops.test_behind_nginx import _environment, _free_port, _start, _stop

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


def test_waitress_is_told_the_largest_body_the_app_takes(make_app):
    options = serve.waitress_options(make_app())
    assert options == {"max_request_body_size": MAX_IMPORT_BYTES + MiB}


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
