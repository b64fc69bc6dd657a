"""Gambler's Rummy (RULES-MORE-GAMES.md §4)."""

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

GAMBLERS = kind_named("gamblers-rummy")
FOUR = setup_of("gamblers-rummy", 4, {"point": 5})


def test_each_other_player_pays_the_one_who_went_out_their_count() -> None:
    sitting = play("gamblers-rummy", FOUR, [{"out": 1, "counts": [10, 0, 70, 3]}])
    assert paid(sitting) == [(0, 1, 50, "count"), (2, 1, 350, "count"), (3, 1, 15, "count")]


def test_a_dead_deal_keeps_every_count_pays_nothing_and_passes_the_deal() -> None:
    body = {"out": None, "counts": [10, 4, 70, 3]}
    entry = GAMBLERS.read_deal(FOUR, body)
    assert entry == body
    entry_round_trips(GAMBLERS, FOUR, entry)
    sitting = play("gamblers-rummy", FOUR, [body, {"out": 0, "counts": [0, 1, 1, 1]}])
    dead = sitting.lines[0]
    assert (dead.winner, dead.payments, dead.balances) == (None, (), (0, 0, 0, 0))
    assert dead.entry["counts"] == [10, 4, 70, 3]
    assert [line.dealer for line in sitting.lines] == [0, 1]
    assert sitting.next_dealer == 2
    assert sitting.deals_won(0) == 1


def test_a_dead_deal_is_said_with_null_never_by_leaving_out_out() -> None:
    assert refused(GAMBLERS, FOUR, {"counts": [10, 4, 70, 3]}) == {"out": "field.missing"}


def test_a_dead_deal_still_carries_every_count_in_range() -> None:
    assert refused(GAMBLERS, FOUR, {"out": None, "counts": [10, 4, 71]}) == {
        "counts": "list.length"
    }
    assert refused(GAMBLERS, FOUR, {"out": None, "counts": [10, 4, 71, 0]}) == {
        "counts.2": "count.range"
    }


def test_counts_go_from_0_to_70_and_nothing_is_doubled() -> None:
    assert refused(GAMBLERS, FOUR, {"out": 0, "counts": [0, 71, 0, 0]}) == {
        "counts.1": "count.range"
    }
    assert refused(GAMBLERS, FOUR, {"out": 0, "counts": [0, 1, 1, 1], "rummy": False}) == {
        "rummy": "field.unknown"
    }


def test_the_one_who_went_out_has_count_0() -> None:
    assert refused(GAMBLERS, FOUR, {"out": 3, "counts": [1, 1, 1, 1]}) == {
        "counts.3": "count.out_not_zero"
    }


@pytest.mark.parametrize("players", [2, 3, 5])
def test_gamblers_rummy_takes_exactly_four_players(players: int) -> None:
    assert setup_refused(GAMBLERS, players, {"point": 5}) == {"players": "players.range"}
