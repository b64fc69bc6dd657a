"""Mille behind the one interface: the same game as the existing engine says, in its shapes."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    DifferenceRule,
    Rules,
    Seat,
    SkunkRule,
    Stakes,
    replay,
    settle,
    validate_tally,
)
from scorekeeper.engine.game import DealAfterEnd
from scorekeeper.engine.games import Payment, Reason, Transfer, kind_named
from scorekeeper.engine.tally import CODES as TALLY_CODES
from tests.engine.games_support import entry_round_trips, play, refused, setup_of, setup_refused

MILLE = kind_named("mille")
STANDARD = setup_of("mille", 2, {"small": 100})


def test_the_setup_fills_in_the_standard_rules_and_the_big_stake() -> None:
    assert dict(STANDARD.rules) == {
        "target": 1200,
        "progressive": False,
        "natural_needed": False,
        "skunk": "multiply",
        "difference": "round",
    }
    assert STANDARD.stakes == {"small": 100, "big": 300}
    chosen = setup_of("mille", 2, {"small": 100, "big": 250}, {"target": 2000, "skunk": "mark"})
    assert (chosen.rules["target"], chosen.rules["skunk"], chosen.stakes["big"]) == (
        2000,
        "mark",
        250,
    )
    assert type(chosen.rules["skunk"]) is str


@pytest.mark.parametrize(
    ("players", "rules", "stakes", "fields"),
    [
        (3, {}, {"small": 100}, {"players": "players.range"}),
        (2, {"target": 95}, {"small": 100}, {"rules.target": "target.range"}),
        (2, {"target": 10_005}, {"small": 100}, {"rules.target": "target.range"}),
        (2, {"target": 1201}, {"small": 100}, {"rules.target": "target.step"}),
        (2, {"target": "1200"}, {"small": 100}, {"rules.target": "field.not_whole"}),
        (2, {"progressive": 1}, {"small": 100}, {"rules.progressive": "field.not_bool"}),
        (2, {"natural_needed": "no"}, {"small": 100}, {"rules.natural_needed": "field.not_bool"}),
        (2, {"skunk": "triple"}, {"small": 100}, {"rules.skunk": "field.choice"}),
        (2, {"difference": "floor"}, {"small": 100}, {"rules.difference": "field.choice"}),
        (2, {"preset": "marks"}, {"small": 100}, {"rules.preset": "field.unknown"}),
        (2, {}, {"big": 300}, {"stakes.small": "field.missing"}),
        (2, {}, {"small": 100, "point": 1}, {"stakes.point": "field.unknown"}),
        (2, {}, {"small": 333_334}, {"stakes.small": "stake.range"}),  # big would be too much
    ],
)
def test_a_setup_that_breaks_a_rule_is_refused_naming_the_field(
    players: int, rules: dict[str, object], stakes: dict[str, object], fields: dict[str, str]
) -> None:
    assert setup_refused(MILLE, players, stakes, rules) == fields


def test_a_small_stake_above_a_third_of_the_most_is_fine_with_a_big_stake_set() -> None:
    assert setup_of("mille", 2, {"small": 333_334, "big": 400_000}).stakes["big"] == 400_000
    assert setup_of("mille", 2, {"small": 333_333}).stakes["big"] == 999_999


def test_the_entry_is_the_body_with_no_naturals_filled_in() -> None:
    entry = MILLE.read_deal(STANDARD, {"out": 0, "scores": [140, 350]})
    assert entry == {"out": 0, "scores": [140, 350], "naturals": [0, 0]}
    assert type(entry["out"]) is int
    entry_round_trips(MILLE, STANDARD, entry)


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"out": 0, "scores": [140, 353]}, {"scores.1": "score.step"}),
        ({"out": 0, "scores": [10, 350]}, {"scores.0": "score.out_minimum"}),
        ({"out": 2, "scores": [140, 350]}, {"out": "out.missing"}),
        ({"out": 0, "scores": [140, 350], "naturals": [0, -1]}, {"naturals.1": "stars.negative"}),
        ({"out": 0, "scores": [140]}, {"scores": "list.length"}),
        ({"out": 5, "scores": "140"}, {"out": "out.missing", "scores": "list.length"}),
        ({"out": 0, "scores": [140, 350], "naturals": [0]}, {"naturals": "list.length"}),
        ({"out": 0, "scores": [140, 350], "counts": [0, 1]}, {"counts": "field.unknown"}),
    ],
)
def test_a_body_that_breaks_a_rule_is_refused_with_the_tallys_codes_and_the_apis_fields(
    body: dict[str, object], fields: dict[str, str]
) -> None:
    assert refused(MILLE, STANDARD, body) == fields
    assert {
        code
        for code in fields.values()
        if "." in code and code.split(".")[0] in ("score", "stars", "out")
    } <= set(TALLY_CODES)


def test_the_tallys_warnings_name_naturals() -> None:
    entry = MILLE.read_deal(STANDARD, {"out": 0, "scores": [40, 1100], "naturals": [1, 0]})
    assert [(w.field, w.code) for w in MILLE.warnings(STANDARD, entry)] == [
        ("naturals.0", "warning.star_on_low_score"),
        ("scores.1", "warning.high_score"),
    ]


def test_a_deal_pays_nobody_and_the_won_game_closes_with_its_one_settlement() -> None:
    going_on = play("mille", STANDARD, [{"out": 0, "scores": [700, 300]}], first_dealer=1)
    line = going_on.lines[0]
    assert (line.dealer, line.winner, line.payments, line.balances) == (1, None, (), (0, 0))
    assert (line.scores, line.totals, line.pool) == ((700, 300), (700, 300), None)
    assert not going_on.finished
    assert going_on.closing == ()
    assert going_on.settlement is None
    assert going_on.balances == (0, 0)
    assert going_on.winners is None
    assert going_on.next_dealer == 0
    won = play(
        "mille", STANDARD, [{"out": 0, "scores": [700, 300]}, {"out": 0, "scores": [600, 300]}]
    )
    # 1,300 to 600: the game (3.00) and 7 hundreds of difference (7.00).
    assert won.finished
    assert won.winners == (0,)
    assert won.totals == (1300, 600)
    assert won.closing == (Payment(1, 0, 1000, Reason.GAME),)
    assert won.balances == (1000, -1000)
    assert won.settlement == (Transfer(1, 0, 1000),)
    assert won.sides == ((0,), (1,))
    assert won.pool is None


def test_a_deal_after_the_end_is_refused_as_the_engine_refuses_it() -> None:
    with pytest.raises(DealAfterEnd):
        play("mille", STANDARD, [{"out": 0, "scores": [1300, 0]}, {"out": 0, "scores": [100, 0]}])


def test_ending_is_the_games_own_rule() -> None:
    assert MILLE.ends_itself
    assert not play("mille", STANDARD, [{"out": 0, "scores": [100, 0]}], ended=True).finished


# --- the adapter agrees with the engine -----------------------------------------------------


def engine_rules_of(rules: dict[str, object]) -> Rules:
    """The engine's rules from the API's words."""
    return Rules(
        target=int(rules["target"]),  # type: ignore[call-overload]
        progressive=bool(rules["progressive"]),
        natural_needed=bool(rules["natural_needed"]),
        skunk=SkunkRule(rules["skunk"]),
        difference=DifferenceRule(rules["difference"]),
    )


@st.composite
def mille_games(
    draw: st.DrawFn,
) -> tuple[dict[str, object], dict[str, int], int, list[dict[str, object]]]:
    """Rules and stakes as the API gives them, a first dealer, and deals up to the end."""
    rules = {
        "target": 50 * draw(st.integers(4, 30)),
        "progressive": draw(st.booleans()),
        "natural_needed": draw(st.booleans()),
        "skunk": draw(st.sampled_from(["multiply", "mark"])),
        "difference": draw(st.sampled_from(["round", "ceil"])),
    }
    stakes = {"small": draw(st.integers(1, 500))}
    first = draw(st.integers(0, 1))
    engine_rules = engine_rules_of(rules)
    bodies: list[dict[str, object]] = []
    for _ in range(draw(st.integers(0, 25))):
        out = draw(st.integers(0, 1))
        scores = [5 * draw(st.integers(-40, 120)), 5 * draw(st.integers(-40, 120))]
        scores[out] = 5 * draw(st.integers(3, 160))
        naturals = [draw(st.integers(0, 1)), draw(st.integers(0, 1))]
        bodies.append({"out": out, "scores": scores, "naturals": naturals})
        tallies = [validate_tally(b["out"], b["scores"], b["naturals"]) for b in bodies]  # type: ignore[arg-type]
        if replay(engine_rules, Seat(first), tallies).finished:
            break
    return rules, stakes, first, bodies


@settings(deadline=None, max_examples=60)
@given(mille_games())
def test_the_adapter_agrees_with_the_engine_on_random_games(
    game: tuple[dict[str, object], dict[str, int], int, list[dict[str, object]]],
) -> None:
    rules, stakes, first, bodies = game
    setup = setup_of("mille", 2, stakes, rules)
    sitting = play("mille", setup, bodies, first_dealer=first)
    engine_rules = engine_rules_of(rules)
    tallies = [validate_tally(b["out"], b["scores"], b["naturals"]) for b in bodies]  # type: ignore[arg-type]
    card = replay(engine_rules, Seat(first), tallies)
    assert sitting.totals == card.totals
    assert sitting.finished == card.finished
    assert sitting.next_dealer == card.next_dealer
    assert [line.totals for line in sitting.lines] == [line.totals for line in card.lines]
    assert [line.dealer for line in sitting.lines] == [line.dealer for line in card.lines]
    if card.winner is None:
        assert sitting.winners is None
        assert sitting.balances == (0, 0)
        return
    total = settle(card, Stakes.from_small(stakes["small"])).total
    assert sitting.winners == (card.winner,)
    assert sitting.settlement == (Transfer(card.winner.other, card.winner, total),)
    assert sitting.balances[card.winner] == total == -sitting.balances[card.winner.other]
