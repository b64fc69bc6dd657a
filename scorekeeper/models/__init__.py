"""Typed SQLAlchemy 2.0 models, one module per area; import them from here."""

from .accounts import (
    ApiToken,
    AuditAction,
    AuditEvent,
    Invitation,
    LoginThrottle,
    Membership,
    Role,
    User,
    UserSession,
)
from .api import IdempotencyKey
from .base import Base, Model, db, utcnow
from .league import GameResult, LeagueRound, PairRecord, PlayerRecord, Season, SeasonRecord
from .table import (
    FINISHED,
    IN_PROGRESS,
    SEAT_LINK_DAYS_AFTER_PAID,
    Deal,
    Game,
    League,
    Player,
    SeatLink,
    SubmissionToken,
)

__all__ = [
    "FINISHED",
    "IN_PROGRESS",
    "SEAT_LINK_DAYS_AFTER_PAID",
    "ApiToken",
    "AuditAction",
    "AuditEvent",
    "Base",
    "Deal",
    "Game",
    "GameResult",
    "IdempotencyKey",
    "Invitation",
    "League",
    "LeagueRound",
    "LoginThrottle",
    "Membership",
    "Model",
    "PairRecord",
    "Player",
    "PlayerRecord",
    "Role",
    "Season",
    "SeasonRecord",
    "SeatLink",
    "SubmissionToken",
    "User",
    "UserSession",
    "db",
    "utcnow",
]
