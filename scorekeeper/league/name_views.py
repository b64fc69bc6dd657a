"""A player's name put right, by a league admin: renaming them, or merging two players who
are one person ("Benn" into "Ben") after a page shows what will move (:mod:`..records.merging`)."""

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from scorekeeper.accounts.permissions import league_or_404
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.league import queries
from scorekeeper.league.forms import MergeForm, RenameForm
from scorekeeper.models import League, Player, Role
from scorekeeper.records import merging
from scorekeeper.records import players as player_service
from scorekeeper.records.payment_handles import PaymentHandle
from scorekeeper.table import audit
from scorekeeper.web.translation import gettext

bp = Blueprint("names", __name__)


def _player(league: League, player_id: int) -> Player:
    player = queries.player_in(league.id, player_id)
    if player is None:
        abort(404)
    return player


@bp.route("/leagues/<slug>/players/<int:player_id>/rename", methods=["GET", "POST"])
def rename(slug: str, player_id: int) -> str | Response | tuple[str, int]:
    """Rename a player (a name close to another player's is asked about first), or choose
    another player to merge them into."""
    league = league_or_404(slug, Role.ADMIN)
    found = _player(league, player_id)
    form = RenameForm(data={"name": found.name})
    taken = close = None
    if form.validate_on_submit():
        name = form.name.data or ""
        close = [] if form.confirmed.data == name else _close_to(league, found, name)
        if not close:
            old = found.name
            try:
                player_service.rename_player(league.id, found.id, name, by=audit.actor_id())
            except NotFound:
                abort(404)
            except ServiceError as error:
                form.name.errors = [error.message]
                taken = player_service.find_player(league.id, name)
            except IntegrityError:  # the same name, given by another admin at that moment
                taken = player_service.find_player(league.id, name)
                form.name.errors = [player_service.taken_refusal(name, found).message]
            else:
                flash(gettext("%(name)s is now called %(new)s.", name=old, new=name))
                return redirect(url_for("leagues.player", slug=slug, player_id=found.id))
    page = render_template(
        "league/rename.html",
        league=league,
        player=found,
        form=form,
        taken=taken if taken is not None and taken.id != found.id else None,
        close=close,
        others=[player for player in queries.players_of(league.id) if player.id != found.id],
    )
    return (page, 422) if form.errors else page  # a question ("Is it Ana?") is no error


def _close_to(league: League, player: Player, name: str) -> list[Player]:
    """The league's other players whose names look like ``name`` (not the player's own)."""
    names = player_service.lookalike_players(league.id, name, besides=player.id)
    return [found for each in names if (found := player_service.find_player(league.id, each))]


def _plan(league: League, merged: Player, into: int | None) -> merging.MergePlan:
    if into is None or not 0 < into <= queries.MAX_ID:
        abort(404)
    try:
        return merging.plan_merge(league.id, merged.id, into)
    except ServiceError:  # no such player to merge into, or the player themself
        abort(404)


@bp.get("/leagues/<slug>/players/<int:player_id>/merge")
def merge(slug: str, player_id: int) -> str | Response:
    """What merging a player into another (``?into=``) would move, and the question; or why
    they can't be merged."""
    league = league_or_404(slug, Role.ADMIN)
    found = _player(league, player_id)
    into = request.args.get("into", type=int)
    if into is None:
        return redirect(url_for(".rename", slug=slug, player_id=found.id, _anchor="merge"))
    return _render_merge(league, _plan(league, found, into))


def _render_merge(league: League, plan: merging.MergePlan, form: MergeForm | None = None) -> str:
    if form is None:
        form = MergeForm(formdata=None, data={"into": plan.kept.id, "signature": plan.signature})
    merged, kept = plan.handles
    form.handle.choices = [
        SelectChoice(merging.KEEP, _whose(plan.kept, kept)),
        SelectChoice(merging.TAKE, _whose(plan.merged, merged)),
    ]
    return render_template("league/merge.html", league=league, plan=plan, form=form)


def _whose(player: Player, handle: PaymentHandle | None) -> str:
    said = handle.handle if handle else ""
    return gettext("%(name)s's: %(handle)s", name=player.name, handle=said)


@bp.post("/leagues/<slug>/players/<int:player_id>/merge")
def merge_now(slug: str, player_id: int) -> Response | tuple[str, int]:
    """Merge the player into another, as the page showed; the league's history keeps it."""
    league = league_or_404(slug, Role.ADMIN)
    found = _player(league, player_id)
    form = MergeForm()
    if not form.validate_on_submit():
        abort(400)
    plan = _plan(league, found, form.into.data)
    name = found.name  # the merged player's row is gone once merged
    try:
        kept = merging.merge_players(
            league.id,
            found.id,
            plan.kept.id,
            handle=form.handle.data or merging.KEEP,
            signature=form.signature.data,
            by=audit.actor_id(),
        )
    except Conflict as error:
        flash(error.message, "error")
        return _render_merge(league, _plan(league, found, form.into.data)), 409
    except ServiceError:  # either player gone meanwhile
        abort(404)
    flash(gettext("%(name)s merged into %(into)s.", name=name, into=kept.name))
    return redirect(url_for("leagues.player", slug=slug, player_id=kept.id))
