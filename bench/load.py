"""``python -m bench.load``: 20 scorekeepers and a few readers against the production server.

For each database (a file SQLite database, then PostgreSQL) it generates a small
league with 20 scorekeeper accounts, starts the app as it is deployed —
gunicorn with 1, 2 (``--workers``) worker processes, CSRF on — on
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
from sqlalchemy.engine import make_url

from scorekeeper.engine import Tally
from scorekeeper.models import Deal, League, db
from scorekeeper.table.change_forms import confirmation
from tests.databases import server_database

from . import latency
from .common import (
    DEFAULT_POSTGRES,
    HOST,
    PASSWORD,
    SCOREKEEPER,
    dialect_name,
    dispose,
    free_port,
    make_app,
    percentile,
    serving,
)
from .generate import NAMES, deal, generate_into

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
            # Saved: a redirect to the game page, opened at its play area (#play).
            if status != 302 or not location.split("#")[0].endswith(f"/games/{game_id}"):
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


@contextmanager
def server(url: str, workers: int, threads: int, log: Path) -> Iterator[int]:
    """The production server on ``url``: gunicorn with ``workers`` processes of ``threads``
    threads each (``gthread``, which keeps connections alive as a phone does), started
    with ``python -m gunicorn 'scorekeeper:create_app()'``; its port.

    The database is migrated once before (the league's generation does it), and the
    workers don't migrate (``SCOREKEEPER_AUTO_MIGRATE=false``): they start together and
    each would otherwise upgrade the same database at once.
    """
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "bench-load-secret",
        "SCOREKEEPER_AUTO_MIGRATE": "false",
    }
    command = [sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{port}"]
    command += ["--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)]
    command += ["scorekeeper:create_app()"]
    with serving(command, env, port, log):
        yield port


# One run ------------------------------------------------------------------------------------


@dataclass
class Outcome:
    database: str
    workers: int
    delay_ms: float
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
    url: str,
    *,
    games: int,
    writers: int,
    readers: int,
    seconds: float,
    workers: int,
    threads: int,
    delay_ms: float,
    log: Path,
) -> Outcome:
    app = make_app(url)  # migrates the database, once, before any worker starts
    try:
        made = generate_into(app, players=16, games=games, seed=7, scorekeepers=writers)
        with app.app_context():
            league = db.session.scalars(select(League).where(League.slug == SLUG)).one()
            assert league.id == made.league_id
            db.session.remove()
    finally:
        dispose(app)
    with served_database(url, delay_ms) as app_url, server(app_url, workers, threads, log) as port:
        stats, saved, elapsed = drive(port, writers, readers, seconds)
    told, lost, duplicated, mismatched = check(url, saved)
    unknown = sum(sum(one.unknown.values()) for one in saved)
    played = sum(len(one.deals) for one in saved)
    return Outcome(
        dialect_name(url),
        workers,
        delay_ms,
        elapsed,
        stats,
        told,
        lost,
        duplicated,
        mismatched,
        unknown,
        played,
    )


@contextmanager
def served_database(url: str, delay_ms: float) -> Iterator[str]:
    """``url`` as the app server reaches it: through a proxy adding ``delay_ms`` each way
    (:mod:`bench.latency`) for a PostgreSQL server, if asked."""
    parsed = make_url(url)
    if not delay_ms or parsed.get_backend_name() != "postgresql":
        yield url
        return
    with latency.delayed(parsed.host or HOST, parsed.port or 5432, delay_ms) as port:
        yield parsed.set(host=HOST, port=port).render_as_string(hide_password=False)


def report(outcome: Outcome, writers: int, readers: int, threads: int) -> str:
    stats = outcome.stats
    every = stats.all()

    def ms(values: list[float], q: float) -> str:
        return f"{1000 * percentile(values, q):7.1f}"

    delay = f", database {outcome.delay_ms:g} ms away" if outcome.delay_ms else ""
    lines = [
        f"{outcome.database}: gunicorn, {outcome.workers} worker(s) × {threads} threads"
        f"{delay}, {writers} scorekeepers and {readers} readers for {outcome.seconds:.0f} s",
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


def deals_per_second(outcome: Outcome) -> float:
    return len(outcome.stats.latencies.get("record a deal", [])) / outcome.seconds


def summary(outcomes: list[Outcome]) -> str:
    """Requests per second by database, delay and worker count."""
    lines = [
        "scaling: requests per second by worker processes",
        f"  {'database':<11} {'delay ms':>8} {'workers':>7} {'requests/s':>10} {'deals/s':>8}"
        f" {'p95 ms':>7}  errors lost duplicated",
    ]
    for outcome in outcomes:
        every = outcome.stats.all()
        lines.append(
            f"  {outcome.database:<11} {outcome.delay_ms:8g} {outcome.workers:7d}"
            f" {len(every) / outcome.seconds:10.1f} {deals_per_second(outcome):8.1f}"
            f" {1000 * percentile(every, 95):7.1f}  {len(outcome.stats.errors):6d}"
            f" {outcome.lost:4d} {outcome.duplicated:10d}"
        )
    return "\n".join(lines)


def counts(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


def delays(text: str) -> list[float]:
    return [float(part) for part in text.split(",") if part.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Load the production server on loopback.")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="postgresql")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--writers", type=int, default=20, help="scorekeepers recording deals")
    parser.add_argument("--readers", type=int, default=5)
    parser.add_argument(
        "--workers", type=counts, default=[1, 2], help="worker processes, one run each: 1,2,4"
    )
    parser.add_argument("--threads", type=int, default=8, help="threads per worker")
    parser.add_argument(
        "--db-delay-ms",
        type=delays,
        default=[0.0],
        help="added each way between the app and PostgreSQL, one run each: 0,1,5",
    )
    parser.add_argument("--games", type=int, default=200, help="the league's games to start from")
    args = parser.parse_args(argv)
    kinds = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    clean = True
    outcomes = []
    for kind in kinds:
        for delay_ms in args.db_delay_ms if kind == "postgresql" else [0.0]:
            for workers in args.workers:
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
                        workers=workers,
                        threads=args.threads,
                        delay_ms=delay_ms,
                        log=log,
                    )
                    outcomes.append(outcome)
                    print(report(outcome, args.writers, args.readers, args.threads), flush=True)
                    if outcome.stats.errors:
                        print(
                            "  the server's last lines:\n    "
                            + "\n    ".join(log.read_text().splitlines()[-15:])
                        )
                    clean &= not (
                        outcome.stats.errors
                        or outcome.lost
                        or outcome.duplicated
                        or outcome.mismatched
                    )
    print(summary(outcomes))
    print("target (no errors, nothing lost or duplicated): " + ("met" if clean else "MISSED"))


if __name__ == "__main__":
    main()
