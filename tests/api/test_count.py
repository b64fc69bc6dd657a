"""POST /api/v1/count: both deal scores and stars from the cards, as JSON, and its errors."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

THREE_KINGS = [{"rank": "K", "naturals": 3}]
ONE_FIVE = {"threes_to_nines": 1}


def body(out, sets0=(), sets1=(), hand0=None, hand1=None, **extra):
    return {
        "out": out,
        "players": [
            {"sets": list(sets0), "hand": hand0 or {}},
            {"sets": list(sets1), "hand": hand1 or {}},
        ],
        **extra,
    }


def count(client, data):
    return client.post("/api/v1/count", json=data)


def assert_json_error(response, status):
    assert response.status_code == status
    assert response.is_json
    error = response.get_json()
    assert isinstance(error["error"], str)
    assert error["error"].endswith(".")
    return error


# --- The examples ------------------------------------------------------


def test_eight_twos_count_320_and_give_a_star(client):
    response = count(client, body(0, THREE_KINGS, [{"rank": "2", "naturals": 8}], hand1=ONE_FIVE))
    assert response.status_code == 200
    result = response.get_json()
    assert result["breakdown"][1] == [
        {
            "rank": "2",
            "cards": 8,
            "factor": 2,
            "points": 320,
            "natural_set": True,
            "description": "8 twos, natural set: 8 × 20 × 2 = 320",
        }
    ]
    assert (result["scores"], result["naturals"]) == ([60, 315], [1, 1])
    assert result["hand_points"] == [0, 5]


def test_eight_queens_with_both_queens_of_spades_count_520(client):
    queens = [{"rank": "Q", "naturals": 8, "specials": 2}]
    result = count(client, body(0, THREE_KINGS, queens, hand1=ONE_FIVE)).get_json()
    assert result["breakdown"][1][0]["points"] == 520
    assert result["breakdown"][1][0]["description"] == (
        "8 queens (2 Q♠), natural set: (2 × 100 + 6 × 10) × 2 = 520"
    )
    assert result["scores"] == [60, 515]


def test_a_natural_going_out_with_eight_tens_and_three_kings_is_380_and_two_stars(client):
    sets = [{"rank": "10", "naturals": 8}, *THREE_KINGS]
    result = count(client, body(0, sets, hand1=ONE_FIVE)).get_json()
    assert result == {
        "out": 0,
        "scores": [380, -5],
        "naturals": [2, 0],
        "chapeau": [False, True],
        "natural_going_out": True,
        "breakdown": [
            [
                {
                    "rank": "10",
                    "cards": 8,
                    "factor": 4,
                    "points": 320,
                    "natural_set": True,
                    "description": "8 tens, natural set, natural going out: 8 × 10 × 4 = 320",
                },
                {
                    "rank": "K",
                    "cards": 3,
                    "factor": 2,
                    "points": 60,
                    "natural_set": False,
                    "description": "3 kings, natural going out: 3 × 10 × 2 = 60",
                },
            ],
            [],
        ],
        "table_points": [380, 0],
        "hand_points": [0, 5],
    }


def test_staying_in_with_a_natural_set_and_a_heavy_hand_is_a_chapeau(client):
    heavy = {"queen_of_spades": 2, "jack_of_diamonds": 2, "aces": 3}
    fives = [{"rank": "5", "naturals": 8, "wild_twos": 0, "specials": 0}]
    result = count(client, body(0, THREE_KINGS, fives, hand1=heavy)).get_json()
    assert result["scores"] == [60, 80 - 345]
    assert result["chapeau"] == [False, True]
    assert result["naturals"] == [1, 1]
    assert result["hand_points"] == [0, 345]


def test_wild_twos_spoil_a_natural_going_out(client):
    sets = [{"rank": "9", "naturals": 2, "wild_twos": 1}]
    result = count(client, body(1, [], sets, hand0={"aces": 1})).get_json()
    assert result["natural_going_out"] is False
    assert result["scores"] == [-15, 30]
    assert result["breakdown"][1][0]["description"] == "3 nines (1 wild two): 2 × 5 + 1 × 20 = 30"


def test_ranks_may_be_lower_case_or_numbers(client):
    sets = [{"rank": "k", "naturals": 3}, {"rank": 7, "naturals": 3}]
    result = count(client, body(0, sets, hand1=ONE_FIVE)).get_json()
    assert [line["rank"] for line in result["breakdown"][0]] == ["K", "7"]


# --- Errors --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "content_type"),
    [
        ("out=0", "application/x-www-form-urlencoded"),
        ('{"out": 0}', "text/plain"),
        ('{"out": 0,', "application/json"),
        ("[1, 2]", "application/json"),
        ("null", "application/json"),
        ('"text"', "application/json"),
        (b"\xff\xfe\xfa", "application/json"),
        ("[" * 60_000, "application/json"),  # nested past any recursion limit, under MAX_BODY
    ],
)
def test_a_body_that_is_not_a_json_object_is_a_400(client, data, content_type):
    response = client.post("/api/v1/count", data=data, content_type=content_type)
    error = assert_json_error(response, 400)
    assert "fields" not in error


def test_impossible_cards_are_a_422_naming_the_set(client):
    tens = [{"rank": "10", "naturals": 9}]
    response = count(client, body(0, tens, hand1=ONE_FIVE, names=["Ana", "Ben"]))
    error = assert_json_error(response, 422)
    assert error["fields"] == {
        "players.0.sets.0": ["Ana's set 1 (tens): 9 tens, but two decks have only 8."]
    }


def test_every_impossible_thing_is_reported_at_once(client):
    sets0 = [*THREE_KINGS, {"rank": "4", "naturals": 2}]
    response = count(client, body(0, sets0, hand0={"aces": 1}))
    fields = assert_json_error(response, 422)["fields"]
    assert fields["players.0.sets.1"] == [
        "Player 1's set 2 (fours): a set needs at least three cards."
    ]
    assert "Player 1 went out, so Player 1's hand must be empty." in fields["players.0.hand"]
    assert "Player 2 stayed in" in fields["players.1.hand"][0]


def test_cards_both_players_hold_together_are_keyed_by_players(client):
    response = count(
        client,
        body(0, [{"rank": "A", "naturals": 5}], [{"rank": "A", "naturals": 4}], hand1=ONE_FIVE),
    )
    fields = assert_json_error(response, 422)["fields"]
    assert list(fields) == ["players"]


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"out": 2}, "out", "out must be 0 or 1"),
        ({"out": True}, "out", "out must be 0 or 1"),
        ({"players": []}, "players", "players must be a list of both players' cards."),
        ({"players": "all"}, "players", "players must be a list"),
        ({"players": [1, {}]}, "players.0", "Player 1's cards must be an object"),
        ({"players": [{"sets": {}}, {}]}, "players.0.sets", "Player 1's sets must be a list."),
        (
            {"players": [{"sets": [{"rank": "2", "naturals": 3}] * 14}, {}]},
            "players.0.sets",
            "at most 13 sets",
        ),
        (
            {"players": [{"sets": [{"rank": "Z", "naturals": 3}]}, {}]},
            "players.0.sets.0",
            "Player 1's set 1: rank must be one of 2, 3, 4",
        ),
        (
            {"players": [{}, {"sets": [{"rank": "10", "naturals": "eight"}]}]},
            "players.1.sets.0",
            "Player 2's set 1: naturals must be a whole number from 0 to 104.",
        ),
        (
            {"players": [{}, {"sets": [{"rank": "10"}]}]},
            "players.1.sets.0",
            "naturals must be a whole number",
        ),
        (
            {"players": [{}, {"sets": [{"rank": "10", "naturals": 3, "wild": 1}]}]},
            "players.1.sets.0",
            '"wild" is not a field here.',
        ),
        (
            {"players": [{}, {"hand": {"aces": -1}}]},
            "players.1.hand",
            "Player 2's hand: aces must be a whole number from 0 to 104.",
        ),
        ({"players": [{}, {"hand": {"aces": 10**50}}]}, "players.1.hand", "from 0 to 104"),
        ({"players": [{}, {"hand": []}]}, "players.1.hand", "must be an object of counts"),
        ({"players": [{}, {"cards": []}]}, "players.1", '"cards" is not a field here.'),
        ({"version": 3}, "version", '"version" is not a field of a count.'),
        ({"names": ["Ana"]}, "names", "names must be a list of two names"),
        ({"names": ["Ana", "   "]}, "names", "names must be a list of two names"),
    ],
)
def test_bad_types_are_a_422_keyed_by_where_they_are(client, data, field, message):
    request = body(0, THREE_KINGS, hand1=ONE_FIVE) | data
    error = assert_json_error(count(client, request), 422)
    assert any(message in text for text in error["fields"][field]), error


def test_unknown_addresses_and_methods_answer_json(client):
    error = assert_json_error(client.get("/api/v1/nothing-here"), 404)
    assert error == {"error": "There is nothing at this address."}
    response = client.get("/api/v1/count")
    assert_json_error(response, 405)
    assert "POST" in response.headers["Allow"]
    assert_json_error(client.put("/api/v1/count", json={}), 405)


def test_the_api_needs_no_csrf_token(make_app):
    client = make_app(WTF_CSRF_ENABLED=True).test_client()
    response = count(client, body(0, THREE_KINGS, hand1=ONE_FIVE))
    assert response.status_code == 200


def test_the_pages_still_answer_html_errors(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert not response.is_json


# --- Never a 500 -----------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(max_size=5)
    | st.sampled_from(["2", "10", "q", "K", "A", "queen_of_spades", "sets", "hand"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["out", "players", "sets", "hand", "rank", "naturals", "names", "x"]),
            children,
            max_size=4,
        )
    ),
    max_leaves=20,
)
COUNTS = st.integers(-2, 12) | st.sampled_from([None, "3", 2.0, 2.5, True, 10**20, [], {}])
CARD_SETS = st.fixed_dictionaries(
    {"rank": st.sampled_from([*"23456789JQKA", "10", "q", 7, "1", None, ""])},
    optional={"naturals": COUNTS, "wild_twos": COUNTS, "specials": COUNTS, "junk": COUNTS},
)
HANDS = st.dictionaries(
    st.sampled_from(
        ["queen_of_spades", "jack_of_diamonds", "twos", "aces", "tens_to_kings", "threes_to_nines"]
    ),
    COUNTS,
)
PLAYERS = st.fixed_dictionaries(
    {}, optional={"sets": st.lists(CARD_SETS, max_size=5), "hand": HANDS}
)
NEARLY_RIGHT = st.fixed_dictionaries(
    {
        "out": st.sampled_from([0, 1, 2, None, "0"]),
        "players": st.lists(PLAYERS, min_size=1, max_size=3),
    },
    optional={"names": st.lists(st.text(max_size=45), max_size=3)},
)
NO_FIXTURE_RESET = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def assert_answered(response):
    assert response.status_code in (200, 400, 422), response.get_data(as_text=True)
    answer = response.get_json()
    if response.status_code == 200:
        assert len(answer["scores"]) == 2
        assert all(score % 5 == 0 for score in answer["scores"])
    else:
        assert isinstance(answer["error"], str)
        for field, messages in answer.get("fields", {}).items():
            assert isinstance(field, str)
            assert messages
            assert all(isinstance(message, str) for message in messages)


@pytest.mark.slow
@NO_FIXTURE_RESET
@given(data=JSON_VALUES)
def test_any_json_gets_an_answer_never_a_500(client, data):
    assert_answered(client.post("/api/v1/count", json=data))


@pytest.mark.slow
@NO_FIXTURE_RESET
@given(data=NEARLY_RIGHT)
def test_nearly_right_counts_get_an_answer_never_a_500(client, data):
    assert_answered(client.post("/api/v1/count", json=data))


@pytest.mark.slow
@NO_FIXTURE_RESET
@given(raw=st.binary(max_size=60) | st.text(max_size=60).map(str.encode))
def test_any_bytes_get_an_answer_never_a_500(client, raw):
    response = client.post("/api/v1/count", data=raw, content_type="application/json")
    assert_answered(response)


def test_a_result_is_valid_json_with_plain_numbers(client):
    response = count(client, body(1, [], THREE_KINGS, hand0={"twos": 2}))
    assert json.loads(response.get_data(as_text=True))["scores"] == [-40, 60]
