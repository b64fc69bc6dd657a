"""One deal form per game other than Mille, found by the engine's name of the game.

A game's form reads what the scorekeeper taps and types into the deal's body its engine
module takes (the API's, ``shared/API.md``), and shows its problems beside its fields; its
template partial, ``templates/table/kinds/<name>.html``, draws the fields and says how a
deal reads on the card. Adding a game is its engine module, its form here and its partial:
nothing else names it. Mille keeps its own deal form (``change_forms.DealForm``).
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .base import KindDealForm, confirmation
from .boathouse_rummy import BoathouseRummyForm
from .continental_rummy import ContinentalRummyForm
from .gamblers_rummy import GamblersRummyForm
from .knock_rummy import KnockRummyForm
from .rummy import RummyForm
from .scotch_whist import ScotchWhistForm
from .spoil_five import SpoilFiveForm

#: Each game's deal form, by the engine's name of the game.
FORMS: Final[Mapping[str, type[KindDealForm]]] = MappingProxyType(
    {
        form.kind: form
        for form in (
            RummyForm,
            BoathouseRummyForm,
            ContinentalRummyForm,
            GamblersRummyForm,
            KnockRummyForm,
            ScotchWhistForm,
            SpoilFiveForm,
        )
    }
)


def form_of(kind: str) -> type[KindDealForm]:
    """The deal form of the game called ``kind``; KeyError for Mille or no game."""
    return FORMS[kind]


def partial_of(kind: str) -> str:
    """The template partial of the game called ``kind``: its fields, and its deals in words."""
    return f"table/kinds/{kind}.html"


__all__ = ["FORMS", "KindDealForm", "confirmation", "form_of", "partial_of"]
