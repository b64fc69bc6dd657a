"""The standings of a game of any kind but Mille (whose own are :mod:`.standings`): each
player who finished a game of it, with what they won, their money and their rating.

Read from the records every change keeps (:mod:`..records.kind_records`): one row per
player, whatever the league's history. A game that ends by its own rule counts the games
each player won (their side's); a sitting, which the scorekeeper ends, the deals each
player won.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from scorekeeper.engine.games import KINDS, kind_named
from scorekeeper.models import MILLE, KindRecord, KindResult, Player, db, utcnow
from scorekeeper.records import skill
from scorekeeper.records.skill import Provisional, Skill


@dataclass(frozen=True)
class KindStanding:
    """One player's line in the standings of one game."""

    player_id: int
    name: str
    played: int
    #: Games won in a game that ends by its rule; deals won in a sitting.
    won: int
    games_won: int
    deals_won: int
    money_won: int
    money_lost: int
    points_for: int
    points_against: int
    skill: Skill
    provisional: Provisional | None

    @property
    def net(self) -> int:
        return self.money_won - self.money_lost

    @property
    def per_game(self) -> int:
        """Money won per game played, in whole cents (rounded towards zero)."""
        return int(self.net / self.played) if self.played else 0

    @property
    def rating(self) -> int:
        """The skill's mean on the Elo scale (:func:`.skill.points`)."""
        return skill.points(self.skill.mu)

    @property
    def spread(self) -> int:
        return skill.spread(self.skill.sigma)

    @property
    def conservative(self) -> int:
        return skill.conservative_points(self.skill)


def games_played(league_id: int) -> list[str]:
    """The games the league has finished a game of, Mille first, the others in the
    engine's order: the standings' choice of game (one read)."""
    kinds = set(
        db.session.scalars(
            select(KindRecord.kind).where(KindRecord.league_id == league_id).distinct()
        )
    )
    return [name for name in KINDS if name == MILLE or name in kinds]


def kind_standings(league_id: int, kind: str, now: datetime | None = None) -> list[KindStanding]:
    """Every player who finished a game of ``kind`` in the league, best net first (then
    most won, then by name). A rating's uncertainty widens for the time away until ``now``."""
    rows = db.session.execute(
        select(KindRecord, Player.name)
        .join(Player, Player.id == KindRecord.player_id)
        .where(KindRecord.league_id == league_id, KindRecord.kind == kind)
    )
    found = [_standing(record, name, now or utcnow()) for record, name in rows]
    return sorted(found, key=lambda row: (-row.net, -row.won, row.name.casefold()))


def player_records(player: Player, now: datetime | None = None) -> list[tuple[str, KindStanding]]:
    """A player's record in each game other than Mille they finished, in the engine's
    order: the game and the player's line of its standings."""
    rows = db.session.scalars(select(KindRecord).where(KindRecord.player_id == player.id))
    by_kind = {record.kind: _standing(record, player.name, now or utcnow()) for record in rows}
    return [(kind, by_kind[kind]) for kind in KINDS if kind in by_kind]


@dataclass(frozen=True)
class Together:
    """Two players' games of one kind at the same table: how many, and each one's money."""

    kind: str
    games: int
    first_net: int
    second_net: int


def together(first_id: int, second_id: int) -> list[Together]:
    """Every game other than Mille two players finished at the same table, per game, with
    each one's net money over those games (one read)."""
    first, second = aliased(KindResult), aliased(KindResult)
    rows = db.session.execute(
        select(first.kind, func.count(), func.sum(first.net), func.sum(second.net))
        .join(second, second.game_id == first.game_id)
        .where(first.player_id == first_id, second.player_id == second_id)
        .group_by(first.kind)
    )
    found = {kind: Together(kind, count, int(a), int(b)) for kind, count, a, b in rows}
    return [found[kind] for kind in KINDS if kind in found]


def _standing(record: KindRecord, name: str, now: datetime) -> KindStanding:
    """A player's line from their record; the rating's uncertainty widened until ``now``."""
    by_games = kind_named(record.kind).ends_itself
    return KindStanding(
        player_id=record.player_id,
        name=name,
        played=record.played,
        won=record.won if by_games else record.deals_won,
        games_won=record.won,
        deals_won=record.deals_won,
        money_won=record.money_won,
        money_lost=record.money_lost,
        points_for=record.points_for,
        points_against=record.points_against,
        skill=skill.away(
            Skill(record.skill_mu, record.skill_sigma),
            skill.days_between(record.last_played_at, now),
        ),
        provisional=skill.provisional(record.played, record.last_played_at, now),
    )
