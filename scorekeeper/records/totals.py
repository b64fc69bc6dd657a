"""A league's records, added up from its results: each player's all-time record, their
record in each season, and each pair's head-to-head with what is unpaid between them.

:func:`add_game` adds one game's two results to the records they change, in three
statements however long the history, and :func:`change_game` changes them by the
difference when that game changes again; :func:`refresh_records` and :func:`refresh_pairs`
add them up again from the results, after a change anywhere but at the end of the
league's history, and :func:`payment_changed` after a game is marked paid or unlocked.
"""

from collections.abc import Iterable, Sequence
from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import (
    and_,
    bindparam,
    case,
    column,
    delete,
    func,
    insert,
    or_,
    select,
    tuple_,
    values,
)
from sqlalchemy.sql.elements import ColumnElement

from scorekeeper.database import insert as upsert
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

#: Up to this many pairs are looked up by index one by one (see :func:`_pairs_in`).
PAIRS_AS_OR = 16
PAIR_SUMS = ("played", "won", "net", "unpaid_games", "unpaid_won", "unpaid_lost")
#: What a record takes from its last result, and the result's column it comes from.
LAST_RESULT = {
    "rating": "rating_after",
    "skill_mu": "skill_mu_after",
    "skill_sigma": "skill_sigma_after",
    "career_games": "number",
    "last_played_at": "finished_at",
}
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


def add_game(rows: Sequence[dict[str, Any]], day: date, *, unpaid: bool) -> None:
    """A game's two new results (:func:`.results.result_values`, numbered and rated) added
    to their players' records, to their records in every season holding ``day``, and to
    their head-to-head: three statements, whatever the league's history (one on
    PostgreSQL, :func:`_adding_in_one`)."""
    _add([_record_of(row) for row in rows], [_pair_of(row, unpaid) for row in rows], day)


def change_game(
    old: Sequence[dict[str, Any]],
    new: Sequence[dict[str, Any]] | None,
    day: date,
    *,
    unpaid: bool,
    previous: dict[int, dict[str, Any] | None],
) -> None:
    """A game that is the newest result of both its players changed its two results from
    ``old`` to ``new``, or stopped counting (``new`` None): the records :func:`add_game`
    adds to change by the difference, so the cost doesn't grow with the history.

    A record takes its running values (rating, skill, games) from its player's newest
    result: ``new``'s or, when the game is taken away, the one before it (``previous``,
    None for a player's first game). A record left with no game is deleted, as adding
    the results up again would leave none.
    """
    now = {row["player_id"]: row for row in new or ()}
    records, pairs = [], []
    for result in old:
        then = now.get(result["player_id"])
        record = _difference(then and _record_of(then), _record_of(result), RECORD_SUMS)
        if then is None:
            record.update(_last_of(previous[result["player_id"]] or result))
        records.append(record)
        pairs.append(
            _difference(then and _pair_of(then, unpaid), _pair_of(result, unpaid), PAIR_SUMS)
        )
    _add(records, pairs, day)
    if new is None:
        _drop_empty([(row["player_id"], row["opponent_id"]) for row in old])


def _difference(
    now: dict[str, Any] | None, was: dict[str, Any], sums: Sequence[str]
) -> dict[str, Any]:
    """What turns the row ``was`` adds to a record into what ``now`` adds (nothing, if
    None): each of the sums' difference, and the rest of ``now`` (or of ``was``)."""
    return {
        **was,
        **(now or {}),
        **{name: (now[name] if now else 0) - was[name] for name in sums},
    }


def _add(records: list[dict[str, Any]], pairs: list[dict[str, Any]], day: date) -> None:
    """``records`` added to the players' records and to their records in every season
    holding ``day``, and ``pairs`` to their head-to-head."""
    if db.session.get_bind().dialect.name == "postgresql":
        db.session.execute(_adding_in_one(records, pairs, day))
        return
    db.session.execute(_adding(_upsert(PlayerRecord), ["player_id"], RECORD_SUMS), records)
    db.session.execute(_into_seasons(day), records)
    db.session.execute(_adding(_upsert(PairRecord), ["player_id", "opponent_id"], PAIR_SUMS), pairs)


def _drop_empty(pairs: list[tuple[int, int]]) -> None:
    """The records of these pairs' players, and their head-to-head, that have no game left
    (one statement on PostgreSQL, its first two deletes as ``WITH`` parts of the third)."""
    players = sorted({player for pair in pairs for player in pair})
    both_ways = sorted({(a, b) for pair in pairs for a, b in (pair, pair[::-1])})
    deletes = [
        delete(PlayerRecord).where(PlayerRecord.player_id.in_(players), PlayerRecord.played == 0),
        delete(SeasonRecord).where(SeasonRecord.player_id.in_(players), SeasonRecord.played == 0),
        delete(PairRecord).where(
            _pairs_in(PairRecord.player_id, PairRecord.opponent_id, both_ways),
            PairRecord.played == 0,
        ),
    ]
    if db.session.get_bind().dialect.name == "postgresql":
        *parts, last = deletes
        deletes = [last.add_cte(*(part.cte(f"dropped_{n}") for n, part in enumerate(parts)))]
    for statement in deletes:
        db.session.execute(statement)


