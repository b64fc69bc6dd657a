"""Error pages, in the reader's language (under the API, ``create_app`` answers JSON)."""

from flask import jsonify, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

ERROR_PAGES = {
    400: (
        _l("Bad request"),
        _l("The page sent something we couldn't read. Go back and try again."),
    ),
    401: (_l("Sign in first"), _l("Sign in to do that.")),
    403: (
        _l("Not allowed"),
        _l("Your role in this league doesn't allow that. Ask a league admin."),
    ),
    413: (
        _l("Too large"),
        _l("What the page sent is larger than this site accepts, so nothing was saved."),
    ),
    429: (_l("Slow down"), _l("Too many attempts. Wait a little and try again.")),
    404: (
        _l("Not found"),
        _l("There is nothing here. The game or league may have been removed."),
    ),
    405: (_l("Not allowed"), _l("That address can't be used like this.")),
    500: (
        _l("Something went wrong"),
        _l("The error has been logged. Nothing you typed was saved."),
    ),
}


def error_page(error: HTTPException) -> tuple[str, int] | Response:
    code = error.code or 500
    if code == 401 and request.method == "GET":
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    title, text = ERROR_PAGES.get(code, (error.name, error.description or ""))
    return _said(code, str(title), str(text))


def csrf_error(error: CSRFError) -> tuple[str, int] | Response:
    if request.is_json:  # a page's script sending what it kept: it reloads the page, not a form
        text = gettext("This page is too old to send from: reload it.")
    else:
        text = gettext(
            "This form was open too long or came from elsewhere, so it was not saved. "
            "Reload the page and enter it again."
        )
    return _said(400, gettext("Form expired"), text)


def _said(code: int, title: str, text: str) -> tuple[str, int] | Response:
    """The error page; to a page's script that sent JSON (static/offline.js), its words as
    the API says an error: ``{"error": "<title>: <sentence>"}``."""
    if request.is_json:
        answer = jsonify(error=f"{title}: {text}")
        answer.status_code = code
        return answer
    return render_template("errors/error.html", code=code, title=title, text=text), code
