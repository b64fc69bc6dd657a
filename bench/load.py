"""``python -m bench.load``: 20 scorekeepers and a few readers against the production server.

For each database (a file SQLite database, then PostgreSQL) it generates a small
league with 20 scorekeeper accounts, starts the app as it is deployed —
``python -m scorekeeper.serve`` (waitress) in its own process, CSRF on — on
127.0.0.1, and for ``--seconds`` seconds drives:

* 20 scorekeepers, each signed in with its own account and recording deals into its
  own games through the pages, as a phone does: load the game, read the form's CSRF
  token, one-time token and version, post the deal, follow nothing. A connection
  error is retried with the same token. A finished game is followed by a new one,
  started with the form;
* readers browsing the standings, the archive, who owes whom and the games being
  played.

Then it stops the server and checks the database against what every scorekeeper was
told was saved (a 302 to the game page): a deal told saved and missing is *lost*; more
deals in a game than saves is *duplicated*; a deal whose values differ from what was
sent is *mismatched*. The target: zero errors, zero lost, zero duplicated.

All traffic goes to 127.0.0.1; every loop is bounded by the deadline.
"""

import argparse
import contextlib
import html
import http.client
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from sqlalchemy import select

from scorekeeper.engine import Tally
from scorekeeper.forms import confirmation
from scorekeeper.models import Deal, League, db

from .common import (
    DEFAULT_POSTGRES,
    PASSWORD,
    SCOREKEEPER,
    dialect_name,
    dispose,
    make_app,
    percentile,
    server_database,
)
from .generate import NAMES, deal, generate_into

HOST = "127.0.0.1"
SLUG = "bench-league"
#: A request that fails to connect or read is tried this many times in all (same token).
ATTEMPTS = 4
INPUT = re.compile(r"<input\b[^>]*>", re.IGNORECASE)
ATTRIBUTE = re.compile(r'(\w[\w-]*)="([^"]*)"')


class Failed(Exception):
    """A request that got an answer it should not have, or none at all."""


# An HTTP client with a cookie jar, on one keep-alive connection --------------------------------


@dataclass
class Stats:
    """Every request's latency by kind, and the errors, shared by all clients."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(seconds)

    def error(self, message: str) -> None:
        with self.lock:
            self.errors.append(message)

    def reset(self) -> None:
        """Forget the latencies so far (signing in); errors are kept."""
        with self.lock:
            self.latencies.clear()
            self.retries = 0

    def all(self) -> list[float]:
        return [value for values in self.latencies.values() for value in values]


class Browser:
    """One person's browser: its cookies, and a keep-alive connection to the server."""

    def __init__(self, port: int, stats: Stats) -> None:
        self.port = port
        self.stats = stats
        self.cookies: dict[str, str] = {}
        self.connection: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, kind: str, form: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        """(status, body, Location); a connection error is retried with the same body."""
        body = urlencode(form) if form is not None else None
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(1, ATTEMPTS + 1):
            began = time.perf_counter()
            try:
                if self.connection is None:
                    self.connection = http.client.HTTPConnection(HOST, self.port, timeout=60)
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                text = response.read().decode()
            except (OSError, http.client.HTTPException) as error:
                self.close()
                if attempt == ATTEMPTS:
                    raise Failed(f"{method} {path}: {error!r}") from None
                with self.stats.lock:
                    self.stats.retries += 1
                time.sleep(0.05 * attempt)
                continue
            self.stats.add(kind, time.perf_counter() - began)
            self._keep_cookies(response.headers.get_all("Set-Cookie") or [])
            return response.status, text, response.headers.get("Location", "")
        raise AssertionError("unreachable")

    def _keep_cookies(self, headers: list[str]) -> None:
        for header in headers:
            name, _, rest = header.partition("=")
            value = rest.split(";", 1)[0]
            if "expires=Thu, 01 Jan 1970" in header or not value:
                self.cookies.pop(name.strip(), None)
            else:
                self.cookies[name.strip()] = value

    def get(self, path: str, kind: str, expect: int = 200) -> str:
        status, text, _ = self.request("GET", path, kind)
        if status != expect:
            raise Failed(f"GET {path}: {status}")
        return text

    def post(self, path: str, kind: str, form: dict[str, str]) -> tuple[int, str, str]:
        return self.request("POST", path, kind, form)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def sign_in(self, username: str) -> None:
        page = self.get("/login", "sign in")
        form = {**hidden_fields(page), "username": username, "password": PASSWORD}
        status, _, _ = self.post("/login", "sign in", form)
        if status != 302:
            raise Failed(f"sign in as {username}: {status}")


