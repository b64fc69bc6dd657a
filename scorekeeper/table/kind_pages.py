"""The page of a game of any kind but Mille, and what its deal form sends: record a deal,
correct one. The routes are :mod:`.views`' (the same addresses as Mille's, chosen by the
game's kind); this module names no game: the game's deal form comes from
:mod:`.deal_forms` and its template partial draws its fields and its deals.

As Mille's page does: a refused deal is shown beside its fields on the page loaded for it
and nothing is saved; an unusual one asks first; a deal made on a card that changed since
says what changed and keeps what was typed; a script's save is answered with the page.
"""

from typing import Final

from flask import flash, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import may, role_in
from scorekeeper.engine.games import Sitting
from scorekeeper.errors import Conflict, NotFound, StaleVersion
from scorekeeper.models import AuditAction, AuditEvent, Game, Role
from scorekeeper.table import access, audit, closing, kept_deals, kind_service, seats
from scorekeeper.table.change_forms import RematchForm
from scorekeeper.table.deal_forms import KindDealForm, form_of, partial_of
from scorekeeper.table.kind_card import Card, card_of
from scorekeeper.table.shown_sitting import CARD_SHOWN, ShownSitting
from scorekeeper.web.translation import gettext

#: Why a deal was not saved, as the page answering it says to a script (``X-Refusal``, as
#: Mille's page says it), and the status it is answered with.
REFUSALS: Final = {"invalid": 422, "confirm": 200, "stale": 409, "conflict": 409}
#: The changes the page lists in its history, newest first, unless it is asked for all
#: (``?history=all``): a sitting of 200 deals has 200 "Deal N recorded.", and its card
#: says each deal already.
HISTORY_SHOWN: Final = 15


def deal_form(game: Game, sitting: Sitting | None = None, formdata: object = None) -> KindDealForm:
    """The game's deal form for its table (its players, its sides), read from
    ``formdata`` (a request's form) or empty."""
    setup = kind_service.setup_of(game)
    if sitting is None:  # the sides of a table are its kind's: a replay of no deal says them
        sitting = kind_service.kind_of(game).replay(setup, game.first_dealer, (), ended=False)
    names = [player.name for player in game.seated]
    return form_of(game.kind).of(setup, names, sitting.sides, formdata=formdata)


def render(
    game: Game,
    *,
    form: KindDealForm | None = None,
    status: int = 200,
    sitting: Sitting | None = None,
    stale: audit.StaleSave | None = None,
    refusal: str | None = None,
    ask_paid: tuple[list[str], str] | None = None,
) -> tuple[str, int]:
    """The game page; its card from ``sitting`` (the replay of the change just made) when
    given, else replayed from the deals. ``form``: the deal as typed and not saved.
    ``ask_paid``: Mark paid was tapped while these players had not agreed with the card
    (with the version the tap was made on): the page asks first."""
    every_deal = request.args.get("deals") == "all"
    card = _card(game, sitting, every_deal)
    can_score = may(game.league, Role.SCOREKEEPER)
    if form is None and can_score and game.takes_deals:
        form = deal_form(game, card.sitting)
    if form is not None:
        form.version.data = str(game.version)
    page = render_template(
        "table/kind_game.html",
        game=game,
        shown=ShownSitting.of(game, card, every_deal=every_deal),
        partial=partial_of(game.kind),
        ends_itself=kind_service.kind_of(game).ends_itself,
        form=form,
        fresh=form is not None and not (form.errors or form.warnings or stale or refusal),
        stale=stale,
        refusal=refusal,
        can_score=can_score,
        can_admin=may(game.league, Role.ADMIN),
        rematch=RematchForm(formdata=None)
        if can_score and card.sitting.finished and not game.abandoned
        else None,
        ask_paid=ask_paid,
        **_beside_the_card(game, can_score),
    )
    return page, status


def _beside_the_card(game: Game, can_score: bool) -> dict[str, object]:
    """What the game page shows beside the card: its history, who abandoned it, and of the
    players' phones the agreements, the seats shared (for a scorekeeper) and the ETag that
    changes with either."""
    return {
        "history": _history(game),
        "history_shown": HISTORY_SHOWN,
        "abandoned_by": closing.abandoner(game),
        "etag": seats.etag(game.version, game.agreement_count),
        "agreements": seats.agreements(game),
        "shared": seats.shared_seats(game) if can_score and not game.abandoned else None,
        "recorders": seats.own_seats(game) if can_score else frozenset(),
    }


def card_context(game: Game) -> dict[str, object]:
    """What a page of the game's card draws besides the scorekeeper's controls (a seat's
    link, a receipt): the card as it stands (every deal when asked for), the agreements
    and the ETag the live view compares with."""
    every_deal = request.args.get("deals") == "all"
    return {
        "game": game,
        "shown": ShownSitting.of(game, _card(game, None, every_deal), every_deal=every_deal),
        "partial": partial_of(game.kind),
        "ends_itself": kind_service.kind_of(game).ends_itself,
        "agreements": seats.agreements(game),
        "etag": seats.etag(game.version, game.agreement_count),
    }


def _card(game: Game, sitting: Sitting | None, every_deal: bool) -> Card:
    """The card from the change's replay, else read: its newest deals, or every one (a
    finished game's settlement says how every deal made each balance)."""
    if sitting is not None:
        return Card.newest_of(sitting, None)
    return card_of(game, None if every_deal or game.finished else CARD_SHOWN)


def _history(game: Game) -> list[AuditEvent] | None:
    """The changes the page lists (one more than it shows, so it knows there are more);
    None for someone outside the league."""
    if role_in(game.league) is None:
        return None
    everything = request.args.get("history") == "all"
    return audit.history(game.id, latest=None if everything else HISTORY_SHOWN + 1)


