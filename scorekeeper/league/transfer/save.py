"""Saving a checked import in one transaction: everything or nothing."""

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from itertools import islice
from typing import Any, Final

from flask import current_app
from sqlalchemy import func, insert, select

from scorekeeper.database import insert_many, reserve_ids, writing
from scorekeeper.engine import Tally
from scorekeeper.errors import ServiceError
from scorekeeper.league.transfer.plan import (
    ImportPlan,
    ImportProblems,
    Planned,
    PlannedGame,
    PlannedSitting,
)
from scorekeeper.models import (
    FINISHED,
    AuditEvent,
    Deal,
    Game,
    GameSeat,
    Movement,
    Player,
    Season,
    db,
)
from scorekeeper.records import results, sittings, totals
from scorekeeper.table import audit
from scorekeeper.table.forms import rules_data
from scorekeeper.web.formatting import number as worded_number
from scorekeeper.web.translation import gettext, ngettext

#: Games saved between two progress lines.
BATCH: Final = 250


def check_league_empty(league_id: int) -> None:
    """A league export goes into a league without games; ImportProblems otherwise."""
    count = db.session.scalar(select(func.count(Game.id)).where(Game.league_id == league_id))
    if count:
        raise ImportProblems(
            [
                gettext(
                    "A league export is imported into a league without games; this one has "
                    "%(count)s. Create a new league for it.",
                    count=worded_number(count),
                )
            ]
        )


def run_import(league_id: int, plan: ImportPlan) -> Iterator[str]:
    """Save a checked plan in one transaction, saying how far it got as it goes.

    The last line says what was imported. If anything fails, nothing is saved
    and the last line says so. (Longer than 40 lines, and read better whole: the one
    transaction, each line it says, and each way it can end, in one place.)
    """
    total = plan.game_count
    try:
        with writing():
            totals.lock_league(league_id)
            players = _players_for(league_id, plan)
            _seasons_for(league_id, plan)
            done = 0
            for batch in _batches(plan.read_games(), BATCH):
                _save(league_id, batch, players, plan.source)
                done += len(batch)
                yield gettext(
                    "Saved %(done)s of %(total)s games…",
                    done=worded_number(done),
                    total=worded_number(total),
                )
            yield gettext("Recomputing standings, ratings, head-to-head and balances…")
            results.rebuild_league(league_id)
    except ServiceError as error:  # the transaction is rolled back: say so, don't half-import
        yield gettext("Nothing was imported: %(error)s", error=error.message)
        return
    except Exception:  # a database error is for the log, never for the page
        current_app.logger.exception("Import into league %s failed", league_id)
        yield gettext(
            "Nothing was imported: the database refused the file's data. Nothing was changed; "
            "check the file (names and values), or ask the site's administrator, who can see "
            "what went wrong in the log."
        )
        return
    finally:
        plan.close()
    yield ngettext(
        # English has always said "games", even for one.
        "Imported %(games)s games (%(deals)s deals).",
        "Imported %(games)s games (%(deals)s deals).",
        total,
        games=worded_number(total),
        deals=worded_number(plan.deal_count),
    )


def _batches(games: Iterable[Planned], size: int) -> Iterator[list[Planned]]:
    games = iter(games)
    while batch := list(islice(games, size)):
        yield batch


def import_all(league_id: int, plan: ImportPlan) -> str:
    """Save a checked plan; the last progress line, which says what was imported."""
    return list(run_import(league_id, plan))[-1]


def _players_for(league_id: int, plan: ImportPlan) -> dict[str, int]:
    """The id of every player the file names, by key; new ones are added to the league."""
    players = dict(
        db.session.execute(
            select(Player.name_key, Player.id).where(Player.league_id == league_id)
        ).all()
    )
    new = [
        {"league_id": league_id, "name": name, "name_key": key}
        for key, name in plan.players.items()
        if key not in players
    ]
    if new:
        db.session.execute(insert(Player), new)
        players = dict(
            db.session.execute(
                select(Player.name_key, Player.id).where(Player.league_id == league_id)
            ).all()
        )
    return players


def _seasons_for(league_id: int, plan: ImportPlan) -> None:
    taken = set(db.session.scalars(select(Season.name).where(Season.league_id == league_id)))
    for name, starts_on, ends_on in plan.seasons:
        if name not in taken:
            db.session.add(
                Season(league_id=league_id, name=name, starts_on=starts_on, ends_on=ends_on)
            )
            taken.add(name)


def _game_row(league_id: int, planned: PlannedGame, players: dict[str, int]) -> dict[str, Any]:
    """A planned game of Mille as its row, with the columns derived from its card."""
    derived = planned.derived  # kept when the game was checked
    finished = derived["status"] == FINISHED
    return {
        "league_id": league_id,
        "player0_id": players[Player.key(planned.names[0])],
        "player1_id": players[Player.key(planned.names[1])],
        "first_dealer": int(planned.first_dealer),
        "created_at": planned.created_at,
        "version": 1,
        **rules_data(planned.rules),
        "small_stake": planned.stakes.small,
        "big_stake": planned.stakes.big,
        **derived,
        "finished_at": planned.finished_at if finished else None,
        "paid_at": planned.paid_at,  # marked paid by nobody here: the import says who
        "abandoned_at": planned.abandoned_at,  # by nobody here, too
    }


