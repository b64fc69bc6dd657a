"""What the standings, a player's page and head-to-head show: records, ratings, rivals
and a player's course, read from the derived tables of :mod:`.stats` with a fixed number
of queries whatever the league's size."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any, Final

from sqlalchemy import bindparam, select

from scorekeeper.engine.rating import START
from scorekeeper.models import (
    GameResult,
    PairRecord,
    Player,
    PlayerRecord,
    Season,
    SeasonRecord,
    db,
    utcnow,
)
from scorekeeper.records import skill
from scorekeeper.records.skill import Provisional, Skill
from scorekeeper.records.totals import season_range


@dataclass(frozen=True)
class Standing:
    """One player's line in the standings (all numbers over finished games)."""

    player_id: int
    name: str
    played: int
    won: int
    net: int  # cents won minus cents lost
    naturals: int
    chapeaux: int  # suffered
    skunks_given: int
    skunks_taken: int
    margin_won: int  # the sum of the winning margins
    deals: int
    points: int  # the sum of the final totals
    rating_start: int
    rating: int
    #: How sure the rating is: OpenSkill's skill as of the moment the standings are read
    #: for (now, or a past season's end), widened for the time away since the last game
    #: counted; and why the rating is provisional, if it is.
    skill: Skill
    provisional: Provisional | None

    @property
    def spread(self) -> int:
        """The rating's uncertainty, the ± beside it, in Elo points."""
        return skill.spread(self.skill.sigma)

    @property
    def estimate(self) -> int:
        """OpenSkill's estimate of the player's skill (its mean), in Elo points: what the
        conservative rating is made from (the rating shown is Elo's, a different number)."""
        return skill.points(self.skill.mu)

    @property
    def conservative(self) -> int:
        """The conservative rating, in Elo points: :attr:`estimate` less
        :data:`~.skill.CONSERVATIVE_SIGMAS` times :attr:`spread`, what the player is nearly
        surely at least."""
        return skill.conservative_points(self.skill)

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_permille(self) -> int:
        """Games won per thousand played, rounded half up."""
        return _ratio(1000 * self.won, self.played) or 0

    @property
    def average_margin(self) -> int | None:
        """The average winning margin in points; None without a win."""
        return _ratio(self.margin_won, self.won)

    @property
    def rating_change(self) -> int:
        return self.rating - self.rating_start

    def per_thousand_deals(self, count: int) -> int | None:
        return _ratio(1000 * count, self.deals)

    @property
    def average_deal_score(self) -> int | None:
        return _ratio(self.points, self.deals)


