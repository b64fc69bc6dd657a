"""Invitations: a league admin makes a link with a role; whoever opens it joins the league,
with an account of their own making or the one they are signed in with.

A link is single-use and open for seven days (``INVITATION_DAYS``); an admin may
withdraw it before. Its token (256 random bits) is shown once; only its SHA-256 is kept,
so the database alone opens nothing. Using one locks its row, so two people racing with
one link can't both join.
"""

from enum import StrEnum

from sqlalchemy import select, update

from scorekeeper.accounts import users as user_service
from scorekeeper.accounts.permissions import forget_roles
from scorekeeper.database import begin_held_write, holding_writes, writing
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Invitation, Membership, Player, Role, User, db, utcnow
from scorekeeper.web.translation import gettext

#: The roles an invitation may give: an admin is made by hand, on the members page.
INVITABLE = (Role.VIEWER, Role.SCOREKEEPER)
#: A token is 43 characters (``token_urlsafe(32)``); anything much longer is not one.
MAX_TOKEN_LENGTH = 100


class Closed(StrEnum):
    """Why an invitation can't be used."""

    UNKNOWN = "unknown"
    EXPIRED = "expired"
    USED = "used"
    WITHDRAWN = "withdrawn"
    #: Its maker is no longer an admin of the league: disabled, removed or made less.
    MAKER_LEFT = "maker_left"


class InvitationClosed(ServiceError):
    """The invitation can't be used (:attr:`reason` says why)."""

    def __init__(self, reason: Closed) -> None:
        super().__init__(closed_message(reason))
        self.reason = reason


def closed_message(reason: Closed) -> str:
    return {
        Closed.UNKNOWN: gettext("This invitation link is unknown: check it was copied whole."),
        Closed.EXPIRED: gettext("This invitation has expired: ask for a new one."),
        Closed.USED: gettext("This invitation was already used: each link lets one person join."),
        Closed.WITHDRAWN: gettext("This invitation was withdrawn by the league."),
        Closed.MAKER_LEFT: gettext(
            "This invitation has ended: whoever made it no longer manages the league. "
            "Ask an admin of the league for a new one."
        ),
    }[reason]


def create(
    league_id: int, role: Role, by: int | None, player_id: int | None = None
) -> tuple[Invitation, str]:
    """A new invitation to the league with ``role`` (viewer or scorekeeper), made for the
    league's player ``player_id`` if given, and its token: the only time it is known."""
    if role not in INVITABLE:
        raise ServiceError(gettext("An invitation makes a viewer or a scorekeeper."), field="role")
    with writing():
        if player_id is not None:
            player = db.session.get(Player, player_id)
            if player is None or player.league_id != league_id:
                raise ServiceError(gettext("Choose one of the league's players."), field="player")
        invitation, token = Invitation.issue(league_id, role, by)
        invitation.player_id = player_id
        db.session.add(invitation)
    return invitation, token


def open_invitations(league_id: int) -> list[Invitation]:
    """The league's invitations that can still be used, newest first, with who made them."""
    now = utcnow()
    return list(
        db.session.scalars(
            select(Invitation)
            .where(
                Invitation.league_id == league_id,
                Invitation.used_at.is_(None),
                Invitation.withdrawn_at.is_(None),
                Invitation.expires_at > now,
            )
            .order_by(Invitation.created_at.desc(), Invitation.id.desc())
        )
    )


def withdraw(league_id: int, invitation_id: int) -> Invitation:
    """Close an open invitation of the league; NotFound if it has none by that id, or it
    is closed already."""
    with writing():
        invitation = db.session.scalars(
            select(Invitation)
            .where(Invitation.id == invitation_id, Invitation.league_id == league_id)
            .with_for_update()
        ).first()
        if invitation is None or not invitation.is_open(utcnow()):
            raise NotFound(gettext("There is no such open invitation."))
        invitation.withdrawn_at = utcnow()
    return invitation


def _find(token: str, *, for_update: bool = False) -> Invitation | None:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    query = select(Invitation).where(Invitation.token_hash == Invitation.digest(token))
    if for_update:
        query = query.with_for_update()
    return db.session.scalars(query).first()


def _usable(invitation: Invitation | None) -> Invitation:
    """The invitation, if it can be used now; InvitationClosed otherwise."""
    if invitation is None:
        raise InvitationClosed(Closed.UNKNOWN)
    if invitation.used_at is not None:
        raise InvitationClosed(Closed.USED)
    # Before "withdrawn": losing the role withdraws the maker's invitations, and this says why.
    if not _maker_still_admin(invitation):
        raise InvitationClosed(Closed.MAKER_LEFT)
    if invitation.withdrawn_at is not None:
        raise InvitationClosed(Closed.WITHDRAWN)
    if utcnow() >= invitation.expires_at:
        raise InvitationClosed(Closed.EXPIRED)
    return invitation


def _maker_still_admin(invitation: Invitation) -> bool:
    """Whether whoever made the invitation may still make it: an account in use that is a
    site administrator or an admin of the league. Asked as the link is used, whatever
    ended the role (``members.end_invitations_made_by`` withdraws them as it ends). An
    invitation made by no account (the shell) has no maker to lose."""
    if invitation.created_by_id is None:
        return True
    found = db.session.execute(
        select(User.disabled_at, User.is_admin, Membership.role)
        .outerjoin(
            Membership,
            (Membership.user_id == User.id) & (Membership.league_id == invitation.league_id),
        )
        .where(User.id == invitation.created_by_id)
    ).first()
    if found is None or found.disabled_at is not None:
        return False
    return bool(found.is_admin) or found.role == Role.ADMIN


def opened(token: str) -> Invitation:
    """The invitation of ``token`` if it can be used (InvitationClosed if not), with its
    league, for the page that offers to join."""
    return _usable(_find(token))


def join_with_new_account(token: str, username: str, password: str) -> User:
    """A new account, by the rules of every account (``accounts.users.create_user``),
    made a member of the invitation's league: all of it, or nothing."""
    with holding_writes():
        begin_held_write()
        invitation = _usable(_find(token, for_update=True))
        user = user_service.create_user(username, password)
        _join(invitation, user.id)
        db.session.commit()
    return user


def join_as(token: str, user_id: int) -> Invitation:
    """The signed-in user joins the invitation's league. A member already keeps a higher
    role than the invitation's; the invitation is used either way."""
    with writing():
        invitation = _usable(_find(token, for_update=True))
        _join(invitation, user_id)
    return invitation


def _join(invitation: Invitation, user_id: int) -> None:
    membership = db.session.scalars(
        select(Membership).where(
            Membership.league_id == invitation.league_id, Membership.user_id == user_id
        )
    ).first()
    if membership is None:
        membership = Membership(
            league_id=invitation.league_id, user_id=user_id, role=invitation.role
        )
        db.session.add(membership)
    elif membership.role < invitation.role:
        membership.role = invitation.role
    if invitation.player_id is not None:
        # Made for a player: the one who joins is that player, and no other member is.
        db.session.execute(
            update(Membership)
            .where(Membership.player_id == invitation.player_id)
            .values(player_id=None)
        )
        membership.player_id = invitation.player_id
    invitation.used_at = utcnow()
    invitation.used_by_id = user_id
    forget_roles()


def role_after_joining(invitation: Invitation, user_id: int) -> Role:
    """The role the user has in the invitation's league (after joining with it)."""
    role = db.session.scalar(
        select(Membership.role).where(
            Membership.league_id == invitation.league_id, Membership.user_id == user_id
        )
    )
    return Role(role if role is not None else invitation.role)
