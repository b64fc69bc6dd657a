"""The base of every form: whitespace squeezed, invisible characters refused, one-button forms."""

from typing import Any

from flask_wtf import FlaskForm
from wtforms.validators import (
    DataRequired,
    Length,
    ValidationError,
)

from scorekeeper.names import MAX_NAME_LENGTH, name_problem, squeeze
from scorekeeper.web.translation import form_translations
from scorekeeper.web.translation import lazy_gettext as _l


def squeezed(value: str | None) -> str | None:
    return squeeze(value) if value else value


def visible(_form: Any, field: Any) -> None:
    """A name's characters: none invisible or a control (:func:`.names.printable`)."""
    problem = name_problem(field.data or "")
    if problem:
        raise ValidationError(problem)


def name_validators(missing: str) -> list[Any]:
    return [
        DataRequired(message=missing),
        Length(
            max=MAX_NAME_LENGTH,
            message=_l("A name is at most %(most)s characters.", most=MAX_NAME_LENGTH),
        ),
        visible,
    ]


class Form(FlaskForm):
    """A Flask-WTF form whose WTForms messages come from catalogs read once
    (:func:`i18n.form_translations`), not from disk on every request."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            translations = form_translations()
            if translations is None:
                return super().get_translations(form)  # type: ignore[misc]
            return translations


class ButtonForm(Form):
    """A one-button form: nothing but its CSRF token."""
