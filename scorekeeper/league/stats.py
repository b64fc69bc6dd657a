"""The league's derived tables, kept up to date inside every change to a game.

:func:`game_changed` runs in the write transaction of every change to a game's
deals (services call it from ``_refresh``). It rewrites the game's two
:class:`GameResult` rows from the game's own derived columns, then walks the
league's results from that game onward in game order — ``(finished_at,
game_id)`` — renumbering, re-rating and re-adding each player's running net,
and finally re-adds the records of every player that walk touched — or, in the
usual case of a game that ends after every other, adds its two results to its
players' records, so the cost doesn't grow with their history. Nothing
here is ever recomputed while a page is read, and nothing is cached: a page
reads what the last change committed.

:func:`rebuild_league` does the same from nothing, for imports and repairs.
"""

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from itertools import groupby
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, case, delete, func, insert, or_, select, tuple_, union_all
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.database import insert as upsert
from scorekeeper.engine.rating import START, Rated, new_ratings
from scorekeeper.models import (
    Game,
    GameResult,
    League,
    PairRecord,
    PlayerRecord,
    Season,
    SeasonRecord,
    db,
)

OrderKey = tuple[datetime, int]


class Running(NamedTuple):
    """A player's standing just before a game: games played, rating, net cents so far."""

    games: int
    rating: int
    net: int


FIRST_GAME = Running(0, START, 0)
#: Up to this many pairs are looked up by index one by one (see :func:`_pairs_in`).
PAIRS_AS_OR = 16
PAIR_SUMS = ("played", "won", "net", "unpaid_games", "unpaid_won", "unpaid_lost")
RECORD_SUMS = (
    "played",
    "won",
    "net",
    "naturals",
    "chapeaux",
    "skunks_given",
    "skunks_taken",
    "margin_won",
    "deals",
    "points",
)


def game_changed(game: Game, *, was_finished: bool = True) -> None:
    """Bring the game's results, and every result after it in game order, up to date.

    The caller holds the league's lock (``services._game_for_update``). ``was_finished``:
    whether the game had ended before this change (and so has results stored).
    """
    if not was_finished:
        if not game.finished:
            return  # a game in progress with no results: nothing derived changes
        if add_newest(game):
            return
    stored = {row.player_id: row for row in _results_of(game.id)}
    if not stored and not game.finished:
        return
    keys = [(row.finished_at, row.game_id) for row in stored.values()]
    if game.finished:
        for values in result_values(game):
            row = stored.get(values["player_id"])
            if row is None:
                db.session.add(GameResult(**values))
            else:
                for name, value in values.items():
                    _assign(row, name, value)
        assert game.finished_at is not None
        keys.append((game.finished_at, game.id))
    else:
        for row in stored.values():
            db.session.delete(row)
    db.session.flush()
    start = min(keys)
    touched = rerate(game.league_id, start) | {game.player0_id, game.player1_id}
    refresh_records(game.league_id, touched, since=start[0])
    refresh_pairs(game.league_id, [(game.player0_id, game.player1_id)])


#: Finished games read, rated and inserted together when a league is rebuilt.
REBUILD_BATCH = 1000


def add_newest(game: Game) -> bool:
    """The usual change at the table: a game ends after every other game of both its
    players. Its two results are numbered and rated from the players' last ones, and
    added to their records, their records in the seasons it ended in and their
    head-to-head — five statements, however long the league's history.

    Exactly what the full walk in :func:`game_changed` would write: no later result
    involves either player, so no other result's running values change
    (``tests/league/test_leagues_data.py`` compares every derived row with a rebuild).
    Returns False, having written nothing, if either player has a later result.
    """
    assert game.finished_at is not None
    key = (game.finished_at, game.id)
    last = _last_results((game.player0_id, game.player1_id))
    if any((row.finished_at, row.game_id) > key for row in last):
        return False
    before = {row.player_id: Running(row.number, row.rating_after, row.net_after) for row in last}
    rows = result_values(game)
    winner, loser = sorted(rows, key=lambda row: not row["won"])
    _rate(winner, loser, [before.get(row["player_id"], FIRST_GAME) for row in (winner, loser)])
    db.session.execute(insert(GameResult), rows)
    records = [_record_of(row) for row in rows]
    db.session.execute(_adding(_upsert(PlayerRecord), ["player_id"], RECORD_SUMS), records)
    db.session.execute(_into_seasons(game.finished_at.date()), records)
    unpaid = game.paid_at is None
    pairs = [
        {
            "player_id": row["player_id"],
            "opponent_id": row["opponent_id"],
            "league_id": row["league_id"],
            "played": 1,
            "won": int(row["won"]),
            "net": row["net"],
            "unpaid_games": int(unpaid),
            "unpaid_won": row["net"] if unpaid and row["won"] else 0,
            "unpaid_lost": -row["net"] if unpaid and not row["won"] else 0,
        }
        for row in rows
    ]
    db.session.execute(_adding(_upsert(PairRecord), ["player_id", "opponent_id"], PAIR_SUMS), pairs)
    return True


