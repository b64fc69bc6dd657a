"""Continental Rummy (RULES-MORE-GAMES.md §3)."""

import pytest

from scorekeeper.engine.games import kind_named
from tests.engine.games_support import (
    entry_round_trips,
    paid,
    play,
    refused,
    setup_of,
    setup_refused,
)

CONTINENTAL = kind_named("continental-rummy")
FIVE = setup_of("continental-rummy", 5, {"unit": 25})


def test_worked_example_4_each_of_the_four_others_pays_a_unit_and_two_for_each_joker() -> None:
    sitting = play("continental-rummy", FIVE, [{"out": 3, "jokers": 2}])
    assert paid(sitting) == [
        line for seat in (0, 1, 2, 4) for line in ((seat, 3, 25, "unit"), (seat, 3, 100, "joker"))
    ]
    assert sitting.balances == (-125, -125, -125, 500, -125)
    assert sitting.lines[0].winner == 3


def test_no_joker_line_without_a_joker() -> None:
    sitting = play("continental-rummy", FIVE, [{"out": 0, "jokers": 0}])
    assert paid(sitting) == [(seat, 0, 25, "unit") for seat in (1, 2, 3, 4)]


def test_the_entry_is_the_body() -> None:
    entry = CONTINENTAL.read_deal(FIVE, {"out": 3, "jokers": 2})
    assert entry == {"out": 3, "jokers": 2}
    entry_round_trips(CONTINENTAL, FIVE, entry)


@pytest.mark.parametrize(("players", "jokers"), [(2, 2), (5, 2), (6, 3), (8, 3), (9, 4), (12, 4)])
def test_the_jokers_go_up_to_those_in_play(players: int, jokers: int) -> None:
    setup = setup_of("continental-rummy", players, {"unit": 25})
    assert CONTINENTAL.read_deal(setup, {"out": 0, "jokers": jokers})["jokers"] == jokers
    assert refused(CONTINENTAL, setup, {"out": 0, "jokers": jokers + 1}) == {
        "jokers": "jokers.range"
    }


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"out": 3}, {"jokers": "field.missing"}),
        ({"jokers": 1}, {"out": "field.missing"}),
        ({"out": 5, "jokers": -1}, {"out": "seat.range", "jokers": "jokers.range"}),
        ({"out": 0, "jokers": "two"}, {"jokers": "field.not_whole"}),
        ({"out": 0, "jokers": 0, "counts": [0, 1, 2, 3, 4]}, {"counts": "field.unknown"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_naming_each_field(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(CONTINENTAL, FIVE, body) == fields


@pytest.mark.parametrize("players", [1, 13])
def test_continental_takes_two_to_twelve_players(players: int) -> None:
    assert setup_refused(CONTINENTAL, players, {"unit": 25}) == {"players": "players.range"}


def test_the_stake_is_the_unit() -> None:
    assert setup_refused(CONTINENTAL, 5, {"point": 25}) == {
        "stakes.point": "field.unknown",
        "stakes.unit": "field.missing",
    }


def test_a_win_with_every_joker_in_play_is_worth_a_second_look() -> None:
    entry = CONTINENTAL.read_deal(FIVE, {"out": 3, "jokers": 2})
    assert [(w.field, w.code, dict(w.params)) for w in CONTINENTAL.warnings(FIVE, entry)] == [
        ("jokers", "warning.all_jokers", {"jokers": 2})
    ]
    assert CONTINENTAL.warnings(FIVE, {"out": 3, "jokers": 1}) == []
