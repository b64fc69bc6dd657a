"""Numbers and money written once per value and locale, and the page's language asked of
Flask-Babel once per request (issue 26): what is kept gives exactly Babel's text, and a
request never sees the language of the one before it."""

import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal, get_currency_precision
from flask import Flask

from scorekeeper.engine.money import cents_to_decimal
from scorekeeper.web import formatting, languages

MINUS = "−"


def _values() -> list[int]:
    picked = random.Random(26)
    return [
        *range(-3000, 3001, 5),
        *(picked.randint(-(10**13), 10**13) for _ in range(2000)),
        *(10**power for power in range(14)),
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_kept_numbers_and_money_are_babels_own(app, language) -> None:
    with app.test_request_context(headers={"Cookie": f"lang={language}"}):
        locale = languages.current_locale()
        assert locale.language == language
        for value in _values():
            assert formatting.number(value) == format_decimal(value, locale=locale).replace(
                "-", MINUS
            )
            dollars = format_currency(cents_to_decimal(abs(value)), "CAD", locale=locale)
            assert formatting.money(value) == (MINUS if value < 0 else "") + dollars
            tenths = Decimal(value) / 10
            assert formatting.decimal(tenths) == format_decimal(
                tenths, format="#,##0.0", locale=locale
            ).replace("-", MINUS)


def test_each_request_gets_its_own_language(client) -> None:
    """The language and its words are kept for one request only: pages in English and in
    French, in turns on the same app, each in its own language throughout."""
    for turn in range(4):
        language = "fr" if turn % 2 else "en"
        client.set_cookie("lang", language)
        page = client.get("/login").get_data(as_text=True)
        assert f'lang="{language}-CA"' in page
        assert ("Mot de passe" in page) == (language == "fr")
        assert ("Password" in page) == (language == "en")


def test_the_catalog_is_asked_for_once_per_request(client, monkeypatch) -> None:
    """Flask-Babel is asked for the page's locale and catalog once, however many messages
    and numbers the page writes."""
    asked = []

    def counted(function):
        def ask():
            asked.append(function.__name__)
            return function()

        return ask

    monkeypatch.setattr(languages, "get_translations", counted(languages.get_translations))
    monkeypatch.setattr(languages, "get_locale", counted(languages.get_locale))
    client.set_cookie("lang", "fr")
    page = client.get("/login").get_data(as_text=True)
    assert "Mot de passe" in page
    assert sorted(asked) == ["get_locale", "get_translations"]


def test_a_machine_time_is_to_the_second_with_its_offset() -> None:
    """What ``<time datetime>`` carries: a stored time (UTC, without a zone) to the second,
    with its offset; a time with a zone is the same moment in UTC (the validator refuses
    six digits of a second)."""
    stored = datetime(2026, 11, 25, 0, 54, 51, 497276)
    assert formatting.machine_time(stored) == "2026-11-25T00:54:51+00:00"
    montreal = datetime(2026, 11, 24, 19, 54, 51, 5, tzinfo=timezone(timedelta(hours=-5)))
    assert formatting.machine_time(montreal) == "2026-11-25T00:54:51+00:00"


# A league's currency (issue 37) ---------------------------------------------------------

NBSP = "\xa0"
#: 1,234.50 as each currency is written, in English and in French (Canada), by Babel.
WRITTEN = {
    "CAD": ("$1,234.50", f"1{NBSP}234,50{NBSP}$"),
    "USD": ("US$1,234.50", f"1{NBSP}234,50{NBSP}${NBSP}US"),
    "EUR": ("€1,234.50", f"1{NBSP}234,50{NBSP}€"),
    "GBP": ("£1,234.50", f"1{NBSP}234,50{NBSP}£"),
    "CHF": ("CHF1,234.50", f"1{NBSP}234,50{NBSP}CHF"),
    "AUD": ("A$1,234.50", f"1{NBSP}234,50{NBSP}${NBSP}AU"),
    "NZD": ("NZ$1,234.50", f"1{NBSP}234,50{NBSP}${NBSP}NZ"),
    "MXN": ("MX$1,234.50", f"1{NBSP}234,50{NBSP}MXN"),
    "SEK": ("SEK1,234.50", f"1{NBSP}234,50{NBSP}SEK"),
    "NOK": ("NOK1,234.50", f"1{NBSP}234,50{NBSP}NOK"),
    "DKK": ("DKK1,234.50", f"1{NBSP}234,50{NBSP}DKK"),
}


def test_every_currency_offered_is_written_with_cents() -> None:
    assert set(WRITTEN) == set(formatting.CURRENCIES)
    assert formatting.CURRENCIES[0] == formatting.DEFAULT_CURRENCY == "CAD"
    assert all(get_currency_precision(code) == 2 for code in formatting.CURRENCIES)


@pytest.mark.parametrize("code", sorted(WRITTEN))
@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_currency_is_written_as_babel_writes_it_in_the_pages_language(
    app, language, code
) -> None:
    english, french = WRITTEN[code]
    written = english if language == "en" else french
    with league_request(app, language, code):
        assert formatting.currency() == code
        assert formatting.money(123450) == written
        assert formatting.money(-123450) == MINUS + written
        assert formatting.signed_money(123450) == "+" + written
        assert formatting.money(None) == "—"
        locale = languages.current_locale()
        for cents in (0, 5, 1240, 99999999, 10**13):
            assert formatting.money(cents) == format_currency(
                cents_to_decimal(cents), code, locale=locale
            )


@contextmanager
def league_request(app: Flask, language: str, code: str) -> Iterator[None]:
    """A request in ``language`` for a page of a league whose currency is ``code``."""
    with app.test_request_context(headers={"Cookie": f"lang={language}"}):
        formatting.use_currency(code)
        yield


def test_twelve_forty_as_the_issue_writes_it(app) -> None:
    """ "12,40 $" in French Canadian, "€12.40" in English (issue 37)."""
    with league_request(app, "fr", "CAD"):
        assert formatting.money(1240) == f"12,40{NBSP}$"
        assert formatting.whole_money(100) == f"1{NBSP}$"
        assert formatting.currency_sign() == "$"
    with league_request(app, "en", "EUR"):
        assert formatting.money(1240) == "€12.40"
        assert formatting.whole_money(300) == "€3"
        assert formatting.currency_sign() == "€"
    with league_request(app, "fr", "USD"):
        assert formatting.currency_sign() == f"${NBSP}US"
        assert formatting.currency_name("USD") == "Dollar des États-Unis"


def test_without_a_league_amounts_are_canadian_dollars_as_before(app) -> None:
    with app.test_request_context():
        assert formatting.currency() == "CAD"
        assert formatting.money(123450) == "$1,234.50"
    assert formatting.money(123450) == "$1,234.50"  # outside a request: the shell, the CLI


def test_a_request_keeps_its_first_leagues_currency_and_the_next_starts_afresh(app) -> None:
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        formatting.use_currency("EUR")
        formatting.use_currency("GBP")  # a second league read on the page changes nothing
        assert formatting.money(1240) == "€12.40"
    with app.test_request_context(headers={"Cookie": "lang=en"}):
        assert formatting.money(1240) == "$12.40"


def test_amounts_are_written_once_per_language_currency_and_value(app, monkeypatch) -> None:
    """The money filter, thousands of times a page: each (locale, currency) pattern is made
    once per process, and each value written by Babel once for it."""
    written = []
    write = formatting.MoneyFormat.write
    monkeypatch.setattr(
        formatting.MoneyFormat,
        "write",
        lambda self, cents: written.append(cents) or write(self, cents),
    )
    made: dict[tuple[str, str], formatting.MoneyFormat] = {}
    for language, code in [("en", "EUR"), ("fr", "EUR"), ("en", "CAD")] * 2:
        with league_request(app, language, code):
            pattern = made.setdefault((language, code), formatting.money_format())
            assert formatting.money_format() is pattern  # the same, request after request
            texts = {formatting.money(777_777) for _ in range(1000)}
            assert texts == {
                WRITTEN[code][language == "fr"]
                .replace("1,234.50", "7,777.77")
                .replace(f"1{NBSP}234,50", f"7{NBSP}777,77")
            }
    assert written.count(777_777) <= 3  # once for each locale and currency, if not kept yet
