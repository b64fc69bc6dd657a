"""RULES.md §3–4: the end of the game, who deals, and every settlement rule."""

import pytest

from scorekeeper.engine import (
    MAX_DEAL_SCORE,
    MIN_DEAL_SCORE,
    MIN_OUT_SCORE,
    PRESETS,
    DealAfterEnd,
    DifferenceRule,
    LineKind,
    Preset,
    Rules,
    Scorecard,
    Seat,
    Settlement,
    SettlementLine,
    SkunkRule,
    Stakes,
    Tally,
    format_money,
    parse_money,
    replay,
    settle,
    validate_tally,
)
from scorekeeper.engine.settlement import difference_count, round_total

A, B = Seat.FIRST, Seat.SECOND
ONE_THREE = Stakes(small=100, big=300)
NATURAL_NEEDED = Rules(natural_needed=True)


def deal(out: Seat, a: int, b: int, stars: tuple[int, int] = (0, 0)) -> Tally:
    return validate_tally(out, (a, b), stars)


def play(rules: Rules, *tallies: Tally, first_dealer: Seat = A) -> Scorecard:
    return replay(rules, first_dealer, tallies)


def by_kind(settlement: Settlement) -> dict[LineKind, SettlementLine]:
    return {line.kind: line for line in settlement.lines}


def one_deal_game(rules: Rules, loser_total: int) -> Scorecard:
    """A goes out with exactly the target in one deal; B stays in with ``loser_total``."""
    return play(rules, deal(A, rules.target, loser_total))


# --- the card constants ----------------------------------------------------------------------


def test_the_limits_come_from_two_decks_of_1140_points() -> None:
    assert (MIN_DEAL_SCORE, MAX_DEAL_SCORE, MIN_OUT_SCORE) == (-1140, 4560, 15)


# --- the end of a standard game ----------------------------------------------------------------


def test_a_game_with_no_deals_is_in_progress_at_zero() -> None:
    card = play(Rules())

    assert card.totals == (0, 0)
    assert card.stars == (0, 0)
    assert card.chapeaux == (0, 0)
    assert card.finished is False
    assert card.winner is None
    assert card.loser is None


def test_the_game_ends_at_the_first_deal_that_reaches_the_target() -> None:
    opening = (deal(A, 600, 100), deal(A, 595, 100))
    assert play(Rules(), *opening).totals == (1195, 200)
    assert play(Rules(), *opening).finished is False

    card = play(Rules(), *opening, deal(B, 5, 15))

    assert card.totals == (1200, 215)
    assert card.finished is True
    assert card.winner is A
    assert card.loser is B


def test_the_higher_total_wins_when_both_pass_the_target() -> None:
    card = play(Rules(), deal(A, 1100, 1150), deal(A, 200, 100))

    assert card.totals == (1300, 1250)
    assert card.winner is A


def test_the_player_who_stayed_in_can_win_at_the_end_of_the_deal() -> None:
    card = play(Rules(), deal(B, 1250, 30))

    assert card.winner is A


def test_equal_totals_at_the_target_play_on_until_they_differ() -> None:
    tied = (deal(A, 600, 600), deal(B, 600, 600))
    card = play(Rules(), *tied)
    assert card.totals == (1200, 1200)
    assert card.finished is False
    assert card.winner is None

    still_tied = play(Rules(), *tied, deal(A, 50, 50))
    assert still_tied.totals == (1250, 1250)
    assert still_tied.finished is False

    assert play(Rules(), *tied, deal(A, 50, 50), deal(B, -20, 15)).winner is B
    assert play(Rules(), *tied, deal(A, 15, 10)).winner is A


def test_the_target_comes_from_the_rules() -> None:
    deals = (deal(A, 300, 100), deal(A, 200, 100))

    assert play(Rules(target=500), *deals).winner is A
    assert play(Rules(target=505), *deals).finished is False
    assert play(Rules(), *deals).finished is False
    assert play(Rules(target=1200), deal(A, 1195, 0)).finished is False


