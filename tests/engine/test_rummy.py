"""Rummy, the parent game (RULES-MORE-GAMES.md §1 and §0), and what every sitting shares."""

import pytest

from scorekeeper.engine.games import Reason, Transfer, kind_named
from scorekeeper.engine.rules import MAX_STAKE
from tests.engine.games_support import (
    entry_round_trips,
    paid,
    play,
    problems_of,
    refused,
    setup_of,
    setup_refused,
)

RUMMY = kind_named("rummy")
THREE = setup_of("rummy", 3, {"point": 5})  # $0.05 a point


def test_worked_example_1_each_other_player_pays_their_count() -> None:
    sitting = play("rummy", THREE, [{"out": 1, "counts": [23, 0, 7]}])
    assert paid(sitting) == [(0, 1, 115, "count"), (2, 1, 35, "count")]
    assert sitting.balances == (-115, 150, -35)
    assert sitting.lines[0].winner == 1


def test_worked_example_1_with_rummy_every_payment_is_doubled_by_a_line_of_its_own() -> None:
    sitting = play("rummy", THREE, [{"out": 1, "counts": [23, 0, 7], "rummy": True}])
    assert paid(sitting) == [
        (0, 1, 115, "count"),
        (0, 1, 115, "rummy"),
        (2, 1, 35, "count"),
        (2, 1, 35, "rummy"),
    ]
    assert sitting.balances == (-230, 300, -70)


def test_the_entry_is_the_body_with_rummy_false_filled_in() -> None:
    entry = RUMMY.read_deal(THREE, {"out": 1, "counts": [23, 0, 7]})
    assert entry == {"out": 1, "counts": [23, 0, 7], "rummy": False}
    entry_round_trips(RUMMY, THREE, entry)


def test_rummy_null_is_rummy_left_out() -> None:
    entry = RUMMY.read_deal(THREE, {"out": 1, "counts": [23, 0, 7], "rummy": None})
    assert entry["rummy"] is False


def test_whole_numbers_written_as_floats_are_read_as_ints() -> None:
    entry = RUMMY.read_deal(THREE, {"out": 1.0, "counts": [23.0, 0, 7]})
    assert entry == {"out": 1, "counts": [23, 0, 7], "rummy": False}
    assert all(type(count) is int for count in entry["counts"])  # type: ignore[attr-defined]


def test_a_count_of_zero_pays_nothing_and_has_no_line() -> None:
    sitting = play("rummy", THREE, [{"out": 0, "counts": [0, 0, 12]}])
    assert paid(sitting) == [(2, 0, 60, "count")]


# --- players and cards dealt ----------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 7, 0, True, 2.5])
def test_rummy_takes_two_to_six_players(players: object) -> None:
    assert setup_refused(RUMMY, players, {"point": 5}) == {"players": "players.range"}  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "highest"), [(2, 100), (3, 70), (4, 70), (5, 60), (6, 60)])
def test_a_count_goes_up_to_ten_times_the_cards_dealt(players: int, highest: int) -> None:
    setup = setup_of("rummy", players, {"point": 5})
    counts = [0] + [highest] * (players - 1)
    assert RUMMY.read_deal(setup, {"out": 0, "counts": counts})["counts"] == counts
    counts[-1] = highest + 1
    field = f"counts.{players - 1}"
    assert refused(RUMMY, setup, {"out": 0, "counts": counts}) == {field: "count.range"}


def test_a_count_out_of_range_names_its_bounds() -> None:
    (problem,) = problems_of(RUMMY, THREE, {"out": 0, "counts": [0, -1, 5]})
    assert (problem.field, problem.code, dict(problem.params)) == (
        "counts.1",
        "count.range",
        {"low": 0, "high": 70},
    )


