"""The standings of a game of any kind but Mille (whose own are :mod:`.standings`): each
player who finished a game of it, with what they won, their money and their rating.

Read from the records every change keeps (:mod:`..records.kind_records`): one row per
player, whatever the league's history. A game that ends by its own rule counts the games
each player won (their side's); a sitting, which the scorekeeper ends, the deals each
player won.
"""

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from scorekeeper.engine.games import kind_named
from scorekeeper.models import KindRecord, Player, db, utcnow
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
        return skill.points(self.skill.conservative)


def kind_standings(league_id: int, kind: str, now: datetime | None = None) -> list[KindStanding]:
    """Every player who finished a game of ``kind`` in the league, best net first (then
    most won, then by name). A rating's uncertainty widens for the time away until ``now``."""
    now = now or utcnow()
    by_games = kind_named(kind).ends_itself
    rows = db.session.execute(
        select(KindRecord, Player.name)
        .join(Player, Player.id == KindRecord.player_id)
        .where(KindRecord.league_id == league_id, KindRecord.kind == kind)
    )
    found = [
        KindStanding(
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
        for record, name in rows
    ]
    return sorted(found, key=lambda row: (-row.net, -row.won, row.name.casefold()))
