"""A member's own player (issue 38, point 13): a league admin links a member's account to a
player on the player's page, and the member then says how they are paid on their account
page, as a league admin does on the player's page (kept in the league's history alike)."""

from typing import Any

from flask import Blueprint, abort, flash, redirect, url_for
from flask_login import current_user, login_required
from werkzeug.wrappers import Response

from scorekeeper.accounts import own_players
from scorekeeper.accounts.forms import ChangePasswordForm, TokenForm
from scorekeeper.accounts.members import members
from scorekeeper.accounts.permissions import league_or_404
from scorekeeper.accounts.views import account_page
from scorekeeper.errors import ServiceError
from scorekeeper.league.arguments import player_of
from scorekeeper.league.forms import PlayerAccountForm
from scorekeeper.models import Player, Role
from scorekeeper.records.payment_handles import handle_of, read_handle, set_handle
from scorekeeper.table import audit
from scorekeeper.table.forms import PaymentHandleForm
from scorekeeper.web.translation import gettext

bp = Blueprint("own_player", __name__)


@bp.app_template_global()
def own_payment_forms(answered: dict[int, Any]) -> list[tuple[own_players.OwnPlayer, Any]]:
    """The account page's "How I am paid": each league where the signed-in user is a
    player, with its form (the one ``answered`` with an error, else filled afresh)."""
    return [
        (each, answered.get(each.player.id) or _handle_form(each.player))
        for each in own_players.own_players(current_user.id)
    ]


def _handle_form(player: Player) -> PaymentHandleForm:
    form = PaymentHandleForm(formdata=None, prefix=f"pay{player.id}")
    if (handle := handle_of(player)) is not None:
        form.kind.data, form.handle.data = handle.kind.value, handle.handle
    return form


def account_form(league_id: int, player: Player) -> PlayerAccountForm:
    """The player page's form for a league admin: which member's account the player is."""
    form = PlayerAccountForm(formdata=None, prefix="account")
    form.user.choices = [("", gettext("Nobody"))] + [
        (str(user.id), user.username) for user, _ in members(league_id)
    ]
    linked = own_players.member_of_player(player)
    form.user.data = str(linked.id) if linked else ""
    return form


@bp.post("/account/payment/<int:league_id>")
@login_required
def own_payment(league_id: int) -> Response | tuple[str, int]:
    """Say how I am paid in a league where I am a player."""
    player = own_players.own_player(current_user.id, league_id)
    if player is None:
        abort(404)
    form = PaymentHandleForm(prefix=f"pay{player.id}")
    if form.validate_on_submit():
        try:
            handle = read_handle(form.kind.data or "", form.handle.data or "")
        except ServiceError as error:
            (form.kind if error.field == "kind" else form.handle).errors = [error.message]
        else:
            set_handle(player.id, handle, by=current_user.id)
            flash(gettext("Saved how you are paid."))
            return redirect(url_for("auth.account", _anchor=f"how-paid-{league_id}"))
    page = account_page(
        ChangePasswordForm(prefix="pw", formdata=None),
        TokenForm(prefix="token", formdata=None),
        handle_forms={player.id: form},
    )
    return page, 422


@bp.post("/leagues/<slug>/players/<int:player_id>/account")
def link_account(slug: str, player_id: int) -> Response:
    """A league admin says which member's account the player is (or nobody's)."""
    league = league_or_404(slug, Role.ADMIN)
    found = player_of(league, player_id)
    form = PlayerAccountForm(prefix="account")
    if not form.validate_on_submit():
        abort(400)
    chosen = form.user.data or ""
    try:
        own_players.link(found, int(chosen) if chosen.isdecimal() else None, by=audit.actor_id())
    except ServiceError as error:
        flash(error.message, "error")
    else:
        flash(gettext("Saved whose account %(name)s is.", name=found.name))
    return redirect(url_for("leagues.player", slug=slug, player_id=player_id, _anchor="account"))
