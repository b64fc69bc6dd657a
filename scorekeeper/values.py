"""One reader per kind of typed value: whole numbers, amounts of money, dates.

Pages, the API and imports read a value through these, so each kind is accepted and
refused the same way everywhere. Nothing here imports the rest of the app."""

import re
from datetime import date

from scorekeeper.engine.money import parse_money

_WHOLE_NUMBER = re.compile(r"([+-]?)(\d+)")


#: More digits than any score or star count has: such a number is read as this one, out of
#: every range (and never handed to ``int()`` whole, whatever its length).
_TOO_MANY_DIGITS = 8


def read_whole_number(text: str | None) -> object:
    """A typed number as an int when it is one (``1,275``, ``−50``, ``+40``); anything else is
    returned as typed, for the engine to refuse with its own message (RULES.md, a tally).

    Not the engine's ``whole_number``, which takes a JSON value: this one reads what a
    person typed on a page or wrote in a CSV file."""
    if text is None:
        return None
    cleaned = text.strip().replace("−", "-").replace(" ", "").replace(",", "")
    number = _WHOLE_NUMBER.fullmatch(cleaned)
    if number is None:
        return cleaned
    sign, digits = number.groups()
    if len(digits) > _TOO_MANY_DIGITS:
        digits = "1" + "0" * _TOO_MANY_DIGITS
    return int(sign + digits)


_FRENCH_DECIMAL = re.compile(r"\s*\$?\s*\d+,\d{1,2}\s*\$?\s*")


def read_amount(text: str, *, decimal_comma: bool = False) -> int:
    """An amount of money as typed, in cents: ``1``, ``0.25``, ``$1,000.50``; with
    ``decimal_comma`` (a French page) ``0,25`` and ``1,50 $`` too, where in English a comma
    stays a thousands separator. ValueError if it is not an amount (engine.parse_money)."""
    if decimal_comma and _FRENCH_DECIMAL.fullmatch(text):
        text = text.replace("$", "").strip().replace(",", ".")
    return parse_money(text)


#: The earliest day a game or a season may have. Paper score cards go back no further, and
#: with a known range of days no date arithmetic can leave the calendar (year 1 minus a day).
EARLIEST_DAY = date(1900, 1, 1)
