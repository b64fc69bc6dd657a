"""The table: a game's page, record and fix deals, the score card and settlement (starting a
game is :mod:`.new_game_views`).

Every game has the same addresses. A game of Mille is drawn here, with its own deal form;
a game of any other kind by :mod:`.kind_pages`, chosen by the game's kind once it is
loaded (a deal sent without Mille's fields is the one request that asks for the kind
first)."""

from collections.abc import Callable

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
from sqlalchemy import select
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import may, role_in
from scorekeeper.errors import Conflict, NotFound, StaleVersion
from scorekeeper.models import MILLE, Game, League, Role, db
from scorekeeper.table import access, audit, closing, kind_pages, kind_service, seats, starting
from scorekeeper.table import service as game_service
from scorekeeper.table.change_forms import DealForm, GameChangeForm, RematchForm
from scorekeeper.table.shown_card import ShownCard
from scorekeeper.web.formatting import number as points
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

bp = Blueprint("table", __name__)

CARDS_DROPPED = _l(
    "The scores were changed after counting, so the counted cards were not kept with the deal."
)


def _game_or_404(game_id: int, role: Role | None = access.READ) -> Game:
    """The game, for an asker with ``role`` in its league (:func:`.access.game`)."""
    return access.game(game_id, role)


def _play(game_id: int) -> str:
    """The game page opened at its totals and deal form: after a change, the next deal
    is on screen without scrolling (the anchor works without a script too)."""
    return url_for(".game", game_id=game_id, _anchor="play")


def _render_game(
    game: Game,
    form: DealForm | None = None,
    status: int = 200,
    stale: audit.StaleSave | None = None,
    saved: game_service.Saved | None = None,
    ask_paid: tuple[list[str], str] | None = None,
    refusal: str | None = None,
) -> tuple[str, int]:
    """The game page; its score card and settlement from ``saved`` (the replay of the change
    just made) when given, else replayed from the deals. ``ask_paid``: Mark paid was tapped
    while these players had not agreed with the card; the page asks first (with the version
    the tap was made on). ``refusal``: the code of why the deal sent was not saved."""
    shown = ShownCard.of(game, saved)
    can_score = may(game.league, Role.SCOREKEEPER)
    member = role_in(game.league) is not None
    page = render_template(
        "table/game.html",
        **shown.context(),
        form=_next_deal_form(game, form, can_score),
        stale=stale,
        can_score=can_score,
        rematch=RematchForm(formdata=None)
        if can_score and shown.card.finished and not game.abandoned
        else None,
        can_admin=may(game.league, Role.ADMIN),
        history=audit.history(game.id) if member else None,
        abandoned_by=closing.abandoner(game),
        shared=seats.shared_seats(game) if can_score and not game.abandoned else None,
        ask_paid=ask_paid,
        refusal=refusal,
        recorders=seats.own_seats(game) if can_score else frozenset(),
    )
    return page, status


def _next_deal_form(game: Game, form: DealForm | None, can_score: bool) -> DealForm | None:
    """The deal form the game page shows: ``form`` as typed, else an empty one for a
    scorekeeper while the game takes deals; named for the seats, at the game's version."""
    if form is None and can_score and game.takes_deals:
        form = DealForm(formdata=None)
    if form is not None:
        form.name_seats((game.player0.name, game.player1.name))
        form.version.data = str(game.version)
    return form


def _page(game: Game, status: int = 200) -> tuple[str, int]:
    """The game page of any game, as it stands."""
    if game.is_mille:
        return _render_game(game, None, status)
    return kind_pages.render(game, status=status)


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> tuple[str, int]:
    """The score card: totals, circles, stars, progress, next dealer, settlement (of any game:
    each deal, what it paid, the balances, the pool)."""
    return _page(_game_or_404(game_id))


