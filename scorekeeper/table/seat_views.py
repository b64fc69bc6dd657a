"""The other side of the table, in pages: a seat's link with its QR code, the card it opens
on the opponent's phone, agreeing with the card, and the receipt.

The pages a link opens (``/s/<token>``) show that one game and nothing else: no league, no
other game, no history (it names accounts), no player but the game's two. Their token is a
capability: a wrong, stopped or expired one is a plain 404.
"""

from collections.abc import Callable
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
from scorekeeper.engine import Settlement
from scorekeeper.errors import Conflict, NotFound, ServiceError, StaleVersion
from scorekeeper.models import AuditAction, AuditEvent, Game, Role, SeatLink
from scorekeeper.records import payment_handles
from scorekeeper.records.payment_handles import handle_of, read_handle
from scorekeeper.table import access, audit, kind_pages, kind_receipts, seats
from scorekeeper.table import service as game_service
from scorekeeper.table.change_forms import AgreeForm, GameChangeForm
from scorekeeper.table.forms import PaymentHandleForm
from scorekeeper.table.shown_card import ShownCard
from scorekeeper.table.shown_sitting import ShownSitting
from scorekeeper.web.formatting import currency_of, long_day, money
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
    return _render_receipt(
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
    """The card as the scorekeeper sees it, live, on the player's own phone."""
    return _private(_render_seat(_link_or_404(token), token))


def _render_seat(link: SeatLink, token: str, handle_form: PaymentHandleForm | None = None) -> str:
    receipt_url = _receipt_url(link, token)  # first: it may write, once, for an old link
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
    }
    if not link.game.is_mille:
        return _render_kind_seat(link, receipt_url, mine)
    shown = ShownCard.of(link.game)
    settlement = shown.settlement
    return render_template(
        "table/seat.html",
        **shown.context(),
        receipt=_receipt(link.game, settlement, receipt_url) if settlement else None,
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
    name = link.game.player(link.seat).name
    _agree(link.game_id, link.seat, form.expected_version, by_link=True, name=name)
    return redirect(url_for(".seat_page", token=token, _anchor="play"))


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
            payment_handles.set_game_handle(link, handle, by=audit.actor_id())
            flash(
                gettext("Saved: this is how you are paid for this game.")
                if handle
                else gettext("Removed: this game's bill shows the league's handle, if any.")
            )
            return redirect(url_for(".seat_page", token=token, _anchor="how-paid"))
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
    page = _render_receipt(
        link.game, lambda _seat: here, show_handle=True, back=None, by_link=True, seat=link.seat
    )
    return _private(page)


# The receipt -------------------------------------------------------------------------------


def _render_receipt(
    game: Game,
    link: Callable[[int], str],
    *,
    show_handle: bool,
    back: str | None,
    by_link: bool = False,
    seat: int | None = None,
) -> str:
    """The printable receipt. ``link(payer)``: the address the payer's sentence ends with;
    ``back``: the card it leads back to (None: the receipt's own address, which has no
    card to go back to); ``by_link``: opened by a link, not a member; ``seat``: the seat
    whose receipt it is (another game's shows the receipts its player pays or is paid by),
    None for every payer's."""
    if not game.is_mille:
        return _render_kind_receipt(
            game, link, show_handle=show_handle, back=back, by_link=by_link, seat=seat
        )
    card, settlement = game_service.card_of(game)
    if settlement is None:
        abort(404)  # no receipt before the end
    return render_template(
        "table/receipt.html",
        game=game,
        card=card,
        settlement=settlement,
        agreements=seats.agreements(game),
        receipt=_receipt(game, settlement, link(settlement.payer), show_handle=show_handle),
        back=back,
        by_link=by_link,
    )


def _render_kind_receipt(
    game: Game,
    link: Callable[[int], str],
    *,
    show_handle: bool,
    back: str | None,
    by_link: bool,
    seat: int | None = None,
) -> str:
    """The printable receipt of a game of any kind but Mille: each payer's bill, or
    (``seat``, a seat's link) those its player pays or is paid by."""
    context = kind_pages.card_context(game)
    shown = context["shown"]
    assert isinstance(shown, ShownSitting)
    if not shown.finished:
        abort(404)  # no receipt before the end
    receipts = kind_receipts.receipts_of(game, shown, link, show_handle=show_handle)
    if seat is not None:
        receipts = [found for found in receipts if found.concerns(seat)]
    return render_template(
        "table/kind_receipt.html",
        **context,
        receipts=receipts,
        back=back,
        by_link=by_link,
        seat=seat,
    )


def _receipt(
    game: Game, settlement: Settlement, link: str, *, show_handle: bool = True
) -> dict[str, Any]:
    """What a receipt shows besides the settlement: the sentence to share, the day, and
    where the payee is paid on this game's bill (for the league's members and the game's
    links only)."""
    payer, payee = game.player(settlement.payer), game.player(settlement.payee)
    when = game.finished_at or game.played_at
    handle = payment_handles.bill_handle(game, settlement.payee) if show_handle else None
    return {
        "day": long_day(when),
        "text": share_text(game, settlement, link),
        "handle": handle,
        "paypal": (
            handle.paypal_link(settlement.total, currency_of(game.league)) if handle else None
        ),
        "payer": payer.name,
        "payee": payee.name,
    }


def share_text(game: Game, settlement: Settlement, link: str) -> str:
    """ "Ben owes Ana $38.00 for the game of 24 November 2026: game $3.00, difference $7.00
    … The receipt: <link>", in the page's language, every amount exact; ``link`` opens the
    payer's receipt only, read-only, whoever shares it (issue 38, point 7)."""
    names = {
        "game": gettext("game"),
        "difference": gettext("difference"),
        "naturals": gettext("naturals"),
        "chapeaux": gettext("chapeaux"),
        "skunk": gettext("skunk"),
    }
    parts = [
        gettext("%(what)s %(amount)s", what=names[line.kind], amount=money(line.amount))
        for line in settlement.lines
    ]
    if settlement.multiplier == 2:
        parts.append(gettext("doubled for the skunk"))
    elif settlement.multiplier == 3:
        parts.append(gettext("tripled for the skunk"))
    facts = {
        "payer": game.player(settlement.payer).name,
        "payee": game.player(settlement.payee).name,
        "amount": money(settlement.total),
        "day": long_day(game.finished_at or game.played_at),
        "lines": ", ".join(parts),
    }
    if game.paid_at:
        bill = gettext(
            "%(payer)s paid %(payee)s %(amount)s for the game of %(day)s: %(lines)s.", **facts
        )
    else:
        bill = gettext(
            "%(payer)s owes %(payee)s %(amount)s for the game of %(day)s: %(lines)s.", **facts
        )
    where = gettext("The receipt: %(link)s", link=link)
    return f"{bill} {where}"
