"""What the files look like: the JSON export's format name, the CSV's columns, and how a
cell is kept from being read as a formula. Shared by the exports and the imports."""

from typing import Any, Final

JSON_FORMAT: Final = "mille-scorekeeper-league/1"

GAME_COLUMNS: Final = (
    "date",
    "player_a",
    "player_b",
    "preset",
    "target",
    "progressive",
    "natural_needed",
    "skunk",
    "difference",
    "small",
    "big",
    "first_dealer",
    "paid",
)
DEAL_COLUMNS: Final = ("out", "score_a", "score_b", "stars_a", "stars_b")
CSV_COLUMNS: Final = ("game", *GAME_COLUMNS, *DEAL_COLUMNS)
REQUIRED_COLUMNS: Final = ("game", "date", "player_a", "player_b", "out", "score_a", "score_b")


#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def _quoted(text: str) -> bool:
    """A cell a spreadsheet was kept from reading as a formula: ``'`` and a formula start
    (or a second ``'``, for text that itself starts so)."""
    return text.startswith("'") and text[1:].startswith((*FORMULA_STARTS, "'"))


def inert(cell: Any) -> Any:
    """Text a spreadsheet would run as a formula, with a ``'`` in front so it shows as
    text; numbers stay numbers (-50 is a score). :func:`unquoted` takes the ``'`` off."""
    if isinstance(cell, str) and (cell.startswith(FORMULA_STARTS) or _quoted(cell)):
        return "'" + cell
    return cell


def unquoted(text: str) -> str:
    return text[1:] if _quoted(text) else text
