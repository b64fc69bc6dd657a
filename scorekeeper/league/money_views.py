"""A league's money: who owes whom, what two players owe each other and marking it paid,
the payments marked, and settling up a night in the fewest payments (issue 37)."""

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from scorekeeper.accounts.permissions import league_or_404, may
from scorekeeper.errors import ServiceError
from scorekeeper.league import balances as balance_queries
from scorekeeper.league import queries
from scorekeeper.league import service as league_service
from scorekeeper.league.arguments import id_arg, pair_of
from scorekeeper.league.forms import SettleForm
from scorekeeper.models import League, Player, Role
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
