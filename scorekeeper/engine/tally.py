"""One deal's tally and what makes it valid (RULES.md §2)."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as attribute
from enum import IntEnum
from typing import Final

from .cards import MAX_DEAL_SCORE, MIN_DEAL_SCORE, MIN_OUT_SCORE, POINT_STEP


class Seat(IntEnum):
    """A player's place in a game: the first player named is seat 0."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> "Seat":
        return Seat(1 - self)


#: 13 ranks can each make a natural set; going out naturally adds one more star.
MAX_STARS_STAYED_IN: Final = 13
MAX_STARS_OUT: Final = 14

#: Above this a deal score is legal but worth a second look.
UNUSUAL_SCORE: Final = 1000
#: The least a natural set can be worth (eight 5-point cards, doubled).
LEAST_NATURAL_SET: Final = 80


@dataclass(frozen=True)
class Tally:
    """What the scorekeeper writes down after a deal."""

    out: Seat
    scores: tuple[int, int]
    stars: tuple[int, int] = (0, 0)

    def chapeau(self, seat: Seat) -> bool:
        """Whether ``seat`` stayed in and ended the deal below zero (a circled score)."""
        return seat != self.out and self.scores[seat] < 0


@dataclass(frozen=True)
class TallyProblem:
    """One broken rule, tied to the field that broke it (``out``, ``scores.0``, ``stars.1``).

    ``code`` names the rule and ``params`` the values it names. The engine words nothing:
    one catalog, ``scorekeeper/web/messages.py`` (``PROBLEMS``), writes each code as a
    sentence, in English for the API and in the page's language for pages.
    """

    field: str
    code: str
    params: Mapping[str, object] = attribute(default_factory=dict, hash=False)


#: The codes of a tally's rules (RULES.md §2), each worded by the catalog.
CODES: Final = (
    "out.missing",
    "score.not_whole",
    "score.step",
    "score.range",
    "score.out_minimum",
    "stars.not_whole",
    "stars.negative",
    "stars.too_many_out",
    "stars.too_many_in",
    "stars.too_many",
    "warning.high_score",
    "warning.star_on_low_score",
)

#: A broken rule before it is tied to a field: its code and the values it names.
Rule = tuple[str, dict[str, object]]


def problem(field: str, code: str, **params: object) -> TallyProblem:
    """The problem ``code`` at ``field``, with the values it names."""
    return TallyProblem(field, code, params)


class InvalidTally(ValueError):
    """A tally that breaks the rules; ``problems`` says which and where."""

    def __init__(self, problems: Sequence[TallyProblem]) -> None:
        super().__init__("; ".join(f"{p.field}: {p.code}" for p in problems))
        self.problems = tuple(problems)


def whole_number(value: object) -> int | None:
    """An int as given (``3``, or a whole float such as ``3.0``), else None; never a bool."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _check_seat(out: object) -> Seat | None:
    number = whole_number(out)
    return Seat(number) if number in (0, 1) else None


def _check_score(value: object, went_out: bool) -> tuple[int | None, Rule | None]:
    score = whole_number(value)
    if score is None:
        return None, ("score.not_whole", {})
    if score % POINT_STEP:
        return None, ("score.step", {})
    if not MIN_DEAL_SCORE <= score <= MAX_DEAL_SCORE:
        return None, ("score.range", {"low": MIN_DEAL_SCORE, "high": MAX_DEAL_SCORE})
    if went_out and score < MIN_OUT_SCORE:
        return None, ("score.out_minimum", {"least": MIN_OUT_SCORE})
    return score, None


def _check_stars(value: object, went_out: bool | None) -> tuple[int | None, Rule | None]:
    stars = whole_number(value)
    if stars is None:
        return None, ("stars.not_whole", {})
    if stars < 0:
        return None, ("stars.negative", {})
    most = MAX_STARS_STAYED_IN if went_out is False else MAX_STARS_OUT
    if stars > most:
        code = {True: "stars.too_many_out", False: "stars.too_many_in", None: "stars.too_many"}
        return None, (code[went_out], {"most": most})
    return stars, None


def validate_tally(out: object, scores: Sequence[object], stars: Sequence[object]) -> Tally:
    """Build a :class:`Tally` from raw values, or raise :class:`InvalidTally` naming each field.

    Every rule of "What a valid tally is" lives here and only here.
    """
    problems: list[TallyProblem] = []
    seat = _check_seat(out)
    if seat is None:
        problems.append(problem("out", "out.missing"))
    good_scores: list[int] = []
    good_stars: list[int] = []
    for index in (0, 1):
        went_out = None if seat is None else seat == index
        score, broken = _check_score(scores[index], bool(went_out))
        if broken is not None:
            problems.append(problem(f"scores.{index}", broken[0], **broken[1]))
        elif score is not None:
            good_scores.append(score)
        count, broken = _check_stars(stars[index], went_out)
        if broken is not None:
            problems.append(problem(f"stars.{index}", broken[0], **broken[1]))
        elif count is not None:
            good_stars.append(count)
    if problems or seat is None:
        raise InvalidTally(problems)
    return Tally(
        out=seat,
        scores=(good_scores[0], good_scores[1]),
        stars=(good_stars[0], good_stars[1]),
    )


def tally_warnings(tally: Tally) -> list[TallyProblem]:
    """Legal but unusual values that the scorekeeper should confirm before saving."""
    warnings: list[TallyProblem] = []
    for seat in Seat:
        score = tally.scores[seat]
        if score > UNUSUAL_SCORE:
            warnings.append(problem(f"scores.{seat}", "warning.high_score", score=score))
        if tally.stars[seat] and score < LEAST_NATURAL_SET:
            warnings.append(
                problem(
                    f"stars.{seat}",
                    "warning.star_on_low_score",
                    score=score,
                    least=LEAST_NATURAL_SET,
                )
            )
    return warnings
