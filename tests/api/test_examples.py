"""RULES.md §5 through the JSON API: every worked example recorded deal by deal with
POST /games/<id>/deals, and every line of its settlement checked.

Examples 1–4 in the rules have totals real cards can't reach (1,252, 649, 1,236,
1,169 are not multiples of 5), and the API, like the pages, takes only valid
tallies. Each is recorded here with the nearest reachable totals that settle the
same way (1,255 for 1,252; 645 for 649; 1,235 and 1,170 for 1,236 and 1,169),
exactly as tests/engine/test_worked_examples.py does for its reachable twins.
"""

import pytest

A, B = 0, 1


def lines(game):
    return [(line["kind"], line["count"], line["amount"]) for line in game["settlement"]["lines"]]


# Examples 1–3: A has 2 stars and 1 chapeau, B 1 star and 1 chapeau (A 715, B 305).
OPENING = [
    (B, (-40, 165), (0, 1)),  # A's chapeau, B's star
    (A, (400, -60), (1, 0)),  # B's chapeau, A's first star
    (A, (355, 200), (1, 0)),  # A's second star
]


def test_example_one_1255_to_645_pays_19_dollars(api):
    game = api.start_game()
    game = api.play(game["id"], [*OPENING, (B, (250, 300), (0, 0)), (A, (290, 40), (0, 0))])

    assert game["status"] == "finished"
    assert (game["totals"], game["naturals"], game["chapeaux"]) == ([1255, 645], [2, 1], [1, 1])
    assert game["winner"] == A
    settlement = game["settlement"]
    assert (settlement["payer"], settlement["payee"]) == (B, A)
    assert settlement["rounded"] == [1300, 600]
    assert settlement["multiplier"] == 1
    assert lines(game) == [
        ("game", 1, "3.00"),
        ("difference", 7, "7.00"),
        ("naturals", 2, "6.00"),
        ("chapeaux", 1, "3.00"),
    ]
    assert settlement["total"] == "19.00"


def test_example_two_loser_650_rounds_up_to_700_and_pays_18_dollars(api):
    game = api.start_game()
    game = api.play(game["id"], [*OPENING, (B, (250, 300), (0, 0)), (A, (290, 45), (0, 0))])

    assert (game["totals"], game["winner"]) == ([1255, 650], A)
    assert game["settlement"]["rounded"] == [1300, 700]
    assert game["settlement"]["multiplier"] == 1
    assert lines(game) == [
        ("game", 1, "3.00"),
        ("difference", 6, "6.00"),
        ("naturals", 2, "6.00"),
        ("chapeaux", 1, "3.00"),
    ]
    assert game["settlement"]["total"] == "18.00"


def test_example_three_loser_590_is_skunked_and_pays_double_38_dollars(api):
    game = api.start_game()
    game = api.play(game["id"], [*OPENING, (B, (250, 245), (0, 0)), (A, (290, 40), (0, 0))])

    assert (game["totals"], game["winner"]) == ([1255, 590], A)
    settlement = game["settlement"]
    assert settlement["rounded"] == [1300, 600]
    assert settlement["multiplier"] == 2
    assert lines(game) == [  # amounts before the multiplier: $19
        ("game", 1, "3.00"),
        ("difference", 7, "7.00"),
        ("naturals", 2, "6.00"),
        ("chapeaux", 1, "3.00"),
    ]
    assert settlement["total"] == "38.00"


def test_example_four_both_totals_round_to_1200_so_only_the_game_is_paid(api):
    game = api.start_game()
    game = api.play(
        game["id"], [(A, (400, 300), (0, 0)), (B, (300, 350), (0, 0)), (A, (535, 520), (0, 0))]
    )

    assert (game["totals"], game["winner"]) == ([1235, 1170], A)
    assert game["settlement"]["rounded"] == [1200, 1200]
    assert lines(game) == [("game", 1, "3.00")]
    assert game["settlement"]["total"] == "3.00"


@pytest.mark.parametrize(
    ("stars", "naturals_line", "total"),
    [(2, ("naturals", 4, "30.00"), "66.00"), (3, ("naturals", 5, "45.00"), "81.00")],
)
def test_example_five_progressive_game_to_2000(api, stars, naturals_line, total):
    game = api.start_game(preset="progressive")
    assert game["rules"] == {
        "target": 2000,
        "progressive": True,
        "natural_needed": False,
        "skunk": "mark",
        "difference": "round",
    }
    game = api.play(
        game["id"],
        [
            (A, (500, -20), (1, 0)),
            (A, (450, -35), (1, 0)),
            (B, (200, 400), (0, 0)),
            (A, (300, -10), (stars, 0)),
            (B, (650, 525), (0, 0)),
        ],
    )

    assert (game["totals"], game["chapeaux"], game["winner"]) == ([2100, 860], [0, 3], A)
    assert game["settlement"]["rounded"] == [2100, 900]
    assert game["settlement"]["multiplier"] == 1  # the progressive preset marks the skunk
    assert lines(game) == [
        ("game", 1, "3.00"),
        ("difference", 12, "12.00"),
        naturals_line,
        ("chapeaux", 3, "18.00"),
        ("skunk", 1, "3.00"),
    ]
    assert game["settlement"]["total"] == total


WIKIPEDIA_TOTALS = [
    [140, 350],
    [430, 510],
    [650, 590],
    [800, 540],
    [940, 840],
    [1150, 1030],
    [1275, 1180],
]


@pytest.mark.parametrize(
    ("preset", "rules", "rounded"),
    [
        ("standard", None, [1300, 1200]),
        ("marks", None, [1275, 1180]),  # the ceil rule pays on the raw totals
        ("standard", {"skunk": "mark"}, [1300, 1200]),
        ("standard", {"difference": "ceil"}, [1275, 1180]),
    ],
)
def test_example_six_the_wikipedia_card_deal_by_deal_pays_10_dollars(
    api, wikipedia_card, preset, rules, rounded
):
    fields = {"preset": preset} | ({"rules": rules} if rules else {})
    game = api.start_game(**fields)
    for number, (out, scores, stars) in enumerate(wikipedia_card, start=1):
        response = api.deal(game["id"], out, scores, stars, version=game["version"])
        assert response.status_code == 201
        game = response.get_json()
        deal = game["deals"][-1]
        assert deal["number"] == number
        assert deal["totals"] == WIKIPEDIA_TOTALS[number - 1]
        assert deal["chapeau"] == [False, number == 4]  # only B's 540 is circled
        assert deal["naturals"] == list(stars)
        assert game["totals"] == WIKIPEDIA_TOTALS[number - 1]
        assert game["status"] == ("finished" if number == 7 else "in_progress")
        assert game["next_dealer"] == number % 2  # A dealt first
        if number < 7:
            assert (game["winner"], game["settlement"]) == (None, None)

    assert [deal["scores"] for deal in game["deals"]] == [list(s) for _, s, _ in wikipedia_card]
    assert (game["naturals"], game["chapeaux"], game["winner"]) == ([1, 1], [0, 1], A)
    settlement = game["settlement"]
    assert (settlement["payer"], settlement["payee"], settlement["multiplier"]) == (B, A, 1)
    assert settlement["rounded"] == rounded
    assert lines(game) == [
        ("game", 1, "3.00"),
        ("difference", 1, "1.00"),
        ("naturals", 1, "3.00"),
        ("chapeaux", 1, "3.00"),
    ]
    assert settlement["total"] == "10.00"
    assert api.get(f"/api/v1/games/{game['id']}").get_json() == game