def hidden_fields(page: str) -> dict[str, str]:
    """The hidden inputs of a page (the last of a name wins; the deal form comes first)."""
    found: dict[str, str] = {}
    for tag in INPUT.findall(page):
        attributes = dict(ATTRIBUTE.findall(tag))
        if attributes.get("type") == "hidden" and "name" in attributes:
            found.setdefault(attributes["name"], html.unescape(attributes.get("value", "")))
    return found


# The people ---------------------------------------------------------------------------------


@dataclass
class Saved:
    """What one scorekeeper was told was saved, per game, in order."""

    deals: dict[int, list[Tally]] = field(default_factory=dict)
    unknown: dict[int, int] = field(default_factory=dict)  # posts with no final answer


@dataclass
class Window:
    """The measured stretch: every client is signed in before it starts."""

    seconds: float
    stats: Stats
    parties: int
    deadline: float = float("inf")

    def __post_init__(self) -> None:
        # The last to arrive opens the window, before anyone goes on.
        self.ready = threading.Barrier(self.parties, action=self.open)

    def open(self) -> None:
        self.stats.reset()  # the latencies of signing in are not the load's
        self.deadline = time.monotonic() + self.seconds

    def wait(self) -> None:
        # A client that failed to sign in breaks the barrier; the others go ahead.
        with contextlib.suppress(threading.BrokenBarrierError):
            self.ready.wait(timeout=120)

    def ends(self) -> bool:
        return time.monotonic() >= self.deadline


def scorekeeper(number: int, port: int, stats: Stats, saved: Saved, window: Window) -> None:
    """Record deals into games of one's own until the window closes, starting new ones."""
    rng = random.Random(number)
    browser = Browser(port, stats)
    try:
        try:
            browser.sign_in(f"{SCOREKEEPER}-{number}")
            names = (NAMES[(2 * number) % 16], NAMES[(2 * number + 1) % 16])
        finally:
            window.wait()
        game_id = start_game(browser, names)
        while not window.ends():
            page = browser.get(f"/games/{game_id}", "game page")
            if 'name="score0"' not in page:  # finished: no deal form
                game_id = start_game(browser, names)
                continue
            fields = hidden_fields(page)
            tally = deal(rng, rng.randrange(2), 0.015)
            form = {
                "csrf_token": fields["csrf_token"],
                "token": fields["token"],
                "version": fields["version"],
                "confirm": confirmation(tally),  # a high score or a star on a small one
                "cards": "",
                "out": str(int(tally.out)),
                "score0": str(tally.scores[0]),
                "score1": str(tally.scores[1]),
                "stars0": str(tally.stars[0]),
                "stars1": str(tally.stars[1]),
            }
            try:
                status, _, location = browser.post(f"/games/{game_id}/deals", "record a deal", form)
            except Failed:
                saved.unknown[game_id] = saved.unknown.get(game_id, 0) + 1
                raise
            if status != 302 or not location.endswith(f"/games/{game_id}"):
                raise Failed(f"deal into game {game_id}: {status}")
            saved.deals.setdefault(game_id, []).append(tally)
    except Failed as failure:
        stats.error(f"scorekeeper {number}: {failure}")
    finally:
        browser.close()


