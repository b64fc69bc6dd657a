"""Reading a request into its declared shape: the thin layer between pydantic and API.md.

A shape (:mod:`.shapes`) is a :class:`Shape`: strict types (never ``true`` or ``"7"``
for a number), no unknown field at any level. :func:`read` turns pydantic's
:class:`~pydantic.ValidationError` into the API's 422: ``fields`` keyed by the
field's path joined with dots (``scores.1``, ``stakes.small``), each message the
one the shape declares for that field with :func:`says`, so the wording is the
API's, not pydantic's. Values are read by the readers the pages use: money by
:func:`~scorekeeper.engine.money.parse_money`, names by :mod:`scorekeeper.names`,
whole numbers by :func:`~scorekeeper.engine.whole_number`.
"""

import re
from collections.abc import Callable, Mapping
from typing import Annotated, Any, ClassVar, Final, TypeVar

from flask_babel.speaklater import LazyString
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StrictInt,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
    model_validator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError

from scorekeeper.engine import whole_number
from scorekeeper.engine.money import parse_money
from scorekeeper.engine.rules import MAX_STAKE
from scorekeeper.models import MAX_ID
from scorekeeper.names import MAX_NAME_LENGTH, squeeze, unseen
from scorekeeper.web.messages import english

from .core import invalid

T = TypeVar("T")
S = TypeVar("S", bound="Shape")
Loc = tuple[str | int, ...]

#: Money in a request: a decimal string with at most two places, "1", "0.25", "1.50".
MONEY_PATTERN: Final = r"^[0-9]{1,7}(\.[0-9]{1,2})?$"
_MONEY = re.compile(MONEY_PATTERN)


def problems(found: Mapping[Loc, str], value: object) -> ValidationError:
    """A ValidationError with these messages at these places (relative to the value read)."""
    details: list[InitErrorDetails] = [
        {"type": PydanticCustomError("says", message), "loc": loc, "input": value}
        for loc, message in found.items()
    ]
    return ValidationError.from_exception_data("request", details)


def says(message: str | LazyString) -> WrapValidator:
    """The one message for anything wrong with this value itself (its type, its bounds,
    its length); what is wrong inside it keeps its own message. ``{field}``: its name.
    A message of the catalog (lazy) is said in English, as the API says everything."""

    def wrap(value: object, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        try:
            return handler(value)
        except ValidationError as error:
            if any(not found["loc"] for found in error.errors()):
                raise PydanticCustomError(
                    "says", english(message).replace("{field}", str(info.field_name))
                ) from None
            raise

    wrap.message = message  # type: ignore[attr-defined]
    return WrapValidator(wrap)


class Missing:
    """The message for a required field left out (or ``null``) whose value has no
    :func:`says` of its own: its reader has its own messages."""

    def __init__(self, message: str) -> None:
        self.message = message


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)


def omitted(default: T) -> T:
    """A default for a field that may be left out but is never ``null``; the description
    names no default (the preset's or the league's applies, not this one)."""
    return Field(default, json_schema_extra=_no_default)  # type: ignore[no-any-return]


def documented(**schema: Any) -> Any:
    """What the description says of a value whose rule the engine checks, not the shape."""
    return Field(json_schema_extra=schema)


