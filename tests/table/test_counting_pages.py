"""The counting help through its pages: cards in, a counted tally out, saved with its cards."""

import html
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from scorekeeper.models import Deal, Game, db

#: Ana went out with three kings and no wild two (a natural going out: 60 and a star).
THREE_KINGS = [("K", 3)]
ONE_FIVE_IN_HAND = {"threes_to_nines": 1}


def count_data(out, sets0=(), sets1=(), hand0=None, hand1=None, **extra):
    """The count form's fields: rows of (rank, naturals[, wild 2s[, Q♠/J♦]]) per player."""
    data = {"went_out": str(out)}
    for seat, sets, hand in ((0, sets0, hand0), (1, sets1, hand1)):
        for index, (rank, *counts) in enumerate(sets):
            prefix = f"player{seat}-sets-{index}-"
            data[prefix + "rank"] = rank
            for name, count in zip(("naturals", "wild_twos", "specials"), counts, strict=False):
                data[prefix + name] = str(count)
        for name, count in (hand or {}).items():
            data[f"player{seat}-{name}"] = str(count)
    return {**data, **extra}


def count(table, game_id, *args, number=None, **kwargs):
    where = f"/games/{game_id}/deals/{number}/count" if number else f"/games/{game_id}/count"
    return table.client.post(where, data=count_data(*args, **kwargs))


def text_of(page):
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def value_of(page, name):
    """The value of the input called ``name`` on the page."""
    tag = re.search(rf'<input [^>]*name="{name}"[^>]*>', page)
    assert tag, f"no {name} field"
    value = re.search(r'value="([^"]*)"', tag[0])
    return html.unescape(value[1]) if value else ""


def deal_of(app, game_id, number=1):
    with app.app_context():
        return db.session.scalars(
            select(Deal).where(Deal.game_id == game_id, Deal.number == number)
        ).one()


def save_counted(table, game_id, page, number=None):
    """Save the deal form that a count filled in, exactly as the page has it."""
    data = {
        name: value_of(page, name)
        for name in ("out", "score0", "score1", "stars0", "stars1", "cards", "version")
    }
    data["out"] = re.search(r'<input checked id="out-\d" name="out" [^>]*value="(\d)"', page)[1]
    if number:
        return table.client.post(f"/games/{game_id}/deals/{number}", data=data)
    return table.client.post(f"/games/{game_id}/deals", data={**data, "token": "t"})


# --- The examples ------------------------------------------------------


def test_the_deal_form_offers_to_count_the_cards(table):
    game_id = table.start_game()
    assert f'href="/games/{game_id}/count">Count the cards instead' in table.page(game_id)


def test_eight_twos_count_320_and_give_a_star(table):
    game_id = table.start_game()
    response = count(table, game_id, 0, THREE_KINGS, [("2", 8)], hand1=ONE_FIVE_IN_HAND)
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "8 twos, natural set: 8 × 20 × 2 = 320" in page
    assert (value_of(page, "score0"), value_of(page, "stars0")) == ("60", "1")
    assert (value_of(page, "score1"), value_of(page, "stars1")) == ("315", "1")


def test_eight_queens_with_both_queens_of_spades_count_520(table):
    game_id = table.start_game()
    response = count(table, game_id, 0, THREE_KINGS, [("Q", 8, 0, 2)], hand1=ONE_FIVE_IN_HAND)
    page = response.get_data(as_text=True)
    assert "8 queens (2 Q♠), natural set: (2 × 100 + 6 × 10) × 2 = 520" in page
    assert value_of(page, "score1") == "515"


def test_a_natural_going_out_with_eight_tens_and_three_kings_is_380_and_two_stars(table, app):
    game_id = table.start_game()
    response = count(table, game_id, 0, [("10", 8), *THREE_KINGS], hand1=ONE_FIVE_IN_HAND)
    page = response.get_data(as_text=True)
    words = text_of(page)
    assert "8 tens, natural set, natural going out: 8 × 10 × 4 = 320" in words
    assert "3 kings, natural going out: 3 × 10 × 2 = 60" in words
    assert "Deal score: 380 · 2 stars" in words
    assert (value_of(page, "score0"), value_of(page, "stars0")) == ("380", "2")
    assert save_counted(table, game_id, page).status_code == 302
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.total0, game.total1, game.stars0) == (380, -5, 2)


