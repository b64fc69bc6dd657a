"""Names that look like another: Unicode's confusables (TS #39) and mixed scripts.

A new account's name must not be mistaken for an existing one's (Cyrillic ``аlice``
beside ``alice``, dotless ``alıce``, ``aIice`` with a capital I, ``a1ice`` with a digit
one), nor mix scripts (Latin with Cyrillic or Greek) — ``accounts.users`` refuses both.

**The data** is Unicode's: confusables.txt and Scripts.txt, as the confusable-homoglyphs
library keeps them (a maintained library that ships the two files; nothing is copied
here). It stores each pair of confusables.txt both ways, so the direction from a
character to its prototype is found again: by TS #39's rule that a prototype is never
itself mapped, a character that is mapped has exactly one entry, its prototype. The one
case left open is a prototype with a single source (each then has the other as its one
entry); both go to the smaller of the two, which leaves TS #39's classes as they are.

**The skeleton** is TS #39's: NFD, each character replaced by its prototype, NFD again.
Names are unique ignoring case, so :func:`skeletons` gives two: TS #39's own, which tells
the names as shown (``ALlCE`` is ``ALICE``), and the skeleton of that skeleton case-folded,
which tells them ignoring case (``AIice`` is ``alice``: folding first would make the capital
I an ``i`` before it could be seen as an ``l``).

**Scripts** may not mix (TS #39's "highly restrictive" level): one script besides the
common characters (digits, spaces, punctuation) and the inherited ones (combining
accents); or Latin with Han and the Japanese kana, with Han and Bopomofo, or with Han and
Hangul, the way Japanese, Chinese and Korean names are written.

Known limit: the library keys right-to-left characters with the direction marks its
parser kept around them, so they are found by no look-up; a Hebrew or Arabic letter is
its own skeleton. Mixing one with Latin letters is still refused.
"""

import unicodedata
from functools import cache
from typing import Final

#: Scripts that never count as mixing: digits, spaces and punctuation, combining marks.
_NEUTRAL: Final = frozenset({"COMMON", "INHERITED"})
#: The scripts a name may mix (TS #39, 5.2, "highly restrictive").
_MIXABLE: Final = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: What the library's parser left around right-to-left characters: display marks only.
_DIRECTION_MARKS: Final = "\u200e\u200f"


@cache
def _entries(char: str) -> tuple[str, ...]:
    """The characters (or strings) confusables.txt pairs ``char`` with, either way."""
    from confusable_homoglyphs import confusables  # its data loads when first asked for

    found = confusables.is_confusable(char, greedy=True, preferred_aliases=[])
    if not found:
        return ()
    return tuple(glyph["c"].strip(_DIRECTION_MARKS) for glyph in found[0]["homoglyphs"])


def _lone_pair(char: str) -> str | None:
    """The other of a prototype and its single source, if ``char`` is one of the two."""
    entries = _entries(char)
    if len(entries) == 1 and len(entries[0]) == 1 and _entries(entries[0]) == (char,):
        return entries[0]
    return None


@cache
def _as_prototype(char: str) -> str:
    """A prototype character as the skeleton writes it (a lone pair's smaller one)."""
    other = _lone_pair(char)
    return min(char, other) if other else char


@cache
def _prototype(char: str) -> str:
    """What ``char`` becomes in a skeleton: its prototype, or itself if it is one."""
    entries = _entries(char)
    if len(entries) == 1 and _lone_pair(char) is None:
        return "".join(_as_prototype(part) for part in entries[0])
    return _as_prototype(char)


def skeleton(name: str) -> str:
    """TS #39's skeleton: names with the same one look alike."""
    decomposed = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(_prototype(char) for char in decomposed))


def skeletons(name: str) -> frozenset[str]:
    """The name's skeleton as shown and ignoring case (the module's docstring): two names
    look alike if they share one."""
    shown = skeleton(name)
    return frozenset({shown, skeleton(shown.casefold())})


def scripts(name: str) -> frozenset[str]:
    """The scripts of the name's letters (``LATIN``, ``CYRILLIC``…), the neutral ones left out."""
    from confusable_homoglyphs import categories

    return frozenset(categories.unique_aliases(name)) - _NEUTRAL


def mixes_scripts(name: str) -> bool:
    """Whether the name mixes scripts that are not written together (the module's docstring)."""
    found = scripts(name)
    return len(found) > 1 and not any(found <= mixable for mixable in _MIXABLE)
