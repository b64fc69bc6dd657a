"""A game's card as a page shows it, on the scorekeeper's phone or on a player's own: read
once, the same way for both."""

from dataclasses import dataclass

from scorekeeper.engine import Scorecard, Settlement
from scorekeeper.models import Game
from scorekeeper.table import seats
from scorekeeper.table import service as game_service
from scorekeeper.table.charts import running_totals_chart


@dataclass(frozen=True)
class ShownCard:
    """The game, its score card and its settlement (None while it goes on)."""

    game: Game
    card: Scorecard
    settlement: Settlement | None

    @classmethod
    def of(cls, game: Game, saved: game_service.Saved | None = None) -> "ShownCard":
        """The card replayed from the game's deals, or taken from ``saved``: the replay of
        the change just made, not done again."""
        return cls(game, *game_service.card_of(game, saved))

    def context(self) -> dict[str, object]:
        """What every template of the card draws: the card, its settlement and chart, the
        players' agreements with it, and the ETag the live view compares with."""
        return {
            "game": self.game,
            "card": self.card,
            "settlement": self.settlement,
            "chart": running_totals_chart(self.card),
            "agreements": seats.agreements(self.game),
            "etag": seats.etag(self.game.version, self.game.agreement_count),
        }
