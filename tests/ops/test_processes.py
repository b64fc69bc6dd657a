"""Several app processes on one fresh database: they migrate once and all serve.

Each test starts real servers (gunicorn with 4 workers, or waitress) as
``docs/DEPLOY.md`` says to, on a fresh SQLite file and, when ``DATABASE_URL``
names a PostgreSQL server, on a fresh database there.
"""

import os
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from scorekeeper.database import MIGRATIONS_DIR, database_url
from tests.conftest import TEST_DATABASES
from tests.databases import server_database

pytestmark = pytest.mark.slow  # real server processes started and stopped

ROOT = Path(__file__).resolve().parents[2]
KINDS = ["sqlite", *(["postgresql"] if os.environ.get("DATABASE_URL") else [])]
WORKERS = 4
#: Two shared cores: a cold start of four workers can take a while.
START_SECONDS = 90


@pytest.fixture(params=KINDS)
def fresh_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The URL of a database nothing has touched yet."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'league.sqlite'}"
        return
    with server_database(os.environ["DATABASE_URL"], prefix=TEST_DATABASES) as url:
        yield url


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


def _start(command: list[str], database: str, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SCOREKEEPER_SECRET_KEY": "deploy-test",
        "PYTHONPATH": str(ROOT),
    }
    with log.open("wb") as out:
        return subprocess.Popen(command, env=env, cwd=log.parent, stdout=out, stderr=out)


def _started(
    command: Callable[[int], list[str]], database: str, log: Path
) -> tuple[subprocess.Popen[bytes], int]:
    """The server ``command(port)`` starts on a free port, once it answers. A port that
    another process (a test in the other worker) took between the choice and the bind is
    chosen again, up to three times."""
    for _ in range(3):
        port = _free_port()
        server = _start(command(port), database, log)
        try:
            if _wait_until_served(server, f"http://127.0.0.1:{port}/login", log):
                return server, port
        except BaseException:
            _stop(server)
            raise
    pytest.fail(f"no free port in three tries:\n{log.read_text()[-3000:]}")


def _wait_until_served(server: subprocess.Popen[bytes], url: str, log: Path) -> bool:
    """True once ``url`` answers 200; False if the server stopped because its port was
    taken; a failure if it stopped for any other reason or never answered."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None and "Address already in use" in log.read_text():
            return False
        assert server.poll() is None, f"the server stopped:\n{log.read_text()[-3000:]}"
        try:
            if _get(url) == 200:
                return True
        except OSError:
            pass
        time.sleep(0.3)
    pytest.fail(f"no answer from {url} in {START_SECONDS} s:\n{log.read_text()[-3000:]}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _migrated_once(database: str) -> None:
    """The schema at its head, recorded once, and the one league the first start makes."""
    head = ScriptDirectory(MIGRATIONS_DIR).get_current_head()
    engine = create_engine(database_url(database))
    try:
        with engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
            leagues = connection.execute(text("SELECT slug FROM league")).all()
    finally:
        engine.dispose()
    assert [row[0] for row in versions] == [head]
    assert [row[0] for row in leagues] == ["our-table"]


def test_four_gunicorn_workers_start_on_a_fresh_database(fresh_database, tmp_path):
    log = tmp_path / "gunicorn.log"
    server, port = _started(
        lambda port: [
            sys.executable,
            "-m",
            "gunicorn",
            "--workers",
            str(WORKERS),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "-",
            "--access-logformat",
            "served-by %(p)s %(s)s",
            "scorekeeper:create_app()",
        ],
        fresh_database,
        log,
    )
    try:
        url = f"http://127.0.0.1:{port}/login"
        # Sync workers answer one request at a time: requests sent at once spread over all.
        answered: dict[str, set[str]] = {}
        deadline = time.monotonic() + START_SECONDS
        with ThreadPoolExecutor(max_workers=2 * WORKERS) as pool:
            while len(answered) < WORKERS and time.monotonic() < deadline:
                statuses = list(pool.map(lambda _: _get(url), range(4 * WORKERS)))
                assert set(statuses) == {200}
                for pid, status in re.findall(r"served-by <(\d+)> (\d+)", log.read_text()):
                    answered.setdefault(pid, set()).add(status)
        booted = re.findall(r"Booting worker with pid: (\d+)", log.read_text())
        assert len(booted) == WORKERS, log.read_text()[-3000:]
        # A fresh install sends /login to /setup (302) to make its first account.
        assert sorted(answered) == sorted(booted)
        assert set().union(*answered.values()) == {"302", "200"}
        assert server.poll() is None
    finally:
        _stop(server)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
    _migrated_once(fresh_database)


def test_waitress_still_serves_a_fresh_database(fresh_database, tmp_path):
    log = tmp_path / "waitress.log"
    server, _port = _started(
        lambda port: [sys.executable, "-m", "scorekeeper.ops.serve", "--port", str(port)],
        fresh_database,
        log,
    )
    _stop(server)
    _migrated_once(fresh_database)


def test_processes_starting_at_once_share_one_secret_key(tmp_path):
    """Workers make the instance folder's key at the same moment: they all read one key."""
    from scorekeeper.app import _secret_key

    for attempt in range(20):
        folder = tmp_path / str(attempt)
        folder.mkdir()
        start = threading.Barrier(2 * WORKERS)

        def first_start(folder: Path = folder, start: threading.Barrier = start) -> str:
            start.wait()
            return _secret_key(str(folder))

        with ThreadPoolExecutor(max_workers=2 * WORKERS) as pool:
            keys = {pool.submit(first_start).result for _ in range(2 * WORKERS)}
            read = {key() for key in keys}
        assert len(read) == 1
        assert len(read.pop()) == 64
        assert [path.name for path in folder.iterdir()] == ["secret_key"]


def test_migrating_as_a_deploy_step_then_backing_up(fresh_database, tmp_path):
    """DEPLOY.md's other way: AUTO_MIGRATE off, ``flask init-db`` from two machines at
    once, then the nightly ``flask backup``."""
    env = {
        **os.environ,
        "DATABASE_URL": fresh_database,
        "SCOREKEEPER_SECRET_KEY": "deploy-test",
        "SCOREKEEPER_AUTO_MIGRATE": "false",
        "PYTHONPATH": str(ROOT),
    }
    flask = [sys.executable, "-m", "flask", "--app", "scorekeeper"]
    steps = [
        subprocess.Popen([*flask, "init-db"], env=env, cwd=tmp_path, stdout=subprocess.PIPE)
        for _ in range(2)
    ]
    for step in steps:
        out, _ = step.communicate(timeout=START_SECONDS)
        assert step.returncode == 0
        assert out.decode().strip() == "The database is up to date."
    _migrated_once(fresh_database)
    backup = subprocess.run(
        [*flask, "backup", str(tmp_path / "league.json")],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=START_SECONDS,
        check=True,
    )
    assert backup.stdout.decode().startswith(f"Backed up to {tmp_path / 'league.json'}: 1 league")
