"""Reading a CSV of paper score cards (README.md, "Importing paper score cards"): every
row checked by the rules of RULES.md, each problem reported with its line.

The file is read as a stream, a game at a time; nothing of it is all in memory.
"""

import csv
import io
from collections.abc import Callable, Iterator
from functools import lru_cache
from operator import itemgetter
from typing import Any, Final, TextIO, Union

from scorekeeper.engine import (
    PRESETS,
    DealAfterEnd,
    DifferenceRule,
    InvalidTally,
    Preset,
    Rules,
    Scorecard,
    Seat,
    SkunkRule,
    Stakes,
    Tally,
    validate_tally,
)
from scorekeeper.errors import ServiceError
from scorekeeper.league.transfer.csv_cells import boolean, check_game_cells, moment
from scorekeeper.league.transfer.formats import (
    CSV_COLUMNS,
    GAME_COLUMNS,
    REQUIRED_COLUMNS,
    unquoted,
)
from scorekeeper.league.transfer.plan import (
    ImportPlan,
    ImportProblems,
    Planned,
    PlannedGame,
    Problems,
    worded,
)
from scorekeeper.league.transfer.read_kind_csv import KindCsvGame, is_kinds_header, kind_header
from scorekeeper.models import Player
from scorekeeper.records.players import clean_player_name
from scorekeeper.values import read_amount, read_whole_number
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import gettext, ngettext

#: The engine's tally fields, as the CSV names them.
TALLY_COLUMNS: Final = {
    "out": "out",
    "scores.0": "score_a",
    "scores.1": "score_b",
    "stars.0": "stars_a",
    "stars.1": "stars_b",
}


def parse_csv(source: str | TextIO) -> ImportPlan:
    """Check every row of a CSV of paper score cards; ImportProblems lists each bad line.

    The file is read as a stream, a game at a time; each checked game is kept on disk
    (:meth:`ImportPlan.keep`) to be saved: however large, it is never all in memory.
    """
    stream = io.StringIO(source) if isinstance(source, str) else source
    plan = ImportPlan(source="score_card", file=stream)
    try:
        for game in _csv_games(stream):
            plan.add(game)
            plan.keep(game)
    except BaseException:
        plan.close()
        raise
    return plan


def _values(row: list[str], names: list[str], indexes: list[int]) -> dict[str, str]:
    """A row's cells by column name, trimmed, and unquoted if a spreadsheet quoted them."""
    width = len(row)
    cells = [row[i].strip() if i < width else "" for i in indexes]
    if "'" in "".join(cells) and any(cell.startswith("'") for cell in cells):
        cells = [unquoted(cell) for cell in cells]
    return dict(zip(names, cells, strict=True))


def _started_before(key: str, where: str, started: dict[str, str], problems: Problems) -> bool:
    """Whether game ``key`` began earlier in the file, before other games (then it is said)."""
    if key not in started:
        return False
    problems.add(
        where,
        gettext(
            "game %(key)s started on %(where)s and continues here after other "
            "games; keep the rows of a game together.",
            key=key,
            where=worded(started[key]),
        ),
    )
    return True


#: The rows of one game as read so far: Mille's, or another game's.
CsvGame = Union["_CsvGame", KindCsvGame]


class _Section:
    """A header and the games under it: Mille's (the file's first, or only, section), or
    other games' (:mod:`.read_kind_csv`), each kind's under a header of its own."""

    def __init__(self, row: list[str], where: str, problems: Problems) -> None:
        if is_kinds_header(row):
            columns = kind_header(row, where, problems)
            self.game: Callable[[str, str, dict[str, str]], CsvGame] = KindCsvGame
        else:
            columns = _header(row, problems)
            self.game = _CsvGame
        self.names, self.indexes = list(columns), list(columns.values())
        #: Where each game's first row is: a game's key is its section's.
        self.started: dict[str, str] = {}

    def values(self, row: list[str]) -> dict[str, str]:
        return _values(row, self.names, self.indexes)

    def start(
        self, key: str, where: str, values: dict[str, str], problems: Problems
    ) -> CsvGame | None:
        """Game ``key``, whose first row is at ``where``; None when it began earlier, before
        other games (which is said)."""
        if _started_before(key, where, self.started, problems):
            return None
        self.started[key] = where
        return self.game(key, where, values)