@bp.get("/games/<int:game_id>/version")
def game_version(game_id: int) -> Response:
    """The game's version, as an ETag: what an open game page polls to stay live (live.js).

    The cheap path of a league night (50 phones, each asking every 2 s): one SELECT by
    primary key with the league joined for the same read check as the game page, then
    ``304 Not Modified`` while the page is up to date. Nothing else is loaded or rendered.
    """
    found = db.session.execute(
        select(Game.version, Game.agreement_count, League).join(League).where(Game.id == game_id)
    ).one_or_none()
    version, agreements, league = found if found is not None else (0, 0, None)
    access.check(league)  # None: no such game
    etag = seats.etag(version, agreements)  # an agreement given shows too
    if etag in request.if_none_match:
        response = make_response("", 304)
    else:
        response = make_response({"version": version})
    response.set_etag(etag)
    # Always asked again, never answered from a cache without the server's word.
    response.headers["Cache-Control"] = "no-cache, private"
    return response


@bp.post("/games/<int:game_id>/deals")
def record_deal(game_id: int) -> tuple[str, int] | Response:
    """Record the next deal, then show the card again (Post/Redirect/Get).

    The game is loaded once, by the service that locks it (and asks here who may record
    in its league), and the page answering a script is built from what the service wrote
    and replayed (``Saved``). A form that isn't saved is shown on the game page, loaded
    for it after the same check. A form without Mille's scores is another game's.
    """
    if "score0" not in request.form and access.league_and_kind_of(game_id)[1] != MILLE:
        return kind_pages.record_deal(game_id)
    form = DealForm()
    if "discard" in request.form or not form.validate_on_submit():
        game = _game_or_404(game_id, Role.SCOREKEEPER)
        if "discard" in request.form:  # the answer to a deal refused as out of date
            flash(gettext("Your deal was not recorded."))
            return redirect(_play(game_id))
        return _refused(game, form, "confirm" if form.warnings else "invalid")
    assert form.tally is not None
    try:
        saved = game_service.record_deal(
            game_id,
            form.tally,
            version=form.expected_version,
            token=form.token.data,
            cards=form.counted,
            allowed=access.allows(Role.SCOREKEEPER),
        )
    except NotFound:
        abort(404)
    except StaleVersion:
        game = _game_or_404(game_id, Role.SCOREKEEPER)
        # What changed is said, and what was typed stays in the form, to be saved against
        # the card as it is now only by a choice that names it (never as a plain Save).
        stale = audit.stale_save(game, form.expected_version, form.tally)
        return _refused(game, form if game.takes_deals else None, "stale", stale)
    except Conflict as conflict:
        flash(conflict.message, "error")
        game = _game_or_404(game_id, Role.SCOREKEEPER)
        return _refused(game, form if game.takes_deals else None, "conflict")
    return _answer_saved(saved, form)


def _answer_saved(saved: game_service.Saved, form: DealForm) -> Response:
    """Says the deal is saved (or was already) and shows the card with the next deal's form."""
    if saved.recorded:
        flash(gettext("Deal %(number)s saved.", number=saved.game.deal_count))
        if form.cards_dropped:
            flash(str(CARDS_DROPPED))
    else:
        flash(gettext("That deal was already saved; it was not recorded twice."))
    if request.headers.get("X-Requested-With") == "fetch":
        # The page's script asked (static/app.js): the game page the redirect would lead
        # to, in this one answer — a phone on a weak signal waits once, not twice. The
        # script takes the address it leads to only from an answer that says it is saved
        # (a question is a 200 too, and stays at the address it was asked from).
        page, status = _render_game(saved.game, saved=saved)
        answer = make_response(page, status)
        answer.headers["X-Deal-Saved"] = "1"
        return answer
    return redirect(_play(saved.game.id))


#: Why a deal was not saved, as the game page answering it says to a script (its
#: ``X-Refusal`` header and ``data-refusal``): the words are the page's own, marked
#: ``data-reason``; the status stays what it was.
REFUSALS = {"invalid": 422, "confirm": 200, "stale": 409, "conflict": 409}


def _refused(
    game: Game, form: DealForm | None, refusal: str, stale: audit.StaleSave | None = None
) -> Response:
    """The game page answering a deal it did not save, saying why in a code a script reads
    (static/offline.js), not in the classes of its HTML."""
    page, _status = _render_game(game, form, REFUSALS[refusal], stale, refusal=refusal)
    answer = make_response(page, REFUSALS[refusal])
    answer.headers["X-Refusal"] = refusal
    return answer