class Shape(BaseModel):
    """A request body (or query) as the API reads it: strict, and closed at every level."""

    # defer_build: built when first used, not at every start (issue 26).
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True, defer_build=True)
    #: How an unknown field's message names this shape: '"x" is not a field of {what}.'
    what: ClassVar[str] = "this request"

    @model_validator(mode="wrap")
    @classmethod
    def _in_our_words(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """An unknown or a missing field of this shape, said as the API says it."""
        try:
            return handler(data)
        except ValidationError as error:
            raise problems(cls._worded(error), data) from None

    @classmethod
    def _worded(cls, error: ValidationError) -> dict[Loc, str]:
        worded: dict[Loc, str] = {}
        for found in error.errors():
            loc, message = found["loc"], found["msg"]
            if found["type"] == "extra_forbidden" and len(loc) == 1:
                message = f'"{loc[0]}" is not a field of {cls.what}.'
            elif found["type"] == "missing" and len(loc) == 1:
                field = cls.model_fields[str(loc[0])]
                said = [
                    getattr(m, "message", None) or m.func.message
                    for m in field.metadata
                    if isinstance(m, Missing) or hasattr(getattr(m, "func", None), "message")
                ]
                message = english(said[0]).replace("{field}", str(loc[0])) if said else message
            worded.setdefault(loc, message)
        return worded


def fields_of(error: ValidationError) -> dict[str, list[str]]:
    """API.md's ``fields``: each message under its field's path joined with dots."""
    fields: dict[str, list[str]] = {}
    for found in error.errors():
        fields.setdefault(".".join(map(str, found["loc"])), []).append(found["msg"])
    return fields


def read(shape: type[S], data: object) -> S:
    """``data`` as ``shape``, or a 422 naming every field at fault."""
    try:
        return shape.model_validate(data)
    except ValidationError as error:
        raise invalid(fields_of(error)) from None


# The values the pages read too ------------------------------------------------------


def _whole(value: object) -> object:
    """A whole number as the engine reads it (``3`` or ``3.0``, never ``true``); anything
    else as it came, for the strict integer to refuse."""
    number = whole_number(value)
    return value if number is None else number


#: After a strict integer and its bounds: a whole float such as 3.0 reads as 3, as the engine
#: reads it (last, so that pydantic keeps the bounds on the integer itself).
WHOLE: Final = BeforeValidator(_whole)
#: An integer (3, or 3.0); never a bool or a string.
WholeNumber = Annotated[StrictInt, WHOLE]


def _money(value: object) -> int:
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise PydanticCustomError(
            "says", 'Money is a decimal string such as "1.00", never a JSON number (it is exact).'
        )
    if not isinstance(value, str) or not _MONEY.fullmatch(value):
        raise PydanticCustomError(
            "says", 'Money is a decimal string with at most two places, such as "0.25".'
        )
    cents = parse_money(value)
    if not 0 < cents <= MAX_STAKE:
        raise PydanticCustomError("says", STAKE_RANGE)
    return cents


STAKE_RANGE: Final = f"A stake must be more than 0.00 and at most {MAX_STAKE // 100:,}.00."
#: How money in a request is described.
MONEY_SCHEMA: Final = {
    "type": "string",
    "pattern": MONEY_PATTERN,
    "description": "A decimal string with at most two places; a JSON number is a 422.",
    "examples": ["1.00", "0.25"],
}
#: An amount of money in cents, sent as a decimal string (a JSON number is a 422).
Money = Annotated[int, PlainValidator(_money), WithJsonSchema(MONEY_SCHEMA)]


def name(label: str, most: int) -> Callable[[object], str]:
    """The reader of a name, kept as the pages keep it: squeezed (:func:`~scorekeeper.names.
    squeeze`), 1 to ``most`` characters, nothing a name can't hold (:func:`~scorekeeper.names.
    unseen`)."""

    def read_name(value: object) -> str:
        if not isinstance(value, str) or unseen(value) == "control":
            raise PydanticCustomError("says", f"{label} must be a string of printable characters.")
        if unseen(value) == "invisible":
            raise PydanticCustomError(
                "says",
                f"{label} can't contain invisible characters "
                "(such as a zero-width space, a soft hyphen or a right-to-left mark).",
            )
        cleaned = squeeze(value)
        if not 1 <= len(cleaned) <= most:
            raise PydanticCustomError("says", f"{label} must have 1 to {most} characters.")
        return cleaned

    return read_name


#: A player's name (the league's and the player's readers are the pages').
PlayerName = Annotated[
    str, PlainValidator(name("A name", MAX_NAME_LENGTH)), WithJsonSchema({"type": "string"})
]


def _query_id(value: object, info: ValidationInfo) -> int:
    if not (isinstance(value, str) and value.isascii() and value.isdigit()) or not (
        0 < int(value) <= MAX_ID
    ):
        raise PydanticCustomError(
            "says", f"{info.field_name} must be a whole number from 1 to {MAX_ID}."
        )
    return int(value)


#: A row id in the query string: ASCII digits, 1 to MAX_ID.
QueryId = Annotated[
    int,
    PlainValidator(_query_id),
    WithJsonSchema({"type": "integer", "minimum": 1, "maximum": MAX_ID}),
]

#: A per-player list: two values, in seat order.
Pair = Annotated[list[T], Field(min_length=2, max_length=2)]
