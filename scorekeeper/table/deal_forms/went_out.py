"""What the forms of the games won by going out share (Rummy, Boathouse and Gambler's
Rummy): who went out, then every other player's count of the cards left in hand."""

from collections.abc import Mapping
from typing import ClassVar

from flask_babel.speaklater import LazyString
from wtforms import Field, RadioField

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.rummy_family import CARD_VALUES
from scorekeeper.table.deal_forms.base import KindDealForm, number_field, seat_choice, typed_number
from scorekeeper.web.translation import lazy_gettext as _l

#: The value of the choice "nobody went out" (a dead deal), where a game has one.
NOBODY = "nobody"
#: A count left empty (but the count of who went out, which is 0).
COUNT_NEEDED = _l("Type the count: 0 if every card is in a set.")


def count_fields(players: int) -> dict[str, Field]:
    """A count of the cards left in hand for each seat: ``counts_0`` … (the body's
    ``counts.0`` …)."""
    return {f"counts_{seat}": number_field(_l("Count")) for seat in range(players)}


def typed_counts(form: KindDealForm) -> list[object]:
    return [typed_number(form[f"counts_{seat}"]) for seat in range(form.setup.players)]


def show_counts(form: KindDealForm, counts: object) -> None:
    for seat, count in enumerate(counts if isinstance(counts, list) else []):
        form[f"counts_{seat}"].data = str(count)


class WentOutForm(KindDealForm):
    """Who went out, and each player's count; the count of who went out, 0, needn't be
    typed."""

    card_values = CARD_VALUES
    missing: ClassVar[Mapping[str, LazyString]] = {"out": _l("Choose who went out.")}
    #: The words of the choice "nobody went out", in a game where a deal can be dead.
    nobody: ClassVar[LazyString | None] = None
    missing_number: ClassVar[Mapping[str, LazyString]] = {"counts": COUNT_NEEDED}

    out = seat_choice(_l("Who went out?"))

    @classmethod
    def fields(cls, players: int, sides: int) -> dict[str, Field]:
        return count_fields(players)

    def name_choices(self) -> None:
        self.seat_choices(self.out, *([(NOBODY, self.nobody)] if self.nobody else []))

    null_choices = (NOBODY,)

    def fills(self, field: RadioField, value: str) -> dict[str, object]:
        return {f"counts.{value}": 0} if field is self.out and value.isdigit() else {}

    def entry(self) -> dict[str, object]:
        out = self.chosen_seat(self.out, NOBODY if self.nobody else None)
        counts = typed_counts(self)
        if isinstance(out, int) and 0 <= out < len(counts) and counts[out] is None:
            counts[out] = 0  # who went out holds nothing: left empty, it is 0
        return {"out": out, "counts": counts}

    def fill(self, entry: Entry) -> None:
        out = entry.get("out")
        self.out.data = NOBODY if out is None else str(out)
        show_counts(self, entry.get("counts"))
