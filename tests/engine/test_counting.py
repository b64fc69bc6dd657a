"""Counting help: deal scores and stars from the cards (RULES.md §1–2).

The engine reports codes and values; what they say is the catalog's
(``scorekeeper/web/messages.py``), read here in English as the API says it.
"""

from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    CardSet,
    Count,
    Hand,
    ImpossibleCards,
    PlayerCards,
    Rank,
    Seat,
    TallyProblem,
    count_deal,
    validate_tally,
)
from scorekeeper.web.messages import problem_message, set_description

NAMES = ("Ana", "Ben")
ANA, BEN = Seat.FIRST, Seat.SECOND
#: A player who stayed in with nothing on the table and one 5-point card in hand.
ONE_CARD_LEFT = PlayerCards((), Hand(threes_to_nines=1))
#: A player who went out with three kings.
THREE_KINGS = PlayerCards((CardSet(Rank.KING, 3),))


def words(problem: TallyProblem) -> str:
    """The problem as the API says it."""
    return problem_message(problem, english=True)


def said(problem: TallyProblem) -> tuple[str, str]:
    return problem.field, words(problem)


def problems_of(first: PlayerCards, second: PlayerCards, out: Seat = ANA) -> list[TallyProblem]:
    with pytest.raises(ImpossibleCards) as caught:
        count_deal(out, (first, second), NAMES)
    return list(caught.value.problems)


def only_problem(first: PlayerCards, second: PlayerCards, out: Seat = ANA) -> TallyProblem:
    problems = problems_of(first, second, out)
    assert len(problems) == 1, problems
    return problems[0]


# --- Card values -------------------------------------------------------------


def test_every_rank_has_the_points_of_its_ordinary_card() -> None:
    assert [rank.points for rank in Rank] == [20, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 15]
    assert [rank.value for rank in Rank] == [str(n) for n in range(2, 11)] + ["J", "Q", "K", "A"]


def test_a_hand_counts_each_class_of_card_at_its_value() -> None:
    hand = Hand(1, 1, 1, 1, 1, 1)
    assert hand.points == 100 + 50 + 20 + 15 + 10 + 5
    assert hand.cards == 6


def test_a_set_counts_its_special_cards_and_wild_twos() -> None:
    assert CardSet(Rank.QUEEN, 3, wild_twos=1, specials=1).points == 100 + 2 * 10 + 20
    assert CardSet(Rank.JACK, 3, specials=2).points == 2 * 50 + 10


# --- Scores and stars --------------------------------------------------------


def test_eight_twos_count_320_and_give_a_star() -> None:
    eight_twos = PlayerCards((CardSet(Rank.TWO, 8),), Hand(threes_to_nines=1))
    count = count_deal(ANA, (THREE_KINGS, eight_twos), NAMES)
    line = count.breakdown[BEN][0]
    assert (line.points, line.factor, line.natural_set) == (320, 2, True)
    assert set_description(line) == "8 twos, natural set: 8 × 20 × 2 = 320"
    assert count.tally.scores[BEN] == 320 - 5
    assert count.tally.stars[BEN] == 1


def test_eight_queens_with_both_queens_of_spades_count_520() -> None:
    queens = PlayerCards((CardSet(Rank.QUEEN, 8, specials=2),), Hand(threes_to_nines=1))
    count = count_deal(ANA, (THREE_KINGS, queens), NAMES)
    line = count.breakdown[BEN][0]
    assert line.points == 520
    assert set_description(line) == "8 queens (2 Q♠), natural set: (2 × 100 + 6 × 10) × 2 = 520"
    assert count.tally.stars == (1, 1)  # Ana went out naturally with her kings


