"""The league's deals as CSV, one row per deal: the format paper score cards are
imported in. Abandoned games are left out: they count like no game, and a score card has
no column to say so (the JSON export keeps them, marked).

Streamed: the games and their deals are read side by side, a batch at a time, with two
server-side cursors in the same order, so a league of any size takes the memory of a
batch; what belongs to the game is written out once per game, not once per deal.
"""

import csv
import io
from collections.abc import Generator, Iterator
from contextlib import closing
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import aliased

from scorekeeper.engine import format_money
from scorekeeper.league.transfer.formats import CSV_COLUMNS, inert
from scorekeeper.models import Deal, Game, Player, db

#: Rows read, and written out, at a time.
BATCH: Final = 5000


def export_csv(league_id: int) -> Iterator[str]:
    """The league's deals as CSV in the import format, streamed a batch of rows at a time."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    with closing(_games(league_id)) as games, closing(_deals(league_id)) as deals:
        yield from _rows(games, deals, buffer, writer)


def _rows(
    games: Iterator[Any], deals: Iterator[list[Any]], buffer: io.StringIO, writer: Any
) -> Iterator[str]:
    game_id, cells = None, ()
    for batch in deals:
        rows = []
        for deal in batch:
            while deal.game_id != game_id:  # every game has its deals' rows, in order
                game = next(games)
                game_id, cells = game.id, _game_cells(game)
            rows.append((*cells, "ab"[deal.out_seat], *deal[2:]))
        writer.writerows(rows)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    if buffer.tell():
        yield buffer.getvalue()


def _games(league_id: int) -> Generator[Any, None, None]:
    a, b = aliased(Player), aliased(Player)
    statement = (
        select(
            Game.id,
            Game.finished_at,
            Game.created_at,
            a.name,
            b.name,
            Game.preset,
            Game.target,
            Game.progressive,
            Game.natural_needed,
            Game.skunk,
            Game.difference,
            Game.small_stake,
            Game.big_stake,
            Game.first_dealer,
            Game.paid_at,
        )
        .join(a, a.id == Game.player0_id)
        .join(b, b.id == Game.player1_id)
        .where(Game.league_id == league_id, Game.abandoned_at.is_(None))
        .order_by(Game.id)
    )
    result = db.session.connection().execute(statement, execution_options={"yield_per": BATCH})
    with result:  # closed even when left half-read (games without deals come last)
        for batch in result.partitions(BATCH):
            yield from batch


def _deals(league_id: int) -> Generator[list[Any], None, None]:
    statement = (
        select(Deal.game_id, Deal.out_seat, Deal.score0, Deal.score1, Deal.stars0, Deal.stars1)
        .join(Game, Game.id == Deal.game_id)
        .where(Game.league_id == league_id, Game.abandoned_at.is_(None))
        .order_by(Deal.game_id, Deal.number)
    )
    result = db.session.connection().execute(statement, execution_options={"yield_per": BATCH})
    with result:
        for batch in result.partitions(BATCH):
            yield list(batch)


def _game_cells(game: Any) -> tuple[Any, ...]:
    """The cells of a game's columns, the same on each of its rows."""
    (id_, finished_at, created_at, name_a, name_b, preset, target, progressive, natural) = game[:9]
    skunk, difference, small, big, first_dealer, paid_at = game[9:]
    played = finished_at or created_at
    cells = (
        id_,
        played.isoformat(sep=" ", timespec="seconds"),
        name_a,
        name_b,
        preset or "",
        target,
        _yes_no(progressive),
        _yes_no(natural),
        skunk,
        difference,
        format_money(small),
        format_money(big),
        "ab"[first_dealer],
        "" if paid_at is None else paid_at.isoformat(sep=" ", timespec="seconds"),
    )
    return tuple(inert(cell) for cell in cells)


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"
