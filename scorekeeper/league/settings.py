"""League administration: new leagues, settings, members and their roles, seasons."""

from typing import Any

from flask import Blueprint, abort, flash, make_response, redirect, render_template, url_for
from werkzeug.wrappers import Response

from scorekeeper.accounts import invitations as invitation_service
from scorekeeper.accounts import members as member_service
from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.permissions import acting_user, league_or_404, require_site_admin
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.league import queries
from scorekeeper.league import seasons as season_service
from scorekeeper.league import service as league_service
from scorekeeper.league.forms import (
    InvitationForm,
    LeagueDefaultsForm,
    LeagueForm,
    MemberForm,
    RoleForm,
    SeasonForm,
)
from scorekeeper.models import League, Role, User, db
from scorekeeper.web.forms import ButtonForm
from scorekeeper.web.messages import role_label
from scorekeeper.web.translation import gettext

bp = Blueprint("admin", __name__)


@bp.route("/leagues/new", methods=["GET", "POST"])
def new_league() -> str | Response:
    """A site administrator creates a league."""
    require_site_admin()
    form = LeagueForm(data={"public": True})
    if form.validate_on_submit():
        user = acting_user()
        try:
            league = league_service.create_league(
                form.name.data or "", public=form.public.data, owner_id=user.id if user else None
            )
        except ServiceError as error:
            form.name.errors = [error.message]
        else:
            flash(gettext("%(league)s is ready.", league=league.name))
            return redirect(url_for(".settings", slug=league.slug))
    return render_template("league/new_league.html", form=form)


def _saved_settings(league: League, form: LeagueForm) -> bool:
    """The league's name, readers, time zone and currency as the form says; False, with
    the refusal beside its field, when the service refuses them."""
    try:
        league_service.update_league(
            league.id,
            name=form.name.data or "",
            public=form.public.data,
            defaults=league.defaults,
            time_zone=form.time_zone.data or None,
            currency=form.currency.data or None,
        )
    except ServiceError as error:
        fields = {"time_zone": form.time_zone, "currency": form.currency}
        fields.get(error.field or "", form.name).errors = [error.message]
        return False
    return True


@bp.route("/leagues/<slug>/settings", methods=["GET", "POST"])
def settings(slug: str) -> str | Response:
    """The league's name, who may read it, its time zone and currency, its new games' rules."""
    league = league_or_404(slug, Role.ADMIN)
    form = LeagueForm(obj=league, prefix="league")
    defaults = LeagueDefaultsForm.from_defaults(league.defaults, prefix="defaults")
    if filled := defaults.refilled(
        gettext("save the defaults"),
        prefix="defaults",
        small=defaults.small.data,
        big=defaults.big.data,
    ):
        defaults = filled
    elif form.submit.data and form.validate_on_submit():
        if _saved_settings(league, form):
            flash(gettext("The league settings are saved."))
            return redirect(url_for(".settings", slug=slug))
    elif defaults.save_defaults.data and defaults.validate_on_submit():
        league_service.update_league(
            league.id,
            name=league.name,
            public=league.public,
            # Mille's defaults, beside the other games' last setups (League.last_setup).
            defaults={**(league.defaults or {}), **defaults.defaults},
            time_zone=league.time_zone,
            currency=league.currency,
        )
        flash(gettext("New games in this league will start from these rules and stakes."))
        return redirect(url_for(".settings", slug=slug))
    return render_template("league/settings.html", league=league, form=form, defaults=defaults)


@bp.route("/leagues/<slug>/members", methods=["GET", "POST"])
def members(slug: str) -> str | Response:
    """Who belongs to the league, with what role; add a member (creating the account)."""
    league = league_or_404(slug, Role.ADMIN)
    form = MemberForm()
    if form.validate_on_submit():
        username, role = form.username.data or "", Role(int(form.role.data))
        user = user_service.user_by_name(username)
        try:
            if user is None:
                if not form.password.data:
                    raise ServiceError(
                        gettext(
                            "%(name)s has no account yet: give a password to create one.",
                            name=username,
                        ),
                        field="password",
                    )
                user = user_service.create_user(username, form.password.data)
            member_service.set_membership(league.id, user.id, role)
        except ServiceError as error:
            field = form.password if error.field == "password" else form.username
            field.errors = [error.message]
        else:
            flash(
                gettext(
                    "%(name)s is now %(role)s of %(league)s.",
                    name=user.username,
                    role=role_label(role).lower(),
                    league=league.name,
                )
            )
            return redirect(url_for(".members", slug=slug))
    return _members_page(league, form, InvitationForm(formdata=None))


def _members_page(
    league: League,
    form: MemberForm,
    invite_form: InvitationForm,
    new_link: str | None = None,
) -> str:
    invite_form.player.choices = [("", gettext("Nobody in particular"))] + [
        (str(player.id), player.name) for player in queries.players_of(league.id)
    ]
    return render_template(
        "league/members.html",
        league=league,
        form=form,
        members=member_service.members(league.id),
        role_form=RoleForm,
        invite_form=invite_form,
        invitations=invitation_service.open_invitations(league.id),
        new_link=new_link,
        withdraw_form=ButtonForm(formdata=None),
    )