def test_a_game_that_reaches_the_target_takes_no_more_deals() -> None:
    deals = (deal(A, 600, 100), deal(A, 600, 100), deal(B, 100, 50))

    with pytest.raises(DealAfterEnd, match="deal 2") as refused:
        play(Rules(), *deals)

    assert refused.value.ended_at == 2
    assert refused.value.count == 3
    assert isinstance(refused.value, ValueError)


def test_removing_the_deal_that_ended_the_game_puts_it_back_in_progress() -> None:
    deals = [deal(A, 600, 100), deal(B, 100, 300), deal(A, 600, 100)]
    assert play(Rules(), *deals).finished is True

    del deals[1]  # the corrected game still ends, at the new second deal
    assert play(Rules(), *deals).totals == (1200, 200)
    assert play(Rules(), *deals).winner is A

    deals[1] = deal(A, 500, 100)  # and a corrected score can reopen it
    assert play(Rules(), *deals).finished is False


def test_the_natural_needed_rule_does_not_change_a_game_with_a_star_already() -> None:
    deals = (deal(A, 600, 100, stars=(1, 0)), deal(A, 600, 100))

    assert play(NATURAL_NEEDED, *deals).winner is A
    assert play(Rules(), *deals).winner is A


# --- the end of a natural-needed game ----------------------------------------------------------


def test_without_a_star_the_target_does_not_end_a_natural_needed_game() -> None:
    card = play(NATURAL_NEEDED, deal(B, 300, 1000), deal(B, 400, 1000))

    assert card.totals == (700, 2000)
    assert card.finished is False
    assert card.qualifies(B) is False
    assert play(Rules(), deal(B, 300, 1000), deal(B, 400, 1000)).winner is B


def test_1200_with_a_star_beats_2000_without_one() -> None:
    card = play(
        NATURAL_NEEDED,
        deal(B, 300, 1000, stars=(1, 0)),
        deal(B, 400, 1000),
        deal(A, 500, 0),
    )

    assert card.totals == (1200, 2000)
    assert card.qualifies(A) is True
    assert card.qualifies(B) is False
    assert card.winner is A


def test_when_both_qualify_the_higher_total_wins_the_natural_needed_game() -> None:
    card = play(NATURAL_NEEDED, deal(A, 1000, 900, stars=(1, 1)), deal(B, 250, 400))

    assert card.totals == (1250, 1300)
    assert card.qualifies(A)
    assert card.qualifies(B)
    assert card.winner is B


def test_when_both_qualify_with_equal_totals_the_natural_needed_game_plays_on() -> None:
    tied = play(NATURAL_NEEDED, deal(A, 1000, 900, stars=(1, 1)), deal(B, 300, 400))
    assert tied.totals == (1300, 1300)
    assert tied.finished is False

    card = play(
        NATURAL_NEEDED,
        deal(A, 1000, 900, stars=(1, 1)),
        deal(B, 300, 400),
        deal(A, 20, -10),
    )
    assert card.winner is A


def test_with_equal_totals_the_only_player_with_a_star_wins_the_natural_needed_game() -> None:
    card = play(NATURAL_NEEDED, deal(A, 600, 600, stars=(1, 0)), deal(B, 600, 600))

    assert card.totals == (1200, 1200)
    assert card.winner is A
    assert play(Rules(), deal(A, 600, 600, stars=(1, 0)), deal(B, 600, 600)).finished is False


def test_a_natural_needed_winner_with_the_lower_total_is_paid_no_difference() -> None:
    card = play(
        NATURAL_NEEDED,
        deal(B, 300, 1000, stars=(1, 0)),
        deal(B, 400, 1000),
        deal(A, 500, 0),
    )

    settlement = settle(card, ONE_THREE)

    assert settlement.payee is A
    assert settlement.rounded == (1200, 2000)
    assert settlement.difference == 0
    assert LineKind.DIFFERENCE not in by_kind(settlement)
    assert settlement.skunk is False
    assert settlement.total == 600  # the game and A's star, nothing flowing back


