"""Starting every game from the new-game page without a script (issue 36): the game
picked, its players in seat order, who deals first, its stakes and options; each refusal
beside its field with nothing started; the page shown again for another game's fields or
one more player row; and each game's last stakes and options kept by the league."""

import html
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from scorekeeper.engine.games import KINDS
from scorekeeper.models import Game, GameSeat, League, Player, db
from scorekeeper.records.leagues import league_by_slug
from tests.web.test_fuzz import value as hostile_value

NEW = "/leagues/our-table/games/new"
NBSP = "\u00a0"

#: For each game but Mille: the players, stakes and options typed, and the setup expected.
GAMES = {
    "rummy": (["Ana", "Ben", "Cy"], {"stake_point": "0.05"}, {}, {"point": 5}),
    "boathouse-rummy": (["Ana", "Ben"], {"stake_point": "0.10"}, {}, {"point": 10}),
    "continental-rummy": (
        [f"P{n}" for n in range(1, 10)],
        {"stake_unit": "0.25"},
        {},
        {"unit": 25},
    ),
    "gamblers-rummy": (["Ana", "Ben", "Cy", "Dee"], {"stake_point": "0.01"}, {}, {"point": 1}),
    "knock-rummy": (["Ana", "Ben", "Cy", "Dee"], {"stake_point": "0.05"}, {}, {"point": 5}),
    "scotch-whist": (
        ["Ana", "Ben", "Cy", "Dee"],
        {"stake_game": "2"},
        {"rule_target": "31", "rule_partnerships": "y"},
        {"game": 200},
    ),
    "spoil-five": (
        ["Ana", "Ben", "Cy", "Dee", "Eve"],
        {"stake_ante": "0.25", "stake_dealer": "0.10", "stake_maximum": "5"},
        {},
        {"ante": 25, "dealer": 10, "maximum": 500},
    ),
}


def form_of(game: str, names: list[str], **fields: str) -> dict[str, str]:
    """The page's form as sent for ``game`` (its fields shown), the names confirmed as new."""
    data = {"game": game, "shown_game": game, "first_dealer": "random", "submit": "1"}
    for row, name in enumerate(names):
        data[f"player{row}"] = name
        data[f"new_player{row}"] = name
    for name, value in fields.items():
        data[
            name
            if name in data or name.startswith(("player", "new_", "use_"))
            else f"{game}-{name}"
        ] = value
    return data


def games_started(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count(Game.id)))


def seats_of(app, game_id: int) -> tuple[Game, list[str]]:
    with app.app_context():
        game = db.session.get(Game, game_id)
        names = db.session.scalars(
            select(Player.name)
            .join(GameSeat, GameSeat.player_id == Player.id)
            .where(GameSeat.game_id == game_id)
            .order_by(GameSeat.seat)
        ).all()
        db.session.expunge(game)
        return game, list(names)


def started_id(response) -> int:
    assert response.status_code == 302, response.get_data(as_text=True)
    match = re.search(r"/games/(\d+)$", response.headers["Location"])
    assert match, response.headers["Location"]
    return int(match.group(1))


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_starts_from_the_page_with_its_seats_dealer_and_setup(table, app, game):
    names, stakes, rules, cents = GAMES[game]
    dealer = len(names) - 1
    data = form_of(game, names, **stakes, **rules, first_dealer=str(dealer))
    started, seated = seats_of(app, started_id(table.client.post(NEW, data=data)))
    assert started.kind == game
    assert seated == names  # in the order typed
    assert started.first_dealer == dealer
    assert started.setup["stakes"] == {**dict.fromkeys(KINDS[game].stakes_taken), **cents}
    if game == "scotch-whist":
        assert started.setup["rules"] == {"target": 31, "partnerships": True}


def test_mille_is_picked_and_started_as_it_always_was(table, app):
    page = table.client.get(NEW).get_data(as_text=True)
    assert re.search(r'<input checked[^>]*name="game"[^>]*value="mille"', page)
    game_id = table.start_game("Ana", "Ben")  # the form of before: no game, no shown game
    game, seated = seats_of(app, game_id)
    assert (game.kind, seated, game.first_dealer) == ("mille", ["Ana", "Ben"], 0)


def test_a_row_left_empty_is_no_seat_and_the_dealer_is_the_player_picked(table, app):
    names = ["Ana", "Ben", "", "Dee"]
    data = form_of("knock-rummy", names, stake_point="0.05", first_dealer="3")
    game, seated = seats_of(app, started_id(table.client.post(NEW, data=data)))
    assert seated == ["Ana", "Ben", "Dee"]
    assert game.first_dealer == 2  # Dee's seat


