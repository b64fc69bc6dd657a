"""Properties of replay and settlement over random valid games (Hypothesis).

The generated games are valid deal by deal (every tally goes through
:func:`validate_tally`) and are cut at the deal that ends them, so they can be
replayed without :class:`DealAfterEnd`. A sequence that runs out before the
end is finished by the player in the lead going out with a star.
"""

import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    MAX_DEAL_SCORE,
    MIN_OUT_SCORE,
    PRESETS,
    DealAfterEnd,
    DifferenceRule,
    LineKind,
    Rules,
    Scorecard,
    Seat,
    Settlement,
    SkunkRule,
    Stakes,
    Tally,
    ends_with,
    replay,
    settle,
    validate_tally,
)
from scorekeeper.engine.rules import MAX_STAKE

pytestmark = pytest.mark.slow  # Hypothesis: a hundred games per property

Game = tuple[Rules, Seat, list[Tally]]

SETTINGS = settings(deadline=None, max_examples=100)


# --- strategies ------------------------------------------------------------------------------


@st.composite
def tallies(draw: st.DrawFn) -> Tally:
    """One deal as a scorekeeper could enter it."""
    out = draw(st.sampled_from(Seat))
    # Mostly 15…600 for the player who went out, now and then anything up to 4,560.
    out_score = 5 * draw(st.one_of(st.integers(3, 120), st.integers(3, 120), st.integers(3, 912)))
    stayed_in_score = 5 * draw(st.integers(-60, 120))
    stars = (draw(st.integers(0, 2)), draw(st.integers(0, 2)))
    scores = (out_score, stayed_in_score) if out is Seat.FIRST else (stayed_in_score, out_score)
    return validate_tally(out, scores, stars)


rules_strategy = st.one_of(
    st.sampled_from(list(PRESETS.values())),
    st.builds(
        Rules,
        target=st.integers(10, 60).map(lambda k: 50 * k),
        progressive=st.booleans(),
        natural_needed=st.booleans(),
        skunk=st.sampled_from(SkunkRule),
        difference=st.sampled_from(DifferenceRule),
    ),
)

