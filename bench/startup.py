"""``python -m bench.startup``: what starting costs, against the libraries alone (issue 26).

Each command runs in a fresh interpreter, in turns, ``--rounds`` times; the figure is the
median wall time of the whole process (the interpreter's own start is in each, so the
ratios are fair to the libraries):

* **libraries**: ``import flask, flask_sqlalchemy, flask_wtf, flask_babel``, what any
  app on this stack pays;
* **import scorekeeper**: the app package alone; the target is at most 1.5× the
  libraries. It loads none of the app (``create_app`` is imported when first asked
  for), so the figure that says what a start costs is the next one;
* **create_app()**: the app built, on a fresh SQLite file migrated once before (no
  migration timed), as the server and every ``flask`` command build it;
* **left for first use**: the modules a start does *not* load, checked in the same
  process as ``create_app()``: the API's OpenAPI document and the JSON Schema machinery,
  the QR library, fuzzy matching, the pairing's graphs, e-mail checks, the progress bar.

    python -m bench.startup [--rounds 9]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.startup import BUILD

LIBRARIES = "import flask, flask_sqlalchemy, flask_wtf, flask_babel"
PACKAGE = "import scorekeeper"
NAMES = ("libraries", "import scorekeeper", "create_app()")


def run(code: str, *args: str) -> tuple[float, str]:
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return time.perf_counter() - started, done.stdout.strip()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="mille-startup-") as work:
        url = f"sqlite:///{Path(work) / 'start.sqlite'}"
        _, loaded = run(BUILD, url)  # migrates the file once, untimed
        times: dict[str, list[float]] = {name: [] for name in NAMES}
        for _ in range(args.rounds):
            times["libraries"].append(run(LIBRARIES)[0])
            times["import scorekeeper"].append(run(PACKAGE)[0])
            seconds, loaded = run(BUILD, url)
            times["create_app()"].append(seconds)
    base = statistics.median(times["libraries"])
    print(f"{args.rounds} rounds, median wall time of a fresh interpreter each")
    for name, runs in times.items():
        median = statistics.median(runs)
        print(f"  {name:20} {median * 1000:7.0f} ms   × libraries {median / base:4.2f}")
    print(f"loaded by create_app() though left for first use: {loaded or 'none'}")
    ratio = statistics.median(times["import scorekeeper"]) / base
    built = statistics.median(times["create_app()"]) / base
    print(f"import scorekeeper / libraries: {ratio:.2f} (target ≤ 1.5)")
    print(f"create_app() / libraries: {built:.2f} (the app's whole start)")


if __name__ == "__main__":
    main()
