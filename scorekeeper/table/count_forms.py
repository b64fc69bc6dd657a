"""The counting help's form (issue 8): the cards on the table and in hand.

It works without JavaScript: each player has a fixed number of set rows (a
rank, how many natural cards, how many wild twos, how many Q♠ or J♦) and the
cards left in hand by value. What the cards score, and whether two decks can
hold them, is the engine's business; :class:`CountForm` asks it and puts each
problem beside the set, the hand or the player it names.
"""

from typing import Any, Final

from werkzeug.datastructures import MultiDict
from wtforms import (
    FieldList,
    Form,
    FormField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    SubmitField,
)
from wtforms.validators import ValidationError
from wtforms.widgets import TextInput

from scorekeeper.engine import CardSet, Count, Hand, PlayerCards, Rank, Seat
from scorekeeper.engine.counted_cards import HAND_CLASSES, MAX_SETS, BadCards, CountedCards
from scorekeeper.table.change_forms import GameChangeForm
from scorekeeper.values import read_whole_number
from scorekeeper.web.messages import (
    PROBLEMS,
    RANK_SYMBOLS,
    SPECIALS_HEADING,
    lazy_hand_field_label,
    problem_message,
)
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

#: Set rows shown at once; the rest (up to one per rank) sit behind "More sets".
SHOWN_SET_ROWS: Final = 8
SET_FIELDS: Final = ("rank", "naturals", "wild_twos", "specials")
SEATS: Final = (0, 1)
RANK_CHOICES: Final = [
    SelectChoice("", "—"),
    *(SelectChoice(rank.value, RANK_SYMBOLS[rank]) for rank in Rank),
]


class CardCountField(IntegerField):
    """A number of cards: blank means none; anything but a whole number is refused beside it."""

    widget = TextInput()

    def process_formdata(self, valuelist: list[Any]) -> None:
        text = str(valuelist[0]).strip() if valuelist else ""
        if not text:
            self.data = None
            return
        number = read_whole_number(text)
        if not isinstance(number, int):
            self.data = None
            raise ValueError(gettext("Enter a whole number of cards."))
        self.data = number

    @property
    def count(self) -> int:
        return self.data or 0


class SetRowForm(Form):
    """One set on the table; an empty row is no set."""

    rank = SelectField(
        _l("Rank"),
        choices=RANK_CHOICES,
        default="",
        invalid_choice_message=_l("Choose a rank from the list."),
    )
    naturals = CardCountField(_l("Cards"))
    wild_twos = CardCountField(_l("Wild 2s"))
    specials = CardCountField(SPECIALS_HEADING)

    @property
    def filled(self) -> bool:
        return bool(self.rank.data) or any(
            self[name].count for name in ("naturals", "wild_twos", "specials")
        )

    def validate_rank(self, field: SelectField) -> None:
        if not field.data and self.filled:
            raise ValidationError(gettext("Choose the rank of this set."))

    def card_set(self) -> CardSet:
        return CardSet(
            Rank(self.rank.data), self.naturals.count, self.wild_twos.count, self.specials.count
        )


class PlayerCardsForm(Form):
    """One player's sets on the table and cards left in hand."""

    sets = FieldList(FormField(SetRowForm), min_entries=MAX_SETS, max_entries=MAX_SETS)
    queen_of_spades = CardCountField(lazy_hand_field_label("queen_of_spades"))
    jack_of_diamonds = CardCountField(lazy_hand_field_label("jack_of_diamonds"))
    twos = CardCountField(lazy_hand_field_label("twos"))
    aces = CardCountField(lazy_hand_field_label("aces"))
    tens_to_kings = CardCountField(lazy_hand_field_label("tens_to_kings"))
    threes_to_nines = CardCountField(lazy_hand_field_label("threes_to_nines"))

    def player_cards(self) -> PlayerCards:
        sets = tuple(row.form.card_set() for row in self.sets if row.form.filled)
        return PlayerCards(sets, Hand(**{name: self[name].count for name in HAND_CLASSES}))


