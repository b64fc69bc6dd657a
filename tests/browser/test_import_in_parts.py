"""The import page under waitress as ``mille-scorekeeper`` runs it, which receives no
request larger than a page's: a larger file goes in parts (issue 34, point 9)."""

from typing import Any

import pytest

from scorekeeper.league.transfer import parts
from tests.browser.conftest import Screen, serving

#: 600 games, about 20 KB: five parts of 4 KiB here (the parts are 512 KiB in production,
#: for files over the server's 1 MiB; the path through the script is the same).
CARD = "game,date,player_a,player_b,out,score_a,score_b\n" + "".join(
    f"{n},2024-05-01,Ana,Ben,a,1200,100\n" for n in range(1, 601)
)


def test_a_file_larger_than_the_server_takes_is_imported_in_parts(
    browser: Any, tmp_path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(parts, "PART_BYTES", 4096)
    folder = tmp_path / "parts"
    with serving(tmp_path, waitress=True, IMPORT_PARTS_FOLDER=str(folder)) as base:
        context = browser.new_context()
        screen = Screen(context.new_page(), base, "desktop")
        sent = []
        screen.page.on(
            "request", lambda request: sent.append(request.url) if "/parts" in request.url else 0
        )
        screen.sign_in()
        screen.go("/leagues/our-table/import")
        screen.page.set_input_files(
            "#file", files=[{"name": "cards.csv", "mimeType": "text/csv", "buffer": CARD.encode()}]
        )
        screen.page.click("form.card button.primary")
        screen.page.get_by_text("Imported 600 games (600 deals).").wait_for(timeout=30_000)
        context.close()
    assert len(sent) == -(-len(CARD) // 4096)
    assert list(folder.iterdir()) == []
    assert screen.unexpected_errors() == []