def _last_results(players: Sequence[int]) -> list[Any]:
    """Each player's last result in game order (none for a first game), in one statement."""
    r = GameResult
    last = [
        select(r.player_id, r.finished_at, r.game_id, r.number, r.rating_after, r.net_after)
        .where(r.player_id == player)
        .order_by(r.finished_at.desc(), r.game_id.desc())
        .limit(1)
        .subquery()
        for player in players
    ]
    return list(db.session.execute(union_all(*(select(each) for each in last))))


def _record_of(result: dict[str, Any]) -> dict[str, Any]:
    """What one result adds to a record (all time or a season's), and the rating it leaves."""
    won = result["won"]
    return {
        "player_id": result["player_id"],
        "league_id": result["league_id"],
        "played": 1,
        "won": int(won),
        "net": result["net"],
        "naturals": result["naturals"],
        "chapeaux": result["chapeaux"],
        "skunks_given": int(result["skunk_given"]),
        "skunks_taken": int(result["skunk_taken"]),
        "margin_won": result["margin"] if won else 0,
        "deals": result["deals"],
        "points": result["total"],
        "rating_start": result["rating_before"],  # kept by a record that exists
        "rating": result["rating_after"],
    }


def _upsert(model: Any) -> Any:
    """An upsert's ``INSERT`` into the model's table (a Core statement: the ORM's bulk
    insert takes no ``ON CONFLICT … SET`` by column name)."""
    return upsert(model.__table__)


def _adding(statement: Any, keys: list[str], sums: Sequence[str]) -> Any:
    """``statement`` (an upsert's ``INSERT``) adding to the row that exists: its ``sums``
    grow by the new values, and a record takes the new rating."""
    table = statement.table
    values = {name: table.c[name] + statement.excluded[name] for name in sums}
    if "rating" in table.c:
        values["rating"] = statement.excluded.rating
    return statement.on_conflict_do_update(index_elements=keys, set_=values)


def _into_seasons(day: date) -> Any:
    """A record (:func:`_record_of`) added to the player's record in every season of the
    league holding ``day``: one ``INSERT … SELECT`` from the seasons, however many."""
    s = SeasonRecord.__table__.c
    names = ["player_id", "league_id", *RECORD_SUMS, "rating_start", "rating"]
    seasons = select(Season.id, *(bindparam(name, type_=s[name].type) for name in names)).where(
        Season.league_id == bindparam("league_id"),
        Season.starts_on <= day,
        Season.ends_on >= day,
    )
    statement = _upsert(SeasonRecord).from_select(["season_id", *names], seasons)
    return _adding(statement, ["season_id", "player_id"], RECORD_SUMS)


def rebuild_league(league_id: int) -> None:
    """Every derived row of the league made again from its games (imports, repairs)."""
    lock_league(league_id)
    for model in (GameResult, PlayerRecord, SeasonRecord, PairRecord):
        db.session.execute(delete(model).where(model.league_id == league_id))
    games = db.session.scalars(
        select(Game)
        .where(Game.league_id == league_id, Game.status == "finished")
        .order_by(Game.finished_at, Game.id)
        .execution_options(yield_per=REBUILD_BATCH)  # a league of any size, in bounded memory
    )
    running: dict[int, Running] = {}
    for batch in games.partitions():
        rows = [values for game in batch for values in result_values(game)]
        _rate_from_scratch(rows, running)  # numbered and rated before the insert
        db.session.execute(insert(GameResult), rows)
    players = set(db.session.scalars(select(GameResult.player_id).where(_in_league(league_id))))
    refresh_records(league_id, players, since=None)
    pairs = db.session.execute(
        select(GameResult.player_id, GameResult.opponent_id)
        .where(_in_league(league_id), GameResult.seat == 0)
        .distinct()
    )
    refresh_pairs(league_id, [(a, b) for a, b in pairs])


