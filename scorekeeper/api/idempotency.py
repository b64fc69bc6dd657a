"""``Idempotency-Key``: a retried ``POST`` gets the first answer instead of a second change.

How a key is kept, and why it is race-safe:

1. A key already stored for the token's user answers at once: the stored
   status and body (with ``Idempotent-Replayed: true``), or a 422 when the
   key came with a different request (method, path or body). The caller's
   right to make the request is checked again first: a scorekeeper taken out
   of a league gets its 403, not the answer kept from before.
2. Otherwise the view runs with its writes held open (:func:`holding_writes`),
   and its key row, *with the answer*, is added to that same transaction: the
   change, its key and its answer are committed together or not at all. A
   process killed mid-request (kill -9) leaves none of them, so the retry
   makes the change once, as if for the first time; it never finds a key
   without its answer. Of two identical requests at once, the second's commit
   fails on the key's unique index (PostgreSQL waits for the first to commit;
   SQLite writers take turns), its change is rolled back, and it answers with
   the first one's answer.
3. A request refused (4xx) leaves no key behind: a rejected request changes
   nothing.

Keys are kept for a day (:data:`KEEP_FOR`).
"""

import hashlib
import json
import time
from collections.abc import Callable
from datetime import timedelta
from functools import wraps
from typing import Any, Final

from flask import jsonify, request
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import acting_user
from scorekeeper.database import begin_held_write, holding_writes
from scorekeeper.models import IdempotencyKey, db, utcnow

from .core import ApiError

HEADER: Final = "Idempotency-Key"
#: Visible ASCII, at most 255 characters: what any client can send and a column can hold.
KEY_PATTERN: Final = r"^[\x21-\x7e]{1,255}$"
KEEP_FOR: Final = timedelta(days=1)
#: How long a retry waits for the answer of the same request still being made.
WAIT_SECONDS: Final = 5.0


def _read_key() -> str | None:
    key = request.headers.get(HEADER)
    if key is None:
        return None
    if not (1 <= len(key) <= 255 and all("\x21" <= char <= "\x7e" for char in key)):
        raise ApiError(400, f"An {HEADER} is 1 to 255 visible ASCII characters.")
    return key


def _body_hash() -> str:
    """The body's fingerprint: its JSON with sorted keys, or its bytes if it isn't JSON."""
    raw = request.get_data()
    try:
        text = json.dumps(json.loads(raw), sort_keys=True, separators=(",", ":"))
        data = text.encode()
    except (ValueError, RecursionError):
        data = raw
    return hashlib.sha256(data).hexdigest()


def _stored(user_id: int, key: str) -> IdempotencyKey | None:
    db.session.rollback()  # a fresh read: another request may have just committed
    return db.session.scalars(
        select(IdempotencyKey).where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key)
    ).first()


def _replay(
    user_id: int, key: str, body_hash: str, still_allowed: Callable[[], object]
) -> Response | None:
    """The stored answer to this key, waiting a little for one still being made."""
    deadline = time.monotonic() + WAIT_SECONDS
    while (row := _stored(user_id, key)) is not None:
        if (row.method, row.path, row.body_hash) != (request.method, request.path, body_hash):
            raise ApiError(
                422,
                f"This {HEADER} was used for a different request; use a new key for this one.",
                {HEADER: ["This key was sent before with another method, path or body."]},
            )
        if row.status is not None:
            still_allowed()
            response = jsonify(row.response)
            response.status_code = row.status
            response.headers["Idempotent-Replayed"] = "true"
            if row.location:
                response.headers["Location"] = row.location
            return response
        if time.monotonic() > deadline:
            raise ApiError(
                409,
                f"A request with this {HEADER} is still being made, or its answer was lost; "
                "read the game or league to see where it stands.",
            )
        time.sleep(0.05)
    return None


def idempotent(
    allowed: Callable[..., object],
) -> Callable[[Callable[..., Response]], Callable[..., Response]]:
    """Honour an ``Idempotency-Key`` on a ``POST`` made with a token (module docstring).

    ``allowed`` is the view's own permission check, called with the view's arguments;
    it raises the view's 401, 403 or 404 before a stored answer is replayed.
    """

    def decorator(view: Callable[..., Response]) -> Callable[..., Response]:
        @wraps(view)
        def wrapper(**kwargs: Any) -> Response:
            return _answer_once(view, kwargs, lambda: allowed(**kwargs))

        wrapper.idempotent = True  # type: ignore[attr-defined]  # described by .openapi
        return wrapper

    return decorator


def _answer_once(
    view: Callable[..., Response], kwargs: dict[str, Any], still_allowed: Callable[[], object]
) -> Response:
    user = acting_user()
    if user is None:
        return view(**kwargs)  # its 401, whatever the key looks like
    key = _read_key()
    if key is None:
        return view(**kwargs)
    user_id, body_hash = user.id, _body_hash()
    replayed = _replay(user_id, key, body_hash, still_allowed)
    if replayed is not None:
        return replayed
    try:
        with holding_writes():
            response = view(**kwargs)
            if response.status_code < 400:
                _keep_answer(user_id, key, body_hash, response)
        return response
    except (ApiError, HTTPException, IntegrityError):
        # Refused, or beaten by the same request at once: its answer, if it made one.
        replayed = _replay(user_id, key, body_hash, still_allowed)
        if replayed is not None:
            return replayed
        raise


def _keep_answer(user_id: int, key: str, body_hash: str, response: Response) -> None:
    """Commit the request's change with its key and answer (module docstring, 2), and
    let go of keys older than :data:`KEEP_FOR`."""
    begin_held_write()
    db.session.add(
        IdempotencyKey(
            user_id=user_id,
            key=key,
            method=request.method,
            path=request.path,
            body_hash=body_hash,
            status=response.status_code,
            response=response.get_json(),
            location=response.headers.get("Location"),
        )
    )
    db.session.execute(
        delete(IdempotencyKey).where(
            IdempotencyKey.user_id == user_id, IdempotencyKey.created_at < utcnow() - KEEP_FOR
        )
    )
    db.session.commit()
