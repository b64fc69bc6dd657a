"""The fewest payments that settle balances (RULES-MORE-GAMES.md §0, "The settlement")."""

import time
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.settle_up import EXACT_UP_TO, Transfer, exact, fewest_payments
from tests.engine.games_support import brute_force_least, settles

SETTINGS = settings(deadline=None, max_examples=60)


def zero_sum(values: list[int]) -> list[int]:
    return [*values, -sum(values)]


# --- examples -------------------------------------------------------------------------------


def test_nothing_owed_needs_no_payment() -> None:
    assert fewest_payments([]) == ()
    assert fewest_payments([0, 0, 0]) == ()


def test_one_loser_pays_each_winner() -> None:
    assert fewest_payments([-1000, 400, 600]) == (Transfer(0, 1, 400), Transfer(0, 2, 600))


def test_two_pairs_that_cancel_settle_in_two_payments_not_three() -> None:
    plan = fewest_payments([500, -700, -500, 700])
    assert len(plan) == 2
    assert set(plan) == {Transfer(2, 0, 500), Transfer(1, 3, 700)}


def test_a_group_hidden_in_the_balances_is_found() -> None:
    # {+3, +4, −7} and {+5, +6, −11}: 4 payments, where largest-to-largest alone makes 5.
    balances = [3, 5, -11, 4, 6, -7]
    plan = fewest_payments(balances)
    assert len(plan) == 4
    assert settles(balances, plan)


def test_the_plan_is_ordered_by_payer_then_payee() -> None:
    plan = fewest_payments([300, -100, 200, -400])
    assert list(plan) == sorted(plan, key=lambda t: (t.payer, t.payee))


def test_balances_that_do_not_add_up_to_zero_are_refused() -> None:
    with pytest.raises(ValueError, match="add up to zero"):
        fewest_payments([100, -99])


def test_exact_up_to_sixteen_non_zero_balances() -> None:
    assert EXACT_UP_TO == 16
    assert exact([*zero_sum(list(range(1, 16))), 0, 0, 0])
    assert not exact(zero_sum(list(range(1, 17))))


def test_sixteen_balances_settle_well_under_a_second() -> None:
    balances = zero_sum([(-1) ** i * (1000 + 37 * i * i) for i in range(15)])
    start = time.perf_counter()
    plan = fewest_payments(balances)
    elapsed = time.perf_counter() - start
    assert settles(balances, plan)
    assert elapsed < 1.0, f"{elapsed:.3f}s"


def test_beyond_sixteen_the_greedy_plan_still_settles_and_pairs_cancelling_balances() -> None:
    balances = [*zero_sum([(-1) ** i * (100 + i) for i in range(20)]), 250, -250]
    plan = fewest_payments(balances)
    assert settles(balances, plan)
    assert Transfer(22, 21, 250) in plan
    assert len(plan) <= sum(1 for b in balances if b) - 1


# --- properties -----------------------------------------------------------------------------


@st.composite
def zero_sum_lists(draw: st.DrawFn, most: int) -> list[int]:
    """Up to ``most`` balances adding up to zero, small enough values that groups often do."""
    values = draw(st.lists(st.integers(-6, 6).map(lambda v: v * 50), max_size=most - 1))
    return zero_sum(values)


@SETTINGS
@given(zero_sum_lists(most=8))
def test_the_plan_settles_and_is_as_short_as_a_brute_force_finds(balances: list[int]) -> None:
    plan = fewest_payments(balances)
    assert settles(balances, plan)
    assert len(plan) == brute_force_least(balances)


@SETTINGS
@given(zero_sum_lists(most=8))
def test_the_same_balances_always_give_the_same_plan(balances: list[int]) -> None:
    assert fewest_payments(balances) == fewest_payments(list(balances))


@st.composite
def planted_groups(draw: st.DrawFn) -> tuple[list[int], int]:
    """Up to 16 non-zero balances made of groups that each add up to zero, shuffled, and the
    number of groups planted (a lower bound on the most groups there are)."""
    sizes = draw(st.lists(st.integers(2, 5), min_size=1, max_size=8).filter(lambda s: sum(s) <= 16))
    amounts = st.integers(-4000, 4000).filter(bool)
    groups = [
        zero_sum(draw(st.lists(amounts, min_size=size - 1, max_size=size - 1))) for size in sizes
    ]
    groups = [group for group in groups if group[-1]]
    balances = [value for group in groups for value in group]
    return draw(st.permutations(balances)), len(groups)


def most_groups_by_packing(balances: Sequence[int]) -> int:
    """The most disjoint groups adding up to zero, independently of the module: every
    zero-sum subset listed, then the best packing of them, by the lowest player left."""
    values = [b for b in balances if b]
    sums = [0] * (1 << len(values))
    for mask in range(1, len(sums)):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
    subsets = [mask for mask in range(1, len(sums)) if sums[mask] == 0]

    @cache
    def best(left: int) -> int:
        if not left:
            return 0
        lowest = left & -left
        return max((1 + best(left ^ s) for s in subsets if s & lowest and s & left == s), default=0)

    return best((1 << len(values)) - 1)


@settings(deadline=None, max_examples=20)
@given(planted_groups())
def test_up_to_sixteen_balances_the_plan_has_the_exact_least_number_of_payments(
    planted: tuple[list[int], int],
) -> None:
    balances, groups = planted
    plan = fewest_payments(balances)
    assert settles(balances, plan)
    most = most_groups_by_packing(balances)
    assert most >= groups
    assert len(plan) == len(balances) - most


def test_sixteen_balances_in_six_hidden_groups_settle_in_ten_payments() -> None:
    groups = [[3, 4, -7], [5, 6, -11], [100, -40, -60], [1000, -999, -1], [17, -17], [8, -8]]
    balances = [value for group in groups for value in group]
    balances = balances[::2] + balances[1::2]  # the groups scattered among the seats
    assert len(balances) == 16
    plan = fewest_payments(balances)
    assert settles(balances, plan)
    assert len(plan) == 16 - most_groups_by_packing(balances) == 10
