"""What the API reads: every request body and query, declared once.

Validation (:func:`.reading.read`) and the OpenAPI description (:mod:`.openapi`)
both come from these classes. They check shapes and types only: what makes a tally
valid is the engine's (:func:`~scorekeeper.engine.validate_tally`, RULES.md §2), and
what the description says of its bounds comes from the engine's own constants.
"""

from typing import Annotated, Any, Final, Literal

from pydantic import (
    Field,
    PlainValidator,
    Strict,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from scorekeeper.engine import MAX_DEAL_SCORE, MIN_DEAL_SCORE, DifferenceRule, Preset, SkunkRule
from scorekeeper.engine.counted_cards import (
    HAND_CLASSES,
    MAX_COUNT,
    MAX_SETS,
    BadCards,
    CountedCards,
)
from scorekeeper.engine.games import KINDS
from scorekeeper.engine.rules import MAX_STAKE, MAX_TARGET, MIN_TARGET, PRESETS
from scorekeeper.engine.tally import MAX_STARS_OUT
from scorekeeper.league.queries import STATUSES
from scorekeeper.models import MAX_ID
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.web.messages import PROBLEMS, problem_fields

from .reading import (
    WHOLE,
    Missing,
    Money,
    Pair,
    PlayerName,
    QueryId,
    Shape,
    WholeNumber,
    documented,
    name,
    omitted,
    problems,
    says,
)

MAX_LEAGUE_NAME: Final = 60
VERSION_SAID: Final = "When given, the game's current version, else 409."
STANDARD: Final = PRESETS[Preset.STANDARD]
SEAT_DESCRIPTION: Final = "0: the first player named."
SEAT: Final = {"enum": [0, 1], "description": SEAT_DESCRIPTION}
#: An enum of the engine's, read from its value (a JSON string is never an enum instance).
Lax = Strict(False)


# Rules and stakes ------------------------------------------------------------------


class RulesInput(Shape):
    """Any rule option; each overrides the preset's."""

    what = "rules"
    target: Annotated[
        StrictInt,
        Field(ge=MIN_TARGET, le=MAX_TARGET, multiple_of=5),
        WHOLE,
        says(
            f"target must be a whole number, a multiple of 5 from {MIN_TARGET:,} to {MAX_TARGET:,}."
        ),
    ] = omitted(STANDARD.target)
    progressive: Annotated[StrictBool, says("{field} must be true or false.")] = omitted(False)
    natural_needed: Annotated[StrictBool, says("{field} must be true or false.")] = omitted(False)
    skunk: Annotated[SkunkRule, Lax, says(f"skunk must be one of {', '.join(SkunkRule)}.")] = (
        omitted(STANDARD.skunk)
    )
    difference: Annotated[
        DifferenceRule, Lax, says(f"difference must be one of {', '.join(DifferenceRule)}.")
    ] = omitted(STANDARD.difference)


class StakesInput(Shape):
    """big defaults to three times small. Both more than 0, at most 10,000."""

    what = "stakes"
    small: Annotated[Money, Missing('Give the small stake, such as "1.00".')]
    big: Money = omitted(0)

    @model_validator(mode="after")
    def _big_fits(self) -> "StakesInput":
        if not self.big and 3 * self.small > MAX_STAKE:
            message = (
                "The big stake (three times the small one unless given) must be at most "
                f"{MAX_STAKE // 100:,}.00."
            )
            raise problems({("big",): message}, self.small)
        return self


# A new game, a deal, a change ------------------------------------------------------


class NewGame(Shape):
    """A new game: two players of the league, the rules, the stakes, the first dealer."""

    what = "a new game"
    league: StrictStr = Field(description="The league's slug.")
    game: Annotated[Literal["mille"], says('game must be "mille" or another game of API.md.')] = (
        omitted("mille")
    )
    players: Annotated[
        Pair[PlayerName],
        says("players must be a list of the two players' names, in seat order."),
        Field(description="Two different players of the league, in seat order."),
    ]
    preset: Annotated[Preset | None, Lax, says(f"preset must be one of {', '.join(Preset)}.")] = (
        Field(None, json_schema_extra={"default": Preset.STANDARD.value})
    )
    rules: Annotated[RulesInput | None, says("rules must be an object of rule options.")] = None
    stakes: Annotated[
        StakesInput | None,
        says('stakes must be an object: {"small": "1.00", "big": "3.00"}.'),
        Field(description="Default: the league's default stakes, else 1.00 and 3.00."),
    ] = None
    first_dealer: Annotated[
        Annotated[StrictInt, Field(ge=0, le=1), WHOLE] | None,
        says("{field} must be a seat: 0 or 1."),
        Field(description="Absent or null: drawn at random."),
    ] = None


def _cards(value: object) -> CountedCards:
    """The cards by the reader the deal form and the stored column use (:mod:`..counted_cards`)."""
    if not isinstance(value, dict):
        raise problems({(): "cards must be an object, as POST /count takes it."}, value)
    try:
        return CountedCards.from_json(value)
    except BadCards as bad:
        raise problems(
            {
                tuple(int(p) if p.isdigit() else p for p in field.split(".")): messages[0]
                for field, messages in problem_fields(bad.problems).items()
            },
            value,
        ) from None


Score = Annotated[
    WholeNumber,
    says(PROBLEMS["score.not_whole"]),
    documented(minimum=MIN_DEAL_SCORE, maximum=MAX_DEAL_SCORE, multipleOf=5),
]
Stars = Annotated[
    WholeNumber, says(PROBLEMS["stars.not_whole"]), documented(minimum=0, maximum=MAX_STARS_OUT)
]
Version = Annotated[
    StrictInt,
    Field(ge=1),
    WHOLE,
    says("version must be a whole number from 1: the game's version."),
]


class DealInput(Shape):
    """A deal's tally, as POST and PUT take it; every rule of a valid tally is the engine's."""

    what = "a deal"
    out: Annotated[WholeNumber, says(PROBLEMS["out.missing"]), documented(**SEAT)]
    scores: Annotated[
        Pair[Score], says("scores must be a list of the two deal scores, in seat order.")
    ]
    naturals: Annotated[
        Pair[Stars] | None,
        says("naturals must be a list of the two star counts, in seat order."),
        Field(json_schema_extra={"default": [0, 0]}),
    ] = None
    version: Annotated[Version | None, Field(description=VERSION_SAID)] = None
    cards: Annotated[
        Any,
        PlainValidator(lambda value: None if value is None else _cards(value)),
        WithJsonSchema({"anyOf": [{"$ref": "#/components/schemas/Cards"}, {"type": "null"}]}),
        Field(
            description="The cards the deal was counted from (POST /count); "
            "kept with the deal when they count to exactly this tally."
        ),
    ] = None


class VersionInput(Shape):
    """A one-button change: nothing, or the game's version it was made against."""

    what = "this change"
    version: Version | None = None


PRINTABLE_NAME: Final = "name must be a string of printable characters."
#: What a league's or a player's name is described as, and said when it is left out.
NAMED: Final = (WithJsonSchema({"type": "string"}), Missing(PRINTABLE_NAME))

# Leagues and players -----------------------------------------------------------------


class NewLeague(Shape):
    """A new league; its slug is made from its name."""

    what = "a new league"
    name: Annotated[str, PlainValidator(name("name", MAX_LEAGUE_NAME)), *NAMED]
    public: Annotated[StrictBool | None, says("public must be true or false.")] = Field(
        None, json_schema_extra={"default": True}
    )


class NewPlayer(Shape):
    """A new player of a league."""

    what = "a new player"
    name: Annotated[str, PlainValidator(name("name", MAX_NAME_LENGTH)), *NAMED]


class PlayerRename(Shape):
    """A player's new name."""

    what = "a rename"
    name: Annotated[str, PlainValidator(name("name", MAX_NAME_LENGTH)), *NAMED]


class PlayerMerge(Shape):
    """The player to merge a player into: one person's two players made one."""

    what = "a merge"
    into: Annotated[
        StrictInt,
        Field(ge=1, le=MAX_ID),
        WHOLE,
        says(f"into must be a player's id, a whole number from 1 to {MAX_ID}."),
        Field(description="The player kept, of the same league."),
    ]
    handle: Annotated[
        Literal["into", "from"],
        says('handle must be "into" or "from".'),
        Field(
            description="Whose payment handle the player kept is paid by, when both have "
            'one: "into" (theirs, the default) or "from" (the merged player\'s).'
        ),
    ] = "into"


class NewInvitation(Shape):
    """A new invitation link to a league."""

    what = "a new invitation"
    role: Annotated[
        Literal["viewer", "scorekeeper"],
        says("role must be viewer or scorekeeper: an invitation makes no league admin."),
        Field(description="The role whoever uses the link joins with."),
    ]


# Query arguments ---------------------------------------------------------------------


class GamesQuery(Shape):
    """``GET /leagues/<slug>/games``."""

    player: StrictStr | None = Field(None, description="Only the games of this player (a name).")
    status: Annotated[
        Literal["in_progress", "finished", "unpaid", "paid"] | None,
        says(f"status must be one of {', '.join(STATUSES)}."),
        Field(description="Only these."),
    ] = None
    page: QueryId | None = Field(
        None, description="The next_page of the page before; absent: the newest."
    )


class StandingsQuery(Shape):
    """``GET /leagues/<slug>/standings``."""

    game: Annotated[
        str | None,
        PlainValidator(lambda value: None if value is None else any_kind(value)),
        WithJsonSchema({"enum": list(KINDS)}),
        Field(description="Which game's standings; absent: mille."),
    ] = None


def any_kind(value: object) -> str:
    """The name of one of the engine's games, as a request gives it."""
    if not isinstance(value, str) or value not in KINDS:
        raise PydanticCustomError("says", f"game must be one of {', '.join(KINDS)}.")
    return value


def _game_ids(value: object) -> list[int]:
    """``1,2,3``: game ids, each a whole number from 1."""
    parts = value.split(",") if isinstance(value, str) else []
    if not parts or not all(part.isdigit() and 0 < int(part) <= MAX_ID for part in parts):
        raise PydanticCustomError("says", "games must be game ids joined with commas: 12,15,16.")
    return [int(part) for part in parts]


class SettleUpQuery(Shape):
    """``GET /leagues/<slug>/settle-up``."""

    games: Annotated[
        list[int] | None,
        PlainValidator(lambda value: None if value is None else _game_ids(value)),
        WithJsonSchema({"type": "string", "pattern": r"^[0-9]+(,[0-9]+)*$"}),
        Field(
            description="The unpaid finished games to settle, by id, joined with commas; "
            "absent: tonight's (since 6 a.m. in the league's time zone)."
        ),
    ] = None


class SettleUpInput(Shape):
    """The games of a night to mark paid and locked at once."""

    what = "a night to settle"
    games: Annotated[
        list[Annotated[StrictInt, Field(ge=1, le=MAX_ID)]],
        Field(min_length=1, max_length=500),
        says("games must be a list of game ids, such as [12, 15]."),
    ]


class DeleteQuery(Shape):
    """``DELETE /games/<id>/deals/<number>``."""

    version: QueryId | None = Field(None, description="As in a deal's body.")


# The cards of POST /count, and of a deal -------------------------------------------
# Read by the reader the deal form and the stored column use (counted_cards), whose
# messages name each player; these classes describe that reader's shape.

Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]


