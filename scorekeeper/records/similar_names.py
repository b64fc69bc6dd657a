"""Names close enough to be one person's name mistyped: "Alcie" for Alice, "Zoe" for Zoé.

**Decision** (how close is close): both names are compared case-folded, without accents
and with runs of spaces made one; they are close when the Damerau–Levenshtein distance
between them (a letter added, dropped or changed, or two neighbours swapped, each counts
one) is at most

* 1 when the shorter name has 7 letters or fewer ("Alcie", "Alic", "Alicee" are Alice;
  "Anna" may be Ana, "Benn" Ben, and "Zoe" is Zoé),
* 2 when it has 8 or more ("Christohpe" and "Cristophe" are Christophe).

Short names too: one edit away is only a question ("Did you mean Ben?"), which costs a
tap, while a second player made by mistake splits one person's games in two (issue 24:
"Anna" silently became a new player beside "Ana", and "Benn" was offered Ben2 only).
Among names as close, A–Z: "Benn" is offered Ben, then Ben2.
"""

import unicodedata
from collections.abc import Iterable

#: The most names one question offers.
MOST_SUGGESTIONS = 3


def folded(name: str) -> str:
    """``name`` case-folded, without accents, with single spaces: ``" Zoé  Ng"`` → ``"zoe ng"``."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.split())


def allowed_distance(first: str, second: str) -> int:
    """How many edits two folded names may differ by and still be close (the module's table)."""
    return 1 if min(len(first), len(second)) <= 7 else 2


def close_names(typed: str, names: Iterable[str]) -> list[str]:
    """The ``names`` close to ``typed`` but not the same name (ignoring case), closest first,
    at most :data:`MOST_SUGGESTIONS`."""
    from rapidfuzz.distance import DamerauLevenshtein  # loaded when first asked (issue 26)

    mine = folded(typed)
    found: list[tuple[int, str]] = []
    for name in names:
        if name.casefold() == typed.casefold():
            continue
        theirs = folded(name)
        allowed = allowed_distance(mine, theirs)
        distance = DamerauLevenshtein.distance(mine, theirs, score_cutoff=allowed)
        if distance <= allowed:
            found.append((distance, name))
    return [name for _distance, name in sorted(found)[:MOST_SUGGESTIONS]]
