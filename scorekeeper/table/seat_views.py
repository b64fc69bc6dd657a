"""The other side of the table, in pages: a seat's link with its QR code, the card it opens
on the opponent's phone, agreeing with the card, and the receipt.

The pages a link opens (``/s/<token>``) show that one game and nothing else: no league, no
other game, no history (it names accounts), no player but the game's two. Their token is a
capability: a wrong, stopped or expired one is a plain 404.
"""

from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import role_in
from scorekeeper.errors import Conflict, NotFound, ServiceError, StaleVersion
from scorekeeper.models import AuditAction, AuditEvent, Game, Role, SeatLink
from scorekeeper.records import payment_handles
from scorekeeper.records.payment_handles import handle_of, read_handle
from scorekeeper.table import access, audit, kind_pages, kind_receipts, receipt_pages, seats
from scorekeeper.table.change_forms import AgreeForm, GameChangeForm
from scorekeeper.table.forms import PaymentHandleForm
from scorekeeper.table.shown_card import ShownCard
from scorekeeper.table.shown_sitting import ShownSitting
from scorekeeper.web.translation import gettext

bp = Blueprint("seats", __name__)


# The scorekeeper's side: show a seat's link, stop sharing it, agree for a player --------


def _game_for(game_id: int, role: Role) -> Game:
    return access.game(game_id, role)


def _has_seat(game: Game, seat: int) -> bool:
    return 0 <= seat < seats.seat_count(game)


@bp.post("/games/<int:game_id>/seats/<int:seat>/share")
def share(game_id: int, seat: int) -> Response | tuple[str, int]:
    """A new link to the seat, shown this once as a QR code and as text (only its hash is
    kept): for the scorekeeper to show to that player."""
    game = _game_for(game_id, Role.SCOREKEEPER)
    if not _has_seat(game, seat):
        abort(404)
    if not GameChangeForm().validate_on_submit():
        abort(400)
    token = seats.share(game.id, seat)
    link = url_for(".seat_page", token=token, _external=True)
    name = game.player(seat).name
    page = render_template(
        "table/share.html",
        game=game,
        seat=seat,
        name=name,
        link=link,
        qr=seats.qr_svg(link, gettext("QR code of the link to %(name)s's card", name=name)),
    )
    # Shown once, in the answer to this POST: never in a cookie, nor in any cache.
    response = make_response(page, 201)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/<int:game_id>/seats/<int:seat>/stop")
def stop_sharing(game_id: int, seat: int) -> Response:
    """Every link to the seat is dead at once."""
    game = _game_for(game_id, Role.SCOREKEEPER)
    if not _has_seat(game, seat):
        abort(404)
    if not GameChangeForm().validate_on_submit():
        abort(400)
    seats.stop_sharing(game.id, seat)
    flash(
        gettext(
            "%(name)s's card is no longer shared: the link opens nothing now.",
            name=game.player(seat).name,
        )
    )
    return redirect(url_for("table.game", game_id=game_id, _anchor="sharing"))


@bp.post("/games/<int:game_id>/agree")
def agree_for(game_id: int) -> Response:
    """A player agrees with the card on the scorekeeper's phone (the game page)."""
    game = _game_for(game_id, Role.SCOREKEEPER)
    form = AgreeForm()
    seat = form.chosen_seat
    if not form.validate_on_submit() or seat is None:
        abort(400)
    if not _has_seat(game, seat):
        abort(404)
    name = game.player(seat).name
    _agree(game_id, seat, form.expected_version, by_link=False, name=name)
    return redirect(url_for("table.game", game_id=game_id, _anchor="agreements"))


def _agree(game_id: int, seat: int, version: int | None, *, by_link: bool, name: str) -> None:
    try:
        seats.agree(game_id, seat, version, by_link=by_link)
    except StaleVersion:
        flash(gettext("The card changed before you agreed: look at it again."), "error")
    except Conflict as conflict:
        flash(conflict.message, "error")
    except NotFound:
        abort(404)
    else:
        said = gettext("%(name)s agrees with this card.", name=name)
        flash(gettext("Saved: you agree with this card.") if by_link else said)