def test_a_natural_going_out_with_a_natural_set_counts_it_four_times_and_earns_two_stars() -> None:
    ana = PlayerCards((CardSet(Rank.TEN, 8), CardSet(Rank.KING, 3)))
    count = count_deal(ANA, (ana, ONE_CARD_LEFT), NAMES)
    assert count.natural_going_out
    assert count.tally.scores == (8 * 10 * 4 + 3 * 10 * 2, -5)
    assert count.tally.stars == (2, 0)
    assert [line.factor for line in count.breakdown[ANA]] == [4, 2]
    assert set_description(count.breakdown[ANA][0]) == (
        "8 tens, natural set, natural going out: 8 × 10 × 4 = 320"
    )
    assert count.hand_points == (0, 5)
    assert count.table_points == (380, 0)


def test_a_player_who_went_out_with_a_wild_two_is_not_a_natural_going_out() -> None:
    ana = PlayerCards((CardSet(Rank.TEN, 8), CardSet(Rank.KING, 2, wild_twos=1)))
    count = count_deal(ANA, (ana, ONE_CARD_LEFT), NAMES)
    assert not count.natural_going_out
    assert count.tally.scores[ANA] == 8 * 10 * 2 + 2 * 10 + 20
    assert count.tally.stars[ANA] == 1
    assert set_description(count.breakdown[ANA][1]) == "3 kings (1 wild two): 2 × 10 + 1 × 20 = 40"


def test_a_set_made_only_of_twos_still_allows_a_natural_going_out() -> None:
    ana = PlayerCards((CardSet(Rank.TWO, 3), CardSet(Rank.SEVEN, 3)))
    count = count_deal(ANA, (ana, ONE_CARD_LEFT), NAMES)
    assert count.natural_going_out
    assert count.tally.scores[ANA] == (3 * 20 + 3 * 5) * 2
    assert count.tally.stars[ANA] == 1


def test_a_wild_two_in_the_stayed_in_players_sets_costs_the_player_who_went_out_nothing() -> None:
    ben = PlayerCards((CardSet(Rank.NINE, 2, wild_twos=1),), Hand(aces=1))
    count = count_deal(ANA, (THREE_KINGS, ben), NAMES)
    assert count.natural_going_out
    assert count.tally.scores == (60, 2 * 5 + 20 - 15)


def test_a_player_who_stayed_in_with_a_natural_set_and_a_heavy_hand_has_a_chapeau_and_a_star() -> (
    None
):
    ben = PlayerCards(
        (CardSet(Rank.FIVE, 8),),
        Hand(queen_of_spades=2, jack_of_diamonds=2, aces=3),
    )
    count = count_deal(ANA, (THREE_KINGS, ben), NAMES)
    assert count.tally.scores[BEN] == 8 * 5 * 2 - (200 + 100 + 45)
    assert count.tally.chapeau(BEN)
    assert count.tally.stars[BEN] == 1
    assert count.hand_points == (0, 345)


def test_the_hand_is_never_doubled() -> None:
    ben = PlayerCards((CardSet(Rank.ACE, 8),), Hand(twos=1))
    count = count_deal(ANA, (THREE_KINGS, ben), NAMES)
    assert count.tally.scores[BEN] == 8 * 15 * 2 - 20


def test_the_second_player_can_go_out() -> None:
    ana = PlayerCards((CardSet(Rank.FOUR, 3),), Hand(tens_to_kings=2))
    count = count_deal(BEN, (ana, THREE_KINGS), NAMES)
    assert count.tally.out == BEN
    assert count.tally.scores == (15 - 20, 60)
    assert count.tally.chapeau(ANA)
    assert count.hand_points == (20, 0)


def test_the_names_default_to_player_1_and_player_2() -> None:
    with pytest.raises(ImpossibleCards) as refused:
        count_deal(ANA, (THREE_KINGS, PlayerCards((), Hand(aces=-1))))
    assert words(refused.value.problems[0]).startswith("Player 2's hand")


# --- Impossible cards --------------------------------------------------------


