"""Boathouse Rummy (RULES-MORE-GAMES.md §2)."""

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

BOATHOUSE = kind_named("boathouse-rummy")
FOUR = setup_of("boathouse-rummy", 4, {"point": 10})


def test_each_other_player_pays_the_winner_their_count_and_nothing_is_doubled() -> None:
    sitting = play("boathouse-rummy", FOUR, [{"out": 2, "counts": [11, 35, 0, 0]}])
    assert paid(sitting) == [(0, 2, 110, "count"), (1, 2, 350, "count")]
    assert sitting.balances == (-110, -350, 460, 0)


def test_the_entry_is_the_body() -> None:
    entry = BOATHOUSE.read_deal(FOUR, {"out": 2, "counts": [11, 35, 0, 0]})
    assert entry == {"out": 2, "counts": [11, 35, 0, 0]}
    entry_round_trips(BOATHOUSE, FOUR, entry)


def test_there_is_no_rummy_to_declare() -> None:
    body = {"out": 2, "counts": [11, 35, 0, 0], "rummy": True}
    assert refused(BOATHOUSE, FOUR, body) == {"rummy": "field.unknown"}


@pytest.mark.parametrize("count", [0, 2, 10, 11, 379, 380])
def test_a_count_is_from_0_to_380_whatever_the_players(count: int) -> None:
    setup = setup_of("boathouse-rummy", 6, {"point": 10})
    assert BOATHOUSE.read_deal(setup, {"out": 0, "counts": [0, count, 0, 0, 0, 0]})


@pytest.mark.parametrize(
    ("count", "code"), [(381, "count.range"), (-1, "count.range"), (1, "count.one")]
)
def test_a_count_above_380_below_0_or_of_1_is_refused(count: int, code: str) -> None:
    assert refused(BOATHOUSE, FOUR, {"out": 0, "counts": [0, count, 5, 5]}) == {"counts.1": code}


def test_every_count_of_1_is_named_with_the_other_problems() -> None:
    body = {"out": 0, "counts": [3, 1, 1, 500]}
    assert refused(BOATHOUSE, FOUR, body) == {
        "counts.0": "count.out_not_zero",
        "counts.1": "count.one",
        "counts.2": "count.one",
        "counts.3": "count.range",
    }


@pytest.mark.parametrize("players", [1, 7])
def test_boathouse_takes_two_to_six_players(players: int) -> None:
    assert setup_refused(BOATHOUSE, players, {"point": 10}) == {"players": "players.range"}


def test_a_count_above_what_the_cards_dealt_can_hold_is_worth_a_second_look() -> None:
    # Four players are dealt 7 cards: four Aces and three tens count 74 at most.
    entry = BOATHOUSE.read_deal(FOUR, {"out": 0, "counts": [0, 74, 75, 0]})
    assert [(w.field, w.code) for w in BOATHOUSE.warnings(FOUR, entry)] == [
        ("counts.2", "warning.high_count")
    ]
