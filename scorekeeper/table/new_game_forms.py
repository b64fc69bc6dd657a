"""What the new-game page accepts: which game, its players in seat order, who deals first,
and its rules and stakes.

The default game's rules and stakes are this form's own fields (:class:`.forms.RulesForm`:
presets, skunk and the rest, started by ``starting.start_game``); every other game's come
from what its engine module declares (:mod:`.setup_forms`), all of them on the page, so a
script can show another game's at once and nothing typed is lost. Nothing here names a
game: the games, their players and their fields are the engine's ``KINDS``.
"""

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from wtforms import (
    HiddenField,
    RadioField,
    SelectChoice,
    StringField,
    SubmitField,
)
from wtforms.validators import Optional, ValidationError

from scorekeeper.engine import Seat
from scorekeeper.engine.games import KINDS, GameKind, Problem
from scorekeeper.engine.tally import problem
from scorekeeper.models import MILLE, League, Player
from scorekeeper.web.forms import name_validators, squeezed
from scorekeeper.web.game_words import GAME_NAMES
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import gettext
from scorekeeper.web.translation import lazy_gettext as _l

from .forms import RulesForm
from .setup_forms import SetupForm, setup_form

#: The game a new game is unless another is picked (``models.MILLE``), Mille's path of
#: today: its rules and stakes are the form's own fields.
DEFAULT_GAME = MILLE
#: A player row for each seat of the game that seats the most.
SEATS = max(kind.max_players for kind in KINDS.values())
#: Every game takes at least two players: their rows must be filled in.
REQUIRED_ROWS = 2

#: Each row's label, in seat order.
SEAT_LABELS = (
    _l("First player"),
    _l("Second player"),
    _l("Third player"),
    _l("Fourth player"),
    _l("Fifth player"),
    _l("Sixth player"),
    _l("Seventh player"),
    _l("Eighth player"),
    _l("Ninth player"),
    _l("Tenth player"),
    _l("Eleventh player"),
    _l("Twelfth player"),
)

DEALER_CHOICES = [
    SelectChoice("random", _l("Draw at random")),
    *(SelectChoice(str(row), SEAT_LABELS[row]) for row in range(SEATS)),
]


def other_kinds() -> list[GameKind]:
    """Every game but the default one, in the engine's order."""
    return [kind for kind in KINDS.values() if kind.name != DEFAULT_GAME]


def _row_count(text: str | None) -> int:
    """The rows a page said it showed (its own hidden field): 0 unless a small number."""
    return int(text) if text and text.isdigit() and len(text) <= 2 else 0


