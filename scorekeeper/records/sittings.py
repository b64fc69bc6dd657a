"""A game of any kind but Mille, replayed by its engine module from what is stored: its
setup (``Game.setup``) and its deals' entries (``Deal.entry``). The one reading of a
stored game of another kind, for the game service and the league's records alike."""

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.engine.games import Entry, GameKind, Setup, Sitting, kind_named
from scorekeeper.models import FINISHED, Game


def kind_of(game: Game) -> GameKind:
    """The engine module that keeps ``game``."""
    return kind_named(game.kind)


def setup_of(game: Game) -> Setup:
    """The game's setup, as its kind read it when the game started."""
    return setup_from(len(game.seats), game.setup)


def setup_from(players: int, stored: Mapping[str, Any] | None) -> Setup:
    """A setup of ``players`` players from what ``Game.setup`` keeps (:func:`stored_setup`)."""
    stored = stored or {}
    return Setup(players=players, rules=stored.get("rules", {}), stakes=stored.get("stakes", {}))


def stored_setup(setup: Setup) -> dict[str, Any]:
    """What ``Game.setup`` keeps of a setup its kind read: its rules and stakes (cents)."""
    return {"rules": dict(setup.rules), "stakes": dict(setup.stakes)}


def sitting_of(
    game: Game, entries: Sequence[Entry] | None = None, *, ended: bool | None = None
) -> Sitting:
    """The game replayed by its kind from its stored deals (or from ``entries``), ended
    as it stands (or as ``ended`` says: a sitting is ended by its scorekeeper)."""
    if entries is None:
        entries = [deal.entry or {} for deal in game.deals]
    if ended is None:
        ended = game.status == FINISHED
    return kind_of(game).replay(setup_of(game), game.first_dealer, entries, ended=ended)


def sitting_from(
    kind: str,
    players: int,
    stored: Mapping[str, Any] | None,
    first_dealer: int,
    entries: Sequence[Entry],
    *,
    ended: bool,
) -> Sitting:
    """A game replayed by its kind from its stored values (``Game.setup``, its deals'
    entries), read as plain rows rather than as a :class:`Game`: an export's."""
    setup = setup_from(players, stored)
    return kind_named(kind).replay(setup, first_dealer, entries, ended=ended)