stakes_strategy = st.one_of(
    st.integers(1, MAX_STAKE // 3).map(Stakes.from_small),
    st.builds(Stakes, small=st.integers(1, MAX_STAKE), big=st.integers(1, MAX_STAKE)),
)


def cut_at_end(rules: Rules, first: Seat, deals: list[Tally]) -> list[Tally]:
    """The deals up to the one that ends the game, finishing it if they never do."""
    for count in range(1, len(deals) + 1):
        if replay(rules, first, deals[:count]).finished:
            return deals[:count]
    deals = list(deals)
    while not (card := replay(rules, first, deals)).finished:
        leader = Seat.FIRST if card.totals[0] >= card.totals[1] else Seat.SECOND
        needed = rules.target + 5 - card.totals[leader]
        score = min(MAX_DEAL_SCORE, max(MIN_OUT_SCORE, needed))
        scores = (score, 0) if leader is Seat.FIRST else (0, score)
        stars = (1, 0) if leader is Seat.FIRST else (0, 1)
        deals.append(validate_tally(leader, scores, stars))
    return deals


@st.composite
def finished_games(draw: st.DrawFn) -> Game:
    rules = draw(rules_strategy)
    first = draw(st.sampled_from(Seat))
    deals = draw(st.lists(tallies(), min_size=1, max_size=30))
    return rules, first, cut_at_end(rules, first, deals)


@st.composite
def games_in_any_state(draw: st.DrawFn) -> Game:
    """A game cut at its end, or any prefix of one (possibly empty, still in progress)."""
    rules, first, deals = draw(finished_games())
    played = draw(st.integers(0, len(deals)))
    return rules, first, deals[:played]


def settled(game: Game, stakes: Stakes) -> tuple[Scorecard, Settlement]:
    rules, first, deals = game
    card = replay(rules, first, deals)
    return card, settle(card, stakes)


# --- an independent reading of RULES.md §4 ---------------------------------------------------


def rules_md_round(total: int) -> int:
    """floor((x + 50) / 100) × 100, computed with exact fractions."""
    return math.floor(Fraction(total + 50, 100)) * 100


def rules_md_payment(card: Scorecard, stakes: Stakes) -> int:
    """What RULES.md §4 says the loser pays, written from the text, not the engine."""
    rules, winner = card.rules, card.winner
    assert winner is not None
    won, lost = card.totals[winner], card.totals[winner.other]
    if rules.difference is DifferenceRule.CEIL:
        difference = max(0, math.ceil(Fraction(won - lost, 100)))
    else:
        difference = max(0, (rules_md_round(won) - rules_md_round(lost)) // 100)
    n, c = card.stars[winner], card.chapeaux[winner.other]
    if rules.progressive:
        n, c = n * (n + 1) // 2, c * (c + 1) // 2
    payment = stakes.big + stakes.small * difference + stakes.big * n + stakes.big * c
    skunked = Fraction(lost) < Fraction(rules.target, 2)
    if skunked and rules.skunk is SkunkRule.MARK:
        payment += stakes.big
    if skunked and rules.skunk is SkunkRule.MULTIPLY:
        payment *= 3 if lost < 0 else 2
    return payment


# --- properties ------------------------------------------------------------------------------


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_the_settlement_agrees_with_the_rules_md_formulas(game: Game, stakes: Stakes) -> None:
    card, settlement = settled(game, stakes)

    assert settlement.total == rules_md_payment(card, stakes)


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_the_total_is_the_sum_of_the_lines_times_the_multiplier(game: Game, stakes: Stakes) -> None:
    _, settlement = settled(game, stakes)

    line_sum = sum(sum(line.terms) for line in settlement.lines)
    assert settlement.total == line_sum * settlement.multiplier
    assert all(line.amount == sum(line.terms) for line in settlement.lines)


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_the_multiplier_is_one_two_or_three_and_one_when_the_skunk_is_marked(
    game: Game, stakes: Stakes
) -> None:
    card, settlement = settled(game, stakes)

    assert settlement.multiplier in {1, 2, 3}
    if card.rules.skunk is SkunkRule.MARK:
        assert settlement.multiplier == 1
    if not settlement.skunk:
        assert settlement.multiplier == 1
        assert LineKind.SKUNK not in {line.kind for line in settlement.lines}


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_the_loser_always_pays_at_least_the_game(game: Game, stakes: Stakes) -> None:
    card, settlement = settled(game, stakes)

    assert settlement.total >= stakes.big > 0
    assert settlement.payee is card.winner
    assert settlement.payer is card.loser
    assert settlement.difference >= 0
    assert all(line.count > 0 and line.amount > 0 for line in settlement.lines)


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy, data=st.data())
def test_a_star_more_for_the_winner_never_lowers_what_the_winner_is_paid(
    game: Game, stakes: Stakes, data: st.DataObject
) -> None:
    rules, first, deals = game
    card, before = settled(game, stakes)
    winner = card.winner
    assert winner is not None
    index = data.draw(st.integers(0, len(deals) - 1), label="deal given the star")
    stars = list(deals[index].stars)
    stars[winner] += 1
    starred = [
        *deals[:index],
        replace(deals[index], stars=(stars[0], stars[1])),
        *deals[index + 1 :],
    ]
    try:
        card_after: Scorecard | None = replay(rules, first, starred)
    except DealAfterEnd:
        card_after = None  # the star ended a natural-needed game earlier: another game
    assume(card_after is not None and card_after.winner is winner)
    assert card_after is not None

    after = settle(card_after, stakes)

    assert after.total >= before.total
    n = card.stars[winner] + 1
    one_more = stakes.big * (n if rules.progressive else 1)
    assert after.total - before.total == one_more * before.multiplier


@SETTINGS
@given(game=games_in_any_state())
def test_replay_depends_only_on_the_deals(game: Game) -> None:
    rules, first, deals = game

    assert replay(rules, first, deals) == replay(rules, first, list(deals))
    assert replay(rules, first, deals) == replay(rules, first, tuple(deals))


@SETTINGS
@given(game=finished_games())
def test_replaying_a_prefix_gives_the_prefix_of_the_lines(game: Game) -> None:
    rules, first, deals = game
    full = replay(rules, first, deals)

    for count in range(len(deals) + 1):
        prefix = replay(rules, first, deals[:count])
        assert prefix.lines == full.lines[:count]
        assert prefix.finished is (count == len(deals))


@SETTINGS
@given(game=games_in_any_state(), tally=tallies())
def test_ends_with_tells_from_the_totals_alone_what_the_replay_says(
    game: Game, tally: Tally
) -> None:
    """The game service decides from the game's stored totals and stars, before reading
    its deals, whether a deal ends the game (and so whether to lock the league)."""
    rules, first, deals = game
    card = replay(rules, first, deals)
    assume(not card.finished)

    ends = ends_with(rules, card.totals, card.stars, tally)

    assert ends is replay(rules, first, [*deals, tally]).finished


@SETTINGS
@given(game=games_in_any_state())
def test_the_totals_are_the_sums_of_the_deal_scores(game: Game) -> None:
    rules, first, deals = game
    card = replay(rules, first, deals)

    for seat in Seat:
        assert card.totals[seat] == sum(tally.scores[seat] for tally in deals)
        assert card.stars[seat] == sum(tally.stars[seat] for tally in deals)
        running = 0
        for line, tally in zip(card.lines, deals, strict=True):
            running += tally.scores[seat]
            assert line.totals[seat] == running
            assert line.tally == tally


@SETTINGS
@given(game=games_in_any_state())
def test_the_chapeaux_are_the_deals_where_the_player_who_stayed_in_went_below_zero(
    game: Game,
) -> None:
    rules, first, deals = game
    card = replay(rules, first, deals)

    for seat in Seat:
        expected = sum(1 for t in deals if t.out is not seat and t.scores[seat] < 0)
        assert card.chapeaux[seat] == expected


@SETTINGS
@given(game=finished_games())
def test_the_winner_has_met_the_end_condition(game: Game) -> None:
    card = replay(*game)
    winner = card.winner
    assert winner is not None

    assert card.qualifies(winner)
    assert card.totals[winner] >= card.rules.target
    if card.qualifies(winner.other) or not card.rules.natural_needed:
        assert card.totals[winner] > card.totals[winner.other]


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_progressive_naturals_are_paid_b_times_a_triangular_number(
    game: Game, stakes: Stakes
) -> None:
    rules, first, deals = game
    card = replay(replace(rules, progressive=True), first, deals)
    assume(card.finished)
    settlement = settle(card, stakes)
    assert card.winner is not None
    n = card.stars[card.winner]
    naturals = [line for line in settlement.lines if line.kind is LineKind.NATURALS]

    if n == 0:
        assert naturals == []
    else:
        assert naturals[0].count == n
        assert naturals[0].amount == stakes.big * n * (n + 1) // 2
        assert naturals[0].terms == tuple(stakes.big * k for k in range(1, n + 1))


@SETTINGS
@given(game=finished_games(), stakes=stakes_strategy)
def test_standard_naturals_and_chapeaux_are_paid_b_each(game: Game, stakes: Stakes) -> None:
    rules, first, deals = game
    card = replay(replace(rules, progressive=False), first, deals)
    assume(card.finished)
    settlement = settle(card, stakes)
    assert card.winner is not None
    assert card.loser is not None
    paid = {line.kind: line.amount for line in settlement.lines}

    assert paid.get(LineKind.NATURALS, 0) == stakes.big * card.stars[card.winner]
    assert paid.get(LineKind.CHAPEAUX, 0) == stakes.big * card.chapeaux[card.loser]
