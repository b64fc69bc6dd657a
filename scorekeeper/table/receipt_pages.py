"""A finished game's bill, as its receipts show it: Mille's one payer, or each payer of
another game (:mod:`.kind_receipts`), with where the payee is paid and the sentence to
share, which ends with the payer's own receipt, read-only (issue 38, point 7). The
routes that show them are :mod:`.seat_views`'."""

from collections.abc import Callable
from typing import Any

from flask import abort, render_template

from scorekeeper.engine import Settlement
from scorekeeper.models import Game
from scorekeeper.records import payment_handles
from scorekeeper.table import kind_pages, kind_receipts, seats
from scorekeeper.table import service as game_service
from scorekeeper.table.shown_sitting import ShownSitting
from scorekeeper.web.formatting import currency_of, long_day, money
from scorekeeper.web.translation import gettext


def render_receipt(
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
        receipt=bill_of(game, settlement, link(settlement.payer), show_handle=show_handle),
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


def bill_of(
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
