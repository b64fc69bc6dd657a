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

from .counting import CardSet, Count, Hand, ImpossibleCards, PlayerCards, Rank, count_deal
from .tally import InvalidTally, Seat, Tally, TallyProblem, whole_number

DEFAULT_NAMES: Final = ("Player 1", "Player 2")
#: The classes of card a hand is counted by, as the JSON names them.
HAND_CLASSES: Final = tuple(field.name for field in dataclasses.fields(Hand))
SET_COUNTS: Final = ("naturals", "wild_twos", "specials")
#: What each class of card in hand is called on a page.
HAND_LABELS: Final = {
    "queen_of_spades": "Q♠",
    "jack_of_diamonds": "J♦",
    "twos": "2s",
    "aces": "aces",
    "tens_to_kings": "10 to K",
    "threes_to_nines": "3 to 9",
}
#: A player's cards of one rank make one set, so 13 sets at most.
MAX_SETS: Final = len(Rank)
#: Two decks hold 104 cards; no count of cards is larger.
MAX_COUNT: Final = 104
#: Far more than the JSON of the largest possible deal; a longer hidden field is not read.
MAX_TEXT: Final = 10_000

SHAPE_ERROR: Final = "Some cards are missing or not given as whole numbers."
IMPOSSIBLE_ERROR: Final = "These cards can't come from one deal of two decks."


class BadCards(ValueError):
    """Cards that can't be counted: the JSON is malformed or two decks can't hold them."""

    def __init__(self, message: str, problems: Sequence[TallyProblem]) -> None:
        super().__init__(message)
        self.message = message
        self.problems = tuple(problems)

    @property
    def fields(self) -> dict[str, list[str]]:
        """The messages grouped by the place they name, as API.md's ``fields``."""
        grouped: dict[str, list[str]] = {}
        for problem in self.problems:
            grouped.setdefault(problem.field, []).append(problem.message)
        return grouped


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
        """The cards left in a hand as (how many, which, worth each), for showing its sum."""
        hand = self.players[seat].hand
        return [
            (getattr(hand, name), HAND_LABELS[name], card_value(name))
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
                problems.append(TallyProblem(str(key), f'"{key}" is not a field of a count.'))
        out = whole_number(data.get("out"))
        if out not in (0, 1):
            problems.append(
                TallyProblem("out", "out must be 0 or 1: the seat of the player who went out.")
            )
        players = data.get("players")
        read: list[PlayerCards] = []
        if not isinstance(players, list) or len(players) != 2:
            problems.append(
                TallyProblem("players", "players must be a list of both players' cards.")
            )
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
    where: tuple[str, str],
    problems: list[TallyProblem],
    other_keys: Sequence[str] = (),
) -> dict[str, int]:
    """The whole-number counts ``names`` of ``data`` (0 when absent and not required)."""
    field, label = where
    counts = {}
    for name in names:
        if name not in data and name not in required:
            counts[name] = 0
            continue
        count = whole_number(data.get(name))
        if count is None or not 0 <= count <= MAX_COUNT:
            problems.append(
                TallyProblem(
                    field, f"{label}: {name} must be a whole number from 0 to {MAX_COUNT}."
                )
            )
        else:
            counts[name] = count
    for key in data:
        if key not in names and key not in other_keys:
            problems.append(TallyProblem(field, f'{label}: "{key}" is not a field here.'))
    return counts


def _player(data: object, field: str, name: str, problems: list[TallyProblem]) -> PlayerCards:
    if not isinstance(data, dict):
        problems.append(
            TallyProblem(field, f'{name}\'s cards must be an object with "sets" and "hand".')
        )
        return PlayerCards(())
    for key in data:
        if key not in ("sets", "hand"):
            problems.append(TallyProblem(field, f'{name}\'s cards: "{key}" is not a field here.'))
    sets = data.get("sets", [])
    read: list[CardSet] = []
    if not isinstance(sets, list):
        problems.append(TallyProblem(f"{field}.sets", f"{name}'s sets must be a list."))
    elif len(sets) > MAX_SETS:
        problems.append(
            TallyProblem(
                f"{field}.sets", f"{name} can have at most {MAX_SETS} sets, one of each rank."
            )
        )
    else:
        for index, card_set in enumerate(sets):
            where = (f"{field}.sets.{index}", f"{name}'s set {index + 1}")
            read += _card_set(card_set, where, problems)
    hand = data.get("hand", {})
    where = (f"{field}.hand", f"{name}'s hand")
    if not isinstance(hand, dict):
        problems.append(TallyProblem(where[0], f"{where[1]} must be an object of counts."))
        return PlayerCards(tuple(read))
    return PlayerCards(tuple(read), Hand(**_counts(hand, HAND_CLASSES, (), where, problems)))


def _card_set(data: object, where: tuple[str, str], problems: list[TallyProblem]) -> list[CardSet]:
    field, label = where
    if not isinstance(data, dict):
        problems.append(
            TallyProblem(field, f'{label} must be an object with "rank" and "naturals".')
        )
        return []
    rank = _rank(data.get("rank"))
    if rank is None:
        problems.append(TallyProblem(field, f"{label}: rank must be one of {', '.join(Rank)}."))
    counts = _counts(data, SET_COUNTS, ("naturals",), where, problems, other_keys=("rank",))
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