def _ratio(numerator: int, denominator: int) -> int | None:
    """numerator / denominator rounded half up (away from zero), in whole numbers."""
    if not denominator:
        return None
    sign = -1 if numerator < 0 else 1
    return sign * ((2 * abs(numerator) + denominator) // (2 * denominator))


#: The standings' columns a reader can sort by, and the value each sorts on.
SORTS: dict[str, Callable[[Standing], Any]] = {
    "player": lambda s: s.name.casefold(),
    "played": lambda s: s.played,
    "won": lambda s: s.won,
    "lost": lambda s: s.lost,
    "win": lambda s: s.win_permille,
    "net": lambda s: s.net,
    "naturals": lambda s: s.naturals,
    "chapeaux": lambda s: s.chapeaux,
    "skunks_given": lambda s: s.skunks_given,
    "skunks_taken": lambda s: s.skunks_taken,
    "margin": lambda s: s.average_margin,
    "rating": lambda s: s.rating,
    "conservative": lambda s: s.conservative,
}


DEFAULT_SORT = "won"


# The pages' statements, built once.
_ALL_TIME: Final = (
    select(PlayerRecord, Player.name)
    .join(Player, Player.id == PlayerRecord.player_id)
    .where(PlayerRecord.league_id == bindparam("league_id"))
)
_IN_SEASON: Final = (
    select(SeasonRecord, Player.name)
    .join(Player, Player.id == SeasonRecord.player_id)
    .where(SeasonRecord.season_id == bindparam("season_id"))
)
_RECORD: Final = select(PlayerRecord).where(PlayerRecord.player_id == bindparam("player_id"))
_OPPONENTS: Final = (
    select(PairRecord, Player.name)
    .join(Player, Player.id == PairRecord.opponent_id)
    .where(PairRecord.player_id == bindparam("player_id"))
    .order_by(PairRecord.played.desc(), Player.name_key)
)


#: A player's biggest win (True) and worst loss (False).
_EXTREME: Final = {
    best: select(GameResult, Player.name)
    .join(Player, Player.id == GameResult.opponent_id)
    .where(
        GameResult.player_id == bindparam("player_id"), GameResult.won if best else ~GameResult.won
    )
    .order_by(GameResult.net.desc() if best else GameResult.net, GameResult.game_id.desc())
    .limit(1)
    for best in (True, False)
}
_TREND: Final = (
    select(GameResult.number, GameResult.finished_at, GameResult.net_after, GameResult.rating_after)
    .where(
        GameResult.player_id == bindparam("player_id"),
        GameResult.number.in_(bindparam("numbers", expanding=True)),
    )
    .order_by(GameResult.number)
)


def standings(
    league_id: int,
    season: Season | None = None,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
    now: datetime | None = None,
) -> list[Standing]:
    """Every player with a finished game (in the season), best first unless sorted otherwise.

    Best first means most wins, then best net money, then name. Sorting by a
    column keeps that order among equal values; a column without a value (the
    average margin of a player who never won) sorts last either way. How sure each
    rating is, is read as of ``now`` (the current time if None), or of the season's
    end if that came first.
    """
    as_of = now or utcnow()
    if season is not None:
        as_of = min(as_of, season_range(season)[1])
    found = (
        db.session.execute(_ALL_TIME, {"league_id": league_id})
        if season is None
        else db.session.execute(_IN_SEASON, {"season_id": season.id})
    )
    rows = [_standing(row, name, as_of) for row, name in found]
    rows.sort(key=lambda s: s.name.casefold())
    rows.sort(key=lambda s: (s.won, s.net), reverse=True)
    value = SORTS.get(sort, SORTS[DEFAULT_SORT])
    present = [row for row in rows if value(row) is not None]
    present.sort(key=value, reverse=descending)
    return present + [row for row in rows if value(row) is None]


def _standing(record: Any, name: str, as_of: datetime) -> Standing:
    """A record as shown, its skill widened for the time from its last game to ``as_of``."""
    last = record.last_played_at
    return Standing(
        player_id=record.player_id,
        name=name,
        played=record.played,
        won=record.won,
        net=record.net,
        naturals=record.naturals,
        chapeaux=record.chapeaux,
        skunks_given=record.skunks_given,
        skunks_taken=record.skunks_taken,
        margin_won=record.margin_won,
        deals=record.deals,
        points=record.points,
        rating_start=record.rating_start,
        rating=record.rating,
        skill=skill.away(
            Skill(record.skill_mu, record.skill_sigma), skill.days_between(last, as_of)
        ),
        provisional=skill.provisional(record.career_games, last, as_of),
    )


@dataclass(frozen=True)
class Opponent:
    """A player's record against one opponent."""

    player_id: int
    name: str
    played: int
    won: int
    net: int

    @property
    def lost(self) -> int:
        return self.played - self.won


@dataclass(frozen=True)
class Result:
    """One finished game from one player's side."""

    game_id: int
    opponent: str
    finished_at: datetime
    net: int
    total: int
    opponent_total: int


@dataclass(frozen=True)
class Point:
    """The player after their ``number``-th finished game."""

    number: int
    finished_at: datetime | None
    net: int
    rating: int


@dataclass(frozen=True)
class PlayerSummary:
    record: Standing | None
    opponents: list[Opponent]
    biggest_win: Result | None
    worst_loss: Result | None
    trend: list[Point]

    @property
    def nemesis(self) -> Opponent | None:
        """The opponent who beats this player most often (at least 3 games, most lost)."""
        rivals = [o for o in self.opponents if o.played >= RIVAL_GAMES and 2 * o.won < o.played]
        return min(rivals, key=lambda o: (Fraction(o.won, o.played), -o.played), default=None)

    @property
    def minion(self) -> Opponent | None:
        """The opponent this player beats most often (at least 3 games, most won)."""
        rivals = [o for o in self.opponents if o.played >= RIVAL_GAMES and 2 * o.won > o.played]
        return max(rivals, key=lambda o: (Fraction(o.won, o.played), o.played), default=None)


#: Games against an opponent before they can be someone's nemesis or minion.
RIVAL_GAMES = 3


#: The most points a player's charts draw; a long career is sampled evenly.
CHART_POINTS = 60


def player_summary(player: Player, now: datetime | None = None) -> PlayerSummary:
    """A player's record (how sure its rating is as of ``now``, the current time if None),
    opponents, best and worst games, and the course of their net money and rating (at
    most :data:`CHART_POINTS` games, evenly spread)."""
    found = db.session.execute(_RECORD, {"player_id": player.id}).scalar_one_or_none()
    record = None if found is None else _standing(found, player.name, now or utcnow())
    return PlayerSummary(
        record=record,
        opponents=_opponents(player.id),
        biggest_win=_extreme(player.id, best=True),
        worst_loss=_extreme(player.id, best=False),
        trend=_trend(player.id, record.played if record else 0),
    )


def _opponents(player_id: int) -> list[Opponent]:
    rows = db.session.execute(_OPPONENTS, {"player_id": player_id})
    return [
        Opponent(pair.opponent_id, name, pair.played, pair.won, pair.net) for pair, name in rows
    ]


def _extreme(player_id: int, *, best: bool) -> Result | None:
    row = db.session.execute(_EXTREME[best], {"player_id": player_id}).first()
    if row is None:
        return None
    result, name = row
    return Result(
        result.game_id, name, result.finished_at, result.net, result.total, result.opponent_total
    )


def _sampled(played: int, most: int = CHART_POINTS) -> list[int]:
    """Game numbers 1 … played, every one if few, else ``most`` of them evenly spread."""
    if played <= most:
        return list(range(1, played + 1))
    return sorted({max(1, (i * played + most - 1) // most) for i in range(1, most + 1)})


def _trend(player_id: int, played: int) -> list[Point]:
    if not played:
        return []
    rows = db.session.execute(_TREND, {"player_id": player_id, "numbers": _sampled(played)})
    return [Point(0, None, 0, START)] + [Point(*row) for row in rows]


@dataclass(frozen=True)
class HeadToHead:
    """Two players' games against each other, from the first player's side."""

    played: int
    won: int  # by the first player
    net: int  # cents the first player won from the second, over finished games

    @property
    def lost(self) -> int:
        return self.played - self.won


def head_to_head(player_id: int, opponent_id: int) -> HeadToHead:
    pair = db.session.get(PairRecord, (player_id, opponent_id))
    return HeadToHead(0, 0, 0) if pair is None else HeadToHead(pair.played, pair.won, pair.net)
