"""What the JSON API keeps for itself: the answers to requests sent with an Idempotency-Key."""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model, utcnow


class IdempotencyKey(Model):
    """A ``POST`` made with an ``Idempotency-Key``, and the answer it got.

    The row is written in the same transaction as the change the request
    made, so a change and its key are committed together or not at all;
    ``status`` and ``response`` follow as soon as the answer is known (None
    until then). A retry with the same key gets the stored answer again.
    """

    __table_args__ = (UniqueConstraint("user_id", "key", name="uq_idempotency_key_user"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(255))
    method: Mapped[str] = mapped_column(String(10))
    path: Mapped[str] = mapped_column(String(300))
    #: SHA-256 of the request body (its JSON with sorted keys, when it is JSON).
    body_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int | None]
    response: Mapped[Any | None] = mapped_column(JSON)
    #: The ``Location`` header the answer had, if any.
    location: Mapped[str | None] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
