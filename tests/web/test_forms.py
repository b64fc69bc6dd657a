"""The busiest forms' inputs write their attributes themselves (issue 26): the same text
as WTForms' own ``html_params``, for any names and values."""

from hypothesis import given
from hypothesis import strategies as st
from markupsafe import Markup
from wtforms import widgets
from wtforms.widgets import html_params

from scorekeeper.table.change_forms import DealForm
from scorekeeper.web.forms import attributes

names = st.from_regex(r"[a-z][a-z0-9]*(_[a-z0-9]+)*_?", fullmatch=True)
values = (
    st.booleans()
    | st.integers()
    | st.text()
    | st.text().map(Markup)  # already markup: kept, its quotes made &quot;
)


@given(st.dictionaries(names, values, max_size=8))
def test_attributes_are_written_as_wtforms_writes_them(given_attributes):
    assert attributes(**given_attributes) == html_params(**given_attributes)


def test_the_deal_form_renders_as_with_wtforms_own_inputs(app):
    """Every input of the deal form, as the page asks for it, is what WTForms' own widget
    writes, and it is ours that writes it."""
    with app.test_request_context():
        form = DealForm(formdata=None)
        form.name_seats(("Ana", "Élodie"))
        form.out.data, form.score0.data, form.stars1.data = "1", '1,005" <b>', "2"
        asked = {"inputmode": "numeric", "data_sign": "Change the sign", "aria_invalid": "true"}
        inputs = [
            (form.score0, widgets.TextInput(), asked),
            (form.stars1, widgets.TextInput(), {"class": "star-input", "autocomplete": "off"}),
            *((option, widgets.RadioInput(), {"required": True}) for option in form.out),
            (form.token, widgets.HiddenInput(), {}),
            (form.version, widgets.HiddenInput(), {}),
            (form.cards, widgets.HiddenInput(), {}),
        ]
        for field, wtforms_own, asked in inputs:
            assert type(field.widget).html_params is not html_params
            assert field(**asked) == wtforms_own(field, **asked)
        assert 'value="1,005&#34; &lt;b&gt;"' in form.score0()
        assert "checked" in list(form.out)[1]()
