"""Knock Rummy, or Poker Rum (RULES-MORE-GAMES.md §5)."""

import pytest

from scorekeeper.engine.games import kind_named
from scorekeeper.engine.money import format_money
from tests.engine.games_support import (
    entry_round_trips,
    paid,
    play,
    refused,
    setup_of,
    setup_refused,
)

KNOCK = kind_named("knock-rummy")
THREE = setup_of("knock-rummy", 3, {"point": 10})  # $0.10 a point


def winner(knocker: int, counts: list[int]) -> int | None:
    setup = setup_of("knock-rummy", len(counts), {"point": 10})
    return play("knock-rummy", setup, [{"knocker": knocker, "counts": counts}]).lines[0].winner


def test_worked_example_2_a_player_who_ties_the_knocker_wins_and_the_knocker_pays_the_penalty() -> (
    None
):
    sitting = play("knock-rummy", THREE, [{"knocker": 0, "counts": [6, 6, 14]}])
    assert sitting.lines[0].winner == 1
    assert paid(sitting) == [(0, 1, 100, "knock_penalty"), (2, 1, 80, "count")]
    assert sitting.balances == (-100, 180, -80)


def test_the_api_example_comes_out_exactly() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 0, "counts": [6, 6, 14]}], first_dealer=1)
    payments = [
        {"from": p.payer, "to": p.payee, "amount": format_money(p.amount), "reason": str(p.reason)}
        for p in sitting.lines[0].payments
    ]
    assert payments == [
        {"from": 0, "to": 1, "amount": "1.00", "reason": "knock_penalty"},
        {"from": 2, "to": 1, "amount": "0.80", "reason": "count"},
    ]
    assert [format_money(b) for b in sitting.balances] == ["-1.00", "1.80", "-0.80"]
    assert sitting.next_dealer == 2


def test_worked_example_3_a_knocker_who_goes_rummy_gets_25_points_more_from_every_other() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 0, "counts": [0, 12, 30]}])
    assert paid(sitting) == [
        (1, 0, 120, "count"),
        (1, 0, 250, "rummy_bonus"),
        (2, 0, 300, "count"),
        (2, 0, 250, "rummy_bonus"),
    ]
    assert sitting.balances == (920, -370, -550)


def test_a_knocker_with_the_lowest_count_alone_wins_and_is_paid_the_differences() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 2, "counts": [9, 20, 4]}])
    assert sitting.lines[0].winner == 2
    assert paid(sitting) == [(0, 2, 50, "count"), (1, 2, 160, "count")]


def test_a_knocker_who_does_not_win_pays_the_difference_and_the_penalty_in_two_lines() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 0, "counts": [8, 3, 3]}])
    assert sitting.lines[0].winner == 1
    assert paid(sitting) == [(0, 1, 50, "count"), (0, 1, 100, "knock_penalty")]


def test_a_knocker_at_0_tied_by_another_at_0_loses_the_penalty_and_gets_no_bonus() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 1, "counts": [5, 0, 0]}])
    assert sitting.lines[0].winner == 2
    assert paid(sitting) == [(0, 2, 50, "count"), (1, 2, 100, "knock_penalty")]


@pytest.mark.parametrize(
    ("knocker", "counts", "expected"),
    [
        (0, [6, 6, 14], 1),
        (0, [5, 6, 14], 0),
        (1, [9, 2, 5], 1),  # the knocker alone lowest
        (0, [9, 2, 5], 1),  # another alone lowest
        (1, [4, 9, 4, 4], 2),  # several others tie: the first in turn after the knocker
        (2, [3, 7, 9, 3], 3),  # ... seat 3 comes before seat 0 after seat 2
        (3, [4, 4, 9, 9], 0),  # ... round the table
        (2, [4, 4, 4, 9], 0),  # the knocker ties two others: the first of them after it
        (2, [4, 4, 4, 4], 3),  # the knocker ties too: still the first after the knocker
        (5, [0, 0, 0, 0, 0, 0], 0),
    ],
)
def test_who_wins_a_knock(knocker: int, counts: list[int], expected: int) -> None:
    assert winner(knocker, counts) == expected


def test_the_entry_is_the_body() -> None:
    entry = KNOCK.read_deal(THREE, {"knocker": 0, "counts": [6, 6, 14]})
    assert entry == {"knocker": 0, "counts": [6, 6, 14]}
    entry_round_trips(KNOCK, THREE, entry)


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"counts": [6, 6, 14]}, {"knocker": "field.missing"}),
        ({"knocker": 3, "counts": [6, 6, 14]}, {"knocker": "seat.range"}),
        ({"knocker": 0, "counts": [6, 6]}, {"counts": "list.length"}),
        ({"knocker": 0, "counts": [6, 71, 14]}, {"counts.1": "count.range"}),
        ({"knocker": 0, "counts": [6, 6, 14], "out": 1}, {"out": "field.unknown"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_naming_each_field(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(KNOCK, THREE, body) == fields


def test_counts_go_up_to_ten_times_the_cards_dealt() -> None:
    two = setup_of("knock-rummy", 2, {"point": 10})
    assert KNOCK.read_deal(two, {"knocker": 0, "counts": [100, 0]})
    assert refused(KNOCK, two, {"knocker": 0, "counts": [101, 0]}) == {"counts.0": "count.range"}


@pytest.mark.parametrize("players", [1, 7])
def test_knock_rummy_takes_two_to_six_players(players: int) -> None:
    assert setup_refused(KNOCK, players, {"point": 10}) == {"players": "players.range"}


def test_only_a_knocker_who_goes_rummy_and_wins_gets_the_bonus() -> None:
    sitting = play("knock-rummy", THREE, [{"knocker": 0, "counts": [5, 0, 9]}])
    assert sitting.lines[0].winner == 1
    assert paid(sitting) == [(0, 1, 50, "count"), (0, 1, 100, "knock_penalty"), (2, 1, 90, "count")]