@bp.route("/games/<int:game_id>/deals/<int:number>", methods=["GET", "POST"])
def edit_deal(game_id: int, number: int) -> tuple[str, int] | Response:
    """Correct any deal, not only the last; everything after it is recomputed."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    if not 1 <= number <= game.deal_count:
        abort(404)
    if not game.is_mille:
        return kind_pages.edit_deal(game, number)
    if game.locked:  # settled: the page says so and offers no form to fill in in vain
        return _render_fix(game, number, None, 200 if request.method == "GET" else 409)
    form = DealForm()
    form.name_seats((game.player0.name, game.player1.name))
    form.accepted = game.deals[number - 1].tally
    if request.method == "GET":
        form.fill(game.deals[number - 1].tally, game.deals[number - 1].counted)
        form.version.data = str(game.version)
        return _render_fix(game, number, form)
    if not form.validate_on_submit():
        return _render_fix(game, number, form, 200 if form.warnings else 422)
    assert form.tally is not None
    try:
        game_service.edit_deal(
            game_id, number, form.tally, version=form.expected_version, cards=form.counted
        )
    except Conflict as conflict:
        return _refused_fix(game_id, number, form, conflict)
    flash(gettext("Deal %(number)s corrected; every total after it is recomputed.", number=number))
    if form.cards_dropped:
        flash(str(CARDS_DROPPED))
    # The game page's own address, not #play: the correction is seen on the card, and the
    # address is one to keep.
    return redirect(url_for(".game", game_id=game_id))


def _render_fix(
    game: Game,
    number: int,
    form: DealForm | None,
    status: int = 200,
    stale: audit.StaleSave | None = None,
) -> tuple[str, int]:
    """The Fix page of deal ``number`` (without a form: the game is locked)."""
    page = render_template("table/edit_deal.html", game=game, number=number, form=form, stale=stale)
    return page, status


def _refused_fix(game_id: int, number: int, form: DealForm, conflict: Conflict) -> tuple[str, int]:
    """A refused correction stays on its own page with what was typed, against the card as
    it is now (saying what changed since, when that is why); the card, if the deal is gone."""
    game = access.game(game_id)
    if not 1 <= number <= game.deal_count:
        flash(conflict.message, "error")
        return _render_game(game, None, 409)
    stale = None
    if isinstance(conflict, StaleVersion):
        stale = audit.stale_save(game, form.expected_version)
    else:
        flash(conflict.message, "error")
    form.version.data = str(game.version)
    return _render_fix(game, number, form, 409, stale)


@bp.post("/games/<int:game_id>/deals/<int:number>/delete")
def delete_deal(game_id: int, number: int) -> tuple[str, int] | Response:
    """Remove a deal; later deals move up one number."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    service = game_service if game.is_mille else kind_service
    return _change(
        game,
        lambda version: service.delete_deal(game_id, number, version=version),
        _l("Deal %(number)s deleted; the later deals moved up.", number=number),
    )


@bp.post("/games/<int:game_id>/undo")
def undo(game_id: int) -> tuple[str, int] | Response:
    """Take back the last deal with one tap, saying which it was (one tap can't be undone)."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    if not game.is_mille:
        last = len(game.deals)
        return _change(
            game,
            lambda version: kind_service.delete_deal(game_id, last, version=version),
            kind_pages.undone(game),
        )
    done = _l("The last deal was taken back.")
    if game.deals:
        facts = {
            "number": len(game.deals),
            "scores": " / ".join(points(score) for score in game.deals[-1].tally.scores),
        }
        done = (
            # The deal that ended the game: without it, the game is in progress again.
            _l(
                "Deal %(number)s (%(scores)s) was taken back: the game is in progress again.",
                **facts,
            )
            if game.finished
            else _l("Deal %(number)s (%(scores)s) was taken back.", **facts)
        )
    return _change(
        game, lambda version: game_service.undo_last_deal(game_id, version=version), done
    )


@bp.post("/games/<int:game_id>/paid")
def mark_paid(game_id: int) -> tuple[str, int] | Response:
    """The loser has paid: settle and lock the game. From the page, a player who has not
    agreed with the card is asked about first (it needs no agreement: "anyway" goes on),
    never the scorekeeper's own player: marking it paid is their agreement."""
    game = _game_or_404(game_id, Role.SCOREKEEPER)
    # The page's button asks for the question (a script, or a page from before agreements
    # existed, marks it paid as it always did).
    asked = request.form.get("ask") == "agreements" and "anyway" not in request.form
    if asked and game.finished and not game.locked:
        own = seats.own_seats(game)  # the scorekeeper's own player agrees by marking it
        missing = [seat for seat in seats.missing_agreements(game) if seat not in own]
        form = GameChangeForm()
        if missing and form.validate_on_submit():
            names = [game.player(seat).name for seat in missing]
            ask_paid = (names, form.version.data or "")
            if not game.is_mille:
                return kind_pages.render(game, ask_paid=ask_paid)
            return _render_game(game, ask_paid=ask_paid)
    return _change(
        game,
        lambda version: closing.mark_paid(game_id, version=version),
        _l("Marked paid. The game is settled and locked."),
    )