def _sitting_row(
    league_id: int, planned: PlannedSitting, players: dict[str, int]
) -> dict[str, Any]:
    """A planned game of another kind as its row: its setup as the game service keeps it,
    and the columns its replay derived (every one of Mille's left at its default)."""
    finished = planned.derived["status"] == FINISHED
    return {
        "kind": planned.kind,
        "league_id": league_id,
        "player0_id": players[Player.key(planned.names[0])],
        "player1_id": players[Player.key(planned.names[1])],
        "first_dealer": planned.first_dealer,
        "created_at": planned.created_at,
        "version": 1,
        "setup": sittings.stored_setup(planned.setup),
        **planned.derived,
        "finished_at": planned.finished_at if finished else None,
        "paid_at": planned.paid_at,
        "abandoned_at": planned.abandoned_at,
    }


def _save(
    league_id: int,
    batch: Sequence[Planned],
    players: dict[str, int],
    source: str,
) -> None:
    """Save a batch of games with a few bulk inserts (games, their seats and deals, the
    ledgers of games of other kinds than Mille, audit events): no ORM object per row, so
    memory stays a batch's. The games' ids are reserved in the file's order."""
    connection = db.session.connection()
    ids = reserve_ids(connection, "game", len(batch))
    games = list(zip(ids, batch, strict=True))
    mille = [(id_, p) for id_, p in games if isinstance(p, PlannedGame)]
    sittings = [(id_, p) for id_, p in games if isinstance(p, PlannedSitting)]
    rows = {id_: _game_row(league_id, planned, players) for id_, planned in mille}
    rows |= {id_: _sitting_row(league_id, planned, players) for id_, planned in sittings}
    for group in (mille, sittings):
        if group:
            connection.execute(insert(Game), [rows[id_] | {"id": id_} for id_, _ in group])
    deals = [
        deal_row(game_id, number, tally, planned.created_at)
        | (planned.deal_extras[number - 1] if planned.deal_extras else {})
        for game_id, planned in mille
        for number, tally in enumerate(planned.tallies, start=1)
    ]
    insert_many(connection, Deal, deals)  # no ORM work per row (issue 26)
    insert_many(connection, Deal, [row for g, p in sittings for row in _sitting_deals(g, p)])
    insert_many(connection, GameSeat, _seats(games, players))
    movements = [row | {"game_id": game_id} for game_id, p in sittings for row in p.movements]
    insert_many(connection, Movement, movements)
    user_id = audit.actor_id()
    events = [
        _imported(league_id, user_id, *game, rows[game[0]]["status"], source) for game in games
    ]
    connection.execute(insert(AuditEvent), events)


def _imported(
    league_id: int, user_id: int | None, game_id: int, planned: Planned, status: str, source: str
) -> dict[str, Any]:
    """The audit event of an imported game: where the file describes it, and whom it names."""
    place, _, where = planned.source.partition(" ")  # "line 12", "game 3 (id 57)"
    params = {"file": source, "place": place, "where": where, "paid_by": planned.paid_by}
    if planned.abandoned_at is not None:
        params["abandoned_by"] = planned.abandoned_by
    return {
        "league_id": league_id,
        "game_id": game_id,
        "user_id": user_id,
        "action": audit.IMPORTED,
        "params": params,
        "before": None,
        "after": {"deals": planned.deal_total, "status": status},
    }


def _seats(games: Sequence[tuple[int, Planned]], players: dict[str, int]) -> list[dict[str, Any]]:
    """Every seat of the games, in seat order, as rows for a bulk insert."""
    return [
        {"game_id": game_id, "seat": seat, "player_id": players[Player.key(name)]}
        for game_id, planned in games
        for seat, name in enumerate(planned.names)
    ]


def _sitting_deals(game_id: int, planned: PlannedSitting) -> list[dict[str, Any]]:
    """A game of another kind's deals as rows, as the game service keeps them: each entry as
    its kind read it and the seat it paid; none of Mille's columns."""
    return [
        {
            "game_id": game_id,
            "number": number,
            "out_seat": None,
            "score0": None,
            "score1": None,
            "stars0": 0,
            "stars1": 0,
            "entry": entry,
            "winner_seat": winner,
            "created_at": planned.created_at,
            "cards": None,
        }
        | (planned.deal_extras[number - 1] if planned.deal_extras else {})
        for number, (entry, winner) in enumerate(
            zip(planned.entries, planned.winners, strict=True), start=1
        )
    ]


def seat_rows(ids: Sequence[int], games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The seats of games of Mille inserted as rows (``games``, with these ``ids``), for a
    bulk insert: an import's, or the benchmarks' generated league."""
    return [
        {"game_id": game_id, "seat": seat, "player_id": row[f"player{seat}_id"]}
        for game_id, row in zip(ids, games, strict=True)
        for seat in (0, 1)
    ]


def deal_row(game_id: int, number: int, tally: Tally, created_at: datetime) -> dict[str, Any]:
    """A deal as a row of the deal table (without cards), for a bulk insert: an import's,
    or the benchmarks' generated league."""
    return {
        "game_id": game_id,
        "number": number,
        "out_seat": int(tally.out),
        "score0": tally.scores[0],
        "score1": tally.scores[1],
        "stars0": tally.stars[0],
        "stars1": tally.stars[1],
        "created_at": created_at,
        "cards": None,
    }
