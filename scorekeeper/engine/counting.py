"""Counting help: a deal's tally from the cards each player counts (RULES.md §1–2).

At the end of a deal the scorekeeper enters, for each player, the sets on the
table and, for the player who stayed in, the cards left in hand.
:func:`count_deal` checks that two decks can hold those cards and works out
both deal scores and stars, with a line of arithmetic for every set.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from .cards import ACE, JACK_OF_DIAMONDS, QUEEN_OF_SPADES, TEN_TO_KING, THREE_TO_NINE, TWO
from .tally import Seat, Tally, TallyProblem, validate_tally

#: Each way cards can't come from one deal (RULES.md §1): the ``code`` of a
#: :class:`~.tally.TallyProblem`, worded by the catalog (``scorekeeper/web/messages.py``).
#: A problem about one place (a set, a hand) names it as its ``place``; the catalog writes
#: it first ("Ana's set 2 (kings): …").
CODES: Final = (
    "cards.negative",
    "set.wild_in_twos",
    "set.special_wrong_rank",
    "set.too_many_specials",
    "set.no_natural",
    "set.too_small",
    "set.repeated",
    "out.no_set",
    "out.hand_not_empty",
    "in.hand_empty",
    "deck.too_many",
    "deck.too_many_together",
)

#: Two decks: eight cards of every rank, two of every single card (Q♠, J♦).
CARDS_PER_RANK: Final = 8
COPIES_OF_A_CARD: Final = 2
#: The least number of cards in a set.
MIN_SET_SIZE: Final = 3


class Rank(StrEnum):
    """The rank of a set, as written on the cards."""

    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"

    @property
    def points(self) -> int:
        """What an ordinary card of this rank is worth (not the Q♠ or J♦)."""
        if self is Rank.TWO:
            return TWO
        if self is Rank.ACE:
            return ACE
        if self in _TEN_TO_KING:
            return TEN_TO_KING
        return THREE_TO_NINE

    @property
    def special(self) -> str | None:
        """The one card of this rank worth more than the others (Q♠, J♦), if any."""
        return _SPECIALS[self][0] if self in _SPECIALS else None

    @property
    def special_points(self) -> int:
        """What the special card of this rank is worth; ``points`` when there is none."""
        return _SPECIALS[self][1] if self in _SPECIALS else self.points


_TEN_TO_KING: Final = frozenset({Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING})
_THREE_TO_NINE: Final = frozenset(Rank) - _TEN_TO_KING - {Rank.TWO, Rank.ACE}
_SPECIALS: Final = {Rank.QUEEN: ("Q♠", QUEEN_OF_SPADES), Rank.JACK: ("J♦", JACK_OF_DIAMONDS)}


@dataclass(frozen=True)
class CardSet:
    """One set on the table.

    ``naturals`` are the cards of the set's own rank, ``specials`` how many of
    them are the Q♠ (a set of queens) or the J♦ (a set of jacks), and
    ``wild_twos`` the twos standing in for cards of that rank. In a set of
    twos every two is natural, so its ``wild_twos`` is 0.
    """

    rank: Rank
    naturals: int
    wild_twos: int = 0
    specials: int = 0

    @property
    def size(self) -> int:
        return self.naturals + self.wild_twos

    @property
    def natural(self) -> bool:
        """All eight cards of the rank, no wild two: a natural set."""
        return self.naturals == CARDS_PER_RANK and self.wild_twos == 0

    @property
    def points(self) -> int:
        """The value of the set's cards, before any doubling."""
        ordinary = self.naturals - self.specials
        return (
            self.specials * self.rank.special_points
            + ordinary * self.rank.points
            + self.wild_twos * TWO
        )


