"""Spoil Five (RULES-MORE-GAMES.md §7): the pool, the jink, and a sitting's end."""

import pytest

from scorekeeper.engine.games import Payment, Reason, kind_named
from tests.engine.games_support import (
    entry_round_trips,
    paid,
    play,
    problems_of,
    refused,
    setup_of,
    setup_refused,
)

SPOIL = kind_named("spoil-five")
FOUR = setup_of("spoil-five", 4, {"ante": 100})  # $1.00
SPOILT = {"winner": None}


def test_worked_example_5_a_spoilt_deal_then_the_dealers_stake_then_the_pool_taken() -> None:
    sitting = play("spoil-five", FOUR, [SPOILT, {"winner": 3}], first_dealer=0)
    assert paid(sitting, 1) == [(seat, None, 100, "ante") for seat in range(4)]
    assert sitting.lines[0].pool == 400
    assert sitting.lines[0].winner is None
    assert paid(sitting, 2) == [(1, None, 100, "dealer"), (None, 3, 500, "pool")]
    assert sitting.balances == (-100, -200, -100, 400)
    assert sitting.pool == 0
    assert sitting.lines[1].winner == 3
    third = play("spoil-five", FOUR, [SPOILT, {"winner": 3}, SPOILT])
    assert paid(third, 3) == [(seat, None, 100, "ante") for seat in range(4)]
    assert third.pool == 400


def test_the_pool_is_0_before_the_first_deal() -> None:
    sitting = play("spoil-five", FOUR, [])
    assert sitting.pool == 0
    assert sitting.balances == (0, 0, 0, 0)


def test_the_entry_is_the_body_with_no_jink_filled_in() -> None:
    assert SPOIL.read_deal(FOUR, {"winner": 2}) == {"winner": 2, "jink": "none"}
    assert SPOIL.read_deal(FOUR, SPOILT) == {"winner": None, "jink": "none"}
    assert SPOIL.read_deal(FOUR, {"winner": 2, "jink": None}) == {"winner": 2, "jink": "none"}
    entry_round_trips(SPOIL, FOUR, {"winner": 2, "jink": "won"})


def test_the_dealers_stake_is_the_ante_unless_set() -> None:
    assert FOUR.stakes == {"ante": 100, "dealer": 100, "maximum": None}
    setup = setup_of("spoil-five", 4, {"ante": 100, "dealer": 50, "maximum": None})
    sitting = play("spoil-five", setup, [SPOILT, SPOILT], first_dealer=2)
    assert paid(sitting, 2) == [(3, None, 50, "dealer")]
    assert sitting.pool == 450


def test_a_maximum_stops_the_dealers_stake_at_the_pool_it_allows() -> None:
    setup = setup_of("spoil-five", 3, {"ante": 100, "dealer": 100, "maximum": 450})
    sitting = play("spoil-five", setup, [SPOILT] * 4)
    assert [line.pool for line in sitting.lines] == [300, 400, 450, 450]
    assert paid(sitting, 3) == [(2, None, 50, "dealer")]
    assert paid(sitting, 4) == []


def test_a_maximum_below_every_players_ante_is_refused() -> None:
    assert setup_refused(SPOIL, 4, {"ante": 100, "maximum": 399}) == {
        "stakes.maximum": "maximum.below_antes"
    }
    assert setup_of("spoil-five", 4, {"ante": 100, "maximum": 400}).stakes["maximum"] == 400


def test_a_jink_won_takes_the_pool_and_the_ante_from_every_other_player() -> None:
    sitting = play("spoil-five", FOUR, [{"winner": 2, "jink": "won"}])
    assert paid(sitting) == [
        *[(seat, None, 100, "ante") for seat in range(4)],
        (None, 2, 400, "pool"),
        (0, 2, 100, "jink"),
        (1, 2, 100, "jink"),
        (3, 2, 100, "jink"),
    ]
    assert sitting.balances == (-200, -200, 600, -200)
    assert sitting.pool == 0


def test_a_jink_failed_leaves_the_pool_for_the_next_deal_and_wins_nothing() -> None:
    sitting = play("spoil-five", FOUR, [{"winner": 2, "jink": "failed"}, {"winner": 0}])
    assert sitting.lines[0].winner is None
    assert sitting.lines[0].pool == 400
    assert paid(sitting, 2) == [(1, None, 100, "dealer"), (None, 0, 500, "pool")]
    assert sitting.deals_won(2) == 0
    assert sitting.deals_won(0) == 1


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"winner": None, "jink": "won"}, {"jink": "jink.no_winner"}),
        ({"winner": None, "jink": "failed"}, {"jink": "jink.no_winner"}),
        ({"jink": "none"}, {"winner": "field.missing"}),
        ({}, {"winner": "field.missing"}),
        ({"winner": 4}, {"winner": "seat.range"}),
        ({"winner": 1, "jink": "maybe"}, {"jink": "field.choice"}),
        ({"winner": 1, "jink": True}, {"jink": "field.choice"}),
        ({"winner": 1, "out": 1}, {"out": "field.unknown"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_naming_each_field(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(SPOIL, FOUR, body) == fields


def test_a_jinks_choices_are_named() -> None:
    (problem,) = problems_of(SPOIL, FOUR, {"winner": 1, "jink": "maybe"})
    assert dict(problem.params) == {"choices": ("none", "won", "failed")}


@pytest.mark.parametrize(
    ("stakes", "fields"),
    [
        ({}, {"stakes.ante": "field.missing"}),
        ({"ante": 0}, {"stakes.ante": "stake.range"}),
        ({"ante": 100, "dealer": 0}, {"stakes.dealer": "stake.range"}),
        ({"ante": 100, "maximum": "lots"}, {"stakes.maximum": "field.not_whole"}),
        ({"ante": 100, "point": 5}, {"stakes.point": "field.unknown"}),
    ],
)
def test_a_setup_that_breaks_a_rule_is_refused_naming_the_field(
    stakes: dict[str, object], fields: dict[str, str]
) -> None:
    assert setup_refused(SPOIL, 4, stakes) == fields


@pytest.mark.parametrize("players", [1, 11])
def test_spoil_five_takes_two_to_ten_players(players: int) -> None:
    assert setup_refused(SPOIL, players, {"ante": 100}) == {"players": "players.range"}


def test_ending_gives_the_pool_back_to_what_each_put_into_it_since_it_started() -> None:
    bodies = [{"winner": 3}, SPOILT, SPOILT]  # a pool taken, a new one of 400, dealer 2's 100
    going_on = play("spoil-five", FOUR, bodies)
    assert going_on.pool == 500
    assert going_on.closing == ()
    assert going_on.balances == (-200, -200, -300, 200)
    ended = play("spoil-five", FOUR, bodies, ended=True)
    assert ended.closing == (
        Payment(None, 0, 100, Reason.POOL_BACK),
        Payment(None, 1, 100, Reason.POOL_BACK),
        Payment(None, 2, 200, Reason.POOL_BACK),
        Payment(None, 3, 100, Reason.POOL_BACK),
    )
    assert ended.pool == 0
    assert ended.finished
    assert ended.balances == (-100, -100, -100, 300)
    assert sum(ended.balances) == 0
    assert ended.lines[-1].pool == 500  # the card keeps what the pool was
    assert {(t.payer, t.payee, t.amount) for t in ended.settlement or ()} == {
        (0, 3, 100),
        (1, 3, 100),
        (2, 3, 100),
    }


def test_ending_just_after_a_pool_was_taken_gives_nothing_back() -> None:
    ended = play("spoil-five", FOUR, [{"winner": 3}], ended=True)
    assert ended.closing == ()
    assert ended.pool == 0
