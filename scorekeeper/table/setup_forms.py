"""A game's stakes and rule options on the new-game page, built from what its engine module
declares: a money field for each stake it takes (``stakes_taken``), a checkbox for each
true-or-false option and a number for each whole-number option of its ``rules_schema``.
Nothing here knows one game from another; the labels are ``web/game_words.py``'s, and
whether a setup is valid is the engine's to say (:meth:`SetupForm.check`).

Mille's own rules and stakes are :class:`.forms.RulesForm`: presets, skunk and the rest.
"""

from collections.abc import Mapping
from typing import Any, ClassVar

from wtforms import BooleanField, Field, StringField
from wtforms.validators import ValidationError
from wtforms.widgets import NumberInput

from scorekeeper.engine.games import GameKind, Problem, Refused
from scorekeeper.values import NOT_AN_AMOUNT, read_amount, read_whole_number
from scorekeeper.web.forms import Form
from scorekeeper.web.game_words import RULE_LABELS, STAKE_LABELS
from scorekeeper.web.languages import in_english
from scorekeeper.web.messages import problem_message

from .forms import typed_default

#: A stake's field is ``stake_<name>``, a rule option's ``rule_<name>``: never a name the
#: form itself has (``data``, ``errors``), whatever a game calls them.
STAKE, RULE = "stake_", "rule_"


def _amount(_form: Any, field: StringField) -> None:
    """A stake as typed: an amount of money, or nothing (the engine says if one is needed)."""
    if field.data:
        try:
            read_amount(field.data, decimal_comma=not in_english())
        except ValueError:
            raise ValidationError(str(NOT_AN_AMOUNT)) from None


class SetupForm(Form):
    """One game's stakes and rule options, each field's name led by the game's
    (``<game>-stake_point``), part of the new-game form."""

    class Meta:
        csrf = False  # a part of the new-game form, which has the token

    kind: ClassVar[GameKind]
    #: Each rule option by name: its JSON Schema (``{"type": "integer", "minimum": 1}``).
    options: ClassVar[Mapping[str, Mapping[str, Any]]]

    def stakes(self) -> list[tuple[str, Field]]:
        """Each stake's name and field, in the order the game declares them."""
        return [(name, self[STAKE + name]) for name in self.kind.stakes_taken]

    def rules(self) -> list[tuple[str, Field, Mapping[str, Any]]]:
        """Each rule option's name, field and schema."""
        return [(name, self[RULE + name], schema) for name, schema in self.options.items()]

    def stake_cents(self) -> dict[str, int | None]:
        """The stakes as cents, each one left empty as None (call after validating)."""
        comma = not in_english()
        return {
            name: read_amount(field.data, decimal_comma=comma) if field.data else None
            for name, field in self.stakes()
        }

    def rule_values(self) -> dict[str, object]:
        """The rule options as the engine reads them: a whole number as typed (the engine
        refuses one that isn't), a checkbox as true or false, an empty field left out."""
        values: dict[str, object] = {}
        for name, field, schema in self.rules():
            if schema.get("type") == "boolean":
                values[name] = bool(field.data)
            elif field.data not in (None, ""):
                values[name] = read_whole_number(str(field.data))
        return values

    def check(self, players: int) -> list[Problem]:
        """Ask the engine whether this setup is valid for ``players``: each problem with a
        stake or an option is put beside its field; the ones about the players are
        returned, for the form to show beside them."""
        try:
            self.kind.setup(players, self.rule_values(), self.stake_cents())
        except Refused as refused:
            return self.place(refused.problems)
        return []

    def place(self, problems: tuple[Problem, ...]) -> list[Problem]:
        """Each problem beside its field; the ones no field of this form is for, returned."""
        elsewhere = []
        for problem in problems:
            area, _, name = problem.field.partition(".")
            prefix = {"stakes": STAKE, "rules": RULE}.get(area)
            if prefix is None or prefix + name not in self:
                elsewhere.append(problem)
                continue
            field, message = self[prefix + name], problem_message(problem)
            if message not in field.errors:
                field.errors = [*field.errors, message]
        return elsewhere

    @classmethod
    def data_of(cls, last: Mapping[str, Any] | None) -> dict[str, Any]:
        """The fields' values from a setup the league kept (``League.last_setup``), else
        the options' declared defaults and no stake."""
        rules = (last or {}).get("rules") or {}
        stakes = (last or {}).get("stakes") or {}
        data: dict[str, Any] = {}
        for name, schema in cls.options.items():
            data[RULE + name] = rules.get(name, schema.get("default"))
        for name in cls.kind.stakes_taken:
            cents = stakes.get(name)
            data[STAKE + name] = typed_default(cents) if isinstance(cents, int) else ""
        return data


def _rule_field(name: str, schema: Mapping[str, Any]) -> Field:
    label = RULE_LABELS.get(name, name)
    kind = schema.get("type")
    if kind == "boolean":
        return BooleanField(label, default=bool(schema.get("default", False)))
    if kind == "integer":
        bounds = {key[:3]: schema[key] for key in ("minimum", "maximum") if key in schema}
        return StringField(
            label, widget=NumberInput(), default=schema.get("default"), render_kw=bounds
        )
    raise TypeError(f"no field for the rule option {name!r} of type {kind!r}")


#: Each game's form, by its name, made when first asked for.
_FORMS: dict[str, type[SetupForm]] = {}


def setup_form(kind: GameKind) -> type[SetupForm]:
    """The form of ``kind``'s stakes and rule options (one class per game, made once)."""
    if kind.name not in _FORMS:
        _FORMS[kind.name] = _made(kind)
    return _FORMS[kind.name]


def _made(kind: GameKind) -> type[SetupForm]:
    properties = kind.rules_schema.get("properties")
    options = dict(properties) if isinstance(properties, Mapping) else {}
    fields: dict[str, Any] = {
        STAKE + name: StringField(STAKE_LABELS.get(name, name), validators=[_amount])
        for name in kind.stakes_taken
    }
    fields |= {RULE + name: _rule_field(name, schema) for name, schema in options.items()}
    attributes = {"kind": kind, "options": options, **fields}
    return type(f"SetupForm_{kind.name.replace('-', '_')}", (SetupForm,), attributes)