def result_values(game: Game) -> list[dict[str, Any]]:
    """The two result rows of a finished game, from the game's own derived columns."""
    assert game.winner_seat is not None
    assert game.amount_due is not None
    totals = (game.total0, game.total1)
    players = (game.player0_id, game.player1_id)
    skunk = game.rules.is_skunk(totals[1 - game.winner_seat])
    rows = []
    for seat in (0, 1):
        won = seat == game.winner_seat
        rows.append(
            {
                "game_id": game.id,
                "player_id": players[seat],
                "league_id": game.league_id,
                "opponent_id": players[1 - seat],
                "seat": seat,
                "finished_at": game.finished_at,
                "won": won,
                "net": game.amount_due if won else -game.amount_due,
                "total": totals[seat],
                "opponent_total": totals[1 - seat],
                "margin": totals[seat] - totals[1 - seat],
                "naturals": (game.stars0, game.stars1)[seat],
                "chapeaux": (game.chapeaux0, game.chapeaux1)[seat],
                "skunk_given": won and skunk,
                "skunk_taken": not won and skunk,
                "deals": game.deal_count,
            }
        )
    return rows


# The running values: number, ratings, net so far -----------------------------


def rerate(league_id: int, start: OrderKey | None) -> set[int]:
    """Renumber and re-rate every result from ``start`` on (all, if None), in game order.

    Returns the players whose results were walked.
    """
    query = select(GameResult).where(_in_league(league_id))
    if start is not None:
        query = query.where(_order_key() >= tuple_(*start))
    rows = db.session.scalars(
        query.order_by(GameResult.finished_at, GameResult.game_id, GameResult.seat)
        # Rows rewritten by a bulk statement in this transaction must be read afresh.
        .execution_options(populate_existing=True)
    )
    running: dict[int, Running] = {}
    for _, pair in groupby(rows, key=lambda row: row.game_id):
        first, second = pair
        winner, loser = (first, second) if first.won else (second, first)
        before = [
            running.get(row.player_id) or _running_before(row.player_id, start)
            for row in (winner, loser)
        ]
        after = _after_game(before, (winner.net, loser.net))
        for row, was, now in zip((winner, loser), before, after, strict=True):
            _assign(row, "number", now.games)
            _assign(row, "rating_before", was.rating)
            _assign(row, "rating_after", now.rating)
            _assign(row, "net_after", now.net)
            running[row.player_id] = now
    db.session.flush()
    return set(running)


def _after_game(before: Sequence[Running], nets: tuple[int, int]) -> list[Running]:
    """The winner's and the loser's standings after their game, from those before it."""
    winner, loser = before
    ratings = new_ratings(Rated(winner.rating, winner.games), Rated(loser.rating, loser.games))
    return [
        Running(was.games + 1, rating, was.net + net)
        for was, rating, net in zip(before, ratings, nets, strict=True)
    ]


def _rate(winner: dict[str, Any], loser: dict[str, Any], before: list[Running]) -> list[Running]:
    """One game's two result rows numbered and rated from each player's state ``before``
    it (winner's first); the states after it."""
    after = _after_game(before, (winner["net"], loser["net"]))
    for row, was, now in zip((winner, loser), before, after, strict=True):
        row.update(
            number=now.games,
            rating_before=was.rating,
            rating_after=now.rating,
            net_after=now.net,
        )
    return after


def _rate_from_scratch(rows: list[dict[str, Any]], running: dict[int, Running]) -> None:
    """What :func:`rerate` does from the first game, on new result rows before they are
    inserted (sorted into game order in place), continuing from ``running``: each
    player's state after the games before these, updated as they are rated."""
    rows.sort(key=lambda row: (row["finished_at"], row["game_id"], row["seat"]))
    for _, pair in groupby(rows, key=lambda row: row["game_id"]):
        first, second = pair
        winner, loser = (first, second) if first["won"] else (second, first)
        before = [running.get(row["player_id"], FIRST_GAME) for row in (winner, loser)]
        for row, now in zip((winner, loser), _rate(winner, loser, before), strict=True):
            running[row["player_id"]] = now


