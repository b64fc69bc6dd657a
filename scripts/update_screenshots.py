"""Refresh the README's screenshots from the browser tests' artifacts.

    pytest tests/browser && python scripts/update_screenshots.py

The browser tests save a screenshot of each main page, at a phone and a
desktop size, in ``test-artifacts/screenshots/``; the README shows a few of
them from ``docs/screenshots/``.
"""

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
DOCS = ROOT / "docs" / "screenshots"

#: README image -> the artifact it is copied from.
README_SHOTS = {
    "game-phone.png": "game-settled-phone.png",
    "game-in-progress-phone.png": "game-in-progress-phone.png",
    "new-game-phone.png": "new-game-phone.png",
    "standings-desktop.png": "standings-desktop.png",
    "player-phone.png": "player-phone.png",
    "opponent-phone.png": "opponent-ben.png",
    "knock-rummy-phone.png": "end-to-end-knock-rummy-js-390x844.png",
    "knock-rummy-phone-fr.png": "end-to-end-knock-rummy-js-fr-390x844.png",
}


def main() -> int:
    missing = [source for source in README_SHOTS.values() if not (ARTIFACTS / source).exists()]
    if missing:
        print(f"Run the browser tests first (pytest tests/browser); missing: {', '.join(missing)}")
        return 1
    DOCS.mkdir(parents=True, exist_ok=True)
    for target, source in README_SHOTS.items():
        shutil.copyfile(ARTIFACTS / source, DOCS / target)
        print(f"{source} -> docs/screenshots/{target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
