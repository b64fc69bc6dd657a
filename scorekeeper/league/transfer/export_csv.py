"""The league's deals as CSV, one row per deal: the format paper score cards are
imported in."""

import csv
import io
from collections.abc import Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from scorekeeper.engine import format_money
from scorekeeper.league.transfer.formats import CSV_COLUMNS, inert
from scorekeeper.models import Deal, Game, Player, db


def export_csv(league_id: int) -> Iterator[str]:
    """The league's deals as CSV in the import format, streamed a row at a time."""
    a, b = aliased(Player), aliased(Player)
    rows = db.session.execute(
        select(Game, a.name, b.name, Deal)
        .join(a, a.id == Game.player0_id)
        .join(b, b.id == Game.player1_id)
        .join(Deal, Deal.game_id == Game.id)
        .where(Game.league_id == league_id)
        .order_by(Game.id, Deal.number)
        .execution_options(yield_per=1000)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game, name_a, name_b, deal in rows:
        writer.writerow([inert(cell) for cell in _csv_row(game, name_a, name_b, deal)])
        if buffer.tell() > 64_000:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def _csv_row(game: Game, name_a: str, name_b: str, deal: Deal) -> list[Any]:
    played = game.finished_at or game.created_at
    return [
        game.id,
        played.isoformat(sep=" ", timespec="seconds"),
        name_a,
        name_b,
        game.preset or "",
        game.target,
        _yes_no(game.progressive),
        _yes_no(game.natural_needed),
        game.skunk,
        game.difference,
        format_money(game.small_stake),
        format_money(game.big_stake),
        "ab"[game.first_dealer],
        "" if game.paid_at is None else game.paid_at.isoformat(sep=" ", timespec="seconds"),
        "ab"[deal.out_seat],
        deal.score0,
        deal.score1,
        deal.stars0,
        deal.stars1,
    ]


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"