def _running_before(player_id: int, start: OrderKey | None) -> Running:
    if start is None:
        return FIRST_GAME
    last = db.session.execute(
        select(GameResult.number, GameResult.rating_after, GameResult.net_after)
        .where(GameResult.player_id == player_id, _order_key() < tuple_(*start))
        .order_by(GameResult.finished_at.desc(), GameResult.game_id.desc())
        .limit(1)
    ).first()
    return FIRST_GAME if last is None else Running(*last)


# Records: all time, per season, per opponent ---------------------------------


def refresh_records(league_id: int, players: set[int], since: datetime | None) -> None:
    """Add up again the all-time records of ``players``, and their records in every
    season that ends on or after ``since`` (every season, if None)."""
    if not players:
        return
    ids = sorted(players)
    db.session.execute(delete(PlayerRecord).where(PlayerRecord.player_id.in_(ids)))
    rows = _add_up(league_id, ids, None)
    if rows:
        db.session.execute(insert(PlayerRecord), rows)
    seasons = select(Season).where(Season.league_id == league_id)
    if since is not None:
        seasons = seasons.where(Season.ends_on >= since.date())
    for season in db.session.scalars(seasons).all():
        refresh_season(season, ids)


def refresh_season(season: Season, players: Sequence[int] | None = None) -> None:
    """Add up again the season's records (of ``players``, or of everyone)."""
    stale = delete(SeasonRecord).where(SeasonRecord.season_id == season.id)
    if players is not None:
        stale = stale.where(SeasonRecord.player_id.in_(players))
    db.session.execute(stale)
    rows = _add_up(season.league_id, players, season_range(season))
    if rows:
        db.session.execute(insert(SeasonRecord), [{**row, "season_id": season.id} for row in rows])


def season_range(season: Season) -> tuple[datetime, datetime]:
    """The season's first moment and the moment after its last day (UTC).

    Seasons end by :data:`seasons.LAST_SEASON_DAY`, so the day after always exists."""
    return (
        datetime.combine(season.starts_on, time()),
        datetime.combine(season.ends_on + timedelta(days=1), time()),
    )


def _count(condition: Any) -> Any:
    return func.sum(case((condition, 1), else_=0))


def _add_up(
    league_id: int, players: Sequence[int] | None, period: tuple[datetime, datetime] | None
) -> list[dict[str, Any]]:
    """One record per player: their results added up (in ``period``, if given)."""
    r = GameResult
    query = select(
        r.player_id,
        func.count().label("played"),
        _count(r.won).label("won"),
        func.sum(r.net).label("net"),
        func.sum(r.naturals).label("naturals"),
        func.sum(r.chapeaux).label("chapeaux"),
        _count(r.skunk_given).label("skunks_given"),
        _count(r.skunk_taken).label("skunks_taken"),
        func.sum(case((r.won, r.margin), else_=0)).label("margin_won"),
        func.sum(r.deals).label("deals"),
        func.sum(r.total).label("points"),
        func.min(r.number).label("first"),
        func.max(r.number).label("last"),
    ).where(_in_league(league_id))
    if players is not None:
        query = query.where(r.player_id.in_(players))
    if period is not None:
        query = query.where(r.finished_at >= period[0], r.finished_at < period[1])
    sums = [dict(row._mapping) for row in db.session.execute(query.group_by(r.player_id))]
    if not sums:
        return []
    ends = {(row["player_id"], row["first"]) for row in sums} | {
        (row["player_id"], row["last"]) for row in sums
    }
    ratings = {
        (player, number): (before, after)
        for player, number, before, after in db.session.execute(
            select(r.player_id, r.number, r.rating_before, r.rating_after).where(
                _pairs_in(r.player_id, r.number, sorted(ends))
            )
        )
    }
    for row in sums:
        player, first, last = row["player_id"], row.pop("first"), row.pop("last")
        row["league_id"] = league_id
        row["rating_start"] = ratings[player, first][0]
        row["rating"] = ratings[player, last][1]
        for name in RECORD_SUMS:
            row[name] = int(row[name] or 0)
    return sums


