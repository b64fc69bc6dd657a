"""What both readers of the league's CSV share, Mille's and the other games' sections: yes
and no, a moment, and the game's cells that its later rows repeat or leave empty."""

from collections.abc import Mapping, Sequence
from datetime import datetime

from scorekeeper.league.transfer.plan import (
    Problems,
    reasonable_moment,
    unreasonable_moment,
    worded,
)
from scorekeeper.web.translation import gettext


def check_game_cells(
    columns: Sequence[str],
    key: str,
    first: tuple[str, Mapping[str, str]],
    where: str,
    values: Mapping[str, str],
    problems: Problems,
) -> None:
    """Each of a game's ``columns`` a later row of game ``key`` gives must be what its first
    row (``first``: where it is, and its cells) gave."""
    started, cells = first
    for name in columns:
        given, kept = values.get(name, ""), cells.get(name, "")
        if given and given != kept and given.casefold() != kept.casefold():
            was = repr(kept or gettext("nothing"))
            problems.add(
                where,
                gettext(
                    "%(name)s is %(given)s but game %(key)s started with %(kept)s on "
                    "%(where)s; a game's %(name)s is set by its first row.",
                    name=name,
                    given=repr(given),
                    key=key,
                    kept=was,
                    where=worded(started),
                ),
            )


def boolean(text: str) -> bool | None:
    folded = text.strip().casefold()
    if folded in ("yes", "y", "true", "1"):
        return True
    if folded in ("no", "n", "false", "0", ""):
        return False
    return None


def moment(
    text: str, where: str, column: str, problems: Problems, *, required: bool = False
) -> datetime | None:
    if not text:
        if required:
            problems.add(
                where,
                gettext("%(column)s is empty; write the day, like 2025-03-14.", column=column),
            )
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        problems.add(
            where,
            gettext(
                "%(column)s is %(text)s; write the day, like 2025-03-14.",
                column=column,
                text=repr(text),
            ),
        )
        return None
    reasonable = reasonable_moment(moment)
    if reasonable is None:
        problems.add(where, unreasonable_moment(column, text))
    return reasonable