def test_a_set_needs_at_least_three_cards() -> None:
    ana = PlayerCards((CardSet(Rank.KING, 3), CardSet(Rank.QUEEN, 1, wild_twos=1)))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert said(problem) == (
        "cards.0.sets.1",
        "Ana's set 2 (queens): a set needs at least three cards.",
    )


def test_a_set_needs_a_natural_card() -> None:
    ben = PlayerCards((CardSet(Rank.SIX, 0, wild_twos=3),), Hand(aces=1))
    problem = only_problem(THREE_KINGS, ben)
    assert problem.field == "cards.1.sets.0"
    assert words(problem).startswith("Ben's set 1 (sixes): a set needs at least one natural card")


def test_a_set_of_twos_has_no_wild_twos() -> None:
    ana = PlayerCards((CardSet(Rank.TWO, 2, wild_twos=1),))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert problem.field == "cards.0.sets.0"
    assert words(problem).startswith("Ana's set 1 (twos): in a set of twos no two is wild")


def test_only_queens_and_jacks_hold_special_cards() -> None:
    ana = PlayerCards((CardSet(Rank.KING, 3, specials=1),))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert problem.field == "cards.0.sets.0"
    assert words(problem).startswith("Ana's set 1 (kings): only a set of queens")


def test_a_set_holds_no_more_special_cards_than_natural_cards() -> None:
    ana = PlayerCards((CardSet(Rank.JACK, 1, wild_twos=2, specials=2),))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert said(problem) == (
        "cards.0.sets.0",
        "Ana's set 1 (jacks): it can't hold more J♦ than natural jacks.",
    )


def test_a_set_holds_at_most_eight_natural_cards() -> None:
    ana = PlayerCards((CardSet(Rank.NINE, 9),))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert said(problem) == (
        "cards.0.sets.0",
        "Ana's set 1 (nines): 9 nines, but two decks have only 8.",
    )


def test_eight_queens_must_include_both_queens_of_spades() -> None:
    ana = PlayerCards((CardSet(Rank.QUEEN, 8, specials=1),))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert said(problem) == (
        "cards.0.sets.0",
        "Ana's set 1 (queens): 7 queens other than Q♠, but two decks have only 6.",
    )


def test_both_players_together_hold_at_most_eight_cards_of_a_rank() -> None:
    ana = PlayerCards((CardSet(Rank.TEN, 5),))
    ben = PlayerCards((CardSet(Rank.TEN, 4),), Hand(aces=1))
    problem = only_problem(ana, ben)
    assert said(problem) == (
        "cards",
        "Ana's set 1 (tens) and Ben's set 1 (tens) hold 9 tens together, "
        "but two decks have only 8.",
    )


def test_natural_wild_and_held_twos_together_are_at_most_eight() -> None:
    ana = PlayerCards((CardSet(Rank.TWO, 4), CardSet(Rank.KING, 2, wild_twos=1)))
    ben = PlayerCards((CardSet(Rank.ACE, 1, wild_twos=2),), Hand(twos=2))
    problem = only_problem(ana, ben)
    assert problem.field == "cards"
    assert words(problem) == (
        "Ana's set 1 (twos), Ana's set 2 (kings), Ben's set 1 (aces) and Ben's hand "
        "hold 9 twos together, but two decks have only 8."
    )


def test_there_are_only_two_queens_of_spades_and_two_jacks_of_diamonds() -> None:
    ana = PlayerCards((CardSet(Rank.QUEEN, 3, specials=2), CardSet(Rank.JACK, 3, specials=2)))
    ben = PlayerCards((), Hand(queen_of_spades=1, jack_of_diamonds=1))
    messages = [words(p) for p in problems_of(ana, ben)]
    assert messages == [
        "Ana's set 1 (queens) and Ben's hand hold 3 Q♠ together, but two decks have only 2.",
        "Ana's set 2 (jacks) and Ben's hand hold 3 J♦ together, but two decks have only 2.",
    ]


