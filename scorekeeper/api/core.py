"""The API's frame: its blueprint, bearer tokens, JSON errors and JSON bodies.

Every answer is JSON, errors included: ``{"error": "<sentence>", "fields":
{"<field>": ["<message>", …]}}`` (``fields`` only for validation errors).
A body that is not a JSON object is a 400, an invalid field a 422, and no
malformed request ever gets a 500. Views raise :class:`ApiError`; the error
handlers here (and :func:`http_error`, which the app's error pages call for
paths under :data:`PREFIX`) turn it and any HTTP error into that JSON.
"""

import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from flask import Blueprint, current_app, g, jsonify, request
from flask.blueprints import BlueprintSetupState
from werkzeug.exceptions import Forbidden, HTTPException, MethodNotAllowed
from werkzeug.routing import IntegerConverter
from werkzeug.wrappers import Response

from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts.permissions import acting_user, require_role
from scorekeeper.models import League, Role, User
from scorekeeper.urls import API_PREFIX as PREFIX

bp = Blueprint("api", __name__, url_prefix=PREFIX)


class WholeNumberConverter(IntegerConverter):
    """Any run of ASCII digits (``\\d`` would also take a full-width ``１``)."""

    regex = r"[0-9]+"


@bp.record_once
def _whole_number_ids(state: BlueprintSetupState) -> None:
    """``<id:…>``: any run of digits. The views answer 404 beyond a database id.

    The app's ``<int:…>`` refuses such ids only after a route has matched, and
    werkzeug then reports a 405 when another method shares the path (DELETE of
    a deal with PUT); a 404 is the answer the API describes.
    """
    state.app.url_map.converters.setdefault("id", WholeNumberConverter)


#: The one sentence for an HTTP error that no view explained.
HTTP_ERRORS: Final = {
    400: "The request could not be read.",
    401: "Send Authorization: Bearer <token> to do this.",
    403: "Your role doesn't allow this.",
    404: "There is nothing at this address.",
    405: "This address doesn't take that method.",
    409: "The request conflicts with the game's state.",
    413: "The request body is too large.",
    415: "Send the body as JSON (Content-Type: application/json).",
    422: "A field is invalid.",
    500: "Something went wrong on our side; nothing was changed.",
}


class ApiError(Exception):
    """A request the API refuses: the status, one sentence, and the fields at fault."""

    def __init__(
        self, status: int, message: str, fields: Mapping[str, Sequence[str]] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.fields = {name: list(messages) for name, messages in (fields or {}).items()}


def invalid(fields: Mapping[str, Sequence[str]]) -> ApiError:
    """A 422 for these fields; the sentence is the problem itself when there is one."""
    messages = [message for found in fields.values() for message in found]
    sentence = messages[0] if len(messages) == 1 else "Some fields are invalid; see fields."
    return ApiError(422, sentence, fields)


def error_response(
    status: int, message: str, fields: Mapping[str, list[str]] | None = None
) -> Response:
    body: dict[str, Any] = {"error": message}
    if fields:
        body["fields"] = dict(fields)
    response = jsonify(body)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="mille"'
    return response


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Response:
    return error_response(error.status, error.message, error.fields)


@bp.errorhandler(HTTPException)
def http_error(error: HTTPException) -> Response:
    """Any HTTP error as the API's JSON error (keeping ``Allow`` on a 405), with the
    sentence it was raised with (``abort(404, description=…)``), else its status's."""
    status = error.code or 500
    message = HTTP_ERRORS.get(status, f"{error.name}.")
    if error.description and error.description != type(error).description:
        message = error.description
    response = error_response(status, message)
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


# Who is asking ------------------------------------------------------------------


#: The largest body the API reads. A game, a deal or a count of cards is a few hundred
#: bytes; a larger body is refused (413) before it is read.
MAX_BODY: Final = 64 * 1024


@bp.before_request
def _limit_the_body() -> None:
    request.max_content_length = MAX_BODY


@bp.before_request
def _authenticate() -> None:
    """``Authorization: Bearer <token>`` makes the token's user the acting user.

    The API never reads the session cookie (``g.bearer_only``). A header that
    is there but wrong is a 401 on any request, reads included: a script with
    a revoked token should hear so, not quietly read as a visitor.
    """
    g.bearer_only = True
    header = request.headers.get("Authorization")
    if header is None:
        return
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise ApiError(401, "The Authorization header must be: Bearer <token>.")
    user = token_service.user_for_token(token.strip(), touch=True)
    if user is None:
        raise ApiError(401, "This token is not valid: it is unknown or has been revoked.")
    g.api_user = user


@bp.before_request
def _takes_only_its_arguments() -> None:
    """A query argument the view doesn't read (its declared ``query``) is a 422, as an unknown
    field is: a typo (``?stauts=finished``) is told, not quietly ignored."""
    view = current_app.view_functions.get(request.endpoint or "")
    known = getattr(view, "query_arguments", ())
    unknown = [name for name in request.args if name not in known]
    if unknown:
        raise invalid({name: [f'"{name}" is not a query argument here.'] for name in unknown})


def require_user() -> User:
    """The token's user; 401 without a token."""
    user = acting_user()
    if user is None:
        raise ApiError(401, HTTP_ERRORS[401])
    return user


def require_api_role(league: League, role: Role) -> None:
    """401 without a token; 403 without ``role`` in the league, a private one included."""
    require_user()
    try:
        require_role(league, role, hide_private=False)
    except Forbidden:
        raise ApiError(
            403, f"This needs the {role.label.lower()} role (or above) in this league."
        ) from None


# Bodies ---------------------------------------------------------------------------


def json_body(*, optional: bool = False) -> dict[str, Any]:
    """The request's body as a JSON object; a 400 :class:`ApiError` otherwise.

    ``optional``: no body at all reads as ``{}``.
    """
    if optional and not request.get_data():
        return {}
    if not request.is_json:
        raise ApiError(400, "Send the body as JSON (Content-Type: application/json).")
    try:
        data = json.loads(request.get_data())
    except (ValueError, RecursionError):
        raise ApiError(400, "The body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise ApiError(400, "The body must be a JSON object.")
    return data
