"""The new-game form of every game, built and validated alone: its fields come from the
engine's declarations, and every refusal is a message beside its field."""

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.engine.games import KINDS
from scorekeeper.table.new_game_forms import SEATS, NewGameForm, other_kinds
from scorekeeper.table.setup_forms import RULE, STAKE, setup_form


def new_game_form(app, game: str, names: list[str], language: str = "en", **fields: str):
    data = {"game": game, "shown_game": game, "first_dealer": "random"}
    data |= {f"player{row}": name for row, name in enumerate(names)}
    data |= {
        f"{game}-{key}" if key.startswith((STAKE, RULE)) else key: value
        for key, value in fields.items()
    }
    headers = {"Cookie": f"lang={language}"}
    with app.test_request_context(method="POST", headers=headers):
        form = NewGameForm(formdata=MultiDict(data))
        return form, form.validate()


def test_every_other_game_has_a_field_for_each_stake_and_option_it_declares(app):
    with app.test_request_context():
        for kind in other_kinds():
            form = setup_form(kind)(formdata=None, prefix=kind.name)
            assert [name for name, _ in form.stakes()] == list(kind.stakes_taken)
            options = kind.rules_schema.get("properties", {})
            assert [name for name, _, _ in form.rules()] == list(options)
            for name, field, schema in form.rules():
                assert field.name == f"{kind.name}-{RULE}{name}"
                widget = "checkbox" if schema["type"] == "boolean" else "number"
                assert f'type="{widget}"' in field()
    assert max(kind.max_players for kind in KINDS.values()) == SEATS


def test_a_valid_form_gives_the_setup_in_cents_and_seats_in_order(app):
    form, valid = new_game_form(
        app,
        "spoil-five",
        ["Ana", "Ben", "", "Dee"],
        stake_ante="0.25",
        stake_maximum="2",
        first_dealer="3",
    )
    assert valid, (form.errors, form.setup.errors, form.players_errors)
    assert form.typed() == [(0, "Ana"), (1, "Ben"), (3, "Dee")]
    assert form.dealer_seat == 2
    assert form.setup.stake_cents() == {"ante": 25, "dealer": None, "maximum": 200}
    assert form.setup.rule_values() == {}


def test_a_french_page_reads_a_decimal_comma(app):
    data = {"game": "knock-rummy", "player0": "Ana", "player1": "Ben"}
    data |= {"shown_game": "knock-rummy", "knock-rummy-stake_point": "0,05"}
    with app.test_request_context(method="POST", headers={"Cookie": "lang=fr"}):
        form = NewGameForm(formdata=MultiDict(data))
        assert form.validate()
        assert form.setup.stake_cents() == {"point": 5}


@pytest.mark.parametrize(
    ("game", "names", "fields", "field", "message"),
    [
        ("knock-rummy", ["Ana", "Ben"], {}, STAKE + "point", "This is needed."),
        ("knock-rummy", ["Ana", "Ben"], {"stake_point": "1,5"}, STAKE + "point", "like 1 or 0.25"),
        ("knock-rummy", ["Ana", "Ben"], {"stake_point": "-1"}, STAKE + "point", "from 0.01"),
        (
            "spoil-five",
            ["A", "B", "C", "D"],
            {"stake_ante": "1", "stake_maximum": "3"},
            STAKE + "maximum",
            "ante, 4.00",
        ),
        (
            "scotch-whist",
            ["A", "B", "C"],
            {"stake_game": "1", "rule_partnerships": "y"},
            RULE + "partnerships",
            "4, 6 or 8",
        ),
        (
            "scotch-whist",
            ["A", "B"],
            {"stake_game": "1", "rule_target": "0"},
            RULE + "target",
            "from 1 to 1,000",
        ),
    ],
)
def test_a_setup_the_engine_refuses_is_refused_beside_its_field(
    app, game, names, fields, field, message
):
    form, valid = new_game_form(app, game, names, **fields)
    assert valid is False
    assert any(message in error for error in form.setup[field].errors), form.setup[field].errors


@pytest.mark.parametrize(
    ("game", "names", "stakes", "message"),
    [
        ("gamblers-rummy", ["A", "B", "C"], {"stake_point": "1"}, "This game takes 4 players."),
        (
            "rummy",
            [f"P{n}" for n in range(7)],
            {"stake_point": "1"},
            "This game takes 2 to 6 players.",
        ),
        ("mille", ["A", "B", "C"], {"small": "1"}, "This game takes 2 players."),
    ],
)
def test_too_few_or_too_many_players_are_refused_beside_them(app, game, names, stakes, message):
    form, valid = new_game_form(app, game, names, **stakes)
    assert valid is False
    assert form.players_errors == [message]


def test_the_same_player_twice_is_refused_beside_the_second(app):
    form, valid = new_game_form(app, "rummy", ["Ana", "Ben", "ANA "], stake_point="1")
    assert valid is False
    assert form.player2.errors == ["Each player can sit at the table once: ANA is there already."]
    assert form.player0.errors == []


def test_the_first_dealer_is_a_player_of_the_game(app):
    form, valid = new_game_form(app, "rummy", ["Ana", "Ben"], stake_point="1", first_dealer="4")
    assert valid is False
    assert form.first_dealer.errors == ["The first dealer must be one of the players."]
    form, valid = new_game_form(app, "mille", ["Ana", "Ben"], small="1", first_dealer="2")
    assert valid is False
    assert form.first_dealer.errors == ["The first dealer must be one of the players."]


def test_another_games_hidden_fields_never_refuse_the_game_picked(app):
    form, valid = new_game_form(
        app, "rummy", ["Ana", "Ben"], stake_point="1", small="x", target="7"
    )
    assert valid, form.errors
    # … and the default game's own fields are read as they always were.
    form, valid = new_game_form(app, "mille", ["Ana", "Ben"], small="x")
    assert valid is False
    assert form.small.errors == ["Enter an amount like 1 or 0.25."]


def test_rows_shown_follow_the_game_what_is_typed_and_add_a_player(app):
    form, _ = new_game_form(app, "gamblers-rummy", ["Ana"])
    assert form.rows_shown() == 4  # its fewest
    form, _ = new_game_form(app, "rummy", ["Ana", "Ben"], rows="2", more="1")
    assert form.rows_shown() == 3
    form, _ = new_game_form(app, "rummy", ["Ana", "Ben"], rows="6", more="1")
    assert form.rows_shown() == 6  # its most
    form, _ = new_game_form(app, "mille", ["A", "B", "C", "D"], rows="4")
    assert form.rows_shown() == 4  # names another game left stay in view, to be refused
    assert form.only_shown() is False
