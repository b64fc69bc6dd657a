"""Every rejection rule: a message beside the field, the typed values kept, nothing saved."""

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper.league.forms import PlayerForm
from scorekeeper.models import Game, Player, db
from scorekeeper.table.change_forms import DealForm
from scorekeeper.table.new_game_forms import NewGameForm
from tests.conftest import NEW_GAME_FORM


def deal_form(app, **fields):
    data = {"out": "0", "score0": "100", "score1": "50", "stars0": "0", "stars1": "0", **fields}
    with app.test_request_context(method="POST", data=data):
        form = DealForm(formdata=MultiDict(data))
        form.name_seats(("Ana", "Ben"))
        valid = form.validate()
        return form, valid


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"out": ""}, "out", "Choose the one player who went out."),
        ({"out": "2"}, "out", "Choose the one player who went out."),
        ({"score0": ""}, "score0", "Enter the deal score."),
        ({"score0": "12.5"}, "score0", "The score must be a whole number."),
        ({"score1": "abc"}, "score1", "The score must be a whole number."),
        ({"score0": "9" * 26}, "score0", "between -1,140 and 4,560"),
        ({"score1": "-" + "5" * 5000}, "score1", "far longer than anything this field takes"),
        ({"score0": "102"}, "score0", "Scores must be multiples of 5"),
        ({"score0": "10"}, "score0", "The player who went out scores at least 15"),
        ({"score1": "-1145"}, "score1", "between -1,140 and 4,560"),
        ({"score0": "4565"}, "score0", "between -1,140 and 4,560"),
        ({"stars0": "-1"}, "stars0", "can't be negative"),
        ({"stars0": "15"}, "stars0", "at most 14 stars"),
        ({"stars1": "14"}, "stars1", "at most 13 stars"),
        ({"stars1": "x"}, "stars1", "must be a whole number"),
    ],
)
def test_deal_form_rejects_each_rule_beside_its_field(app, fields, field, message):
    form, valid = deal_form(app, **fields)
    assert valid is False
    assert any(message in error for error in form[field].errors), form[field].errors


@pytest.mark.parametrize(
    "fields",
    [
        {"score1": "-1140"},
        {"score0": "4560", "confirm": "0 4560 50 0 0"},
        {"score0": "15"},
        {"stars0": "14", "confirm": "0 100 50 14 0"},
        {"stars1": "13", "confirm": "0 100 50 0 13"},
        {"score1": "0"},
        {"score1": "−50"},  # a typographic minus, as some keyboards type it
        {"score0": " 1,100 ", "confirm": "0 1100 50 0 0"},
    ],
)
def test_deal_form_accepts_the_edges(app, fields):
    form, valid = deal_form(app, **fields)
    assert valid is True, {name: f.errors for name, f in form._fields.items()}


def test_unusual_values_ask_to_confirm_instead_of_refusing(app):
    form, valid = deal_form(app, score0="1100")
    assert valid is False
    assert [w.field for w in form.warnings] == ["scores.0"]
    assert not form.score0.errors
    form, valid = deal_form(app, score0="1100", confirm="0 1100 50 0 0")
    assert valid is True


def test_a_star_with_few_points_asks_to_confirm(app):
    form, valid = deal_form(app, score1="40", stars1="1")
    assert valid is False
    assert form.warnings[0].code == "warning.star_on_low_score"


def test_rejected_deal_keeps_the_typed_values_and_saves_nothing(table, app):
    game_id = table.start_game()
    response = table.record(game_id, 0, (102, -35), (0, 0))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'value="102"' in page
    assert 'value="-35"' in page
    assert "Scores must be multiples of 5" in page
    assert 'aria-invalid="true"' in page
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 0


def test_a_refused_or_questioned_deal_says_so_where_the_page_opens(table):
    """Without a script the page opens at the top, far from the form: a line there says
    the deal is not saved and links to what to do."""
    game_id = table.start_game()
    refused = table.record(game_id, 0, (102, 50)).get_data(as_text=True)
    top = refused[: refused.index('class="summary"')]
    assert "This deal is not saved: <a href='#deal-form'>see what to change</a>." in top
    asked = table.record(game_id, 0, (1100, 50)).get_data(as_text=True)
    top = asked[: asked.index('class="summary"')]
    assert "This deal is not saved yet: <a href='#deal-form'>please check it</a>." in top
    # While the question is asked, "Yes, save it as typed" is the button that leads.
    assert 'class="secondary save"' in asked
    fresh = table.page(game_id)
    # (The words the page's scripts may show later are in hidden attributes: after the card,
    # and on the header's sign-out form.)
    assert "not saved" not in fresh[fresh.index('<main id="main">') : fresh.index('<div id="live"')]
    assert 'class="primary save"' in fresh


