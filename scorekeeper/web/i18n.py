"""English and French (Flask-Babel): choosing the language, and the switch on every page.

The language is the visitor's own choice, kept in a cookie by the switch on every
page (``/language/fr``), else the first of English or French that the browser
asks for, else English. The JSON API always answers in English.

The rest of the job is done elsewhere, each in its own module: which languages there
are and which one this page is in (:mod:`.languages`), the messages
(:mod:`.translation`), numbers, money and dates (:mod:`.formatting`).
"""

from typing import Any, Final

from flask import Blueprint, Flask, has_request_context, redirect, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.urls import is_api_request, safe_next
from scorekeeper.web.languages import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    LOCALES,
    current_language,
    current_locale,
)
from scorekeeper.web.translation import template_gettext, template_ngettext

#: The cookie that keeps the visitor's choice (a preference, not a secret).
COOKIE: Final = "lang"
COOKIE_AGE: Final = 365 * 24 * 3600

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
    if is_api_request():
        return LOCALES[DEFAULT_LANGUAGE]  # the API's messages are English, whatever is asked
    return LOCALES[chosen_language() or browser_language() or DEFAULT_LANGUAGE]


@bp.get("/language/<code>")
def set_language(code: str) -> Response:
    """Keep the visitor's language in a cookie and go back to the page they were on."""
    response = redirect(safe_next(request.args.get("next")))
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
    """The templates' words: gettext in their language, and the language switch."""
    # The templates' _(), gettext() and ngettext() (and {% trans %}) elide French "de"
    # before a vowel, as the code's gettext does (Flask-Babel's callables can't).
    app.jinja_env.globals.update(
        _=template_gettext, gettext=template_gettext, ngettext=template_ngettext
    )
    # {% trans %} blocks are read with their whitespace collapsed, as babel.cfg extracts them.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.context_processor(_template_context)
