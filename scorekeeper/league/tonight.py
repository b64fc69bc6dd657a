"""Tonight: who plays whom among the players here, and one tap to start the round.

Reads what :mod:`.pairing` weighs from the league — the games between the players here
this season (the season holding today, else all time; games in progress count, so a
second round tonight avoids the first), and when each last sat out a round started
here — and starts every game of a round: Mille's pairs with the league's default rules
and stakes, every other game's tables with the setup its last game in the league was
started with (``League.last_setup``), or the one the page asked for.

A round is kept as :class:`LeagueRound` rows, for who sat it out: one row, or, when
several sit out (Gambler's Rummy takes exactly four), one row per player who does, the
first carrying the form's one-time token and the others tokens made from it.
"""

import hashlib
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased, joinedload, selectinload

from scorekeeper.database import begin_held_write, holding_writes
from scorekeeper.engine import DifferenceRule, Rules, SkunkRule, Stakes
from scorekeeper.engine.games import GameKind, Refused
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.league.pairing import (
    History,
    Pair,
    Round,
    Seating,
    TooFewPlayers,
    pair,
    pair_round,
    seat_tables,
)
from scorekeeper.league.settle_up import night_began
from scorekeeper.models import (
    IN_PROGRESS,
    Game,
    GameSeat,
    League,
    LeagueRound,
    Player,
    Season,
    db,
    utcnow,
)
from scorekeeper.table import starting
from scorekeeper.web.game_words import game_name
from scorekeeper.web.messages import problem_message
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


def _in_season(league_id: int, now: datetime) -> list[ColumnElement[bool]]:
    """What keeps a query of games to the season holding ``now`` (nothing without one)."""
    season = this_season(league_id, now.date())
    if season is None:
        return []
    return [
        Game.played_at >= datetime.combine(season.starts_on, time()),
        Game.played_at < datetime.combine(season.ends_on + timedelta(days=1), time()),
    ]


def history(league_id: int, players: Sequence[int], now: datetime) -> History:
    """How often and how lately each two of ``players`` met this season, and when each
    last sat out: two grouped reads."""
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
    met: dict[frozenset[int], int] = {}
    last_met: dict[frozenset[int], datetime] = {}
    for first, second, count, last in db.session.execute(
        games.where(*_in_season(league_id, now)).group_by(Game.player0_id, Game.player1_id)
    ):
        key = pair(first, second)  # both seatings of a pair add up
        met[key] = met.get(key, 0) + count
        last_met[key] = max(last, last_met.get(key, last))
    return History(met=met, last_met=last_met, last_sat_out=sat_out_last(league_id, players))


def sat_out_last(league_id: int, players: Sequence[int]) -> dict[int, datetime]:
    """When each of ``players`` last sat out a round of the league (those who never did,
    absent): one grouped read."""
    return {
        player: moment
        for player, moment in db.session.execute(
            select(LeagueRound.sitting_out_id, func.max(LeagueRound.created_at))
            .where(LeagueRound.league_id == league_id, LeagueRound.sitting_out_id.in_(players))
            .group_by(LeagueRound.sitting_out_id)
        )
        if player is not None
    }


def sat_together(league_id: int, players: Sequence[int], now: datetime) -> dict[Pair, int]:
    """How many games of any kind each two of ``players`` sat at together this season (two
    who never did, absent): one grouped read of the games' seats."""
    one, other = aliased(GameSeat), aliased(GameSeat)
    query = (
        select(one.player_id, other.player_id, func.count())
        .select_from(one)
        .join(other, and_(other.game_id == one.game_id, other.player_id > one.player_id))
        .join(Game, Game.id == one.game_id)
        .where(
            Game.league_id == league_id,
            Game.abandoned_at.is_(None),
            one.player_id.in_(players),
            other.player_id.in_(players),
        )
    )
    grouped = query.where(*_in_season(league_id, now)).group_by(one.player_id, other.player_id)
    return {pair(first, second): count for first, second, count in db.session.execute(grouped)}


def here_tonight(league: League, now: datetime | None = None) -> list[Player]:
    """Who is here tonight, as far as the league knows: the players at its games started
    tonight (since 6 in the morning in its time zone, as settling up counts a night; an
    abandoned game left out) and those who sat out one of its rounds tonight, by name."""
    began = night_began(league.time_zone, now)
    seated = (
        select(GameSeat.player_id)
        .join(Game, Game.id == GameSeat.game_id)
        .where(Game.league_id == league.id, Game.created_at >= began, Game.abandoned_at.is_(None))
    )
    sat_out = select(LeagueRound.sitting_out_id).where(
        LeagueRound.league_id == league.id, LeagueRound.created_at >= began
    )
    return list(
        db.session.scalars(
            select(Player)
            .where(
                Player.league_id == league.id, or_(Player.id.in_(seated), Player.id.in_(sat_out))
            )
            .order_by(Player.name_key)
        )
    )


def games_in_progress(league_id: int, limit: int = 20) -> list[Game]:
    """The league's newest games in progress, every player of each loaded: two reads."""
    return list(
        db.session.scalars(
            select(Game)
            .where(
                Game.league_id == league_id,
                Game.status == IN_PROGRESS,
                Game.abandoned_at.is_(None),
            )
            .options(joinedload(Game.player0), joinedload(Game.player1), selectinload(Game.seats))
            .order_by(Game.played_at.desc(), Game.id.desc())
            .limit(limit)
        ).unique()
    )


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

    def start() -> tuple[int, list[int | None]]:
        plan = plan_round(league.id, players)
        if plan.signature != signature:
            raise Conflict(
                gettext("The pairings changed since the page was loaded; here they are now.")
            )
        for first, second in plan.games:
            starting.start_game(league.id, (first.name, second.name), rules, stakes)
        return len(plan.games), [plan.round.sitting_out]

    return _start_once(league, token, start)