def test_staying_in_with_a_natural_set_and_a_heavy_hand_is_a_chapeau(table, app):
    game_id = table.start_game()
    heavy = {"queen_of_spades": 2, "jack_of_diamonds": 2, "aces": 3}
    response = count(table, game_id, 0, THREE_KINGS, [("5", 8)], hand1=heavy)
    page = response.get_data(as_text=True)
    words = text_of(page)
    assert "8 fives, natural set: 8 × 5 × 2 = 80" in words
    assert "Left in hand: 2 × 100 (Q♠) + 2 × 50 (J♦) + 3 × 15 (aces) = 345" in words
    assert "Deal score: 80 − 345 = −265 (a chapeau) · 1 star" in words
    assert (value_of(page, "score1"), value_of(page, "stars1")) == ("-265", "1")
    # A counted tally is saved at once: no "a star with so few points is unusual" question.
    assert save_counted(table, game_id, page).status_code == 302
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.total1, game.stars1, game.chapeaux1) == (-265, 1, 1)


# --- Impossible cards and bad input ----------------------------------------------


def test_impossible_cards_are_named_beside_their_set_and_nothing_is_saved(table, app):
    game_id = table.start_game()
    response = count(table, game_id, 0, [("10", 9)], hand1=ONE_FIVE_IN_HAND)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert (
        '<p class="error" id="player0-sets-0-error">'
        "Ana&#39;s set 1 (tens): 9 tens, but two decks have only 8.</p>"
    ) in page
    assert 'aria-describedby="player0-sets-0-error" aria-invalid="true"' in page
    assert value_of(page, "player0-sets-0-naturals") == "9"
    assert value_of(page, "player1-threes_to_nines") == "1"
    assert 'id="deal-form"' not in page
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 0


def test_a_bad_number_marks_its_own_input_and_every_input_names_its_player(table):
    game_id = table.start_game()
    fields = count_data(0, THREE_KINGS, hand1=ONE_FIVE_IN_HAND)
    fields["player0-sets-0-naturals"] = "three"
    page = table.client.post(f"/games/{game_id}/count", data=fields).get_data(as_text=True)
    invalid = re.findall(r'<input [^>]*aria-invalid="true"[^>]*name="([^"]+)"', page)
    assert invalid == ["player0-sets-0-naturals"]
    # A problem of the whole set (nine tens) marks all four of the set's inputs.
    page = count(table, game_id, 0, [("10", 9)], hand1=ONE_FIVE_IN_HAND).get_data(as_text=True)
    invalid = re.findall(r'<(?:input|select) [^>]*aria-invalid="true"[^>]*name="([^"]+)"', page)
    assert sorted(invalid) == [
        f"player0-sets-0-{name}" for name in ("naturals", "rank", "specials", "wild_twos")
    ]
    for label in ("rank", "cards of the rank", "2s used as wild cards"):
        assert f"Ben's set 3: {label}" in page


def test_cards_both_players_hold_together_are_named_at_the_top(table):
    game_id = table.start_game()
    response = count(table, game_id, 0, [("10", 5)], [("10", 4)], hand1=ONE_FIVE_IN_HAND)
    assert response.status_code == 422
    assert (
        "Ana's set 1 (tens) and Ben's set 1 (tens) hold 9 tens together, but two decks have only 8."
    ) in text_of(response.get_data(as_text=True))


