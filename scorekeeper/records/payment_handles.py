"""Where a player is paid: an Interac e-Transfer e-mail address or phone number, or a
PayPal.me name. Read and checked here, whoever sets it.

A league admin sets the player's handle, on the player's page: the league's, on the bill
of every game the player wins. Through a seat's link, the player (or whoever holds the
link) sets one for that game's bill only, over the league's: a link is handed to whoever
sits at the table, and a scorekeeper can make one for any game of the league, so it may
not redirect the player's payments for other games. Every change of either is kept in the
league's history (an audit event, :attr:`~.models.AuditAction.HANDLE_CHANGED`): who made
it, or through which link (and who shared it), when, and the handle before and after.

A handle that passes never starts with a character a spreadsheet reads as a formula
(``=``, ``+``, ``-``, ``@``): an e-mail address starts with a letter or digit, a phone
number is kept as ``514-555-0123``, a PayPal.me name is letters and digits.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.orm import joinedload

from scorekeeper.database import writing
from scorekeeper.engine.money import cents_to_decimal
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import AuditAction, AuditEvent, Game, Player, SeatLink, db
from scorekeeper.records.players import former_ids
from scorekeeper.web.translation import gettext


class HandleKind(StrEnum):
    EMAIL = "email"  # an Interac e-Transfer to an e-mail address
    PHONE = "phone"  # an Interac e-Transfer to a mobile number
    PAYPAL = "paypal"  # a PayPal.me name


#: PayPal.me names: letters and digits only, at most 20 (PayPal's own rule).
_PAYPAL_NAME: Final = re.compile(r"[A-Za-z0-9]{1,20}")
#: What may be typed around a phone number's digits.
_PHONE_PUNCTUATION: Final = re.compile(r"[\s().+-]")
_NANP: Final = re.compile(r"[2-9][0-9]{2}[2-9][0-9]{6}")
#: An e-mail address starts with a letter or digit here (the standard allows more, which
#: no bank asks for, and a leading ``+``, ``-``, ``=`` or ``@`` would read as a formula).
_EMAIL_START: Final = re.compile(r"[A-Za-z0-9]")


@dataclass(frozen=True)
class PaymentHandle:
    kind: HandleKind
    handle: str

    def paypal_link(self, cents: int, currency: str) -> str | None:
        """The PayPal.me link with the amount filled in, in ``currency`` (its ISO code, as
        PayPal.me takes it after the amount: ``12.40EUR``), for a PayPal name."""
        if self.kind is not HandleKind.PAYPAL:
            return None
        amount: Decimal = cents_to_decimal(cents)
        return f"https://paypal.me/{self.handle}/{amount}{currency}"


def handle_of(player: Player) -> PaymentHandle | None:
    if not player.payment_kind or not player.payment_handle:
        return None
    try:
        return PaymentHandle(HandleKind(player.payment_kind), player.payment_handle)
    except ValueError:
        return None


def read_handle(kind: str, text: str) -> PaymentHandle | None:
    """The handle typed for ``kind``, cleaned; None for an empty one (no handle).
    ServiceError (field ``handle``) for one that isn't a handle of that kind."""
    text = text.strip()
    if not text:
        return None
    try:
        chosen = HandleKind(kind)
    except ValueError:
        raise ServiceError(gettext("Choose how you are paid."), field="kind") from None
    if len(text) > 254:
        raise ServiceError(_refusal(chosen), field="handle")
    if chosen is HandleKind.PAYPAL:
        name = text.removeprefix("https://").removeprefix("paypal.me/").removeprefix("@")
        if not _PAYPAL_NAME.fullmatch(name):
            raise ServiceError(_refusal(chosen), field="handle")
        return PaymentHandle(chosen, name)
    if chosen is HandleKind.PHONE:
        digits = _PHONE_PUNCTUATION.sub("", text)
        if digits.startswith("1") and len(digits) == 11:
            digits = digits[1:]
        # A North American number: area code and exchange each start with 2 to 9.
        if not _NANP.fullmatch(digits):
            raise ServiceError(_refusal(chosen), field="handle")
        return PaymentHandle(chosen, f"{digits[:3]}-{digits[3:6]}-{digits[6:]}")
    from email_validator import EmailNotValidError, validate_email  # first use (issue 26)

    try:
        address = validate_email(text, check_deliverability=False).normalized
    except EmailNotValidError:
        raise ServiceError(_refusal(chosen), field="handle") from None
    if not _EMAIL_START.match(address):
        raise ServiceError(_refusal(chosen), field="handle")
    return PaymentHandle(chosen, address)


