"""``python -m bench.jobs``: the big jobs at 2,000 and 20,000 games, each beside the
database's own tool, with the peak memory of the process that ran it.

For each database (SQLite, PostgreSQL) it builds the two leagues once (:mod:`bench.generate`;
SQLite files are kept in the benchmarks' cache folder, PostgreSQL databases are kept on
the server as ``mille_jobs_<games>g_<fingerprint>``) and then, round after round, runs
each job in a process of its own — the real app on the database, the job called as the
``flask`` command or the page calls it — and the database's tool on the same data just
after it:

========================  ===================================  ==========================
job                       how                                  beside
========================  ===================================  ==========================
backup (JSON)             ``ops.backup.backup("x.json")``      ``pg_dump -Fc`` /
                                                               ``sqlite3 .backup``
restore (JSON)            ``ops.restore.restore("x.json")``    ``pg_restore`` /
                          into a new, migrated database        ``sqlite3 .restore`` (into
                                                               a database in WAL mode)
backup, restore (copy)    the same with an SQLite file         ``sqlite3 .backup`` /
                          (SQLite only)                        ``.restore``
CSV export                ``GET /leagues/…/export.csv``        ``COPY (…) TO`` / ``-csv``
CSV import                ``POST /leagues/…/import`` of that   ``COPY FROM`` /
                          file, into a new database            ``.import`` (no checks)
JSON export, import       the same, league export format       nothing
========================  ===================================  ==========================

A job's time is the job alone, measured inside its process (starting the app and
migrating an empty database are not in it); a tool's is its whole process. The peak
memory is the job process's own, as ``resource.getrusage`` reports it when it ends
(``os.wait4``). Times are medians of the rounds; a ratio is the median of each round's
job/tool pair, so a busy moment of a shared machine weighs on both.

Targets (issue 26; printed, never asserted by a test): backup and restore at most 5× the
tool; CSV export at most 3 s; CSV import at most 15 s on SQLite, 20 s on PostgreSQL; every
job's peak memory at 20,000 games at most 1.2× its peak at 2,000 and under 300 MB.
The last two lines: ``worst job ratio`` (over the jobs with a ratio target, at the big
size) and ``memory growth 2k→20k`` (the largest of any job).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

# The parent process imports nothing of the app: a process started from it begins with
# the parent's memory in its peak (Linux keeps the high-water mark across fork and exec),
# so the parent stays as small as a bare Python. The app is imported by the job processes.

SLUG = "bench-league"
#: Where an import goes: the league every new database starts with.
IMPORT_SLUG = "our-table"
RATIO_TARGET = 5.0
MEMORY_GROWTH_TARGET = 1.2
MEMORY_LIMIT_MB = 300
#: The seconds a job may take at the big size, where the issue sets a time.
SECONDS_TARGET = {
    ("export-csv", "sqlite"): 3.0,
    ("export-csv", "postgresql"): 3.0,
    ("import-csv", "sqlite"): 15.0,
    ("import-csv", "postgresql"): 20.0,
}
RESULT = "JOB-RESULT "
#: The PostgreSQL server the leagues and scratch databases are made on (as bench.common's).
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/"
#: Where the SQLite leagues are kept between runs (as bench.generate's).
CACHE_DIR = Path(tempfile.gettempdir()) / "mille-bench-cache"

#: The CSV export's rows, as one query the database's own tool writes.
EXPORT_QUERY = (
    "SELECT g.id, COALESCE(g.finished_at, g.created_at), a.name, b.name, g.preset, g.target, "
    "g.progressive, g.natural_needed, g.skunk, g.difference, g.small_stake, g.big_stake, "
    "g.first_dealer, g.paid_at, d.out_seat, d.score0, d.score1, d.stars0, d.stars1 "
    "FROM game g JOIN player a ON a.id = g.player0_id JOIN player b ON b.id = g.player1_id "
    "JOIN deal d ON d.game_id = g.id "
    f"WHERE g.league_id = (SELECT id FROM league WHERE slug = '{SLUG}') ORDER BY g.id, d.number"
)
IMPORT_COLUMNS = (
    "game, date, player_a, player_b, preset, target, progressive, natural_needed, skunk, "
    "difference, small, big, first_dealer, paid, out_, score_a, score_b, stars_a, stars_b"
)


# The jobs, each in a process of its own ------------------------------------------------


def _app(url: str, **config: Any) -> Any:
    from bench.common import make_app

    return make_app(url, **config)


def _dispose(app: Any) -> None:
    from bench.common import dispose

    dispose(app)


def _app_job(url: str, work: Callable[[], str]) -> tuple[float, str]:
    """``work()`` in an app context on ``url``: seconds, and what it said."""
    app = _app(url)
    try:
        with app.app_context():
            began = time.perf_counter()
            said = work()
            return time.perf_counter() - began, said
    finally:
        _dispose(app)


def _backup(url: str, file: str) -> tuple[float, str]:
    from scorekeeper.ops import backup

    return _app_job(url, lambda: backup.backup(file))


def _restore(url: str, file: str) -> tuple[float, str]:
    from scorekeeper.ops import restore

    return _app_job(url, lambda: restore.restore(file))


def _export(url: str, file: str, kind: str) -> tuple[float, str]:
    app = _app(url)
    try:
        client = app.test_client()
        began = time.perf_counter()
        response = client.get(f"/leagues/{SLUG}/export.{kind}", buffered=False)
        size = 0
        with open(file, "wb") as out:
            for chunk in response.response:
                data = chunk if isinstance(chunk, bytes) else chunk.encode()
                size += len(data)
                out.write(data)
        response.close()
        seconds = time.perf_counter() - began
    finally:
        _dispose(app)
    if response.status_code != 200:
        raise RuntimeError(f"the export answered {response.status_code}")
    return seconds, f"{size / 1e6:.1f} MB"


def _import(url: str, file: str, kind: str) -> tuple[float, str]:
    from bench.common import ADMIN, PASSWORD
    from scorekeeper.accounts import users as user_service
    from scorekeeper.models import db

    app = _app(url, WTF_CSRF_ENABLED=False)
    try:
        with app.app_context():
            user_service.create_first_admin(ADMIN, PASSWORD)
            db.session.remove()
        client = app.test_client()
        client.post("/login", data={"username": ADMIN, "password": PASSWORD})
        began = time.perf_counter()
        with open(file, "rb") as upload:
            response = client.post(
                f"/leagues/{IMPORT_SLUG}/import",
                data={"format": kind, "file": (upload, f"league.{kind}")},
                content_type="multipart/form-data",
                buffered=False,
            )
            page = b"".join(
                chunk if isinstance(chunk, bytes) else chunk.encode() for chunk in response.response
            ).decode()
        response.close()
        seconds = time.perf_counter() - began
    finally:
        _dispose(app)
    last = page.rsplit("<li>", 1)[-1].split("</li>", 1)[0] if "<li>" in page else page[-300:]
    if response.status_code != 200 or "Imported" not in last:
        raise RuntimeError(f"the import answered {response.status_code}: {last.strip()}")
    return seconds, last.strip()


CHILD_JOBS: dict[str, Callable[[str, str], tuple[float, str]]] = {
    "backup": _backup,
    "restore": _restore,
    "backup-copy": _backup,
    "restore-copy": _restore,
    "export-csv": lambda url, file: _export(url, file, "csv"),
    "import-csv": lambda url, file: _import(url, file, "csv"),
    "export-json": lambda url, file: _export(url, file, "json"),
    "import-json": lambda url, file: _import(url, file, "json"),
}


def child(job: str, url: str, file: str) -> None:
    """Run one job here and print what it took (the parent reads the last line)."""
    seconds, said = CHILD_JOBS[job](url, file)
    print(RESULT + json.dumps({"seconds": seconds, "said": said}), flush=True)


def make_league(database: str, games: int, players: int, seed: int, where: str) -> None:
    """Build (or find) a league, here, and print where it is (the parent reads the last line):
    an SQLite file in the cache folder ``where``, or a database on the server ``where``."""
    from bench.generate import cached_sqlite_league

    if database == "sqlite":
        made = str(cached_sqlite_league(Path(where), games, players, seed))
    else:
        made = postgres_league(where, games, players, seed)
    print(RESULT + json.dumps({"league": made}), flush=True)


def postgres_league(server: str, games: int, players: int, seed: int) -> str:
    """A database holding a generated league, kept on the server between runs (made under
    another name and renamed when whole, so a run stopped half-way is not reused)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from bench.common import dispose, make_app
    from bench.generate import fingerprint, generate_into
    from scorekeeper.database import database_url

    name = f"mille_jobs_{games}g_{fingerprint()}"
    base = make_url(database_url(server))
    admin = create_engine(
        base.set(database=base.database or "postgres"), isolation_level="AUTOCOMMIT"
    )
    try:
        with admin.connect() as connection:
            existing = set(
                connection.scalars(
                    text("SELECT datname FROM pg_database WHERE datname LIKE :like"),
                    {"like": f"mille_jobs_{games}g_%"},
                )
            )
            for stale in existing - {name}:
                connection.execute(text(f'DROP DATABASE "{stale}" WITH (FORCE)'))
            if name in existing:
                print(f"  using the league kept in the database {name}", flush=True)
            else:
                draft = f"{name}_draft"
                connection.execute(text(f'DROP DATABASE IF EXISTS "{draft}" WITH (FORCE)'))
                connection.execute(text(f'CREATE DATABASE "{draft}"'))
                app = make_app(base.set(database=draft).render_as_string(hide_password=False))
                try:
                    made = generate_into(app, players=players, games=games, seed=seed)
                finally:
                    dispose(app)
                print("  " + made.summary().replace("\n", "\n  "), flush=True)
                connection.execute(text(f'ALTER DATABASE "{draft}" RENAME TO "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@dataclass
class Ran:
    seconds: float
    peak_mb: float
    said: str = ""


def run_measured(command: list[str], stdout: Any = subprocess.DEVNULL) -> tuple[float, float, str]:
    """``command`` in a new process: wall seconds, peak resident MB (``os.wait4``), stdout."""
    began = time.perf_counter()
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryFile() as out:
        process = subprocess.Popen(
            command, stdout=out if stdout is subprocess.PIPE else stdout, stderr=errors
        )
        _pid, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - began
        process.returncode = os.waitstatus_to_exitcode(status)
        errors.seek(0)
        if process.returncode != 0:
            raise RuntimeError(
                f"{' '.join(command)} failed ({process.returncode}):\n"
                f"{errors.read().decode(errors='replace')[-3000:]}"
            )
        out.seek(0)
        printed = out.read().decode(errors="replace") if stdout is subprocess.PIPE else ""
    return seconds, usage.ru_maxrss / 1024, printed


def run_job(job: str, url: str, file: Path) -> Ran:
    command = [sys.executable, "-m", "bench.jobs", "--child", job, url, str(file)]
    _seconds, peak, printed = run_measured(command, stdout=subprocess.PIPE)
    line = next(ln for ln in reversed(printed.splitlines()) if ln.startswith(RESULT))
    result = json.loads(line.removeprefix(RESULT))
    return Ran(result["seconds"], peak, result["said"])


def run_tool(command: list[str], stdout: Path | None = None) -> float:
    if stdout is None:
        return run_measured(command)[0]
    with stdout.open("wb") as out:
        return run_measured(command, stdout=out)[0]


# The databases ---------------------------------------------------------------------------


def libpq(url: str) -> str:
    """A database URL as the PostgreSQL tools take it (no SQLAlchemy driver name)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql"))


def on_database(url: str, name: str) -> str:
    """The URL of the database ``name`` on the server of ``url``."""
    return urlunsplit(urlsplit(libpq(url))._replace(path=f"/{name}"))


def sqlite_file(url: str) -> str:
    return url.removeprefix("sqlite:///")


def psql(server: str, *statements: str) -> None:
    command = ["psql", "-q", "-v", "ON_ERROR_STOP=1", on_database(server, "postgres")]
    for statement in statements:
        command += ["-c", statement]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


@contextmanager
def fresh_database(database: str, server: str, work: Path, name: str) -> Iterator[str]:
    """A new, empty database (the app migrates it when it starts on it)."""
    if database == "postgresql":
        scratch = f"mille_jobs_scratch_{uuid.uuid4().hex[:10]}"
        psql(server, f'CREATE DATABASE "{scratch}"')
        try:
            yield on_database(server, scratch)
        finally:
            psql(server, f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        return
    path = work / f"{name}.sqlite"
    for leftover in work.glob(f"{name}.sqlite*"):
        leftover.unlink()
    yield f"sqlite:///{path}"


def league(database: str, games: int, args: argparse.Namespace) -> str:
    """Where the league of ``games`` games is, built by a process of its own."""
    where = str(args.cache) if database == "sqlite" else args.postgres
    command = [sys.executable, "-m", "bench.jobs", "--league", database, str(games)]
    command += [str(args.players), str(args.seed), where]
    done = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)
    for line in done.stdout.splitlines():
        if not line.startswith(RESULT):
            print(line, flush=True)
    last = next(ln for ln in reversed(done.stdout.splitlines()) if ln.startswith(RESULT))
    return str(json.loads(last.removeprefix(RESULT))["league"])


# Measuring --------------------------------------------------------------------------------


@dataclass
class Line:
    """One job on one database: its runs at each size, and the tool's beside them."""

    job: str
    database: str
    label: str
    runs: dict[int, list[Ran]] = field(default_factory=dict)
    tool: dict[int, list[float]] = field(default_factory=dict)

    def seconds(self, games: int) -> float:
        return statistics.median(run.seconds for run in self.runs[games])

    def tool_seconds(self, games: int) -> float | None:
        return statistics.median(self.tool[games]) if self.tool.get(games) else None

    def ratio(self, games: int) -> float | None:
        pairs = zip(self.runs[games], self.tool.get(games, []), strict=False)
        ratios = [run.seconds / tool for run, tool in pairs if tool > 0]
        return statistics.median(ratios) if ratios else None

    def peak(self, games: int) -> float:
        return max(run.peak_mb for run in self.runs[games])

    @property
    def ratio_target(self) -> bool:
        return self.job.startswith(("backup", "restore"))


LABELS = {
    "backup": "backup (JSON)",
    "restore": "restore (JSON)",
    "backup-copy": "backup (SQLite copy)",
    "restore-copy": "restore (SQLite copy)",
    "export-csv": "CSV export",
    "import-csv": "CSV import",
    "export-json": "JSON export",
    "import-json": "JSON import",
}


def measure(
    database: str, source: str, games: int, rounds: int, server: str, work: Path, lines: dict
) -> None:
    """Every job of ``database`` on the league in ``source``, ``rounds`` times."""
    files = {
        "backup": work / "backup.json",
        "backup-copy": work / "backup-copy.sqlite",
        "export-csv": work / "export.csv",
        "export-json": work / "export.json",
    }
    tool_copy = work / ("tool.dump" if database == "postgresql" else "tool-copy.sqlite")
    jobs = ["backup", "restore", "export-csv", "import-csv", "export-json", "import-json"]
    if database == "sqlite":
        jobs[2:2] = ["backup-copy", "restore-copy"]
    for round_number in range(1, rounds + 1):
        for job in jobs:
            line = lines.setdefault((job, database), Line(job, database, LABELS[job]))
            print(f"  round {round_number}: {LABELS[job]} …", end=" ", flush=True)
            ran, tool = _one(job, database, source, server, work, files, tool_copy)
            line.runs.setdefault(games, []).append(ran)
            if tool is not None:
                line.tool.setdefault(games, []).append(tool)
            tool_said = "" if tool is None else f", tool {tool:.2f} s"
            print(f"{ran.seconds:.2f} s{tool_said}, {ran.peak_mb:.0f} MB ({ran.said})", flush=True)


def _one(
    job: str,
    database: str,
    source: str,
    server: str,
    work: Path,
    files: dict[str, Path],
    tool_copy: Path,
) -> tuple[Ran, float | None]:
    postgres = database == "postgresql"
    if job in ("backup", "backup-copy", "export-csv", "export-json"):
        ran = run_job(job, source, files[job])
        if job == "export-json":
            return ran, None
        if job.startswith("backup"):
            tool_copy.unlink(missing_ok=True)
            if postgres:
                return ran, run_tool(["pg_dump", "-Fc", "-f", str(tool_copy), libpq(source)])
            return ran, run_tool(["sqlite3", sqlite_file(source), f".backup {tool_copy}"])
        if postgres:
            copy = f"\\copy ({EXPORT_QUERY}) TO '{work / 'tool.csv'}' WITH CSV HEADER"
            return ran, run_tool(["psql", "-q", libpq(source), "-c", copy])
        command = ["sqlite3", "-csv", "-header", sqlite_file(source), EXPORT_QUERY]
        return ran, run_tool(command, stdout=work / "tool.csv")
    given = {
        "restore": files["backup"],
        "restore-copy": files["backup-copy"],
        "import-csv": files["export-csv"],
        "import-json": files["export-json"],
    }[job]
    with fresh_database(database, server, work, "job") as url:
        ran = run_job(job, url, given)
    if job == "import-json":
        return ran, None
    with fresh_database(database, server, work, "tool") as url:
        if job.startswith("restore") and postgres:
            tool = run_tool(["pg_restore", "--no-owner", "-d", libpq(url), str(tool_copy)])
        elif job.startswith("restore"):
            # Into a database in WAL mode, as the app keeps its own and the job restores
            # into: every page goes through the WAL and is checkpointed into the file.
            run_tool(["sqlite3", sqlite_file(url), "PRAGMA journal_mode = WAL"])
            tool = run_tool(["sqlite3", sqlite_file(url), f".restore {tool_copy}"])
        elif postgres:
            columns = ", ".join(f"{name.strip()} text" for name in IMPORT_COLUMNS.split(","))
            create = f"CREATE TABLE imported ({columns})"
            copy = f"\\copy imported FROM '{given}' WITH CSV HEADER"
            tool = run_tool(["psql", "-q", libpq(url), "-c", create, "-c", copy])
        else:
            tool = run_tool(["sqlite3", sqlite_file(url), f".import --csv {given} imported"])
    return ran, tool


def report(lines: dict, small: int, big: int) -> tuple[float, float]:
    """A line per job; the worst ratio and the largest memory growth."""
    print(
        f"\n  {'job':<22} {'database':<10} {'s ' + _k(small):>9} {'s ' + _k(big):>9} "
        f"{'tool s':>7} {'ratio':>6} {'target':>8} {'MB ' + _k(small):>8} {'MB ' + _k(big):>8} "
        f"{'growth':>6}"
    )
    worst_ratio, worst_growth = 0.0, 0.0
    for line in lines.values():
        ratio, tool = line.ratio(big), line.tool_seconds(big)
        growth = line.peak(big) / line.peak(small)
        worst_growth = max(worst_growth, growth)
        if line.ratio_target and ratio is not None:
            worst_ratio = max(worst_ratio, ratio)
            target = f"≤ {RATIO_TARGET:.0f}×"
        elif (line.job, line.database) in SECONDS_TARGET:
            target = f"≤ {SECONDS_TARGET[line.job, line.database]:.0f} s"
        else:
            target = "—"
        print(
            f"  {line.label:<22} {dialect_name(line.database):<10} {line.seconds(small):9.2f} "
            f"{line.seconds(big):9.2f} {_or_dash(tool, '7.2f')} {_or_dash(ratio, '6.1f')} "
            f"{target:>8} {line.peak(small):8.0f} {line.peak(big):8.0f} {growth:6.2f}"
        )
    return worst_ratio, worst_growth


def _k(games: int) -> str:
    return f"{games // 1000}k" if games >= 1000 else str(games)


def _or_dash(value: float | None, spec: str) -> str:
    width = int(spec.split(".")[0])
    return f"{value:{spec}}" if value is not None else f"{'—':>{width}}"


def dialect_name(database: str) -> str:
    return "PostgreSQL" if database == "postgresql" else "SQLite"


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        child(*argv[1:4])
        return
    if argv[:1] == ["--league"]:
        kind, size, players, seed, where = argv[1:6]
        make_league(kind, int(size), int(players), int(seed), where)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--postgres", default=DEFAULT_POSTGRES, help="the PostgreSQL server")
    parser.add_argument("--sizes", default="2000,20000", help="league sizes in games, small,big")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=CACHE_DIR, help="SQLite leagues kept here")
    args = parser.parse_args(argv)
    small, big = (int(size) for size in args.sizes.split(","))
    databases = ["sqlite", "postgresql"] if args.db == "both" else [args.db]
    lines: dict[tuple[str, str], Line] = {}
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="mille-jobs-") as folder:
        work = Path(folder)
        for database in databases:
            for games in (small, big):
                print(f"\n{dialect_name(database)}: a league of {games:,} games", flush=True)
                url = league(database, games, args)
                if database == "sqlite":  # a copy: the app may write to the file it opens
                    source = work / f"league-{games}.sqlite"
                    shutil.copy(sqlite_file(url), source)
                    url = f"sqlite:///{source}"
                measure(database, url, games, args.rounds, args.postgres, work, lines)
    worst_ratio, worst_growth = report(lines, small, big)
    print(f"\n(took {time.perf_counter() - began:.0f} s)")
    print(f"worst job ratio: {worst_ratio:.1f}")
    print(f"memory growth {_k(small)}→{_k(big)}: {worst_growth:.2f}")


if __name__ == "__main__":
    main()
