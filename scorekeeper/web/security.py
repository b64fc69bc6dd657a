"""Every response's security headers, the CSRF guard, and limits on what a request may carry."""

from collections.abc import Callable
from typing import Any, TypeVar

from flask import abort, current_app, request
from werkzeug.wrappers import Response

from scorekeeper.urls import is_api_request


def security_headers(response: Response) -> Response:
    response.headers.setdefault(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    )
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


View = TypeVar("View", bound=Callable[..., Any])


def allows_body(size: int) -> Callable[[View], View]:
    """Mark a view that takes a larger body than ``MAX_CONTENT_LENGTH`` (an import's file)."""

    def mark(view: View) -> View:
        view.max_body = size  # type: ignore[attr-defined]
        return view

    return mark


def limit_the_body() -> None:
    """This view's limit, set before anything (the form, the CSRF check) reads the body."""
    view = current_app.view_functions.get(request.endpoint or "")
    larger = getattr(view, "max_body", None)
    if larger is not None:
        request.max_content_length = larger


def refuse_nul_characters() -> None:
    """No field takes a NUL character, and PostgreSQL can't store or compare one: a 400.

    The API checks its own arguments and answers a 422 naming the field (API.md)."""
    if is_api_request():
        return
    values = (*request.args.values(), *request.form.values())
    if any("\x00" in value for value in values):
        abort(400)
