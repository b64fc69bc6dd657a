"""The cards a deal was counted from, as JSON (issue 8).

One shape serves the API (``POST /api/v1/count``), the deal form's hidden
``cards`` field and the ``deal.cards`` column::

    {"out": 0,
     "players": [{"sets": [{"rank": "10", "naturals": 8, "wild_twos": 0, "specials": 0}],
                  "hand": {"queen_of_spades": 0, "jack_of_diamonds": 0, "twos": 0,
                           "aces": 0, "tens_to_kings": 0, "threes_to_nines": 0}},
                 {"sets": [], "hand": {"threes_to_nines": 1}}]}

``players`` is in seat order. In a set, ``wild_twos`` and ``specials`` (how many
of the naturals are the Q♠ or the J♦) default to 0; in a hand, every count does.
Reading the JSON checks only its shape and types; what two decks can hold and
what the cards score is counting's business (:func:`.counting.count_deal`).
Problems are keyed like the JSON: ``players.1.sets.0``, ``players.0.hand``.
"""

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from .counting import CardSet, Count, Hand, ImpossibleCards, Place, PlayerCards, Rank, count_deal
from .tally import InvalidTally, Seat, Tally, TallyProblem, whole_number

DEFAULT_NAMES: Final = ("Player 1", "Player 2")
#: The classes of card a hand is counted by, as the JSON names them.
HAND_CLASSES: Final = tuple(field.name for field in dataclasses.fields(Hand))
SET_COUNTS: Final = ("naturals", "wild_twos", "specials")
#: A player's cards of one rank make one set, so 13 sets at most.
MAX_SETS: Final = len(Rank)
#: Two decks hold 104 cards; no count of cards is larger.
MAX_COUNT: Final = 104
#: Far more than the JSON of the largest possible deal; a longer hidden field is not read.
MAX_TEXT: Final = 10_000

#: Why cards can't be counted, as :attr:`BadCards.code`: the JSON's shape, or two decks.
SHAPE_ERROR: Final = "cards.shape"
IMPOSSIBLE_ERROR: Final = "cards.impossible"
#: The codes of the JSON's shape problems, each worded by the catalog.
CODES: Final = (
    SHAPE_ERROR,
    IMPOSSIBLE_ERROR,
    "json.unknown_count_field",
    "json.out",
    "json.players",
    "json.count",
    "json.unknown_field",
    "json.player",
    "json.player_field",
    "json.sets",
    "json.too_many_sets",
    "json.counts",
    "json.set",
    "json.rank",
)


class BadCards(ValueError):
    """Cards that can't be counted: ``code`` says whether the JSON is malformed or two decks
    can't hold them, and ``problems`` where."""

    def __init__(self, code: str, problems: Sequence[TallyProblem]) -> None:
        super().__init__(code)
        self.code = code
        self.problems = tuple(problems)


@dataclass(frozen=True)
class CountedCards:
    """Who went out and every player's cards: all that counting a deal needs."""

    out: Seat
    players: tuple[PlayerCards, PlayerCards]

    def count(self, names: tuple[str, str] = DEFAULT_NAMES) -> Count:
        """Both deal scores and stars, by the engine; :class:`BadCards` if impossible."""
        try:
            return count_deal(self.out, self.players, names)
        except ImpossibleCards as impossible:
            problems = [replace(p, field=_json_field(p.field)) for p in impossible.problems]
            raise BadCards(IMPOSSIBLE_ERROR, problems) from None
        except InvalidTally as invalid:  # count_deal promises a valid tally; never a 500 anyway
            problems = [replace(p, field="players") for p in invalid.problems]
            raise BadCards(IMPOSSIBLE_ERROR, problems) from None

    def agrees_with(self, tally: Tally) -> bool:
        """Whether these cards count to exactly ``tally``: who went out, scores and stars."""
        try:
            return self.count().tally == tally
        except BadCards:
            return False

    def hand_terms(self, seat: int) -> list[tuple[int, str, int]]:
        """The cards left in a hand as (how many, which class, worth each), for its sum."""
        hand = self.players[seat].hand
        return [
            (getattr(hand, name), name, card_value(name))
            for name in HAND_CLASSES
            if getattr(hand, name)
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "out": int(self.out),
            "players": [
                {
                    "sets": [
                        {"rank": s.rank.value, **{name: getattr(s, name) for name in SET_COUNTS}}
                        for s in player.sets
                    ],
                    "hand": {name: getattr(player.hand, name) for name in HAND_CLASSES},
                }
                for player in self.players
            ],
        }

    def dumps(self) -> str:
        """The JSON as text, for a hidden form field."""
        return json.dumps(self.to_json(), separators=(",", ":"))

    @classmethod
    def from_json(
        cls, data: Mapping[str, object], names: tuple[str, str] = DEFAULT_NAMES
    ) -> "CountedCards":
        """Read the JSON shape above, or raise :class:`BadCards` naming every bad place."""
        problems: list[TallyProblem] = []
        for key in data:
            if key not in ("out", "players"):
                problems.append(TallyProblem(str(key), "json.unknown_count_field", {"key": key}))
        out = whole_number(data.get("out"))
        if out not in (0, 1):
            problems.append(TallyProblem("out", "json.out"))
        players = data.get("players")
        read: list[PlayerCards] = []
        if not isinstance(players, list) or len(players) != 2:
            problems.append(TallyProblem("players", "json.players"))
        else:
            for seat, player in enumerate(players):
                read.append(_player(player, f"players.{seat}", names[seat], problems))
        if problems:
            raise BadCards(SHAPE_ERROR, problems)
        assert out is not None
        return cls(Seat(out), (read[0], read[1]))

    @classmethod
    def loads(cls, text: str | None) -> "CountedCards | None":
        """The cards in a hidden form field, or None when it holds nothing readable."""
        if not text or len(text) > MAX_TEXT:
            return None
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            return None
        return cls.stored(data)

    @classmethod
    def stored(cls, data: object, tally: Tally | None = None) -> "CountedCards | None":
        """Cards kept as JSON, if readable and (given a tally) counting to exactly it."""
        if not isinstance(data, dict):
            return None
        try:
            cards = cls.from_json(data)
        except BadCards:
            return None
        if tally is not None and not cards.agrees_with(tally):
            return None
        return cards


