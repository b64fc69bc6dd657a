"""What the benchmarks share: building the app on a database, counting SQL statements,
and percentiles. Throwaway PostgreSQL databases come from ``tests/databases.py``, which the
tests use too."""

import math
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event

from scorekeeper import create_app
from scorekeeper.models import db

#: The PostgreSQL server the benchmarks make their databases on (trust auth on loopback).
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/"
#: Every account the generator makes signs in with this password.
PASSWORD = "bench-password"
ADMIN = "bench-admin"
SCOREKEEPER = "bench-scorekeeper"

BENCH_CONFIG: dict[str, Any] = {
    "SECRET_KEY": "bench-only-secret",
    "AUTO_MIGRATE": True,
}


def make_app(url: str, **config: Any) -> Flask:
    """The real app on ``url`` (migrated on start), with the benchmarks' settings on top."""
    return create_app({**BENCH_CONFIG, "SQLALCHEMY_DATABASE_URI": url, **config})


def dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


class StatementCounter:
    """Counts the SQL statements the app's engine sends while ``counting`` is on, and the
    time spent waiting for them (from the cursor's execute to its return)."""

    def __init__(self, app: Flask) -> None:
        with app.app_context():
            self.engine = db.engine
        self.count = 0
        self.seconds = 0.0
        self.on = False
        self._started = 0.0
        event.listen(self.engine, "before_cursor_execute", self._before)
        event.listen(self.engine, "after_cursor_execute", self._after)

    def _before(self, *_args: Any) -> None:
        if self.on:
            self.count += 1
            self._started = time.perf_counter()

    def _after(self, *_args: Any) -> None:
        if self.on:
            self.seconds += time.perf_counter() - self._started

    @contextmanager
    def counting(self) -> Iterator[None]:
        self.count, self.seconds, self.on = 0, 0.0, True
        try:
            yield
        finally:
            self.on = False

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._before)
        event.remove(self.engine, "after_cursor_execute", self._after)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0–100) by the nearest-rank method."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def dialect_name(url: str) -> str:
    return "PostgreSQL" if url.startswith(("postgres", "postgresql")) else "SQLite"


#: Where the benchmarks serve the app: loopback only.
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(command: list[str], env: dict[str, str], port: int, log: Path) -> Iterator[int]:
    """``command`` run as a server process, its output in ``log``, from the moment it
    accepts connections on ``port`` (up to 30 s) until it is stopped; its pid."""
    with log.open("w") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        for _ in range(300):
            if process.poll() is not None:
                raise RuntimeError(f"the server stopped while starting: see {log}")
            try:
                with socket.create_connection((HOST, port), timeout=1):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("the server did not start in 30 s")
        yield process.pid
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
