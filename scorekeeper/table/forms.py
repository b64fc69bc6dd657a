"""What the game pages accept: a new game and its rules, a deal, and one-button changes."""

import re
import uuid
from collections.abc import Callable
from typing import Any

from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
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
    InvalidTally,
    Preset,
    Rules,
    Seat,
    SkunkRule,
    Stakes,
    Tally,
    TallyProblem,
    format_money,
    tally_warnings,
    validate_tally,
)
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.engine.rules import MAX_STAKE, MAX_TARGET, MIN_TARGET
from scorekeeper.values import NOT_AN_AMOUNT, read_amount, read_whole_number
from scorekeeper.web.formatting import money as money_text
from scorekeeper.web.forms import ButtonForm, Form, name_validators, squeezed
from scorekeeper.web.languages import in_english
from scorekeeper.web.messages import PRESET_LABELS, problem_message
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

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


DEALER_CHOICES = [
    SelectChoice("random", _l("Draw at random")),
    SelectChoice("0", _l("First player")),
    SelectChoice("1", _l("Second player")),
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
        _l("Small stake ($ per 100 points)"),
        default=lambda: typed_default(100),  # $1.00
        validators=[InputRequired(message=_l("Enter the small stake, e.g. 1 or 0.25.")), _money],
    )
    big = StringField(_l("Big stake ($ per game, natural, chapeau)"), validators=[_money])

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
        if not defaults:
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


class NewGameForm(RulesForm):
    player0 = StringField(
        _l("First player"),
        validators=name_validators(_l("Enter or pick a player.")),
        filters=[squeezed],
    )
    player1 = StringField(
        _l("Second player"),
        validators=name_validators(_l("Enter or pick a player.")),
        filters=[squeezed],
    )
    first_dealer = RadioField(_l("First dealer"), choices=DEALER_CHOICES, default="random")
    submit = SubmitField(_l("Start the game"))
    # The answers to "Did you mean Alice?" (ask_about_new_names): the player to use instead
    # of the name typed, or the new name confirmed as a new player.
    use_player0 = StringField(filters=[squeezed])
    use_player1 = StringField(filters=[squeezed])
    new_player0 = StringField(filters=[squeezed])
    new_player1 = StringField(filters=[squeezed])

    #: Seat field name → the players' names its new name is close to, when the form asks.
    suggestions: dict[str, list[str]]

    def seats(self) -> list[tuple[StringField, StringField, StringField]]:
        """Each seat's name field, with its "use this player" and "yes, a new player" answers."""
        return [
            (self.player0, self.use_player0, self.new_player0),
            (self.player1, self.use_player1, self.new_player1),
        ]

    @staticmethod
    def confirmed_new(name: StringField, new: StringField) -> bool:
        """ "Yes, a new player Alcie" was tapped for the name the seat still has."""
        return bool(new.data and name.data and new.data.casefold() == name.data.casefold())

    def take_picked_players(self) -> None:
        """ "Use Alice" was tapped: that seat's name is now the player picked."""
        for name, use, _new in self.seats():
            if use.data:
                name.data = use.data

    def ask_about_new_names(self, lookalikes: Callable[[str], list[str]]) -> bool:
        """Ask "Did you mean Alice?" beside each name that would make a new player close to
        ``lookalikes(name)``, unless it was confirmed as new; True if the form asks."""
        self.suggestions = {}
        for name, _use, new in self.seats():
            if self.confirmed_new(name, new):
                continue
            if close := lookalikes(name.data or ""):
                self.suggestions[name.name] = close
        return bool(self.suggestions)

    def validate_player1(self, field: StringField) -> None:
        first, second = self.player0.data or "", field.data or ""
        if first and first.casefold() == second.casefold():
            raise ValidationError(gettext("Choose two different players."))

    @property
    def chosen_dealer(self) -> Seat | None:
        return None if self.first_dealer.data == "random" else Seat(int(self.first_dealer.data))


#: Where each of the engine's tally fields is on the form.
TALLY_FIELDS = {
    "out": "out",
    "scores.0": "score0",
    "scores.1": "score1",
    "stars.0": "stars0",
    "stars.1": "stars1",
}


#: A version as a page sends it; a longer text is none (and is not read).
MAX_VERSION_DIGITS = 9
_VERSION = re.compile(rf"[0-9]{{1,{MAX_VERSION_DIGITS}}}")


#: A one-time token as a form or a phone makes it (a UUID, with or without its dashes):
#: whatever else arrives is refused before it reaches the token's column (100 characters).
MAX_TOKEN_LENGTH = 100
_TOKEN = re.compile(rf"[A-Za-z0-9_-]{{1,{MAX_TOKEN_LENGTH}}}")


class GameChangeForm(ButtonForm):
    """A change to a game sent from a page: carries the version of the card it was made on."""

    version = HiddenField()

    @property
    def expected_version(self) -> int | None:
        """The version the page showed (None: it sent none). Anything else than a version
        matches none (0), so the change is refused as made on an out-of-date page."""
        text = self.version.data or ""
        if not text:
            return None
        if len(text) > MAX_VERSION_DIGITS or not _VERSION.fullmatch(text):
            return 0
        return int(text)


class RematchForm(ButtonForm):
    """ "Rematch": one tap, with a one-time token so a double tap starts one game, not two."""

    token = HiddenField(default=lambda: uuid.uuid4().hex)


