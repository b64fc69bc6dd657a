"""Starting a game: a new one of any kind, or the next one after a finished game."""

import random
from collections.abc import Mapping, Sequence

from sqlalchemy import select

from scorekeeper.database import writing
from scorekeeper.engine import Rules, Seat, Stakes
from scorekeeper.engine.games.base import GameKind
from scorekeeper.errors import Conflict, ServiceError
from scorekeeper.models import (
    IN_PROGRESS,
    Game,
    GameSeat,
    League,
    Player,
    SubmissionToken,
    db,
)
from scorekeeper.records.players import clean_player_name, find_player, new_player
from scorekeeper.records.sittings import stored_setup
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
    """A new game of Mille between two different players, with its own copy of rules and
    stakes.

    Names that aren't players of the league yet become players when
    ``create_players`` is set; otherwise they are an error.
    """
    cleaned = _cleaned(names)
    with writing():
        seats = _players(league_id, cleaned, create_players)
        game = Game(
            league_id=league_id,
            player0=seats[0],
            player1=seats[1],
            seats=[GameSeat(seat=seat, player=player) for seat, player in enumerate(seats)],
            first_dealer=int(
                first_dealer if first_dealer is not None else random.choice(list(Seat))
            ),
        )
        game.rules = rules
        game.stakes = stakes
        db.session.add(game)
    return game


def start_game_of(
    kind: GameKind,
    league_id: int,
    names: Sequence[str],
    rules: Mapping[str, object],
    stakes: Mapping[str, int | None],
    first_dealer: int | None = None,
    *,
    create_players: bool = True,
) -> Game:
    """A new game of ``kind`` (any but Mille) between its players in seat order, with the
    setup its engine module reads from ``rules`` and ``stakes`` (cents): ``Refused``
    naming ``players``, ``rules.…`` or ``stakes.…`` when they break its rules.

    The league keeps the setup as the one its next game of ``kind`` starts from
    (``League.last_setup``), whether the game was started from the page or the API."""
    cleaned = _cleaned(names)
    setup = kind.setup(len(cleaned), rules, stakes)
    if first_dealer is not None and not 0 <= first_dealer < len(cleaned):
        raise ServiceError(gettext("The first dealer must be one of the players."), "first_dealer")
    with writing():
        league = db.session.scalars(
            select(League).where(League.id == league_id).with_for_update(key_share=True)
        ).one()
        league.remember_setup(kind.name, setup.rules, setup.stakes)
        seats = _players(league_id, cleaned, create_players)
        game = Game(
            kind=kind.name,
            league_id=league_id,
            player0=seats[0],
            player1=seats[1],
            seats=[GameSeat(seat=seat, player=player) for seat, player in enumerate(seats)],
            first_dealer=random.randrange(len(seats)) if first_dealer is None else first_dealer,
            setup=stored_setup(setup),
            balances=[0] * len(seats),
        )
        db.session.add(game)
    return game


def _cleaned(names: Sequence[str]) -> list[str]:
    """The names of the players, each read as a name, all different."""
    cleaned = [_seat_name(index, name) for index, name in enumerate(names)]
    seen: set[str] = set()
    for index, name in enumerate(cleaned):
        if Player.key(name) in seen:
            message = (
                gettext("Choose two different players.")
                if len(cleaned) == 2
                else gettext(
                    "Each player can sit at the table once: %(name)s is there already.", name=name
                )
            )
            raise ServiceError(message, field=f"players.{index}")
        seen.add(Player.key(name))
    return cleaned


def _players(league_id: int, names: Sequence[str], create_players: bool) -> list[Player]:
    """The league's players of these names, new ones added if ``create_players``."""
    seats = []
    for index, name in enumerate(names):
        player = find_player(league_id, name)
        if player is None and not create_players:
            raise ServiceError(
                gettext("%(name)s is not a player in this league.", name=name),
                f"players.{index}",
            )
        seats.append(player or new_player(league_id, name))
    return seats


def rematch(game_id: int, *, token: str | None = None) -> tuple[Game, bool]:
    """The next game after a finished one: the same kind, league, players (in the same
    seats), rules and stakes. Returns the new game and whether this call started it.

    **Decision** (RULES.md is silent on a following game): the first deal goes to the
    player after the one who dealt first last game, so over an evening the first deal
    goes round the table as the deal does within a game (with two, it alternates). A
    ``token`` seen before (a double tap) starts nothing: the game it started is returned;
    so is a rematch another phone started, while it has no deal yet.
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
        new = _next_game(game)
        db.session.add(new)
        db.session.flush()  # its id, for the token
        if token:
            db.session.add(SubmissionToken(token=token, game_id=new.id))
    return new, True


def _next_game(game: Game) -> Game:
    """The game after ``game``, without a deal: its kind, league, players in their seats,
    rules and stakes, the first deal passed on."""
    players = [seat.player_id for seat in game.seats]
    new = Game(
        kind=game.kind,
        league_id=game.league_id,
        player0_id=game.player0_id,
        player1_id=game.player1_id,
        seats=[GameSeat(seat=seat, player_id=player) for seat, player in enumerate(players)],
        first_dealer=(game.first_dealer + 1) % len(players),
        setup=game.setup,
    )
    if game.is_mille:
        new.rules = game.rules
        new.stakes = game.stakes
    else:
        new.balances = [0] * len(players)
    return new


def _rematch_started(game: Game) -> Game | None:
    """A game of the same kind and players in the same seats, rules and stakes, started
    since ``game`` ended and still without a deal: the rematch someone has already started."""
    found = db.session.scalars(
        select(Game)
        .where(
            Game.league_id == game.league_id,
            Game.kind == game.kind,
            Game.player0_id == game.player0_id,
            Game.player1_id == game.player1_id,
            Game.status == IN_PROGRESS,
            Game.deal_count == 0,
            Game.created_at >= game.finished_at,
        )
        .order_by(Game.id)
    )
    return next((g for g in found if _same_table(g, game)), None)


def _same_table(one: Game, other: Game) -> bool:
    """The same players in the same seats, with the same rules and stakes."""
    if [s.player_id for s in one.seats] != [s.player_id for s in other.seats]:
        return False
    if one.is_mille:
        return one.rules == other.rules and one.stakes == other.stakes
    return one.setup == other.setup
