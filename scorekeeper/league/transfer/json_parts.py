"""What both readers of a JSON export share: its moments, read as the database keeps them,
and what a deal keeps beyond its entry."""

from datetime import datetime
from typing import Any

from scorekeeper.league.transfer.plan import Problems, reasonable_moment, unreasonable_moment


def deal_extras(
    deal: dict[str, Any], default: datetime, where: str, problems: Problems
) -> dict[str, Any]:
    """The deal's cards and when it was recorded (the game's start, if the file can't say)."""
    cards = deal.get("cards")
    recorded = recorded_at(deal, default, where, problems)
    return {"cards": cards if isinstance(cards, dict) else None, "created_at": recorded}


def recorded_at(
    deal: dict[str, Any], default: datetime, where: str, problems: Problems
) -> datetime:
    """When the deal was recorded (the game's start, if the file can't say)."""
    try:
        recorded = optional_moment(deal.get("created_at"))
    except ValueError:
        recorded = None
    if recorded is not None:
        recorded = json_moment(recorded, "created_at", deal, where, problems)
    return recorded or default


def check_marks(
    finished: bool,
    paid_at: datetime | None,
    abandoned_at: datetime | None,
    where: str,
    problems: Problems,
) -> None:
    """A game is paid only once finished, and never both paid and abandoned."""
    if paid_at is not None and not finished:
        problems.add(where, "is paid but not finished.")
    if paid_at is not None and abandoned_at is not None:
        problems.add(where, "is paid but abandoned (a paid game can't be abandoned).")


def check_outcome(
    data: dict[str, Any], expected: dict[str, Any], where: str, problems: Problems
) -> None:
    """What the file says its deals come to, where it says it, must be what they give."""
    for key, value in expected.items():
        if key in data and data[key] != value:
            problems.add(
                where, f"{key} is {data[key]!r} in the file, but its deals give {value!r}."
            )


def optional_moment(value: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def json_moment(
    moment: datetime, column: str, data: dict[str, Any], where: str, problems: Problems
) -> datetime:
    """A moment of the file as :func:`reasonable_moment` has it; a problem (and the moment as
    given, which is never saved) when no game could have been played then."""
    reasonable = reasonable_moment(moment)
    if reasonable is None:
        problems.add(where, unreasonable_moment(column, str(data[column])))
        return moment
    return reasonable
