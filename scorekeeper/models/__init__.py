"""Typed SQLAlchemy 2.0 models, one module per area; import them from here."""

from .accounts import (
    SEAT_LINK_DAYS_AFTER_PAID,
    ApiToken,
    AuditAction,
    AuditEvent,
    Invitation,
    LoginThrottle,
    Membership,
    Role,
    SeatLink,
    User,
    UserSession,
)
from .api import IdempotencyKey
from .base import MAX_ID, Base, Model, db, utcnow
from .league import GameResult, LeagueRound, PairRecord, PlayerRecord, Season, SeasonRecord
from .table import (
    FINISHED,
    IN_PROGRESS,
    Deal,
    Game,
    League,
    Player,
    SubmissionToken,
)

__all__ = [
    "FINISHED",
    "IN_PROGRESS",
    "MAX_ID",
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
