"""The other side of the table, for scripts: a game's agreements, and what a seat's link
opens (the game, its seat, the agreements), where that seat's player agrees with the card.

A seat's link needs no token: its token, in the path, is the capability (a wrong, stopped
or expired one is a 404, like a game that doesn't exist). What it reads is what its page
shows (:class:`.answers.Card`: no league, no game id), and every answer to it, a refusal
included, is sent as the page is: kept by no cache, its address passed on to no one.
"""

from flask import after_this_request
from werkzeug.wrappers import Response

from scorekeeper.errors import Conflict, NotFound, StaleVersion
from scorekeeper.models import SeatLink
from scorekeeper.table import access, seats

from . import answers, kind_answers
from .core import ApiError, bp, json_body
from .declared import declared
from .games import readable_game
from .reading import read
from .shapes import VersionInput


@bp.get("/games/<id:game_id>/agreements")
@declared(200, [kind_answers.AnyAgreement], errors=(404,))
def agreements(game_id: int) -> Response:
    """Each player's latest agreement with the card, and whether it still stands."""
    game = readable_game(game_id)
    return answers.sent_list(kind_answers.agreements_of(game))


def _seat(token: str, *, changing: bool = False) -> SeatLink:
    after_this_request(_private)
    return access.seat(token, changing=changing, api=True)


def _private(response: Response) -> Response:
    """An answer to a link's address (the token): never cached, nor sent on as a referrer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/seats/<token>")
@declared(200, kind_answers.AnySeatCard, errors=(404,))
def seat(token: str) -> Response:
    """What a seat's link opens: the game, the seat, and every player's agreement."""
    return kind_answers.seat_card(_seat(token)).sent()


@bp.post("/seats/<token>/agreement")
@declared(
    201,
    kind_answers.AnySeatCard,
    errors=(400, 403, 404, 409),
    body=VersionInput,
    optional_body=True,
)
def agree(token: str) -> Response:
    """The seat's player agrees with the card: at ``version``, when given (else as it is).
    A link shared by an account no longer in use changes nothing (403)."""
    link = _seat(token, changing=True)
    game_id, seat_number = link.game_id, link.seat
    version = read(VersionInput, json_body(optional=True)).version
    try:
        seats.agree(game_id, seat_number, version, by_link=True)
    except NotFound as error:
        raise ApiError(404, error.message) from None
    except StaleVersion:
        raise ApiError(
            409,
            "The card changed since that version: read it again, and agree with it as it is "
            "now if you still do.",
        ) from None
    except Conflict as error:
        raise ApiError(409, error.message) from None
    return kind_answers.seat_card(_seat(token)).sent(201)
