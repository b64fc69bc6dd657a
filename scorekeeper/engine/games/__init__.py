"""Every game the table keeps, by the name the API and the database know it by.

:data:`KINDS` holds one :class:`~.base.GameKind` per game, Mille first, the others in the
order of RULES-MORE-GAMES.md; :func:`kind_named` finds one. The interface's types are
re-exported here, so the rest of the app imports this package alone.
"""

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from .base import (
    Entry,
    GameKind,
    Line,
    Payment,
    Problem,
    Reason,
    Refused,
    Setup,
    Sitting,
    Transfer,
)
from .boathouse_rummy import BOATHOUSE_RUMMY
from .continental_rummy import CONTINENTAL_RUMMY
from .gamblers_rummy import GAMBLERS_RUMMY
from .knock_rummy import KNOCK_RUMMY
from .mille import MILLE
from .outcome import SeatOutcome, outcome
from .problems import CODES
from .rummy import RUMMY
from .scotch_whist import SCOTCH_WHIST
from .spoil_five import SPOIL_FIVE

_IN_ORDER: Final[tuple[GameKind, ...]] = (
    MILLE,
    RUMMY,
    BOATHOUSE_RUMMY,
    CONTINENTAL_RUMMY,
    GAMBLERS_RUMMY,
    KNOCK_RUMMY,
    SCOTCH_WHIST,
    SPOIL_FIVE,
)

#: Each game by its name, Mille first.
KINDS: Final[Mapping[str, GameKind]] = MappingProxyType({kind.name: kind for kind in _IN_ORDER})


def kind_named(name: str) -> GameKind:
    """The game called ``name`` (``"knock-rummy"``); KeyError for a name no game has."""
    return KINDS[name]


__all__ = [
    "CODES",
    "KINDS",
    "Entry",
    "GameKind",
    "Line",
    "Payment",
    "Problem",
    "Reason",
    "Refused",
    "SeatOutcome",
    "Setup",
    "Sitting",
    "Transfer",
    "kind_named",
    "outcome",
]