def test_aces_in_hand_count_against_the_aces_on_the_table() -> None:
    ana = PlayerCards((CardSet(Rank.ACE, 6),))
    ben = PlayerCards((), Hand(aces=3))
    problem = only_problem(ana, ben)
    assert words(problem) == (
        "Ana's set 1 (aces) and Ben's hand hold 9 aces together, but two decks have only 8."
    )


def test_tens_to_kings_in_hand_count_against_28_ordinary_cards() -> None:
    ana = PlayerCards((CardSet(Rank.TEN, 8), CardSet(Rank.QUEEN, 6, specials=1)))
    ben = PlayerCards((), Hand(tens_to_kings=24))  # 8 + 5 + 24 = 37 > 28
    problem = only_problem(ana, ben)
    assert words(problem) == (
        "Ana's set 1 (tens), Ana's set 2 (queens) and Ben's hand hold 37 cards from 10 to K "
        "other than Q♠ and J♦ together, but two decks have only 28."
    )
    fits = PlayerCards((), Hand(tens_to_kings=28 - 8 - 5))
    assert count_deal(ANA, (ana, fits), NAMES).tally.scores[BEN] < 0


def test_threes_to_nines_in_hand_count_against_56_cards() -> None:
    ana = PlayerCards((CardSet(Rank.THREE, 8), CardSet(Rank.NINE, 3)))
    ben = PlayerCards((CardSet(Rank.FIVE, 3),), Hand(threes_to_nines=43))
    problem = only_problem(ana, ben)
    assert problem.field == "cards"
    assert words(problem).endswith(
        "hold 57 cards from 3 to 9 together, but two decks have only 56."
    )


def test_the_player_who_went_out_holds_nothing_in_hand() -> None:
    ana = PlayerCards((CardSet(Rank.KING, 3),), Hand(aces=1))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert said(problem) == ("cards.0.hand", "Ana went out, so Ana's hand must be empty.")


def test_the_player_who_went_out_has_at_least_one_set() -> None:
    problem = only_problem(ONE_CARD_LEFT, PlayerCards(()), out=BEN)
    assert said(problem) == (
        "cards.1.sets",
        "Ben went out, so Ben must have at least one set on the table.",
    )


def test_the_player_who_stayed_in_still_holds_a_card() -> None:
    problem = only_problem(THREE_KINGS, PlayerCards((CardSet(Rank.ACE, 3),)))
    assert problem.field == "cards.1.hand"
    assert words(problem).startswith("Ben stayed in, so Ben still holds at least one card")


def test_a_player_has_one_set_of_each_rank() -> None:
    ana = PlayerCards((CardSet(Rank.TEN, 4), CardSet(Rank.KING, 3), CardSet(Rank.TEN, 4)))
    problem = only_problem(ana, ONE_CARD_LEFT)
    assert problem.field == "cards.0.sets.2"
    assert words(problem).startswith("Ana's set 3 (tens): Ana already has a set of tens (set 1)")


def test_negative_counts_are_refused() -> None:
    ana = PlayerCards((CardSet(Rank.KING, 4, wild_twos=-1),))
    ben = PlayerCards((), Hand(aces=2, twos=-1))
    problems = problems_of(ana, ben)
    assert ("cards.0.sets.0", "Ana's set 1 (kings): counts of cards can't be negative.") in [
        said(p) for p in problems
    ]
    assert ("cards.1.hand", "Ben's hand: counts of cards can't be negative.") in [
        said(p) for p in problems
    ]


def test_every_problem_is_reported_at_once() -> None:
    ana = PlayerCards((CardSet(Rank.KING, 2), CardSet(Rank.FIVE, 3, specials=1)), Hand(aces=1))
    fields = [p.field for p in problems_of(ana, PlayerCards(()))]
    assert fields == ["cards.0.sets.0", "cards.0.sets.1", "cards.0.hand", "cards.1.hand"]


# --- Properties ----------------------------------------------------------------