def payment_changed(game: Game) -> None:
    """A game was marked paid or unlocked: what its two players owe each other changes."""
    lock_league(game.league_id)
    refresh_pairs(game.league_id, [(game.player0_id, game.player1_id)])


def refresh_pairs(league_id: int, pairs: Iterable[tuple[int, int]]) -> None:
    """Add up again the head-to-head records of each pair of players, both ways, with
    what is unpaid between them.

    Two reads that don't grow with the league's history: the pair's results, from the
    index ``ix_game_result_pair`` alone, and the games not marked paid (``paid_at``'s
    index), which are few; the results are never joined to every game of the pair.
    """
    both_ways = sorted({(a, b) for pair in pairs for a, b in (pair, pair[::-1])})
    if not both_ways:
        return
    r = GameResult
    db.session.execute(
        delete(PairRecord).where(_pairs_in(PairRecord.player_id, PairRecord.opponent_id, both_ways))
    )
    sums = db.session.execute(
        select(
            r.player_id,
            r.opponent_id,
            func.count().label("played"),
            _count(r.won).label("won"),
            func.sum(r.net).label("net"),
        )
        .where(_pairs_in(r.player_id, r.opponent_id, both_ways))
        .group_by(r.player_id, r.opponent_id)
    )
    rows = {
        (row.player_id, row.opponent_id): {
            **{key: int(value) for key, value in row._mapping.items()},
            "league_id": league_id,
            "unpaid_games": 0,
            "unpaid_won": 0,
            "unpaid_lost": 0,
        }
        for row in sums
    }
    unpaid = db.session.execute(
        select(
            Game.player0_id,
            Game.player1_id,
            Game.winner_seat,
            func.count(),
            func.sum(Game.amount_due),
        )
        .where(
            _pairs_in(Game.player0_id, Game.player1_id, both_ways),
            Game.paid_at.is_(None),
            # Finished: it has a winner. (Not ``status``, whose index SQLite would pick.)
            Game.winner_seat.is_not(None),
        )
        .group_by(Game.player0_id, Game.player1_id, Game.winner_seat)
    )
    for first, second, winner_seat, games, amount in unpaid:
        winner, loser = (first, second) if winner_seat == 0 else (second, first)
        for player, opponent, side in (
            (winner, loser, "unpaid_won"),
            (loser, winner, "unpaid_lost"),
        ):
            row = rows[player, opponent]
            row["unpaid_games"] += games
            row[side] += int(amount or 0)
    if rows:
        db.session.execute(insert(PairRecord), list(rows.values()))


def _pairs_in(first: Any, second: Any, pairs: Sequence[tuple[int, int]]) -> ColumnElement[bool]:
    """``(first, second)`` is one of ``pairs`` (of players, of a player and a game number):
    an OR of equalities that each seek an index (SQLite scans a whole table for a
    row-value IN), or, for a rebuild's many pairs, the IN."""
    if len(pairs) > PAIRS_AS_OR:
        return tuple_(first, second).in_(pairs)
    return or_(*(and_(first == a, second == b) for a, b in pairs))


# Helpers -----------------------------------------------------------------------


def _results_of(game_id: int) -> list[GameResult]:
    return list(db.session.scalars(select(GameResult).where(GameResult.game_id == game_id)))


def _in_league(league_id: int) -> ColumnElement[bool]:
    return GameResult.league_id == league_id


def _order_key() -> Any:
    return tuple_(GameResult.finished_at, GameResult.game_id)


def lock_league(league_id: int) -> None:
    """One writer of a league's derived rows at a time (PostgreSQL; SQLite has one writer).

    ``FOR NO KEY UPDATE``, not ``FOR UPDATE``: every row a change inserts that refers to
    the league (an audit event, a result) holds a ``FOR KEY SHARE`` lock on it, which
    ``FOR UPDATE`` would wait for. Two writers that had each inserted one would then wait
    for each other — a deadlock the load benchmark (``bench.load``) met at once.
    """
    db.session.execute(
        select(League.id).where(League.id == league_id).with_for_update(key_share=True)
    )


def _assign(row: Any, name: str, value: Any) -> None:
    """Set a column only when it changes, so an unchanged row is not written again."""
    if getattr(row, name) != value:
        setattr(row, name, value)
