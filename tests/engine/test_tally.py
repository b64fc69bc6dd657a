"""RULES.md §2 "What a valid tally is", the chapeau, and the confirm-first warnings."""

from collections.abc import Sequence

import pytest

from scorekeeper.engine import (
    InvalidTally,
    Seat,
    Tally,
    TallyProblem,
    tally_warnings,
    validate_tally,
)
from scorekeeper.engine.tally import CODES
from scorekeeper.web.messages import problem_message

A, B = Seat.FIRST, Seat.SECOND


def problem_fields(out: object, scores: Sequence[object], stars: Sequence[object]) -> set[str]:
    """The fields a tally is refused for; empty when it is accepted."""
    try:
        validate_tally(out, scores, stars)
    except InvalidTally as refused:
        problems = refused.problems
    else:
        return set()
    assert problems, "a refusal says what is wrong"
    return {problem.field for problem in problems}


# --- accepted tallies ----------------------------------------------------------------------


def test_a_well_formed_tally_becomes_a_tally_with_the_same_values() -> None:
    assert validate_tally(0, (150, -20), (1, 0)) == Tally(out=A, scores=(150, -20), stars=(1, 0))
    assert validate_tally(1, (0, 15), (0, 2)) == Tally(out=B, scores=(0, 15), stars=(0, 2))


def test_a_seat_is_accepted_as_who_went_out() -> None:
    assert validate_tally(Seat.SECOND, (35, 40), (0, 0)).out is B


def test_whole_numbers_written_as_floats_are_accepted_as_ints() -> None:
    tally = validate_tally(1.0, (-20.0, 15.0), (0.0, 1.0))

    assert tally == Tally(out=B, scores=(-20, 15), stars=(0, 1))
    assert all(type(value) is int for value in (*tally.scores, *tally.stars))


# --- who went out ----------------------------------------------------------------------------


@pytest.mark.parametrize("out", [None, 2, -1, True, False, 0.5, "0", "A"])
def test_exactly_one_player_must_have_gone_out(out: object) -> None:
    assert problem_fields(out, (100, 50), (0, 0)) == {"out"}


# --- scores ----------------------------------------------------------------------------------


@pytest.mark.parametrize("score", [12.5, "abc", None, True, "15", float("nan"), float("inf")])
def test_a_score_that_is_not_a_whole_number_is_refused(score: object) -> None:
    assert problem_fields(0, (100, score), (0, 0)) == {"scores.1"}
    assert problem_fields(1, (score, 100), (0, 0)) == {"scores.0"}


@pytest.mark.parametrize("score", [12, 151, -3, 1001, 17])
def test_a_score_that_is_not_a_multiple_of_five_is_refused(score: int) -> None:
    assert problem_fields(0, (100, score), (0, 0)) == {"scores.1"}
    assert problem_fields(0, (score + 100, 100), (0, 0)) == {"scores.0"}


def test_the_message_for_a_score_off_the_five_point_step_says_so() -> None:
    with pytest.raises(InvalidTally) as refused:
        validate_tally(0, (100, 12), (0, 0))
    assert refused.value.problems[0].field == "scores.1"
    assert refused.value.problems[0].code == "score.step"
    assert "multiples of 5" in problem_message(refused.value.problems[0], english=True)


@pytest.mark.parametrize("score", [10, 5, 0, -5, -100])
def test_the_player_who_went_out_scores_at_least_15(score: int) -> None:
    assert problem_fields(0, (score, 100), (0, 0)) == {"scores.0"}
    assert problem_fields(1, (100, score), (0, 0)) == {"scores.1"}


def test_fifteen_is_enough_to_go_out_and_less_is_fine_for_the_player_who_stayed_in() -> None:
    assert problem_fields(0, (15, 10), (0, 0)) == set()
    assert problem_fields(1, (0, 15), (0, 0)) == set()
    assert problem_fields(1, (-5, 15), (0, 0)) == set()


def test_the_score_range_edges_minus_1140_and_4560_are_accepted() -> None:
    assert validate_tally(0, (4560, -1140), (0, 0)).scores == (4560, -1140)
    assert validate_tally(1, (4560, 4560), (0, 0)).scores == (4560, 4560)


@pytest.mark.parametrize("score", [-1145, -2000, 4565, 10_000])
def test_a_score_outside_minus_1140_to_4560_is_refused(score: int) -> None:
    assert problem_fields(0, (100, score), (0, 0)) == {"scores.1"}
    if score > 0:
        assert problem_fields(0, (score, 100), (0, 0)) == {"scores.0"}


def test_the_message_for_an_out_of_range_score_names_the_limits() -> None:
    with pytest.raises(InvalidTally) as refused:
        validate_tally(1, (4565, 100), (0, 0))
    assert [p.field for p in refused.value.problems] == ["scores.0"]
    said = problem_message(refused.value.problems[0], english=True)
    assert "between -1,140 and 4,560" in said