@dataclass
class _Deck:
    """What is left of two decks while a deal is drawn."""

    left: dict[Rank, int]  # natural cards of each rank, other than the Q♠ and J♦
    specials: dict[Rank, int]  # the Q♠ and J♦
    twos: int

    def naturals(self, rank: Rank) -> int:
        return self.twos if rank is Rank.TWO else self.left[rank] + self.specials.get(rank, 0)


@dataclass(frozen=True)
class Deal:
    out: Seat
    cards: tuple[PlayerCards, PlayerCards]


def _draw_set(draw: st.DrawFn, deck: _Deck, rank: Rank, wild: bool) -> CardSet | None:
    available = deck.naturals(rank)
    least = 1 if wild and rank is not Rank.TWO else 3
    if available < least:
        return None
    naturals = draw(st.integers(least, available) | st.just(available))
    if rank is Rank.TWO:
        deck.twos -= naturals
        return CardSet(Rank.TWO, naturals)
    fewest, most = (max(0, 3 - naturals), min(deck.twos, 3)) if wild else (0, 0)
    if fewest > most:
        return None
    wild_twos = draw(st.integers(fewest, most))
    specials = 0
    if rank in deck.specials:
        specials = draw(
            st.integers(max(0, naturals - deck.left[rank]), min(deck.specials[rank], naturals))
        )
        deck.specials[rank] -= specials
    deck.left[rank] -= naturals - specials
    deck.twos -= wild_twos
    return CardSet(rank, naturals, wild_twos, specials)


def _draw_sets(draw: st.DrawFn, deck: _Deck, *, least: int, wild: bool) -> tuple[CardSet, ...]:
    ranks = draw(st.permutations(list(Rank)))[: draw(st.integers(least, 5))]
    sets = []
    for rank in ranks:
        card_set = _draw_set(draw, deck, rank, wild and draw(st.booleans()))
        if card_set is not None:
            sets.append(card_set)
    return tuple(sets)


def _draw_hand(draw: st.DrawFn, deck: _Deck) -> Hand:
    def some(available: int) -> int:
        return draw(st.integers(0, min(available, 12)))

    tens_to_kings = sum(deck.left[r] for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING))
    threes_to_nines = sum(deck.left[r] for r in list(Rank)[1:8])
    hand = Hand(
        queen_of_spades=some(deck.specials[Rank.QUEEN]),
        jack_of_diamonds=some(deck.specials[Rank.JACK]),
        twos=some(deck.twos),
        aces=some(deck.left[Rank.ACE]),
        tens_to_kings=some(tens_to_kings),
        threes_to_nines=some(threes_to_nines),
    )
    if hand.cards == 0:
        assume(threes_to_nines > 0)
        hand = Hand(threes_to_nines=1)
    return hand


@st.composite
def deals(draw: st.DrawFn, *, out_natural: bool = False, spare_two: bool = False) -> Deal:
    """A deal two decks can produce; ``spare_two`` keeps one two out of it."""
    deck = _Deck(
        left={r: 6 if r in (Rank.QUEEN, Rank.JACK) else 8 for r in Rank if r is not Rank.TWO},
        specials={Rank.QUEEN: 2, Rank.JACK: 2},
        twos=7 if spare_two else 8,
    )
    out = draw(st.sampled_from(Seat))
    out_sets = _draw_sets(draw, deck, least=1, wild=not out_natural)
    assume(out_sets)
    stayed_in = PlayerCards(_draw_sets(draw, deck, least=0, wild=True), _draw_hand(draw, deck))
    out_cards = PlayerCards(out_sets)
    cards = (out_cards, stayed_in) if out == Seat.FIRST else (stayed_in, out_cards)
    return Deal(out, cards)