def refused(table, app, data: dict[str, str], before: int = 0) -> str:
    response = table.client.post(NEW, data=data)
    assert response.status_code == 200
    assert games_started(app) == before
    return response.get_data(as_text=True)


def error_of(page: str, field_id: str) -> str:
    match = re.search(
        rf'<p class="error" id="{re.escape(field_id)}-error"[^>]*>(.*?)</p>', page, re.S
    )
    assert match, f"no message beside {field_id}"
    return " ".join(html.unescape(match.group(1)).split())


@pytest.mark.parametrize(
    ("game", "names", "fields", "field", "message"),
    [
        (
            "gamblers-rummy",
            ["Ana", "Ben", "Cy"],
            {"stake_point": "0.05"},
            "players",
            "This game takes 4 players.",
        ),
        (
            "knock-rummy",
            [f"P{n}" for n in range(7)],
            {"stake_point": "0.05"},
            "players",
            "This game takes 2 to 6 players.",
        ),
        (
            "knock-rummy",
            ["Ana", "Ben", "ana"],
            {"stake_point": "0.05"},
            "player2",
            "Each player can sit at the table once: ana is there already.",
        ),
        (
            "knock-rummy",
            ["Ana", "Ana"],
            {"stake_point": "0.05"},
            "player1",
            "Choose two different players.",
        ),
        ("knock-rummy", ["Ana", "Ben"], {}, "knock-rummy-stake_point", "This is needed."),
        (
            "knock-rummy",
            ["Ana", "Ben"],
            {"stake_point": "five"},
            "knock-rummy-stake_point",
            "Enter an amount like 1 or 0.25.",
        ),
        (
            "knock-rummy",
            ["Ana", "Ben"],
            {"stake_point": "0"},
            "knock-rummy-stake_point",
            "A stake must be from 0.01 to 10000.00.",
        ),
        (
            "spoil-five",
            ["Ana", "Ben", "Cy"],
            {"stake_ante": "1", "stake_maximum": "2"},
            "spoil-five-stake_maximum",
            "every player's ante, 3.00.",
        ),
        (
            "scotch-whist",
            ["Ana", "Ben", "Cy", "Dee", "Eve"],
            {"stake_game": "1", "rule_partnerships": "y"},
            "scotch-whist-rule_partnerships",
            "Partnerships need 4, 6 or 8 players.",
        ),
        (
            "scotch-whist",
            ["Ana", "Ben"],
            {"stake_game": "1", "rule_target": "1001"},
            "scotch-whist-rule_target",
            "The target must be a whole number from 1 to 1,000.",
        ),
        (
            "scotch-whist",
            ["Ana", "Ben"],
            {"stake_game": "1", "rule_target": "lots"},
            "scotch-whist-rule_target",
            "This must be a whole number.",
        ),
        (
            "rummy",
            ["Ana", "Ben"],
            {"stake_point": "1", "first_dealer": "2"},
            "first_dealer",
            "The first dealer must be one of the players.",
        ),
        (
            "rummy",
            ["Ana", "Ben"],
            {"stake_point": "1", "first_dealer": "12"},
            "first_dealer",
            "Not a valid choice.",
        ),
        ("rummy", ["", "Ben"], {"stake_point": "1"}, "player0", "Enter or pick a player."),
        (
            "rummy",
            ["Ana", "Ben", "x" * 41],
            {"stake_point": "1"},
            "player2",
            "A name is at most 40 characters.",
        ),
    ],
)
def test_each_refusal_is_beside_its_field_and_starts_nothing(
    table, app, game, names, fields, field, message
):
    page = refused(table, app, form_of(game, names, **fields))
    assert message in error_of(page, field)
    if field == "players":
        assert 'aria-describedby="players-error"' in page
    elif field != "first_dealer":
        assert re.search(
            rf'aria-describedby="[^"]*{field}-error"[^>]*id="{field}"',
            page,
        ), field


def test_mille_with_rows_another_game_left_filled_in_is_refused(table, app):
    data = {
        **form_of("mille", ["Ana", "Ben", "Cy"]),
        "small": "1",
        "preset": "standard",
        "target": "1200",
        "skunk": "multiply",
        "difference": "round",
    }
    page = refused(table, app, data)
    assert "This game takes 2 players." in error_of(page, "players")


def test_mille_left_with_a_hidden_bad_stake_does_not_stop_another_game(table, app):
    data = form_of("rummy", ["Ana", "Ben"], stake_point="0.05", small="not money", target="3")
    assert started_id(table.client.post(NEW, data=data))