def test_the_hand_of_the_player_who_went_out_must_be_empty(table):
    game_id = table.start_game()
    response = count(table, game_id, 0, THREE_KINGS, hand0={"aces": 1}, hand1=ONE_FIVE_IN_HAND)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert '<p class="error" id="player0-hand-error">' in page
    assert "Ana went out, so Ana&#39;s hand must be empty.</p>" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"went_out": ""}, "Choose the one player who went out."),
        ({"player0-sets-0-rank": ""}, "Choose the rank of this set."),
        ({"player0-sets-0-naturals": "three"}, "Enter a whole number of cards."),
        ({"player1-aces": "1.5"}, "Enter a whole number of cards."),
        ({"player0-sets-0-rank": "Z"}, "Choose a rank from the list."),
    ],
)
def test_count_form_refuses_what_is_not_a_count_of_cards(table, app, data, message):
    game_id = table.start_game()
    fields = count_data(0, THREE_KINGS, hand1=ONE_FIVE_IN_HAND) | data
    response = table.client.post(f"/games/{game_id}/count", data=fields)
    assert response.status_code == 422
    assert message in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 0


def test_rows_left_empty_between_sets_close_up_so_set_numbers_match_the_rows(table):
    game_id = table.start_game()
    data = count_data(0, hand1=ONE_FIVE_IN_HAND)
    data |= {"player0-sets-3-rank": "7", "player0-sets-3-naturals": "2"}
    page = table.client.post(f"/games/{game_id}/count", data=data).get_data(as_text=True)
    assert "Ana&#39;s set 1 (sevens): a set needs at least three cards." in page
    assert value_of(page, "player0-sets-0-naturals") == "2"


def test_sets_beyond_the_eighth_row_open_the_more_sets_part(table):
    game_id = table.start_game()
    ranks = ["3", "4", "5", "6", "7", "8", "9", "10", "J"]
    page = count(table, game_id, 0, [(rank, 3) for rank in ranks], hand1=ONE_FIVE_IN_HAND)
    page = page.get_data(as_text=True)
    assert value_of(page, "score0") == str((7 * 15 + 2 * 30) * 2)
    assert '<details class="more-sets" open>' in page


# --- Kept with the deal, shown, corrected --------------------------------------------


def test_counted_cards_are_kept_with_the_deal_and_shown_on_its_pages(table, app):
    game_id = table.start_game()
    page = count(table, game_id, 0, [("10", 8), *THREE_KINGS], hand1=ONE_FIVE_IN_HAND)
    assert save_counted(table, game_id, page.get_data(as_text=True)).status_code == 302
    cards = deal_of(app, game_id).cards
    assert cards["out"] == 0
    assert cards["players"][0]["sets"] == [
        {"rank": "10", "naturals": 8, "wild_twos": 0, "specials": 0},
        {"rank": "K", "naturals": 3, "wild_twos": 0, "specials": 0},
    ]
    assert cards["players"][1]["hand"]["threes_to_nines"] == 1
    row = re.search(r'<tr id="deal-1">.*?</tr>', table.page(game_id), re.S)[0]
    assert 'Counted: </span>8 tens<span aria-hidden="true">★</span>, 3 kings</span>' in row
    assert "Counted: </span>hand −5</span>" in row
    deal_page = table.client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    assert "Counted from the cards" in deal_page
    assert "8 tens, natural set, natural going out: 8 × 10 × 4 = 320" in deal_page
    assert json.loads(value_of(deal_page, "cards")) == cards


def test_saving_a_counted_deal_unchanged_keeps_its_cards(table, app):
    game_id = table.start_game()
    page = count(table, game_id, 0, THREE_KINGS, [("2", 8)], hand1=ONE_FIVE_IN_HAND)
    save_counted(table, game_id, page.get_data(as_text=True))
    deal_page = table.client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    assert save_counted(table, game_id, deal_page, number=1).status_code == 302
    assert deal_of(app, game_id).cards is not None


def test_correcting_a_counted_deal_by_typing_clears_its_cards(table, app):
    game_id = table.start_game()
    page = count(table, game_id, 0, THREE_KINGS, [("2", 8)], hand1=ONE_FIVE_IN_HAND)
    save_counted(table, game_id, page.get_data(as_text=True))
    typed = {"out": "0", "score0": "100", "score1": "50", "stars0": "0", "stars1": "0"}
    assert table.client.post(f"/games/{game_id}/deals/1", data=typed).status_code == 302
    assert deal_of(app, game_id).cards is None
    deal_page = table.client.get(f"/games/{game_id}/deals/1").get_data(as_text=True)
    assert "Counted from the cards" not in deal_page
    assert value_of(deal_page, "cards") == ""


