"""Accounts: the first administrator, signing in and out, password and API tokens."""

from urllib.parse import urlsplit

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_login import LoginManager, current_user, login_required, login_user, logout_user
from sqlalchemy.orm import joinedload
from werkzeug.wrappers import Response

from . import accounts
from .forms import ButtonForm, ChangePasswordForm, LoginForm, SetupForm, TokenForm
from .i18n import gettext
from .models import User, db
from .services import ServiceError

bp = Blueprint("auth", __name__)
login_manager = LoginManager()
login_manager.login_view = "auth.login"
login_manager.login_message = "Sign in to do that."
login_manager.localize_callback = gettext  # the message is worded as it is flashed


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    """The signed-in user, with their roles in the same query: the menu asks for them."""
    if not user_id.isdigit():
        return None
    return db.session.get(User, int(user_id), options=[joinedload(User.memberships)])


def _safe_next(target: str | None) -> str:
    """Only a path on this site: never send a signed-in user elsewhere."""
    if target and target.startswith("/") and not target.startswith("//"):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return url_for("table.home")


@bp.route("/setup", methods=["GET", "POST"])
def setup() -> str | Response:
    """On a fresh install, create the first administrator."""
    if accounts.has_users():
        abort(404)
    form = SetupForm()
    if form.validate_on_submit():
        try:
            user = accounts.create_first_admin(form.username.data or "", form.password.data or "")
        except ServiceError as error:
            form.username.errors = [error.message]
        else:
            login_user(user, remember=True)
            flash(
                gettext(
                    "Welcome, %(name)s. You administer this site and its first league.",
                    name=user.username,
                )
            )
            return redirect(url_for("table.home"))
    return render_template("auth/setup.html", form=form)


@bp.route("/login", methods=["GET", "POST"])
def login() -> tuple[str, int] | Response:
    """Sign in; "keep me signed in" lasts for weeks on a phone at the table."""
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        try:
            user = accounts.authenticate(
                form.username.data or "", form.password.data or "", request.remote_addr
            )
        except ServiceError as error:
            form.password.errors = [error.message]
            status = 429
        else:
            if user is not None:
                login_user(user, remember=form.remember.data)
                return redirect(_safe_next(request.args.get("next")))
            form.password.errors = [gettext("The username or password is wrong.")]
            status = 401
    return render_template("auth/login.html", form=form), status


@bp.post("/logout")
def logout() -> Response:
    """Sign out (a POST with a CSRF token, so no other site can sign anyone out)."""
    if not ButtonForm().validate_on_submit():
        abort(400)
    logout_user()
    flash(gettext("You are signed out."))
    return redirect(url_for("table.home"))


@bp.route("/account", methods=["GET", "POST"])
@login_required
def account() -> str | Response:
    """Change the password; create and revoke API tokens."""
    password_form = ChangePasswordForm(prefix="pw")
    token_form = TokenForm(prefix="token")
    if password_form.submit.data and password_form.validate_on_submit():
        try:
            accounts.change_password(
                current_user.id, password_form.current.data or "", password_form.password.data or ""
            )
        except ServiceError as error:
            password_form.current.errors = [error.message]
        else:
            flash(gettext("Your password is changed."))
            return redirect(url_for(".account"))
    elif token_form.submit.data and token_form.validate_on_submit():
        # Shown once, after the redirect, so a reload can't make a second token.
        session["new_token"] = accounts.create_token(current_user.id, token_form.name.data or "")
        return redirect(url_for(".account"))
    new_token = session.pop("new_token", None) if request.method == "GET" else None
    return render_template(
        "auth/account.html",
        password_form=password_form,
        token_form=token_form,
        tokens=accounts.tokens_of(current_user.id),
        new_token=new_token,
    )


@bp.post("/account/tokens/<int:token_id>/revoke")
@login_required
def revoke_token(token_id: int) -> Response:
    """Revoke one of the user's API tokens."""
    if not ButtonForm().validate_on_submit():
        abort(400)
    try:
        accounts.revoke_token(current_user.id, token_id)
    except ServiceError:
        abort(404)
    flash(gettext("The token is revoked."))
    return redirect(url_for(".account"))