@bp.get("/games/<int:game_id>/receipt")
def receipt(game_id: int) -> str:
    """A finished game's receipt (another game's: every payer's), print-friendly, for
    whoever may read the game. Each sentence to share ends with its payer's own receipt,
    read-only (issue 38, point 7): never this page, which a player outside the league
    can't open, nor a link that could agree as the payer."""
    game = access.game(game_id)
    member = role_in(game.league) is not None
    back = url_for("table.game", game_id=game_id)
    return receipt_pages.render_receipt(
        game, lambda seat: _payer_receipt_url(game, seat), show_handle=member, back=back
    )


def _payer_receipt_url(game: Game, seat: int) -> str:
    token = seats.payer_receipt_token(game, seat)
    return url_for(".shared_receipt", token=token, _external=True)


# The player's side: the card their link opens ------------------------------------------


def _link_or_404(token: str) -> SeatLink:
    return access.seat(token)


def _private(page: str, status: int = 200) -> Response:
    """A page opened by a seat's link: never cached by anyone else, and its address (the
    token) never sent on to another site."""
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _receipt_url(link: SeatLink, token: str) -> str:
    """The address of the link's receipt: what is forwarded, since it opens nothing else."""
    return url_for(".shared_receipt", token=seats.receipt_token(link, token), _external=True)


@bp.get("/s/<token>")
def seat_page(token: str) -> Response:
    """The card as the scorekeeper sees it, live, on the player's own phone: of the link's
    game, or of the latest rematch that followed it the same evening (``?game=N``: the
    evening's Nth game, still readable)."""
    return _private(_render_seat(_link_or_404(token), token))


def _in_evening(link: SeatLink) -> tuple[SeatLink, dict[str, Any]]:
    """The link as it opens the evening's game asked for (``?game=N``; else the latest):
    itself for its own game; for a rematch, a link of the same seat to it that is kept
    nowhere (issue 38, point 4: one link for the evening, the same people in the same
    seats). With what its page says of the evening."""
    evening = seats.evening_of(link.game)
    asked = request.args.get("game", type=int)
    number = len(evening) if asked is None else asked
    if not 1 <= number <= len(evening):
        abort(404)
    game = evening[number - 1]
    shown = link
    if game is not link.game:
        shown = SeatLink(id=link.id, game_id=game.id, seat=link.seat)  # in no session
        shown.game, shown.created_by = game, link.created_by
    return shown, {
        "evening": len(evening),
        "evening_number": number,
        # The forms say which game they were filled on; the live view follows the latest.
        "at": {"game": number} if len(evening) > 1 else {},
        "live_at": {} if number == len(evening) else {"game": number},
    }


def _render_seat(link: SeatLink, token: str, handle_form: PaymentHandleForm | None = None) -> str:
    link, evening = _in_evening(link)
    if evening["evening_number"] == 1:
        receipt_url = _receipt_url(link, token)  # first: it may write, once, for an old link
    else:
        receipt_url = _payer_receipt_url(link.game, link.seat)
    game_handle = payment_handles.game_handle(link.game, link.seat)
    if handle_form is None:
        handle_form = PaymentHandleForm(formdata=None)
        if game_handle is not None:
            handle_form.kind.data = game_handle.kind.value
            handle_form.handle.data = game_handle.handle
    mine = {
        "seat": link.seat,
        "token": token,
        "receipt_url": receipt_url,
        "handle_form": handle_form,
        "game_handle": game_handle,
        "league_handle": handle_of(link.game.player(link.seat)),
        "changes_nothing": not link.maker_in_use,
        "can_score": False,
        "seat_history": _seat_history(link.game),
        **evening,
    }
    mine["recorders"] = seats.recorded_by_their_player(link.game, mine["seat_history"])
    if not link.game.is_mille:
        return _render_kind_seat(link, receipt_url, mine)
    shown = ShownCard.of(link.game)
    settlement = shown.settlement
    return render_template(
        "table/seat.html",
        **shown.context(),
        receipt=receipt_pages.bill_of(link.game, settlement, receipt_url) if settlement else None,
        **mine,
    )


#: The changes a seat's link does not read: they name accounts (who shared a link, who the
#: file says marked an imported game paid) or say where a player is paid.
_NOT_FOR_A_LINK = frozenset({AuditAction.HANDLE_CHANGED, AuditAction.GAME_IMPORTED})


def _seat_history(game: Game) -> list[AuditEvent]:
    """The game's changes, newest first, as its seats' links read them (issue 38, point 3):
    what changed, worded without who."""
    return [event for event in audit.history(game.id) if event.action not in _NOT_FOR_A_LINK]