def _count(deal: Deal) -> Count:
    return count_deal(deal.out, deal.cards, NAMES)


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(deals())
def test_the_computed_tally_always_passes_validate_tally(deal: Deal) -> None:
    tally = _count(deal).tally
    assert validate_tally(tally.out, tally.scores, tally.stars) == tally


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(deals())
def test_each_score_is_the_sum_of_its_breakdown_less_the_hand(deal: Deal) -> None:
    count = _count(deal)
    out, stayed_in = deal.out, deal.out.other
    assert count.tally.scores[out] == sum(line.points for line in count.breakdown[out])
    assert count.tally.scores[stayed_in] == (
        sum(line.points for line in count.breakdown[stayed_in]) - deal.cards[stayed_in].hand.points
    )
    assert count.hand_points[out] == 0


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(deals())
def test_stars_are_natural_sets_plus_a_natural_going_out(deal: Deal) -> None:
    count = _count(deal)
    for seat in Seat:
        natural_sets = sum(s.natural for s in deal.cards[seat].sets)
        going_out = seat == deal.out and count.natural_going_out
        assert count.tally.stars[seat] == natural_sets + going_out


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(deals())
def test_doubling_rules_never_lower_a_score(deal: Deal) -> None:
    count = _count(deal)
    for seat in Seat:
        cards = deal.cards[seat]
        plain = sum(s.points for s in cards.sets) - (0 if seat == deal.out else cards.hand.points)
        assert count.tally.scores[seat] >= plain
        assert all(line.factor in (1, 2, 4) for line in count.breakdown[seat])


def _with_one_wild_two(card_set: CardSet) -> list[CardSet]:
    """The set with one of its natural cards (ordinary or special) replaced by a wild two."""
    ordinary = card_set.naturals - card_set.specials
    rank, naturals = card_set.rank, card_set.naturals - 1
    variants = []
    if ordinary:
        variants.append(CardSet(rank, naturals, 1, card_set.specials))
    if card_set.specials:
        variants.append(CardSet(rank, naturals, 1, card_set.specials - 1))
    return variants


@pytest.mark.slow
@settings(deadline=None, max_examples=200)
@given(deals(out_natural=True, spare_two=True))
def test_replacing_a_wild_two_by_a_natural_card_never_lowers_the_score(deal: Deal) -> None:
    natural = _count(deal)
    assert natural.natural_going_out
    out_sets = deal.cards[deal.out].sets
    for index, card_set in enumerate(out_sets):
        if card_set.rank is Rank.TWO:
            continue
        for wild_set in _with_one_wild_two(card_set):
            sets = (*out_sets[:index], wild_set, *out_sets[index + 1 :])
            player = PlayerCards(sets)
            cards = (player, deal.cards[1]) if deal.out == ANA else (deal.cards[0], player)
            wild = count_deal(deal.out, cards, NAMES)
            assert not wild.natural_going_out
            assert natural.tally.scores[deal.out] >= wild.tally.scores[deal.out]
            assert natural.tally.stars[deal.out] > wild.tally.stars[deal.out]


_any_count = st.integers(-1, 10)
_any_set = st.builds(
    CardSet, st.sampled_from(Rank), _any_count, st.integers(-1, 4), st.integers(-1, 3)
)
_any_hand = st.builds(Hand, *([st.integers(-1, 12)] * 6))
_any_player = st.builds(PlayerCards, st.lists(_any_set, max_size=4).map(tuple), _any_hand)


@pytest.mark.slow
@settings(deadline=None, max_examples=300)
@given(st.sampled_from(Seat), _any_player, _any_player)
def test_any_cards_either_count_to_a_valid_tally_or_are_refused_by_name(
    out: Seat, first: PlayerCards, second: PlayerCards
) -> None:
    try:
        tally = count_deal(out, (first, second), NAMES).tally
    except ImpossibleCards as refused:
        problems = refused.problems
    else:
        assert validate_tally(tally.out, tally.scores, tally.stars) == tally
        return
    assert problems
    for problem in problems:
        assert problem.field.startswith("cards")
        assert "Ana" in words(problem) or "Ben" in words(problem)