def test_a_natural_needed_winner_with_the_lower_total_gets_no_difference_under_ceil_either() -> (
    None
):
    rules = Rules(natural_needed=True, difference=DifferenceRule.CEIL)
    card = play(rules, deal(B, 300, 1000, stars=(1, 0)), deal(B, 400, 1000), deal(A, 500, 0))

    settlement = settle(card, ONE_THREE)

    assert settlement.difference == 0
    assert settlement.total == 600


# --- who deals -------------------------------------------------------------------------------


def test_the_deal_alternates_from_the_first_dealer() -> None:
    deals = [deal(A, 100, 50), deal(B, 50, 100), deal(A, 100, 50)]

    for first in Seat:
        assert play(Rules(), first_dealer=first).next_dealer is first
        card = play(Rules(), *deals, first_dealer=first)
        assert [line.dealer for line in card.lines] == [first, first.other, first]
        assert card.next_dealer is first.other
        assert play(Rules(), *deals[:2], first_dealer=first).next_dealer is first


# --- rounding and the point difference --------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "rounded"),
    [
        (-50, 0),
        (-150, -100),
        (-151, -200),
        (-149, -100),
        (-49, 0),
        (0, 0),
        (49, 0),
        (649, 600),
        (650, 700),
        (1250, 1300),
        (1249, 1200),
    ],
)
def test_a_total_rounds_to_the_nearest_100_with_50_going_up(total: int, rounded: int) -> None:
    assert round_total(total) == rounded


def test_the_difference_counts_rounded_hundreds() -> None:
    assert difference_count(Rules(), 1252, 649) == 7
    assert difference_count(Rules(), 1252, 650) == 6
    assert difference_count(Rules(), 1236, 1169) == 0
    assert difference_count(Rules(), 1200, -150) == 13


def test_the_difference_is_never_below_zero() -> None:
    for rule in DifferenceRule:
        assert difference_count(Rules(difference=rule), 1200, 2000) == 0
        assert difference_count(Rules(difference=rule), 1200, 1200) == 0


def test_the_ceil_rule_counts_every_started_hundred_of_the_unrounded_difference() -> None:
    ceil = Rules(difference=DifferenceRule.CEIL)

    assert difference_count(ceil, 1205, 1200) == 1
    assert difference_count(ceil, 1300, 1200) == 1
    assert difference_count(ceil, 1305, 1200) == 2
    assert difference_count(ceil, 1275, 1180) == 1
    assert difference_count(ceil, 1200, -5) == 13
    assert difference_count(Rules(), 1205, 1200) == 0  # where the two rules part


def test_the_ceil_rule_settles_a_game_won_by_5_points_with_one_small_stake() -> None:
    rules = Rules(difference=DifferenceRule.CEIL)
    card = play(rules, deal(B, 600, 1000), deal(A, 605, 200))
    assert card.totals == (1205, 1200)

    settlement = settle(card, ONE_THREE)

    assert settlement.difference == 1
    assert settlement.total == 400
    assert settle(play(Rules(), deal(B, 600, 1000), deal(A, 605, 200)), ONE_THREE).total == 300


# --- the skunk -------------------------------------------------------------------------------


def test_a_loser_at_zero_is_skunked_and_pays_double() -> None:
    settlement = settle(one_deal_game(Rules(), 0), ONE_THREE)

    assert settlement.skunk is True
    assert settlement.multiplier == 2
    assert settlement.subtotal == 300 + 1200
    assert settlement.total == 3000


def test_a_loser_five_below_half_the_target_pays_double() -> None:
    settlement = settle(one_deal_game(Rules(), 595), ONE_THREE)

    assert settlement.rounded == (1200, 600)  # the skunk looks at the total before rounding
    assert settlement.skunk is True
    assert settlement.multiplier == 2
    assert settlement.total == (300 + 600) * 2


def test_a_loser_at_exactly_half_the_target_is_not_skunked() -> None:
    settlement = settle(one_deal_game(Rules(), 600), ONE_THREE)

    assert settlement.skunk is False
    assert settlement.multiplier == 1
    assert settlement.total == 300 + 600


