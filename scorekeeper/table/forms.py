"""What the game pages accept before play and beside it: Mille's rules and stakes (a new
game's, a league's defaults), where a player is paid. The new-game form is in
:mod:`.new_game_forms`; a deal and the other changes to a game in play are in
:mod:`.change_forms`."""

from typing import Any

from flask_babel.speaklater import LazyString
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    IntegerField,
    RadioField,
    SelectChoice,
    StringField,
    SubmitField,
)
from wtforms.validators import (
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from scorekeeper.engine import (
    PRESETS,
    DifferenceRule,
    Preset,
    Rules,
    SkunkRule,
    Stakes,
    format_money,
)
from scorekeeper.engine.rules import MAX_STAKE, MAX_TARGET, MIN_TARGET
from scorekeeper.values import NOT_AN_AMOUNT, read_amount
from scorekeeper.web.formatting import currency_sign
from scorekeeper.web.formatting import money as money_text
from scorekeeper.web.forms import Form
from scorekeeper.web.languages import in_english
from scorekeeper.web.messages import PRESET_LABELS
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

#: The sign of the page's currency, written when a label is ("$", "€", "$ US").
_SIGN = LazyString(currency_sign)

SKUNK_CHOICES = [
    SelectChoice(
        SkunkRule.MULTIPLY.value, _l("Multiply: below half the target doubles, below zero triples")
    ),
    SelectChoice(SkunkRule.MARK.value, _l("Mark: below half the target pays one more big stake")),
]


DIFFERENCE_CHOICES = [
    SelectChoice(
        DifferenceRule.ROUND.value, _l("Round each total to the nearest 100 (50 rounds up)")
    ),
    SelectChoice(DifferenceRule.CEIL.value, _l("Every started 100 of the difference")),
]


def typed_default(cents: int) -> str:
    """An amount as a stake field shows it: ``0.25`` on an English page, ``0,25`` on a French."""
    text = format_money(cents)
    return text if in_english() else text.replace(".", ",")


def _money(form: FlaskForm, field: StringField) -> None:
    if not field.data:
        return
    try:
        cents = read_amount(field.data, decimal_comma=not in_english())
    except ValueError:
        raise ValidationError(str(NOT_AN_AMOUNT)) from None
    if cents <= 0:
        raise ValidationError(gettext("A stake must be more than zero."))
    if cents > MAX_STAKE:
        raise ValidationError(
            gettext("A stake must be more than 0 and at most %(most)s.", most=money_text(MAX_STAKE))
        )


def rules_data(rules: Rules) -> dict[str, Any]:
    """A rule set as form data (and as a league's stored defaults)."""
    preset = rules.matching_preset()
    return {
        "preset": preset.value if preset else None,
        "target": rules.target,
        "progressive": rules.progressive,
        "natural_needed": rules.natural_needed,
        "skunk": rules.skunk.value,
        "difference": rules.difference.value,
    }


class RulesForm(Form):
    """The rules and stakes of a game: a new game's, or a league's defaults for new games."""

    preset = RadioField(
        _l("Rules"),
        choices=[SelectChoice(preset.value, PRESET_LABELS[preset]) for preset in Preset],
        default=Preset.STANDARD.value,
        validate_choice=False,  # only a starting point: the options below are what counts
    )
    apply_preset = SubmitField(_l("Fill in these rules"))
    target = IntegerField(
        _l("Target"),
        default=PRESETS[Preset.STANDARD].target,
        validators=[
            InputRequired(message=_l("Enter the target, e.g. 1200.")),
            NumberRange(MIN_TARGET, MAX_TARGET, message=_l("The target is from 100 to 10,000.")),
        ],
    )
    progressive = BooleanField(_l("Progressive: a 2nd natural or chapeau pays 2×, a 3rd 3× …"))
    natural_needed = BooleanField(_l("A natural is needed to win"))
    skunk = RadioField(_l("Skunk"), choices=SKUNK_CHOICES, default=SkunkRule.MULTIPLY.value)
    difference = RadioField(
        _l("Point difference"), choices=DIFFERENCE_CHOICES, default=DifferenceRule.ROUND.value
    )
    small = StringField(
        _l("Small stake (%(sign)s per 100 points)", sign=_SIGN),
        default=lambda: typed_default(100),  # $1.00
        validators=[InputRequired(message=_l("Enter the small stake, e.g. 1 or 0.25.")), _money],
    )
    big = StringField(
        _l("Big stake (%(sign)s per game, natural, chapeau)", sign=_SIGN), validators=[_money]
    )

    def validate_target(self, field: IntegerField) -> None:
        if field.data is not None and field.data % 5:
            raise ValidationError(gettext("The target must be a multiple of 5."))

    def validate_big(self, field: StringField) -> None:
        """Left empty, the big stake is three times the small one: that too has a limit."""
        if field.data or self.small.errors:
            return
        if 3 * read_amount(self.small.data or "", decimal_comma=not in_english()) > MAX_STAKE:
            raise ValidationError(
                gettext(
                    "Three times the small stake is more than %(most)s: enter the big stake.",
                    most=money_text(MAX_STAKE),
                )
            )

    @classmethod
    def for_preset(cls, preset: Preset, prefix: str = "", **kept: Any) -> Any:
        """A blank form with the preset's options filled in, keeping ``kept`` fields."""
        return cls(formdata=None, prefix=prefix, data={**rules_data(PRESETS[preset]), **kept})

    def preset_to_fill(self) -> Preset | None:
        """The preset whose options the form is to be shown with instead of being saved: the
        one picked when "Fill in these rules" was pressed, or one picked while the options
        are still exactly another preset's. (Without JavaScript, picking a preset changes
        nothing below it; a tap on Progressive mustn't quietly start a Standard game.)"""
        if not self.is_submitted() or self.preset.data not in set(Preset):
            return None
        picked = Preset(self.preset.data)
        if self.apply_preset.data:
            return picked
        try:
            shown = self.rules.matching_preset()
        except ValueError:  # an option out of range: validation will say so
            return None
        return picked if shown not in (None, picked) else None

    def refilled(self, then: str, prefix: str = "", **kept: Any) -> Any | None:
        """The form again with the options of :meth:`preset_to_fill`, keeping ``kept``
        fields; None when there is nothing to fill in. Filled in without being asked for,
        it says so beside the presets ("… Check them, then ``then``")."""
        preset = self.preset_to_fill()
        if preset is None:
            return None
        filled = type(self).for_preset(preset, prefix=prefix, **kept)
        if not self.apply_preset.data:
            filled.preset.errors = [
                gettext(
                    "The options below now follow %(preset)s. Check them, then %(then)s.",
                    preset=PRESET_LABELS[preset],
                    then=then,
                )
            ]
        return filled

    @classmethod
    def from_defaults(cls, defaults: dict[str, Any] | None, prefix: str = "") -> Any:
        """A form showing a league's defaults (or the Standard preset and $1–$3).

        Submitted data, when there is some, is shown instead.
        """
        if not defaults or "rules" not in defaults:  # only other games' setups kept
            return cls(prefix=prefix)
        stakes = defaults["stakes"]
        data = {
            **defaults["rules"],
            "small": typed_default(stakes["small"]),
            "big": typed_default(stakes["big"]),
        }
        return cls(prefix=prefix, data=data)

    @property
    def rules(self) -> Rules:
        return Rules(
            target=self.target.data or 0,
            progressive=self.progressive.data,
            natural_needed=self.natural_needed.data,
            skunk=SkunkRule(self.skunk.data),
            difference=DifferenceRule(self.difference.data),
        )

    @property
    def stakes(self) -> Stakes:
        comma = not in_english()
        small = read_amount(self.small.data or "", decimal_comma=comma)
        big = read_amount(self.big.data, decimal_comma=comma) if self.big.data else 3 * small
        return Stakes(small=small, big=big)

    @property
    def summary(self) -> tuple[Rules, Stakes] | None:
        """The rules and stakes as the fields hold them, to be shown in a line; None while
        a field can't be read (its message is shown beside it)."""
        if any(field.errors for field in self.rule_and_stake_fields()):
            return None
        try:
            return self.rules, self.stakes
        except (ValueError, TypeError):
            return None

    def rule_and_stake_fields(self) -> list[Any]:
        return [
            self.preset,
            self.target,
            self.progressive,
            self.natural_needed,
            self.skunk,
            self.difference,
            self.small,
            self.big,
        ]

    @property
    def defaults(self) -> dict[str, Any]:
        """The rules and stakes as a league keeps them for new games."""
        stakes = self.stakes
        return {
            "rules": rules_data(self.rules),
            "stakes": {"small": stakes.small, "big": stakes.big},
        }


def preset_rules() -> dict[str, dict[str, object]]:
    """Each preset's options, for the script that fills them in when a preset is picked."""
    return {preset.value: rules_data(rules) for preset, rules in PRESETS.items()}


class PaymentHandleForm(Form):
    """Where a player is paid: how, and the address, number or name (empty: none)."""

    kind = RadioField(
        _l("How"),
        choices=[
            SelectChoice("email", _l("Interac e-Transfer to an e-mail address")),
            SelectChoice("phone", _l("Interac e-Transfer to a phone number")),
            SelectChoice("paypal", _l("PayPal.me")),
        ],
        default="email",
        validate_choice=False,  # read (and refused with a message) by read_handle
    )
    handle = StringField(
        _l("E-mail address, phone number or PayPal.me name"),
        validators=[Optional(), Length(max=254)],
    )
    save = SubmitField(_l("Save how I am paid"))
