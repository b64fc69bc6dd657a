"""A league's money: who owes whom, what two players owe each other and marking it paid,
the payments marked, and settling up a night in the fewest payments (issue 37)."""

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import league_or_404, may
from scorekeeper.errors import ServiceError
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import queries
from scorekeeper.league import service as league_service
from scorekeeper.league import settle_up as nights
from scorekeeper.league.arguments import id_arg, pair_of
from scorekeeper.league.forms import SettleForm, SettleNightForm, TickForm
from scorekeeper.models import Game, League, Player, Role
from scorekeeper.records.payment_handles import handle_of
from scorekeeper.web.formatting import currency_of
from scorekeeper.web.translation import gettext, ngettext

bp = Blueprint("money", __name__)


@bp.get("/leagues/<slug>/owes")
def owes(slug: str) -> str:
    """Who owes whom: unpaid settlements netted per pair, and the latest payments."""
    league = league_or_404(slug)
    return render_template(
        "league/owes.html",
        league=league,
        balances=balance_queries.balances(league.id),
        debts=balance_queries.other_games_debts(league.id),
        payments=balance_queries.payments(league.id, limit=10),
        can_score=may(league, Role.SCOREKEEPER),
    )


@bp.get("/leagues/<slug>/owes/<int:first_id>/<int:second_id>")
def balance(slug: str, first_id: int, second_id: int) -> str:
    """What two players owe each other, the unpaid games behind it, and marking them paid."""
    league = league_or_404(slug)
    return _render_balance(league, *pair_of(league, first_id, second_id))


def _render_balance(league: League, first: Player, second: Player) -> str:
    owed = balance_queries.balance_between(first, second)
    page = queries.archive(
        league.id,
        queries.GameFilters(player=first.id, opponent=second.id, status="unpaid"),
        after=id_arg("after"),
        before=id_arg("before"),
    )
    form = None
    if owed is not None and page.games and page.newer is None:  # the first page: all of them
        net = owed.amount if owed.creditor.id == first.id else -owed.amount
        data = {"through": page.games[0].id, "count": owed.games, "net": net}
        form = SettleForm(formdata=None, data=data)
    return render_template(
        "league/balance.html",
        league=league,
        first=first,
        second=second,
        owed=owed,
        page=page,
        form=form,
        can_score=may(league, Role.SCOREKEEPER),
    )


@bp.post("/leagues/<slug>/owes/<int:first_id>/<int:second_id>")
def settle_up(slug: str, first_id: int, second_id: int) -> str | Response | tuple[str, int]:
    """Mark the unpaid games between two players paid, all together, as the page showed them."""
    league = league_or_404(slug, Role.SCOREKEEPER)
    first, second = pair_of(league, first_id, second_id)
    form = SettleForm()
    if not form.validate_on_submit():
        abort(400)
    unpaid = balance_queries.unpaid_between(
        league.id, first.id, second.id, through=form.through.data
    )
    if (len(unpaid), balance_queries.owed_to(first.id, unpaid)) != (form.count.data, form.net.data):
        flash(gettext("These games changed since the page was loaded; here they are now."), "error")
        return _render_balance(league, first, second), 409
    try:
        league_service.mark_games_paid(league.id, {game.id: game.version for game in unpaid})
    except ServiceError as error:
        flash(error.message, "error")
        return _render_balance(league, first, second), 409
    flash(ngettext("Marked %(num)s game paid.", "Marked %(num)s games paid.", len(unpaid)))
    return redirect(url_for(".owes", slug=slug))


@bp.get("/leagues/<slug>/payments")
def payments(slug: str) -> str:
    """Every payment marked, latest first."""
    league = league_or_404(slug)
    page = balance_queries.payments(league.id, after=id_arg("after"))
    return render_template("league/payments.html", league=league, page=page)


# Settling up a night -------------------------------------------------------------------


def _chosen_ids() -> list[int] | None:
    """The games ticked on the page (``games``, repeated), or None when none is named."""
    if "games" not in request.values:
        return None
    return [int(value) for value in request.values.getlist("games") if value.isdigit()]


def _night_games(league: League, ids: list[int] | None) -> list[Game]:
    """The games of the night asked for, or tonight's; those that are no longer unpaid
    finished games of the league are left out, and said so."""
    if ids is None:
        return nights.unpaid_games(league, since=nights.night_began(league.time_zone))
    unpaid = {game.id: game for game in nights.unpaid_games(league, ids=ids)}
    gone = [game_id for game_id in ids if game_id not in unpaid]
    if gone:
        flash(gettext("Some games ticked are no longer unpaid: they are left out."), "error")
    return [unpaid[game_id] for game_id in ids if game_id in unpaid]


def _render_night(league: League, games: list[Game], *, ask: bool = False) -> str:
    night = nights.night_of(league, games) if games else None
    return render_template(
        "league/settle_up.html",
        league=league,
        night=night,
        unpaid=nights.unpaid_games(league, limit=MAX_SHOWN),
        chosen={game.id for game in games},
        handles={payment.payee.id: handle_of(payment.payee) for payment in night.payments}
        if night
        else {},
        currency=currency_of(league),
        can_score=may(league, Role.SCOREKEEPER),
        ask=ask,
    )


#: The unpaid games the page offers to tick, newest first.
MAX_SHOWN = 60


@bp.get("/leagues/<slug>/settle-up")
def night(slug: str) -> str:
    """Tonight's unpaid games (or those ticked), each player's net over them, and the fewest
    payments that settle them all: for the league's members."""
    league = league_or_404(slug, Role.VIEWER)
    return _render_night(league, _night_games(league, _chosen_ids()))


@bp.post("/leagues/<slug>/settle-up/paid")
def tick(slug: str) -> str | Response | tuple[str, int]:
    """A scorekeeper ticks one payment of the night as made; the last one settles it."""
    league = league_or_404(slug, Role.SCOREKEEPER)
    form = TickForm()
    ids = _chosen_ids() or []
    if not form.validate_on_submit():
        abort(400)
    try:
        done = nights.tick(league, ids, form.payer.data or 0, form.payee.data or 0)
    except ServiceError as error:
        flash(error.message, "error")
        return _render_night(league, _night_games(league, ids)), 409
    if done.settled:
        flash(gettext("Every payment is made: the night's games are marked paid."))
        return redirect(url_for(".payments", slug=slug))
    flash(gettext("Ticked as paid."))
    return redirect(url_for(".night", slug=slug, games=ids, _anchor="payments"))


@bp.post("/leagues/<slug>/settle-up/settled")
def settle(slug: str) -> str | Response | tuple[str, int]:
    """A scorekeeper marks every game of the night paid and locked, once asked."""
    league = league_or_404(slug, Role.SCOREKEEPER)
    form = SettleNightForm()
    ids = _chosen_ids() or []
    if not form.validate_on_submit():
        abort(400)
    if not form.confirmed.data:
        return _render_night(league, _night_games(league, ids), ask=True)
    try:
        nights.settle(league, ids)
    except ServiceError as error:
        flash(error.message, "error")
        return _render_night(league, _night_games(league, ids)), 409
    flash(ngettext("Marked %(num)s game paid.", "Marked %(num)s games paid.", len(ids)))
    return redirect(url_for(".payments", slug=slug))