def _play(game_id: int) -> str:
    return url_for("table.game", game_id=game_id, _anchor="play")


def record_deal(game_id: int) -> tuple[str, int] | Response:
    """The deal form sent: saved (then the card, with the next deal's form), or shown again
    with why it wasn't. A deal kept on a phone offline comes as the API's JSON instead."""
    if request.is_json:
        return kept_deals.record(game_id)
    game = access.game(game_id, Role.SCOREKEEPER)
    form = deal_form(game, formdata=request.form)
    if "discard" in request.form:  # the answer to a deal refused as out of date
        flash(gettext("Your deal was not recorded."))
        return redirect(_play(game_id))
    if not form.validate_on_submit():
        return _refused(game, form, "confirm" if form.warnings else "invalid")
    assert form.read is not None
    try:
        played = kind_service.record(
            game_id,
            form.read,
            version=form.expected_version,
            token=form.token.data,
            allowed=access.allows(Role.SCOREKEEPER),
        )
    except StaleVersion:
        game = access.game(game_id, Role.SCOREKEEPER)
        return _refused(game, form if game.takes_deals else None, "stale", _stale(game, form))
    except Conflict as conflict:
        flash(conflict.message, "error")
        game = access.game(game_id, Role.SCOREKEEPER)
        return _refused(game, form if game.takes_deals else None, "conflict")
    return _answer_saved(played)


def _answer_saved(played: kind_service.Played) -> Response:
    """Says the deal is saved (or was already) and shows the card with the next deal's form:
    in this one answer to the page's script (static/save.js), else by a redirect."""
    if played.recorded:
        flash(gettext("Deal %(number)s saved.", number=played.game.deal_count))
    else:
        flash(gettext("That deal was already saved; it was not recorded twice."))
    if request.headers.get("X-Requested-With") == "fetch":
        page, status = render(played.game, sitting=played.sitting)
        answer = make_response(page, status)
        answer.headers["X-Deal-Saved"] = "1"
        return answer
    return redirect(_play(played.game.id))


def _refused(
    game: Game, form: KindDealForm | None, refusal: str, stale: audit.StaleSave | None = None
) -> Response:
    page, status = render(game, form=form, status=REFUSALS[refusal], stale=stale, refusal=refusal)
    answer = make_response(page, status)
    answer.headers["X-Refusal"] = refusal
    return answer


def _stale(game: Game, form: KindDealForm | None) -> audit.StaleSave:
    """What changed since the page the deal was typed on, and which deal recorded since then
    (still on the card as it was recorded) is the very deal typed: a duplicate."""
    stale = audit.stale_save(game, form.expected_version if form else None)
    typed = form.read if form is not None else None
    duplicate = None
    for event in stale.changes:
        if typed is None or event.action != AuditAction.DEAL_RECORDED:
            continue
        number = int(event.params.get("number") or 0)
        if 1 <= number <= len(game.deals) and game.deals[number - 1].entry == dict(typed):
            duplicate = number
    return audit.StaleSave(stale.changes, None, duplicate)


# Correcting a deal ------------------------------------------------------------------------


def edit_deal(game: Game, number: int) -> tuple[str, int] | Response:
    """The Fix page of deal ``number``: its form filled in, then the correction saved (every
    later deal, balance and the end recomputed) or shown again with why it wasn't."""
    if game.locked:  # settled: the page says so and offers no form to fill in in vain
        return _render_fix(game, number, None, 200 if request.method == "GET" else 409)
    recorded = game.deals[number - 1].entry or {}
    if request.method == "GET":
        form = deal_form(game)
        form.fill(recorded)
        form.version.data = str(game.version)
        return _render_fix(game, number, form)
    form = deal_form(game, formdata=request.form)
    form.accepted = recorded
    if not form.validate_on_submit():
        return _render_fix(game, number, form, 200 if form.warnings else 422)
    assert form.read is not None
    try:
        kind_service.edit(game.id, number, form.read, version=form.expected_version)
    except (Conflict, NotFound) as conflict:
        return _refused_fix(game.id, number, form, conflict)
    flash(gettext("Deal %(number)s corrected; every total after it is recomputed.", number=number))
    return redirect(url_for("table.game", game_id=game.id))


def _render_fix(
    game: Game,
    number: int,
    form: KindDealForm | None,
    status: int = 200,
    stale: audit.StaleSave | None = None,
) -> tuple[str, int]:
    page = render_template(
        "table/kind_edit_deal.html",
        game=game,
        number=number,
        form=form,
        stale=stale,
        partial=partial_of(game.kind),
        names=[player.name for player in game.seated],
    )
    return page, status


def _refused_fix(
    game_id: int, number: int, form: KindDealForm, conflict: Conflict | NotFound
) -> tuple[str, int]:
    """A refused correction stays on its page with what was typed, against the card as it is
    now (saying what changed since, when that is why); the card, if the deal is gone."""
    game = access.game(game_id, Role.SCOREKEEPER)
    if not 1 <= number <= game.deal_count:
        flash(conflict.message, "error")
        return render(game, status=409)
    stale = None
    if isinstance(conflict, StaleVersion):
        stale = audit.stale_save(game, form.expected_version)
    else:
        flash(conflict.message, "error")
    form.version.data = str(game.version)
    return _render_fix(game, number, form, 409, stale)


def undone(game: Game) -> str:
    """What taking back the last deal says it did."""
    number = len(game.deals)
    if game.finished and kind_service.kind_of(game).ends_itself:
        return gettext(
            "Deal %(number)s was taken back: the game is in progress again.", number=number
        )
    return gettext("Deal %(number)s was taken back.", number=number)
