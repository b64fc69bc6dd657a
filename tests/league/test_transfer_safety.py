"""Imports and exports that must not be turned against the league: forged attributions,
database errors, files built to crash the reader, and formulas in a spreadsheet."""

import csv
import io
import json
import re
import tracemalloc

import pytest
import sqlalchemy.exc
from sqlalchemy import select

from scorekeeper.accounts import users as user_service
from scorekeeper.league import service as league_service
from scorekeeper.league.transfer import save
from scorekeeper.league.transfer.formats import FORMULA_STARTS
from scorekeeper.models import AuditAction, AuditEvent, Deal, Game, Player, db
from scorekeeper.records import results
from scorekeeper.table import audit


def upload(client, slug, content: str, name: str, kind: str):
    data = {"format": kind, "file": (io.BytesIO(content.encode()), name)}
    return client.post(f"/leagues/{slug}/import", data=data, content_type="multipart/form-data")


def words(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def new_league_with_admin(app, auth, name):
    with app.app_context():
        slug = league_service.create_league(name).slug
        db.session.remove()
    return slug, auth.member("admin", league=slug, username=f"admin-of-{slug}")


@pytest.mark.usefixtures("public")  # the original league's payments, read by a visitor
def test_an_imported_payment_says_who_imported_it_not_who_the_file_names(
    app, table, client, auth, wikipedia_card
):
    with app.app_context():
        user_service.create_user("root", "root-password-long", admin=True)
    game = table.start_game()
    for out, scores, stars in wikipedia_card:
        table.record(game, out, scores, stars)
    table.client.post(f"/games/{game}/paid")
    exported = table.client.get("/leagues/our-table/export.json").get_json()
    assert exported["games"][0]["paid_by"] == "admin"
    exported["games"][0]["paid_by"] = "root"
    slug, league_admin = new_league_with_admin(app, auth, "Copy")
    response = upload(league_admin, slug, json.dumps(exported), "forged.json", "json")
    assert "Imported 1 games (7 deals)." in response.get_data(as_text=True)
    payments = words(league_admin.get(f"/leagues/{slug}/payments").get_data(as_text=True))
    assert "Ana paid Ben" in payments or "Ben paid Ana" in payments
    assert "root" not in payments
    assert f"Imported by admin-of-{slug}" in payments
    with app.app_context():
        copy = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert copy.paid_at is not None
        assert copy.paid_by_id is None
        event = db.session.scalars(select(AuditEvent).where(AuditEvent.game_id == copy.id)).one()
        assert event.user.username == f"admin-of-{slug}"
        assert event.action == AuditAction.GAME_IMPORTED
        assert event.params["paid_by"] == "root"
        assert "The file says root marked it paid." in audit.summary(event)
    # The original, marked here, still says who marked it.
    assert "admin" in words(client.get("/leagues/our-table/payments").get_data(as_text=True))


PAPER_CARD = """game,date,player_a,player_b,out,score_a,score_b
1,2024-05-01,Ana,Ben,a,1200,100
"""


def test_a_database_error_during_an_import_is_a_clear_message_not_sql(app, table, monkeypatch):
    def refuse(league_id):
        raise sqlalchemy.exc.DataError(
            "INSERT INTO player (league_id, name) VALUES (%s, %s)",
            {},
            Exception("value too long for type character varying(40)"),
        )

    monkeypatch.setattr(save.results, "rebuild_league", refuse)
    response = upload(table.client, "our-table", PAPER_CARD, "cards.csv", "csv")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Nothing was imported: the database refused the file&#39;s data." in page
    for leak in ("INSERT", "SQL", "character varying", "DataError"):
        assert leak not in page
    with app.app_context():
        assert db.session.scalar(select(db.func.count(Game.id))) == 0


def test_names_that_outgrow_their_column_never_show_sql(app, table):
    """30 × "ß" case-folds to 60 characters: too long for PostgreSQL's key column."""
    card = PAPER_CARD.replace("Ana", "ß" * 30)
    response = upload(table.client, "our-table", card, "cards.csv", "csv")
    assert response.status_code in (200, 422)
    page = response.get_data(as_text=True)
    for leak in ("SQL", "INSERT", "psycopg"):
        assert leak not in page


def test_a_csv_field_over_128_kb_is_refused_with_its_line(table):
    card = PAPER_CARD + "2,2024-05-02,Ana," + "B" * 200_000 + ",a,1200,100\n"
    response = upload(table.client, "our-table", card, "cards.csv", "csv")
    assert response.status_code == 422
    page = words(response.get_data(as_text=True))
    assert "line 3: this line can&#39;t be read as CSV (field larger than field limit" in page


def test_a_json_import_nested_100_000_deep_is_refused(table):
    response = upload(table.client, "our-table", "[" * 100_000, "deep.json", "json")
    assert response.status_code == 422
    assert "The file is nested too deeply to be a league export." in response.get_data(as_text=True)


FORMULAS = [
    '=HYPERLINK("http://x.example","y")',
    "@SUM(A1:A9)",
    "+Plus",
    "-Minus",
    "'=Quoted",
    "'Tis",
]


@pytest.mark.parametrize("pair", [FORMULAS[0:2], FORMULAS[2:4], FORMULAS[4:6]])
def test_the_csv_export_is_inert_in_a_spreadsheet_and_imports_back_exactly(
    app, table, client, auth, pair
):
    game = table.start_game(*pair)
    table.record(game, 0, (150, -50))
    table.record(game, 0, (1100, -70), confirm=True)
    text = table.client.get("/leagues/our-table/export.csv").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(FORMULA_STARTS) or re.fullmatch(r"-\d+", cell)
    assert [r["player_a"] for r in rows] == ["'" + pair[0]] * 2
    assert [(r["score_a"], r["score_b"]) for r in rows] == [("150", "-50"), ("1100", "-70")]
    slug, league_admin = new_league_with_admin(app, auth, "Back")
    response = upload(league_admin, slug, text, "deals.csv", "csv")
    assert "Imported 1 games (2 deals)." in response.get_data(as_text=True)
    with app.app_context():
        copy = db.session.scalars(select(Game).order_by(Game.id.desc())).first()
        assert (copy.player0.name, copy.player1.name) == tuple(pair)
        deals = db.session.scalars(select(Deal).where(Deal.game_id == copy.id)).all()
        assert [(d.score0, d.score1) for d in deals] == [(150, -50), (1100, -70)]
        assert db.session.scalar(select(db.func.count(Player.id))) == 4


def test_a_paper_card_keeps_an_apostrophe_that_quotes_nothing(app, table):
    card = PAPER_CARD.replace("Ana", "'Tis")
    response = upload(table.client, "our-table", card, "cards.csv", "csv")
    assert "Imported 1 games (1 deals)." in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalars(select(Game)).one().player0.name == "'Tis"


def upload_bytes(client, content: bytes):
    data = {"format": "csv", "file": (io.BytesIO(content), "cards.csv")}
    return client.post("/leagues/our-table/import", data=data, content_type="multipart/form-data")


def test_a_csv_import_reads_a_spreadsheet_s_byte_order_mark_and_refuses_other_encodings(app, table):
    refused = upload_bytes(table.client, PAPER_CARD.replace("Ben", "Bén").encode("latin-1"))
    assert refused.status_code == 422
    assert "The file is not UTF-8 text" in refused.get_data(as_text=True)
    response = upload_bytes(table.client, "\ufeff".encode() + PAPER_CARD.encode())
    assert "Imported 1 games (1 deals)." in response.get_data(as_text=True)


def paper_cards(path, games: int, card) -> None:
    """A CSV of ``games`` Wikipedia games (RULES.md §5) between twenty players."""
    with path.open("w") as out:
        out.write("game,date,player_a,player_b,out,score_a,score_b,stars_a,stars_b\n")
        for game in range(games):
            a, b = game % 20, (game * 7 + 1) % 20
            b = b if b != a else (a + 1) % 20
            for out_, scores, stars in card:
                row = [game, "2024-05-01", f"P{a}", f"P{b}", "ab"[out_], *scores, *stars]
                out.write(",".join(map(str, row)) + "\n")


def import_peak(app, table, path) -> int:
    """The most memory (bytes, by tracemalloc) that uploading, checking and saving the
    file into a league of its own took."""
    with app.app_context():
        slug = league_service.create_league(path.stem).slug
        db.session.remove()
    with path.open("rb") as file:
        tracemalloc.start()
        try:
            response = table.client.post(
                f"/leagues/{slug}/import",
                data={"format": "csv", "file": (file, path.name)},
                content_type="multipart/form-data",
            )
            page = response.get_data(as_text=True)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert "Imported" in page
    return peak


@pytest.mark.slow
def test_an_import_s_memory_does_not_grow_with_the_file(
    app, table, tmp_path, wikipedia_card, monkeypatch
):
    """Streamed: read a game at a time to check, again to save in batches; a file four
    times larger takes about as much memory (a batch's), not four times as much."""
    monkeypatch.setattr(save, "BATCH", 50)
    monkeypatch.setattr(results, "REBUILD_BATCH", 50, raising=False)
    files = {"warm-up": 5, "small": 200, "large": 800}
    for name, games in files.items():
        paper_cards(tmp_path / f"{name}.csv", games, wikipedia_card)
    peaks = [import_peak(app, table, tmp_path / f"{name}.csv") for name in files][1:]
    assert peaks[1] < 1.5 * peaks[0], [f"{peak / 1e6:.1f} MB" for peak in peaks]
