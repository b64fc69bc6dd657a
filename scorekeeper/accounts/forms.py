"""What the sign-in, setup, password and API-token pages accept."""

from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    PasswordField,
    StringField,
    SubmitField,
)
from wtforms.validators import (
    DataRequired,
    EqualTo,
    Length,
    ValidationError,
)

from scorekeeper.accounts.users import is_setup_code, password_problem
from scorekeeper.web.forms import Form, squeezed, visible
from scorekeeper.web.translation import lazy_gettext as _l


class LoginForm(Form):
    username = StringField(
        _l("Username"), validators=[DataRequired(message=_l("Enter your username."))]
    )
    password = PasswordField(
        _l("Password"), validators=[DataRequired(message=_l("Enter your password."))]
    )
    remember = BooleanField(_l("Keep me signed in on this phone"))
    submit = SubmitField(_l("Sign in"))


def _acceptable_password(form: FlaskForm, field: PasswordField) -> None:
    """Long enough, not too long, not a common one, not the username (``accounts``)."""
    username = form.username.data if "username" in form else None
    problem = password_problem(field.data or "", username or None)
    if problem is not None:
        raise ValidationError(problem)


def _password_validators() -> list[Any]:
    return [DataRequired(message=_l("Choose a password.")), _acceptable_password]


class NewAccountForm(Form):
    """A username and a password chosen by the person whose account it is: the first
    administrator, or someone joining a league by invitation. ``accounts.users`` checks
    both again as it creates the account, by the same rules."""

    username = StringField(
        _l("Your username"),
        validators=[DataRequired(message=_l("Choose a username.")), Length(max=40), visible],
        filters=[squeezed],
    )
    password = PasswordField(_l("Password"), validators=_password_validators())
    confirm = PasswordField(
        _l("Password again"),
        validators=[EqualTo("password", message=_l("The passwords differ."))],
    )


class SetupForm(NewAccountForm):
    code = StringField(
        _l("Setup code"),
        validators=[DataRequired(message=_l("Enter the setup code printed in the terminal."))],
    )
    submit = SubmitField(_l("Create the administrator"))

    def validate_code(self, field: StringField) -> None:
        if not is_setup_code(field.data or ""):
            raise ValidationError(
                _l("That is not the setup code: copy it from the terminal where the app started.")
            )


class JoinForm(NewAccountForm):
    submit = SubmitField(_l("Create my account and join"))


class ChangePasswordForm(Form):
    current = PasswordField(
        _l("Current password"),
        validators=[DataRequired(message=_l("Enter your current password."))],
    )
    password = PasswordField(_l("New password"), validators=_password_validators())
    confirm = PasswordField(
        _l("New password again"),
        validators=[EqualTo("password", message=_l("The passwords differ."))],
    )
    submit = SubmitField(_l("Change password"))


class TokenForm(Form):
    name = StringField(
        _l("What is it for?"),
        validators=[DataRequired(message=_l("Name the token.")), Length(max=60)],
    )
    submit = SubmitField(_l("Create a token"))