def test_confirmation_round_trip_through_the_page(table, app):
    game_id = table.start_game()
    response = table.record(game_id, 0, (1100, 50), token="t1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "1,100 is an unusually high deal score." in page
    assert 'name="confirm" value="0 1100 50 0 0"' in page
    assert table.record(game_id, 0, (1100, 50), token="t1", confirm=True).status_code == 302
    with app.app_context():
        assert db.session.get(Game, game_id).total0 == 1100


@pytest.mark.parametrize("confirm", ["1", "0 1100 50 0 0", "0 1150 50 0 0 0", "yes"])
def test_a_confirmation_holds_only_for_the_numbers_it_was_asked_about(table, app, confirm):
    """Asked about 1,100, the scorekeeper types 1,150 and taps "Yes, save it as typed" (or
    Go): the new number gets its own question; nothing is saved unasked."""
    game_id = table.start_game()
    response = table.client.post(
        f"/games/{game_id}/deals",
        data={"out": "0", "score0": "1150", "score1": "50", "confirm": confirm},
    )
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "1,150 is an unusually high deal score." in page
    assert 'name="confirm" value="0 1150 50 0 0"' in page
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 0


@pytest.mark.parametrize("outs", [["0", "1"], ["1", "0"], ["0", "0"]])
def test_a_post_naming_more_than_one_player_out_is_refused_beside_the_field(table, app, outs):
    """A radio button sends one value: ``out=0&out=1`` is a hand-made post. Not exactly one
    player went out (RULES.md), so neither the new deal nor the fix is saved."""
    game_id = table.start_game()
    assert table.record(game_id, 0, (100, 50)).status_code == 302
    fields = {"score0": "105", "score1": "55", "stars0": "0", "stars1": "0"}
    data = MultiDict([*(("out", out) for out in outs), *fields.items()])
    for address in (f"/games/{game_id}/deals", f"/games/{game_id}/deals/1"):
        response = table.client.post(address, data=data)
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        assert "Choose the one player who went out." in page
        went_out = page[page.index('<fieldset class="went-out') :]
        went_out = went_out[: went_out.index("</fieldset>")]
        assert "has-error" in went_out
        assert 'aria-describedby="out-error"' in went_out
        assert "Choose the one player who went out." in went_out
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game.deal_count == 1
        assert (game.total0, game.total1) == (100, 50)


def test_player_form_trims_and_limits_names(app):
    with app.test_request_context(method="POST"):
        form = PlayerForm(formdata=MultiDict({"name": "  Ana   Maria "}))
        assert form.validate() is True
        assert form.name.data == "Ana Maria"
        form = PlayerForm(formdata=MultiDict({"name": "x" * 41}))
        assert form.validate() is False
        assert form.name.errors == ["A name is at most 40 characters."]
        form = PlayerForm(formdata=MultiDict({"name": "   "}))
        assert form.validate() is False


def test_adding_a_player_twice_ignoring_case_is_refused(table, app):
    client = table.client
    assert client.post("/leagues/our-table/players", data={"name": "Ana"}).status_code == 302
    response = client.post("/leagues/our-table/players", data={"name": " ANA "})
    assert response.status_code == 200
    assert "ANA is already a player in this league." in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Player.id))) == 1


def new_game_form(app, **fields):
    data = {**NEW_GAME_FORM, **fields}
    with app.test_request_context(method="POST"):
        form = NewGameForm(formdata=MultiDict(data))
        return form, form.validate()


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"player1": "ana"}, "player1", "Choose two different players."),
        ({"player0": ""}, "player0", "Enter or pick a player."),
        ({"player0": "x" * 41}, "player0", "40"),
        ({"target": "1203"}, "target", "multiple of 5"),
        ({"target": "50"}, "target", "from 100 to 10,000"),
        ({"target": "lots"}, "target", "Not a valid integer value."),
        ({"small": "abc"}, "small", "Enter an amount like 1 or 0.25."),
        ({"small": "0.255"}, "small", "Enter an amount like 1 or 0.25."),
        ({"small": "0"}, "small", "more than zero"),
        ({"small": "-1"}, "small", "more than zero"),
        ({"big": "20000"}, "big", "at most $10,000"),
        ({"small": "3333.34"}, "big", "Three times the small stake is more than $10,000.00"),
        ({"small": ""}, "small", "Enter the small stake"),
    ],
)
def test_new_game_form_rejects_each_rule_beside_its_field(app, fields, field, message):
    form, valid = new_game_form(app, **fields)
    assert valid is False
    assert any(message in error for error in form[field].errors), form[field].errors


def test_new_game_form_takes_cents_stakes(app):
    form, valid = new_game_form(app, small="0.25", big="0.75")
    assert valid is True
    assert (form.stakes.small, form.stakes.big) == (25, 75)


def test_a_small_stake_whose_triple_is_the_limit_takes_it_as_the_big_one(app):
    form, valid = new_game_form(app, small="3333.33")
    assert valid is True
    assert (form.stakes.small, form.stakes.big) == (333_333, 999_999)
    form, valid = new_game_form(app, small="5000", big="10000")
    assert valid is True
    assert (form.stakes.small, form.stakes.big) == (500_000, 1_000_000)


def test_rejected_new_game_keeps_what_was_typed(table, app):
    response = table.client.post(
        "/leagues/our-table/games/new",
        data={
            "player0": "Ana",
            "player1": "Ana",
            "preset": "standard",
            "target": "1200",
            "skunk": "multiply",
            "difference": "round",
            "small": "0.50",
            "first_dealer": "0",
            "submit": "1",
        },
    )
    page = response.get_data(as_text=True)
    assert "Choose two different players." in page
    assert 'value="0.50"' in page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Game.id))) == 0
