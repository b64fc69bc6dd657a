"""RULES.md §5: every worked example, replayed deal by deal and then settled.

Examples 1–4 come from the Pagat text, whose totals (1,252, 649, 1,236, 1,169)
are not multiples of 5: no real deal reaches them, so their last deal is
written as a raw :class:`Tally` (the settlement arithmetic is what they
check). Each is followed by a twin whose totals real cards can reach, entered
through :func:`validate_tally`, that must settle the same.
"""

from scorekeeper.engine import (
    PRESETS,
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
    replay,
    settle,
    validate_tally,
)

A, B = Seat.FIRST, Seat.SECOND
ONE_THREE = Stakes(small=100, big=300)  # $1–$3


def deal(out: Seat, a: int, b: int, stars: tuple[int, int] = (0, 0)) -> Tally:
    """A deal as the scorekeeper enters it, through the validation the app uses."""
    return validate_tally(out, (a, b), stars)


def raw_deal(out: Seat, a: int, b: int, stars: tuple[int, int] = (0, 0)) -> Tally:
    """A deal the examples need but cards can't make (a score that is not a multiple of 5)."""
    return Tally(out=out, scores=(a, b), stars=stars)


def by_kind(settlement: Settlement) -> dict[LineKind, SettlementLine]:
    kinds = [line.kind for line in settlement.lines]
    assert len(kinds) == len(set(kinds)), "each kind of payment is one line"
    return {line.kind: line for line in settlement.lines}


def card_of(rules: Rules, *tallies: Tally) -> Scorecard:
    return replay(rules, A, tallies)


# Examples 1–3: the winner (A) has 2 stars and 1 chapeau, the loser (B) 1 star and 1 chapeau.
OPENING = (
    deal(B, -40, 165, stars=(0, 1)),  # A's chapeau, B's star
    deal(A, 400, -60, stars=(1, 0)),  # B's chapeau, A's first star
    deal(A, 355, 200, stars=(1, 0)),  # A's second star
)  # A 715, B 305


def test_example_one_winner_1252_loser_649_pays_19_dollars() -> None:
    card = card_of(Rules(), *OPENING, deal(B, 250, 300), raw_deal(A, 287, 44))
    assert card.totals == (1252, 649)
    assert card.stars == (2, 1)
    assert card.chapeaux == (1, 1)
    assert card.winner is A

    settlement = settle(card, ONE_THREE)

    assert (settlement.payer, settlement.payee) == (B, A)
    assert settlement.rounded == (1300, 600)
    assert settlement.difference == 7
    assert settlement.skunk is False
    assert settlement.multiplier == 1
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME, LineKind.DIFFERENCE, LineKind.NATURALS, LineKind.CHAPEAUX}
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (7, 700)
    assert (lines[LineKind.NATURALS].count, lines[LineKind.NATURALS].amount) == (2, 600)
    assert (lines[LineKind.CHAPEAUX].count, lines[LineKind.CHAPEAUX].amount) == (1, 300)
    assert settlement.total == 1900
    assert format_money(settlement.total) == "19.00"


def test_example_one_with_reachable_totals_1255_and_645_also_pays_19_dollars() -> None:
    card = card_of(Rules(), *OPENING, deal(B, 250, 300), deal(A, 290, 40))
    assert card.totals == (1255, 645)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1300, 600)
    assert settlement.total == 1900


def test_example_two_loser_650_rounds_up_to_700_and_pays_18_dollars() -> None:
    card = card_of(Rules(), *OPENING, deal(B, 250, 300), raw_deal(A, 287, 45))
    assert card.totals == (1252, 650)
    assert (card.stars, card.chapeaux, card.winner) == ((2, 1), (1, 1), A)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1300, 700)
    assert settlement.difference == 6
    assert settlement.skunk is False
    assert settlement.multiplier == 1
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME, LineKind.DIFFERENCE, LineKind.NATURALS, LineKind.CHAPEAUX}
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (6, 600)
    assert (lines[LineKind.NATURALS].count, lines[LineKind.NATURALS].amount) == (2, 600)
    assert (lines[LineKind.CHAPEAUX].count, lines[LineKind.CHAPEAUX].amount) == (1, 300)
    assert settlement.total == 1800
    assert format_money(settlement.total) == "18.00"


