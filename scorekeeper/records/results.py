"""A league's results, kept up to date inside every change to a game.

:func:`game_changed` runs in the write transaction of every change to a game's
deals (the game service calls it when it stores what the engine replayed). It
rewrites the game's two :class:`GameResult` rows from the game's own derived
columns, then walks the league's results from that game onward in game order —
``(finished_at, game_id)`` — renumbering, re-rating and re-adding each player's
running net (:mod:`.ratings`), and finally adds up again the records of every
player that walk touched (:mod:`.totals`). In the usual cases at the table the cost
doesn't grow with the players' history: a game that ends after every other adds its
two results to its players' records (:func:`add_newest`), and a correction or an undo
of such a game changes them by the difference (:func:`change_newest`). Nothing here is
ever recomputed while a page is read, and nothing is cached: a page reads what the
last change committed.

:func:`rebuild_league` does the same from nothing, for imports and repairs.
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import delete, insert, select, union_all, update

from scorekeeper.database import insert_many
from scorekeeper.models import MILLE, Game, GameResult, PairRecord, PlayerRecord, SeasonRecord, db
from scorekeeper.records import kind_records, totals
from scorekeeper.records.ratings import (
    FIRST_GAME,
    Running,
    assign,
    rate_from_scratch,
    rate_game,
    rerate,
    running_after,
)


def game_changed(game: Game, *, was_finished: bool = True, league_locked: bool = False) -> None:
    """Bring the game's results, and every result after it in game order, up to date.

    The caller holds the game's lock (``table.service.locked_game``); the league's is
    taken here, once something derived is to change, unless ``league_locked`` says the
    caller took it already (an ordinary deal changes nothing here). ``was_finished``:
    whether the game had ended before this change (and so has results stored). An
    abandoned game has none (``Game.counts``); a game of another kind than Mille has its
    kind's (:mod:`.kind_records`).
    """
    if not (was_finished or game.counts):
        return  # no results before, none now: nothing derived changes
    if not game.is_mille:  # its kind's own records, not Mille's Elo and pairs
        return kind_records.of_game(game, league_locked=league_locked)
    if not league_locked:
        totals.lock_league(game.league_id)
    if (change_newest if was_finished else add_newest)(game):
        return
    stored = {row.player_id: row for row in _results_of(game.id)}
    if not stored and not game.counts:
        return
    keys = [(row.finished_at, row.game_id) for row in stored.values()]
    if game.counts:
        for values in result_values(game):
            row = stored.get(values["player_id"])
            if row is None:
                db.session.add(GameResult(**values))
            else:
                for name, value in values.items():
                    assign(row, name, value)
        assert game.finished_at is not None
        keys.append((game.finished_at, game.id))
    else:
        for row in stored.values():
            db.session.delete(row)
    db.session.flush()
    start = min(keys)
    touched = rerate(game.league_id, start) | {game.player0_id, game.player1_id}
    totals.refresh_records(game.league_id, touched, since=start[0])
    totals.refresh_pairs(game.league_id, [(game.player0_id, game.player1_id)])


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
    before: dict[int, Running] = {row.player_id: running_after(row) for row in last}
    rows = result_values(game)
    winner, loser = sorted(rows, key=lambda row: not row["won"])
    rate_game(winner, loser, [before.get(row["player_id"], FIRST_GAME) for row in (winner, loser)])
    db.session.execute(insert(GameResult), rows)
    totals.add_game(rows, game.finished_at.date(), unpaid=game.paid_at is None)
    return True


def change_newest(game: Game) -> bool:
    """The usual correction or undo at the table: a change to a finished game that is
    still the newest of both its players. Its two results are rated again from the
    players' results before it and rewritten, or deleted if the game no longer counts,
    and the records change by the difference (:func:`.totals.change_game`) — three
    statements on PostgreSQL, four for an undo, however long the league's history.

    Exactly what the full walk in :func:`game_changed` would write, as :func:`add_newest`
    is (``tests/league/test_leagues_data.py``). Returns False, having written nothing, if
    either player has a later result or the game's end has moved.
    """
    newest = _newest_results((game.player0_id, game.player1_id), count=2)
    if any(not rows or rows[0].game_id != game.id for rows in newest.values()):
        return False
    old = [rows[0]._asdict() for rows in newest.values()]
    before = {player: rows[1] if len(rows) > 1 else None for player, rows in newest.items()}
    ended = old[0]["finished_at"]
    unpaid = game.paid_at is None
    if not game.counts:
        db.session.execute(delete(GameResult).where(GameResult.game_id == game.id))
        previous = {player: row and row._asdict() for player, row in before.items()}
        totals.change_game(old, None, ended.date(), unpaid=unpaid, previous=previous)
        return True
    if game.finished_at != ended:
        return False
    new = result_values(game)
    winner, loser = sorted(new, key=lambda row: not row["won"])
    rate_game(winner, loser, [_running(before[row["player_id"]]) for row in (winner, loser)])
    db.session.execute(update(GameResult), new)  # by primary key, one executemany
    totals.change_game(old, new, ended.date(), unpaid=unpaid, previous={})
    return True


def _running(result: Any) -> Running:
    return FIRST_GAME if result is None else running_after(result)


def _last_results(players: Sequence[int]) -> list[Any]:
    """Each player's last result in game order (none for a first game), in one statement."""
    return [rows[0] for rows in _newest_results(players, count=1).values() if rows]


