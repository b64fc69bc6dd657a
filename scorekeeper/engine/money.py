"""Money at the edges: whole cents inside, decimal strings outside. Never floats."""

import re
from decimal import Decimal

_AMOUNT = re.compile(r"-?(\d{1,9}|\d{1,3}(,\d{3}){1,2})(\.\d{1,2})?")

_CENT = Decimal("0.01")


def parse_money(text: str) -> int:
    """Turn ``"0.25"``, ``"3"`` or ``"$1.50"`` into cents; ValueError if it is not an amount.

    At most two decimals: a stake of a fraction of a cent is a typo, not a stake.
    """
    cleaned = text.strip().removeprefix("$").strip()
    if not _AMOUNT.fullmatch(cleaned):
        raise ValueError(f"{text!r} is not an amount of money like 1.50")
    return int(Decimal(cleaned.replace(",", "")) * 100)


def cents_to_decimal(cents: int) -> Decimal:
    """Cents as an exact Decimal amount of dollars."""
    return (Decimal(cents) / 100).quantize(_CENT)


def format_money(cents: int) -> str:
    """Cents as a plain two-decimal string, as the API sends money: ``"19.00"``."""
    return str(cents_to_decimal(cents))
