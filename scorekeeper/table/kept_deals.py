"""A deal of a game other than Mille kept on a phone while offline, sent when the network is
back (``static/offline.js``): the page's record route takes it as the very JSON body the
API takes (``POST /api/v1/games/<id>/deals``, ``shared/API.md``), under the page's session
and its CSRF token (``X-CSRFToken``), so the script never needs a copy of a game's rules.

Its ``Idempotency-Key`` is the deal's one-time token (the one a form carries): however
often the phone sends it, it is recorded once, and a repeat is answered with the game as
it is. Who may send it is who may send the deal form (a scorekeeper of the league); every
refusal is JSON, as the API's: ``{"error": "<sentence>", "fields": {...}}``, the sentence
in the page's language (the phone shows it), the fields' messages in English (the API's).
An unusual deal is asked about, as the form asks: a ``409`` with the question and the
``confirm`` value that, sent back as ``X-Confirm``, saves it as typed.
"""

import json
from collections.abc import Sequence
from typing import Any, Final

from flask import jsonify, request
from werkzeug.wrappers import Response

from scorekeeper.engine.games import Problem, Refused
from scorekeeper.errors import Conflict, NotFound, StaleVersion
from scorekeeper.models import Role
from scorekeeper.table import access, kind_service
from scorekeeper.table.change_forms import well_formed_token
from scorekeeper.table.deal_forms import confirmation
from scorekeeper.web.messages import problem_fields, problem_message
from scorekeeper.web.translation import gettext

#: The header that names the deal once, however often it is sent (the API's).
KEY: Final = "Idempotency-Key"
#: The header that answers the question an unusual deal asked: its ``confirm`` value.
CONFIRM: Final = "X-Confirm"


def record(game_id: int) -> Response:
    """Record the deal the body holds (201), or answer a repeat of its key with the game as
    it is (200); a refusal says why, and names each field at fault."""
    game = access.game(game_id, Role.SCOREKEEPER)
    body, key = _body(), request.headers.get(KEY, "")
    if not isinstance(body, dict):
        return refused(400, gettext("Send the deal as a JSON object."))
    if not key or not well_formed_token(key):
        return refused(400, gettext("A kept deal needs its one-time key."), {KEY: [_KEY_SAID]})
    entry, version = dict(body), body.get("version")
    entry.pop("version", None)
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
        return refused(422, gettext("This deal is not saved."), {"version": [_VERSION_SAID]})
    try:
        read = kind_service.read_entry(game, entry)
    except Refused as refusal:
        return _not_saved(refusal.problems)
    engine, setup = kind_service.kind_of(game), kind_service.setup_of(game)
    unusual = engine.warnings(setup, read)
    if unusual and request.headers.get(CONFIRM) != confirmation(read):
        return _asked(unusual, confirmation(read))
    return _saved(game_id, entry, version, key)


_KEY_SAID: Final = "Send the deal's one-time key: 1 to 100 letters, digits, - or _."
_VERSION_SAID: Final = "The version is a whole number, the game's version the deal was typed on."


def _body() -> Any:
    try:
        return json.loads(request.get_data())
    except (ValueError, RecursionError):
        return None


def _saved(game_id: int, entry: dict[str, Any], version: int | None, key: str) -> Response:
    try:
        played = kind_service.record(
            game_id, entry, version=version, token=key, allowed=access.allows(Role.SCOREKEEPER)
        )
    except StaleVersion:
        said = gettext("The score card changed since this deal was kept: check it, then send it.")
        return refused(409, said)
    except (Conflict, NotFound) as conflict:
        return refused(409, conflict.message)
    except Refused as refusal:  # read again under the lock: the same reading, refused
        return _not_saved(refusal.problems)
    answer = jsonify(
        recorded=played.recorded, deals=played.game.deal_count, version=played.game.version
    )
    answer.status_code = 201 if played.recorded else 200
    return answer


def _not_saved(problems: Sequence[Problem]) -> Response:
    words = "; ".join(dict.fromkeys(problem_message(problem) for problem in problems))
    said = gettext("Not saved: %(problems)s", problems=words)
    return refused(422, said, problem_fields(problems))


def _asked(unusual: Sequence[Problem], confirm: str) -> Response:
    words = "; ".join(dict.fromkeys(problem_message(problem) for problem in unusual))
    said = gettext("Please check: %(problems)s", problems=words)
    return refused(409, said, problem_fields(unusual), confirm=confirm)


def refused(
    status: int, sentence: str, fields: dict[str, list[str]] | None = None, **more: str
) -> Response:
    """The API's shape of a refusal: the sentence, and each field's problems."""
    answer = jsonify({"error": sentence, **({"fields": fields} if fields else {}), **more})
    answer.status_code = status
    return answer