def test_a_deal_can_be_counted_again_to_correct_it(table, app):
    game_id = table.start_game()
    page = count(table, game_id, 0, THREE_KINGS, [("2", 8)], hand1=ONE_FIVE_IN_HAND)
    save_counted(table, game_id, page.get_data(as_text=True))
    again = table.client.get(f"/games/{game_id}/deals/1/count").get_data(as_text=True)
    assert '<option selected value="K">' in again
    assert value_of(again, "player1-sets-0-naturals") == "8"
    assert value_of(again, "player1-threes_to_nines") == "1"
    response = count(table, game_id, 0, THREE_KINGS, [("2", 8)], number=1, hand1={"aces": 1})
    page = response.get_data(as_text=True)
    assert f'action="/games/{game_id}/deals/1"' in page
    assert value_of(page, "score1") == "305"
    assert save_counted(table, game_id, page, number=1).status_code == 302
    deal = deal_of(app, game_id)
    assert (deal.score1, deal.cards["players"][1]["hand"]["aces"]) == (305, 1)


# --- The hidden cards field is never trusted ---------------------------------------


def counted_cards_json(sets0, hand1, out=0):
    empty = {"queen_of_spades": 0, "jack_of_diamonds": 0, "twos": 0, "aces": 0}
    return json.dumps(
        {
            "out": out,
            "players": [
                {"sets": sets0, "hand": {}},
                {"sets": [], "hand": {**empty, **hand1}},
            ],
        }
    )


TEN_TENS = [{"rank": "10", "naturals": 10}]
EIGHT_TENS_AND_KINGS = [{"rank": "10", "naturals": 8}, {"rank": "K", "naturals": 3}]


@pytest.mark.parametrize(
    "cards",
    [
        # The numbers were changed after counting: these cards give 380, not 400.
        counted_cards_json(EIGHT_TENS_AND_KINGS, {"threes_to_nines": 1}),
        # Cards no two decks hold, however they would add up.
        counted_cards_json(TEN_TENS, {"threes_to_nines": 1}),
        # Cards that give the tally, but for the other player going out.
        counted_cards_json(EIGHT_TENS_AND_KINGS, {"threes_to_nines": 1}, out=1),
        "not JSON at all",
        '{"out": 0, "players": "everything"}',
        "[" * 5000,
    ],
)
def test_a_tampered_cards_field_is_not_trusted_and_the_typed_tally_wins(table, app, cards):
    game_id = table.start_game()
    response = table.record(game_id, 0, (400, -5), (2, 0), cards=cards)
    assert response.status_code == 302
    assert deal_of(app, game_id).cards is None
    follow = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "the counted cards were not kept" in follow


def test_cards_that_give_exactly_the_typed_tally_are_kept(table, app):
    cards = counted_cards_json(EIGHT_TENS_AND_KINGS, {"threes_to_nines": 1})
    game_id = table.start_game()
    assert table.record(game_id, 0, (380, -5), (2, 0), cards=cards).status_code == 302
    assert deal_of(app, game_id).cards["players"][0]["sets"][0]["naturals"] == 8


def test_cards_are_kept_in_their_own_shape_not_as_sent(table, app):
    cards = json.loads(counted_cards_json(EIGHT_TENS_AND_KINGS, {"threes_to_nines": 1}))
    cards["players"][0]["sets"][0]["rank"] = "10"
    cards["players"][1]["hand"] = {"threes_to_nines": 1.0}
    game_id = table.start_game()
    table.record(game_id, 0, (380, -5), (2, 0), cards=json.dumps(cards))
    kept = deal_of(app, game_id).cards
    assert kept["players"][1]["hand"] == {
        "queen_of_spades": 0,
        "jack_of_diamonds": 0,
        "twos": 0,
        "aces": 0,
        "tens_to_kings": 0,
        "threes_to_nines": 1,
    }


