"""Numbers and money written once per value and locale, and the page's language asked of
Flask-Babel once per request (issue 26): what is kept gives exactly Babel's text, and a
request never sees the language of the one before it."""

import random
from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest
from babel.numbers import format_currency, format_decimal

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