def _csv_games(stream: TextIO) -> Iterator[Planned]:
    """The file's games, checked, as each one ends; ImportProblems at the end if any is bad.
    (Longer than 40 lines, and read better whole: one pass over the rows, each kind of row
    it meets, and where each game ends.)"""
    try:
        stream.seek(0)
        header = stream.readline()
        stream.seek(0)
        delimiter = ";" if header.count(";") > header.count(",") else ","
        reader = csv.reader(stream, delimiter=delimiter)
        problems = Problems()
        section = _Section(next(reader, []), "line 1", problems)
        games = 0
        current: CsvGame | None = None
        for row in _rows(reader, problems):
            where = f"line {reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            if is_kinds_header(row):  # the next game's section
                yield from _planned(current, problems)
                current, section = None, _Section(row, where, problems)
                continue
            values = section.values(row)
            key = values.get("game", "")
            if not key:
                problems.add(where, gettext("the game column is empty; every row names its game."))
                continue
            if current is None or key != current.key:
                if (started := section.start(key, where, values, problems)) is None:
                    continue
                yield from _planned(current, problems)
                current, games = started, games + 1
            current.add_row(where, values, problems)
        yield from _planned(current, problems)
    except UnicodeDecodeError:
        raise ImportProblems(
            [gettext("The file is not UTF-8 text (save the spreadsheet as CSV UTF-8).")]
        ) from None
    if not games and not problems.found:
        problems.add("line 2", gettext("there are no deals in this file."))
    problems.raise_any()


def _planned(game: CsvGame | None, problems: Problems) -> Iterator[Planned]:
    """The game, checked, once its last row is read (nothing when it has a problem)."""
    if game is not None and (planned := game.plan(problems)) is not None:
        yield planned


def _rows(reader: Any, problems: Problems) -> Iterator[list[str]]:
    """The reader's rows; a line it can't read (a field over 128 KB, say) ends the check."""
    try:
        yield from reader
    except csv.Error as error:
        problems.add(
            f"line {reader.line_num}",
            gettext("this line can't be read as CSV (%(error)s).", error=error),
        )
        problems.raise_any()


def _header(row: list[str], problems: Problems) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, raw in enumerate(row):
        name = raw.strip().lower().replace(" ", "_")
        if name not in CSV_COLUMNS:
            problems.add(
                "line 1",
                gettext(
                    "unknown column %(name)s (the columns are %(columns)s).",
                    name=repr(raw),
                    columns=", ".join(CSV_COLUMNS),
                ),
            )
        elif name in columns:
            problems.add("line 1", gettext("the column %(name)s appears twice.", name=name))
        else:
            columns[name] = index
    missing = [name for name in REQUIRED_COLUMNS if name not in columns]
    if missing:
        problems.add(
            "line 1",
            ngettext(
                "missing column: %(names)s.",
                "missing columns: %(names)s.",
                len(missing),
                names=", ".join(missing),
            ),
        )
    problems.raise_any()
    return columns


class _CsvGame:
    """The rows of one game as read so far."""

    def __init__(self, key: str, where: str, first: dict[str, str]) -> None:
        self.key = key
        self.where = where
        self.first = first
        self.rows: list[tuple[str, dict[str, str]]] = []
        # The game's cells of a row (date, player_a and player_b at least: a tuple).
        self.game_cells = itemgetter(*(name for name in GAME_COLUMNS if name in first))
        self.first_cells = self.game_cells(first)

    def add_row(self, where: str, values: dict[str, str], problems: Problems) -> None:
        # Most rows repeat the game's cells exactly: only a row where one differs is read
        # column by column (issue 26: a tenth of a large import's check).
        if self.game_cells(values) != self.first_cells:
            check_game_cells(
                GAME_COLUMNS, self.key, (self.where, self.first), where, values, problems
            )
        self.rows.append((where, values))

    def plan(self, problems: Problems) -> PlannedGame | None:
        before = len(problems.found)
        first, where = self.first, self.where
        names = self._names(problems)
        rules = _csv_rules(first, where, problems)
        stakes = _csv_stakes(first, where, problems)
        played = moment(first.get("date", ""), where, "date", problems, required=True)
        dealer = _side(first.get("first_dealer", "") or "a", names, where, "first_dealer", problems)
        tallies = [
            self._tally(row_where, values, names, problems) for row_where, values in self.rows
        ]
        if len(problems.found) > before or rules is None or stakes is None or played is None:
            return None
        assert dealer is not None
        assert names is not None
        game = PlannedGame(
            where, names, rules, stakes, dealer, [t for t in tallies if t is not None], played
        )
        card = _replay_rows(game, [w for w, _ in self.rows], problems)
        if card is None:
            return None
        if card.finished:
            game.finished_at = played
        paid = first.get("paid", "")
        if boolean(paid) is not False and paid:
            if not card.finished:
                problems.add(
                    where,
                    gettext("game %(key)s is not finished, so it can't be paid.", key=self.key),
                )
                return None
            paid_at = played if boolean(paid) else moment(paid, where, "paid", problems)
            game.paid_at = paid_at
        return game

    def _names(self, problems: Problems) -> tuple[str, str] | None:
        names = []
        for column in ("player_a", "player_b"):
            try:
                names.append(clean_player_name(self.first.get(column, "")))
            except ServiceError as error:
                problems.add(self.where, f"{column}: {error.message}")
        if len(names) < 2:
            return None
        if Player.key(names[0]) == Player.key(names[1]):
            problems.add(self.where, gettext("player_a and player_b are the same player."))
            return None
        return names[0], names[1]

    @staticmethod
    def _tally(
        where: str, values: dict[str, str], names: tuple[str, str] | None, problems: Problems
    ) -> Tally | None:
        out = _side(values.get("out", ""), names, where, "out", problems)
        scores = [read_whole_number(values.get(c, "")) for c in ("score_a", "score_b")]
        stars = [read_whole_number(values.get(c, "") or "0") for c in ("stars_a", "stars_b")]
        try:
            return validate_tally(-1 if out is None else int(out), scores, stars)
        except InvalidTally as invalid:
            for problem in invalid.problems:
                if problem.field != "out" or out is not None:
                    column, message = TALLY_COLUMNS[problem.field], problem_message(problem)
                    problems.add(
                        where, gettext("%(where)s: %(problem)s", where=column, problem=message)
                    )
            return None


