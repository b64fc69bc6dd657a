"""The messages in the page's language: gettext for the code and the templates, with
French elision, and WTForms' own messages.

Flask-Babel's :func:`~flask_babel.get_translations` gives the catalog, asked once per
request (:func:`.languages.page_language`); the functions here are Flask-Babel's
``gettext``, ``ngettext`` and ``lazy_gettext`` (same signatures, same results, and
``pybabel extract`` reads the same names) with one step added before the values are put
in: French "de %(name)s" becomes "d'%(name)s" before a vowel.
"""

import re
import unicodedata
from typing import Any, Final

from babel.support import NullTranslations, Translations
from flask import current_app, has_request_context
from flask_babel.speaklater import LazyString
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup
from wtforms.i18n import messages_path

from scorekeeper.web.languages import page_language

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


def gettext(string: str, **variables: Any) -> str:
    """``string`` in the page's language, with ``variables`` put in (as Flask-Babel's)."""
    text: str = page_language().translations.ugettext(string)
    return elided(text, variables) % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """The singular or plural in the page's language, with ``num`` and ``variables`` put in."""
    variables.setdefault("num", num)
    text: str = page_language().translations.ungettext(singular, plural, num)
    return elided(text, variables) % variables


def lazy_gettext(string: str, **variables: Any) -> LazyString:
    """:func:`gettext` when the text is used, not when it is defined (forms, constants)."""
    return LazyString(gettext, string, **variables)


# The templates' _(), gettext() and ngettext(), and {% trans %}: what Jinja's i18n
# extension installs with ``newstyle=True`` (autoescaped, always %-formatted), with the
# elision added (Jinja's own callables put the values in without a step between).


@pass_context
def template_gettext(context: Context, string: str, /, **variables: Any) -> str:
    text = page_language().translations.ugettext(string)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    if not variables and "%" not in text:
        return text  # what "% {}" would give, without its escaping machinery
    return elided(text, variables) % variables  # type: ignore[no-any-return]


@pass_context
def template_ngettext(
    context: Context, singular: str, plural: str, num: int, /, **variables: Any
) -> str:
    variables.setdefault("num", num)
    text = page_language().translations.ungettext(singular, plural, num)
    if context.eval_ctx.autoescape:
        text = Markup(text)
    return elided(text, variables) % variables  # type: ignore[no-any-return]


# WTForms' own messages ("This field is required.", a number out of range) in the
# page's language. Flask-WTF reads WTForms' catalog from disk on every request that
# renders or checks a form; the catalogs ship with WTForms, so each is read once.

_WTFORMS_CATALOGS: dict[str, NullTranslations] = {}


def _wtforms_catalog() -> NullTranslations | None:
    if not has_request_context():
        return None
    language = page_language()
    catalog = _WTFORMS_CATALOGS.get(language.key)
    if catalog is None:
        catalog = Translations.load(messages_path(), [language.locale], domain="wtforms")
        _WTFORMS_CATALOGS[language.key] = catalog
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