def _refusal(kind: HandleKind) -> str:
    if kind is HandleKind.PAYPAL:
        return gettext("A PayPal.me name is 1 to 20 letters and digits, such as AnaTremblay.")
    if kind is HandleKind.PHONE:
        return gettext("Enter a 10-digit phone number, such as 514-555-0123.")
    return gettext("Enter an e-mail address, such as ana@example.com.")


def set_handle(player_id: int, handle: PaymentHandle | None, *, by: int | None) -> Player:
    """Keep ``handle`` as where the player is paid in the league (None: no handle), and
    the change in the league's history, made by the user ``by``."""
    with writing():
        player = db.session.get(Player, player_id)
        if player is None:
            raise NotFound(gettext("There is no such player."))
        keep_handle(player, handle, by=by)
    return player


def keep_handle(player: Player, handle: PaymentHandle | None, *, by: int | None) -> None:
    """Inside the caller's write: :func:`set_handle`'s change, kept in the history if it
    is one."""
    before = handle_of(player)
    player.payment_kind = handle.kind.value if handle else None
    player.payment_handle = handle.handle if handle else None
    if handle != before:
        _keep_change(player, None, before, handle, by, {"by": "member"})


def set_game_handle(link: SeatLink, handle: PaymentHandle | None, *, by: int | None = None) -> None:
    """Keep ``handle`` as where the player of the link's seat is paid on the bill of the
    link's game only (None: the league's handle again), and the change in the league's
    history: through which link, shared by whom (and ``by``, the user signed in on the
    phone that used it, if any)."""
    with writing():
        game = db.session.get(Game, link.game_id)
        if game is None:
            raise NotFound(gettext("There is no such game."))
        before = game_handle(game, link.seat)
        if handle == before:
            return
        maker = link.created_by.username if link.created_by else None
        said = {"by": "link", "seat": link.seat, "link": link.id, "shared_by": maker}
        _keep_change(game.player(link.seat), game, before, handle, by, said)


def _keep_change(
    player: Player,
    game: Game | None,
    before: PaymentHandle | None,
    after: PaymentHandle | None,
    by: int | None,
    said: dict[str, Any],
) -> None:
    db.session.add(
        AuditEvent(
            league_id=player.league_id,
            game_id=game.id if game else None,
            user_id=by,
            action=AuditAction.HANDLE_CHANGED,
            params={
                "name": player.name,
                "player_id": player.id,
                "handle": after.handle if after else None,
                **said,
            },
            before=_values(before),
            after=_values(after),
        )
    )


def _values(handle: PaymentHandle | None) -> dict[str, str] | None:
    return {"kind": handle.kind.value, "handle": handle.handle} if handle else None


def _from_values(values: Any) -> PaymentHandle | None:
    try:
        return PaymentHandle(HandleKind(values["kind"]), str(values["handle"]))
    except (KeyError, TypeError, ValueError):
        return None


def game_handle(game: Game, seat: int) -> PaymentHandle | None:
    """Where the player of ``seat`` said, through their seat's link, they are paid for this
    game (None: they said nothing, or took it back)."""
    changes = db.session.scalars(
        select(AuditEvent)
        .where(AuditEvent.game_id == game.id, AuditEvent.action == AuditAction.HANDLE_CHANGED)
        .order_by(AuditEvent.id.desc())
    )
    for change in changes:
        if change.params.get("seat") == seat:
            return _from_values(change.after)
    return None


def bill_handle(game: Game, seat: int) -> PaymentHandle | None:
    """Where the player of ``seat`` is paid on this game's bill: the game's own handle,
    said through the seat's link, else the league's."""
    return game_handle(game, seat) or handle_of(game.player(seat))


def handle_changes(
    player: Player, former: Iterable[int] | None = None, limit: int = 20
) -> list[AuditEvent]:
    """The latest changes of where the player is paid, newest first: the league's, each
    game's said through a seat's link, and whose account the player is; those of the
    players merged into them included (``former``: the ids the history knows them by,
    ``players.former_ids``, read if not given)."""
    ids = sorted(former_ids(player) if former is None else former)
    return list(
        db.session.scalars(
            select(AuditEvent)
            .where(
                AuditEvent.league_id == player.league_id,
                # Whose account the player is: that member says how the player is paid.
                AuditEvent.action.in_((AuditAction.HANDLE_CHANGED, AuditAction.ACCOUNT_LINKED)),
                AuditEvent.params["player_id"].as_integer().in_(ids),
            )
            .order_by(AuditEvent.id.desc())
            .limit(limit)
            .options(joinedload(AuditEvent.user))
        )
    )