def start_game(browser: Browser, names: tuple[str, str]) -> int:
    page = browser.get(f"/leagues/{SLUG}/games/new", "start a game")
    form = {
        "csrf_token": hidden_fields(page)["csrf_token"],
        "player0": names[0],
        "player1": names[1],
        "preset": "standard",
        "target": "1200",
        "skunk": "multiply",
        "difference": "round",
        "small": "1",
        "big": "",
        "first_dealer": "0",
        "submit": "1",
    }
    status, _, location = browser.post(f"/leagues/{SLUG}/games/new", "start a game", form)
    match = re.search(r"/games/(\d+)$", location)
    if status != 302 or match is None:
        raise Failed(f"start a game: {status}")
    return int(match.group(1))


def reader(number: int, port: int, stats: Stats, saved: list[Saved], window: Window) -> None:
    """Browse the standings, the archive, who owes whom and the games being played."""
    rng = random.Random(1000 + number)
    browser = Browser(port, stats)
    league = f"/leagues/{SLUG}"
    window.wait()
    try:
        while not window.ends():
            playing = [game for one in saved for game in list(one.deals)]
            choice = rng.random()
            if choice < 0.4:
                browser.get(league, "standings")
            elif choice < 0.6 and playing:
                browser.get(f"/games/{rng.choice(playing)}", "game page (reader)")
            elif choice < 0.8:
                browser.get(f"{league}/games", "archive")
            else:
                browser.get(f"{league}/owes", "who owes whom")
    except Failed as failure:
        stats.error(f"reader {number}: {failure}")
    finally:
        browser.close()


# The server -------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