# --- stars -----------------------------------------------------------------------------------


def test_a_negative_star_count_is_refused_for_either_player() -> None:
    assert problem_fields(0, (100, 50), (-1, 0)) == {"stars.0"}
    assert problem_fields(0, (100, 50), (0, -1)) == {"stars.1"}


@pytest.mark.parametrize("stars", [1.5, "1", None, True])
def test_a_star_count_that_is_not_a_whole_number_is_refused(stars: object) -> None:
    assert problem_fields(1, (100, 50), (stars, 0)) == {"stars.0"}


def test_the_player_who_stayed_in_has_at_most_13_stars() -> None:
    assert problem_fields(0, (2000, 1500), (0, 13)) == set()
    assert problem_fields(0, (2000, 1500), (0, 14)) == {"stars.1"}
    assert problem_fields(1, (1500, 2000), (13, 0)) == set()
    assert problem_fields(1, (1500, 2000), (14, 0)) == {"stars.0"}


def test_the_player_who_went_out_has_at_most_14_stars() -> None:
    assert problem_fields(0, (2000, 100), (14, 0)) == set()
    assert problem_fields(0, (2000, 100), (15, 0)) == {"stars.0"}
    assert problem_fields(1, (100, 2000), (0, 14)) == set()
    assert problem_fields(1, (100, 2000), (0, 15)) == {"stars.1"}


# --- several problems at once ----------------------------------------------------------------


def test_every_problem_is_reported_at_once_each_naming_its_field() -> None:
    with pytest.raises(InvalidTally) as refused:
        validate_tally(0, (12, "abc"), (-1, 20))

    problems = refused.value.problems
    assert {p.field for p in problems} == {"scores.0", "scores.1", "stars.0", "stars.1"}
    assert all(isinstance(p, TallyProblem) and p.code in CODES for p in problems)
    for problem in problems:
        assert f"{problem.field}: {problem.code}" in str(refused.value)


def test_a_missing_player_out_is_reported_together_with_bad_scores_and_stars() -> None:
    assert problem_fields(None, (12.5, 100), (0, -2)) == {"out", "scores.0", "stars.1"}


def test_an_invalid_tally_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"out\.missing"):
        validate_tally(7, (100, 100), (0, 0))


# --- the chapeau -----------------------------------------------------------------------------


def test_the_player_who_stayed_in_below_zero_has_a_chapeau() -> None:
    tally = validate_tally(0, (100, -5), (0, 0))

    assert tally.chapeau(B) is True
    assert tally.chapeau(A) is False


def test_a_deal_score_of_zero_is_not_a_chapeau() -> None:
    tally = validate_tally(0, (100, 0), (0, 0))

    assert tally.chapeau(B) is False


def test_a_positive_score_for_the_player_who_stayed_in_is_not_a_chapeau() -> None:
    assert validate_tally(1, (5, 100), (0, 0)).chapeau(A) is False


def test_the_player_who_went_out_never_has_a_chapeau_even_with_a_negative_score() -> None:
    # validate_tally would refuse this score; the chapeau rule must not rely on that.
    tally = Tally(out=A, scores=(-30, -30))

    assert tally.chapeau(A) is False
    assert tally.chapeau(B) is True


# --- warnings: legal but worth a confirmation ------------------------------------------------


def test_a_deal_score_over_1000_asks_for_confirmation() -> None:
    tally = validate_tally(0, (1005, 1200), (0, 0))  # a warning, not a refusal

    assert {w.field for w in tally_warnings(tally)} == {"scores.0", "scores.1"}


def test_a_deal_score_of_exactly_1000_needs_no_confirmation() -> None:
    assert tally_warnings(validate_tally(0, (1000, 1000), (0, 0))) == []


def test_a_star_with_fewer_than_80_points_asks_for_confirmation() -> None:
    tally = validate_tally(1, (-20, 75), (1, 1))

    warnings = tally_warnings(tally)

    assert {w.field for w in warnings} == {"stars.0", "stars.1"}
    assert {w.code for w in warnings} == {"warning.star_on_low_score"}
    assert all("is unusual" in problem_message(w, english=True) for w in warnings)


def test_a_star_with_80_points_needs_no_confirmation() -> None:
    assert tally_warnings(validate_tally(0, (80, 80), (1, 1))) == []


def test_a_low_score_without_a_star_needs_no_confirmation() -> None:
    assert tally_warnings(validate_tally(0, (15, -300), (0, 0))) == []


def test_an_ordinary_deal_has_no_warnings() -> None:
    assert tally_warnings(validate_tally(1, (140, 350), (0, 1))) == []
