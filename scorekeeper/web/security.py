"""Every response's security headers, the CSRF guard, and limits on what a request may carry."""

from collections.abc import Callable
from typing import Any, TypeVar

import flask
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


class Request(flask.Request):
    """A request whose body limit is its view's (:func:`allows_body`), else the app's.

    Known from the URL alone, before anything reads the body: the CSRF check that parses
    the form comes before any hook could have raised the limit, and refused every import
    over 1 MiB with CSRF on (issue 21)."""

    @property
    def max_content_length(self) -> int | None:
        view = (
            current_app.view_functions.get(self.endpoint) if current_app and self.endpoint else None
        )
        larger = getattr(view, "max_body", None)
        if larger is not None and self._max_content_length is None:
            return int(larger)
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


def refuse_a_body_too_large() -> None:
    """413 from the Content-Length alone, before anything reads a byte of the body (the
    first hook of all: registered before the CSRF check's)."""
    most = request.max_content_length
    if most is not None and (request.content_length or 0) > most:
        abort(413)


def refuse_nul_characters() -> None:
    """No field takes a NUL character, and PostgreSQL can't store or compare one: a 400.

    The API checks its own arguments and answers a 422 naming the field (API.md)."""
    if is_api_request():
        return
    values = (*request.args.values(), *request.form.values())
    if any("\x00" in value for value in values):
        abort(400)
