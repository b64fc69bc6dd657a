"""What a password may be (NIST SP 800-63B): long enough, not absurdly long, and not one
of the passwords everyone tries first. Imports nothing from the app."""

from functools import cache
from importlib.resources import files

MIN_PASSWORD_LENGTH = 8
#: NIST asks that at least 64 be allowed; past this, a "password" is a pasted file.
MAX_PASSWORD_LENGTH = 256


@cache
def _common_passwords() -> frozenset[str]:
    text = files("scorekeeper.accounts").joinpath("data", "common-passwords.txt").read_text("utf-8")
    return frozenset(text.split())


def is_common(password: str) -> bool:
    """Whether the password, ignoring case, is on the list of the most common ones."""
    return password.casefold() in _common_passwords()