class NewGameForm(RulesForm):
    game = RadioField(
        _l("Which game"),
        choices=[SelectChoice(name, GAME_NAMES.get(name, name)) for name in KINDS],
        default=DEFAULT_GAME,
    )
    # The game whose fields the page showed when it was sent (the script keeps it up to
    # date as another is picked), and how many player rows it showed.
    shown_game = HiddenField()
    rows = HiddenField()
    show_game = SubmitField(_l("Show this game's options"))
    more = SubmitField(_l("Add a player"))
    player0 = StringField(
        SEAT_LABELS[0],
        validators=name_validators(_l("Enter or pick a player.")),
        filters=[squeezed],
    )
    player1 = StringField(
        SEAT_LABELS[1],
        validators=name_validators(_l("Enter or pick a player.")),
        filters=[squeezed],
    )
    first_dealer = RadioField(_l("First dealer"), choices=DEALER_CHOICES, default="random")
    submit = SubmitField(_l("Start the game"))
    # The answers to "Did you mean Alice?" (ask_about_new_names): the player to use instead
    # of the name typed, or the new name confirmed as a new player. Each row has a pair.
    use_player0 = StringField(filters=[squeezed])
    use_player1 = StringField(filters=[squeezed])
    new_player0 = StringField(filters=[squeezed])
    new_player1 = StringField(filters=[squeezed])

    #: The game picked unless another is (the page shows its rules as they always were).
    default_game: ClassVar[str] = DEFAULT_GAME
    #: Seat field name → the players' names its new name is close to, when the form asks.
    suggestions: dict[str, list[str]]
    #: Every other game's stakes and options, by the game's name.
    setups: dict[str, SetupForm]
    #: What is wrong with the players as a whole (how many), shown beside them.
    players_errors: list[str]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        given = {"formdata": kwargs["formdata"]} if "formdata" in kwargs else {}
        self.setups = {
            kind.name: setup_form(kind)(prefix=kind.name, **given) for kind in other_kinds()
        }
        self.suggestions, self.players_errors = {}, []

    @classmethod
    def for_league(cls, league: League) -> "NewGameForm":
        """A blank form: the default game's rules and stakes as the league's settings say
        them, every other game's as its last game in the league was started with."""
        form: NewGameForm = cls.from_defaults(league.defaults)
        for kind in other_kinds():
            found = setup_form(kind)
            last = found.data_of(league.last_setup(kind.name))
            form.setups[kind.name] = found(formdata=None, prefix=kind.name, data=last)
        return form

    # --- the game ------------------------------------------------------------------------

    @property
    def kind(self) -> GameKind:
        """The game picked (the default one when what was sent names none)."""
        return KINDS.get(self.game.data or "", KINDS[DEFAULT_GAME])

    @property
    def own_rules(self) -> bool:
        """The game picked is the default one, whose rules and stakes are this form's own."""
        return self.kind.name == DEFAULT_GAME

    @property
    def setup(self) -> SetupForm:
        """The stakes and options of the game picked (not the default one)."""
        return self.setups[self.kind.name]

    def only_shown(self) -> bool:
        """The form is to be shown again, not a game started: another game's fields or one
        more player row was asked for, or (without the script) Start was pressed with a
        game picked whose fields the page did not show yet, which it then says."""
        if self.show_game.data or self.more.data:
            return True
        if (self.shown_game.data or DEFAULT_GAME) != self.kind.name:
            self.game.errors = [
                gettext(
                    "Now showing %(game)s: check its players, stakes and rules, then start.",
                    game=GAME_NAMES.get(self.kind.name, self.kind.name),
                )
            ]
            return True
        return False

    # --- the players ---------------------------------------------------------------------

    def seats(self) -> list[tuple[StringField, StringField, StringField]]:
        """Each row's name field, with its "use this player" and "yes, a new player" answers."""
        return [
            (self[f"player{row}"], self[f"use_player{row}"], self[f"new_player{row}"])
            for row in range(SEATS)
        ]

    def typed(self) -> list[tuple[int, str]]:
        """Each row with a name in it, and the name: the players in seat order."""
        return [(row, name.data) for row, (name, _, _) in enumerate(self.seats()) if name.data]

    def rows_shown(self) -> int:
        """How many player rows the page shows: the game's fewest players, more when asked
        for ("Add a player") up to its most, and every row with a name in it."""
        kind = self.kind
        asked = _row_count(self.rows.data) + (1 if self.more.data else 0)
        typed = max((row + 1 for row, _ in self.typed()), default=0)
        return min(SEATS, max(kind.min_players, min(asked, kind.max_players), typed))

    def seat_field(self, seat: int) -> StringField:
        """The name field of the player in ``seat`` (rows left empty are no seat)."""
        rows = [row for row, _ in self.typed()]
        return self[f"player{rows[seat] if seat < len(rows) else 0}"]

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
            if not name.data or self.confirmed_new(name, new):
                continue
            if close := lookalikes(name.data):
                self.suggestions[name.name] = close
        return bool(self.suggestions)

    # --- who deals first -----------------------------------------------------------------

    @property
    def chosen_dealer(self) -> Seat | None:
        """The default game's first dealer (after validating)."""
        return None if self.first_dealer.data == "random" else Seat(int(self.first_dealer.data))

    @property
    def dealer_seat(self) -> int | None:
        """Another game's first dealer: the seat of the row picked (after validating)."""
        if self.first_dealer.data == "random":
            return None
        return [row for row, _ in self.typed()].index(int(self.first_dealer.data))

    # --- validating ----------------------------------------------------------------------

    def validate(self, extra_validators: Mapping[str, Any] | None = None) -> bool:
        """Every field of the game picked, then the engine's word on its setup; the default
        game's rules and stakes are left alone when another game is picked (hidden, they
        are not its own)."""
        valid = super().validate(extra_validators)
        self._no_one_twice()
        kind, count = self.kind, len(self.typed())
        problems: list[Problem] = []
        if not self.own_rules:
            for field in self.rule_and_stake_fields():
                field.errors = []
            if self.setup.validate():
                problems = self.setup.check(count)
        elif count > kind.max_players:  # rows another game had, left filled in
            low, high = kind.min_players, kind.max_players
            problems = [problem("players", "players.range", low=low, high=high)]
        if count < REQUIRED_ROWS:
            problems = []  # each empty row says what it needs
        self.players_errors = [problem_message(each) for each in problems]
        fields_valid = valid if self.own_rules else not any(field.errors for field in self)
        return fields_valid and not self.players_errors and not self.setup_errors()

    def setup_errors(self) -> bool:
        """Whether the picked game's own stakes and options have a problem (not the default
        game: its fields are this form's)."""
        return not self.own_rules and any(field.errors for field in self.setup)

    def _no_one_twice(self) -> None:
        """Each player sits at the table once: a name typed again is refused beside it."""
        seen: set[str] = set()
        for row, name in self.typed():
            field = self[f"player{row}"]
            if Player.key(name) in seen and not field.errors:
                field.errors = [
                    gettext(
                        "Each player can sit at the table once: %(name)s is there already.",
                        name=name,
                    )
                ]
            seen.add(Player.key(name))

    def validate_player1(self, field: StringField) -> None:
        first, second = self.player0.data or "", field.data or ""
        if first and first.casefold() == second.casefold():
            raise ValidationError(gettext("Choose two different players."))

    def validate_first_dealer(self, field: RadioField) -> None:
        """Draw at random, or a row with a player in it, of the game picked."""
        if field.data == "random" or not str(field.data).isdigit():
            return  # not a choice at all: the field says so already
        row = int(field.data)
        if row >= min(SEATS, self.kind.max_players) or (
            row >= REQUIRED_ROWS and not self[f"player{row}"].data
        ):
            raise ValidationError(gettext("The first dealer must be one of the players."))


def _each_row_from_the_third() -> None:
    """The rows past the two every game fills in: optional, each one a name when filled."""
    for row in range(REQUIRED_ROWS, SEATS):
        rules = name_validators(_l("Enter or pick a player."))[1:]  # all but "required"
        field = StringField(SEAT_LABELS[row], validators=[Optional(), *rules], filters=[squeezed])
        setattr(NewGameForm, f"player{row}", field)
        setattr(NewGameForm, f"use_player{row}", StringField(filters=[squeezed]))
        setattr(NewGameForm, f"new_player{row}", StringField(filters=[squeezed]))


_each_row_from_the_third()
