"""How sure a rating is: a Bayesian skill beside the Elo headline, from OpenSkill.

Elo (``engine.rating``) stays the number the league reads. Beside it, every player has
a skill in OpenSkill's Bradley-Terry model (``openskill.models.BradleyTerryFull``, the
pairwise model: Mille is two players): a mean and an uncertainty. A newcomer's
uncertainty is wide and narrows with each game; time away widens it again, as chess and
go servers do, so a player back after months moves fast and sorts low on the
conservative rating until they have played again.

Pure and typed, no database: :mod:`.ratings` keeps each player's skill after every game
in game order, beside the Elo rating and by the same walk, so an edit to a past game
replays it exactly. It is stored in thousandths, rounded after every game, so a replay on any
database gives the same whole numbers.

Shown to people, the skill is put on the Elo scale (:func:`points`): 1500 for the
model's starting mean, and a difference of 400 points, between two players known
for certain, means 10 to 1 odds, as in Elo.
"""

import math
from dataclasses import dataclass
from datetime import datetime
from statistics import NormalDist
from typing import Any, Final

from openskill.models import BradleyTerryFull

#: Mille has more luck than chess: one game tells less about skill, so β, the spread of
#: one game's performance, is twice the model's default (25/6). The other parameters are
#: the model's defaults, written out so a later openskill can't change a replay's numbers
#: (migration 0014 works out the games played before it with the same ones).
MODEL: Final = BradleyTerryFull(mu=25.0, sigma=25 / 3, beta=25 / 3, kappa=0.0001, tau=25 / 300)
#: Skills are stored in thousandths of the model's units.
STORED: Final = 1000
#: The model's starting mean and uncertainty (25 and 25/3).
START_MU: Final = round(MODEL.mu * STORED)
START_SIGMA: Final = round(MODEL.sigma * STORED)
#: How much uncertainty comes back per day away: a player away a year is nearly new again.
AWAY_PER_DAY: Final = 0.42
#: The conservative rating is the mean less this many uncertainties (OpenSkill's ordinal).
CONSERVATIVE_SIGMAS: Final = 3
#: A player is provisional with fewer games than this (Elo moves them faster until then
#: too: ``engine.rating.NEW_PLAYER_GAMES``) …
PROVISIONAL_GAMES: Final = 10
#: … or after this many days without a game.
AWAY_DAYS: Final = 90
#: Elo points per unit of the model's mean. OpenSkill predicts a game between two players
#: known for certain as Φ(difference / β√2); Elo gives 10 to 1 for 400 points: the
#: scale where the two agree there.
POINTS_PER_UNIT: Final = 400 / (NormalDist().inv_cdf(10 / 11) * MODEL.beta * math.sqrt(2))
ELO_START: Final = 1500


@dataclass(frozen=True)
class Skill:
    """A mean and an uncertainty (one standard deviation), in thousandths."""

    mu: int
    sigma: int

    @property
    def conservative(self) -> int:
        """The mean less :data:`CONSERVATIVE_SIGMAS` uncertainties: what the player is
        nearly surely at least."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


FIRST: Final = Skill(START_MU, START_SIGMA)


def away(skill: Skill, days: float) -> Skill:
    """The skill after ``days`` without a game: the same mean, a wider uncertainty (never
    wider than a newcomer's)."""
    if days <= 0:
        return skill
    sigma = math.sqrt((skill.sigma / STORED) ** 2 + AWAY_PER_DAY**2 * days) * STORED
    return Skill(skill.mu, min(START_SIGMA, round(sigma)))


def days_between(earlier: datetime | None, later: datetime) -> float:
    """Days from a player's last game to ``later`` (0 for a first game)."""
    if earlier is None:
        return 0.0
    return max(0.0, (later - earlier).total_seconds() / 86400)


def after_game(winner: Skill, loser: Skill) -> tuple[Skill, Skill]:
    """The winner's and the loser's skills after a game between them (each already
    widened for their time away: :func:`away`)."""
    rated = MODEL.rate([[_rating(winner)], [_rating(loser)]], ranks=[0, 1])
    (new_winner,), (new_loser,) = rated
    return _stored(new_winner.mu, new_winner.sigma), _stored(new_loser.mu, new_loser.sigma)


def after_places(sides: list[list[Skill]], places: list[int]) -> list[list[Skill]]:
    """Each side's players' skills after a game of several sides that finished in these
    ``places`` (1 for the best; level sides share a place): the games other than Mille,
    whose sides are a player each, or Scotch Whist's partners. Each skill already widened
    for the time away (:func:`away`)."""
    rated = MODEL.rate(
        [[_rating(skill) for skill in side] for side in sides],
        ranks=[float(place) for place in places],
    )
    return [[_stored(player.mu, player.sigma) for player in side] for side in rated]


def _rating(skill: Skill) -> Any:
    return MODEL.rating(mu=skill.mu / STORED, sigma=skill.sigma / STORED)


def _stored(mu: float, sigma: float) -> Skill:
    return Skill(round(mu * STORED), round(sigma * STORED))


def chances(first: Skill, second: Skill) -> tuple[int, int]:
    """Each player's chance to win a game between them, in whole percent adding up to 100
    (OpenSkill's prediction: the more uncertain the skills, the nearer to even)."""
    one, _ = MODEL.predict_win([[_rating(first)], [_rating(second)]])
    percent = min(99, max(1, round(one * 100)))
    return percent, 100 - percent


def points(value: int) -> int:
    """A stored mean (or conservative rating) on the Elo scale, in whole points."""
    return ELO_START + round((value - START_MU) / STORED * POINTS_PER_UNIT)


def spread(sigma: int) -> int:
    """An uncertainty on the Elo scale, in whole points (the ± beside a rating)."""
    return round(sigma / STORED * POINTS_PER_UNIT)


def conservative_points(value: Skill) -> int:
    """The conservative rating on the Elo scale: the skill's mean in points less
    :data:`CONSERVATIVE_SIGMAS` times its ± in points, each rounded as shown, so that the
    page's "1557 − 3 × 197 = 966" adds up to the point (the mean, OpenSkill's estimate,
    is not the Elo rating shown beside the ±)."""
    return points(value.mu) - CONSERVATIVE_SIGMAS * spread(value.sigma)


@dataclass(frozen=True)
class Provisional:
    """Why a rating is provisional: too few games, or long away (the days since)."""

    games: int | None = None
    days_away: int | None = None


def provisional(played: int, last_played: datetime | None, now: datetime) -> Provisional | None:
    """Why the rating of a player with ``played`` games, the last at ``last_played``, is
    provisional at ``now``; None if it is not."""
    if played < PROVISIONAL_GAMES:
        return Provisional(games=played)
    days = int(days_between(last_played, now))
    if days > AWAY_DAYS:
        return Provisional(days_away=days)
    return None