def test_loser_below_zero_pays_triple() -> None:
    settlement = settle(one_deal_game(Rules(), -5), ONE_THREE)

    assert settlement.skunk is True
    assert settlement.multiplier == 3
    assert settlement.rounded == (1200, 0)
    assert settlement.subtotal == 300 + 1200 + 300  # game, difference, B's chapeau
    assert settlement.total == 5400


def test_half_of_a_different_target_sets_the_skunk_line() -> None:
    rules = Rules(target=2000)

    assert settle(one_deal_game(rules, 995), ONE_THREE).multiplier == 2
    assert settle(one_deal_game(rules, 1000), ONE_THREE).multiplier == 1


def test_the_marked_skunk_adds_one_big_stake_as_its_own_line() -> None:
    rules = Rules(skunk=SkunkRule.MARK)

    settlement = settle(one_deal_game(rules, 595), ONE_THREE)

    assert settlement.skunk is True
    assert settlement.multiplier == 1
    skunk = by_kind(settlement)[LineKind.SKUNK]
    assert (skunk.count, skunk.amount) == (1, 300)
    assert settlement.total == 300 + 600 + 300


def test_the_marked_skunk_is_one_line_below_zero_too() -> None:
    settlement = settle(one_deal_game(Rules(skunk=SkunkRule.MARK), -5), ONE_THREE)

    assert settlement.multiplier == 1
    assert by_kind(settlement)[LineKind.SKUNK].amount == 300
    assert settlement.total == 300 + 1200 + 300 + 300


def test_no_skunk_line_when_the_loser_reached_half_the_target() -> None:
    settlement = settle(one_deal_game(Rules(skunk=SkunkRule.MARK), 600), ONE_THREE)

    assert settlement.skunk is False
    assert LineKind.SKUNK not in by_kind(settlement)
    assert settlement.total == 900


def test_the_multiplied_skunk_has_no_line_of_its_own() -> None:
    assert LineKind.SKUNK not in by_kind(settle(one_deal_game(Rules(), 0), ONE_THREE))


# --- what is and is not paid -----------------------------------------------------------------


def test_the_losers_stars_and_the_winners_chapeaux_are_never_paid() -> None:
    card = play(
        Rules(),
        deal(B, -30, 400, stars=(0, 2)),
        deal(B, -20, 300),
        deal(A, 1300, -10, stars=(1, 0)),
    )
    assert card.totals == (1250, 690)
    assert card.stars == (1, 2)
    assert card.chapeaux == (2, 1)

    settlement = settle(card, ONE_THREE)
    lines = by_kind(settlement)

    assert (lines[LineKind.NATURALS].count, lines[LineKind.NATURALS].amount) == (1, 300)
    assert (lines[LineKind.CHAPEAUX].count, lines[LineKind.CHAPEAUX].amount) == (1, 300)
    assert settlement.total == 300 + 600 + 300 + 300


def test_no_naturals_or_chapeaux_lines_when_there_are_none_to_pay() -> None:
    settlement = settle(play(Rules(), deal(A, 1200, 700)), ONE_THREE)

    assert [line.kind for line in settlement.lines] == [LineKind.GAME, LineKind.DIFFERENCE]


def test_progressive_chapeaux_cost_b_then_2b_then_3b() -> None:
    rules = Rules(progressive=True)
    card = play(rules, deal(A, 400, -5), deal(A, 400, -5), deal(A, 400, 1000))

    chapeaux = by_kind(settle(card, Stakes(small=200, big=600)))[LineKind.CHAPEAUX]

    assert chapeaux.count == 2
    assert chapeaux.terms == (600, 1200)


def test_the_big_and_small_stakes_are_used_as_given() -> None:
    settlement = settle(play(Rules(), deal(A, 1200, 700, stars=(1, 0))), Stakes(small=25, big=75))

    lines = by_kind(settlement)
    assert lines[LineKind.GAME].amount == 75
    assert lines[LineKind.DIFFERENCE].amount == 5 * 25
    assert lines[LineKind.NATURALS].amount == 75
    assert format_money(settlement.total) == "2.75"


