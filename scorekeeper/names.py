"""How a typed name is read, kept and compared: the one reader of names.

Pages, the API and imports all read a player's, user's, league's or season's
name through :func:`squeeze` and :func:`printable`, and compare names through
:func:`key`, so a name refused on one is refused on all.

NFKC, not NFC: a name is for people to tell apart, so what looks the same is
made the same — full-width ``Ａｎａ`` is ``Ana``, the ligature ``ﬃ`` is ``ffi``,
and accents typed composed or decomposed are one ``é`` (RFC 8266, the PRECIS
profile for nicknames, makes the same choice). What no one can see is refused,
not silently dropped, so the name kept is the one its typist saw: zero-width
spaces and joiners, soft hyphens, byte-order marks, word joiners, bidi
overrides and marks (Unicode's format characters, Cf), controls (Cc), lone
surrogates (Cs), and the blank letters made to look like nothing.
"""

import unicodedata
from typing import Final

from flask_babel import lazy_gettext

from scorekeeper.errors import ServiceError

#: Unicode categories a name can't hold: controls and lone surrogates (which can't even be
#: stored), and what shows as nothing — format characters (zero-width, bidi) and line or
#: paragraph separators.
_CONTROL_CATEGORIES: Final = frozenset({"Cc", "Cs"})
_INVISIBLE_CATEGORIES: Final = frozenset({"Cf", "Zl", "Zp"})
#: Letters and marks that show as nothing: the combining grapheme joiner, Hangul fillers,
#: and the blank braille pattern.
_BLANKS: Final = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
#: Variation selectors choose a glyph (text or emoji) for the character before them: kept
#: in a name, but not part of what tells two names apart.
_VARIATION_SELECTORS: Final = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0x180B, 0x1810)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
)
#: The longest key a name of 40 characters folds to: case folding makes a character at most
#: three (``ΐ`` → ``ΐ``), and the key columns hold that.
MAX_KEY_LENGTH: Final = 120


def squeeze(name: str) -> str:
    """A name as it is kept: NFKC, trimmed, with runs of spaces inside it made one."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def unseen(text: str) -> str | None:
    """What in a name can't be in one: ``"control"`` (NUL, escape, bell…, or a lone
    surrogate: PostgreSQL can't even hold a NUL), ``"invisible"`` (see the module's
    docstring), or None when nothing."""
    categories = {unicodedata.category(char) for char in text}
    if categories & _CONTROL_CATEGORIES:
        return "control"
    if categories & _INVISIBLE_CATEGORIES or not _BLANKS.isdisjoint(text):
        return "invisible"
    return None


def printable(text: str) -> bool:
    """Whether a name can be stored, compared and shown (:func:`unseen` finds nothing)."""
    return unseen(text) is None


def key(name: str) -> str:
    """The name folded for comparison: names are the same if their keys are
    (Unicode's NFKC_Casefold, as for identifiers, without variation selectors)."""
    folded = unicodedata.normalize("NFKC", squeeze(name).casefold())
    return "".join(char for char in folded if char not in _VARIATION_SELECTORS)


#: Why a name is refused, on pages (beside the field), in the API and on import.
INVISIBLE = lazy_gettext(
    "A name can't contain invisible characters "
    "(such as a zero-width space, a soft hyphen or a right-to-left mark)."
)
CONTROL = lazy_gettext("A name can't contain control characters.")
TOO_LONG_FOLDED = lazy_gettext("This name is too long to compare with others; shorten it.")
#: The longest name of a player, user, league or season.
MAX_NAME_LENGTH = 40


def check_printable(name: str, field: str = "name") -> None:
    """ServiceError unless ``name`` is :func:`printable` (a tab or a line break in a name
    typed or imported has already been made a space by :func:`squeeze`)."""
    problem = name_problem(name)
    if problem:
        raise ServiceError(problem, field=field)


def name_problem(name: str) -> str | None:
    """Why a name can't be kept as it is (:func:`unseen`), in the reader's language."""
    found = unseen(name)
    return None if found is None else str(CONTROL if found == "control" else INVISIBLE)


def check_key_length(name: str, field: str = "name") -> None:
    """ServiceError if the name's key (:func:`key`) would not fit its column: a name
    of 40 characters always fits; this refuses what no one types, not a 500."""
    if len(key(name)) > MAX_KEY_LENGTH:
        raise ServiceError(str(TOO_LONG_FOLDED), field=field)
