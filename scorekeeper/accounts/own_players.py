"""A member's own player in a league: which player a user is, as a league admin says, so
that their account page says how they are paid (issue 38, point 13)."""

from dataclasses import dataclass

from sqlalchemy import select

from scorekeeper.database import writing
from scorekeeper.errors import ServiceError
from scorekeeper.models import AuditAction, AuditEvent, League, Membership, Player, User, db
from scorekeeper.web.translation import gettext


@dataclass(frozen=True)
class OwnPlayer:
    """A league the user is a member of, and their player in it."""

    league: League
    player: Player


def own_players(user_id: int) -> list[OwnPlayer]:
    """The players the user is, one per league they are linked in, by league name."""
    rows = db.session.execute(
        select(League, Player)
        .join(Membership, Membership.league_id == League.id)
        .join(Player, Player.id == Membership.player_id)
        .where(Membership.user_id == user_id)
        .order_by(League.name)
    )
    return [OwnPlayer(league, player) for league, player in rows]


def own_player(user_id: int, league_id: int) -> Player | None:
    """The user's player in the league, if they are linked to one."""
    return db.session.scalar(
        select(Player)
        .join(Membership, Membership.player_id == Player.id)
        .where(Membership.user_id == user_id, Membership.league_id == league_id)
    )


def member_of_player(player: Player) -> User | None:
    """The member linked to the player, if any."""
    return db.session.scalar(
        select(User)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.player_id == player.id)
    )


def link(player: Player, user_id: int | None, *, by: int | None = None) -> None:
    """Make the member ``user_id`` the player's account in its league (None: nobody), and
    no other member of it; a change is kept in the league's history, made ``by`` that
    account. ServiceError when ``user_id`` is not a member of the league."""
    with writing():
        membership = None
        if user_id is not None:
            membership = db.session.scalar(
                select(Membership).where(
                    Membership.user_id == user_id, Membership.league_id == player.league_id
                )
            )
            if membership is None:
                raise ServiceError(gettext("Choose one of the league's members."), field="user")
        was = None
        for other in db.session.scalars(
            select(Membership).where(Membership.player_id == player.id)
        ):
            other.player_id, was = None, other.user
        if membership is not None:
            membership.player_id = player.id
        account = membership.user if membership is not None else None
        if account is not was:
            db.session.add(
                AuditEvent(
                    league_id=player.league_id,
                    user_id=by,
                    action=AuditAction.ACCOUNT_LINKED,
                    params={
                        "name": player.name,
                        "player_id": player.id,
                        "account": account.username if account else None,
                        "was": was.username if was else None,
                    },
                )
            )