def _replay_rows(game: PlannedGame, wheres: list[str], problems: Problems) -> Scorecard | None:
    try:
        return game.replayed()
    except DealAfterEnd as error:
        problems.add(
            wheres[error.ended_at],
            gettext(
                "the game already ended with the deal on %(where)s (deal %(number)s); "
                "no deal can follow the end of a game.",
                where=worded(wheres[error.ended_at - 1]),
                number=error.ended_at,
            ),
        )
        return None


@lru_cache(maxsize=64)
def _seats(names: tuple[str, str] | None) -> dict[str, Seat]:
    """What a row may write for each seat: a or b, or the player's name (folded once a
    game, not once a row)."""
    choices = {"a": Seat.FIRST, "b": Seat.SECOND}
    if names is not None:
        choices |= {Player.key(names[0]): Seat.FIRST, Player.key(names[1]): Seat.SECOND}
    return choices


def _side(
    text: str, names: tuple[str, str] | None, where: str, column: str, problems: Problems
) -> Seat | None:
    """``a``/``b`` (or a player's name) as a seat."""
    wanted = text.strip().casefold()
    choices = _seats(names)
    if wanted in choices:
        return choices[wanted]
    problems.add(
        where,
        gettext(
            "%(column)s is %(text)s; write a (player_a) or b (player_b).",
            column=column,
            text=repr(text),
        ),
    )
    return None


def _csv_rules(values: dict[str, str], where: str, problems: Problems) -> Rules | None:
    preset_name = values.get("preset", "").casefold() or Preset.STANDARD.value
    if preset_name not in set(Preset):
        problems.add(
            where,
            gettext(
                "preset is %(name)s; use standard, progressive or marks.", name=repr(preset_name)
            ),
        )
        return None
    base = PRESETS[Preset(preset_name)]
    try:
        target = (
            read_whole_number(values.get("target", "")) if values.get("target") else base.target
        )
        if not isinstance(target, int):
            raise ValueError("target must be a whole number")
        return Rules(
            target=target,
            progressive=_flag(values, "progressive", base.progressive),
            natural_needed=_flag(values, "natural_needed", base.natural_needed),
            skunk=SkunkRule(values.get("skunk", "").casefold() or base.skunk.value),
            difference=DifferenceRule(
                values.get("difference", "").casefold() or base.difference.value
            ),
        )
    except ValueError as error:
        problems.add(where, gettext("rules: %(error)s.", error=error))
        return None


def _flag(values: dict[str, str], name: str, default: bool) -> bool:
    text = values.get(name, "")
    if not text:
        return default
    value = boolean(text)
    if value is None:
        raise ValueError(
            gettext("%(name)s is %(text)s; write yes or no", name=name, text=repr(text))
        )
    return value


def _csv_stakes(values: dict[str, str], where: str, problems: Problems) -> Stakes | None:
    try:
        small = read_amount(values.get("small", "") or "1")
        big = read_amount(values["big"]) if values.get("big") else 3 * small
        return Stakes(small=small, big=big)
    except ValueError as error:
        problems.add(where, gettext("stakes: %(error)s.", error=str(error).rstrip(".")))
        return None
