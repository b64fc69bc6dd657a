"""What a league's pages read from their address: a row's id, a player of the league, two
different players."""

from flask import abort, request

from scorekeeper.league import queries
from scorekeeper.models import League, Player


def id_arg(name: str) -> int | None:
    """A row id from the query string; None when absent or not a possible id."""
    value = request.args.get(name, type=int)
    return value if value is not None and 0 < value <= queries.MAX_ID else None


def player_of(league: League, player_id: int | None) -> Player:
    """The league's player with this id; 404 if there is none."""
    player = queries.player_in(league.id, player_id)
    if player is None:
        abort(404)
    return player


def pair_of(league: League, first_id: int, second_id: int) -> tuple[Player, Player]:
    """Two different players of the league (a player owes themself nothing: there is no page)."""
    if first_id == second_id:
        abort(404)
    return player_of(league, first_id), player_of(league, second_id)
