"""Spoil Five's deal form: who won three tricks, or nobody (spoilt), and how a jink went."""

from collections.abc import Mapping
from typing import ClassVar, Final

from flask_babel.speaklater import LazyString
from wtforms import RadioField, SelectChoice

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.spoil_five import JINKS, SPOIL_FIVE
from scorekeeper.table.deal_forms.base import KindDealForm, seat_choice
from scorekeeper.web.forms import RadioInput
from scorekeeper.web.translation import lazy_gettext as _l

#: The choice "nobody won three tricks".
SPOILT: Final = "spoilt"
#: Each way a jink goes, by the engine's word for it.
JINK_WORDS: Final = {
    "none": _l("No jink"),
    "won": _l("Jink won: all five"),
    "failed": _l("Jink failed"),
}
assert set(JINK_WORDS) == set(JINKS)


class SpoilFiveForm(KindDealForm):
    kind = SPOIL_FIVE.name
    missing: ClassVar[Mapping[str, LazyString]] = {
        "winner": _l("Choose who won three tricks, or that the deal was spoilt.")
    }

    null_choices = (SPOILT,)

    winner = seat_choice(_l("Who won three tricks?"))
    jink = RadioField(
        _l("A jink?"),
        choices=[SelectChoice(value, words) for value, words in JINK_WORDS.items()],
        default="none",
        validate_choice=False,
        option_widget=RadioInput(),
    )

    def name_choices(self) -> None:
        self.seat_choices(self.winner, (SPOILT, _l("Nobody: spoilt")))

    def entry(self) -> dict[str, object]:
        jink = self.chosen(self.jink)
        return {"winner": self.chosen_seat(self.winner, SPOILT), "jink": jink or ...}

    def fill(self, entry: Entry) -> None:
        winner = entry.get("winner")
        self.winner.data = SPOILT if winner is None else str(winner)
        self.jink.data = str(entry.get("jink") or "none")
