"""What every deal form of a game other than Mille shares: the version, token and
confirmation a deal carries, the engine's reading of what was typed, and its problems put
beside the fields that caused them.

A game's form (one module of this package each) declares its fields for a table of so
many players and sides (:meth:`KindDealForm.fields`), builds the deal's body from them as
the API takes it (:meth:`KindDealForm.entry`), and shows a stored deal again
(:meth:`KindDealForm.fill`). Its fields are named after the body's: the engine's problem
at ``counts.2`` is shown at the field ``counts_2``, one at ``cards`` (every side's cards
together) at the group of fields named ``cards``. Whether a deal is valid, and whether it
is unusual, is the engine's to say (``GameKind.read_deal``, ``GameKind.warnings``): no
form checks a number itself.
"""

import json
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from flask_babel.speaklater import LazyString
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    RadioField,
    SelectChoice,
    StringField,
    SubmitField,
)

from scorekeeper.engine.counting import Rank
from scorekeeper.engine.games import Entry, GameKind, Problem, Refused, Setup, kind_named
from scorekeeper.table.change_forms import GameChangeForm, well_formed_token
from scorekeeper.values import read_whole_number
from scorekeeper.web.forms import HiddenInput, RadioInput, TextInput
from scorekeeper.web.messages import RANK_SYMBOLS, problem_message
from scorekeeper.web.translation import lazy_gettext as _l

#: The order the counting help shows a hand's cards in.
CARD_ORDER = (
    Rank.ACE,
    *(rank for rank in Rank if rank.value.isdigit()),
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
)

TOKEN_REFUSED = _l(
    "This form was not sent as the page made it. Reload the page and enter the deal again."
)


def seat_choice(label: LazyString) -> RadioField:
    """A choice of one seat (or side), its choices named when the form is made."""
    return RadioField(label, choices=[], validate_choice=False, option_widget=RadioInput())


def number_field(label: LazyString) -> StringField:
    """A whole number typed in (a count, a side's cards)."""
    return StringField(label, widget=TextInput())


def typed_number(field: Field) -> object:
    """What a number field holds, for the engine to read: None when it is left empty (the
    engine says it is needed), else the number typed, or the text that is none."""
    text = (field.data or "").strip()
    return None if not text else read_whole_number(text)


