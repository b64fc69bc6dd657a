"""One reader per kind of value: whole numbers, amounts of money, and the earliest day.

Pages and imports read a value through these, so each kind is accepted and refused the
same way, with one message, everywhere; the API's shapes (api/shapes.py) end in the same
functions (engine.money.parse_money, engine.whole_number) after checking JSON types.
Names have their own reader, names.py. Nothing here imports the rest of the app."""

import re
from datetime import date

from flask_babel import lazy_gettext

from scorekeeper.engine import whole_number
from scorekeeper.engine.money import parse_money

#: Why an amount of money is refused, typed on a page or written in a file.
NOT_AN_AMOUNT = lazy_gettext("Enter an amount like 1 or 0.25.")

#: The longest number or amount of money anyone types (``−1,140``, ``$ 1,000,000.00``):
#: longer text is refused before it is read, so that what a reader does costs the same
#: however much is sent (issue 21).
MAX_TYPED_NUMBER = 32

_WHOLE_NUMBER = re.compile(r"([+-]?+)(\d++)")


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
    if text.isascii() and text.isdigit() and len(text) <= _TOO_MANY_DIGITS:
        return int(text)  # plain digits, as a CSV of thousands of deals mostly holds
    if len(text) > MAX_TYPED_NUMBER:
        return text[:MAX_TYPED_NUMBER]  # not a number, whatever follows: refused as one
    cleaned = text.strip().replace("−", "-").replace(" ", "").replace(",", "")
    number = _WHOLE_NUMBER.fullmatch(cleaned)
    if number is None:
        return cleaned
    sign, digits = number.groups()
    if len(digits) > _TOO_MANY_DIGITS:
        digits = "1" + "0" * _TOO_MANY_DIGITS
    return int(sign + digits)


#: ``1,50``, ``$ 0,25``, ``1,50 $``. Possessive throughout: no part gives back what it took,
#: so a run of spaces is read once (the greedy form tried every split of it, in cubic time).
_FRENCH_DECIMAL = re.compile(r"\s*+\$?+\s*+\d++,\d{1,2}+\s*+\$?+\s*+")


def read_amount(text: str, *, decimal_comma: bool = False) -> int:
    """An amount of money as typed, in cents: ``1``, ``0.25``, ``$1,000.50``; with
    ``decimal_comma`` (a French page) ``0,25`` and ``1,50 $`` too, where in English a comma
    stays a thousands separator. ValueError (:data:`NOT_AN_AMOUNT`) if it is not an amount,
    read no further than :data:`MAX_TYPED_NUMBER` characters."""
    if len(text) > MAX_TYPED_NUMBER:
        raise ValueError(str(NOT_AN_AMOUNT))
    if decimal_comma and _FRENCH_DECIMAL.fullmatch(text):
        text = text.replace("$", "").strip().replace(",", ".")
    try:
        return parse_money(text)
    except ValueError:
        raise ValueError(str(NOT_AN_AMOUNT)) from None


def read_json_amount(value: object) -> int:
    """An amount of money written in a JSON file: a decimal string (``"0.25"``), as the API
    and the export write money, never a JSON number (which is not exact)."""
    if not isinstance(value, str):
        raise ValueError(str(NOT_AN_AMOUNT))
    return read_amount(value)


def read_json_whole_number(value: object) -> int:
    """A whole number written in a JSON file: ``3`` (or ``3.0``), never ``true`` or ``"3"``,
    as the API reads one. ValueError otherwise."""
    number = whole_number(value)
    if number is None:
        raise ValueError(f"{value!r} is not a whole number")
    return number


#: The earliest day a game or a season may have. Paper score cards go back no further, and
#: with a known range of days no date arithmetic can leave the calendar (year 1 minus a day).
EARLIEST_DAY = date(1900, 1, 1)
