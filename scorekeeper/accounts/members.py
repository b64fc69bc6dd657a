"""A league's members: who belongs to it, and with which role (:mod:`.permissions` reads them)."""

from sqlalchemy import select, update

from scorekeeper.accounts.permissions import forget_roles
from scorekeeper.database import writing
from scorekeeper.models import Invitation, Membership, Role, User, db, utcnow


def members(league_id: int) -> list[tuple[User, Role]]:
    rows = db.session.execute(
        select(User, Membership.role)
        .join(Membership, Membership.user_id == User.id)
        .where(Membership.league_id == league_id)
        .order_by(User.username_key)
    )
    return [(user, Role(role)) for user, role in rows]


def set_membership(league_id: int, user_id: int, role: Role | None) -> None:
    """Give the user a role in the league, change it, or (``None``) remove them."""
    forget_roles()
    with writing():
        membership = db.session.scalars(
            select(Membership).where(
                Membership.league_id == league_id, Membership.user_id == user_id
            )
        ).first()
        if role is None:
            if membership is not None:
                db.session.delete(membership)
        elif membership is None:
            db.session.add(Membership(league_id=league_id, user_id=user_id, role=int(role)))
        else:
            membership.role = int(role)
        if role is not Role.ADMIN and not _is_site_admin(user_id):
            end_invitations_made_by(user_id, league_id)


def _is_site_admin(user_id: int) -> bool:
    return bool(db.session.scalar(select(User.is_admin).where(User.id == user_id)))


def end_invitations_made_by(user_id: int, league_id: int | None = None) -> None:
    """Within a write: the user's open invitations (to ``league_id``, or to every league)
    are withdrawn. An invitation lives as long as its maker's power to make it: it ends
    when they are disabled, removed from the league or made less than its admin."""
    query = update(Invitation).where(
        Invitation.created_by_id == user_id,
        Invitation.used_at.is_(None),
        Invitation.withdrawn_at.is_(None),
    )
    if league_id is not None:
        query = query.where(Invitation.league_id == league_id)
    db.session.execute(query.values(withdrawn_at=utcnow()))
