"""English and French (Flask-Babel): choosing the language, and numbers, money and dates
written the way each reads them.

The language is the visitor's own choice, kept in a cookie by the switch on every
page (``/language/fr``), else the first of English or French that the browser
asks for, else English. French is Québec French, formatted as in Canada
(``1 275``, ``38,00 $``); English is formatted as before (``1,275``, ``$38.00``).
The JSON API always answers in English.
"""

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Final

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_currency, format_decimal
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, current_app, g, has_request_context, redirect, request
from flask_babel import Babel, get_locale, get_translations, refresh
from flask_babel.speaklater import LazyString
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from werkzeug.wrappers import Response
from wtforms.i18n import messages_path

from scorekeeper.engine.money import cents_to_decimal

#: The languages offered, each in its own words (for the switch).
LANGUAGES: Final = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE: Final = "en"
#: The locale each language is written in: Canadian, as Mille is from Montreal.
LOCALES: Final = {"en": "en_CA", "fr": "fr_CA"}
#: The cookie that keeps the visitor's choice (a preference, not a secret).
COOKIE: Final = "lang"
COOKIE_AGE: Final = 365 * 24 * 3600
MINUS: Final = "−"

babel = Babel()
bp = Blueprint("i18n", __name__)


def chosen_language() -> str | None:
    """The language picked with the switch, if a valid one is in the cookie."""
    value = request.cookies.get(COOKIE)
    return value if value in LANGUAGES else None


def browser_language() -> str | None:
    """The first language the browser asks for that we have, by primary tag and quality
    (``fr-FR, en;q=0.1`` is French)."""
    for tag, quality in request.accept_languages:
        primary = tag.split("-")[0].split("_")[0].lower()
        if quality > 0 and primary in LANGUAGES:
            return primary
    return None


def select_locale() -> str:
    """Flask-Babel's locale selector: the switch, else the browser, else English."""
    if not has_request_context():
        return LOCALES[DEFAULT_LANGUAGE]  # the shell, the CLI
    from scorekeeper.api import is_api_request

    if is_api_request():
        return LOCALES[DEFAULT_LANGUAGE]  # the API's messages are English, whatever is asked
    return LOCALES[chosen_language() or browser_language() or DEFAULT_LANGUAGE]


def current_locale() -> Locale:
    """This request's locale. Flask-Babel keeps it on ``g`` once chosen; reading it there
    directly spares its three context lookups a call (a page asks for it a hundred
    times)."""
    try:
        locale = g._flask_babel.babel_locale
    except (AttributeError, RuntimeError):  # not chosen yet, or no app context
        locale = None
    return locale or get_locale() or Locale.parse(LOCALES[DEFAULT_LANGUAGE])


def translations() -> NullTranslations:
    """This request's message catalog, looked up once per request. It is kept in the slot
    Flask-Babel sets aside for it on ``g`` (``babel_translations``), which its
    ``refresh()`` (before every request) and ``force_locale()`` clear, so a change of
    language is never missed."""
    try:
        context = g._flask_babel
    except (AttributeError, RuntimeError):  # no lookup yet in this context, or none at all
        return get_translations()
    cached: NullTranslations | None = getattr(context, "babel_translations", None)
    if cached is None:
        cached = context.babel_translations = get_translations()
    return cached


# French elides "de" and "que" before a vowel: "Points d'Erin", not "Points de Erin". The
# catalog writes "de %(name)s"; which one a name takes is known only with the name.
_ELIDABLE: Final = re.compile(r"\b([Dd]|[Qq]u)e %\((\w+)\)s")


def starts_with_vowel_sound(word: str) -> bool:
    """``word`` begins with a vowel, accented or not, or a (mute) h: Erin, Élodie, Hugo."""
    first = unicodedata.normalize("NFD", word.lstrip()[:1].lower())[:1]
    return first in "aeiouyhœæ" and first != ""


