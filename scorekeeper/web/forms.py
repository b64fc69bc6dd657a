"""The base of every form: whitespace squeezed, invisible characters refused, one-button forms."""

from collections.abc import Iterator
from typing import Any

from flask_wtf import FlaskForm
from markupsafe import Markup, escape
from wtforms import FieldList, FormField, HiddenField, widgets
from wtforms.validators import (
    DataRequired,
    Length,
    ValidationError,
)
from wtforms.widgets.core import clean_key

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


def attributes(**values: Any) -> Markup:
    """An input's attributes as WTForms' ``html_params`` writes them — by name, ``True``
    bare, ``False`` left out, every name and value escaped — in plain string formatting:
    WTForms formats each one through ``Markup.format``, which cost the game page's deal
    form a tenth of the page (issue 26)."""
    written: list[str] = []
    for key, value in sorted(values.items()):
        if value is True:
            written.append(escape(clean_key(key)))
        elif value is not False:
            text = str(escape(value)).replace('"', "&quot;")  # a Markup value may hold a quote
            written.append(f'{escape(clean_key(key))}="{text}"')
    return Markup(" ".join(written))


# WTForms' inputs, their attributes written by :func:`attributes`: for the busiest forms.


class TextInput(widgets.TextInput):
    html_params = staticmethod(attributes)


class HiddenInput(widgets.HiddenInput):
    html_params = staticmethod(attributes)


class RadioInput(widgets.RadioInput):
    html_params = staticmethod(attributes)


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