def _render_kind_seat(link: SeatLink, receipt_url: str, mine: dict[str, Any]) -> str:
    """The seat page of a game of any kind but Mille: its card, and once it is over the
    receipts its player pays or is paid by."""
    context = kind_pages.card_context(link.game)
    shown = context["shown"]
    assert isinstance(shown, ShownSitting)
    receipts = []
    if shown.finished:
        receipts = [
            found
            for found in kind_receipts.receipts_of(
                link.game, shown, lambda _seat: receipt_url, show_handle=True
            )
            if found.concerns(link.seat)
        ]
    return render_template("table/kind_seat.html", **context, receipts=receipts, **mine)


@bp.get("/s/<token>/version")
def seat_version(token: str) -> Response:
    """What the card's page polls to stay live (static/live.js): its ETag, then 304 until
    the game changes or someone agrees. A link stopped meanwhile: 404, and the page says so."""
    link, version, agreements = seats.seat_version(token)
    access.check_link(link)
    assert link is not None
    evening = seats.evening_of(link.game)
    if len(evening) > 1:  # the page of a game the evening went on from, or of its latest
        asked = request.args.get("game", type=int) or len(evening)
        if not 1 <= asked <= len(evening):
            abort(404)
        game = evening[asked - 1]
        version, agreements = game.version, game.agreement_count
    tag = seats.etag(version, agreements)
    if tag in request.if_none_match:
        response = make_response("", 304)
    else:
        response = make_response({"version": version})
    response.set_etag(tag)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def _refused_change(link: SeatLink, token: str) -> Response | None:
    """A link whose maker is no longer in use changes nothing: its page again, saying so
    (403); None for a link that may change what it may."""
    if access.link_refusal(link, changing=True) is None:
        return None
    return _private(_render_seat(link, token), 403)


@bp.post("/s/<token>/agree")
def seat_agree(token: str) -> Response:
    """ "I agree with this card", from the player's own phone."""
    link = _link_or_404(token)
    if (refused := _refused_change(link, token)) is not None:
        return refused
    form = AgreeForm()
    if not form.validate_on_submit():
        abort(400)
    link, evening = _in_evening(link)
    name = link.game.player(link.seat).name
    _agree(link.game_id, link.seat, form.expected_version, by_link=True, name=name)
    return redirect(url_for(".seat_page", token=token, **evening["at"], _anchor="play"))


@bp.post("/s/<token>/payment")
def seat_payment(token: str) -> Response:
    """The player says how they are paid for this game, through their own seat's link (the
    league's handle is a league admin's: :mod:`.payment_handles`)."""
    link = _link_or_404(token)
    if (refused := _refused_change(link, token)) is not None:
        return refused
    form = PaymentHandleForm()
    if form.validate_on_submit():
        try:
            handle = read_handle(form.kind.data or "", form.handle.data or "")
        except ServiceError as error:
            (form.kind if error.field == "kind" else form.handle).errors = [error.message]
        else:
            payment_handles.set_game_handle(_in_evening(link)[0], handle, by=audit.actor_id())
            flash(
                gettext("Saved: this is how you are paid for this game.")
                if handle
                else gettext("Removed: this game's bill shows the league's handle, if any.")
            )
            at = _in_evening(link)[1]["at"]
            return redirect(url_for(".seat_page", token=token, **at, _anchor="how-paid"))
    return _private(_render_seat(link, token, form), 422)


@bp.get("/s/<token>/receipt")
def seat_receipt(token: str) -> Response:
    """The receipt of the link's game, at its own address (which opens nothing else), so
    that what is printed or passed on carries no power over the seat."""
    link = _link_or_404(token)
    if not link.game.finished:
        abort(404)  # no receipt before the end
    response = redirect(_receipt_url(link, token), 303)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/r/<token>")
def shared_receipt(token: str) -> Response:
    """A game's receipt, opened by its seat link's receipt token: print-friendly, to keep
    or forward. It reads the bill and changes nothing; it dies with its link."""
    link = access.receipt(token)
    here = url_for(".shared_receipt", token=token, _external=True)
    page = receipt_pages.render_receipt(
        link.game, lambda _seat: here, show_handle=True, back=None, by_link=True, seat=link.seat
    )
    return _private(page)
