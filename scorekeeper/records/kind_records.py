"""A league's records of the games other than Mille, kept up to date inside every change.

Mille's results and records are :mod:`.results`'; every other kind of game keeps its own
here, by the same walk. :func:`game_changed` runs in the write transaction of a change to a
game: it rewrites the game's :class:`KindResult` rows from the seats' outcomes
(``engine.games.outcome``: each seat's net, deals won, finishing place, points), re-rates
every later result of the same kind in the league's game order ``(finished_at, game_id)``
— OpenSkill (:mod:`.skill`), each side of the game a team, ranked by its place — and adds
up again the :class:`KindRecord` of every player that walk touched. A game that ends after
every other of its kind, as at the table, walks only itself.

The standings of a kind read its records, a few rows whatever the league's history.
"""

from collections.abc import Iterable, Sequence
from datetime import datetime
from itertools import groupby
from typing import Any, Final, cast

from sqlalchemy import Table, and_, case, delete, func, select, tuple_
from sqlalchemy import insert as sa_insert
from sqlalchemy.orm import selectinload

from scorekeeper.database import insert, insert_many
from scorekeeper.engine.games import SeatOutcome, outcome
from scorekeeper.models import FINISHED, MILLE, Game, KindRecord, KindResult, db
from scorekeeper.records import skill
from scorekeeper.records.ratings import assign
from scorekeeper.records.sittings import sitting_of
from scorekeeper.records.skill import Skill
from scorekeeper.records.totals import lock_league

OrderKey = tuple[datetime, int]


def outcomes_of(game: Game) -> tuple[SeatOutcome, ...] | None:
    """The seats' outcomes of a game that counts (finished, not abandoned), else None."""
    return outcome(sitting_of(game)) if game.counts else None


def of_game(game: Game, *, league_locked: bool = False) -> None:
    """:func:`game_changed` with the outcomes read from the game as it stands (an abandon
    or a restore, which change no deal)."""
    game_changed(game, outcomes_of(game), league_locked=league_locked)


def game_changed(
    game: Game,
    outcomes: Sequence[SeatOutcome] | None,
    *,
    had_results: bool = True,
    league_locked: bool = False,
) -> None:
    """Bring the game's results, and every later result of its kind, up to date.

    ``outcomes``: the seats' outcomes if the game counts now (:func:`outcomes_of`), else
    None (in progress, or abandoned). ``had_results``: False when the game had none before
    this change (it had not ended), which spares looking for them. The caller holds the
    game's lock; the league's is taken here once something derived changes, unless
    ``league_locked``.
    """
    if not had_results and outcomes is None:
        return
    if not league_locked:
        lock_league(game.league_id)
    if not had_results and outcomes is not None and _add_newest(game, outcomes):
        return
    stored = list(db.session.scalars(select(KindResult).where(KindResult.game_id == game.id)))
    if not stored and outcomes is None:
        return  # no results before, none now: nothing derived changes
    keys = [(row.finished_at, row.game_id) for row in stored]
    touched = {row.player_id for row in stored}
    if stored:
        db.session.execute(delete(KindResult).where(KindResult.game_id == game.id))
    if outcomes is not None:
        assert game.finished_at is not None
        rows = [_result_row(game, seat) for seat in outcomes]
        db.session.execute(insert_into(KindResult), rows)
        keys.append((game.finished_at, game.id))
        touched |= {row["player_id"] for row in rows}
    touched |= rerate(game.league_id, game.kind, min(keys))
    refresh_records(game.league_id, game.kind, touched)


