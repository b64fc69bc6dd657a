"""The one reader of each kind of value (values.py), as pages and imports use it."""

import pytest

from scorekeeper.values import (
    MAX_TYPED_NUMBER,
    read_amount,
    read_json_amount,
    read_json_whole_number,
    read_whole_number,
)


@pytest.mark.parametrize(
    ("typed", "read"),
    [("1,275", 1275), ("−50", -50), ("+40", 40), (" 5 ", 5), ("12a", "12a"), ("", "")],
)
def test_a_typed_whole_number_is_read_or_left_for_the_engine_to_refuse(typed, read):
    assert read_whole_number(typed) == read


def test_a_typed_number_too_long_is_read_as_one_out_of_every_range():
    assert read_whole_number("9" * 30) == 100_000_000


def test_text_longer_than_any_number_is_not_read_as_one():
    """Issue 21: what no one types (100 KB of spaces around a number) is not parsed at all."""
    assert read_whole_number(" " * 100_000 + "5") == " " * MAX_TYPED_NUMBER
    assert read_whole_number("9" * 100_000) == "9" * MAX_TYPED_NUMBER


@pytest.mark.parametrize(
    "typed",
    [" " * 100_000 + "x", "1" * 100_000, "1," * 50_000, "1,00" + " " * 100_000],
)
@pytest.mark.parametrize("comma", [False, True])
def test_an_amount_longer_than_anyone_types_is_refused_unread(app, typed, comma):
    with app.test_request_context(), pytest.raises(ValueError, match="Enter an amount like 1"):
        read_amount(typed, decimal_comma=comma)


@pytest.mark.parametrize(
    ("typed", "cents"), [("1,50", 150), ("$ 0,25", 25), ("1,50 $", 150), (" 2,5 ", 250)]
)
def test_a_french_amount_is_still_read_with_its_spaces_and_dollar_sign(app, typed, cents):
    with app.test_request_context():
        assert read_amount(typed, decimal_comma=True) == cents


@pytest.mark.parametrize(
    ("typed", "comma", "cents"),
    [("1", False, 100), ("0.25", False, 25), ("$1,000.50", False, 100_050), ("0,25", True, 25)],
)
def test_an_amount_is_read_in_cents(app, typed, comma, cents):
    with app.test_request_context():
        assert read_amount(typed, decimal_comma=comma) == cents


@pytest.mark.parametrize("typed", ["abc", "1.234", "0,25", ""])
def test_an_amount_that_is_not_one_is_refused_with_the_pages_message(app, typed):
    with app.test_request_context(), pytest.raises(ValueError, match="Enter an amount like 1"):
        read_amount(typed)


def test_money_in_a_json_file_is_a_decimal_string_never_a_number(app):
    with app.test_request_context():
        assert read_json_amount("0.25") == 25
        for value in (0.25, 1, None, True):
            with pytest.raises(ValueError, match="Enter an amount like 1"):
                read_json_amount(value)


def test_a_whole_number_in_a_json_file_is_never_true_or_a_string():
    assert read_json_whole_number(3) == 3
    assert read_json_whole_number(3.0) == 3
    for value in (True, "3", 3.5, None):
        with pytest.raises(ValueError, match="is not a whole number"):
            read_json_whole_number(value)
