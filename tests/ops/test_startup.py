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
