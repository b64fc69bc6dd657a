"""A league's players: finding one by name, adding one, and names that look alike."""

from sqlalchemy import select

from scorekeeper.database import writing
from scorekeeper.errors import ServiceError
from scorekeeper.models import Player, db
from scorekeeper.names import MAX_NAME_LENGTH, check_key_length, check_printable, squeeze
from scorekeeper.records.similar_names import close_names
from scorekeeper.web.translation import gettext


def clean_player_name(name: str) -> str:
    """Trimmed, 1–40 printable characters; ServiceError otherwise."""
    cleaned = squeeze(name)
    if not cleaned:
        raise ServiceError(gettext("Enter a name."), field="name")
    check_printable(cleaned)
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ServiceError(
            gettext("A name is at most %(most)s characters.", most=MAX_NAME_LENGTH), field="name"
        )
    check_key_length(cleaned)
    return cleaned


def find_player(league_id: int, name: str) -> Player | None:
    return db.session.scalars(
        select(Player).where(Player.league_id == league_id, Player.name_key == Player.key(name))
    ).first()


def lookalike_players(league_id: int, name: str) -> list[str]:
    """The names of the league's players close to ``name`` (:mod:`.similar_names`), to ask
    "Did you mean Alice?" before a new player is made; none when ``name`` is a player."""
    cleaned = squeeze(name)
    if not cleaned or find_player(league_id, cleaned) is not None:
        return []
    names = db.session.scalars(select(Player.name).where(Player.league_id == league_id))
    return close_names(cleaned, names)


def new_player(league_id: int, name: str) -> Player:
    """A player added to the session, its name already cleaned and checked to be new."""
    player = Player(league_id=league_id, name=name, name_key=Player.key(name))
    db.session.add(player)
    return player


def add_player(league_id: int, name: str) -> Player:
    """A new player in the league; the name must be new there, ignoring case."""
    cleaned = clean_player_name(name)
    with writing():
        if find_player(league_id, cleaned) is not None:
            raise ServiceError(
                gettext("%(name)s is already a player in this league.", name=cleaned), field="name"
            )
        player = new_player(league_id, cleaned)
    return player