def test_example_three_loser_590_is_skunked_and_pays_double_38_dollars() -> None:
    card = card_of(Rules(), *OPENING, deal(B, 250, 245), raw_deal(A, 287, 40))
    assert card.totals == (1252, 590)
    assert (card.stars, card.chapeaux, card.winner) == ((2, 1), (1, 1), A)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1300, 600)
    assert settlement.difference == 7
    assert settlement.skunk is True
    assert settlement.multiplier == 2
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME, LineKind.DIFFERENCE, LineKind.NATURALS, LineKind.CHAPEAUX}
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (7, 700)
    assert (lines[LineKind.NATURALS].count, lines[LineKind.NATURALS].amount) == (2, 600)
    assert (lines[LineKind.CHAPEAUX].count, lines[LineKind.CHAPEAUX].amount) == (1, 300)
    assert settlement.subtotal == 1900
    assert settlement.total == 3800
    assert format_money(settlement.total) == "38.00"


def test_example_four_both_totals_round_to_1200_so_only_the_game_is_paid() -> None:
    card = card_of(Rules(), deal(A, 400, 300), deal(B, 300, 350), raw_deal(A, 536, 519))
    assert card.totals == (1236, 1169)
    assert (card.stars, card.chapeaux, card.winner) == ((0, 0), (0, 0), A)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1200, 1200)
    assert settlement.difference == 0
    assert settlement.skunk is False
    assert settlement.multiplier == 1
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME}
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert settlement.total == 300
    assert format_money(settlement.total) == "3.00"


def test_example_four_with_reachable_totals_1235_and_1170_also_pays_3_dollars() -> None:
    card = card_of(Rules(), deal(A, 400, 300), deal(B, 300, 350), deal(A, 535, 520))
    assert card.totals == (1235, 1170)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1200, 1200)
    assert [line.kind for line in settlement.lines] == [LineKind.GAME]
    assert settlement.total == 300


def progressive_game(stars_in_fourth_deal: int) -> Scorecard:
    """Example 5: A ends at 2,100 with 4 stars (or 5), B at 860 with 3 chapeaux."""
    return card_of(
        PRESETS[Preset.PROGRESSIVE],
        deal(A, 500, -20, stars=(1, 0)),
        deal(A, 450, -35, stars=(1, 0)),
        deal(B, 200, 400),
        deal(A, 300, -10, stars=(stars_in_fourth_deal, 0)),
        deal(B, 650, 525),
    )


def test_example_five_progressive_game_to_2000_pays_66_dollars() -> None:
    card = progressive_game(stars_in_fourth_deal=2)
    assert card.rules.target == 2000
    assert card.totals == (2100, 860)
    assert card.stars == (4, 0)
    assert card.chapeaux == (0, 3)
    assert card.winner is A

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (2100, 900)
    assert settlement.difference == 12
    assert settlement.skunk is True
    assert settlement.multiplier == 1  # the progressive preset marks the skunk
    lines = by_kind(settlement)
    assert set(lines) == set(LineKind)
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (12, 1200)
    assert (lines[LineKind.SKUNK].count, lines[LineKind.SKUNK].amount) == (1, 300)
    assert lines[LineKind.NATURALS].count == 4
    assert lines[LineKind.NATURALS].terms == (300, 600, 900, 1200)
    assert lines[LineKind.NATURALS].amount == 3000
    assert lines[LineKind.CHAPEAUX].count == 3
    assert lines[LineKind.CHAPEAUX].terms == (300, 600, 900)
    assert lines[LineKind.CHAPEAUX].amount == 1800
    assert settlement.total == 6600
    assert format_money(settlement.total) == "66.00"


def test_example_five_with_five_stars_pays_45_for_naturals_and_81_dollars() -> None:
    card = progressive_game(stars_in_fourth_deal=3)
    assert (card.totals, card.stars, card.chapeaux) == ((2100, 860), (5, 0), (0, 3))

    settlement = settle(card, ONE_THREE)

    lines = by_kind(settlement)
    assert lines[LineKind.NATURALS].count == 5
    assert lines[LineKind.NATURALS].terms == (300, 600, 900, 1200, 1500)
    assert lines[LineKind.NATURALS].amount == 4500
    assert lines[LineKind.CHAPEAUX].amount == 1800
    assert lines[LineKind.SKUNK].amount == 300
    assert settlement.multiplier == 1
    assert settlement.total == 8100
    assert format_money(settlement.total) == "81.00"


