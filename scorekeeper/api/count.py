"""``POST /count``: both deal scores and stars from the cards (RULES.md §2)."""

from typing import Any

from flask import jsonify
from werkzeug.wrappers import Response

from scorekeeper.engine import Count, Seat
from scorekeeper.names import MAX_NAME_LENGTH, squeeze
from scorekeeper.table.counted_cards import DEFAULT_NAMES, BadCards, CountedCards

from .core import ApiError, bp, json_body


def _names(value: object) -> tuple[str, str]:
    """The optional ``names`` of the two players, used in messages."""
    if value is None:
        return DEFAULT_NAMES
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value):
        first, second = (squeeze(v) for v in value)
        if first and second and max(len(first), len(second)) <= MAX_NAME_LENGTH:
            return first, second
    raise ApiError(
        422,
        "A field is invalid.",
        {"names": [f"names must be a list of two names of 1 to {MAX_NAME_LENGTH} characters."]},
    )


def count_json(count: Count) -> dict[str, Any]:
    """A count as the API gives it; ``out``, ``scores`` and ``naturals`` make a deal's body."""
    tally = count.tally
    return {
        "out": int(tally.out),
        "scores": list(tally.scores),
        "naturals": list(tally.stars),
        "chapeau": [tally.chapeau(seat) for seat in Seat],
        "natural_going_out": count.natural_going_out,
        "breakdown": [
            [
                {
                    "rank": line.card_set.rank.value,
                    "cards": line.card_set.size,
                    "factor": line.factor,
                    "points": line.points,
                    "natural_set": line.natural_set,
                    "description": line.description,
                }
                for line in lines
            ]
            for lines in count.breakdown
        ],
        "table_points": list(count.table_points),
        "hand_points": list(count.hand_points),
    }


@bp.post("/count")
def count() -> Response:
    """Both deal scores and stars from the cards on the table and in hand (RULES.md §2)."""
    body = json_body()
    names = _names(body.pop("names", None))
    try:
        cards = CountedCards.from_json(body, names)
        result = cards.count(names)
    except BadCards as bad:
        raise ApiError(422, bad.message, bad.fields) from None
    return jsonify(count_json(result))