@contextmanager
def server(url: str, threads: int, log: Path) -> Iterator[int]:
    """``python -m scorekeeper.serve`` on ``url``, in a process of its own; its port."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "bench-load-secret",
    }
    command = [sys.executable, "-m", "scorekeeper.serve", "--host", HOST, "--port", str(port)]
    command += ["--threads", str(threads)]
    with log.open("w") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        _wait_until_up(port, process)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        if process.poll() is not None:
            raise RuntimeError("the server stopped while starting")
        try:
            with socket.create_connection((HOST, port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not start in 30 s")


# One run ------------------------------------------------------------------------------------


@dataclass
class Outcome:
    database: str
    seconds: float
    stats: Stats
    told_saved: int
    lost: int
    duplicated: int
    mismatched: int
    unknown: int
    games: int


def drive(
    port: int, writers: int, readers: int, seconds: float
) -> tuple[Stats, list[Saved], float]:
    stats = Stats()
    saved = [Saved() for _ in range(writers)]
    window = Window(seconds, stats, writers + readers + 1)
    threads = [
        threading.Thread(target=scorekeeper, args=(n + 1, port, stats, saved[n], window))
        for n in range(writers)
    ]
    threads += [
        threading.Thread(target=reader, args=(n, port, stats, saved, window))
        for n in range(readers)
    ]
    for thread in threads:
        thread.start()
    window.wait()  # everyone signed in: the measured stretch starts now
    began = time.perf_counter()
    for thread in threads:
        thread.join(timeout=seconds + 300)
    return stats, saved, time.perf_counter() - began


def check(url: str, saved: list[Saved]) -> tuple[int, int, int, int]:
    """(told saved, lost, duplicated, mismatched): the database against the clients."""
    app = make_app(url)
    told = lost = duplicated = mismatched = 0
    try:
        with app.app_context():
            for one in saved:
                for game_id, tallies in one.deals.items():
                    stored = list(
                        db.session.scalars(
                            select(Deal).where(Deal.game_id == game_id).order_by(Deal.number)
                        )
                    )
                    told += len(tallies)
                    unknown = one.unknown.get(game_id, 0)
                    lost += max(0, len(tallies) - len(stored))
                    duplicated += max(0, len(stored) - len(tallies) - unknown)
                    mismatched += sum(
                        deal.tally != tally for deal, tally in zip(stored, tallies, strict=False)
                    )
            db.session.remove()
    finally:
        dispose(app)
    return told, lost, duplicated, mismatched


def run_one(
    url: str, *, games: int, writers: int, readers: int, seconds: float, threads: int, log: Path
) -> Outcome:
    app = make_app(url)
    try:
        made = generate_into(app, players=16, games=games, seed=7, scorekeepers=writers)
        with app.app_context():
            league = db.session.scalars(select(League).where(League.slug == SLUG)).one()
            assert league.id == made.league_id
            db.session.remove()
    finally:
        dispose(app)
    with server(url, threads, log) as port:
        stats, saved, elapsed = drive(port, writers, readers, seconds)
    told, lost, duplicated, mismatched = check(url, saved)
    unknown = sum(sum(one.unknown.values()) for one in saved)
    played = sum(len(one.deals) for one in saved)
    return Outcome(
        dialect_name(url), elapsed, stats, told, lost, duplicated, mismatched, unknown, played
    )


def report(outcome: Outcome, writers: int, readers: int, threads: int) -> str:
    stats = outcome.stats
    every = stats.all()

    def ms(values: list[float], q: float) -> str:
        return f"{1000 * percentile(values, q):7.1f}"

    lines = [
        f"{outcome.database}: waitress with {threads} threads, {writers} scorekeepers and "
        f"{readers} readers for {outcome.seconds:.0f} s",
        f"  requests {len(every):,} ({len(every) / outcome.seconds:.1f}/s), "
        f"errors {len(stats.errors)}, connection retries {stats.retries}",
        f"  {'requests':<22} {'count':>7} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7}",
        f"  {'all':<22} {len(every):7d} {ms(every, 50)} {ms(every, 95)} {ms(every, 99)}",
    ]
    for kind, values in sorted(stats.latencies.items()):
        lines.append(
            f"  {kind:<22} {len(values):7d} {ms(values, 50)} {ms(values, 95)} {ms(values, 99)}"
        )
    lines.append(
        f"  deals told saved {outcome.told_saved:,} in {outcome.games} games: "
        f"lost {outcome.lost}, duplicated {outcome.duplicated}, mismatched {outcome.mismatched}"
        + (f", {outcome.unknown} posts without an answer" if outcome.unknown else "")
    )
    for message in stats.errors[:10]:
        lines.append(f"  error: {message}")
    return "\n".join(lines)


@contextmanager
def database(kind: str, work: Path, server_url: str) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{work / 'load.sqlite'}"
        return
    with server_database(server_url, prefix="mille_load") as url:
        yield url


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Load the production server on loopback.")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--writers", type=int, default=20, help="scorekeepers recording deals")
    parser.add_argument("--readers", type=int, default=5)
    parser.add_argument("--threads", type=int, default=8, help="waitress threads")
    parser.add_argument("--games", type=int, default=200, help="the league's games to start from")
    args = parser.parse_args(argv)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    clean = True
    for kind in kinds:
        with (
            tempfile.TemporaryDirectory(prefix="mille-load-") as work,
            database(kind, Path(work), args.postgres) as url,
        ):
            log = Path(work) / "server.log"
            outcome = run_one(
                url,
                games=args.games,
                writers=args.writers,
                readers=args.readers,
                seconds=args.seconds,
                threads=args.threads,
                log=log,
            )
            print(report(outcome, args.writers, args.readers, args.threads), flush=True)
            if outcome.stats.errors:
                print(
                    "  the server's last lines:\n    "
                    + "\n    ".join(log.read_text().splitlines()[-15:])
                )
            clean &= not (
                outcome.stats.errors or outcome.lost or outcome.duplicated or outcome.mismatched
            )
    print("target (no errors, nothing lost or duplicated): " + ("met" if clean else "MISSED"))


if __name__ == "__main__":
    main()
