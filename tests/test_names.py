"""Names: one reader for pages, API and imports (scorekeeper.names).

What looks the same is one name (NFKC, case folded); what no one can see is
refused beside the field; and a name of 40 characters is stored whatever its
case folding makes of it, on PostgreSQL too.
"""

import io
import re

import flask_migrate
import pytest
from sqlalchemy import func, select, text

from scorekeeper import create_app
from scorekeeper.accounts import users as user_service
from scorekeeper.database import MIGRATIONS_DIR
from scorekeeper.errors import ServiceError
from scorekeeper.models import Deal, League, Player, Season, User, db

INVISIBLE = (
    "A name can&#39;t contain invisible characters "
    "(such as a zero-width space, a soft hyphen or a right-to-left mark)."
)
CONTROL = "A name can&#39;t contain control characters."
#: "Ana" as someone could type it to pass for a second Ana.
HIDDEN_ANAS = [
    "Ana\u200b",  # zero-width space
    "An\u00ada",  # soft hyphen
    "\ufeffAna",  # byte-order mark
    "Ana\u2060",  # word joiner
    "\u202eanA",  # right-to-left override
    "A\u200dna",  # zero-width joiner
    "Ana\u3164",  # Hangul filler
]
#: The same "Ana" or "José" typed another way: the same player.
SAME_NAMES = ["ANA", "Ａｎａ", "Ana\u2028", "José", "Jose\u0301", "JOSÉ"]


def player_names(app):
    with app.app_context():
        return sorted(db.session.scalars(select(Player.name)))


def count(app, model):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))


def error_beside(page: str, field: str) -> str:
    found = re.search(rf'<p class="error" id="{field}-error">([^<]*)</p>', page)
    assert found, page
    return found.group(1)


def test_nine_anas_are_one_player_on_the_players_page(app, table):
    for name in ["Ana", "José"]:
        assert (
            table.client.post("/leagues/our-table/players", data={"name": name}).status_code == 302
        )
    for name in HIDDEN_ANAS:
        response = table.client.post("/leagues/our-table/players", data={"name": name})
        assert response.status_code in (200, 422), name
        assert error_beside(response.get_data(as_text=True), "name") == INVISIBLE
    for name in SAME_NAMES:
        response = table.client.post("/leagues/our-table/players", data={"name": name})
        assert response.status_code in (200, 422), name
        assert "is already a player in this league." in error_beside(
            response.get_data(as_text=True), "name"
        )
    assert player_names(app) == ["Ana", "José"]


def test_a_name_is_kept_in_nfkc(app, table):
    table.client.post("/leagues/our-table/players", data={"name": "Ｊｏｓｅ\u0301 ﬁ"})
    assert player_names(app) == ["José fi"]


@pytest.mark.parametrize(
    ("path", "data", "field", "message"),
    [
        (
            "/leagues/our-table/games/new",
            {"player0": "Ana", "player1": "Ben\u200b", "preset": "standard", "small": "1"},
            "player1",
            INVISIBLE,
        ),
        (
            "/leagues/our-table/members",
            {"username": "eve\x1b\x07", "password": "pw-12345678"},
            "username",
            CONTROL,
        ),
        (
            "/leagues/our-table/members",
            {"username": "eve\u200b", "password": "pw-12345678"},
            "username",
            INVISIBLE,
        ),
        ("/leagues/new", {"name": "Friday\u202e"}, "name", INVISIBLE),
        (
            "/leagues/our-table/settings",
            {"league-name": "Our\u00adtable", "league-submit": "1"},
            "league-name",
            INVISIBLE,
        ),
        (
            "/leagues/our-table/seasons",
            {"name": "2026\u2060", "starts_on": "2026-01-01", "ends_on": "2026-12-31"},
            "name",
            INVISIBLE,
        ),
    ],
)
def test_every_name_typed_on_a_page_refuses_what_no_one_can_see(
    app, table, path, data, field, message
):
    before = {model: count(app, model) for model in (Player, User, League, Season)}
    response = table.client.post(path, data={"role": "2", **data})
    assert response.status_code in (200, 422)
    assert error_beside(response.get_data(as_text=True), field) == message
    assert {model: count(app, model) for model in before} == before
    with app.app_context():
        assert (
            db.session.scalar(select(League.name).where(League.slug == "our-table")) == "Our table"
        )


def test_the_first_administrator_is_named_by_the_same_rule(app):
    with app.app_context(), pytest.raises(ServiceError) as refused:
        user_service.create_user("root\u200b", "pw-12345678")
    assert refused.value.field == "username"
    assert "invisible" in refused.value.message


@pytest.mark.parametrize("name", [*HIDDEN_ANAS, "Ana\x1b"])
def test_the_api_refuses_a_hidden_name_in_its_error_shape(api, name):
    api.add_players("Ana", "Ben")
    before = api.snapshot()
    added = api.post("/api/v1/leagues/our-table/players", {"name": name})
    body = api.refused(added, 422, "name")
    assert "invisible" in body["fields"]["name"][0] or "printable" in body["fields"]["name"][0]
    game = api.post("/api/v1/games", {"league": "our-table", "players": ["Ben", name]})
    api.refused(game, 422, "players.1")
    assert api.snapshot() == before


