"""Scotch Whist's deal form: the side that took each trump honour, and each side's cards."""

from collections.abc import Mapping
from typing import ClassVar, Final

from flask_babel.speaklater import LazyString
from wtforms import Field, SelectChoice

from scorekeeper.engine.games import Entry
from scorekeeper.engine.games.scotch_whist import HONOURS, SCOTCH_WHIST
from scorekeeper.table.deal_forms.base import (
    KindDealForm,
    number_field,
    seat_choice,
    typed_number,
)
from scorekeeper.web.translation import lazy_gettext as _l

#: Each trump honour, by the engine's name of it.
HONOUR_WORDS: Final = {
    "jack": _l("Jack"),
    "ace": _l("Ace"),
    "king": _l("King"),
    "queen": _l("Queen"),
    "ten": _l("Ten"),
}
assert list(HONOUR_WORDS) == list(HONOURS)


class ScotchWhistForm(KindDealForm):
    kind = SCOTCH_WHIST.name
    missing: ClassVar[Mapping[str, LazyString]] = {
        f"honours_{name}": _l("Choose who took it.") for name in HONOURS
    }
    missing_number: ClassVar[Mapping[str, LazyString]] = {
        "cards": _l("Type the cards this side took: 0 if none.")
    }

    @classmethod
    def fields(cls, players: int, sides: int) -> dict[str, Field]:
        honours = {f"honours_{name}": seat_choice(HONOUR_WORDS[name]) for name in HONOURS}
        cards = {f"cards_{side}": number_field(_l("Cards")) for side in range(sides)}
        return {**honours, **cards}

    def groups(self) -> tuple[str, ...]:
        return ("cards",)

    def name_choices(self) -> None:
        names = self.side_names
        for name in HONOURS:
            choices = [SelectChoice(str(side), names[side]) for side in range(len(names))]
            self[f"honours_{name}"].choices = choices

    @property
    def honours(self) -> list[tuple[str, int, Field]]:
        """Each honour's name, what it is worth and its choice of side."""
        return [(name, worth, self[f"honours_{name}"]) for name, worth in HONOURS.items()]

    def entry(self) -> dict[str, object]:
        taken = {name: self.chosen_seat(self[f"honours_{name}"]) for name in HONOURS}
        return {
            "honours": {name: side for name, side in taken.items() if side is not ...},
            "cards": [typed_number(self[f"cards_{side}"]) for side in range(len(self.sides))],
        }

    def fill(self, entry: Entry) -> None:
        honours = entry.get("honours")
        for name, side in honours.items() if isinstance(honours, dict) else ():
            self[f"honours_{name}"].data = str(side)
        cards = entry.get("cards")
        for side, taken in enumerate(cards if isinstance(cards, list) else []):
            self[f"cards_{side}"].data = str(taken)