def _add_newest(game: Game, outcomes: Sequence[SeatOutcome]) -> bool:
    """A game that ends after every other result of its players in its kind (as a game
    does at the table): rated from where they stood, its results inserted, and their
    records added to, in three statements whatever the league's history. False, doing
    nothing, when a result of one of them comes after it (the whole walk is needed)."""
    assert game.finished_at is not None
    rows = [_result_row(game, seat) for seat in outcomes]
    players = {row["player_id"] for row in rows}
    last = _latest(game.league_id, game.kind, players)
    if any(key > (game.finished_at, game.id) for key, _ in last.values()):
        return False
    running = {player: standing for player, (_, standing) in last.items()}
    results = [KindResult(**row) for row in rows]
    _rate_game(sorted(results, key=lambda row: row.side), running)
    rated = [{**row, **_rating_of(result)} for row, result in zip(rows, results, strict=True)]
    db.session.execute(insert_into(KindResult), rated)
    added = [
        _record_row(game.league_id, game.kind, _one(row), running[row["player_id"]])
        for row in rated
    ]
    kept = insert(KindRecord).values(added)
    sums = ("played", "won", "deals_won", "money_won", "money_lost", "points_for", "points_against")
    db.session.execute(
        kept.on_conflict_do_update(
            index_elements=["league_id", "kind", "player_id"],
            set_={
                **{name: getattr(KindRecord, name) + getattr(kept.excluded, name) for name in sums},
                **{
                    name: getattr(kept.excluded, name)
                    for name in ("skill_mu", "skill_sigma", "last_played_at")
                },
            },
        )
    )
    return True


def insert_into(model: Any) -> Any:
    """The table's own INSERT, one statement for every row given (not COPY: a change at the
    table is a few rows, and each of its statements is counted: bench.recording)."""
    return sa_insert(cast(Table, model.__table__))


def _rating_of(result: KindResult) -> dict[str, int]:
    return {
        "number": result.number,
        "skill_mu_after": result.skill_mu_after,
        "skill_sigma_after": result.skill_sigma_after,
    }


def _one(row: dict[str, Any]) -> tuple[Any, ...]:
    """A result row as one player's sums of one game (the shape :func:`_record_row` reads)."""
    net = row["net"]
    return (
        row["player_id"],
        1,
        int(row["won"]),
        row["deals_won"],
        max(net, 0),
        max(-net, 0),
        row["points_for"],
        row["points_against"],
    )


def _result_row(game: Game, seat: SeatOutcome) -> dict[str, Any]:
    return {
        "game_id": game.id,
        "player_id": game.seats[seat.seat].player_id,
        "league_id": game.league_id,
        "kind": game.kind,
        "seat": seat.seat,
        "side": seat.side,
        "finished_at": game.finished_at,
        "net": seat.net,
        "deals_won": seat.deals_won,
        "place": seat.place,
        "won": seat.won,
        "points_for": seat.points_for,
        "points_against": seat.points_against,
        "number": 0,
        "skill_mu_after": skill.START_MU,
        "skill_sigma_after": skill.START_SIGMA,
    }


def _order() -> Any:
    return tuple_(KindResult.finished_at, KindResult.game_id)


#: Where a player stands before a result: games of the kind so far, skill, last game.
Standing = tuple[int, Skill, datetime | None]
NEW: Final[Standing] = (0, skill.FIRST, None)


def _standing_before(
    league_id: int, kind: str, players: set[int], start: OrderKey
) -> dict[int, Standing]:
    """Each player's standing after their last result of ``kind`` before ``start``."""
    return {
        player: standing
        for player, (_, standing) in _latest(league_id, kind, players, start).items()
    }


def _latest(
    league_id: int, kind: str, players: set[int], before: OrderKey | None = None
) -> dict[int, tuple[OrderKey, Standing]]:
    """Each player's last result of ``kind`` (before ``before``, if given): where it is in
    game order, and the standing after it."""
    if not players:
        return {}
    conditions = [
        KindResult.league_id == league_id,
        KindResult.kind == kind,
        KindResult.player_id.in_(players),
    ]
    if before is not None:
        conditions.append(_order() < tuple_(*before))
    ranked = (
        select(
            KindResult,
            func.row_number()
            .over(
                partition_by=KindResult.player_id,
                order_by=(KindResult.finished_at.desc(), KindResult.game_id.desc()),
            )
            .label("newest"),
        )
        .where(*conditions)
        .subquery()
    )
    last = db.session.execute(select(ranked).where(ranked.c.newest == 1))
    return {
        row.player_id: (
            (row.finished_at, row.game_id),
            (row.number, Skill(row.skill_mu_after, row.skill_sigma_after), row.finished_at),
        )
        for row in last
    }


