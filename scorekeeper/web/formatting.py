"""Numbers, money and dates written the way the page's language writes them.

French is formatted as in Canada (``1 275``, ``38,00 $``), English as before
(``1,275``, ``$38.00``); Babel does the formatting, in the locale Flask-Babel chose for
the request. A negative number gets a true minus sign (``−50``), as on the score card.

Amounts are in the currency of the league a page shows (:func:`use_league`; Canadian
dollars by default): a league in euros reads ``€12.40`` in English and ``12,40 €`` in
French. Only the writing changes: the cents are the same, and the API and the exports
keep writing them as decimal strings (``"12.40"``) without a sign.

A page writes a hundred numbers and amounts, and Babel takes 20–50 µs for each. The same
values come back page after page (stakes, totals, what a pair owes), so each locale's
patterns are taken from Babel once per process (:class:`NumberFormats`, and
:class:`MoneyFormat` per locale and currency) and what they write is kept for the values
met most recently: Babel writes each value once, not once per page.
"""

from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal
from functools import cache, lru_cache
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import NumberPattern, get_currency_name, get_currency_symbol, parse_pattern
from flask import g, has_app_context

from scorekeeper.engine.money import cents_to_decimal
from scorekeeper.models import League
from scorekeeper.web.languages import current_locale, in_english, page_language, stored_language

MINUS: Final = "−"
#: How many values each kind of number keeps written, per process (a few hundred bytes each).
KEPT: Final = 8192


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per locale
class NumberFormats:
    """A locale and the patterns it writes numbers with, from Babel's public API: what
    ``format_decimal`` and ``format_currency`` look up on every call."""

    locale: Locale
    whole: NumberPattern
    currency: NumberPattern

    @classmethod
    def of(cls, locale: Locale) -> "NumberFormats":
        return cls(locale, locale.decimal_formats[None], locale.currency_formats["standard"])


_FORMATS: dict[str, NumberFormats] = {}


def number_formats() -> NumberFormats:
    """The page's locale's number formats, made once per process."""
    language = page_language()
    found = _FORMATS.get(language.key)
    if found is None:
        found = _FORMATS.setdefault(language.key, NumberFormats.of(language.locale))
    return found


@lru_cache(maxsize=KEPT)
def _whole(formats: NumberFormats, value: int) -> str:
    return formats.whole.apply(value, formats.locale).replace("-", MINUS)


@cache
def _fixed_places(places: int) -> NumberPattern:
    """Babel's pattern for a decimal with ``places`` places, parsed once."""
    return parse_pattern("#,##0." + "0" * places if places else "#,##0")


@lru_cache(maxsize=KEPT)
def _decimal(formats: NumberFormats, value: Decimal, places: int) -> str:
    return _fixed_places(places).apply(value, formats.locale).replace("-", MINUS)


#: The currencies a league may keep its amounts in: each one written with cents (two
#: decimals, as the engine counts), the default first.
CURRENCIES: Final = ("CAD", "USD", "EUR", "GBP", "CHF", "AUD", "NZD", "MXN", "SEK", "NOK", "DKK")
#: A league's currency until one is chosen (``league.currency`` NULL): Mille is from Montreal.
DEFAULT_CURRENCY: Final = "CAD"
_CURRENCY: Final = "scorekeeper_currency"


def currency_of(league: League) -> str:
    """The currency ``league`` writes its amounts in."""
    return league.currency or DEFAULT_CURRENCY


def use_currency(code: str | None) -> None:
    """Write this request's amounts in the currency ``code`` (a league's), or the default
    (None)."""
    g.setdefault(_CURRENCY, code or DEFAULT_CURRENCY)


def use_league(league: League) -> None:
    """Show this request's times and amounts as ``league`` does: in its time zone and its
    currency. The first league a request is shown as stays its league."""
    use_time_zone(league.time_zone)
    use_currency(currency_of(league))


def currency() -> str:
    """The currency of this request's amounts: its league's, else the default (outside a
    request too)."""
    return money_format().currency


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per locale and currency
class MoneyFormat:
    """A locale's pattern for amounts, in one currency."""

    locale: Locale
    pattern: NumberPattern
    currency: str

    def write(self, cents: int) -> str:
        """A positive amount (or zero) as Babel's ``format_currency`` writes it."""
        return self.pattern.apply(cents_to_decimal(cents), self.locale, currency=self.currency)


_MONEY: dict[tuple[str, str], MoneyFormat] = {}


def money_format() -> MoneyFormat:
    """The page's locale's pattern for amounts in the page's currency, made once per process
    for each locale and currency. ``g`` is looked up once for both (as
    :func:`.languages.page_language` does): the money filter runs thousands of times a page."""
    try:
        store = g._get_current_object()
    except RuntimeError:
        language, code = page_language(), DEFAULT_CURRENCY  # the shell, the CLI
    else:
        language, code = stored_language(store), getattr(store, _CURRENCY, DEFAULT_CURRENCY)
    found = _MONEY.get((language.key, code))
    if found is None:
        formats = number_formats()
        made = MoneyFormat(formats.locale, formats.currency, code)
        found = _MONEY.setdefault((language.key, code), made)
    return found