class KindDealForm(GameChangeForm):
    """One deal of a game other than Mille, read by its engine module."""

    #: The engine's name of the game (``GameKind.name``): the registry's key.
    kind: ClassVar[str]
    #: What the counting help adds a hand up from (the games whose deals have counts).
    card_values: ClassVar[Mapping[Rank, int] | None] = None
    #: Words for a choice left out, by its field, instead of the engine's "This is needed."
    missing: ClassVar[Mapping[str, LazyString]] = {}
    #: Words for a number left out, by the group of fields it is one of (``counts``).
    missing_number: ClassVar[Mapping[str, LazyString]] = {}

    #: The one-time token of this form (as Mille's deal form's).
    token = HiddenField(default=lambda: uuid.uuid4().hex, widget=HiddenInput())
    #: The :attr:`confirmation` of the deal the scorekeeper confirmed, if any.
    confirm = HiddenField(default="", widget=HiddenInput())
    submit = SubmitField(_l("Save deal"))

    #: The table the form was made for: its setup, the players' names, the sides' seats.
    setup: Setup
    names: Sequence[str]
    sides: Sequence[Sequence[int]]
    #: The deal as the engine read it, once :meth:`validate` passed it.
    read: Entry | None = None
    #: The deal as it is recorded, when the form corrects it: an unusual value it already
    #: had was confirmed when it was saved and is not asked about again.
    accepted: Entry | None = None
    warnings: list[Problem]
    #: Problems of a group of fields (``cards``: the sides' cards together), and of none.
    group_errors: dict[str, list[str]]

    @classmethod
    def fields(cls, players: int, sides: int) -> dict[str, Field]:
        """The fields of a table of ``players`` players playing as ``sides`` sides."""
        return {}

    def entry(self) -> dict[str, object]:
        """The deal's body, as the API takes it, from what was typed and tapped."""
        raise NotImplementedError

    def fill(self, entry: Entry) -> None:
        """Show a recorded deal."""
        raise NotImplementedError

    def name_choices(self) -> None:
        """Name each choice of seat or side now that the players are known."""

    @classmethod
    def of(
        cls,
        setup: Setup,
        names: Sequence[str],
        sides: Sequence[Sequence[int]],
        formdata: Any = None,
        **kwargs: Any,
    ) -> Self:
        """The form for this table, read from ``formdata`` (a request's form), or empty."""
        sized = _sized(cls, setup.players, len(sides))
        form = sized(formdata=formdata, **kwargs)
        form.setup, form.names, form.sides = setup, list(names), [list(s) for s in sides]
        form.warnings, form.group_errors = [], {}
        form.name_choices()
        form.mark_json()
        return form  # type: ignore[return-value]

    #: The choices whose value is JSON's null in the body ("nobody went out", "spoilt").
    null_choices: ClassVar[tuple[str, ...]] = ()

    def mark_json(self) -> None:
        """Say on each field where its value goes in the deal's body, and each choice what
        it puts there (``data-json-*``): a script builds the body the API takes from the
        page (the offline queue, static/offline.js) without knowing any game's rules."""
        for field in self:
            if isinstance(field, HiddenField | SubmitField) or field.name == "csrf_token":
                continue
            kind = "boolean" if isinstance(field, BooleanField) else "number"
            field.render_kw = {
                **(field.render_kw or {}),
                "data-json-path": field.name.replace("_", "."),
                **({} if isinstance(field, RadioField) else {"data-json-type": kind}),
            }
            if isinstance(field, RadioField):
                field.choices = [
                    SelectChoice(c.value, c.label, render_kw=self.choice_json(field, c.value))
                    for c in field.choices  # type: ignore[union-attr]
                ]

    def choice_json(self, field: RadioField, value: str) -> dict[str, str]:
        """A choice's value as JSON (a seat or a side is a number), and what choosing it
        leaves as the value of a number left empty (:meth:`fills`)."""
        said = None if value in self.null_choices else int(value) if value.isdigit() else value
        fills = self.fills(field, value)
        return {
            "data-json-value": json.dumps(said),
            **({"data-json-fills": json.dumps(fills)} if fills else {}),
        }

    def fills(self, field: RadioField, value: str) -> dict[str, object]:
        """The numbers choosing ``value`` in ``field`` fills in when left empty, by their
        place in the body (who went out holds nothing: ``{"counts.2": 0}``)."""
        return {}

    @property
    def engine(self) -> GameKind:
        return kind_named(self.kind)

    @property
    def side_names(self) -> list[str]:
        """Each side as its players' names: "Ana & Cy" for a pair."""
        return [" & ".join(self.names[seat] for seat in side) for side in self.sides]

    def seat_choices(self, field: RadioField, *extra: tuple[str, LazyString]) -> None:
        field.choices = [SelectChoice(str(seat), name) for seat, name in enumerate(self.names)]
        field.choices += [SelectChoice(value, label) for value, label in extra]

    def chosen(self, field: RadioField) -> str | None:
        """The one value a choice sent (None unless exactly one: a radio sends one)."""
        sent = field.raw_data or []
        return str(sent[0]) if len(sent) == 1 and sent[0] != "" else None  # "": a list's "—"

    def chosen_seat(self, field: RadioField, nobody: str | None = None) -> object:
        """The seat chosen as a number (the text sent, if it is none, for the engine to
        refuse); ``...`` (left out) when nothing was chosen; None for the ``nobody`` choice."""
        value = self.chosen(field)
        if value is None:
            return ...
        if nobody is not None and value == nobody:
            return None
        return int(value) if value.isdigit() and len(value) < 3 else value

    def validate(self, extra_validators: Any = None) -> bool:
        self.warnings, self.group_errors, self.read = [], {}, None
        fields_ok = super().validate(extra_validators)
        if not well_formed_token(self.token.data or ""):
            self.token.errors = [TOKEN_REFUSED]
            fields_ok = False
        body = {key: value for key, value in self.entry().items() if value is not ...}
        try:
            read = self.engine.read_deal(self.setup, body)
        except Refused as refused:
            for problem in refused.problems:
                self._show(problem)
            return False
        if not fields_ok:
            return False
        self.read = read
        if self.confirm.data != confirmation(read):
            self.warnings = [
                warning
                for warning in self.engine.warnings(self.setup, read)
                if not self._accepted(warning)
            ]
        return not self.warnings

    def _show(self, problem: Problem) -> None:
        """A problem beside its field (or its group of fields, or at the top)."""
        name = problem.field.replace(".", "_")
        words = problem_message(problem)
        if problem.code == "field.missing":
            group = name.rpartition("_")[0]
            said = self.missing.get(name) or self.missing_number.get(group)
            words = str(said) if said is not None else words
        if name in self._fields and not isinstance(self[name], HiddenField):
            field = self[name]
            if words not in field.errors:
                field.errors = [*field.errors, words]
        else:
            found = self.group_errors.setdefault(name if name in self.groups() else "", [])
            if words not in found:
                found.append(words)

    def groups(self) -> tuple[str, ...]:
        """The names of the groups of fields a problem may be shown at (``cards``)."""
        return ()

    def _accepted(self, warning: Problem) -> bool:
        """The deal as recorded had the same unusual value, questioned the same way."""
        if self.accepted is None:
            return False
        return warning in self.engine.warnings(self.setup, self.accepted)

    @property
    def refused(self) -> bool:
        """Sent and not saved: a field has a problem (``warnings``: a question is asked)."""
        return any(field.errors for field in self) or any(self.group_errors.values())

    @property
    def confirmation(self) -> str:
        """The value of the button that confirms this form's deal."""
        return confirmation(self.read) if self.read is not None else ""

    @property
    def card_keys(self) -> list[tuple[str, int]]:
        """The counting help's keys: each card as the page's language writes it, and what
        it counts (none for a game without counts)."""
        if self.card_values is None:
            return []
        return [(str(RANK_SYMBOLS[rank]), self.card_values[rank]) for rank in CARD_ORDER]

    def errors_of(self, group: str) -> list[str]:
        return self.group_errors.get(group, [])


def confirmation(entry: Entry) -> str:
    """What "Yes, save it as typed" sends: the deal it confirms, written out, so that a
    confirmation never carries a deal changed after the question past it unasked."""
    return json.dumps(entry, sort_keys=True, separators=(",", ":"))


_SIZED: dict[tuple[str, int, int], type[KindDealForm]] = {}


def _sized(form: type[KindDealForm], players: int, sides: int) -> type[KindDealForm]:
    """``form`` with the fields of a table of this size (made once per size and process)."""
    key = (form.kind, players, sides)
    found = _SIZED.get(key)
    if found is None:
        found = _SIZED.setdefault(key, type(form.__name__, (form,), form.fields(players, sides)))
    return found
