"""The languages the site speaks, and which one this page is in.

English and French (Québec French, formatted as in Canada). Which one a visitor gets
is chosen by :mod:`scorekeeper.web.i18n`; this module only reads the choice, through
Flask-Babel's :func:`~flask_babel.get_locale` and :func:`~flask_babel.get_translations`,
so that the messages and the number formats can ask for it without importing the switch.

A page asks for its language a few hundred times (every message, every number), and
each of Flask-Babel's answers goes through several context look-ups. So Flask-Babel is
asked once per request and the answer kept on ``g`` until :func:`refresh`, which runs
before every request (as Flask-Babel's own cache does).
"""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Final

from babel import Locale
from babel.support import NullTranslations
from flask import g, has_app_context
from flask_babel import get_locale, get_translations
from flask_babel import refresh as refresh_babel

#: The languages offered, each in its own words (for the switch).
LANGUAGES: Final = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE: Final = "en"
#: The locale each language is written in: Canadian, as Mille is from Montreal.
LOCALES: Final = {"en": "en_CA", "fr": "fr_CA"}


@dataclass(frozen=True, slots=True)
class PageLanguage:
    """A page's language: its locale (``key`` names it, for the per-locale caches), its
    language code, and its catalog of messages."""

    locale: Locale
    key: str
    language: str
    translations: NullTranslations

    @classmethod
    def of(cls, locale: Locale, translations: NullTranslations) -> "PageLanguage":
        return cls(locale, str(locale), str(locale.language), translations)


#: Outside an app (a script, the engine's own tests): English, no catalog.
_DEFAULT: Final = PageLanguage.of(Locale.parse(LOCALES[DEFAULT_LANGUAGE]), NullTranslations())
_KEPT: Final = "scorekeeper_language"


def page_language() -> PageLanguage:
    """This request's language, asked of Flask-Babel once per request; English (Canada)
    outside a request (the shell, the CLI).

    ``g`` is looked up once, through the proxy's own ``_get_current_object`` (which
    raises RuntimeError outside an app context): ``has_app_context()`` and ``g.get``
    went through the proxy twice, seven times the cost of this, a few hundred times
    a page."""
    try:
        store = g._get_current_object()
    except RuntimeError:
        return _DEFAULT
    return stored_language(store)


def stored_language(store: object) -> PageLanguage:
    """:func:`page_language`, given the request's ``g`` already looked up (``store``): for
    a caller that reads something else of ``g`` too, a few thousand times a page."""
    kept: PageLanguage | None = getattr(store, _KEPT, None)
    if kept is None:
        kept = PageLanguage.of(get_locale() or _DEFAULT.locale, get_translations())
        setattr(store, _KEPT, kept)
    return kept


def refresh() -> None:
    """Choose the language afresh (before every request, or after a change of the
    choice): Flask-Babel's :func:`~flask_babel.refresh`, and this module's copy too."""
    refresh_babel()
    g.pop(_KEPT, None)


def current_locale() -> Locale:
    """This request's locale; English (Canada) outside a request (the shell, the CLI)."""
    return page_language().locale


def current_language() -> str:
    """``en`` or ``fr``: the language of this page."""
    return page_language().language


def in_english() -> bool:
    return page_language().language == DEFAULT_LANGUAGE


@contextmanager
def english_words() -> Iterator[None]:
    """English, whatever the page's language, while the block runs: the API's words are
    the catalog's own (its message ids), for every client."""
    if not has_app_context():
        yield
        return
    kept = g.get(_KEPT)
    setattr(g, _KEPT, _DEFAULT)
    try:
        yield
    finally:
        if kept is None:
            g.pop(_KEPT, None)
        else:
            setattr(g, _KEPT, kept)
