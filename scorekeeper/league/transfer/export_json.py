"""The league as JSON: every game, lossless, so an import makes it again."""

import itertools
import json
from collections.abc import Generator, Iterator
from contextlib import closing
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Select, select
from sqlalchemy.orm import aliased

from scorekeeper.engine import format_money
from scorekeeper.league.transfer.formats import JSON_FORMAT
from scorekeeper.league.transfer.kind_json import outcome_json, stakes_json
from scorekeeper.models import (
    FINISHED,
    MILLE,
    Deal,
    Game,
    GameSeat,
    League,
    Player,
    Season,
    User,
    db,
)
from scorekeeper.records import sittings

#: Rows read at a time.
BATCH: Final = 5000


def export_json(league: League) -> Iterator[str]:
    """Everything needed to make the league's games again, and what they came to, as JSON
    text, a game at a time: the same text as ``json.dumps(…, indent=1, ensure_ascii=False)``
    of the whole, which a league of any size would have to hold in memory."""
    seasons = db.session.scalars(
        select(Season).where(Season.league_id == league.id).order_by(Season.starts_on, Season.id)
    )
    head = {
        "format": JSON_FORMAT,
        "exported_at": _iso(datetime.now(UTC).replace(tzinfo=None)),
        "league": {"name": league.name, "slug": league.slug, "public": league.public},
        "players": [player.name for player in league.players],
        "seasons": [
            {"name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat()}
            for s in seasons
        ],
        "games": [],
    }
    # The head is read now, while the league is loaded; the games as they are sent.
    return _document(json.dumps(head, indent=1, ensure_ascii=False), league.id)


def _document(text: str, league_id: int) -> Iterator[str]:
    with closing(_games_with_deals(league_id)) as games:
        yield from _laid_out(text, games)


def _laid_out(text: str, games: Iterator[dict[str, Any]]) -> Iterator[str]:
    first = next(games, None)
    if first is None:
        yield text
        return
    yield text[: text.rindex('"games": []')] + '"games": ['
    chunk = []
    for number, game in enumerate(itertools.chain([first], games)):
        chunk.append(("\n  " if not number else ",\n  ") + _indented(game))
        if len(chunk) == 100:
            yield "".join(chunk)
            chunk = []
    yield "".join(chunk) + "\n ]\n}"


def _indented(game: dict[str, Any]) -> str:
    """A game as it is laid out two levels down in the whole document."""
    return json.dumps(game, indent=1, ensure_ascii=False).replace("\n", "\n  ")


def _games_with_deals(league_id: int) -> Generator[dict[str, Any], None, None]:
    """Each game of the league as JSON values, its deals read beside it: two server-side
    cursors in game order, plain rows (no ORM object per game or deal); a third for the
    players of games of other kinds than Mille, opened at the first of them."""
    a, b = aliased(Player), aliased(Player)
    abandoner = aliased(User)
    games = _rows(
        select(
            *Game.__table__.columns,
            a.name.label("name_a"),
            b.name.label("name_b"),
            User.username.label("paid_by"),
            abandoner.username.label("abandoned_by"),
        )
        .join(a, a.id == Game.player0_id)
        .join(b, b.id == Game.player1_id)
        .outerjoin(User, User.id == Game.paid_by_id)
        .outerjoin(abandoner, abandoner.id == Game.abandoned_by_id)
        .where(Game.league_id == league_id)
        .order_by(Game.id)
    )
    deals = _rows(
        select(*Deal.__table__.columns)
        .join(Game, Game.id == Deal.game_id)
        .where(Game.league_id == league_id)
        .order_by(Deal.game_id, Deal.number)
    )
    seats = SeatNames(_rows(seats_of_other_kinds(league_id, GameSeat.game_id)))
    with closing(games), closing(deals), closing(seats):
        deal = next(deals, None)
        for game in games:
            kept = []
            while deal is not None and deal.game_id == game.id:
                kept.append(deal)
                deal = next(deals, None)
            yield _any_game_json(game, kept, seats) | _abandoned_json(game)


def _any_game_json(game: Any, deals: list[Any], seats: "SeatNames") -> dict[str, Any]:
    if game.kind != MILLE:
        return _sitting_json(game, seats.of(game.id), deals, game.paid_by)
    names = (game.name_a, game.name_b)
    return _game_json(game, names, [_deal_json(deal) for deal in deals], game.paid_by)


def seats_of_other_kinds(league_id: int, *games_in_order: Any) -> Select[int, str]:
    """The players of the league's games of other kinds than Mille, each with its game: the
    games in the order ``games_in_order`` says (as the caller reads them), each one's
    players in seat order."""
    return (
        select(GameSeat.game_id, Player.name)
        .join(Player, Player.id == GameSeat.player_id)
        .join(Game, Game.id == GameSeat.game_id)
        .where(Game.league_id == league_id, Game.kind != MILLE)
        .order_by(*games_in_order, GameSeat.seat)
    )


class SeatNames:
    """The players of games of other kinds than Mille, read from ``rows`` (each a game's id
    and a name; a game's seats together, the games in the order they are asked for) only
    once one is asked for: an export of Mille's games alone sends no statement for them."""

    def __init__(self, rows: Iterator[Any]) -> None:
        self.rows = rows
        self.row: Any = None
        self.started = False

    def of(self, game_id: int) -> list[str]:
        """The players of game ``game_id``, in seat order (those of games passed over, which
        were not asked for, are skipped)."""
        if not self.started:
            self.row, self.started = next(self.rows, None), True
        while self.row is not None and self.row.game_id != game_id:
            self.row = next(self.rows, None)
        names = []
        while self.row is not None and self.row.game_id == game_id:
            names.append(self.row.name)
            self.row = next(self.rows, None)
        return names

    def close(self) -> None:
        close = getattr(self.rows, "close", None)
        if close is not None:
            close()


def _rows(statement: Any) -> Generator[Any, None, None]:
    connection = db.session.connection()
    result = connection.execute(statement, execution_options={"yield_per": BATCH})
    with result:  # closed even when left half-read
        for batch in result.partitions(BATCH):
            yield from batch


def _game_json(
    game: Any, names: tuple[str, str], deals: list[dict[str, Any]], paid_by: str | None
) -> dict[str, Any]:
    return {
        "id": game.id,
        "players": list(names),
        "preset": game.preset,
        "rules": {
            "target": game.target,
            "progressive": game.progressive,
            "natural_needed": game.natural_needed,
            "skunk": game.skunk,
            "difference": game.difference,
        },
        "stakes": {"small": format_money(game.small_stake), "big": format_money(game.big_stake)},
        "first_dealer": game.first_dealer,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "paid_at": _iso(game.paid_at),
        "paid_by": paid_by,
        "deals": deals,
        # What the deals come to, for a reader; an import checks them again.
        "status": game.status,
        "totals": [game.total0, game.total1],
        "winner": game.winner_seat,
        "amount_due": None if game.amount_due is None else format_money(game.amount_due),
    }


def _sitting_json(
    game: Any, names: list[str], deals: list[Any], paid_by: str | None
) -> dict[str, Any]:
    """A game of another kind than Mille: its setup and deals as the API writes them, and
    what they come to (:mod:`.kind_json`), replayed by its kind."""
    entries = [deal.entry for deal in deals]
    ended = game.status == FINISHED
    sitting = sittings.sitting_from(
        game.kind, len(names), game.setup, game.first_dealer, entries, ended=ended
    )
    return {
        "id": game.id,
        "game": game.kind,
        "players": names,
        "rules": dict(sitting.setup.rules),
        "stakes": stakes_json(sitting.setup.stakes),
        "first_dealer": game.first_dealer,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "paid_at": _iso(game.paid_at),
        "paid_by": paid_by,
        "deals": [{"entry": deal.entry, "created_at": _iso(deal.created_at)} for deal in deals],
        # What the deals come to, for a reader; an import checks them again.
        "status": game.status,
        **outcome_json(sitting),
    }


def _abandoned_json(game: Any) -> dict[str, Any]:
    """An abandoned game's mark (when, and who), which an import keeps; nothing otherwise,
    so a league without one exports as it always did."""
    if game.abandoned_at is None:
        return {}
    return {"abandoned_at": _iso(game.abandoned_at), "abandoned_by": game.abandoned_by}


def _deal_json(deal: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "out": deal.out_seat,
        "scores": [deal.score0, deal.score1],
        "stars": [deal.stars0, deal.stars1],
        "created_at": _iso(deal.created_at),
    }
    if deal.cards is not None:
        data["cards"] = deal.cards
    return data


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(sep=" ")
