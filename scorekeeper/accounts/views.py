"""Accounts: the first administrator, signing in and out, password and API tokens, joining
a league by invitation."""

from collections.abc import Mapping
from typing import Any

from flask import (
    Blueprint,
    abort,
    after_this_request,
    current_app,
    flash,
    g,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response

from scorekeeper.accounts import invitations as invitation_service
from scorekeeper.accounts import sign_in as sign_in_service
from scorekeeper.accounts import tokens as token_service
from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.forms import (
    ChangePasswordForm,
    JoinForm,
    LoginForm,
    SetupForm,
    TokenForm,
)
from scorekeeper.accounts.permissions import acting_user, require_site_admin
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.extensions import login_manager
from scorekeeper.models import Invitation, User
from scorekeeper.urls import is_api_request, safe_next
from scorekeeper.web.forms import ButtonForm
from scorekeeper.web.messages import role_label
from scorekeeper.web.translation import gettext

bp = Blueprint("auth", __name__)
login_manager.login_view = "auth.login"
login_manager.login_message = "Sign in to do that."
login_manager.localize_callback = gettext  # the message is worded as it is flashed


@login_manager.user_loader
def load_user(session_key: str) -> User | None:
    """The signed-in user of a session that has not ended (see ``User.get_id``)."""
    return sign_in_service.user_for_session(session_key)


def _sign_in(user: User, *, remember: bool) -> None:
    """Start a session of the user's own on this browser: a new key, new cookies, and a new
    CSRF secret: the one from before signing in may have been planted by someone else (a
    session cookie set on a shared phone), who could then forge this user's forms."""
    field = current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    session.pop(field, None)
    g.pop(field, None)  # Flask-WTF's token made from the old secret, for this request
    login_user(user.in_session(sign_in_service.start_session(user.id)), remember=remember)


def _sign_out() -> None:
    """End this browser's session on the server too, then forget it here."""
    sign_in_service.end_session(current_user.get_id() if current_user.is_authenticated else None)
    logout_user()


def offline_owner() -> str:
    """Whose deals a page's offline queue keeps: the signed-in user's opaque key, or ""."""
    user = acting_user()
    return sign_in_service.queue_owner(user.id) if user is not None else ""


def _signed_out(response: Response) -> Response:
    """A sign-out's answer also empties this browser's storage for the site: the deals
    kept offline (the page's script asked first what to do with them) and the service
    worker's copies of private game pages, which must not open offline any more."""
    response.headers["Clear-Site-Data"] = '"cache", "storage"'
    return response


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> str | Response:
    """On a fresh install, create the first administrator."""
    if user_service.has_users():
        abort(404)
    form = SetupForm()
    if form.validate_on_submit():
        try:
            user = user_service.create_first_admin(
                form.username.data or "", form.password.data or ""
            )
        except ServiceError as error:
            field = form.password if error.field == "password" else form.username
            field.errors = [error.message]
        else:
            _sign_in(user, remember=True)
            flash(
                gettext(
                    "Welcome, %(name)s. You administer this site and its first league.",
                    name=user.username,
                )
            )
            return redirect(url_for("leagues.front"))
    return render_template("accounts/setup.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> tuple[str, int] | Response:
    """Sign in; "keep me signed in" lasts for weeks on a phone at the table."""
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = sign_in_service.authenticate(
                form.username.data or "", form.password.data or "", request.remote_addr
            )
        except ServiceError as error:
            form.password.errors = [error.message]
            status = 403 if isinstance(error, sign_in_service.AccountDisabled) else 429
        else:
            if user is not None:
                _sign_in(user, remember=form.remember.data)
                return redirect(safe_next(request.args.get("next")))
            form.password.errors = [gettext("The username or password is wrong.")]
            status = 401
    return render_template("accounts/login.html", form=form), status


@bp.post("/logout")
def logout() -> Response:
    """Sign out (a POST with a CSRF token, so no other site can sign anyone out)."""
    if not ButtonForm().validate_on_submit():
        abort(400)
    _sign_out()
    flash(gettext("You are signed out."))
    return _signed_out(redirect(url_for("leagues.front")))


@bp.post("/account/sign-out-everywhere")
@login_required
def sign_out_everywhere() -> Response:
    """End every session of this user: other phones, and copies of any cookie."""
    if not ButtonForm().validate_on_submit():
        abort(400)
    sign_in_service.end_all_sessions(current_user.id)
    logout_user()
    flash(gettext("You are signed out everywhere."))
    return _signed_out(redirect(url_for("leagues.front")))


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> str | Response:
    """Change the password; create and revoke API tokens."""
    password_form = ChangePasswordForm(prefix="pw")
    token_form = TokenForm(prefix="token")
    if password_form.submit.data and password_form.validate_on_submit():
        try:
            user_service.change_password(
                current_user.id, password_form.current.data or "", password_form.password.data or ""
            )
        except ServiceError as error:
            field = password_form.password if error.field == "password" else password_form.current
            field.errors = [error.message]
        else:
            # Every session ended with the old password; this browser gets a new one.
            remembered = current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token")
            _sign_in(current_user, remember=remembered in request.cookies)
            flash(
                gettext(
                    "Your password is changed. You are signed out everywhere else, "
                    "and your API tokens are revoked."
                )
            )
            return redirect(url_for(".account"))
    elif token_form.submit.data and token_form.validate_on_submit():
        # Shown once, in the answer to this POST: never in the session cookie, which its
        # holder can read, nor in any cache.
        new_token = token_service.create_token(current_user.id, token_form.name.data or "")
        empty_form = TokenForm(prefix="token", formdata=None)
        response = make_response(account_page(password_form, empty_form, new_token), 201)
        response.headers["Cache-Control"] = "no-store"
        return response
    return account_page(password_form, token_form)


def account_page(
    password_form: ChangePasswordForm,
    token_form: TokenForm,
    new_token: str | None = None,
    handle_forms: Mapping[int, Any] | None = None,
) -> str:
    """The account page; ``handle_forms``: how-I-am-paid forms answered with an error, by
    player id (the others are filled afresh: ``own_payment_forms``)."""
    return render_template(
        "accounts/account.html",
        password_form=password_form,
        token_form=token_form,
        tokens=token_service.tokens_of(current_user.id),
        new_token=new_token,
        handle_forms=handle_forms or {},
    )


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Response:
    """Revoke one of the user's API tokens."""
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        token_service.revoke_token(current_user.id, token_id)
    except ServiceError:
        abort(404)
    flash(gettext("The token is revoked."))
    return redirect(url_for(".account"))


@bp.route("/invitations/<token>", methods=["GET", "POST"])
def invitation(token: str) -> tuple[str, int] | Response:
    """Join a league by an invitation link: with a new account (the same rules as every
    account) or, signed in, with one's own."""
    after_this_request(_kept_private)
    try:
        found = invitation_service.opened(token)
    except invitation_service.InvitationClosed as closed:
        status = 404 if closed.reason is invitation_service.Closed.UNKNOWN else 410
        return _invitation_page(None, None, closed.message), status
    signed_in = current_user.is_authenticated
    form = None if signed_in else JoinForm()
    button = ButtonForm() if signed_in else None
    try:
        if button is not None and button.validate_on_submit():
            invitation_service.join_as(token, current_user.id)
            return _joined(found, current_user)
        if form is not None and form.validate_on_submit():
            user = invitation_service.join_with_new_account(
                token, form.username.data or "", form.password.data or ""
            )
            _sign_in(user, remember=True)
            return _joined(found, user)
    except invitation_service.InvitationClosed as closed:  # used or withdrawn meanwhile
        return _invitation_page(None, None, closed.message), 410
    except ServiceError as error:
        assert form is not None
        field = form.password if error.field == "password" else form.username
        field.errors = [error.message]
    status = 422 if form is not None and form.errors else 200
    return _invitation_page(found, form), status


def _kept_private(response: Response) -> Response:
    """Every answer to an invitation's address, which holds its token: kept by no cache
    (a shared computer's history, a proxy) and sent on to no other site as a referrer."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def _invitation_page(
    found: Invitation | None, form: JoinForm | None, closed: str | None = None
) -> str:
    return render_template(
        "accounts/invitation.html",
        invitation=found,
        form=form,
        button=ButtonForm(formdata=None),
        closed=closed,
    )


def _joined(found: Invitation, user: User) -> Response:
    role = invitation_service.role_after_joining(found, user.id)
    flash(
        gettext(
            "Welcome, %(name)s: you are %(role)s of %(league)s.",
            name=user.username,
            role=role_label(role).lower(),
            league=found.league.name,
        )
    )
    return redirect(url_for("leagues.home", slug=found.league.slug))


#: What a fresh install answers as it is: the setup page itself and what it needs, and the
#: health check (``web/health.py``), which must not touch the database twice or redirect.
_NEVER_LED_TO_SETUP = ("auth.setup", "static", "i18n.set_language", "health.healthz")


def first_visit_offers_setup() -> Response | None:
    """Until the first administrator exists, every page leads to creating one."""
    state = current_app.extensions.setdefault("scorekeeper", {})
    if state.get("has_users") or request.endpoint in _NEVER_LED_TO_SETUP:
        return None
    if is_api_request():
        return None
    if user_service.has_users():
        state["has_users"] = True  # accounts are never all deleted: no need to ask again
        return None
    return redirect(url_for("auth.setup"))


@bp.get("/users")
def users() -> str:
    """A site administrator's list of every account, each of which may be disabled."""
    require_site_admin()
    return render_template("accounts/users.html", users=user_service.all_users())


@bp.post("/users/<int:user_id>/disable")
def disable_user(user_id: int) -> Response:
    """Disable an account: it is signed out everywhere and its API tokens stop working."""
    return _set_disabled(user_id, disabled=True)


@bp.post("/users/<int:user_id>/enable")
def enable_user(user_id: int) -> Response:
    """Put a disabled account back in use: it signs in again (with new API tokens)."""
    return _set_disabled(user_id, disabled=False)


def _set_disabled(user_id: int, *, disabled: bool) -> Response:
    require_site_admin()
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        user = user_service.set_disabled(user_id, disabled, by=current_user.id)
    except NotFound:
        abort(404)
    except ServiceError as error:
        flash(error.message, "error")
        return redirect(url_for(".users"))
    if disabled:
        message = gettext(
            "%(name)s is disabled: signed out everywhere, API tokens revoked.", name=user.username
        )
    else:
        message = gettext("%(name)s can sign in again.", name=user.username)
    flash(message)
    return redirect(url_for(".users"))
