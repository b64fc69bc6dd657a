"""docs/DEPLOY.md's recipe, end to end (issue 21, point 2): Debian's nginx, configured with
the server blocks DEPLOY.md shows, terminates TLS in front of the app under waitress
(``mille-scorekeeper``) and under gunicorn, with ``SCOREKEEPER_PROXY_FIX=1``.

Through it, over HTTPS, every cookie is ``Secure`` and HSTS is sent, and sign-in is
throttled per client address: clients come from different loopback addresses
(127.0.0.2, 127.0.0.3), which nginx passes on in ``X-Forwarded-For``.
"""

import http.client
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from tests.conftest import TEST_DATABASES, require_or_skip
from tests.databases import server_database

pytestmark = pytest.mark.slow  # nginx and app servers started and stopped

ROOT = Path(__file__).resolve().parents[2]
HOST = "mille.example.org"
PASSWORD = "a-long-enough-password"
START_SECONDS = 90


def deploy_server_blocks() -> str:
    """The nginx configuration DEPLOY.md gives for a server, word for word: the first of its
    nginx blocks (section 4; the later one is the table's local-network variant)."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    blocks = re.findall(r"```nginx\n(.*?)```", text, re.S)
    assert blocks, "DEPLOY.md shows an nginx configuration"
    assert "server_name mille.example.org;" in blocks[0], "the server's block comes first"
    return blocks[0]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """A fresh database: PostgreSQL when DATABASE_URL names one, else an SQLite file."""
    if os.environ.get("DATABASE_URL"):
        with server_database(os.environ["DATABASE_URL"], prefix=TEST_DATABASES) as url:
            yield url
        return
    yield f"sqlite:///{tmp_path / 'league.sqlite'}"


def _environment(database: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database,
        "SCOREKEEPER_SECRET_KEY": "behind-nginx",
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_PASSWORD_HASH_METHOD": "pbkdf2:sha256:1000",
        "PYTHONPATH": str(ROOT),
    }


def _certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for the site's name."""
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "1", "-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def _nginx_configuration(folder: Path, app_port: int, http_port: int, https_port: int) -> Path:
    """DEPLOY.md's server blocks, on this test's ports and certificate, in a minimal nginx.conf
    of their own (no root needed, nothing of the machine's nginx touched)."""
    cert, key = _certificate(folder)
    servers = deploy_server_blocks()
    for old, new in [
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        (f"/etc/letsencrypt/live/{HOST}/fullchain.pem", str(cert)),
        (f"/etc/letsencrypt/live/{HOST}/privkey.pem", str(key)),
        ("proxy_pass http://127.0.0.1:8000;", f"proxy_pass http://127.0.0.1:{app_port};"),
    ]:
        assert old in servers, f"DEPLOY.md's nginx configuration no longer says {old!r}"
        servers = servers.replace(old, new)
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    conf = folder / "nginx.conf"
    conf.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")  # its workers read this test's folder
        + f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        + "worker_processes 1;\nevents {}\nhttp {\n"
        + f"access_log {folder / 'access.log'};\n"
        + "".join(f"{name}_temp_path {path};\n" for name, path in temp.items()).replace(
            "body_temp_path", "client_body_temp_path"
        )
        + servers
        + "}\n"
    )
    return conf


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, cwd=log.parent, stdout=out, stderr=out)


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Browser:
    """A client at one address, speaking HTTPS to nginx, keeping the cookies it is given."""

    def __init__(self, port: int, address: str, cafile: Path) -> None:
        self.port, self.address = port, address
        # The certificate is checked against the one made for the test; its name is the
        # site's, reached here at 127.0.0.1 (the Host header names the site).
        self.context = ssl.create_default_context(cafile=str(cafile))
        self.context.check_hostname = False
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, body: dict[str, str] | None = None, **headers: str
    ) -> tuple[http.client.HTTPResponse, str]:
        connection = http.client.HTTPSConnection(
            "127.0.0.1",
            self.port,
            context=self.context,
            source_address=(self.address, 0),
            timeout=30,
        )
        sent = {"Host": HOST, **headers}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        connection.close()
        return response, text

    def sign_in(self, password: str, **headers: str) -> http.client.HTTPResponse:
        _, page = self.request("GET", "/login")
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
        assert token, page[:500]
        data = {"csrf_token": token.group(1), "username": "admin", "password": password}
        # As a browser at https://mille.example.org:<port>/ sends it (Flask-WTF checks it).
        referer = f"https://{HOST}:{self.port}/login"
        response, _ = self.request("POST", "/login", data, Referer=referer, **headers)
        return response


