"""Who may do what: users, their roles in leagues, API tokens, and the audit trail."""

import hashlib
import secrets
from datetime import datetime
from enum import IntEnum
from typing import Any

from flask_login import UserMixin
from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from .base import Model, utcnow


class Role(IntEnum):
    """A member's role in a league; each role may do everything the ones below it may."""

    VIEWER = 1  # may read a private league
    SCOREKEEPER = 2  # starts games, records and fixes deals, marks payments
    ADMIN = 3  # players, members, league settings, unlocking a settled game

    @property
    def label(self) -> str:
        return self.name.capitalize() if self is not Role.ADMIN else "League admin"


class User(UserMixin, Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    #: The username folded for comparison: unique ignoring case.
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    #: A site administrator: creates leagues, and is admin of every league.
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    memberships: Mapped[list["Membership"]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    @staticmethod
    def key(username: str) -> str:
        return username.strip().casefold()

    def set_password(self, password: str, method: str = "scrypt") -> None:
        self.password_hash = generate_password_hash(password, method=method)

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)


class Membership(Model):
    __table_args__ = (UniqueConstraint("user_id", "league_id", name="uq_membership"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    role: Mapped[int]

    user: Mapped[User] = relationship(back_populates="memberships")

    @property
    def role_enum(self) -> Role:
        return Role(self.role)


class ApiToken(Model):
    """A bearer token for the JSON API; only its SHA-256 is stored."""

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The first characters, so a user can tell their tokens apart.
    prefix: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]

    user: Mapped[User] = relationship()

    @staticmethod
    def digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, user: User, name: str) -> tuple["ApiToken", str]:
        """A new token row and the token itself, which is shown once and never stored."""
        token = "mille_" + secrets.token_urlsafe(32)
        row = cls(user=user, name=name, token_hash=cls.digest(token), prefix=token[:12])
        return row, token


class LoginFailure(Model):
    """A failed login, kept for a while to slow down password guessing."""

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class AuditEvent(Model):
    """One change to a game (or league): who, when, and the values before and after."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(40))
    summary: Mapped[str] = mapped_column(String(200))
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User | None] = relationship()
