"""Wiring for the pages: blueprints, template filters, error pages, security headers."""

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, redirect, render_template, request, url_for
from flask_compress import Compress
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from . import assets, i18n
from .formatting import money
from .formatting import number as points  # a total as on the card: 1,275 / 1 275, −50
from .translation import gettext
from .translation import lazy_gettext as _l

csrf = CSRFProtect()

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


def stars(count: int) -> str:
    return "★" * count


def preset_rules() -> dict[str, dict[str, object]]:
    """Each preset's options, for the script that fills them in when a preset is picked."""
    from .engine import PRESETS
    from .forms import rules_data

    return {preset.value: rules_data(rules) for preset, rules in PRESETS.items()}


def _security_headers(response: Response) -> Response:
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def _error_page(error: HTTPException) -> tuple[str, int] | Response:
    from . import api

    if api.is_api_request():  # also for a path under /api/v1 that matched no route
        return api.http_error(error)
    code = error.code or 500
    if code == 401 and request.method == "GET":
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    title, text = ERROR_PAGES.get(code, (error.name, error.description or ""))
    return render_template("errors/error.html", code=code, title=title, text=text), code


def _csrf_error(error: CSRFError) -> tuple[str, int]:
    text = gettext(
        "This form was open too long or came from elsewhere, so it was not saved. "
        "Reload the page and enter it again."
    )
    title = gettext("Form expired")
    return render_template("errors/error.html", code=400, title=title, text=text), 400


View = TypeVar("View", bound=Callable[..., Any])


def allows_body(size: int) -> Callable[[View], View]:
    """Mark a view that takes a larger body than ``MAX_CONTENT_LENGTH`` (an import's file)."""

    def mark(view: View) -> View:
        view.max_body = size  # type: ignore[attr-defined]
        return view

    return mark


def _limit_the_body() -> None:
    """This view's limit, set before anything (the form, the CSRF check) reads the body."""
    view = current_app.view_functions.get(request.endpoint or "")
    larger = getattr(view, "max_body", None)
    if larger is not None:
        request.max_content_length = larger


def _refuse_nul_characters() -> None:
    """No field takes a NUL character, and PostgreSQL can't store or compare one: a 400.

    The API checks its own arguments and answers a 422 naming the field (API.md)."""
    from .api import is_api_request

    if is_api_request():
        return
    values = (*request.args.values(), *request.form.values())
    if any("\x00" in value for value in values):
        abort(400)


def _first_visit_offers_setup() -> Response | None:
    """Until the first administrator exists, every page leads to creating one."""
    state = current_app.extensions.setdefault("scorekeeper", {})
    if state.get("has_users") or request.endpoint in ("auth.setup", "static", "i18n.set_language"):
        return None
    from .api import is_api_request

    if is_api_request():
        return None
    from .accounts import has_users

    if has_users():
        state["has_users"] = True  # accounts are never all deleted: no need to ask again
        return None
    return redirect(url_for("auth.setup"))


def init_app(app: Flask) -> None:
    from . import admin, api, auth, count_views, leagues, messages, offline, table
    from .models import Role
    from .permissions import acting_user, keeps_score_anywhere, may

    i18n.init_app(app)
    messages.init_app(app)
    assets.init_app(app)
    # Pages, JSON and exports compressed when the client asks; static files come
    # compressed already (assets). Brotli first, where the browser takes it: smaller.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    Compress(app)
    csrf.init_app(app)
    csrf.exempt(api.bp)  # no cookies: API writes will need a bearer token instead
    auth.login_manager.init_app(app)
    app.register_blueprint(table.bp)
    app.register_blueprint(count_views.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(admin.bp)
    app.register_blueprint(leagues.bp)
    app.register_blueprint(offline.bp)
    app.before_request(_limit_the_body)
    app.before_request(_refuse_nul_characters)
    app.before_request(_first_visit_offers_setup)
    app.add_template_global(preset_rules)
    app.add_template_global(may)
    app.add_template_global(Role)
    app.add_template_global(acting_user)
    app.add_template_global(keeps_score_anywhere)
    app.add_template_filter(money)
    app.add_template_filter(points, "points")
    app.add_template_filter(stars)
    app.after_request(_security_headers)
    app.register_error_handler(CSRFError, _csrf_error)
    for code in ERROR_PAGES:
        app.register_error_handler(code, _error_page)