def _start_once(
    league: League, token: str, start: Callable[[], tuple[int, Sequence[int | None]]]
) -> int:
    """Run ``start`` (it starts a round's games and says how many, and who sits out) in one
    transaction with the round's rows, one round at a time per league; nothing for a
    ``token`` seen before. Returns how many games were started."""
    with holding_writes():
        begin_held_write()
        # One round at a time per league: a second organiser's tap waits, then finds the
        # pairings changed by the games this one started.
        db.session.execute(
            select(League.id).where(League.id == league.id).with_for_update(key_share=True)
        )
        if db.session.scalar(select(LeagueRound.id).where(LeagueRound.token == token)):
            return 0
        started, sitting_out = start()
        for number, player in enumerate(sitting_out or [None]):
            db.session.add(
                LeagueRound(league_id=league.id, sitting_out_id=player, token=_nth(token, number))
            )
        try:
            db.session.commit()
        except IntegrityError:  # the same tap, committed first by another process
            return 0
    return started


def _nth(token: str, number: int) -> str:
    """The token of a round's ``number``-th row: the form's own for the first."""
    if number == 0:
        return token
    return hashlib.sha256(f"{token}.{number}".encode()).hexdigest()


# Tables of more than two: every game but Mille ----------------------------------------


def sizes_taken(
    kind: GameKind, rules: Mapping[str, object], stakes: Mapping[str, int | None]
) -> list[int]:
    """The table sizes ``kind`` takes with these rules and stakes: from its fewest players
    to its most, less those the setup refuses for that size alone (Scotch Whist's
    partnerships want 4, 6 or 8 players). Stakes still to be given refuse no size."""
    problems: dict[int, set[tuple[str, str]]] = {}
    for size in range(kind.min_players, kind.max_players + 1):
        try:
            kind.setup(size, rules, stakes)
            problems[size] = set()
        except Refused as refused:
            problems[size] = {(problem.field, problem.code) for problem in refused.problems}
    common = set.intersection(*problems.values())
    return [size for size, found in problems.items() if found == common]


@dataclass(frozen=True)
class Tables:
    """A round of a game of more than two as the page shows it: its tables with their
    players (each table by name, its seat order), who sits out."""

    kind: GameKind
    seating: Seating
    players: dict[int, Player]

    @property
    def tables(self) -> list[list[Player]]:
        return [self._by_name(table) for table in self.seating.tables]

    @property
    def sitting_out(self) -> list[Player]:
        return self._by_name(self.seating.sitting_out)

    def _by_name(self, ids: Sequence[int]) -> list[Player]:
        return sorted((self.players[i] for i in ids), key=lambda player: player.name_key)

    @property
    def signature(self) -> str:
        """The round in a few characters, so a page's button starts the round it showed."""
        tables = "|".join(".".join(map(str, table)) for table in self.seating.tables)
        shown = f"{self.kind.name}:{tables};{'.'.join(map(str, self.seating.sitting_out))}"
        return hashlib.sha256(shown.encode()).hexdigest()[:40]


def plan_tables(
    league_id: int, kind: GameKind, players: Sequence[Player], sizes: Sequence[int]
) -> Tables:
    """Tonight's next round of ``kind`` for ``players``, at tables of ``sizes``; a
    ServiceError when too few are here to seat one table."""
    ids = [player.id for player in players]
    now = utcnow()
    history = History(
        met=sat_together(league_id, ids, now), last_sat_out=sat_out_last(league_id, ids)
    )
    try:
        seating = seat_tables(ids, sizes, history)
    except TooFewPlayers:
        raise ServiceError(
            gettext(
                "%(game)s needs %(num)s players at a table: tick at least %(num)s who are here.",
                game=game_name(kind.name),
                num=min(sizes, default=kind.min_players),
            ),
            field="here",
        ) from None
    return Tables(kind, seating, {player.id: player for player in players})


def start_tables(
    league: League,
    kind: GameKind,
    players: Sequence[Player],
    setup: tuple[Mapping[str, object], Mapping[str, int | None]],
    signature: str,
    token: str,
) -> int:
    """Start every table of the round of ``kind`` the page showed (its ``signature``), each
    with ``setup`` (its rules and stakes), and keep who sat out. Returns how many games it
    started; Conflict if the round would now be another; nothing for a ``token`` seen
    before (a double tap)."""
    rules, stakes = setup

    def start() -> tuple[int, list[int | None]]:
        plan = plan_tables(league.id, kind, players, sizes_taken(kind, rules, stakes))
        if plan.signature != signature:
            raise Conflict(
                gettext("The tables changed since the page was loaded; here they are now.")
            )
        for table in plan.tables:
            names = [player.name for player in table]
            starting.start_game_of(kind, league.id, names, rules, stakes, create_players=False)
        return len(plan.tables), list(plan.seating.sitting_out)

    try:
        return _start_once(league, token, start)
    except Refused as refused:  # the page checks the setup first: kept for safety
        raise ServiceError(problem_message(refused.problems[0]), field="setup") from None
