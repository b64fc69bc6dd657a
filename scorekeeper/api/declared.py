"""Each API route's declaration, under its Flask decorator: what it reads, what it answers
and which errors it gives. The OpenAPI description (:mod:`.openapi`) is derived from the
registered routes and these declarations, and nothing else.

::

    @bp.post("/games/<id:game_id>/deals")
    @declared(201, answers.Game, errors=CHANGE, body=DealInput, token=True)
    @idempotent(allowed=writable_game)
    def record_deal(game_id: int) -> Response:
        \"\"\"Record the next deal; ...\"\"\"   # its first sentence is the summary

A declaration only describes: the view still reads its body (:mod:`.reading`) and checks
who may call it, in the order API.md gives (401, 404, 403, then 422). Only ``query``
is also enforced: any other query argument is a 422 (``core._takes_only_its_arguments``).
This module is light on purpose: the schemas are made when the description is first
asked for.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from pydantic import BaseModel

View = TypeVar("View", bound=Callable[..., Any])

#: The errors a change of a game or a league can give, besides 401 and 422.
CHANGE: Final = (400, 403, 404, 409)
#: What a view answers: a class of :mod:`.answers`, a list of one (``[answers.Event]``),
#: or a JSON Schema written out (a dict).
Answered = type[BaseModel] | list[type[BaseModel]] | dict[str, Any]


@dataclass(frozen=True)
class Operation:
    """One route's declaration (see :func:`declared`)."""

    status: int
    answer: Answered
    errors: tuple[int, ...] = ()
    body: type[BaseModel] | None = None
    optional_body: bool = False
    query: type[BaseModel] | None = None
    token: bool = False
    location: bool = False
    described_as: str | None = None


def declared(
    status: int,
    answer: Answered,
    *,
    errors: tuple[int, ...] = (),
    body: type[BaseModel] | None = None,
    optional_body: bool = False,
    query: type[BaseModel] | None = None,
    token: bool = False,
    location: bool = False,
    described_as: str | None = None,
) -> Callable[[View], View]:
    """Declare the view under it.

    * ``status`` and ``answer``: what it answers when it succeeds; ``described_as`` words
      that answer (else the status's name, "Created.").
    * ``errors``: the statuses it can refuse with besides 401 and 422, which every route
      can give; each is answered with :class:`.answers.Error`.
    * ``body``: the shape it reads the JSON body into (:mod:`.shapes`); ``optional_body``:
      no body at all is fine. ``query``: the shape of its query arguments, and the only
      ones it takes.
    * ``token``: it needs ``Authorization: Bearer``, as every write does.
    * ``location``: its 201 says where the new thing is (``Location``).

    An ``Idempotency-Key`` is described where the view honours one (``@idempotent`` under
    this declaration).
    """
    operation = Operation(
        status, answer, errors, body, optional_body, query, token, location, described_as
    )

    def mark(view: View) -> View:
        view.operation = operation  # type: ignore[attr-defined]
        if query is not None:
            view.query_arguments = tuple(query.model_fields)  # type: ignore[attr-defined]
        return view

    return mark


def operation_of(view: Callable[..., Any]) -> Operation | None:
    """The view's declaration, if it has one."""
    return getattr(view, "operation", None)