def test_the_api_takes_the_same_name_typed_another_way_as_the_same_player(api):
    api.add_players("José", "Ben")
    again = api.post("/api/v1/leagues/our-table/players", {"name": "JOSE\u0301"})
    api.refused(again, 422, "name")
    game = api.post("/api/v1/games", {"league": "our-table", "players": ["ｊｏｓé", "BEN"]})
    assert game.status_code == 201, game.get_json()
    assert game.get_json()["players"] == ["José", "Ben"]


def test_a_csv_import_refuses_a_hidden_name(app, table):
    csv = "game,date,player_a,player_b,out,score_a,score_b\n1,2024-05-01,Ana\u200b,Ben,a,1200,100\n"
    data = {"format": "csv", "file": (io.BytesIO(csv.encode()), "x.csv")}
    response = table.client.post(
        "/leagues/our-table/import", data=data, content_type="multipart/form-data"
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert f"line 2: player_a: {INVISIBLE}" in page
    assert player_names(app) == []


# Names that grow when case-folded (PostgreSQL's VARCHAR(40) keys gave 500s) ------------

LONG_FOLDED = ["ß" * 30, "ΐ" * 20, "ΐ" * 40, "ß" * 40]


@pytest.mark.parametrize("name", LONG_FOLDED)
def test_a_name_that_grows_when_folded_is_stored_from_the_page(app, table, name):
    response = table.client.post("/leagues/our-table/players", data={"name": name})
    assert response.status_code == 302, response.get_data(as_text=True)
    assert player_names(app) == [name]
    again = table.client.post("/leagues/our-table/players", data={"name": name})
    assert "is already a player" in again.get_data(as_text=True)
    assert player_names(app) == [name]


def test_forty_ligatures_are_refused_as_too_long_not_a_500(app, table):
    response = table.client.post("/leagues/our-table/players", data={"name": "ﬃ" * 40})
    assert error_beside(response.get_data(as_text=True), "name") == (
        "A name is at most 40 characters."
    )
    api_answer = table.client.post("/api/v1/leagues/our-table/players", json={"name": "ﬃ" * 40})
    assert api_answer.status_code in (401, 422)  # the API wants a token; see the next test
    assert player_names(app) == []


@pytest.mark.parametrize("name", LONG_FOLDED)
def test_a_name_that_grows_when_folded_is_stored_through_the_api(api, name):
    added = api.post("/api/v1/leagues/our-table/players", {"name": name})
    assert added.status_code == 201, added.get_json()
    api.refused(api.post("/api/v1/leagues/our-table/players", {"name": "ﬃ" * 40}), 422, "name")


def test_new_game_and_member_names_that_grow_when_folded(app, table):
    game = table.post_new_game("ß" * 30, "ΐ" * 20)
    assert game.status_code == 302, game.get_data(as_text=True)
    member = table.client.post(
        "/leagues/our-table/members",
        data={"username": "ß" * 40, "role": "2", "password": "pw-12345678"},
    )
    assert member.status_code == 302, member.get_data(as_text=True)
    with app.app_context():
        assert user_service.user_by_name("SS" * 40) is not None


def test_a_deal_form_token_over_100_characters_is_refused_clearly(app, table):
    game_id = table.start_game()
    response = table.record(game_id, 0, (100, 50), token="t" * 101)
    assert response.status_code == 422
    assert "Reload the page and enter the deal again." in response.get_data(as_text=True)
    assert count(app, Deal) == 0


# Names stored before this rule -----------------------------------------------------------


@pytest.mark.slow
def test_the_migration_reads_stored_names_again_and_numbers_look_alikes(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "AUTO_MIGRATE": False,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path}/old.sqlite",
        }
    )
    with app.app_context():
        flask_migrate.upgrade(directory=MIGRATIONS_DIR, revision="0007_money_64bit")
        old = [
            ("Ana", "ana"),
            ("Ana\u200b", "ana\u200b"),
            ("José", "josé"),
            ("Jose\u0301", "jose\u0301"),
            ("Ｂｅｎ", "ｂｅｎ"),
        ]
        with db.engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO league (id, slug, name, public, created_at) "
                    "VALUES (1, 'l', 'L', 1, '2026-01-01')"
                )
            )
            for name, key in old:
                connection.execute(
                    text(
                        "INSERT INTO player (league_id, name, name_key, created_at) "
                        "VALUES (1, :n, :k, '2026-01-01')"
                    ),
                    {"n": name, "k": key},
                )
            connection.execute(
                text(
                    "INSERT INTO user (username, username_key, password_hash, is_admin, created_at)"
                    " VALUES ('eve\x1b', 'eve\x1b', 'x', 0, '2026-01-01'),"
                    " ('EVE', 'eve', 'x', 0, '2026-01-01')"
                )
            )
        flask_migrate.upgrade(directory=MIGRATIONS_DIR)
        players = db.session.execute(select(Player.name, Player.name_key).order_by(Player.id)).all()
        users = db.session.execute(select(User.username, User.username_key).order_by(User.id)).all()
        db.session.remove()
        db.engine.dispose()
    assert players == [
        ("Ana", "ana"),
        ("Ana (2)", "ana (2)"),
        ("José", "josé"),
        ("José (2)", "josé (2)"),
        ("Ben", "ben"),
    ]
    # The plain name goes to the account whose stored name its rule keeps ("EVE"), not to
    # the older one with a control character in it (migration 0009, issue 21).
    assert users == [("eve (2)", "eve (2)"), ("EVE", "eve")]
