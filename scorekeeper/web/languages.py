"""The languages the site speaks, and which one this page is in.

English and French (Québec French, formatted as in Canada). Which one a visitor gets
is chosen by :mod:`scorekeeper.web.i18n`; this module only reads the choice, through
Flask-Babel's :func:`~flask_babel.get_locale`, so that the messages and the number
formats can ask for it without importing the switch.
"""

from typing import Final

from babel import Locale
from flask_babel import get_locale

#: The languages offered, each in its own words (for the switch).
LANGUAGES: Final = {"en": "English", "fr": "Français"}
DEFAULT_LANGUAGE: Final = "en"
#: The locale each language is written in: Canadian, as Mille is from Montreal.
LOCALES: Final = {"en": "en_CA", "fr": "fr_CA"}

_DEFAULT_LOCALE: Final = Locale.parse(LOCALES[DEFAULT_LANGUAGE])


def current_locale() -> Locale:
    """This request's locale; English (Canada) outside a request (the shell, the CLI)."""
    return get_locale() or _DEFAULT_LOCALE


def current_language() -> str:
    """``en`` or ``fr``: the language of this page."""
    return str(current_locale().language)


def in_english() -> bool:
    return current_language() == DEFAULT_LANGUAGE
