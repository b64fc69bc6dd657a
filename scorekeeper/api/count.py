"""``POST /count``: both deal scores and stars from the cards (RULES.md §2)."""

from werkzeug.wrappers import Response

from scorekeeper.engine.counted_cards import DEFAULT_NAMES, BadCards, CountedCards
from scorekeeper.names import MAX_NAME_LENGTH, squeeze
from scorekeeper.web.messages import cards_error, problem_fields

from . import answers
from .core import ApiError, bp, json_body
from .declared import declared
from .shapes import CountRequest


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


@bp.post("/count")
@declared(200, answers.Count, errors=(400,), body=CountRequest)
def count() -> Response:
    """Both deal scores and stars from the cards on the table and in hand (RULES.md §2)."""
    body = json_body()
    names = _names(body.pop("names", None))
    try:
        cards = CountedCards.from_json(body, names)
        result = cards.count(names)
    except BadCards as bad:
        raise ApiError(
            422, cards_error(bad.code, english=True), problem_fields(bad.problems)
        ) from None
    return answers.Count.of(result).sent()
