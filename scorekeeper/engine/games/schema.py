"""The JSON Schema pieces each game declares its deal's body and rule options with: data,
which the API's description shows as it is (the engine words nothing else)."""

from collections.abc import Mapping
from typing import Final

Schema = Mapping[str, object]

#: A seat: 0 for the first player named.
SEAT: Final[Schema] = {"type": "integer", "minimum": 0, "description": "A seat: 0 is the first."}
#: The side that took something (an honour): a seat, or under partnerships a pair's index
#: (side i: seats i and i + n/2).
SIDE: Final[Schema] = {"type": "integer", "minimum": 0, "description": "The side that took it."}
#: A whole number per seat, in seat order.
COUNTS: Final[Schema] = {
    "type": "array",
    "items": {"type": "integer", "minimum": 0},
    "description": "Each seat's count of the cards left in hand, in seat order.",
}
#: A game with no rule options.
NO_RULES: Final[Schema] = {"type": "object", "properties": {}, "additionalProperties": False}


def nullable(schema: Schema, description: str) -> Schema:
    """``schema``, or null (which ``description`` says the meaning of)."""
    return {"anyOf": [dict(schema), {"type": "null"}], "description": description}


def body(properties: Mapping[str, Schema], *required: str) -> Schema:
    """An object of exactly these properties, ``required`` among them."""
    return {
        "type": "object",
        "properties": {name: dict(value) for name, value in properties.items()},
        "required": list(required),
        "additionalProperties": False,
    }