def rerate(league_id: int, kind: str, start: OrderKey) -> set[int]:
    """Renumber and re-rate every result of ``kind`` from ``start`` on, in game order;
    the players whose results were walked."""
    rows = list(
        db.session.scalars(
            select(KindResult)
            .where(
                KindResult.league_id == league_id,
                KindResult.kind == kind,
                _order() >= tuple_(*start),
            )
            .order_by(KindResult.finished_at, KindResult.game_id, KindResult.side)
            .execution_options(populate_existing=True)
        )
    )
    players = {row.player_id for row in rows}
    running = _standing_before(league_id, kind, players, start)
    for _, game_rows in groupby(rows, key=lambda row: row.game_id):
        _rate_game(list(game_rows), running)
    return players


def _rate_game(rows: list[KindResult], running: dict[int, Standing]) -> None:
    """One game's results rated from where each player stood before it."""
    sides = [list(side) for _, side in groupby(rows, key=lambda row: row.side)]
    before = [[running.get(row.player_id, NEW) for row in side] for side in sides]
    at = rows[0].finished_at
    widened = [
        [skill.away(was, skill.days_between(last, at)) for _, was, last in side] for side in before
    ]
    after = skill.after_places(widened, [side[0].place for side in sides])
    for side, was_side, now_side in zip(sides, before, after, strict=True):
        for row, (games, _, _), now in zip(side, was_side, now_side, strict=True):
            assign(row, "number", games + 1)
            assign(row, "skill_mu_after", now.mu)
            assign(row, "skill_sigma_after", now.sigma)
            running[row.player_id] = (games + 1, now, at)


def refresh_records(league_id: int, kind: str, players: Iterable[int]) -> None:
    """Add up again the records of ``kind`` of these players from their results."""
    wanted = set(players)
    if not wanted:
        return
    db.session.flush()
    db.session.execute(
        delete(KindRecord).where(
            KindRecord.league_id == league_id,
            KindRecord.kind == kind,
            KindRecord.player_id.in_(wanted),
        )
    )
    mine = and_(
        KindResult.league_id == league_id,
        KindResult.kind == kind,
        KindResult.player_id.in_(wanted),
    )
    sums = db.session.execute(
        select(
            KindResult.player_id,
            func.count(),
            func.sum(case((KindResult.won, 1), else_=0)),
            func.sum(KindResult.deals_won),
            func.sum(case((KindResult.net > 0, KindResult.net), else_=0)),
            func.sum(case((KindResult.net < 0, -KindResult.net), else_=0)),
            func.sum(KindResult.points_for),
            func.sum(KindResult.points_against),
        )
        .where(mine)
        .group_by(KindResult.player_id)
    ).all()
    last = _standing_before(league_id, kind, wanted, (datetime.max, 0))  # their newest
    rows = [_record_row(league_id, kind, found, last[found[0]]) for found in sums]
    if rows:
        db.session.execute(insert_into(KindRecord), rows)


def _record_row(league_id: int, kind: str, found: Sequence[Any], last: Standing) -> dict[str, Any]:
    player_id, played, won, deals_won, money_won, money_lost, points_for, against = found
    _, now, at = last
    return {
        "league_id": league_id,
        "kind": kind,
        "player_id": player_id,
        "played": int(played),
        "won": int(won),
        "deals_won": int(deals_won),
        "money_won": int(money_won),
        "money_lost": int(money_lost),
        "points_for": int(points_for),
        "points_against": int(against),
        "skill_mu": now.mu,
        "skill_sigma": now.sigma,
        "last_played_at": at,
    }


def rebuild_league(league_id: int) -> None:
    """Every record of the league's other games made again from its games (imports,
    repairs, a merge of two players)."""
    lock_league(league_id)
    for model in (KindResult, KindRecord):
        db.session.execute(delete(model).where(model.league_id == league_id))
    games = db.session.scalars(
        select(Game)
        .where(
            Game.league_id == league_id,
            Game.kind != MILLE,
            Game.status == FINISHED,
            Game.abandoned_at.is_(None),
        )
        .order_by(Game.finished_at, Game.id)
        .options(selectinload(Game.deals), selectinload(Game.seats))  # not two reads a game
    )
    rows = [_result_row(game, seat) for game in games for seat in outcomes_of(game) or ()]
    insert_many(db.session.connection(), KindResult, rows)
    for kind in sorted({row["kind"] for row in rows}):
        touched = rerate(league_id, kind, (datetime.min, 0))
        refresh_records(league_id, kind, touched)
