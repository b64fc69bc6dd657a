"""Knock Rummy's deal form: who knocked, then every player's count, the knocker's too."""

from collections.abc import Mapping
from typing import ClassVar

from flask_babel.speaklater import LazyString
from wtforms import Field

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.knock_rummy import KNOCK_RUMMY
from scorekeeper.engine.games.rummy_family import CARD_VALUES
from scorekeeper.table.deal_forms.base import KindDealForm, seat_choice
from scorekeeper.table.deal_forms.went_out import (
    COUNT_NEEDED,
    count_fields,
    show_counts,
    typed_counts,
)
from scorekeeper.web.translation import lazy_gettext as _l


class KnockRummyForm(KindDealForm):
    kind = KNOCK_RUMMY.name
    card_values = CARD_VALUES
    missing: ClassVar[Mapping[str, LazyString]] = {"knocker": _l("Choose who knocked.")}
    missing_number: ClassVar[Mapping[str, LazyString]] = {"counts": COUNT_NEEDED}

    knocker = seat_choice(_l("Who knocked?"))

    @classmethod
    def fields(cls, players: int, sides: int) -> dict[str, Field]:
        return count_fields(players)

    def name_choices(self) -> None:
        self.seat_choices(self.knocker)

    def entry(self) -> dict[str, object]:
        return {"knocker": self.chosen_seat(self.knocker), "counts": typed_counts(self)}

    def fill(self, entry: Entry) -> None:
        self.knocker.data = str(entry.get("knocker"))
        show_counts(self, entry.get("counts"))
