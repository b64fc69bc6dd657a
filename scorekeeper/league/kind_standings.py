"""The standings of a game of any kind but Mille (whose own are :mod:`.standings`): for each
player who finished a game of it, the games played, what they won and their net money.

Read from what every change keeps: the games' seats, their ledgers (:class:`Movement`,
whose sums are the balances) and each deal's winner. A game that ends by its own rule
counts the games each player won (their side's); a sitting, which the scorekeeper ends,
the deals each player won.
"""

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select

from scorekeeper.engine.games import kind_named
from scorekeeper.models import FINISHED, Deal, Game, GameSeat, Movement, Player, db


@dataclass(frozen=True)
class KindStanding:
    """One player's line: finished games played, games or deals won, net money (cents)."""

    player_id: int
    name: str
    played: int
    won: int
    net: int


def _counted(league_id: int, kind: str) -> Select[Any]:
    """The league's finished games of ``kind`` that count (not abandoned)."""
    return select(Game.id).where(
        Game.league_id == league_id,
        Game.kind == kind,
        Game.status == FINISHED,
        Game.abandoned_at.is_(None),
    )


def _nets(games: Select[Any]) -> dict[tuple[int, int | None], int]:
    """Each (game, seat)'s money received minus paid: sums over the games' ledgers."""
    nets: dict[tuple[int, int | None], int] = defaultdict(int)
    for seat_column, sign in ((Movement.payee_seat, 1), (Movement.payer_seat, -1)):
        sums = db.session.execute(
            select(Movement.game_id, seat_column, func.sum(Movement.amount))
            .where(Movement.game_id.in_(games), seat_column.is_not(None))
            .group_by(Movement.game_id, seat_column)
        )
        for game_id, seat, amount in sums:
            nets[game_id, seat] += sign * int(amount)
    return nets


def _deals_won(games: Select[Any]) -> dict[tuple[int, int | None], int]:
    rows = db.session.execute(
        select(Deal.game_id, Deal.winner_seat, func.count())
        .where(Deal.game_id.in_(games), Deal.winner_seat.is_not(None))
        .group_by(Deal.game_id, Deal.winner_seat)
    )
    return {(game_id, seat): count for game_id, seat, count in rows}


def kind_standings(league_id: int, kind: str) -> list[KindStanding]:
    """Every player who finished a game of ``kind`` in the league, best net first (then
    most won, then by name)."""
    games = _counted(league_id, kind)
    seats = db.session.execute(
        select(GameSeat.game_id, GameSeat.seat, Player.id, Player.name)
        .join(Player, Player.id == GameSeat.player_id)
        .where(GameSeat.game_id.in_(games))
    ).all()
    nets = _nets(games)
    by_games = kind_named(kind).ends_itself
    won = {} if by_games else _deals_won(games)
    lines: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for game_id, seat, player_id, name in seats:
        names[player_id] = name
        line = lines.setdefault(player_id, [0, 0, 0])
        net = nets.get((game_id, seat), 0)
        line[0] += 1
        line[1] += int(net > 0) if by_games else won.get((game_id, seat), 0)
        line[2] += net
    found = [
        KindStanding(player_id, names[player_id], played, wins, net)
        for player_id, (played, wins, net) in lines.items()
    ]
    return sorted(found, key=lambda row: (-row.net, -row.won, row.name.casefold()))
