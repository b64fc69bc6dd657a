"""What changes a game in play, sent from its pages: a deal (recorded or corrected), a
rematch, an agreement with the card; each carries the version of the card it was made on."""

import re
import uuid
from typing import Any

from wtforms import (
    HiddenField,
    RadioField,
    SelectChoice,
    StringField,
    SubmitField,
)
from wtforms.validators import (
    InputRequired,
)

from scorekeeper.engine import (
    InvalidTally,
    Tally,
    TallyProblem,
    tally_warnings,
    validate_tally,
)
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.values import read_whole_number
from scorekeeper.web.forms import ButtonForm, HiddenInput, RadioInput, TextInput
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import lazy_gettext as _l

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


def well_formed_token(token: str) -> bool:
    """A token as a form or a phone makes it, or none at all (empty)."""
    return not token or (len(token) <= MAX_TOKEN_LENGTH and bool(_TOKEN.fullmatch(token)))


class GameChangeForm(ButtonForm):
    """A change to a game sent from a page: carries the version of the card it was made on."""

    version = HiddenField(widget=HiddenInput())

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

    token = HiddenField(default=lambda: uuid.uuid4().hex, widget=HiddenInput())


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
        option_widget=RadioInput(),
    )
    score0 = StringField(
        _l("Score"),
        validators=[InputRequired(message=_l("Enter the deal score."))],
        widget=TextInput(),
    )
    score1 = StringField(
        _l("Score"),
        validators=[InputRequired(message=_l("Enter the deal score."))],
        widget=TextInput(),
    )
    stars0 = StringField(_l("Stars"), default="0", widget=TextInput())
    stars1 = StringField(_l("Stars"), default="0", widget=TextInput())
    #: The one-time token of this form (a uuid4 in hex), or one a phone made for a deal
    #: kept offline: checked against ``_TOKEN`` in :meth:`validate`.
    token = HiddenField(default=lambda: uuid.uuid4().hex, widget=HiddenInput())
    #: The :func:`confirmation` of the tally the scorekeeper confirmed, if any.
    confirm = HiddenField(default="", widget=HiddenInput())
    #: The cards the tally was counted from, as JSON (the counting help fills it in).
    cards = HiddenField(default="", widget=HiddenInput())
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
        if not well_formed_token(self.token.data or ""):
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


class AgreeForm(GameChangeForm):
    """ "I agree with this card": for the card the page showed (its version); from the game
    page, the seat whose player agrees."""

    seat = HiddenField()

    @property
    def chosen_seat(self) -> int | None:
        # Any seat a game may have; whether this game has it is the service's to say.
        data = self.seat.data or ""
        return int(data) if re.fullmatch(r"[0-9]{1,2}", data) else None