@pytest.mark.parametrize(
    "sent",
    [
        {"game": "nonsense"},
        {"game": "spoil-five", "spoil-five-stake_ante": "9" * 40},
        {"rows": "99999999999999999999", "more": "1"},
        {"first_dealer": "-1"},
        {"game": "scotch-whist", "shown_game": "scotch-whist", "scotch-whist-rule_target": "1e9"},
        {"game": "continental-rummy", "shown_game": "nonsense"},
    ],
)
def test_no_input_is_a_server_error(table, app, sent):
    response = table.client.post(NEW, data={**form_of("mille", ["Ana", "Ben"]), **sent})
    assert response.status_code in (200, 302)


def test_picking_a_game_without_the_script_shows_its_fields_first(table, app):
    # Start pressed with Knock Rummy picked while the page showed Mille's fields: shown first.
    data = {**form_of("knock-rummy", ["Ana", "Ben"], stake_point="0.05"), "shown_game": "mille"}
    page = refused(table, app, data)
    assert "Now showing Knock Rummy: check its players, stakes and rules, then start." in page
    assert re.search(r'<div class="game-setup" data-games="knock-rummy">', page)
    assert re.search(r'<div class="game-setup" data-games="mille" hidden>', page)
    # "Show this game's options": the same, without the message.
    shown = refused(table, app, {"game": "scotch-whist", "show_game": "1", "player0": "Ana"})
    assert "Now showing" not in shown
    assert 'value="41"' in shown  # Scotch Whist's target, as its engine declares it
    assert re.search(r'<div class="seat" data-row="2" hidden>', shown)  # two rows to start


def test_add_a_player_shows_one_more_row_up_to_the_games_most(table, app):
    data = {**form_of("knock-rummy", ["Ana", "Ben"]), "rows": "2", "more": "1"}
    page = refused(table, app, data)
    assert '<div class="seat" data-row="2">' in page
    assert '<div class="seat" data-row="3" hidden>' in page
    assert 'name="rows" value="3"' in page
    full = refused(table, app, {**data, "rows": "6"})
    assert '<div class="seat" data-row="5">' in full
    assert '<div class="seat" data-row="6" hidden>' in full
    assert re.search(r'class="secondary add-player" hidden', full)  # six is Knock Rummy's most


def test_the_first_dealer_choice_names_the_players_typed(table, app):
    page = refused(table, app, {**form_of("rummy", ["Ana", "Ben", "Cy"]), "show_game": "1"})
    for name in ("Ana", "Ben", "Cy"):
        assert f"{name} deals first" in page
    table.client.set_cookie("lang", "fr")
    page = refused(table, app, {**form_of("rummy", ["Ana", "Ben"]), "show_game": "1"})
    assert "Ana donne en premier" in page


def test_did_you_mean_asks_about_a_new_name_close_to_a_player_in_any_row(table, app):
    table.start_game("Ana", "Ben")
    data = form_of("rummy", ["Ana", "Cy", "Benn"], stake_point="0.05")
    del data["new_player2"]
    page = refused(table, app, data, before=1)
    assert 'id="player2-question"' in page
    assert "Did you mean Ben?" in page
    _game, seated = seats_of(
        app, started_id(table.client.post(NEW, data={**data, "use_player2": "Ben"}))
    )
    assert seated == ["Ana", "Cy", "Ben"]


def test_the_lookalikes_answer_asks_as_a_name_is_typed(table):
    table.start_game("Ana", "Ben")
    address = f"{NEW.removesuffix('/new')}/new/lookalikes"
    answer = table.client.get(address, query_string={"row": "3", "name": "Benn"}).get_data(
        as_text=True
    )
    assert 'id="player3-question"' in answer
    assert "data-live" in answer
    assert 'name="use_player3" value="Ben"' in answer
    for query in (
        {"row": "3", "name": "Ben"},
        {"row": "3", "name": "Zoe"},
        {"row": "99", "name": "Benn"},
        {"row": "x"},
        {"row": "1", "name": "B" * 500},
    ):
        assert table.client.get(address, query_string=query).get_data(as_text=True).strip() == ""


def test_the_league_remembers_each_games_last_stakes_and_options(table, app):
    names = ["Ana", "Ben", "Cy", "Dee"]
    data = form_of(
        "scotch-whist", names, stake_game="1.50", rule_target="21", rule_partnerships="y"
    )
    started_id(table.client.post(NEW, data=data))
    started_id(table.client.post(NEW, data=form_of("spoil-five", names, stake_ante="0.25")))
    with app.app_context():
        league = league_by_slug("our-table")
        assert league.last_setup("scotch-whist") == {
            "rules": {"target": 21, "partnerships": True},
            "stakes": {"game": 150},
        }
        assert league.last_setup("spoil-five")["stakes"] == {
            "ante": 25,
            "dealer": 25,
            "maximum": None,
        }
        assert "rules" not in league.defaults  # Mille's defaults: the settings', none saved
    page = table.client.get(NEW).get_data(as_text=True)
    assert re.search(r'id="scotch-whist-stake_game"[^>]*value="1.50"', page)
    assert re.search(r'id="scotch-whist-rule_target"[^>]*value="21"', page)
    assert re.search(r'checked[^>]*id="scotch-whist-rule_partnerships"', page)
    assert re.search(r'id="spoil-five-stake_ante"[^>]*value="0.25"', page)
    assert re.search(r'id="knock-rummy-stake_point"[^>]*value=""', page)  # never played
    table.client.set_cookie("lang", "fr")
    page = table.client.get(NEW).get_data(as_text=True)
    assert re.search(r'id="scotch-whist-stake_game"[^>]*value="1,50"', page)


