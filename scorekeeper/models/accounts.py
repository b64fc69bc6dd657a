"""Who may do what: users, their roles in leagues, API tokens, invitations and seat links,
and the audit trail."""

import base64
import hashlib
import hmac
import secrets
from datetime import datetime, timedelta
from enum import IntEnum, StrEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from flask_login import UserMixin
from sqlalchemy import JSON, CheckConstraint, Enum, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.names import MAX_KEY_LENGTH
from scorekeeper.names import key as name_key

from .base import MAX_SEATS, Model, utcnow

if TYPE_CHECKING:
    from .table import Game, League, Player


class Role(IntEnum):
    """A member's role in a league; each role may do everything the ones below it may."""

    VIEWER = 1  # may read a private league
    SCOREKEEPER = 2  # starts games, records and fixes deals, marks payments
    ADMIN = 3  # players, members, league settings, unlocking a settled game

    @property
    def label(self) -> str:
        return self.name.capitalize() if self is not Role.ADMIN else "League admin"


class User(UserMixin, Model):
    """An account. Signed in, it is identified by the key of its session
    (:class:`UserSession`), not by its id: see :meth:`get_id`."""

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    #: The username folded for comparison (:func:`..names.key`): unique.
    username_key: Mapped[str] = mapped_column(String(MAX_KEY_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    #: A site administrator: creates leagues, and is admin of every league.
    is_admin: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: When a site administrator disabled the account; None while it is in use. A disabled
    #: account signs in nowhere and opens nothing (its sessions ended and its API tokens
    #: revoked when it was disabled); its games, payments and history stay as they were.
    disabled_at: Mapped[datetime | None]

    memberships: Mapped[list["Membership"]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    @staticmethod
    def key(username: str) -> str:
        return name_key(username)

    @property
    def is_active(self) -> bool:
        """Flask-Login signs in no account that is not active: a disabled one isn't."""
        return self.disabled_at is None

    def get_id(self) -> str | None:
        """What Flask-Login keeps in the cookies: the session's key, which dies with its
        row, rather than the user's id, which would open the account for ever."""
        return getattr(self, "_session_key", None)

    def in_session(self, key: str) -> "User":
        """This user, as signed in with the session ``key`` (kept on the object, not stored)."""
        self._session_key = key
        return self

    def set_password(self, password: str, method: str = "scrypt") -> None:
        self.password_hash = generate_password_hash(password, method=method)

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    @staticmethod
    def check_no_password(password: str, method: str = "scrypt") -> bool:
        """What checking a password costs, for a username that has no account: a refusal
        then takes as long as for a real one, so the time tells nobody who has an account."""
        check_password_hash(_unmatchable_hash(method), password)
        return False


@lru_cache(maxsize=4)
def _unmatchable_hash(method: str) -> str:
    """A hash made like real ones, of a random password nobody knows."""
    return generate_password_hash(secrets.token_urlsafe(32), method=method)


class Membership(Model):
    __table_args__ = (UniqueConstraint("user_id", "league_id", name="uq_membership"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    role: Mapped[int]
    #: The member's own player in the league, as a league admin linked them (issue 38): their
    #: account page says how they are paid. None: no player.
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id", ondelete="SET NULL"))

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


#: How long an invitation stays open.
INVITATION_DAYS = 7


class Invitation(Model):
    """A link that lets one person join a league with a role: single-use, open for
    :data:`INVITATION_DAYS` days, and withdrawn by a league admin at will. Only the
    token's SHA-256 is stored; the token itself is shown once, to whoever made it."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    role: Mapped[int]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]
    used_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    withdrawn_at: Mapped[datetime | None]
    #: The player whoever joins by it is in the league (issue 38, point 13), if made for one.
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id", ondelete="SET NULL"))

    league: Mapped["League"] = relationship()
    created_by: Mapped[User | None] = relationship(foreign_keys=[created_by_id])
    player: Mapped["Player | None"] = relationship()

    @property
    def role_enum(self) -> Role:
        return Role(self.role)

    def is_open(self, now: datetime) -> bool:
        """Neither used, withdrawn nor expired at ``now``."""
        return self.used_at is None and self.withdrawn_at is None and now < self.expires_at

    @staticmethod
    def digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @classmethod
    def issue(cls, league_id: int, role: Role, by: int | None) -> tuple["Invitation", str]:
        """A new invitation and its token (256 random bits), which is never stored."""
        token = secrets.token_urlsafe(32)
        now = utcnow()
        row = cls(
            league_id=league_id,
            role=int(role),
            token_hash=cls.digest(token),
            created_by_id=by,
            created_at=now,
            expires_at=now + timedelta(days=INVITATION_DAYS),
        )
        return row, token


#: How many days a seat link stays open after its game is marked paid.
SEAT_LINK_DAYS_AFTER_PAID = 7


class SeatLink(Model):
    """A link that opens one seat of one game on any phone, signed in or not: a capability,
    as a token and an invitation are.

    The token (128 random bits) is shown once, to the scorekeeper who made it; only its
    SHA-256 is kept. The link is dead once revoked ("Stop sharing"), when its game is
    deleted (the rows go with it) or abandoned, and :data:`SEAT_LINK_DAYS_AFTER_PAID` days
    after the game is marked paid.

    Its **receipt token** (:meth:`receipt_token`) opens the game's receipt and nothing
    else: what the bill's sentence and the printed receipt carry, to be forwarded. It lives
    and dies with the link; only its SHA-256 is kept too.
    """

    __table_args__ = (CheckConstraint(f"seat >= 0 AND seat < {MAX_SEATS}", name="seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int]
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    revoked_at: Mapped[datetime | None]
    #: The SHA-256 of :meth:`receipt_token` (None for a link made before receipts had one,
    #: until its page is next opened: ``table.seats.receipt_token``).
    receipt_hash: Mapped[str | None] = mapped_column(String(64), unique=True)

    game: Mapped["Game"] = relationship()
    created_by: Mapped[User | None] = relationship()

    @staticmethod
    def digest(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @property
    def maker_in_use(self) -> bool:
        """Whether the account that made the link is still in use. A link made by an account
        since disabled (or deleted) shows its card but changes nothing: whoever made it no
        longer answers for what it does."""
        return self.created_by is not None and self.created_by.disabled_at is None

    @staticmethod
    def receipt_token(token: str) -> str:
        """The token of the receipt of the link whose token is ``token``: 128 bits of an HMAC
        keyed by the link's token, so whoever holds the link can make it again (it is
        never stored), and nobody can go back from it to the link."""
        mac = hmac.new(token.encode(), b"receipt", hashlib.sha256).digest()[:16]
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    @classmethod
    def issue(cls, game_id: int, seat: int, by: int | None) -> tuple["SeatLink", str]:
        """A new link and its token (128 random bits), which is never stored."""
        token = secrets.token_urlsafe(16)
        link = cls(
            game_id=game_id,
            seat=seat,
            token_hash=cls.digest(token),
            receipt_hash=cls.digest(cls.receipt_token(token)),
            created_by_id=by,
        )
        return link, token

    def is_open(
        self, paid_at: datetime | None, now: datetime, abandoned_at: datetime | None = None
    ) -> bool:
        """Not revoked, its game not abandoned (``abandoned_at``), and not paid (at
        ``paid_at``) more than the days a link outlives it.

        The one rule of a link's life (``table.seats.open_seat`` and ``seat_version`` ask
        it). An abandoned game's links are closed while it stays abandoned: restored, the
        game has them back, as it has everything else back."""
        if self.revoked_at is not None or abandoned_at is not None:
            return False
        return paid_at is None or now < self.dies_at(paid_at)

    @staticmethod
    def dies_at(paid_at: datetime) -> datetime:
        """When the links of a game paid at ``paid_at`` die by themselves."""
        return paid_at + timedelta(days=SEAT_LINK_DAYS_AFTER_PAID)


class UserSession(Model):
    """One signed-in browser: its cookies hold the key, this row says the key still counts.

    Signing out deletes the row, so a copy of the cookies (session or remember-me)
    stops working too; changing the password or "sign out everywhere" deletes all of
    the user's rows. Only the key's SHA-256 is stored.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: A session ends by then even if nobody signs out: the remember-me cookie's lifetime.
    expires_at: Mapped[datetime] = mapped_column(index=True)

    @staticmethod
    def digest(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()


class LoginThrottle(Model):
    """Sign-in attempts counted against one key (a username with an address, or an
    address) in the window that started at ``window_start``."""

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(120), unique=True)
    attempts: Mapped[int] = mapped_column(default=0)
    window_start: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class AuditAction(StrEnum):
    """What a change to a game was. Each action keeps the values it is worded from in
    :attr:`AuditEvent.params` (listed here); the words are chosen when it is shown."""

    DEAL_RECORDED = "deal_recorded"  # number
    DEAL_EDITED = "deal_edited"  # number
    DEAL_DELETED = "deal_deleted"  # number (later deals moved up)
    GAME_FINISHED = "game_finished"  # winner (a name), number (the last deal)
    GAME_REOPENED = "game_reopened"  # nothing
    PAYMENT_MARKED = "payment_marked"  # payer (a name), amount (cents)
    GAME_UNLOCKED = "game_unlocked"  # nothing
    GAME_ABANDONED = "game_abandoned"  # nothing (its user is who abandoned it)
    GAME_RESTORED = "game_restored"  # nothing (its user is who restored it)
    #: seat, name (the player's), version (of the card agreed with), by ("link": the seat's
    #: link; "member": a member on the game page). Changes no deal; voided by the next
    #: change to the deals (:mod:`..table.seats`).
    CARD_AGREED = "card_agreed"
    #: file ("score_card", a CSV, or "league_export", JSON), place ("line" or "game") and
    #: where (its number there, as the file gives it), paid_by (who the file says marked it
    #: paid, or None). Its user is who imported it.
    GAME_IMPORTED = "game_imported"
    #: Where a player is paid changed (``records.payment_handles``): name and player_id (the
    #: player's), handle (the new one, or None: removed), by ("member": the league's
    #: handle, on the player's page; "link": the game's own, through its seat's link), and
    #: through a link, seat, link (its id) and shared_by (the username of who made it, or
    #: None). Before and after: the handle's kind and handle, or None. A league's change
    #: has no game.
    HANDLE_CHANGED = "handle_changed"
    #: payer, payee (names), amount (cents), games (how many): a payment of a night settled
    #: up was ticked as made (a league's event: it has no game).
    PAYMENT_TICKED = "payment_ticked"
    #: games (how many): every game of a night settled up was marked paid at once.
    NIGHT_SETTLED = "night_settled"
    #: A league admin renamed a player (``records.players``): from and into (the names, as
    #: they were), player_id. A league's change: no game.
    PLAYER_RENAMED = "player_renamed"
    #: A league admin merged two players who are one person (``records.merging``): from and
    #: into (the names of the player merged away and of the one kept, as they were),
    #: from_id, player_id (the one kept), games (how many moved) and handle (whose handle
    #: the one kept is paid by: "into", "from", or None for neither). A league's change:
    #: no game.
    PLAYERS_MERGED = "players_merged"
    #: A league admin said which member's account a player is (``accounts.own_players``):
    #: name and player_id (the player's), account and was (the usernames after and before,
    #: or None: nobody's). A league's change: no game.
    ACCOUNT_LINKED = "account_linked"


class AuditEvent(Model):
    """One change to a game (or league): who, when, what (an action and its values), and
    the values of the game before and after."""

    # A league's changes of one action (renames and merges, changes of where a player is
    # paid) are read by this index, not among every deal the league ever recorded.
    __table_args__ = (Index("ix_audit_event_league_action", "league_id", "action"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    # Kept as its text (a VARCHAR, no CHECK), so a new action needs no change of schema.
    action: Mapped[AuditAction] = mapped_column(
        Enum(
            AuditAction,
            native_enum=False,
            length=40,
            values_callable=lambda actions: [action.value for action in actions],
        )
    )
    #: The values the action is worded from (:class:`AuditAction` lists them).
    params: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    before: Mapped[Any | None] = mapped_column(JSON)
    after: Mapped[Any | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User | None] = relationship()
