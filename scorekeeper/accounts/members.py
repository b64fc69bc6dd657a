"""A league's members: who belongs to it, and with which role (:mod:`.permissions` reads them)."""

from sqlalchemy import select

from scorekeeper.accounts.permissions import forget_roles
from scorekeeper.database import writing
from scorekeeper.models import Membership, Role, User, db


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