def _packed(formdata: Any) -> MultiDict[str, Any]:
    """The form data with each player's filled set rows moved up, in order, so that
    "set 2" in a message is the second row on the page."""
    packed: MultiDict[str, Any] = MultiDict(formdata)
    for seat in SEATS:
        prefix = f"player{seat}-sets-"
        rows = [
            {name: str(formdata.get(f"{prefix}{index}-{name}", "")).strip() for name in SET_FIELDS}
            for index in range(MAX_SETS)
        ]
        filled = [row for row in rows if any(v not in ("", "0") for v in row.values())]
        blank = dict.fromkeys(SET_FIELDS, "")
        for index in range(MAX_SETS):
            row = filled[index] if index < len(filled) else blank
            for name in SET_FIELDS:
                packed.setlist(f"{prefix}{index}-{name}", [row[name]])
    return packed


class CountForm(GameChangeForm):
    """Who went out and both players' cards; valid when the engine can count them."""

    # Not "out": the deal form shown beside it on the same page has that id.
    went_out = RadioField(
        _l("Who went out?"),
        choices=[SelectChoice("0", _l("First player")), SelectChoice("1", _l("Second player"))],
        validate_choice=False,
    )
    player0 = FormField(PlayerCardsForm)
    player1 = FormField(PlayerCardsForm)
    submit = SubmitField(_l("Count"))

    names: tuple[str, str] = ("First player", "Second player")
    #: After a successful validation: the cards read from the form, and how they count.
    counted: CountedCards | None = None
    count: Count | None = None
    #: The engine's problems, by the place they name: ``players.0.sets.1``, ``players.1.hand``,
    #: ``players.0.sets`` (the player as a whole) and ``players`` (both together).
    card_errors: dict[str, list[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.card_errors = {}
        super().__init__(*args, **kwargs)

    def process(
        self, formdata: Any = None, obj: Any = None, data: Any = None, **kwargs: Any
    ) -> None:
        formdata = self.meta.wrap_formdata(self, formdata)
        if formdata is not None:
            formdata = _packed(formdata)
        super().process(formdata, obj, data=data, **kwargs)

    def name_seats(self, names: tuple[str, str]) -> None:
        self.names = names
        self.went_out.choices = [SelectChoice("0", names[0]), SelectChoice("1", names[1])]

    def player(self, seat: int) -> PlayerCardsForm:
        return self[f"player{seat}"].form

    def fill(self, out: Seat, cards: CountedCards | None) -> None:
        """Show the cards a deal was counted from (or only who went out), to count it again."""
        self.went_out.data = str(int(out))
        if cards is None:
            return
        for seat, player in zip(SEATS, cards.players, strict=True):
            form = self.player(seat)
            for row, card_set in zip(form.sets, player.sets, strict=False):
                row.rank.data = card_set.rank.value
                row.naturals.data = card_set.naturals
                row.wild_twos.data = card_set.wild_twos or None
                row.specials.data = card_set.specials or None
            for name in HAND_CLASSES:
                form[name].data = getattr(player.hand, name) or None

    def more_rows_open(self, seat: int) -> bool:
        """Whether the rows behind "More sets" hold anything to show."""
        rows = self.player(seat).sets.entries[SHOWN_SET_ROWS:]
        return any(row.form.filled or row.errors for row in rows)

    def validate_went_out(self, field: RadioField) -> None:
        if field.data not in ("0", "1"):
            raise ValidationError(str(PROBLEMS["out.missing"]))

    def validate(self, extra_validators: Any = None) -> bool:
        self.card_errors, self.counted, self.count = {}, None, None
        if not super().validate(extra_validators):
            return False
        counted = CountedCards(
            Seat(int(self.went_out.data)),
            (self.player(0).player_cards(), self.player(1).player_cards()),
        )
        try:
            self.count = counted.count(self.names)
        except BadCards as bad:
            for problem in bad.problems:
                self.card_errors.setdefault(problem.field, []).append(problem_message(problem))
            return False
        self.counted = counted
        return True