def confirmation(tally: Tally) -> str:
    """What "Yes, save it as typed" sends: the numbers it confirms (``0 1100 50 0 0``), so a
    confirmation never carries numbers changed after the question past it unchecked."""
    return " ".join(str(number) for number in (int(tally.out), *tally.scores, *tally.stars))


class DealForm(GameChangeForm):
    """One deal's tally: who went out, two scores, and stars (which default to 0)."""

    # The engine says what a valid "out" is; the field only carries the choice.
    out = RadioField(
        _l("Who went out?"),
        choices=[SelectChoice("0", _l("First player")), SelectChoice("1", _l("Second player"))],
        validate_choice=False,
    )
    score0 = StringField(
        _l("Score"), validators=[InputRequired(message=_l("Enter the deal score."))]
    )
    score1 = StringField(
        _l("Score"), validators=[InputRequired(message=_l("Enter the deal score."))]
    )
    stars0 = StringField(_l("Stars"), default="0")
    stars1 = StringField(_l("Stars"), default="0")
    #: The one-time token of this form (a uuid4 in hex), or one a phone made for a deal
    #: kept offline: checked against ``_TOKEN`` in :meth:`validate`.
    token = HiddenField(default=lambda: uuid.uuid4().hex)
    #: The :func:`confirmation` of the tally the scorekeeper confirmed, if any.
    confirm = HiddenField(default="")
    #: The cards the tally was counted from, as JSON (the counting help fills it in).
    cards = HiddenField(default="")
    submit = SubmitField(_l("Save deal"))

    tally: Tally | None = None
    #: The deal as it is recorded, when the form corrects it: a value it already had was
    #: confirmed when it was saved and is not questioned again (an unchanged 1,005).
    accepted: Tally | None = None
    warnings: list[TallyProblem]
    #: The hidden cards, read back and counted again: None unless they give exactly the tally.
    counted: CountedCards | None = None

    def name_seats(self, names: tuple[str, str]) -> None:
        self.out.choices = [SelectChoice("0", names[0]), SelectChoice("1", names[1])]

    def fill(self, tally: Tally, cards: CountedCards | None = None) -> None:
        """Show an existing or a counted deal, with the cards it was counted from, if any."""
        self.out.data = str(int(tally.out))
        self.score0.data, self.score1.data = (str(score) for score in tally.scores)
        self.stars0.data, self.stars1.data = (str(stars) for stars in tally.stars)
        self.cards.data = cards.dumps() if cards is not None else ""

    def _went_out(self) -> int | None:
        """The seat that went out; None unless exactly one was sent (a radio button sends one
        value, so ``out=0&out=1`` is a hand-made post, refused as "not exactly one")."""
        sent = self.out.raw_data or []
        if len(sent) != 1 or sent[0] not in ("0", "1"):
            return None
        return int(sent[0])

    @property
    def cards_dropped(self) -> bool:
        """Cards came with the form but don't give its tally (numbers changed after counting)."""
        return bool(self.cards.data) and self.counted is None

    def validate(self, extra_validators: Any = None) -> bool:
        self.warnings = []
        fields_ok = super().validate(extra_validators)
        token = self.token.data or ""
        if token and (len(token) > MAX_TOKEN_LENGTH or not _TOKEN.fullmatch(token)):
            self.token.errors = [
                _l(
                    "This form was not sent as the page made it. "
                    "Reload the page and enter the deal again."
                )
            ]
            fields_ok = False
        try:
            self.tally = validate_tally(
                self._went_out(),
                (read_whole_number(self.score0.data), read_whole_number(self.score1.data)),
                (
                    read_whole_number(self.stars0.data or "0"),
                    read_whole_number(self.stars1.data or "0"),
                ),
            )
        except InvalidTally as invalid:
            for problem in invalid.problems:
                field = self[TALLY_FIELDS[problem.field]]
                if not field.errors:
                    field.errors = [*field.errors, problem_message(problem)]
            return False
        if not fields_ok:
            return False
        cards = CountedCards.loads(self.cards.data)
        self.counted = cards if cards is not None and cards.agrees_with(self.tally) else None
        # A tally counted from the cards needs no second look; a typed one may, unless
        # these very numbers were confirmed.
        if self.confirm.data != confirmation(self.tally) and self.counted is None:
            self.warnings = [w for w in tally_warnings(self.tally) if not self._accepted(w)]
        return not self.warnings

    def _accepted(self, warning: TallyProblem) -> bool:
        """The deal as recorded had the same unusual value, questioned the same way."""
        if self.accepted is None or self.tally is None:
            return False
        values, seat = warning.field.split(".")  # "scores.0": the tally's scores[0]
        same = getattr(self.tally, values)[int(seat)] == getattr(self.accepted, values)[int(seat)]
        return same and warning in tally_warnings(self.accepted)

    @property
    def refused(self) -> bool:
        """Sent and not saved: a field has a problem (``warnings`` say a question is asked)."""
        return any(field.errors for field in self)

    @property
    def confirmation(self) -> str:
        """The value of the button that confirms this form's tally."""
        return confirmation(self.tally) if self.tally is not None else ""


def preset_rules() -> dict[str, dict[str, object]]:
    """Each preset's options, for the script that fills them in when a preset is picked."""
    return {preset.value: rules_data(rules) for preset, rules in PRESETS.items()}


class AgreeForm(GameChangeForm):
    """ "I agree with this card": for the card the page showed (its version); from the game
    page, the seat whose player agrees."""

    seat = HiddenField()

    @property
    def chosen_seat(self) -> int | None:
        return int(self.seat.data) if self.seat.data in ("0", "1") else None


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
