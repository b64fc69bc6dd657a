"""Continental Rummy's deal form: who went out, and the Jokers among their melded cards."""

from collections.abc import Mapping
from typing import ClassVar

from flask_babel.speaklater import LazyString
from wtforms import RadioField, SelectChoice

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.continental_rummy import CONTINENTAL_RUMMY, JOKERS_IN_PLAY
from scorekeeper.table.deal_forms.base import KindDealForm, seat_choice
from scorekeeper.web.forms import RadioInput
from scorekeeper.web.translation import lazy_gettext as _l


class ContinentalRummyForm(KindDealForm):
    kind = CONTINENTAL_RUMMY.name
    missing: ClassVar[Mapping[str, LazyString]] = {
        "out": _l("Choose who went out."),
        "jokers": _l("Choose how many Jokers."),
    }

    out = seat_choice(_l("Who went out?"))
    jokers = RadioField(
        _l("Jokers in their melds"),
        choices=[],
        default="0",
        validate_choice=False,
        option_widget=RadioInput(),
    )

    def name_choices(self) -> None:
        self.seat_choices(self.out)
        most = JOKERS_IN_PLAY[self.setup.players]
        self.jokers.choices = [SelectChoice(str(n), str(n)) for n in range(most + 1)]

    def entry(self) -> dict[str, object]:
        return {"out": self.chosen_seat(self.out), "jokers": self.chosen_seat(self.jokers)}

    def fill(self, entry: Entry) -> None:
        self.out.data = str(entry.get("out"))
        self.jokers.data = str(entry.get("jokers"))
