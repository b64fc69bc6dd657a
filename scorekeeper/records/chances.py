"""Each player's chance to win a game before it starts, from their ratings: OpenSkill's
prediction (:func:`.skill.chances`) between the two players' skills as they stand now,
each widened for its player's time away. A player without a finished game in the league
(or a name that is no player yet) starts from a newcomer's skill."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from scorekeeper.models import MILLE, Player, PlayerRecord, db, utcnow
from scorekeeper.names import MAX_NAME_LENGTH
from scorekeeper.records import skill
from scorekeeper.records.players import find_player
from scorekeeper.records.skill import Skill

#: The game whose finished games the ratings come from (``results.py`` keeps its results
#: alone): a chance to win is said before a game of it, and no other.
RATED_GAME = MILLE


@dataclass(frozen=True)
class Chances:
    """Two players' chances to win a game between them, in whole percent adding up to
    100, and the games each one's rating comes from (their source, said beside them)."""

    names: tuple[str, str]
    percents: tuple[int, int]
    games: tuple[int, int]


def _standing_skills(player_ids: Iterable[int], now: datetime) -> dict[int, tuple[Skill, int]]:
    """Each player's skill widened to ``now`` and their games so far (one read); players
    without a finished game are left out."""
    ids = sorted(set(player_ids))
    if not ids:
        return {}
    rows = db.session.execute(
        select(
            PlayerRecord.player_id,
            PlayerRecord.skill_mu,
            PlayerRecord.skill_sigma,
            PlayerRecord.career_games,
            PlayerRecord.last_played_at,
        ).where(PlayerRecord.player_id.in_(ids))
    )
    return {
        row.player_id: (
            skill.away(
                Skill(row.skill_mu, row.skill_sigma),
                skill.days_between(row.last_played_at, now),
            ),
            row.career_games,
        )
        for row in rows
    }


def _between(names: tuple[str, str], known: tuple[tuple[Skill, int], tuple[Skill, int]]) -> Chances:
    (first, first_games), (second, second_games) = known
    return Chances(names, skill.chances(first, second), (first_games, second_games))


NEWCOMER = (skill.FIRST, 0)


def chances_of_pairs(
    pairs: Sequence[tuple[Player, Player]], now: datetime | None = None
) -> list[Chances]:
    """The chances of each game of ``pairs`` (a round of Tonight), in one read."""
    skills = _standing_skills((p.id for pair in pairs for p in pair), now or utcnow())
    return [
        _between(
            (first.name, second.name),
            (skills.get(first.id, NEWCOMER), skills.get(second.id, NEWCOMER)),
        )
        for first, second in pairs
    ]


def chances_of_names(
    league_id: int, first: str, second: str, now: datetime | None = None
) -> Chances | None:
    """The chances of a game between the players named (as the new-game form has them,
    matched ignoring case; a name that is no player yet is a newcomer); None unless two
    different names, each no longer than a name can be, are given."""
    if not first or not second or first.casefold() == second.casefold():
        return None
    if max(len(first), len(second)) > MAX_NAME_LENGTH:
        return None
    players = [find_player(league_id, name) for name in (first, second)]
    skills = _standing_skills((p.id for p in players if p is not None), now or utcnow())
    known = [NEWCOMER if p is None else skills.get(p.id, NEWCOMER) for p in players]
    names = [
        name if p is None else p.name for name, p in zip((first, second), players, strict=True)
    ]
    return _between((names[0], names[1]), (known[0], known[1]))
