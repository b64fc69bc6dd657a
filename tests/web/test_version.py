"""The version is written in one place, ``pyproject.toml``, and shown from there: every
page's footer, the API's description, ``/healthz``; ``CHANGELOG.md`` says what each
version brings, with its migrations."""

import re
import tomllib
from pathlib import Path

import pytest

from scorekeeper.version import app_version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
CHANGELOG = ROOT / "CHANGELOG.md"
MIGRATIONS = ROOT / "scorekeeper" / "migrations" / "versions"


def test_the_version_is_pyprojects_read_at_run_time():
    assert app_version() == PYPROJECT["project"]["version"]
    # Written nowhere else in the package: no second copy to forget.
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        assert f'"{app_version()}"' not in path.read_text(), path


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_page_shows_the_version_in_its_footer(client, language):
    client.set_cookie("lang", language)
    page = client.get("/login").get_data(as_text=True)
    footer = page[page.index('<footer class="site">') :]
    assert f"Version {app_version()}" in footer


def test_the_api_and_the_health_check_say_the_version(client):
    assert client.get("/api/v1/openapi.json").get_json()["info"]["version"] == app_version()
    assert client.get("/healthz").get_json()["version"] == app_version()


def test_the_changelog_has_this_version_and_names_every_migration():
    text = CHANGELOG.read_text()
    releases = re.findall(r"^## (\d+\.\d+\.\d+\S*)", text, flags=re.MULTILINE)
    assert releases[0] == app_version(), "the newest release first, the one pyproject names"
    for migration in sorted(MIGRATIONS.glob("0*.py")):
        revision = re.search(
            r"^revision = [\"']([^\"']+)[\"']", migration.read_text(), re.MULTILINE
        )
        assert revision, migration
        assert f"`{revision.group(1)}`" in text, f"CHANGELOG.md doesn't name {revision.group(1)}"
