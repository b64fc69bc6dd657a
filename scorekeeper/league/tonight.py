"""Tonight: who plays whom among the players here, and one tap to start the round.

Reads what :mod:`.pairing` weighs from the league — the games between the players here
this season (the season holding today, else all time; games in progress count, so a
second round tonight avoids the first), and when each last sat out a round started
here — and starts every game of a round with the league's default rules and stakes.
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from scorekeeper.database import begin_held_write, holding_writes
from scorekeeper.engine import DifferenceRule, Rules, SkunkRule, Stakes
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.league.pairing import History, Round, pair, pair_round
from scorekeeper.models import Game, League, LeagueRound, Player, Season, db, utcnow
from scorekeeper.table import starting
from scorekeeper.web.translation import gettext

#: The most players a Tonight page pairs at once (its checkboxes, read from a form).
MAX_PLAYERS_HERE = 200
#: The stakes of a league that has not chosen any: $1 and $3, as on the new-game page.
DEFAULT_STAKES = Stakes.from_small(100)


def league_rules_and_stakes(defaults: dict[str, Any] | None) -> tuple[Rules, Stakes]:
    """The rules and stakes a league's new games start from (its settings)."""
    if not defaults or "rules" not in defaults:  # none saved (other games' may be kept)
        return Rules(), DEFAULT_STAKES
    rules, stakes = defaults["rules"], defaults["stakes"]
    return (
        Rules(
            target=int(rules["target"]),
            progressive=bool(rules["progressive"]),
            natural_needed=bool(rules["natural_needed"]),
            skunk=SkunkRule(rules["skunk"]),
            difference=DifferenceRule(rules["difference"]),
        ),
        Stakes(small=int(stakes["small"]), big=int(stakes["big"])),
    )


def this_season(league_id: int, today: date) -> Season | None:
    """The season holding ``today`` (the one that started last, if several do)."""
    return db.session.scalars(
        select(Season)
        .where(Season.league_id == league_id, Season.starts_on <= today, Season.ends_on >= today)
        .order_by(Season.starts_on.desc(), Season.id.desc())
        .limit(1)
    ).first()


def players_here(league_id: int, ids: Collection[int]) -> list[Player]:
    """The league's players among ``ids`` (others are ignored), by name."""
    if not ids:
        return []
    return list(
        db.session.scalars(
            select(Player)
            .where(Player.league_id == league_id, Player.id.in_(sorted(set(ids))))
            .order_by(Player.name_key)
        )
    )


def history(league_id: int, players: Sequence[int], now: datetime) -> History:
    """How often and how lately each two of ``players`` met this season, and when each
    last sat out: two grouped reads."""
    season = this_season(league_id, now.date())
    games = select(
        Game.player0_id,
        Game.player1_id,
        func.count().label("games"),
        func.max(Game.played_at).label("last"),
    ).where(
        Game.league_id == league_id,
        Game.player0_id.in_(players),
        Game.player1_id.in_(players),
        Game.abandoned_at.is_(None),
    )
    if season is not None:
        games = games.where(
            Game.played_at >= datetime.combine(season.starts_on, time()),
            Game.played_at < datetime.combine(season.ends_on + timedelta(days=1), time()),
        )
    met: dict[frozenset[int], int] = {}
    last_met: dict[frozenset[int], datetime] = {}
    for first, second, count, last in db.session.execute(
        games.group_by(Game.player0_id, Game.player1_id)
    ):
        key = pair(first, second)  # both seatings of a pair add up
        met[key] = met.get(key, 0) + count
        last_met[key] = max(last, last_met.get(key, last))
    sat_out = {
        player: moment
        for player, moment in db.session.execute(
            select(LeagueRound.sitting_out_id, func.max(LeagueRound.created_at))
            .where(LeagueRound.league_id == league_id, LeagueRound.sitting_out_id.in_(players))
            .group_by(LeagueRound.sitting_out_id)
        )
        if player is not None
    }
    return History(met=met, last_met=last_met, last_sat_out=sat_out)


@dataclass(frozen=True)
class Plan:
    """A round as the page shows it: its games with the players, who sits out."""

    round: Round
    players: dict[int, Player]

    @property
    def games(self) -> list[tuple[Player, Player]]:
        return [(self.players[a], self.players[b]) for a, b in self.round.games]

    @property
    def sitting_out(self) -> Player | None:
        out = self.round.sitting_out
        return None if out is None else self.players[out]

    @property
    def signature(self) -> str:
        """The round in a few characters, so a page's button starts the round it showed."""
        games = ",".join(f"{a}-{b}" for a, b in self.round.games)
        return f"{games};{self.round.sitting_out or ''}"


def plan_round(league_id: int, players: Sequence[Player]) -> Plan:
    """Tonight's next round for ``players`` (two or more of the league's)."""
    ids = [player.id for player in players]
    if len(set(ids)) < 2:
        raise ServiceError(gettext("Tick two or more players who are here."), field="here")
    found = pair_round(ids, history(league_id, ids, utcnow()))
    return Plan(found, {player.id: player for player in players})


def start_round(league: League, players: Sequence[Player], signature: str, token: str) -> int:
    """Start every game of the round the page showed (its ``signature``), with the league's
    default rules and stakes, and keep who sat out. Returns how many games it started.

    Refused (Conflict) if the round would now be another (a game started meanwhile
    changed who has met whom); a ``token`` seen before (a double tap) starts nothing.
    """
    rules, stakes = league_rules_and_stakes(league.defaults)
    with holding_writes():
        begin_held_write()
        # One round at a time per league: a second organiser's tap waits, then finds the
        # pairings changed by the games this one started.
        db.session.execute(
            select(League.id).where(League.id == league.id).with_for_update(key_share=True)
        )
        if db.session.scalar(select(LeagueRound.id).where(LeagueRound.token == token)):
            return 0
        plan = plan_round(league.id, players)
        if plan.signature != signature:
            raise Conflict(
                gettext("The pairings changed since the page was loaded; here they are now.")
            )
        for first, second in plan.games:
            starting.start_game(league.id, (first.name, second.name), rules, stakes)
        db.session.add(
            LeagueRound(league_id=league.id, sitting_out_id=plan.round.sitting_out, token=token)
        )
        try:
            db.session.commit()
        except IntegrityError:  # the same tap, committed first by another process
            return 0
    return len(plan.games)
