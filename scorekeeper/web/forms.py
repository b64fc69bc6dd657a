"""The base of every form: whitespace squeezed, invisible characters refused, one-button forms."""

from collections.abc import Iterator
from typing import Any

from flask_wtf import FlaskForm
from wtforms import FieldList, FormField, HiddenField
from wtforms.validators import (
    DataRequired,
    Length,
    ValidationError,
)

from scorekeeper.names import MAX_NAME_LENGTH, name_problem, squeeze
from scorekeeper.web.translation import form_translations, gettext
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


#: The longest value a typed field takes as sent: far more than any name (40), password
#: (256) or number anyone types. A longer one is refused before any validator or reader
#: parses it, so that no request's work grows with what it sends (issue 21). Hidden fields
#: are the page's own, and each one's reader bounds it (a version, a token, the cards).
MAX_FIELD_LENGTH = 1000


def _typed_fields(form: Any) -> Iterator[Any]:
    """Every field a person types into, inside sub-forms and lists of them too."""
    for field in form:
        if isinstance(field, FormField):
            yield from _typed_fields(field.form)
        elif isinstance(field, FieldList):
            for entry in field.entries:
                yield from _typed_fields(entry.form) if isinstance(entry, FormField) else [entry]
        elif not isinstance(field, HiddenField):
            yield field


def _sent_too_long(field: Any) -> bool:
    return any(isinstance(v, str) and len(v) > MAX_FIELD_LENGTH for v in field.raw_data or ())


class Form(FlaskForm):
    """A Flask-WTF form whose WTForms messages come from catalogs read once
    (:func:`i18n.form_translations`), not from disk on every request, and whose typed
    fields are bounded (:data:`MAX_FIELD_LENGTH`) before anything reads them."""

    class Meta:
        def get_translations(self, form: Any) -> Any:
            translations = form_translations()
            if translations is None:
                return super().get_translations(form)  # type: ignore[misc]
            return translations

    def validate(self, extra_validators: Any = None) -> bool:
        """Refuse a field sent far longer than it can be, beside it, before any validator
        reads one; otherwise validate as WTForms does."""
        too_long = [field for field in _typed_fields(self) if _sent_too_long(field)]
        for field in too_long:
            field.errors = [gettext("This is far longer than anything this field takes.")]
        return not too_long and bool(super().validate(extra_validators))


class ButtonForm(Form):
    """A one-button form: nothing but its CSRF token."""