# --- what a deal's body may hold ------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"out": 1, "counts": [23, 5, 7]}, {"counts.1": "count.out_not_zero"}),
        ({"counts": [23, 0, 7]}, {"out": "field.missing"}),
        ({"out": None, "counts": [23, 0, 7]}, {"out": "field.missing"}),
        ({"out": 3, "counts": [23, 0, 7]}, {"out": "seat.range"}),
        ({"out": "1", "counts": [23, 0, 7]}, {"out": "seat.range"}),
        ({"out": True, "counts": [23, 0, 7]}, {"out": "seat.range"}),
        ({"out": 1}, {"counts": "field.missing"}),
        ({"out": 1, "counts": [23, 0]}, {"counts": "list.length"}),
        ({"out": 1, "counts": "23,0,7"}, {"counts": "list.length"}),
        ({"out": 1, "counts": [23, 0, 7.5]}, {"counts.2": "field.not_whole"}),
        ({"out": 1, "counts": [23, 0, None]}, {"counts.2": "field.missing"}),
        ({"out": 1, "counts": [23, 0, 7], "rummy": "yes"}, {"rummy": "field.not_bool"}),
        ({"out": 1, "counts": [23, 0, 7], "jokers": 1}, {"jokers": "field.unknown"}),
        ({"out": 9, "counts": [80, 0, 7, 1]}, {"out": "seat.range", "counts": "list.length"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_naming_each_field(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(RUMMY, THREE, body) == fields


def test_a_seat_out_of_range_names_the_highest_seat() -> None:
    (problem,) = problems_of(RUMMY, THREE, {"out": 3, "counts": [23, 0, 7]})
    assert dict(problem.params) == {"high": 2}


# --- the setup ------------------------------------------------------------------------------


def test_the_setup_has_no_rules_and_the_point_in_cents() -> None:
    assert (THREE.players, dict(THREE.rules), dict(THREE.stakes)) == (3, {}, {"point": 5})


@pytest.mark.parametrize(
    ("stakes", "rules", "fields"),
    [
        ({}, {}, {"stakes.point": "field.missing"}),
        ({"point": None}, {}, {"stakes.point": "field.missing"}),
        ({"point": 0}, {}, {"stakes.point": "stake.range"}),
        ({"point": -5}, {}, {"stakes.point": "stake.range"}),
        ({"point": MAX_STAKE + 1}, {}, {"stakes.point": "stake.range"}),
        ({"point": "0.05"}, {}, {"stakes.point": "field.not_whole"}),
        ({"point": True}, {}, {"stakes.point": "field.not_whole"}),
        ({"point": 5, "unit": 5}, {}, {"stakes.unit": "field.unknown"}),
        ({"point": 5}, {"target": 100}, {"rules.target": "field.unknown"}),
    ],
)
def test_a_setup_that_breaks_a_rule_is_refused_naming_the_field(
    stakes: dict[str, object], rules: dict[str, object], fields: dict[str, str]
) -> None:
    assert setup_refused(RUMMY, 3, stakes, rules) == fields


def test_a_stake_may_be_as_much_as_the_engine_allows() -> None:
    assert setup_of("rummy", 2, {"point": MAX_STAKE}).stakes["point"] == MAX_STAKE


# --- dealing, ending, settling --------------------------------------------------------------


def test_the_deal_passes_to_the_next_seat_round_the_table() -> None:
    body = {"out": 0, "counts": [0, 1, 1]}
    sitting = play("rummy", THREE, [body] * 4, first_dealer=2)
    assert [line.dealer for line in sitting.lines] == [2, 0, 1, 2]
    assert sitting.next_dealer == 0
    assert play("rummy", THREE, [], first_dealer=1).next_dealer == 1


def test_deleting_a_deal_moves_the_later_deals_dealers_with_their_numbers() -> None:
    bodies = [
        {"out": seat, "counts": [0 if s == seat else 10 for s in range(3)]} for seat in range(3)
    ]
    after = play("rummy", THREE, bodies[:1] + bodies[2:])
    assert [(line.number, line.dealer, line.winner) for line in after.lines] == [
        (1, 0, 0),
        (2, 1, 2),
    ]


def test_a_first_dealer_who_is_not_a_seat_is_an_error() -> None:
    with pytest.raises(ValueError, match="first dealer"):
        RUMMY.replay(THREE, 3, [], ended=False)


def test_a_sitting_goes_on_until_the_scorekeeper_ends_it() -> None:
    bodies = [{"out": 1, "counts": [23, 0, 7]}, {"out": 0, "counts": [0, 10, 40]}]
    going_on = play("rummy", THREE, bodies)
    assert not going_on.finished
    assert going_on.settlement is None
    assert going_on.winners is None
    assert going_on.totals is None
    assert going_on.pool is None
    ended = play("rummy", THREE, bodies, ended=True)
    assert ended.finished
    assert ended.closing == ()
    assert ended.balances == going_on.balances == (135, 100, -235)
    assert ended.settlement == (Transfer(2, 0, 135), Transfer(2, 1, 100))
    assert ended.deals_won(0) == ended.deals_won(1) == 1


def test_an_ended_sitting_is_settled_with_the_fewest_payments() -> None:
    bodies = [{"out": 1, "counts": [20, 0, 20]}, {"out": 0, "counts": [0, 20, 20]}]
    ended = play("rummy", THREE, bodies, ended=True)
    assert ended.balances == (100, 100, -200)
    assert ended.settlement == (Transfer(2, 0, 100), Transfer(2, 1, 100))


def test_an_ended_sitting_with_no_deal_owes_nothing() -> None:
    ended = play("rummy", THREE, [], ended=True)
    assert ended.finished
    assert ended.settlement == ()
    assert ended.balances == (0, 0, 0)


def test_each_line_keeps_the_balances_so_far() -> None:
    bodies = [{"out": 1, "counts": [23, 0, 7]}, {"out": 0, "counts": [0, 10, 40]}]
    sitting = play("rummy", THREE, bodies)
    assert [line.balances for line in sitting.lines] == [(-115, 150, -35), (135, 100, -235)]
    assert all(line.pool is None and line.scores is None for line in sitting.lines)
    assert sitting.sides == ((0,), (1,), (2,))


def test_the_reasons_are_the_apis_words() -> None:
    assert Reason.COUNT == "count"
    assert Reason.RUMMY == "rummy"


# --- warnings ---------------------------------------------------------------------------


def test_a_count_near_every_card_a_court_card_is_worth_a_second_look() -> None:
    entry = RUMMY.read_deal(THREE, {"out": 1, "counts": [57, 0, 56]})
    (warning,) = RUMMY.warnings(THREE, entry)
    assert (warning.field, warning.code, dict(warning.params)) == (
        "counts.0",
        "warning.high_count",
        {"count": 57, "usual": 56},
    )


def test_correcting_a_deal_of_an_ended_sitting_keeps_it_ended_and_settles_it_again() -> None:
    first, second = {"out": 1, "counts": [23, 0, 7]}, {"out": 0, "counts": [0, 10, 40]}
    ended = play("rummy", THREE, [first, second], ended=True)
    corrected = play("rummy", THREE, [first, {"out": 2, "counts": [10, 10, 0]}], ended=True)
    assert corrected.finished
    assert corrected.balances == (-165, 100, 65)
    assert corrected.settlement == (Transfer(0, 1, 100), Transfer(0, 2, 65))
    assert corrected.settlement != ended.settlement