@lru_cache(maxsize=KEPT)
def _amount(written: MoneyFormat, cents: int) -> str:
    return written.write(cents)


@cache
def _whole_pattern(written: MoneyFormat) -> NumberPattern:
    """The locale's pattern for amounts without their cents (``$1``, ``1 $``)."""
    return parse_pattern(written.pattern.pattern.replace(".00", ""))


def whole_money(cents: int) -> str:
    """A whole amount without its cents, for examples in a sentence: ``$1`` / ``1 $``;
    amounts of a game are written by :func:`money`."""
    written = money_format()
    return _whole_pattern(written).apply(
        cents_to_decimal(cents), written.locale, currency=written.currency, currency_digits=False
    )


@lru_cache(maxsize=64)
def _symbol(code: str, locale: Locale) -> str:
    return get_currency_symbol(code, locale)


def currency_sign() -> str:
    """The page's currency's sign in the page's language: ``$``, ``€``, ``US$`` / ``$ US``."""
    return _symbol(currency(), current_locale())


def currency_name(code: str) -> str:
    """A currency's name in the page's language, capitalized for a list: ``Euro``,
    ``Dollar canadien``."""
    name = get_currency_name(code, locale=current_locale())
    return name[:1].upper() + name[1:]


def number(value: int) -> str:
    """A whole number as the page's language writes it: ``1,275`` / ``1 275``; ``−50``."""
    return _whole(number_formats(), value)


def subtracted(value: int) -> str:
    """A whole number after a minus sign: in brackets when it is negative, so a difference
    reads ``1,300 − (−100)``, never ``1,300 − −100``."""
    text = number(value)
    return f"({text})" if value < 0 else text


def decimal(value: Decimal, places: int = 1) -> str:
    """A decimal with a fixed number of places: ``66.7`` / ``66,7``."""
    return _decimal(number_formats(), value, places)


def money(cents: int | None) -> str:
    """Cents as an amount for people, in the page's currency: ``$1,234.50`` /
    ``1 234,50 $``, ``€12.40`` / ``12,40 €``; a negative amount keeps its sign (a true
    minus)."""
    if cents is None:
        return "—"
    amount = _amount(money_format(), abs(cents))
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


def whole_percent(value: int) -> str:
    """A whole percentage, no decimals: ``64%`` / ``64 %``."""
    return number(value) + ("%" if in_english() else "\u00a0%")


def day(value: date | datetime) -> str:
    """A day: ``2025-03-14`` in English (as the score cards write it), ``14 mars 2025``."""
    if isinstance(value, datetime):
        value = local(value).date()
    if in_english():
        return value.isoformat()
    return format_date(value, "long", locale=current_locale())


def long_day(value: date | datetime) -> str:
    """A day in words, for a sentence: ``24 November 2026`` / ``24 novembre 2026``."""
    return format_date(value, "d MMMM y", locale=current_locale())


_ZONE: Final = "scorekeeper_time_zone"


@cache
def time_zones() -> tuple[str, ...]:
    """The IANA time zones a league may choose, by name ("America/Toronto")."""
    return tuple(
        sorted(
            zone
            for zone in available_timezones()
            if "/" in zone and not zone.startswith(("Etc/", "SystemV/", "posix/", "right/"))
        )
    )


def use_time_zone(name: str | None) -> None:
    """Show this request's times in the zone named (a league's), or the server's (None)."""
    g.setdefault(_ZONE, _zone(name))


@cache
def _zone(name: str | None) -> tzinfo | None:
    try:
        return ZoneInfo(name) if name else None
    except (ZoneInfoNotFoundError, ValueError):
        return None


def local(value: datetime) -> datetime:
    """A stored moment (UTC, with or without its zone) in this request's time zone: its
    league's, else the server's."""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value
    return aware.astimezone(g.get(_ZONE) if has_app_context() else None)


def clock(value: datetime) -> str:
    """A time of day, in the league's time zone: ``21:14`` / ``21 h 14``."""
    value = local(value)
    if in_english():
        return value.strftime("%H:%M")
    return format_datetime(value, "H 'h' mm", locale=current_locale())


def machine_time(value: datetime) -> str:
    """A moment as ``<time datetime>`` takes it: to the second, with its offset
    (``2025-03-14T21:30:05+00:00``). A time without a zone is UTC, as stored."""
    aware = value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return aware.isoformat(timespec="seconds")


def moment(value: datetime) -> str:
    """A day and time, in the league's time zone: ``2025-03-14 21:30`` /
    ``14 mars 2025, 21 h 30``."""
    value = local(value)
    if in_english():
        return value.strftime("%Y-%m-%d %H:%M")
    return format_datetime(value, "d MMMM y, H 'h' mm", locale=current_locale())