def _newest_results(players: Sequence[int], *, count: int) -> dict[int, list[Any]]:
    """Each player's ``count`` newest results, newest first, whole, in one statement."""
    r = GameResult
    newest = [
        select(r.__table__)
        .where(r.player_id == player)
        .order_by(r.finished_at.desc(), r.game_id.desc())
        .limit(count)
        .subquery()
        for player in players
    ]
    rows = db.session.execute(union_all(*(select(each) for each in newest)))
    found: dict[int, list[Any]] = {player: [] for player in players}
    for row in rows:
        found[row.player_id].append(row)
    for each in found.values():
        each.sort(key=lambda row: (row.finished_at, row.game_id), reverse=True)
    return found


def rebuild_league(league_id: int) -> None:
    """Every derived row of the league made again from its games (imports, repairs), its
    other games' records too (:func:`.kind_records.rebuild_league`)."""
    totals.lock_league(league_id)
    for model in (GameResult, PlayerRecord, SeasonRecord, PairRecord):
        db.session.execute(delete(model).where(model.league_id == league_id))
    games = db.session.scalars(
        select(Game)
        .where(
            Game.league_id == league_id,
            Game.kind == MILLE,
            Game.status == "finished",
            Game.abandoned_at.is_(None),
        )
        .order_by(Game.finished_at, Game.id)
        .execution_options(yield_per=REBUILD_BATCH)  # a league of any size, in bounded memory
    )
    running: dict[int, Running] = {}
    for batch in games.partitions():
        rows = [values for game in batch for values in result_values(game)]
        rate_from_scratch(rows, running)  # numbered and rated before the insert
        insert_many(db.session.connection(), GameResult, rows)
    in_league = GameResult.league_id == league_id
    players = set(db.session.scalars(select(GameResult.player_id).where(in_league)))
    totals.refresh_records(league_id, players, since=None)
    pairs = db.session.execute(
        select(GameResult.player_id, GameResult.opponent_id)
        .where(in_league, GameResult.seat == 0)
        .distinct()
    )
    totals.refresh_pairs(league_id, [(a, b) for a, b in pairs])
    kind_records.rebuild_league(league_id)


def result_values(game: Game) -> list[dict[str, Any]]:
    """The two result rows of a finished game that counts, from the game's own derived columns."""
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


def _results_of(game_id: int) -> list[GameResult]:
    return list(db.session.scalars(select(GameResult).where(GameResult.game_id == game_id)))