def _adding_in_one(records: list[dict[str, Any]], pairs: list[dict[str, Any]], day: date) -> Any:
    """The three upserts of :func:`add_game` as one PostgreSQL statement, one round trip
    (issue 26): the all-time records' and the seasons' as data-modifying ``WITH`` parts of
    the head-to-head's. Each writes its own table, so none sees another's rows."""
    names = list(records[0])
    table = PlayerRecord.__table__.c
    given = values(*(column(name, table[name].type) for name in names), name="given").data(
        [tuple(record[name] for name in names) for record in records]
    )
    players = _adding(
        _upsert(PlayerRecord).from_select(names, select(given)), ["player_id"], RECORD_SUMS
    ).cte("added_to_players")
    in_seasons = (
        select(Season.id, given)
        .join(given, Season.league_id == given.c.league_id)
        .where(Season.starts_on <= day, Season.ends_on >= day)
    )
    seasons = _adding(
        _upsert(SeasonRecord).from_select(["season_id", *names], in_seasons),
        ["season_id", "player_id"],
        RECORD_SUMS,
    ).cte("added_to_seasons")
    heads = _adding(_upsert(PairRecord).values(pairs), ["player_id", "opponent_id"], PAIR_SUMS)
    return heads.add_cte(players, seasons)


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
        **_last_of(result),
    }


def _last_of(result: dict[str, Any]) -> dict[str, Any]:
    """The running values a record takes from its player's newest result."""
    return {record: result[name] for record, name in LAST_RESULT.items()}


def _pair_of(result: dict[str, Any], unpaid: bool) -> dict[str, Any]:
    """What one result adds to its player's head-to-head with the opponent."""
    won, net = result["won"], result["net"]
    return {
        "player_id": result["player_id"],
        "opponent_id": result["opponent_id"],
        "league_id": result["league_id"],
        "played": 1,
        "won": int(won),
        "net": net,
        "unpaid_games": int(unpaid),
        "unpaid_won": net if unpaid and won else 0,
        "unpaid_lost": -net if unpaid and not won else 0,
    }


def _upsert(model: Any) -> Any:
    """An upsert's ``INSERT`` into the model's table (a Core statement: the ORM's bulk
    insert takes no ``ON CONFLICT … SET`` by column name)."""
    return upsert(model.__table__)


def _adding(statement: Any, keys: list[str], sums: Sequence[str]) -> Any:
    """``statement`` (an upsert's ``INSERT``) adding to the row that exists: its ``sums``
    grow by the new values, and a record takes what its new last result leaves."""
    table = statement.table
    values = {name: table.c[name] + statement.excluded[name] for name in sums}
    if "rating" in table.c:
        values.update({name: statement.excluded[name] for name in LAST_RESULT})
    return statement.on_conflict_do_update(index_elements=keys, set_=values)


def _into_seasons(day: date) -> Any:
    """A record (:func:`_record_of`) added to the player's record in every season of the
    league holding ``day``: one ``INSERT … SELECT`` from the seasons, however many."""
    s = SeasonRecord.__table__.c
    names = ["player_id", "league_id", *RECORD_SUMS, "rating_start", *LAST_RESULT]
    seasons = select(Season.id, *(bindparam(name, type_=s[name].type) for name in names)).where(
        Season.league_id == bindparam("league_id"),
        Season.starts_on <= day,
        Season.ends_on >= day,
    )
    statement = _upsert(SeasonRecord).from_select(["season_id", *names], seasons)
    return _adding(statement, ["season_id", "player_id"], RECORD_SUMS)


# Added up again from the results ------------------------------------------------


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
    ).where(GameResult.league_id == league_id)
    if players is not None:
        query = query.where(r.player_id.in_(players))
    if period is not None:
        query = query.where(r.finished_at >= period[0], r.finished_at < period[1])
    sums = [dict(row._mapping) for row in db.session.execute(query.group_by(r.player_id))]
    return _with_ends(league_id, sums) if sums else []


def _with_ends(league_id: int, sums: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each player's sums with what their first and last results say: the rating they
    started from, and the rating, skill and net they ended with."""
    r = GameResult
    ends = {(row["player_id"], row["first"]) for row in sums} | {
        (row["player_id"], row["last"]) for row in sums
    }
    lasts = [getattr(r, name) for name in LAST_RESULT.values()]
    ends_read = {
        (row.player_id, row.number): row
        for row in db.session.execute(
            select(r.player_id, r.rating_before, *lasts).where(  # r.number among them
                _pairs_in(r.player_id, r.number, sorted(ends))
            )
        )
    }
    for row in sums:
        player, first, last = row["player_id"], row.pop("first"), row.pop("last")
        row["league_id"] = league_id
        row["rating_start"] = ends_read[player, first].rating_before
        row.update(
            {record: getattr(ends_read[player, last], name) for record, name in LAST_RESULT.items()}
        )
        for name in RECORD_SUMS:
            row[name] = int(row[name] or 0)
    return sums


def payment_changed(game: Game) -> None:
    """A game was marked paid or unlocked: what its two players owe each other changes."""
    if not game.is_mille:
        return  # pairs' records are Mille's
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
    _add_unpaid(rows, both_ways)
    if rows:
        db.session.execute(insert(PairRecord), list(rows.values()))


def _add_unpaid(
    rows: dict[tuple[int, int], dict[str, Any]], both_ways: list[tuple[int, int]]
) -> None:
    """Add to each pair's row the games not yet paid between them, and their amounts."""
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
            Game.abandoned_at.is_(None),  # an abandoned game is owed by nobody
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


def _pairs_in(first: Any, second: Any, pairs: Sequence[tuple[int, int]]) -> ColumnElement[bool]:
    """``(first, second)`` is one of ``pairs`` (of players, of a player and a game number):
    an OR of equalities that each seek an index (SQLite scans a whole table for a
    row-value IN), or, for a rebuild's many pairs, the IN."""
    if len(pairs) > PAIRS_AS_OR:
        return tuple_(first, second).in_(pairs)
    return or_(*(and_(first == a, second == b) for a, b in pairs))


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