def test_an_unfinished_game_cannot_be_settled() -> None:
    with pytest.raises(ValueError, match="finished"):
        settle(play(Rules(), deal(A, 600, 600), deal(B, 600, 600)), ONE_THREE)


# --- presets and bad values ------------------------------------------------------------------


def test_the_presets_are_the_rules_md_table() -> None:
    assert PRESETS[Preset.STANDARD] == Rules(
        target=1200,
        progressive=False,
        natural_needed=False,
        skunk=SkunkRule.MULTIPLY,
        difference=DifferenceRule.ROUND,
    )
    assert PRESETS[Preset.PROGRESSIVE] == Rules(
        target=2000,
        progressive=True,
        natural_needed=False,
        skunk=SkunkRule.MARK,
        difference=DifferenceRule.ROUND,
    )
    assert PRESETS[Preset.MARKS] == Rules(
        target=1200,
        progressive=False,
        natural_needed=False,
        skunk=SkunkRule.MARK,
        difference=DifferenceRule.CEIL,
    )
    assert set(PRESETS) == set(Preset)


def test_the_presets_have_the_rules_md_names() -> None:
    assert Preset.STANDARD.label == "Standard"
    assert Preset.PROGRESSIVE.label == "Progressive Montreal Mille"
    assert Preset.MARKS.label == "Marks (Wikipedia)"


def test_rules_know_which_preset_they_are() -> None:
    for preset, rules in PRESETS.items():
        assert rules.matching_preset() is preset
    assert Rules(target=1500).matching_preset() is None
    assert Rules(natural_needed=True).matching_preset() is None


def test_the_default_rules_are_the_standard_preset() -> None:
    assert Rules() == PRESETS[Preset.STANDARD]


@pytest.mark.parametrize("target", [0, -1200, 1201, 1199])
def test_rules_refuse_a_target_that_is_not_a_positive_multiple_of_five(target: int) -> None:
    with pytest.raises(ValueError, match="target"):
        Rules(target=target)


@pytest.mark.parametrize(("small", "big"), [(0, 300), (100, 0), (-100, 300), (100, -300)])
def test_stakes_must_be_more_than_zero(small: int, big: int) -> None:
    with pytest.raises(ValueError, match="stake"):
        Stakes(small=small, big=big)


def test_stakes_above_10000_dollars_are_refused_as_a_typo() -> None:
    assert Stakes(small=1_000_000, big=1_000_000).big == 1_000_000
    with pytest.raises(ValueError, match="big"):
        Stakes(small=100, big=1_000_001)


def test_the_usual_stakes_make_the_big_one_three_times_the_small_one() -> None:
    assert Stakes.from_small(200) == Stakes(small=200, big=600)
    assert Stakes.from_small(25) == Stakes(small=25, big=75)


# --- money at the edges ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("0.25", 25),
        ("$1.50", 150),
        ("3", 300),
        ("0.75", 75),
        (" 2.5 ", 250),
        ("$ 10", 1000),
        ("1,000", 100_000),
        ("0.1", 10),
        ("0.07", 7),
        ("-1.05", -105),
    ],
)
def test_money_text_becomes_exact_cents(text: str, cents: int) -> None:
    assert parse_money(text) == cents


@pytest.mark.parametrize(
    "text", ["1e2", "nan", "inf", "1.234", "", "  ", "$", "abc", "1.", ".5", "1.2.3", "0x10"]
)
def test_text_that_is_not_an_amount_of_money_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="amount"):
        parse_money(text)


@pytest.mark.parametrize(
    ("cents", "text"),
    [(1900, "19.00"), (-5, "-0.05"), (0, "0.00"), (25, "0.25"), (8100, "81.00"), (101, "1.01")],
)
def test_cents_are_written_with_two_decimals(cents: int, text: str) -> None:
    assert format_money(cents) == text


def test_formatting_and_parsing_money_round_trip() -> None:
    for cents in (0, 1, 5, 99, 100, 1234, 987_654_321, -5, -1234):
        assert parse_money(format_money(cents)) == cents
