"""``python -m bench.live``: what keeping game pages live costs the production server.

An open game page (static/live.js) asks ``GET /games/<id>/version`` every 2 s with
the version it shows as ``If-None-Match``; until the game changes the answer is
``304 Not Modified``. This starts the app as it is deployed — ``python -m
scorekeeper.ops.serve`` (waitress, 8 threads) in its own process, on a file SQLite
database (or ``--database``) — with one game on a public league, then:

1. **50 idle open pages**: 50 pollers, each on its own keep-alive connection, ask
   every 2 s for ``--seconds`` seconds, as 50 phones on a league night. Prints the
   requests answered, their statuses, the latency, and the server process's CPU
   (user + system time over the wall time, from /proc).
2. **The 304 path flat out**: 8 clients ask as fast as they can for 5 s: the
   requests per second one server process answers, and the CPU it takes.
3. For scale, the same for the whole game page (what a reload would cost).

All traffic goes to 127.0.0.1; every loop is bounded by its deadline.
"""

import argparse
import http.client
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.accounts import users as user_service
from scorekeeper.engine import Rules, Seat, Stakes, validate_tally
from scorekeeper.models import db
from scorekeeper.records.leagues import ensure_default_league
from scorekeeper.table import service as game_service
from scorekeeper.table import starting

from .common import (
    HOST,
    PASSWORD,
    dialect_name,
    dispose,
    free_port,
    make_app,
    percentile,
    serving,
)

TICKS = os.sysconf("SC_CLK_TCK")


def prepare(url: str) -> int:
    """Migrate ``url``, make the first administrator and one public game with a deal."""
    app = make_app(url)
    with app.app_context():
        user_service.create_first_admin("bench-admin", PASSWORD)
        league = ensure_default_league()
        league.public = True
        db.session.commit()
        game = starting.start_game(
            league.id, ("Ana", "Ben"), Rules(), Stakes.from_small(100), Seat(0)
        )
        game_service.record_deal(game.id, validate_tally(0, (290, 160), (0, 0)))
        game_id = game.id
    dispose(app)
    return game_id


@contextmanager
def server(url: str, log: Path) -> Iterator[tuple[int, int]]:
    """``python -m scorekeeper.ops.serve`` on ``url`` in a process of its own: (port, pid)."""
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SCOREKEEPER_SECRET_KEY": "bench-live-secret"}
    command = [sys.executable, "-m", "scorekeeper.ops.serve", "--host", HOST, "--port", str(port)]
    with serving(command, env, port, log) as pid:
        yield port, pid


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


@dataclass
class Answers:
    statuses: Counter[int] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, status: int, seconds: float) -> None:
        with self.lock:
            self.statuses[status] += 1
            self.latencies.append(seconds)


def client(
    port: int, path: str, etag: str | None, period: float, until: float, out: Answers
) -> None:
    """Ask ``path`` every ``period`` seconds (0: as fast as answered) until ``until``."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    headers = {"If-None-Match": etag} if etag else {}
    next_at = time.monotonic()
    while (now := time.monotonic()) < until:
        if period and now < next_at:
            time.sleep(min(next_at - now, until - now))
            continue
        next_at += period
        started = time.perf_counter()
        try:
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            with out.lock:
                out.errors += 1
            connection.close()
            connection = http.client.HTTPConnection(HOST, port, timeout=10)
            continue
        out.add(response.status, time.perf_counter() - started)
    connection.close()


def run(
    port: int, pid: int, path: str, etag: str | None, clients: int, period: float, seconds: float
) -> tuple[Answers, float, float]:
    """``clients`` clients for ``seconds``: what they got, the wall time, the server's CPU."""
    out = Answers()
    start = time.monotonic()
    until = start + seconds
    cpu = cpu_seconds(pid)
    threads = [
        threading.Thread(target=client, args=(port, path, etag, period, until, out))
        for _ in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    wall = time.monotonic() - start
    return out, wall, cpu_seconds(pid) - cpu


def report(label: str, out: Answers, wall: float, cpu: float) -> None:
    answered = sum(out.statuses.values())
    statuses = ", ".join(f"{code}: {count}" for code, count in sorted(out.statuses.items()))
    print(f"{label}")
    print(
        f"  answered {answered} in {wall:.1f} s = {answered / wall:.1f} requests/s"
        f" ({statuses}; connection errors {out.errors})"
    )
    if out.latencies:
        p50 = percentile(out.latencies, 50) * 1000
        p95 = percentile(out.latencies, 95) * 1000
        print(f"  latency p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(
        f"  server CPU {cpu:.2f} s over {wall:.1f} s = {100 * cpu / wall:.1f}% of one core"
        + (f", {1000 * cpu / answered:.2f} ms per request" if answered else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--pages", type=int, default=50, help="open game pages (50)")
    parser.add_argument("--seconds", type=float, default=20, help="idle phase (20 s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        url = args.database or f"sqlite:///{scratch}/live.db"
        game_id = prepare(url)
        print(f"Database: {dialect_name(url)}; server: waitress, 8 threads; game {game_id}")
        with server(url, Path(scratch) / "server.log") as (port, pid):
            version = f"/games/{game_id}/version"
            first = http.client.HTTPConnection(HOST, port, timeout=10)
            first.request("GET", version)
            answer = first.getresponse()
            answer.read()
            etag = answer.getheader("ETag")
            first.close()
            if answer.status != 200 or not etag:
                raise RuntimeError(f"the version answered {answer.status}, ETag {etag}")
            run(port, pid, version, etag, 4, 0, 1)  # warm up every thread's connection
            report(
                f"{args.pages} idle open pages, each asking every 2 s (If-None-Match {etag}):",
                *run(port, pid, version, etag, args.pages, 2.0, args.seconds),
            )
            report(
                "The 304 path flat out (8 clients, 5 s):", *run(port, pid, version, etag, 8, 0, 5)
            )
            report(
                "For scale, the whole game page flat out (8 clients, 5 s):",
                *run(port, pid, f"/games/{game_id}", None, 8, 0, 5),
            )


if __name__ == "__main__":
    main()
