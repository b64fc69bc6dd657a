"""A league rating for two-player games: Elo, with a faster start for new players.

Elo fits Mille as it fits chess: two players, one winner, and what a win
tells us depends on how strong the opponent was. Mille has more luck than
chess, so an established player moves slowly (K = 20: about 10 points for a
win against an equal); a new player's first games move them twice as fast
(K = 40) so they reach their level before the luck of a few deals is taken
for skill. Ratings are whole points, rounded after every game, so the same
games in the same order always give the same ratings.
"""

from dataclasses import dataclass
from typing import Final

START: Final = 1500
#: How fast a rating moves: fast for a player's first games, slower afterwards.
K_NEW: Final = 40
K_ESTABLISHED: Final = 20
#: Games played before a player counts as established.
NEW_PLAYER_GAMES: Final = 10
#: A rating difference of this many points makes the stronger player 10 times as likely to win.
SCALE: Final = 400


@dataclass(frozen=True)
class Rated:
    """A player's rating going into a game, and how many games they had played before it."""

    rating: int
    games: int


def expected_score(rating: int, opponent: int) -> float:
    """The chance of winning that Elo gives ``rating`` against ``opponent`` (0 to 1)."""
    return 1 / (1 + 10 ** ((opponent - rating) / SCALE))


def k_factor(games: int) -> int:
    return K_NEW if games < NEW_PLAYER_GAMES else K_ESTABLISHED


def new_ratings(winner: Rated, loser: Rated) -> tuple[int, int]:
    """The winner's and the loser's ratings after a game between them."""
    surprise = 1 - expected_score(winner.rating, loser.rating)
    return (
        winner.rating + round(k_factor(winner.games) * surprise),
        loser.rating - round(k_factor(loser.games) * surprise),
    )