@dataclass(frozen=True)
class Hand:
    """The cards a player who stayed in still holds, counted by value."""

    queen_of_spades: int = 0
    jack_of_diamonds: int = 0
    twos: int = 0
    aces: int = 0
    tens_to_kings: int = 0  # other than the Q♠ and J♦
    threes_to_nines: int = 0

    @property
    def cards(self) -> int:
        return sum(count for count, _ in self._classes())

    @property
    def points(self) -> int:
        """The value of the cards in hand; it is never doubled."""
        return sum(count * value for count, value in self._classes())

    def _classes(self) -> tuple[tuple[int, int], ...]:
        return (
            (self.queen_of_spades, QUEEN_OF_SPADES),
            (self.jack_of_diamonds, JACK_OF_DIAMONDS),
            (self.twos, TWO),
            (self.aces, ACE),
            (self.tens_to_kings, TEN_TO_KING),
            (self.threes_to_nines, THREE_TO_NINE),
        )


@dataclass(frozen=True)
class PlayerCards:
    """One player's cards at the end of a deal: sets on the table and cards in hand."""

    sets: tuple[CardSet, ...]
    hand: Hand = Hand()


@dataclass(frozen=True)
class SetCount:
    """How one set counted: its points after doubling and the arithmetic behind them,
    ``terms`` (how many cards, worth each), as "8 tens, natural set: 8 × 10 × 2 = 160"
    writes them (``scorekeeper/web/messages.py``, ``set_description``)."""

    card_set: CardSet
    points: int
    factor: int  # 1, 2 (natural set or natural going out) or 4 (both)
    natural_set: bool
    natural_going_out: bool
    terms: tuple[tuple[int, int], ...]  # e.g. ((8, 10),): the specials, the others, the twos


@dataclass(frozen=True)
class Count:
    """A deal counted from the cards: the tally and how it was reached."""

    tally: Tally
    breakdown: tuple[tuple[SetCount, ...], tuple[SetCount, ...]]
    hand_points: tuple[int, int]  # 0 for the player who went out
    natural_going_out: bool

    @property
    def table_points(self) -> tuple[int, int]:
        """Each player's sets on the table, doublings included."""
        first, second = (sum(line.points for line in lines) for lines in self.breakdown)
        return first, second


class ImpossibleCards(ValueError):
    """Cards that no deal can produce; ``problems`` names the player and set of each.

    A problem's field is ``cards.<seat>.sets.<index>``, ``cards.<seat>.hand``,
    ``cards.<seat>.sets`` (the player as a whole), or ``cards`` when the cards
    of both players together break a limit of the two decks.
    """

    def __init__(self, problems: Sequence[TallyProblem]) -> None:
        super().__init__("; ".join(f"{p.field}: {p.code}" for p in problems))
        self.problems = tuple(problems)


def count_deal(
    out: Seat,
    cards: tuple[PlayerCards, PlayerCards],
    names: tuple[str, str] = ("Player 1", "Player 2"),
) -> Count:
    """Both deal scores and stars from the players' cards, as RULES.md §2 counts them.

    ``cards`` and ``names`` are in seat order; ``out`` is the player who went
    out. Raises :class:`ImpossibleCards` listing every problem when the cards
    can't come from one deal of two decks. The tally is built by
    :func:`~.tally.validate_tally`, so it is always a valid one.
    """
    out = Seat(out)
    problems = _problems(out, cards, names)
    if problems:
        raise ImpossibleCards(problems)
    natural_going_out = all(s.wild_twos == 0 for s in cards[out].sets)
    breakdown = (
        _count_sets(cards[0].sets, natural_going_out and out == Seat.FIRST),
        _count_sets(cards[1].sets, natural_going_out and out == Seat.SECOND),
    )
    hand_points = (
        0 if out == Seat.FIRST else cards[0].hand.points,
        0 if out == Seat.SECOND else cards[1].hand.points,
    )
    scores = [sum(line.points for line in breakdown[seat]) - hand_points[seat] for seat in Seat]
    stars = [sum(line.natural_set for line in breakdown[seat]) for seat in Seat]
    stars[out] += natural_going_out
    tally = validate_tally(out, scores, stars)
    return Count(tally, breakdown, hand_points, natural_going_out)


