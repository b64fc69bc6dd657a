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
from datetime import datetime, time, timedelta
from itertools import groupby
from typing import Any, NamedTuple

from sqlalchemy import and_, case, delete, func, insert, or_, select, tuple_
from sqlalchemy.sql.elements import ColumnElement

from .engine.rating import START, Rated, new_ratings
from .models import (
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


def game_changed(game: Game) -> None:
    """Bring the game's results, and every result after it in game order, up to date."""
    stored = {row.player_id: row for row in _results_of(game.id)}
    if not stored and not game.finished:
        return  # a game in progress with no results: nothing derived changes
    lock_league(game.league_id)
    keys = [(row.finished_at, row.game_id) for row in stored.values()]
    added = []
    if game.finished:
        for values in result_values(game):
            row = stored.get(values["player_id"])
            if row is None:
                added.append(GameResult(**values))
                db.session.add(added[-1])
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
    # The usual change at the table: a game ends after every other one. Its results are
    # then the last of both its players, and their records only grow by them.
    newest = len(added) == 2 and _ends_the_order(game.league_id, start)
    touched = rerate(game.league_id, start) | {game.player0_id, game.player1_id}
    if newest:
        add_to_records(game.league_id, added)
    else:
        refresh_records(game.league_id, touched, since=start[0])
    refresh_pairs(game.league_id, [(game.player0_id, game.player1_id)])


def rebuild_league(league_id: int) -> None:
    """Every derived row of the league made again from its games (imports, repairs)."""
    lock_league(league_id)
    for model in (GameResult, PlayerRecord, SeasonRecord, PairRecord):
        db.session.execute(delete(model).where(model.league_id == league_id))
    games = db.session.scalars(
        select(Game).where(Game.league_id == league_id, Game.status == "finished")
    )
    rows = [values for game in games for values in result_values(game)]
    _rate_from_scratch(rows)  # numbered and rated before the insert: no row is written twice
    if rows:
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


def _rate_from_scratch(rows: list[dict[str, Any]]) -> None:
    """What :func:`rerate` does from the first game, on new result rows before they are
    inserted (sorted into game order in place)."""
    rows.sort(key=lambda row: (row["finished_at"], row["game_id"], row["seat"]))
    running: dict[int, Running] = {}
    for _, pair in groupby(rows, key=lambda row: row["game_id"]):
        first, second = pair
        winner, loser = (first, second) if first["won"] else (second, first)
        before = [running.get(row["player_id"], FIRST_GAME) for row in (winner, loser)]
        after = _after_game(before, (winner["net"], loser["net"]))
        for row, was, now in zip((winner, loser), before, after, strict=True):
            row.update(
                number=now.games,
                rating_before=was.rating,
                rating_after=now.rating,
                net_after=now.net,
            )
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


def add_to_records(league_id: int, results: Sequence[GameResult]) -> None:
    """Add the results of the game that ends the league's game order to its players'
    records, all time and in every season it ended in.

    Exactly what :func:`refresh_records` would add up, without reading the players'
    history again: the sums grow by the game, the rating becomes the one after it, and a
    first record starts from the rating before it.
    """
    day = results[0].finished_at.date()
    seasons = db.session.scalars(
        select(Season.id).where(
            Season.league_id == league_id, Season.starts_on <= day, Season.ends_on >= day
        )
    ).all()
    for result in results:
        keys: list[tuple[Any, dict[str, int]]] = [(PlayerRecord, {"player_id": result.player_id})]
        keys += [
            (SeasonRecord, {"season_id": season, "player_id": result.player_id})
            for season in seasons
        ]
        for model, key in keys:
            record = db.session.get(model, tuple(key.values()), populate_existing=True)
            if record is None:
                record = model(**key, league_id=league_id, rating_start=result.rating_before)
                record.played = record.won = record.net = record.naturals = 0
                record.chapeaux = record.skunks_given = record.skunks_taken = 0
                record.margin_won = record.deals = record.points = 0
                db.session.add(record)
            record.played += 1
            record.won += int(result.won)
            record.net += result.net
            record.naturals += result.naturals
            record.chapeaux += result.chapeaux
            record.skunks_given += int(result.skunk_given)
            record.skunks_taken += int(result.skunk_taken)
            record.margin_won += result.margin if result.won else 0
            record.deals += result.deals
            record.points += result.total
            record.rating = result.rating_after


def _ends_the_order(league_id: int, key: OrderKey) -> bool:
    """Whether no result comes after ``key`` in the league's game order."""
    later = select(GameResult.game_id).where(_in_league(league_id), _order_key() > tuple_(*key))
    return db.session.scalar(later.limit(1)) is None


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
