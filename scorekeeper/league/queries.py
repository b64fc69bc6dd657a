"""What the league pages read: standings, a player's record, head-to-head, the
archive of games, and who owes whom.

Every function here reads the derived tables of :mod:`.league_stats` or the
games' own derived columns with a fixed number of queries, whatever the
league's size: no query per row, and no page that replays a game. The JSON
API can call the same functions; they return plain rows, not HTML.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import and_, or_, select, true, tuple_, union_all
from sqlalchemy.orm import aliased, joinedload
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.audit import IMPORTED
from scorekeeper.engine.rating import START
from scorekeeper.league.stats import season_range
from scorekeeper.models import (
    FINISHED,
    IN_PROGRESS,
    AuditEvent,
    Game,
    GameResult,
    League,
    Membership,
    PairRecord,
    Player,
    PlayerRecord,
    Season,
    SeasonRecord,
    User,
    db,
)

PAGE_SIZE = 25
#: The largest id a row can have (PostgreSQL's integer); larger ones are nobody's.
MAX_ID = 2**31 - 1


# Standings ----------------------------------------------------------------------


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
}
DEFAULT_SORT = "won"


def standings(
    league_id: int,
    season: Season | None = None,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
) -> list[Standing]:
    """Every player with a finished game (in the season), best first unless sorted otherwise.

    Best first means most wins, then best net money, then name. Sorting by a
    column keeps that order among equal values; a column without a value (the
    average margin of a player who never won) sorts last either way.
    """
    record: Any = PlayerRecord if season is None else SeasonRecord
    query = select(record, Player.name).join(Player, Player.id == record.player_id)
    if season is None:
        query = query.where(PlayerRecord.league_id == league_id)
    else:
        query = query.where(SeasonRecord.season_id == season.id)
    rows = [_standing(row, name) for row, name in db.session.execute(query)]
    rows.sort(key=lambda s: s.name.casefold())
    rows.sort(key=lambda s: (s.won, s.net), reverse=True)
    value = SORTS.get(sort, SORTS[DEFAULT_SORT])
    present = [row for row in rows if value(row) is not None]
    present.sort(key=value, reverse=descending)
    return present + [row for row in rows if value(row) is None]


def _standing(record: Any, name: str) -> Standing:
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
    )


# A player -------------------------------------------------------------------------


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


def player_summary(player: Player) -> PlayerSummary:
    """A player's record, opponents, best and worst games, and the course of their
    net money and rating (at most :data:`CHART_POINTS` games, evenly spread)."""
    found = db.session.execute(
        select(PlayerRecord).where(PlayerRecord.player_id == player.id)
    ).scalar_one_or_none()
    record = None if found is None else _standing(found, player.name)
    return PlayerSummary(
        record=record,
        opponents=_opponents(player.id),
        biggest_win=_extreme(player.id, best=True),
        worst_loss=_extreme(player.id, best=False),
        trend=_trend(player.id, record.played if record else 0),
    )


def _opponents(player_id: int) -> list[Opponent]:
    rows = db.session.execute(
        select(PairRecord, Player.name)
        .join(Player, Player.id == PairRecord.opponent_id)
        .where(PairRecord.player_id == player_id)
        .order_by(PairRecord.played.desc(), Player.name_key)
    )
    return [
        Opponent(pair.opponent_id, name, pair.played, pair.won, pair.net) for pair, name in rows
    ]


def _extreme(player_id: int, *, best: bool) -> Result | None:
    r = GameResult
    row = db.session.execute(
        select(r, Player.name)
        .join(Player, Player.id == r.opponent_id)
        .where(r.player_id == player_id, r.won if best else ~r.won)
        .order_by(r.net.desc() if best else r.net, r.game_id.desc())
        .limit(1)
    ).first()
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
    r = GameResult
    rows = db.session.execute(
        select(r.number, r.finished_at, r.net_after, r.rating_after)
        .where(r.player_id == player_id, r.number.in_(_sampled(played)))
        .order_by(r.number)
    )
    return [Point(0, None, 0, START)] + [Point(*row) for row in rows]


# Head-to-head -------------------------------------------------------------------------


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


# The archive of games -----------------------------------------------------------------

STATUSES = {
    IN_PROGRESS: "In progress",
    FINISHED: "Finished",
    "unpaid": "Finished, not paid",
    "paid": "Paid",
}


@dataclass(frozen=True)
class GameFilters:
    """Which games to list; None means any."""

    player: int | None = None
    opponent: int | None = None  # only with a player
    season: Season | None = None
    status: str | None = None
    preset: str | None = None  # a preset's value, or "custom"


@dataclass(frozen=True)
class ArchivePage:
    """One page of games, newest first, with the cursors to the pages on either side."""

    games: list[Game]
    newer: int | None  # list games played after this game (``before=``) for the newer page
    older: int | None  # list games played before this game (``after=``) for the older page


def archive(
    league_id: int,
    filters: GameFilters = GameFilters(),
    *,
    after: int | None = None,
    before: int | None = None,
    limit: int = PAGE_SIZE,
) -> ArchivePage:
    """Games newest first, by when they were played (:attr:`Game.played_at`, the id
    breaking ties): those played before game ``after``, or after game ``before``.

    Keyset pages (``(played_at, id) < (that game's, its id)``) cost the same at page 500
    as at page 1; the cursor stays a game id, so links and the API's ``next_page`` keep
    their form.
    """
    newest_first = before is None
    bound: ColumnElement[bool] = true()
    if after is not None:
        bound = _played_key() < _played_key_of(league_id, after)
    elif before is not None:
        bound = _played_key() > _played_key_of(league_id, before)
    games = _games(league_id, filters, bound, newest_first, limit + 1)
    more = len(games) > limit  # beyond this page, in the direction read
    games = games[:limit]
    if not games:
        return ArchivePage([], None, None)
    if newest_first:
        # Reached from a newer page (``after``), there is one to go back to.
        return ArchivePage(games, games[0].id if after else None, games[-1].id if more else None)
    games.reverse()
    # Reached from an older page (``before``), there is one to go forward to.
    return ArchivePage(games, games[0].id if more else None, games[-1].id)


def _played_key() -> Any:
    """The order of "newest first", read backwards."""
    return tuple_(Game.played_at, Game.id)


def _played_key_of(league_id: int, game_id: int) -> Any:
    """The cursor game's place in that order, read inside the page's own query (a
    game of another league, or none, is no place: the page is empty)."""
    played_at = (
        select(Game.played_at)
        .where(Game.id == game_id, Game.league_id == league_id)
        .scalar_subquery()
    )
    return tuple_(played_at, game_id)


def _games(
    league_id: int,
    filters: GameFilters,
    bound: ColumnElement[bool],
    newest_first: bool,
    limit: int,
) -> list[Game]:
    order: list[ColumnElement[Any]] = (
        [Game.played_at.desc(), Game.id.desc()]
        if newest_first
        else [Game.played_at.asc(), Game.id.asc()]
    )
    conditions = [Game.league_id == league_id, bound, *_filter_conditions(filters)]
    sides = _sides(filters)
    query = select(Game).options(joinedload(Game.player0), joinedload(Game.player1))
    if len(sides) == 1:
        query = query.where(*conditions, *sides)
    else:
        # One index range per seat, each already in the order read, instead of an OR
        # that would read every game of the player and sort them.
        branches = [
            select(Game.id).where(*conditions, side).order_by(*order).limit(limit).subquery()
            for side in sides
        ]
        ids = union_all(*(select(branch.c.id) for branch in branches)).subquery()
        query = query.where(Game.id.in_(select(ids.c.id)))
    return list(db.session.scalars(query.order_by(*order).limit(limit)))


def _sides(filters: GameFilters) -> list[ColumnElement[bool]]:
    player, opponent = filters.player, filters.opponent
    if player is None:
        return [true()]
    if opponent is None:
        return [Game.player0_id == player, Game.player1_id == player]
    return [
        and_(Game.player0_id == player, Game.player1_id == opponent),
        and_(Game.player0_id == opponent, Game.player1_id == player),
    ]


def _filter_conditions(filters: GameFilters) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = []
    if filters.status in (IN_PROGRESS, FINISHED):
        conditions.append(Game.status == filters.status)
    elif filters.status == "unpaid":
        conditions += [Game.status == FINISHED, Game.paid_at.is_(None)]
    elif filters.status == "paid":
        conditions.append(Game.paid_at.is_not(None))
    if filters.preset == "custom":
        conditions.append(Game.preset.is_(None))
    elif filters.preset:
        conditions.append(Game.preset == filters.preset)
    if filters.season is not None:
        start, end = season_range(filters.season)
        # A finished game belongs to the season it ended in; one in progress to the
        # season it started in.
        conditions.append(
            or_(
                and_(Game.finished_at >= start, Game.finished_at < end),
                and_(Game.finished_at.is_(None), Game.created_at >= start, Game.created_at < end),
            )
        )
    return conditions


# Who owes whom --------------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    """What one player owes another over their unpaid games, netted."""

    debtor: Player
    creditor: Player
    amount: int  # cents, netted; 0 when they are even
    games: int
    debtor_won: int  # cents the debtor won in those games, before netting
    creditor_won: int

    @property
    def even(self) -> bool:
        return self.amount == 0


#: The two players of a pair record, made once: a fresh ``aliased()`` on every request
#: makes SQLAlchemy build and compile the statement anew each time (its cache keys on them).
_PAIR_PLAYER, _PAIR_OPPONENT = aliased(Player), aliased(Player)


def balances(league_id: int) -> list[Balance]:
    """Unpaid settlements netted per pair of players, largest debt first."""
    player, opponent = _PAIR_PLAYER, _PAIR_OPPONENT
    rows = db.session.execute(
        select(PairRecord, player, opponent)
        .join(player, player.id == PairRecord.player_id)
        .join(opponent, opponent.id == PairRecord.opponent_id)
        .where(
            PairRecord.league_id == league_id,
            PairRecord.player_id < PairRecord.opponent_id,  # each pair once
            PairRecord.unpaid_games > 0,
        )
    )
    found = [_balance(pair, first, second) for pair, first, second in rows]
    found.sort(key=lambda b: (-b.amount, b.debtor.name_key, b.creditor.name_key))
    return found


def balance_between(first: Player, second: Player) -> Balance | None:
    """What two players owe each other over their unpaid games; None if nothing is unpaid."""
    pair = db.session.get(PairRecord, (first.id, second.id))
    return _balance(pair, first, second) if pair and pair.unpaid_games else None


def _balance(pair: PairRecord, first: Player, second: Player) -> Balance:
    """The balance of a pair record (``first``'s side): the one who won less owes; two who
    are even are named in alphabetical order."""
    won = {first.id: pair.unpaid_won, second.id: pair.unpaid_lost}
    debtor, creditor = sorted((first, second), key=lambda p: (won[p.id], p.name_key))
    amount = won[creditor.id] - won[debtor.id]
    return Balance(debtor, creditor, amount, pair.unpaid_games, won[debtor.id], won[creditor.id])


def unpaid_between(league_id: int, player_id: int, other_id: int, through: int) -> list[Game]:
    """The unpaid finished games of two players up to game ``through``, to mark them paid."""
    sides = _sides(GameFilters(player=player_id, opponent=other_id))
    return list(
        db.session.scalars(
            select(Game)
            .options(joinedload(Game.player0), joinedload(Game.player1))
            .where(
                Game.league_id == league_id,
                Game.status == FINISHED,
                Game.paid_at.is_(None),
                Game.id <= through,
                or_(*sides),
            )
            .order_by(Game.id)
        )
    )


def owed_to(player_id: int, games: list[Game]) -> int:
    """Cents owed to the player over ``games`` (their winnings minus their losses)."""
    return sum(
        (game.amount_due or 0) * (1 if game.player(game.winner_seat or 0).id == player_id else -1)
        for game in games
    )


@dataclass(frozen=True)
class Payment:
    game: Game
    marked_by: str | None
    #: Paid as a file said, not marked here: who imported it (None: nobody since removed).
    imported_by: str | None = None
    imported: bool = False


@dataclass(frozen=True)
class PaymentPage:
    payments: list[Payment]
    older: int | None  # the game to continue after (``after=``)


def payments(league_id: int, *, after: int | None = None, limit: int = PAGE_SIZE) -> PaymentPage:
    """Games marked paid, latest payment first (keyset on the payment time and game id)."""
    import_event, importer = aliased(AuditEvent), aliased(User)
    query = (
        select(Game, User.username, import_event.id, importer.username)
        .options(joinedload(Game.player0), joinedload(Game.player1))
        .outerjoin(User, User.id == Game.paid_by_id)
        .outerjoin(
            import_event,
            and_(
                import_event.game_id == Game.id,
                import_event.action == IMPORTED,
                Game.paid_by_id.is_(None),
            ),
        )
        .outerjoin(importer, importer.id == import_event.user_id)
        .where(Game.league_id == league_id, Game.paid_at.is_not(None))
    )
    if after is not None:
        cursor = db.session.execute(
            select(Game.paid_at).where(Game.id == after, Game.league_id == league_id)
        ).scalar_one_or_none()
        if cursor is not None:
            query = query.where(tuple_(Game.paid_at, Game.id) < tuple_(cursor, after))
    rows = db.session.execute(
        query.order_by(Game.paid_at.desc(), Game.id.desc()).limit(limit + 1)
    ).all()
    found = [
        Payment(game, username, imported_by, imported=event is not None)
        for game, username, event, imported_by in rows[:limit]
    ]
    return PaymentPage(found, found[-1].game.id if len(rows) > limit else None)


def readable_leagues(user: User | None) -> list[League]:
    """The leagues ``user`` may read (None: a visitor): public ones, and their own."""
    query = select(League).order_by(League.name)
    if user is None:
        query = query.where(League.public)
    elif not user.is_admin:
        member_of = select(Membership.league_id).where(Membership.user_id == user.id)
        query = query.where(or_(League.public, League.id.in_(member_of)))
    return list(db.session.scalars(query))


def players_of(league_id: int) -> list[Player]:
    """The league's players by name, for the pages' choosers."""
    return list(
        db.session.scalars(
            select(Player).where(Player.league_id == league_id).order_by(Player.name_key)
        )
    )


def player_in(league_id: int, player_id: int | None) -> Player | None:
    if player_id is None or not 0 < player_id <= MAX_ID:
        return None
    player = db.session.get(Player, player_id)
    return player if player is not None and player.league_id == league_id else None