def test_mille_defaults_and_the_other_games_setups_live_side_by_side(table, app):
    started_id(table.client.post(NEW, data=form_of("rummy", ["Ana", "Ben"], stake_point="0.05")))
    # Tonight and the settings page read Mille's defaults with only other games' kept.
    assert table.client.get("/leagues/our-table/settings").status_code == 200
    assert table.client.get("/leagues/our-table/tonight").status_code == 200
    page = table.client.get(NEW).get_data(as_text=True)
    assert "$1.00–$3.00" in page
    saved = table.client.post(
        "/leagues/our-table/settings",
        data={
            "defaults-preset": "standard",
            "defaults-target": "1500",
            "defaults-skunk": "multiply",
            "defaults-difference": "round",
            "defaults-small": "0.50",
            "defaults-save_defaults": "1",
        },
    )
    assert saved.status_code == 302
    with app.app_context():
        league = db.session.scalars(select(League).where(League.slug == "our-table")).one()
        assert league.defaults["stakes"] == {"small": 50, "big": 150}
        assert league.last_setup("rummy")["stakes"] == {"point": 5}


def test_a_game_started_through_the_api_is_remembered_too(api, app):
    api.add_players("Ana", "Ben")
    body = {
        "league": "our-table",
        "game": "knock-rummy",
        "players": ["Ana", "Ben"],
        "stakes": {"point": "0.07"},
    }
    assert api.post("/api/v1/games", body).status_code == 201
    with app.app_context():
        assert league_by_slug("our-table").last_setup("knock-rummy") == {
            "rules": {},
            "stakes": {"point": 7},
        }


def test_a_refused_start_through_the_api_remembers_nothing(api, app):
    body = {
        "league": "our-table",
        "game": "knock-rummy",
        "players": ["Ana", "Zed"],
        "stakes": {"point": "0.07"},
    }
    assert api.post("/api/v1/games", body).status_code == 422  # not players of the league
    with app.app_context():
        assert league_by_slug("our-table").last_setup("knock-rummy") is None


def test_the_page_names_no_game_outside_the_engine_and_its_words():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = [
        root / "templates/table/new_game.html",
        root / "templates/table/_did_you_mean.html",
        root / "scorekeeper/table/new_game_forms.py",
        root / "scorekeeper/table/setup_forms.py",
        root / "scorekeeper/table/new_game_views.py",
        root / "static/new_game.js",
    ]
    for path in sources:
        text = path.read_text().casefold()
        for kind in KINDS:
            for word in {kind, kind.replace("-", " "), kind.replace("-", "_")} - {"mille"}:
                assert word not in text, (path.name, word)


def test_the_page_in_french_says_every_game_and_its_fields(table):
    table.client.set_cookie("lang", "fr")
    page = table.client.get(NEW).get_data(as_text=True)
    assert "Quel jeu" in page
    assert "Par point" in page
    assert "de 2 à 6 joueurs" in page
    assert f"Retirer{NBSP}: Adversaire 3" in page


@pytest.mark.slow  # Hypothesis posts a hundred forms
@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hostile_values_for_any_game_never_fail_and_refusals_start_nothing(table, app, data):
    game = data.draw(st.sampled_from([*KINDS, "nonsense"]))
    kind = KINDS.get(game)
    fields = ["shown_game", "rows", "more", "show_game", "first_dealer", "submit"]
    fields += [f"{prefix}player{row}" for prefix in ("", "use_", "new_") for row in range(13)]
    if kind is not None and game != "mille":
        fields += [f"{game}-stake_{name}" for name in kind.stakes_taken]
        fields += [f"{game}-rule_{name}" for name in kind.rules_schema.get("properties", {})]
    chosen = data.draw(st.lists(st.sampled_from(fields), unique=True))
    form = {"game": game, **{field: data.draw(hostile_value) for field in chosen}}
    with app.app_context():
        before = db.session.get(League, 1).defaults
    response = table.client.post(NEW, data=form)
    assert response.status_code < 500
    if response.status_code != 302:
        assert games_started(app) == 0
        with app.app_context():
            assert db.session.get(League, 1).defaults == before