# --- Who may count, and when ---------------------------------------------------------


def test_counting_needs_a_scorekeeper(public, table, auth, client):
    game_id = table.start_game()
    anonymous = client.get(f"/games/{game_id}/count")
    assert anonymous.status_code == 302
    assert "/login" in anonymous.headers["Location"]
    viewer = auth.member("viewer")
    assert viewer.get(f"/games/{game_id}/count").status_code == 403
    assert viewer.post(f"/games/{game_id}/count", data=count_data(0)).status_code == 403
    assert auth.member("scorekeeper").get(f"/games/{game_id}/count").status_code == 200


def test_a_finished_game_counts_no_more_deals(table):
    game_id = table.start_game()
    table.record(game_id, 0, (1200, 0), confirm=True)
    response = table.client.get(f"/games/{game_id}/count")
    assert response.status_code == 302
    follow = table.client.get(response.headers["Location"]).get_data(as_text=True)
    assert "takes no more deals" in follow


def test_unknown_deals_have_nothing_to_count(table):
    game_id = table.start_game()
    assert table.client.get(f"/games/{game_id}/deals/1/count").status_code == 404
    assert table.client.get("/games/999/count").status_code == 404


def test_count_pages_use_no_inline_script_or_style(table):
    game_id = table.start_game()
    pages = [
        table.client.get(f"/games/{game_id}/count"),
        count(table, game_id, 0, THREE_KINGS, [("2", 8)], hand1=ONE_FIVE_IN_HAND),
        count(table, game_id, 0, [("10", 9)]),
    ]
    for response in pages:
        page = response.get_data(as_text=True)
        assert " style=" not in page
        assert "<script>" not in page


# --- Hostile input never fails ------------------------------------------------------

HOSTILE = st.one_of(
    st.sampled_from(["", " ", "0", "-1", "−3", "8", "10", "Q", "q", "1e9", "NaN", "3.5", "\x00"]),
    st.sampled_from(["99999999999999999999", "<script>", '{"out": 0}', "[" * 50]),
    st.text(max_size=20),
    st.integers(-(10**9), 10**9).map(str),
)
COUNT_FIELDS = [
    "went_out",
    "version",
    *(
        f"player{seat}-sets-{row}-{name}"
        for seat in (0, 1)
        for row in (0, 1, 7, 12, 13, 10**12)
        for name in ("rank", "naturals", "wild_twos", "specials")
    ),
    *(
        f"player{seat}-{name}"
        for seat in (0, 1)
        for name in ("queen_of_spades", "twos", "aces", "threes_to_nines")
    ),
]
FUZZ = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


@pytest.mark.slow
@FUZZ
@given(data=st.data())
def test_hostile_count_posts_never_fail_and_save_nothing(table, app, data):
    game_id = table.start_game()
    fields = data.draw(st.lists(st.sampled_from(COUNT_FIELDS), unique=True, max_size=12))
    form = {field: data.draw(HOSTILE) for field in fields}
    response = table.client.post(f"/games/{game_id}/count", data=form)
    # 400: a NUL character anywhere refuses the whole request (see test_safety.py).
    assert response.status_code in (200, 400, 422)
    with app.app_context():
        assert db.session.get(Game, game_id).deal_count == 0


@pytest.mark.slow
@FUZZ
@given(cards=HOSTILE | st.builds(json.dumps, st.dictionaries(st.text(max_size=8), HOSTILE)))
def test_hostile_cards_fields_never_fail_and_are_never_kept(table, app, cards):
    game_id = table.start_game()
    response = table.record(game_id, 0, (400, -5), (0, 0), cards=cards)
    if "\x00" in cards:  # a NUL character refuses the whole request, deal included
        assert response.status_code == 400
        with app.app_context():
            assert db.session.get(Game, game_id).deal_count == 0
        return
    assert response.status_code == 302
    assert deal_of(app, game_id).cards is None