def elided(text: str, variables: dict[str, Any]) -> str:
    """``text`` with each "de %(x)s" / "que %(x)s" made "d'%(x)s" / "qu'%(x)s" where the
    value of ``x`` starts with a vowel sound; ``Markup`` stays ``Markup``. English
    messages never say "de %(x)s", so this is safe for every language."""
    if "e %(" not in text:
        return text

    def elide(match: re.Match[str]) -> str:
        value = variables.get(match[2])
        if value is None or not starts_with_vowel_sound(str(value)):
            return match[0]
        return f"{match[1]}'%({match[2]})s"

    result = _ELIDABLE.sub(elide, text)
    return Markup(result) if isinstance(text, Markup) else result


# The messages: Flask-Babel's gettext, ngettext and lazy_gettext, through the catalog
# looked up once per request. Same signatures and results; ``pybabel extract`` reads
# the same names.


def gettext(string: str, **variables: Any) -> str:
    text: str = translations().ugettext(string)
    return elided(text, variables) % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    variables.setdefault("num", num)
    text: str = translations().ungettext(singular, plural, num)
    return elided(text, variables) % variables


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    return LazyString(gettext, string, **variables)


# WTForms' own messages ("This field is required.", a number out of range) in the
# page's language. Flask-WTF reads WTForms' catalog from disk on every request that
# renders or checks a form; the catalogs ship with WTForms, so each is read once.

_WTFORMS_CATALOGS: dict[str, NullTranslations] = {}


def _wtforms_catalog() -> NullTranslations | None:
    if not has_request_context():
        return None
    locale = current_locale()
    key = str(locale)
    catalog = _WTFORMS_CATALOGS.get(key)
    if catalog is None:
        catalog = Translations.load(messages_path(), [locale], domain="wtforms")
        _WTFORMS_CATALOGS[key] = catalog
    return catalog


class WTFormsTranslations:
    """What ``flask_wtf.i18n.translations`` gives a form, from the catalogs read once."""

    def gettext(self, string: str) -> str:
        catalog = _wtforms_catalog()
        return string if catalog is None else catalog.ugettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        catalog = _wtforms_catalog()
        if catalog is None:
            return singular if n == 1 else plural
        return catalog.ungettext(singular, plural, n)


wtforms_translations: Final = WTFormsTranslations()


def form_translations() -> WTFormsTranslations | None:
    """A form's translations, as Flask-WTF chooses them (``WTF_I18N_ENABLED``)."""
    if not current_app.config.get("WTF_I18N_ENABLED", True):
        return None
    return wtforms_translations


# The same for the templates: what Jinja's i18n extension installs with
# ``newstyle=True`` (autoescaped, always %-formatted), without its indirections.


@pass_context
def _template_gettext(context: Context, string: str, /, **variables: Any) -> str:
    text = translations().ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return elided(text, variables) % variables  # type: ignore[no-any-return]


