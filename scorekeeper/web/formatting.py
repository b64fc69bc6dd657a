"""Numbers, money and dates written the way the page's language writes them.

French is formatted as in Canada (``1 275``, ``38,00 $``), English as before
(``1,275``, ``$38.00``); Babel does the formatting, in the locale Flask-Babel chose for
the request. A negative number gets a true minus sign (``−50``), as on the score card.
"""

from datetime import date, datetime
from decimal import Decimal
from typing import Final

from babel.dates import format_date, format_datetime
from babel.numbers import format_currency, format_decimal

from scorekeeper.engine.money import cents_to_decimal
from scorekeeper.web.languages import current_locale, in_english

MINUS: Final = "−"


def number(value: int) -> str:
    """A whole number as the page's language writes it: ``1,275`` / ``1 275``; ``−50``."""
    return format_decimal(value, locale=current_locale()).replace("-", MINUS)


def decimal(value: Decimal, places: int = 1) -> str:
    """A decimal with a fixed number of places: ``66.7`` / ``66,7``."""
    pattern = "#,##0." + "0" * places if places else "#,##0"
    return format_decimal(value, format=pattern, locale=current_locale()).replace("-", MINUS)


def money(cents: int | None) -> str:
    """Cents as dollars for people: ``$1,234.50`` / ``1 234,50 $``; a negative amount keeps
    its sign (a true minus)."""
    if cents is None:
        return "—"
    amount = format_currency(cents_to_decimal(abs(cents)), "CAD", locale=current_locale())
    return f"{MINUS if cents < 0 else ''}{amount}"


def signed_money(cents: int) -> str:
    """Money won (+) or lost (−): ``+$10.00``, ``−$3.00``, ``$0.00``."""
    return f"{'+' if cents > 0 else ''}{money(cents)}"


def signed(value: int) -> str:
    """A change in points: ``+12``, ``−4``, ``0``."""
    return f"{'+' if value > 0 else ''}{number(value)}"


def tenths(permille: int) -> str:
    """A per-mille count as hundredths with one decimal: 667 → ``66.7`` / ``66,7``."""
    return decimal(Decimal(permille) / 10)


def percent(permille: int) -> str:
    """A per-mille count as a percentage with one decimal: ``66.7%`` / ``66,7 %``."""
    return tenths(permille) + ("%" if in_english() else "\u00a0%")


def day(value: date | datetime) -> str:
    """A day: ``2025-03-14`` in English (as the score cards write it), ``14 mars 2025``."""
    if isinstance(value, datetime):
        value = value.date()
    if in_english():
        return value.isoformat()
    return format_date(value, "long", locale=current_locale())


def long_day(value: date | datetime) -> str:
    """A day in words, for a sentence: ``24 November 2026`` / ``24 novembre 2026``."""
    return format_date(value, "d MMMM y", locale=current_locale())


def clock(value: datetime) -> str:
    """A time of day (UTC): ``21:14`` / ``21 h 14``."""
    if in_english():
        return value.strftime("%H:%M")
    return format_datetime(value, "H 'h' mm", locale=current_locale())


def moment(value: datetime) -> str:
    """A day and time (UTC): ``2025-03-14 21:30`` / ``14 mars 2025, 21 h 30``."""
    if in_english():
        return value.strftime("%Y-%m-%d %H:%M")
    return format_datetime(value, "d MMMM y, H 'h' mm", locale=current_locale())
