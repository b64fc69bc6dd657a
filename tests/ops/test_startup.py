"""Starting is light (issue 26): building the app loads what serving a page needs, and the
libraries only some requests use wait for their first use (their own tests show they work
then). Checked in a fresh interpreter, since this one has loaded everything already."""

import subprocess
import sys

from tests.startup import BUILD, LAZY


def test_building_the_app_leaves_the_rarely_used_libraries_unloaded(tmp_path):
    url = f"sqlite:///{tmp_path / 'start.sqlite'}"
    built = subprocess.run(
        [sys.executable, "-c", BUILD, url], capture_output=True, text=True, check=True
    )
    assert built.stdout.strip() == ""  # the LAZY modules it found loaded: none


def test_the_check_sees_a_library_that_is_loaded(tmp_path):
    url = f"sqlite:///{tmp_path / 'start.sqlite'}"
    loading = f"import segno, networkx; {BUILD}"
    built = subprocess.run(
        [sys.executable, "-c", loading, url], capture_output=True, text=True, check=True
    )
    assert built.stdout.strip().split(",") == ["segno", "networkx"]
    assert set(LAZY) >= {"segno", "networkx", "rapidfuzz", "tqdm", "scorekeeper.api.openapi"}


def _loaded_after(statement: str, modules: list[str]) -> set[str]:
    """Which of ``modules`` a fresh interpreter has loaded once it ran ``statement``."""
    check = f"{statement}; import sys; print(','.join(m for m in {modules!r} if m in sys.modules))"
    ran = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True)
    return set(filter(None, ran.stdout.strip().split(",")))


def test_importing_the_package_alone_loads_no_library():
    """``import scorekeeper`` (what a script that needs only the engine pays) loads none of
    the app: not Flask, not the API's schemas (pydantic), not the QR library or fuzzy
    matching; ``create_app`` is handed out, with all it needs, when first asked for."""
    heavy = ["flask", "sqlalchemy", "babel", "pydantic", *LAZY]
    assert _loaded_after("import scorekeeper", heavy) == set()
    asked = _loaded_after("import scorekeeper; scorekeeper.create_app", heavy)
    assert {"flask", "sqlalchemy", "babel"} <= asked