# Example 6: the Wikipedia score card. A went out in deals 2, 3, 4, 6 and 7, B in 1 and 5.
WIKIPEDIA_DEALS = (
    deal(B, 140, 350),
    deal(A, 290, 160),
    deal(A, 220, 80, stars=(1, 0)),
    deal(A, 150, -50),
    deal(B, 140, 300, stars=(0, 1)),
    deal(A, 210, 190),
    deal(A, 125, 150),
)
WIKIPEDIA_TOTALS = [
    (140, 350),
    (430, 510),
    (650, 590),
    (800, 540),
    (940, 840),
    (1150, 1030),
    (1275, 1180),
]


def test_example_six_the_wikipedia_card_has_its_running_totals() -> None:
    card = card_of(Rules(), *WIKIPEDIA_DEALS)

    assert [line.totals for line in card.lines] == WIKIPEDIA_TOTALS
    assert [line.number for line in card.lines] == [1, 2, 3, 4, 5, 6, 7]
    assert card.totals == (1275, 1180)


def test_example_six_only_b_is_circled_and_only_in_deal_four() -> None:
    card = card_of(Rules(), *WIKIPEDIA_DEALS)

    circled = [(line.number, seat) for line in card.lines for seat in Seat if line.chapeau(seat)]
    assert circled == [(4, B)]
    assert card.chapeaux == (0, 1)


def test_example_six_stars_are_a_in_deal_three_and_b_in_deal_five() -> None:
    card = card_of(Rules(), *WIKIPEDIA_DEALS)

    starred = [
        (line.number, seat) for line in card.lines for seat in Seat if line.tally.stars[seat]
    ]
    assert starred == [(3, A), (5, B)]
    assert [line.stars_so_far for line in card.lines] == [
        (0, 0),
        (0, 0),
        (1, 0),
        (1, 0),
        (1, 1),
        (1, 1),
        (1, 1),
    ]


def test_example_six_is_not_finished_before_deal_seven() -> None:
    for played in range(1, 7):
        card = card_of(Rules(), *WIKIPEDIA_DEALS[:played])
        assert card.finished is False, f"finished after deal {played}"
        assert card.winner is None


def test_example_six_a_wins_after_deal_seven() -> None:
    card = card_of(Rules(), *WIKIPEDIA_DEALS)

    assert card.finished is True
    assert card.winner is A
    assert card.loser is B


def test_example_six_pays_10_dollars_under_the_round_difference_rule() -> None:
    card = card_of(Rules(target=1200, difference=DifferenceRule.ROUND), *WIKIPEDIA_DEALS)

    settlement = settle(card, ONE_THREE)

    assert settlement.rounded == (1300, 1200)
    assert settlement.difference == 1
    assert settlement.skunk is False
    assert settlement.multiplier == 1
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME, LineKind.DIFFERENCE, LineKind.NATURALS, LineKind.CHAPEAUX}
    assert (lines[LineKind.GAME].count, lines[LineKind.GAME].amount) == (1, 300)
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (1, 100)
    assert (lines[LineKind.NATURALS].count, lines[LineKind.NATURALS].amount) == (1, 300)
    assert (lines[LineKind.CHAPEAUX].count, lines[LineKind.CHAPEAUX].amount) == (1, 300)
    assert settlement.total == 1000
    assert format_money(settlement.total) == "10.00"


def test_example_six_pays_10_dollars_under_the_ceil_difference_rule() -> None:
    card = card_of(Rules(target=1200, difference=DifferenceRule.CEIL), *WIKIPEDIA_DEALS)

    settlement = settle(card, ONE_THREE)

    assert settlement.difference == 1  # won by 95: one started hundred
    assert settlement.multiplier == 1
    lines = by_kind(settlement)
    assert set(lines) == {LineKind.GAME, LineKind.DIFFERENCE, LineKind.NATURALS, LineKind.CHAPEAUX}
    assert (lines[LineKind.DIFFERENCE].count, lines[LineKind.DIFFERENCE].amount) == (1, 100)
    assert settlement.total == 1000


def test_example_six_pays_10_dollars_under_every_preset_that_ends_at_1200() -> None:
    for preset in (Preset.STANDARD, Preset.MARKS):
        rules = PRESETS[preset]
        assert rules.target == 1200
        card = card_of(rules, *WIKIPEDIA_DEALS)
        assert settle(card, ONE_THREE).total == 1000, preset


def test_example_six_pays_10_dollars_with_a_marked_skunk_rule_too() -> None:
    rules = Rules(skunk=SkunkRule.MARK, difference=DifferenceRule.ROUND)
    card = card_of(rules, *WIKIPEDIA_DEALS)

    settlement = settle(card, ONE_THREE)

    assert LineKind.SKUNK not in by_kind(settlement)  # 1,180 is far above half of 1,200
    assert settlement.total == 1000
