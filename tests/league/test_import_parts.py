"""An import's file sent in parts, where the server receives no request as large as the
file (waitress, which ``mille-scorekeeper`` tells the pages' limit: issue 34, point 9)."""

import io
import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from scorekeeper.league.transfer import parts
from scorekeeper.models import Game, db

PARTS = "/leagues/our-table/import/parts"
IMPORT = "/leagues/our-table/import"
#: A paper card of 300 games: three parts of 4 KiB (``small_parts``).
CARD = "game,date,player_a,player_b,out,score_a,score_b\n" + "".join(
    f"{n},2024-05-01,Ana,Ben,a,1200,100\n" for n in range(1, 301)
)


@pytest.fixture
def parts_folder(app, tmp_path):
    """This test's folder for uploads, and the server said to take a page's limit at most."""
    app.config.update(IMPORT_PARTS_FOLDER=str(tmp_path / "parts"), SERVER_MAX_BODY=1024 * 1024)
    yield tmp_path / "parts"
    app.config.update(IMPORT_PARTS_FOLDER=None, SERVER_MAX_BODY=None)


def send(client, data: bytes, upload: str = "", offset: int = 0):
    form = {"upload": upload, "offset": str(offset), "part": (io.BytesIO(data), "cards.csv")}
    return client.post(PARTS, data=form, content_type="multipart/form-data")


def send_all(client, content: bytes) -> str:
    upload = ""
    for offset in range(0, len(content), parts.PART_BYTES):
        answer = send(client, content[offset : offset + parts.PART_BYTES], upload, offset)
        assert answer.status_code == 200, answer.get_json()
        upload = answer.get_json()["upload"]
        assert answer.get_json()["received"] == min(offset + parts.PART_BYTES, len(content))
    return upload


def test_the_import_page_asks_for_parts_only_where_the_server_needs_them(app, table, tmp_path):
    assert "data-parts" not in table.client.get(IMPORT).text  # gunicorn: one request
    app.config["SERVER_MAX_BODY"] = 1024 * 1024
    try:
        page = table.client.get(IMPORT).text
    finally:
        app.config["SERVER_MAX_BODY"] = None
    assert f'data-parts="{parts.PART_BYTES}"' in page
    assert f'data-parts-url="{PARTS}"' in page
    assert "this page needs JavaScript" in page


def test_a_file_sent_in_parts_is_imported_and_let_go(app, table, parts_folder, monkeypatch):
    monkeypatch.setattr(parts, "PART_BYTES", 4096)
    content = CARD.encode()
    assert len(content) > 2 * parts.PART_BYTES
    upload = send_all(table.client, content)
    with table.client.post(IMPORT, data={"upload": upload, "format": "csv"}) as page:
        assert "Imported 300 games (300 deals)." in page.text
    with app.app_context():
        assert db.session.scalar(select(func.count(Game.id))) == 300
    assert list(parts_folder.iterdir()) == []
    with table.client.post(IMPORT, data={"upload": upload, "format": "csv"}) as again:
        assert again.status_code == 422
        assert "no longer here" in again.text


def test_a_part_that_does_not_follow_the_last_is_refused(table, parts_folder):
    first = send(table.client, b"game,date\n")
    upload = first.get_json()["upload"]
    assert send(table.client, b"x", upload, offset=3).status_code == 409
    assert send(table.client, b"x", offset=5).status_code == 409  # a new upload starts at 0
    assert send(table.client, b"1,", upload, offset=10).status_code == 200
    assert (parts_folder / next(p.name for p in parts_folder.iterdir())).read_bytes() == (
        b"game,date\n1,"
    )


def test_an_upload_is_its_makers_alone(app, table, auth, parts_folder):
    upload = send(table.client, b"game,date\n").get_json()["upload"]
    other = auth.member("admin", username="olga")
    assert send(other, b"x", upload, offset=10).status_code == 404
    page = other.post(IMPORT, data={"upload": upload, "format": "csv"})
    assert page.status_code == 422
    assert "no longer here" in page.text
    assert send(other, b"x", "../../secret_key", offset=0).status_code == 404


def test_parts_over_their_size_or_the_files_are_refused(table, parts_folder, monkeypatch):
    # Small sizes: the test client spools a body over 500 KB to a file it never closes.
    monkeypatch.setattr(parts, "PART_BYTES", 8)
    assert send(table.client, b"x" * 9).status_code == 422
    monkeypatch.setattr(parts, "MAX_IMPORT_BYTES", 10)
    upload = send(table.client, b"x" * 6).get_json()["upload"]
    answer = send(table.client, b"x" * 6, upload, offset=6)
    assert answer.status_code == 422
    assert "larger than 50 MB" in answer.get_json()["error"]
    assert list(parts_folder.iterdir()) == []


def test_starting_an_upload_lets_go_of_the_earlier_ones(table, auth, parts_folder):
    send(table.client, b"first")
    send(table.client, b"second")
    send(auth.member("admin", username="olga"), b"olga's")
    kept = sorted(path.read_bytes() for path in Path(parts_folder).iterdir())
    assert kept == [b"olga's", b"second"]


def test_only_a_league_admin_sends_parts(app, table, auth, parts_folder):
    for role in ("viewer", "scorekeeper"):
        assert send(auth.member(role), b"x").status_code == 403
    assert send(app.test_client(), b"x").status_code in (401, 404)
    assert not parts_folder.exists() or list(parts_folder.iterdir()) == []
    assert re.fullmatch(r"[0-9a-f]{32}", send(table.client, b"x").get_json()["upload"])