@pass_context
def _template_ngettext(
    context: Context, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    variables.setdefault("num", num)
    text = translations().ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return elided(text, variables) % variables  # type: ignore[no-any-return]


def current_language() -> str:
    """``en`` or ``fr``: the language of this page."""
    return str(current_locale().language)


def in_english() -> bool:
    return current_language() == DEFAULT_LANGUAGE


# Numbers, money and dates ------------------------------------------------------


@dataclass(frozen=True)
class _Symbols:
    """How a locale writes whole numbers and dollars, read from Babel once per locale:
    the group and decimal separators, and what comes before and after an amount of
    dollars. Used only where it gives exactly Babel's text (checked when it is made)."""

    group: str
    decimal: str
    before: str
    after: str

    def grouped(self, whole: int) -> str:
        """A non-negative whole number with its thousands grouped: ``1,275`` / ``1 275``."""
        return f"{whole:,}".replace(",", self.group) if whole >= 1000 else str(whole)

    def dollars(self, cents: int) -> str:
        """A non-negative number of cents as dollars: ``$1,234.50`` / ``1 234,50 $``."""
        whole, part = divmod(cents, 100)
        return f"{self.before}{self.grouped(whole)}{self.decimal}{part:02d}{self.after}"


#: Each locale's symbols (``None``: Babel formats every number itself). CLDR data, fixed
#: for the life of the process: nothing a request shows is kept here.
_SYMBOLS: dict[str, _Symbols | None] = {}
_PROBES: Final = (0, 5, 99, 100, 999, 1000, 1005, 12345, 999999, 1000000, 123456789, 10**12)


def _read_symbols(locale: Locale) -> _Symbols | None:
    sample = format_currency(Decimal("1234567.89"), "CAD", locale=locale)
    digits = format_decimal(1234567, locale=locale)
    if len(digits) != 9 or digits[1] != digits[5] or digits[0::4] != "147":
        return None
    start, end = sample.find("1"), sample.rfind("9") + 1
    symbols = _Symbols(digits[1], sample[end - 3], sample[:start], sample[end:])
    for probe in _PROBES:
        if symbols.grouped(probe) != format_decimal(probe, locale=locale):
            return None
        amount = format_currency(cents_to_decimal(probe), "CAD", locale=locale)
        if symbols.dollars(probe) != amount:
            return None
        if f"{symbols.grouped(probe // 10)}{symbols.decimal}{probe % 10}" != format_decimal(
            Decimal(probe) / 10, format="#,##0.0", locale=locale
        ):
            return None
    return symbols


def _symbols() -> _Symbols | None:
    locale = current_locale()
    key = str(locale)
    try:
        return _SYMBOLS[key]
    except KeyError:
        symbols = _SYMBOLS[key] = _read_symbols(locale)
        return symbols


def number(value: int) -> str:
    """A whole number as the page's language writes it: ``1,275`` / ``1 275``; ``−50``."""
    symbols = _symbols()
    if symbols is not None and type(value) is int:
        return f"{MINUS}{symbols.grouped(-value)}" if value < 0 else symbols.grouped(value)
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
    symbols = _symbols()
    if symbols is not None and type(cents) is int:
        amount = symbols.dollars(abs(cents))
    else:
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
    symbols = _symbols()
    if symbols is not None and type(permille) is int:
        whole, tenth = divmod(abs(permille), 10)
        text = f"{symbols.grouped(whole)}{symbols.decimal}{tenth}"
        return f"{MINUS}{text}" if permille < 0 else text
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


def moment(value: datetime) -> str:
    """A day and time (UTC): ``2025-03-14 21:30`` / ``14 mars 2025, 21 h 30``."""
    if in_english():
        return value.strftime("%Y-%m-%d %H:%M")
    return format_datetime(value, "d MMMM y, H 'h' mm", locale=current_locale())


# The language switch -------------------------------------------------------------


@bp.get("/language/<code>")
def set_language(code: str) -> Response:
    """Keep the visitor's language in a cookie and go back to the page they were on."""
    from scorekeeper.accounts.views import _safe_next

    response = redirect(_safe_next(request.args.get("next")))
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE,
            code,
            max_age=COOKIE_AGE,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response


def switch_links() -> list[tuple[str, str, str]]:
    """(code, name, url) of each language other than this page's, for the switch."""
    from flask import url_for

    here = request.full_path.rstrip("?") if request.endpoint != "i18n.set_language" else "/"
    return [
        (code, name, url_for("i18n.set_language", code=code, next=here))
        for code, name in LANGUAGES.items()
        if code != current_language()
    ]


def _template_context() -> dict[str, Any]:
    return {
        "current_language": current_language(),
        "html_lang": str(current_locale()).replace("_", "-"),
        "language_links": switch_links,
    }


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    # The templates' _(), gettext() and ngettext() (and {% trans %}) read the catalog
    # looked up once per request (Flask-Babel's own callables look it up on every call).
    app.jinja_env.globals.update(
        _=_template_gettext, gettext=_template_gettext, ngettext=_template_ngettext
    )
    # {% trans %} blocks are read with their whitespace collapsed, as babel.cfg extracts them.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # The locale is chosen afresh for every request, even one sharing an app context.
    app.before_request(refresh)
    app.context_processor(_template_context)
    app.register_blueprint(bp)
    app.add_template_filter(day)
    app.add_template_filter(moment)