SERVERS = {
    "waitress": [sys.executable, "-m", "scorekeeper.ops.serve", "--host", "127.0.0.1", "--port"],
    "gunicorn": [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind"],
}


@pytest.mark.parametrize("server", sorted(SERVERS))
def test_behind_nginx_cookies_are_secure_hsts_is_sent_and_throttling_is_per_client(
    server, database, tmp_path
):
    require_or_skip(shutil.which("nginx") is not None, "nginx is not installed")
    require_or_skip(shutil.which("openssl") is not None, "openssl is not installed")
    env = _environment(database)
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    subprocess.run(
        [*flask, "user", "create", "admin", "--admin", "--password", PASSWORD],
        env=env,
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=START_SECONDS,
    )
    app_port, http_port, https_port = _free_port(), _free_port(), _free_port()
    command = [*SERVERS[server]]
    command += [str(app_port)] if server == "waitress" else [f"127.0.0.1:{app_port}"]
    command += ["scorekeeper:create_app()"] if server == "gunicorn" else []
    app_log = tmp_path / f"{server}.log"
    app_server = _start(command, env, app_log)
    conf = _nginx_configuration(tmp_path, app_port, http_port, https_port)
    nginx = _start(
        ["nginx", "-p", str(tmp_path), "-c", str(conf), "-e", str(tmp_path / "error.log"),
         "-g", "daemon off;"],
        env,
        tmp_path / "nginx.log",
    )  # fmt: skip
    cafile = tmp_path / "fullchain.pem"
    try:
        _wait_for_the_app(app_server, app_log, https_port, cafile, nginx, tmp_path)
        # Plain HTTP is sent to HTTPS.
        plain = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
        plain.request("GET", "/login", headers={"Host": HOST})
        moved = plain.getresponse()
        plain.close()
        assert (moved.status, moved.headers["Location"]) == (301, f"https://{HOST}/login")

        # Five wrong guesses from one client, and then the right password from it too: held.
        guesser = Browser(https_port, "127.0.0.2", cafile)
        for _ in range(5):
            assert guesser.sign_in("wrong-guess").status == 401
        assert guesser.sign_in(PASSWORD).status == 429
        # Claiming another address in X-Forwarded-For changes nothing: nginx adds the real one.
        assert guesser.sign_in(PASSWORD, **{"X-Forwarded-For": "203.0.113.9"}).status == 429

        # The owner, at another address, signs in: cookies Secure, and HSTS.
        owner = Browser(https_port, "127.0.0.3", cafile)
        response = owner.sign_in(PASSWORD)
        assert response.status == 302
        cookies = response.headers.get_all("Set-Cookie") or []
        assert {c.split("=", 1)[0] for c in cookies} >= {"session"}
        assert all("; Secure" in cookie for cookie in cookies), cookies
        assert response.headers["Strict-Transport-Security"].startswith("max-age=")
        page, _ = owner.request("GET", "/account")
        assert page.status == 200
        assert page.headers["Strict-Transport-Security"].startswith("max-age=")
    finally:
        _stop(nginx)
        _stop(app_server)
    assert "Traceback" not in app_log.read_text(), app_log.read_text()[-3000:]


def _wait_for_the_app(
    app_server: subprocess.Popen[bytes],
    log: Path,
    port: int,
    cafile: Path,
    nginx: subprocess.Popen[bytes],
    folder: Path,
) -> None:
    deadline = time.monotonic() + START_SECONDS
    probe = Browser(port, "127.0.0.1", cafile)
    while time.monotonic() < deadline:
        assert app_server.poll() is None, f"the app stopped:\n{log.read_text()[-3000:]}"
        assert nginx.poll() is None, (
            f"nginx stopped:\n{(folder / 'nginx.log').read_text()}"
            f"{(folder / 'error.log').read_text() if (folder / 'error.log').exists() else ''}"
        )
        try:
            if probe.request("GET", "/login")[0].status == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"no answer through nginx in {START_SECONDS} s:\n{log.read_text()[-3000:]}")
