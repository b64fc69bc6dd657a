"""Where a player is paid: an Interac e-Transfer e-mail address or phone number, or a
PayPal.me name. Read and checked here, whoever sets it (a league admin on the player's
page, or the player through their own seat link).

A handle that passes never starts with a character a spreadsheet reads as a formula
(``=``, ``+``, ``-``, ``@``): an e-mail address starts with a letter or digit, a phone
number is kept as ``514-555-0123``, a PayPal.me name is letters and digits.
"""

import re
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Final

from scorekeeper.database import writing
from scorekeeper.engine.money import cents_to_decimal
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.models import Player, db
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

    def paypal_link(self, cents: int) -> str | None:
        """The PayPal.me link with the amount filled in (Canadian dollars), for a PayPal name."""
        if self.kind is not HandleKind.PAYPAL:
            return None
        amount: Decimal = cents_to_decimal(cents)
        return f"https://paypal.me/{self.handle}/{amount}CAD"


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


def set_handle(player_id: int, handle: PaymentHandle | None) -> Player:
    """Keep ``handle`` as where the player is paid (None: no handle)."""
    with writing():
        player = db.session.get(Player, player_id)
        if player is None:
            raise NotFound(gettext("There is no such player."))
        player.payment_kind = handle.kind.value if handle else None
        player.payment_handle = handle.handle if handle else None
    return player
