"""Starting a game: a new one between two players, or the next one after a finished game."""

import random

from sqlalchemy import select

from scorekeeper.database import writing
from scorekeeper.engine import Rules, Seat, Stakes
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.models import IN_PROGRESS, Game, Player, SubmissionToken, db
from scorekeeper.records.players import clean_player_name, find_player, new_player
from scorekeeper.table.service import locked_game
from scorekeeper.web.translation import gettext


def _seat_name(index: int, name: str) -> str:
    """The name of the player in seat ``index``; its ServiceError names that seat."""
    try:
        return clean_player_name(name)
    except ServiceError as error:
        raise ServiceError(error.message, field=f"players.{index}") from None


def start_game(
    league_id: int,
    names: tuple[str, str],
    rules: Rules,
    stakes: Stakes,
    first_dealer: Seat | None = None,
    *,
    create_players: bool = True,
) -> Game:
    """A new game between two different players, with its own copy of rules and stakes.

    Names that aren't players of the league yet become players when
    ``create_players`` is set; otherwise they are an error.
    """
    cleaned = tuple(_seat_name(index, name) for index, name in enumerate(names))
    if Player.key(cleaned[0]) == Player.key(cleaned[1]):
        raise ServiceError(gettext("Choose two different players."), field="players.1")
    with writing():
        seats = []
        for index, name in enumerate(cleaned):
            player = find_player(league_id, name)
            if player is None and not create_players:
                raise ServiceError(
                    gettext("%(name)s is not a player in this league.", name=name),
                    f"players.{index}",
                )
            seats.append(player or new_player(league_id, name))
        game = Game(
            league_id=league_id,
            player0=seats[0],
            player1=seats[1],
            first_dealer=int(
                first_dealer if first_dealer is not None else random.choice(list(Seat))
            ),
        )
        game.rules = rules
        game.stakes = stakes
        db.session.add(game)
    return game


def rematch(game_id: int, *, token: str | None = None) -> tuple[Game, bool]:
    """The next game after a finished one: the same league, players (in the same seats),
    rules and stakes. Returns the new game and whether this call started it.

    **Decision** (RULES.md is silent on a following game): the first deal goes to the
    player who did not deal first last game, so over an evening the first deal alternates
    as the deal does within a game. A ``token`` seen before (a double tap) starts nothing:
    the game it started is returned; so is a rematch another phone started, while it has
    no deal yet.
    """
    with writing():
        # Locked first, so a retry of the same tap waits for this one and then sees its token.
        game = locked_game(game_id, settled_ok=True)
        if token and (seen := db.session.get(SubmissionToken, token)) is not None:
            started = db.session.get(Game, seen.game_id)
            if started is not None and started.league_id == game.league_id:
                return started, False
            raise Conflict(gettext("This button was already used; reload the page."))
        if not game.finished:
            raise Conflict(gettext("Only a finished game can be played again."))
        if (waiting := _rematch_started(game)) is not None:
            return waiting, False  # from another phone: one rematch, not two
        new = Game(
            league_id=game.league_id,
            player0_id=game.player0_id,
            player1_id=game.player1_id,
            first_dealer=1 - game.first_dealer,
        )
        new.rules = game.rules
        new.stakes = game.stakes
        db.session.add(new)
        db.session.flush()  # its id, for the token
        if token:
            db.session.add(SubmissionToken(token=token, game_id=new.id))
    return new, True


def _rematch_started(game: Game) -> Game | None:
    """A game of the same two in the same seats, rules and stakes, started since ``game``
    ended and still without a deal: the rematch someone has already started."""
    found = db.session.scalars(
        select(Game)
        .where(
            Game.league_id == game.league_id,
            Game.player0_id == game.player0_id,
            Game.player1_id == game.player1_id,
            Game.status == IN_PROGRESS,
            Game.deal_count == 0,
            Game.created_at >= game.finished_at,
        )
        .order_by(Game.id)
    )
    return next((g for g in found if g.rules == game.rules and g.stakes == game.stakes), None)
