"""The league's deals as CSV, one row per deal: the format paper score cards are
imported in. Abandoned games are left out: they count like no game, and a score card has
no column to say so (the JSON export keeps them, marked).

Mille's deals come first, under Mille's header, as they always have; each other game's
follow in a section of its own: an empty line, its header, its rows (:mod:`.kind_csv`).
One header for every game would be the union of eight games' columns, most of them empty
on any row; a section per game reads as the score card of that game.

Streamed: the games and their deals are read side by side, a batch at a time, with two
server-side cursors in the same order, so a league of any size takes the memory of a
batch; what belongs to the game is written out once per game, not once per deal.
"""

import csv
import io
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import closing
from typing import Any, Final

from sqlalchemy import case, select
from sqlalchemy.orm import aliased

from scorekeeper.engine import format_money
from scorekeeper.engine.games import KINDS, kind_named
from scorekeeper.league.transfer.export_json import SeatNames, seats_of_other_kinds
from scorekeeper.league.transfer.formats import CSV_COLUMNS, inert
from scorekeeper.league.transfer.kind_csv import (
    columns_of,
    entry_cells,
    players_columns,
    seat_letter,
    setup_cells,
    sides_of,
)
from scorekeeper.models import FINISHED, MILLE, Deal, Game, GameSeat, Player, db
from scorekeeper.records import sittings

#: Rows read, and written out, at a time.
BATCH: Final = 5000


def export_csv(league_id: int) -> Iterator[str]:
    """The league's deals as CSV in the import format, streamed a batch of rows at a time:
    Mille's under its header, as always, then each other game's section."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    order = kind_order()
    seat_rows = _rows_of(seats_of_other_kinds(league_id, order, GameSeat.game_id))
    with (
        closing(_games(league_id, order)) as games,
        closing(_deals(league_id, order)) as deals,
        closing(SeatNames(seat_rows)) as seats,
    ):
        yield from _rows(games, deals, seats, buffer, writer)


def kind_order() -> Any:
    """The games in order of their kinds (Mille first, then as ``engine.games.KINDS``)."""
    return case(
        {name: index for index, name in enumerate(KINDS)}, value=Game.kind, else_=len(KINDS)
    )


def _rows(
    games: Iterator[Any],
    deals: Iterator[list[Any]],
    seats: SeatNames,
    buffer: io.StringIO,
    writer: Any,
) -> Iterator[str]:
    game_id: int | None = None
    section: str | None = None
    game_row: Callable[[Any], Sequence[Any]] = tuple
    for batch in deals:
        rows: list[Sequence[Any]] = []
        for deal in batch:
            while deal.game_id != game_id:  # every game has its deals' rows, in order
                game = next(games)
                if game.kind != section:  # a section of each kind, under its header
                    rows += ([()] if section is not None else []) + [_header(game.kind)]
                    section = game.kind
                game_id, game_row = game.id, _game_row(game, seats)
            rows.append(game_row(deal))
        writer.writerows(rows)
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    if section is None:  # no deal: Mille's header alone, as always
        writer.writerow(CSV_COLUMNS)
    if buffer.tell():
        yield buffer.getvalue()


def _header(kind: str) -> tuple[str, ...]:
    return CSV_COLUMNS if kind == MILLE else columns_of(kind_named(kind))


def _game_row(game: Any, seats: SeatNames) -> Callable[[Any], Sequence[Any]]:
    """How a row of one of the game's deals is written: the game's cells, then the deal's."""
    if game.kind == MILLE:
        cells = _game_cells(game)
        return lambda deal: (*cells, "ab"[deal.out_seat], *deal[2:6])
    return KindRows(game, seats.of(game.id)).row


def _games(league_id: int, order: Any) -> Generator[Any, None, None]:
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
            Game.kind,
            Game.setup,
            Game.status,
        )
        .join(a, a.id == Game.player0_id)
        .join(b, b.id == Game.player1_id)
        .where(Game.league_id == league_id, Game.abandoned_at.is_(None))
        .order_by(order, Game.id)
    )
    # Closed even when left half-read (games without deals come last).
    yield from _rows_of(statement)


def _deals(league_id: int, order: Any) -> Generator[list[Any], None, None]:
    statement = (
        select(
            Deal.game_id,
            Deal.out_seat,
            Deal.score0,
            Deal.score1,
            Deal.stars0,
            Deal.stars1,
            Deal.number,
            Deal.entry,
        )
        .join(Game, Game.id == Deal.game_id)
        .where(Game.league_id == league_id, Game.abandoned_at.is_(None))
        .order_by(order, Deal.game_id, Deal.number)
    )
    result = db.session.connection().execute(statement, execution_options={"yield_per": BATCH})
    with result:
        for batch in result.partitions(BATCH):
            yield list(batch)


def _rows_of(statement: Any) -> Generator[Any, None, None]:
    result = db.session.connection().execute(statement, execution_options={"yield_per": BATCH})
    with result:  # closed even when left half-read
        for batch in result.partitions(BATCH):
            yield from batch


class KindRows:
    """The rows of a game of another kind than Mille (:mod:`.kind_csv`): its cells, the
    same on each of its rows, then each deal's number and entry."""

    def __init__(self, game: Any, names: list[str]) -> None:
        self.kind = kind_named(game.kind)
        setup = sittings.setup_from(len(names), game.setup)
        self.sides = sides_of(self.kind, setup)
        players = [*names, *[""] * (len(players_columns(self.kind)) - len(names))]
        played = game.finished_at or game.created_at
        cells = (
            game.id,
            game.kind,
            played.isoformat(sep=" ", timespec="seconds"),
            *players,
            *setup_cells(self.kind, setup),
            seat_letter(game.first_dealer),
            _yes_no(game.status == FINISHED),
            "" if game.paid_at is None else game.paid_at.isoformat(sep=" ", timespec="seconds"),
        )
        self.cells = tuple(inert(cell) for cell in cells)

    def row(self, deal: Any) -> tuple[Any, ...]:
        entry = entry_cells(self.kind, deal.entry or {}, self.sides)
        return (*self.cells, deal.number, *(inert(cell) for cell in entry))


def _game_cells(game: Any) -> tuple[Any, ...]:
    """The cells of a game's columns, the same on each of its rows."""
    (id_, finished_at, created_at, name_a, name_b, preset, target, progressive, natural) = game[:9]
    skunk, difference, small, big, first_dealer, paid_at = game[9:15]
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
