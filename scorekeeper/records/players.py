"""A league's players: finding one by name, adding and renaming one, names that look alike,
and the history of their names (renames, and merges: :mod:`.merging`)."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import joinedload

from scorekeeper.database import writing
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import AuditAction, AuditEvent, Player, db
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


def lookalike_players(league_id: int, name: str, *, besides: int | None = None) -> list[str]:
    """The names of the league's players close to ``name`` (:mod:`.similar_names`), to ask
    "Did you mean Alice?" before a new player is made (or one is renamed, ``besides``
    that player's own name); none when ``name`` is a player."""
    cleaned = squeeze(name)
    if not cleaned or find_player(league_id, cleaned) is not None:
        return []
    query = select(Player.name).where(Player.league_id == league_id)
    if besides is not None:
        query = query.where(Player.id != besides)
    return close_names(cleaned, db.session.scalars(query))


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


def taken_refusal(name: str, player: Player) -> ServiceError:
    """A rename to the name of another player: one person's two names are merged instead."""
    return ServiceError(
        gettext(
            "%(name)s is already a player in this league. If %(player)s and %(name)s are one "
            "person, merge %(player)s into %(name)s instead.",
            name=name,
            player=player.name,
        ),
        field="name",
    )


def rename_player(league_id: int, player_id: int, name: str, *, by: int | None) -> Player:
    """The player, renamed ``name`` (cleaned, new in the league ignoring case: a name
    another player has is refused, :func:`taken_refusal`), and the rename kept in the
    league's history as made by the user ``by``. Games, records and pages read the name
    from the player's row, so it changes everywhere; what was said before (the history's
    own words) keeps the old name. The same name again changes nothing."""
    cleaned = clean_player_name(name)
    with writing():
        # The row locked against a merge (which deletes it) or another rename meanwhile.
        player = db.session.scalars(
            select(Player)
            .where(Player.id == player_id, Player.league_id == league_id)
            .with_for_update(key_share=True)
        ).first()
        if player is None:
            raise NotFound(gettext("There is no such player."))
        other = find_player(league_id, cleaned)
        if other is not None and other.id != player.id:
            raise taken_refusal(other.name, player)
        if cleaned != player.name:
            db.session.add(
                AuditEvent(
                    league_id=league_id,
                    user_id=by,
                    action=AuditAction.PLAYER_RENAMED,
                    params={"from": player.name, "into": cleaned, "player_id": player.id},
                )
            )
            player.name, player.name_key = cleaned, Player.key(cleaned)
    return player


#: The league's changes of names: renames and merges.
NAME_CHANGES = (AuditAction.PLAYER_RENAMED, AuditAction.PLAYERS_MERGED)


def _name_changes(league_id: int) -> Select[AuditEvent]:
    return (
        select(AuditEvent)
        .where(AuditEvent.league_id == league_id, AuditEvent.action.in_(NAME_CHANGES))
        .order_by(AuditEvent.id.desc())
        .options(joinedload(AuditEvent.user))
    )


def name_changes(league_id: int, limit: int = 20) -> list[AuditEvent]:
    """The league's latest renames and merges, newest first, with who made them."""
    return list(db.session.scalars(_name_changes(league_id).limit(limit)))


@dataclass(frozen=True)
class NameHistory:
    """A player's renames and the merges into them, newest first, and every id the
    league's history knows them by: theirs, and those of the players merged into them."""

    changes: list[AuditEvent]
    former: set[int]


def name_history(player: Player, limit: int = 20) -> NameHistory:
    """The player's :class:`NameHistory`, in one statement: a league renames and merges
    its players rarely, so all of its changes of names are read."""
    events = list(db.session.scalars(_name_changes(player.league_id)))
    former = _merged_into(player.id, _merges(event.params for event in events))
    mine = [event for event in events if event.params.get("player_id") in former]
    return NameHistory(mine[:limit], former)


def former_ids(player: Player) -> set[int]:
    """The player's id, and the ids of every player merged into them (and into those),
    under which the league's history still names them."""
    merges = db.session.scalars(
        select(AuditEvent.params).where(
            AuditEvent.league_id == player.league_id,
            AuditEvent.action == AuditAction.PLAYERS_MERGED,
        )
    )
    return _merged_into(player.id, _merges(merges))


def _merges(params: Iterable[dict[str, Any]]) -> Iterator[tuple[int, int]]:
    """Each merge's player merged away and player kept, from the values of its event."""
    for values in params:
        if "from_id" in values:
            yield values["from_id"], values["player_id"]


def _merged_into(kept: int, merges: Iterable[tuple[int, int]]) -> set[int]:
    into: dict[int, list[int]] = {}
    for gone, survivor in merges:
        into.setdefault(survivor, []).append(gone)
    found, waiting = {kept}, [kept]
    while waiting:
        for gone in into.get(waiting.pop(), []):
            if gone not in found:
                found.add(gone)
                waiting.append(gone)
    return found
