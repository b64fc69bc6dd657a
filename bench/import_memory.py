"""``python -m bench.import_memory --mb 49 [--db URL]``: peak memory of a large CSV import.

Writes a CSV of paper score cards of about ``--mb`` megabytes (the Wikipedia game of
RULES.md §5, seven deals, over and over between a hundred players), uploads it to
the import page of the real app through Flask's test client (the request body is
spooled to a temporary file, as a server does, so the upload itself is not held in
memory), reads the streamed answer, and prints the process's peak resident memory
before and after the import, and how long it took.
"""

import argparse
import resource
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from bench.common import ADMIN, PASSWORD, dispose, make_app
from scorekeeper.accounts import users as user_service
from scorekeeper.models import db
from tests.databases import server_database

HEADER = "game,date,player_a,player_b,out,score_a,score_b,stars_a,stars_b,paid\n"
#: (who went out, scores, stars) per deal: RULES.md §5.
CARD = [
    ("b", 140, 350, 0, 0),
    ("a", 290, 160, 0, 0),
    ("a", 220, 80, 1, 0),
    ("a", 150, -50, 0, 0),
    ("b", 140, 300, 0, 1),
    ("a", 210, 190, 0, 0),
    ("a", 125, 150, 0, 0),
]


def write_csv(path: Path, megabytes: float) -> tuple[int, int]:
    """A CSV of about ``megabytes``; the number of games and of deals in it."""
    limit, games, deals = int(megabytes * 1_000_000), 0, 0
    first = date(2021, 1, 1)
    with path.open("w") as out:
        out.write(HEADER)
        while out.tell() < limit:
            games += 1
            a, b = games % 100, (games * 7 + 1) % 100
            b = b if b != a else (a + 1) % 100
            day = first + timedelta(days=games % 1500)
            for number, (side, score_a, score_b, stars_a, stars_b) in enumerate(CARD):
                paid = ("yes" if games % 3 else "no") if number == 0 else ""
                out.write(
                    f"{games},{day},Player {a},Player {b},{side},"
                    f"{score_a},{score_b},{stars_a},{stars_b},{paid}\n"
                )
                deals += 1
    return games, deals


def peak_mb() -> float:
    """The process's peak resident memory so far (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(url: str, megabytes: float, folder: Path) -> None:
    path = folder / "cards.csv"
    games, deals = write_csv(path, megabytes)
    size = path.stat().st_size / 1_000_000
    app = make_app(url, MAX_CONTENT_LENGTH=None, WTF_CSRF_ENABLED=False)
    with app.app_context():
        user_service.create_first_admin(ADMIN, PASSWORD)
        db.session.remove()
    client = app.test_client()
    client.post("/login", data={"username": ADMIN, "password": PASSWORD})
    client.get("/leagues/our-table/import")
    before = peak_mb()
    start = time.perf_counter()
    with path.open("rb") as upload:
        response = client.post(
            "/leagues/our-table/import",
            data={"format": "csv", "file": (upload, "cards.csv")},
            content_type="multipart/form-data",
            buffered=False,
        )
        page = "".join(
            chunk.decode() if isinstance(chunk, bytes) else chunk for chunk in response.response
        )
        last = page.rsplit("<li>", 1)[-1].split("</li>", 1)[0] if "<li>" in page else ""
    seconds = time.perf_counter() - start
    print(f"CSV: {size:.1f} MB, {games:,} games, {deals:,} deals ({url.split(':')[0]})")
    print(f"answer: {response.status_code} {last}")
    print(f"peak resident memory: {before:.0f} MB before the import, {peak_mb():.0f} MB after")
    print(f"import took {seconds:.1f} s")
    dispose(app)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=49.0, help="size of the CSV (megabytes)")
    parser.add_argument("--db", default="sqlite", help="sqlite, or a PostgreSQL server URL")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        if args.db == "sqlite":
            run(f"sqlite:///{folder}/bench.sqlite", args.mb, Path(folder))
        else:
            with server_database(args.db, prefix="mille_bench") as url:
                run(url, args.mb, Path(folder))


if __name__ == "__main__":
    main(sys.argv[1:])