@bp.post("/games/<int:game_id>/unlock")
def unlock(game_id: int) -> tuple[str, int] | Response:
    """A league admin unlocks a settled game so it can be corrected."""
    return _change(
        _game_or_404(game_id, Role.ADMIN),
        lambda version: closing.unlock(game_id, version=version),
        _l("Unlocked. The payment is unpaid again until it is marked once more."),
    )


@bp.post("/games/<int:game_id>/abandon")
def abandon(game_id: int) -> tuple[str, int] | Response:
    """A scorekeeper abandons a game (the page asked first): it counts like no game."""
    return _change(
        _game_or_404(game_id, Role.SCOREKEEPER),
        lambda version: closing.abandon(game_id, version=version),
        _l("Game abandoned. It no longer counts anywhere; a league admin can restore it."),
    )


@bp.post("/games/<int:game_id>/restore")
def restore(game_id: int) -> tuple[str, int] | Response:
    """A league admin restores an abandoned game: it counts again, everywhere."""
    return _change(
        _game_or_404(game_id, Role.ADMIN),
        lambda version: closing.restore(game_id, version=version),
        _l("Game restored. It counts again."),
    )


def _change(
    game: Game, change: Callable[[int | None], object], done: object
) -> tuple[str, int] | Response:
    """Run a one-button change to ``game`` (loaded for a user allowed to make it) against
    the version the page showed, and say how it went."""
    game_id = game.id  # read now: the change's transaction expires the object
    form = GameChangeForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        change(form.expected_version)
    except NotFound:
        abort(404)
    except Conflict as conflict:
        flash(conflict.message, "error")
        return _page(access.game(game_id), 409)
    flash(str(done))  # a lazy message, worded now: the session keeps plain text
    return redirect(_play(game_id))


@bp.post("/games/<int:game_id>/rematch")
def rematch(game_id: int) -> tuple[str, int] | Response:
    """After a finished game, the same players, rules and stakes again: one tap, straight
    to the new game's first deal."""
    _game_or_404(game_id, Role.SCOREKEEPER)
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        started, new = starting.rematch(game_id, token=form.token.data or None)
    except Conflict as conflict:
        flash(conflict.message, "error")
        return _page(access.game(game_id), 409)
    if new:
        dealer = started.player(started.first_dealer).name
        flash(
            gettext(
                "Rematch: %(first)s and %(second)s again. %(dealer)s deals first.",
                first=started.player0.name,
                second=started.player1.name,
                dealer=dealer,
            )
            if started.is_mille
            else gettext(
                "Rematch: the same players in the same seats. %(dealer)s deals first.",
                dealer=dealer,
            )
        )
    return redirect(_play(started.id))


@bp.post("/games/<int:game_id>/finish")
def finish(game_id: int) -> tuple[str, int] | Response:
    """End a sitting (the page asked first): what is in the pool goes back, and the fewest
    payments settle it. A game that ends by its own rule can't be ended by hand."""
    return _change(
        _game_or_404(game_id, Role.SCOREKEEPER),
        lambda version: kind_service.finish(game_id, version=version),
        _l("The sitting is over: here is who pays whom. It can go on again until it is paid."),
    )


@bp.post("/games/<int:game_id>/resume")
def resume(game_id: int) -> tuple[str, int] | Response:
    """Take back the end of a sitting (refused once paid): it goes on."""
    return _change(
        _game_or_404(game_id, Role.SCOREKEEPER),
        lambda version: kind_service.resume(game_id, version=version),
        _l("The sitting goes on: record the next deal."),
    )
