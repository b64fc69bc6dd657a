"""What the API reads of the games other than Mille: a new game of any of them, and a deal's
body, whatever the game (Mille's own are :mod:`.shapes`').

Each game's deal, rule options and stakes are declared once, in its engine module
(``deal_schema``, ``rules_schema``, ``stakes_taken``), and described here from there; what
a value may be is its engine module's to say when the deal is read (``read_deal``).
"""

from collections.abc import Callable
from typing import Annotated, Any

from pydantic import Field, PlainValidator, RootModel, StrictInt, StrictStr, WithJsonSchema
from pydantic_core import PydanticCustomError

from scorekeeper.engine.games import KINDS, GameKind
from scorekeeper.models import MAX_SEATS, MILLE

from .reading import MONEY_SCHEMA, WHOLE, Money, PlayerName, Shape, says
from .shapes import VERSION_SAID, DealInput, NewGame, any_kind


def _kinds_schema(described: Callable[[GameKind], dict[str, Any]]) -> dict[str, Any]:
    """What each game but Mille takes, as its engine module declares it."""
    return {
        "oneOf": [
            {"title": kind.name, **described(kind)} for kind in KINDS.values() if kind.name != MILLE
        ]
    }


def _deal_schema(kind: GameKind) -> dict[str, Any]:
    """A game's deal's body, with the ``version`` every change takes."""
    schema = dict(kind.deal_schema)
    properties = dict(schema["properties"])  # type: ignore[call-overload]
    properties["version"] = {"type": "integer", "minimum": 1, "description": VERSION_SAID}
    return {**schema, "properties": properties}


def _stakes_schema(kind: GameKind) -> dict[str, Any]:
    """A game's stakes: each an amount of money (those that may be left out, or null)."""
    taken = kind.stakes_taken
    return {
        "type": "object",
        "properties": {
            name: MONEY_SCHEMA if required else {"anyOf": [MONEY_SCHEMA, {"type": "null"}]}
            for name, required in taken.items()
        },
        "required": [name for name, required in taken.items() if required],
        "additionalProperties": False,
    }


def _other_kind(value: object) -> str:
    if any_kind(value) == MILLE:
        raise PydanticCustomError("says", f"game must be one of {', '.join(KINDS)}.")
    return str(value)


class NewGameOfKind(Shape):
    """A new game of any kind but Mille: its players in seat order, its rule options and its
    stakes, as its game's table in API.md says."""

    what = "a new game"
    league: StrictStr = Field(description="The league's slug.")
    game: Annotated[
        str,
        PlainValidator(_other_kind),
        WithJsonSchema({"enum": [name for name in KINDS if name != MILLE]}),
    ]
    players: Annotated[
        list[PlayerName],
        Field(min_length=2, max_length=MAX_SEATS),
        says("players must be a list of the players' names, in seat order."),
        Field(description="Different players of the league, in seat order."),
    ]
    rules: Annotated[
        dict[str, Any] | None,
        says("rules must be an object of rule options."),
        WithJsonSchema(_kinds_schema(lambda kind: dict(kind.rules_schema))),
    ] = None
    stakes: Annotated[
        dict[str, Money | None] | None,
        says('stakes must be an object of amounts, such as {"point": "0.10"}.'),
        WithJsonSchema(_kinds_schema(_stakes_schema)),
    ] = None
    first_dealer: Annotated[
        Annotated[StrictInt, Field(ge=0, lt=MAX_SEATS), WHOLE] | None,
        says("{field} must be a seat: 0 for the first player named, 1 for the next, …"),
        Field(description="Absent or null: drawn at random."),
    ] = None


class GameToStart(RootModel[NewGame | NewGameOfKind]):
    """A new game: of Mille (``game`` left out, or "mille"), or of any other game."""


class DealOfKindInput(RootModel[dict[str, Any]]):
    """A deal of any game but Mille, as its game's table in API.md says, with ``version``
    as in Mille's: what each field may hold is its game's rules (checked by its engine
    module, which names each field at fault)."""

    root: Annotated[dict[str, Any], WithJsonSchema(_kinds_schema(_deal_schema))]


class DealBody(RootModel[DealInput | DealOfKindInput]):
    """A deal's body: a game of Mille's tally, or a deal of any other game."""