@bp.post("/leagues/<slug>/invitations")
def invite(slug: str) -> Response | tuple[str, int]:
    """Make an invitation link; the page shows it this once (its token is not kept)."""
    league = league_or_404(slug, Role.ADMIN)
    form = InvitationForm()
    empty = MemberForm(formdata=None)
    if not form.validate_on_submit():
        return _members_page(league, empty, form), 422
    user = acting_user()
    try:
        chosen = form.player.data or ""
        _, token = invitation_service.create(
            league.id,
            Role(int(form.role.data or 0)),
            user.id if user else None,
            int(chosen) if chosen.isdecimal() else None,
        )
    except ServiceError as error:
        (form.player if error.field == "player" else form.role).errors = [error.message]
        return _members_page(league, empty, form), 422
    except ValueError:
        form.role.errors = [gettext("An invitation makes a viewer or a scorekeeper.")]
        return _members_page(league, empty, form), 422
    link = url_for("auth.invitation", token=token, _external=True)
    page = _members_page(league, empty, InvitationForm(formdata=None), new_link=link)
    # Shown once, in the answer to this POST: never in a cookie, nor in any cache.
    response = make_response(page, 201)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/leagues/<slug>/invitations/<int:invitation_id>/withdraw")
def withdraw_invitation(slug: str, invitation_id: int) -> Response:
    """Withdraw an open invitation: its link opens nothing any more."""
    league = league_or_404(slug, Role.ADMIN)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        invitation_service.withdraw(league.id, invitation_id)
    except NotFound:
        abort(404)
    flash(gettext("The invitation is withdrawn: its link opens nothing any more."))
    return redirect(url_for(".members", slug=slug))


@bp.post("/leagues/<slug>/members/<int:user_id>")
def change_member(slug: str, user_id: int) -> Response:
    """Change a member's role, or remove them from the league."""
    league = league_or_404(slug, Role.ADMIN)
    user = db.get_or_404(User, user_id)
    form = RoleForm(prefix=f"m{user.id}")
    if not form.validate_on_submit() or form.role.data is None:
        abort(400)
    role = None if form.role.data == "remove" else Role(int(form.role.data))
    member_service.set_membership(league.id, user.id, role)
    if role is None:
        flash(gettext("%(name)s: removed.", name=user.username))
    else:
        flash(gettext("%(name)s: %(role)s.", name=user.username, role=role_label(role).lower()))
    return redirect(url_for(".members", slug=slug))


@bp.route("/leagues/<slug>/seasons", methods=["GET", "POST"])
def seasons(slug: str) -> str | Response | tuple[str, int]:
    """The league's seasons, and a form to add one (league admins)."""
    league = league_or_404(slug, Role.ADMIN)
    form = SeasonForm()
    if form.validate_on_submit():
        assert form.starts_on.data
        assert form.ends_on.data
        try:
            season = season_service.add_season(
                league.id, form.name.data or "", form.starts_on.data, form.ends_on.data
            )
        except ServiceError as error:
            _field(form, error.field).errors = [error.message]
        else:
            flash(gettext("Season %(name)s added.", name=season.name))
            return redirect(url_for(".seasons", slug=slug))
    status = 422 if form.errors else 200
    return render_template(
        "league/seasons.html",
        league=league,
        form=form,
        seasons=season_service.seasons_of(league.id),
        delete_form=ButtonForm(formdata=None),
    ), status


def _field(form: SeasonForm, name: str | None) -> Any:
    return getattr(form, name or "name", form.name)


@bp.route("/leagues/<slug>/seasons/<int:season_id>", methods=["GET", "POST"])
def edit_season(slug: str, season_id: int) -> str | Response | tuple[str, int]:
    """Rename a season or change its dates (league admins)."""
    league = league_or_404(slug, Role.ADMIN)
    season = season_service.season_in(league.id, season_id) or abort(404)
    form = SeasonForm(obj=season)
    if form.validate_on_submit():
        assert form.starts_on.data
        assert form.ends_on.data
        try:
            season_service.update_season(
                league.id, season.id, form.name.data or "", form.starts_on.data, form.ends_on.data
            )
        except ServiceError as error:
            _field(form, error.field).errors = [error.message]
        else:
            flash(gettext("Season saved; its standings are added up again."))
            return redirect(url_for(".seasons", slug=slug))
    status = 422 if form.errors else 200
    return render_template(
        "league/edit_season.html", league=league, season=season, form=form
    ), status


@bp.post("/leagues/<slug>/seasons/<int:season_id>/delete")
def delete_season(slug: str, season_id: int) -> Response:
    """Remove a season (its games stay)."""
    league = league_or_404(slug, Role.ADMIN)
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        season_service.delete_season(league.id, season_id)
    except NotFound:
        abort(404)
    flash(gettext("Season removed; its games stay in the league."))
    return redirect(url_for(".seasons", slug=slug))