class CardSet(Shape):
    rank: str | int = Field(
        description="2 to 10, J, Q, K or A (any case; 2 to 10 also as numbers)."
    )
    naturals: Count
    wild_twos: Count = omitted(0)
    specials: Count = Field(0, description="How many of the naturals are Q♠ or J♦.")


class Hand(Shape):
    queen_of_spades: Count = omitted(0)
    jack_of_diamonds: Count = omitted(0)
    twos: Count = omitted(0)
    aces: Count = omitted(0)
    tens_to_kings: Count = omitted(0)
    threes_to_nines: Count = omitted(0)


assert tuple(Hand.model_fields) == HAND_CLASSES


class PlayerCards(Shape):
    sets: Annotated[list[CardSet], Field(max_length=MAX_SETS)] = omitted([])
    hand: Hand = omitted(Hand())


class Cards(Shape):
    out: Annotated[int, Field(ge=0, le=1)] = Field(description=SEAT_DESCRIPTION)
    players: Pair[PlayerCards]


class CountRequest(Cards):
    names: Pair[str] | None = Field(None, description="Used in messages.")


def rules_overridden(preset: Preset | None, rules: RulesInput | None) -> dict[str, Any]:
    """The preset's rule options (standard when none) with those the request gives."""
    base = PRESETS[preset or Preset.STANDARD]
    given = {} if rules is None else rules.model_dump(exclude_unset=True)
    return {**{name: getattr(base, name) for name in RulesInput.model_fields}, **given}