def card_value(hand_class: str) -> int:
    """What one card of a class in hand is worth, as the engine counts it."""
    return Hand(**{hand_class: 1}).points


def _json_field(field: str) -> str:
    """The engine's ``cards.0.sets.1`` as the JSON's ``players.0.sets.1``."""
    return "players" + field.removeprefix("cards")


def _counts(
    data: Mapping[str, object],
    names: Sequence[str],
    required: Sequence[str],
    place: Place,
    problems: list[TallyProblem],
    other_keys: Sequence[str] = (),
) -> dict[str, int]:
    """The whole-number counts ``names`` of ``data`` (0 when absent and not required)."""
    field = place.field
    counts = {}
    for name in names:
        if name not in data and name not in required:
            counts[name] = 0
            continue
        count = whole_number(data.get(name))
        if count is None or not 0 <= count <= MAX_COUNT:
            problems.append(
                TallyProblem(field, "json.count", {"place": place, "key": name, "most": MAX_COUNT})
            )
        else:
            counts[name] = count
    for key in data:
        if key not in names and key not in other_keys:
            problems.append(TallyProblem(field, "json.unknown_field", {"place": place, "key": key}))
    return counts


def _player(data: object, field: str, name: str, problems: list[TallyProblem]) -> PlayerCards:
    if not isinstance(data, dict):
        problems.append(TallyProblem(field, "json.player", {"name": name}))
        return PlayerCards(())
    for key in data:
        if key not in ("sets", "hand"):
            problems.append(TallyProblem(field, "json.player_field", {"name": name, "key": key}))
    sets = data.get("sets", [])
    read: list[CardSet] = []
    if not isinstance(sets, list):
        problems.append(TallyProblem(f"{field}.sets", "json.sets", {"name": name}))
    elif len(sets) > MAX_SETS:
        problems.append(
            TallyProblem(f"{field}.sets", "json.too_many_sets", {"name": name, "most": MAX_SETS})
        )
    else:
        for index, card_set in enumerate(sets):
            place = Place(f"{field}.sets.{index}", name, index + 1)
            read += _card_set(card_set, place, problems)
    hand = data.get("hand", {})
    place = Place(f"{field}.hand", name)
    if not isinstance(hand, dict):
        problems.append(TallyProblem(place.field, "json.counts", {"subject": place}))
        return PlayerCards(tuple(read))
    return PlayerCards(tuple(read), Hand(**_counts(hand, HAND_CLASSES, (), place, problems)))


def _card_set(data: object, place: Place, problems: list[TallyProblem]) -> list[CardSet]:
    field = place.field
    if not isinstance(data, dict):
        problems.append(TallyProblem(field, "json.set", {"subject": place}))
        return []
    rank = _rank(data.get("rank"))
    if rank is None:
        ranks = ", ".join(Rank)
        problems.append(TallyProblem(field, "json.rank", {"place": place, "ranks": ranks}))
    counts = _counts(data, SET_COUNTS, ("naturals",), place, problems, other_keys=("rank",))
    if rank is None or len(counts) != len(SET_COUNTS):
        return []
    return [CardSet(rank, **counts)]


def _rank(value: object) -> Rank | None:
    """A rank as written on the cards: "10", "q"; also the number 2 to 10."""
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        return None
    try:
        return Rank(value.strip().upper())
    except ValueError:
        return None
