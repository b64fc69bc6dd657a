"""A game of any kind but Mille, replayed by its engine module from what is stored: its
setup (``Game.setup``) and its deals' entries (``Deal.entry``). The one reading of a
stored game of another kind, for the game service and the league's records alike."""

from collections.abc import Sequence

from scorekeeper.engine.games import Entry, GameKind, Setup, Sitting, kind_named
from scorekeeper.models import FINISHED, Game


def kind_of(game: Game) -> GameKind:
    """The engine module that keeps ``game``."""
    return kind_named(game.kind)


def setup_of(game: Game) -> Setup:
    """The game's setup, as its kind read it when the game started."""
    stored = game.setup or {}
    return Setup(
        players=len(game.seats), rules=stored.get("rules", {}), stakes=stored.get("stakes", {})
    )


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