def _count_sets(sets: Sequence[CardSet], natural_going_out: bool) -> tuple[SetCount, ...]:
    lines = []
    for card_set in sets:
        factor = (2 if card_set.natural else 1) * (2 if natural_going_out else 1)
        lines.append(
            SetCount(
                card_set=card_set,
                points=card_set.points * factor,
                factor=factor,
                natural_set=card_set.natural,
                natural_going_out=natural_going_out,
                terms=_terms(card_set),
            )
        )
    return tuple(lines)


def _terms(card_set: CardSet) -> tuple[tuple[int, int], ...]:
    """A set's cards as (how many, worth each): the specials, the other naturals, the twos."""
    rank, terms = card_set.rank, []
    if card_set.specials:
        terms.append((card_set.specials, rank.special_points))
    if card_set.naturals > card_set.specials:
        terms.append((card_set.naturals - card_set.specials, rank.points))
    if card_set.wild_twos:
        terms.append((card_set.wild_twos, TWO))
    return tuple(terms)


# --- What two decks can hold ------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where some cards are, as a form field: a player's set (``number`` from 1, its
    ``rank`` once known) or, without a number, their hand."""

    field: str
    name: str
    number: int | None = None
    rank: Rank | None = None


@dataclass(frozen=True)
class Limit:
    """A kind of card (``key``: a rank, or a class of card in hand, as the catalog names
    it) and how many of it two decks hold."""

    key: str
    most: int


_TWOS: Final = Limit("twos", CARDS_PER_RANK)
_ACES: Final = Limit("aces", CARDS_PER_RANK)
_QUEENS_OF_SPADES: Final = Limit("queen_of_spades", COPIES_OF_A_CARD)
_JACKS_OF_DIAMONDS: Final = Limit("jack_of_diamonds", COPIES_OF_A_CARD)
_ORDINARY: Final = {
    Rank.QUEEN: Limit("other_queens", CARDS_PER_RANK - COPIES_OF_A_CARD),
    Rank.JACK: Limit("other_jacks", CARDS_PER_RANK - COPIES_OF_A_CARD),
}
_BY_RANK: Final = {
    rank: Limit(rank.value, CARDS_PER_RANK) for rank in Rank if rank not in (Rank.TWO, Rank.ACE)
}
_TENS_TO_KINGS: Final = Limit(
    "tens_to_kings", len(_TEN_TO_KING) * CARDS_PER_RANK - 2 * COPIES_OF_A_CARD
)
_THREES_TO_NINES: Final = Limit("threes_to_nines", len(_THREE_TO_NINE) * CARDS_PER_RANK)


def _problem(field: str, code: str, place: Place | None = None, **params: object) -> TallyProblem:
    """The problem ``code`` at ``field``, about ``place`` if it names one."""
    if place is not None:
        params["place"] = place
    return TallyProblem(field, code, params)


def _set_holds(card_set: CardSet) -> dict[Limit, int]:
    """How many cards of each limited kind a set takes from the decks."""
    rank = card_set.rank
    naturals = max(card_set.naturals, 0)
    specials = min(max(card_set.specials, 0), naturals)
    holds = {_TWOS: max(card_set.wild_twos, 0)}
    if rank is Rank.TWO:
        holds[_TWOS] += naturals
    elif rank is Rank.ACE:
        holds[_ACES] = naturals
    else:
        holds[_BY_RANK[rank]] = naturals
        ordinary = naturals
        if rank in _ORDINARY:
            ordinary = max(naturals - specials, 0)
            holds[_ORDINARY[rank]] = ordinary
            holds[_QUEENS_OF_SPADES if rank is Rank.QUEEN else _JACKS_OF_DIAMONDS] = specials
        pool = _TENS_TO_KINGS if rank in _TEN_TO_KING else _THREES_TO_NINES
        holds[pool] = ordinary
    return holds


def _hand_holds(hand: Hand) -> dict[Limit, int]:
    return {
        _QUEENS_OF_SPADES: max(hand.queen_of_spades, 0),
        _JACKS_OF_DIAMONDS: max(hand.jack_of_diamonds, 0),
        _TWOS: max(hand.twos, 0),
        _ACES: max(hand.aces, 0),
        _TENS_TO_KINGS: max(hand.tens_to_kings, 0),
        _THREES_TO_NINES: max(hand.threes_to_nines, 0),
    }


def _deck_problems(holdings: Iterable[tuple[Place, dict[Limit, int]]]) -> list[TallyProblem]:
    """Every kind of card the players hold more of, together, than two decks have."""
    places: dict[Limit, list[tuple[Place, int]]] = {}
    for place, holds in holdings:
        for limit, count in holds.items():
            if count:
                places.setdefault(limit, []).append((place, count))
    problems = []
    for limit, held in places.items():
        total = sum(count for _, count in held)
        if total <= limit.most:
            continue
        if len(held) == 1:
            place = held[0][0]
            problems.append(
                _problem(
                    place.field,
                    "deck.too_many",
                    place,
                    total=total,
                    most=limit.most,
                    limit=limit,
                )
            )
        else:
            where = tuple(place for place, _ in held)
            problems.append(
                _problem(
                    "cards",
                    "deck.too_many_together",
                    places=where,
                    total=total,
                    most=limit.most,
                    limit=limit,
                )
            )
    return problems


# --- Checks on each set, hand and player --------------------------------------


def _problems(
    out: Seat, cards: tuple[PlayerCards, PlayerCards], names: tuple[str, str]
) -> list[TallyProblem]:
    problems: list[TallyProblem] = []
    holdings: list[tuple[Place, dict[Limit, int]]] = []
    for seat in Seat:
        name, player = names[seat], cards[seat]
        first_of_rank: dict[Rank, int] = {}
        for index, card_set in enumerate(player.sets):
            place = Place(f"cards.{seat}.sets.{index}", name, index + 1, card_set.rank)
            problems += _set_problems(place, card_set)
            earlier = first_of_rank.setdefault(card_set.rank, index)
            if earlier != index:
                problems.append(
                    _problem(
                        place.field,
                        "set.repeated",
                        place,
                        name=name,
                        rank=card_set.rank,
                        earlier=earlier + 1,
                    )
                )
            holdings.append((place, _set_holds(card_set)))
        problems += _player_problems(seat, seat == out, name, player.hand, len(player.sets))
        hand = Place(f"cards.{seat}.hand", name)
        holdings.append((hand, _hand_holds(player.hand)))
    return problems + _deck_problems(holdings)


def _set_problems(place: Place, card_set: CardSet) -> list[TallyProblem]:
    rank, codes = card_set.rank, []
    if min(card_set.naturals, card_set.wild_twos, card_set.specials) < 0:
        codes.append("cards.negative")
    if rank is Rank.TWO and card_set.wild_twos:
        codes.append("set.wild_in_twos")
    if rank.special is None and card_set.specials:
        codes.append("set.special_wrong_rank")
    elif card_set.specials > card_set.naturals:
        codes.append("set.too_many_specials")
    if rank is not Rank.TWO and card_set.naturals == 0:
        codes.append("set.no_natural")
    if card_set.size < MIN_SET_SIZE:
        codes.append("set.too_small")
    return [_problem(place.field, code, place, rank=rank, special=rank.special) for code in codes]


def _player_problems(
    seat: Seat, went_out: bool, name: str, hand: Hand, sets: int
) -> list[TallyProblem]:
    field = f"cards.{seat}.hand"
    counts = [count for count, _ in hand._classes()]
    problems = []
    if min(counts) < 0:
        problems.append(_problem(field, "cards.negative", Place(field, name)))
    if went_out and not sets:
        problems.append(_problem(f"cards.{seat}.sets", "out.no_set", name=name))
    if went_out and any(counts):
        problems.append(_problem(field, "out.hand_not_empty", name=name))
    if not went_out and sum(counts) <= 0:
        problems.append(_problem(field, "in.hand_empty", name=name))
    return problems
