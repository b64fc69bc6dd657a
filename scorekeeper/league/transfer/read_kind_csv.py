"""Reading a section of the league's CSV for games of other kinds than Mille
(:mod:`.kind_csv`): each game's cells read as its kind's setup, each row as a deal its kind
reads (``GameKind.read_deal``), and the game replayed by its kind, each problem reported
with its line and column."""

from collections.abc import Sequence
from datetime import datetime

from scorekeeper.engine import DealAfterEnd
from scorekeeper.engine.games import KINDS, GameKind, Refused, Setup, Sitting
from scorekeeper.errors import ServiceError
from scorekeeper.league.transfer.csv_cells import boolean, check_game_cells, moment
from scorekeeper.league.transfer.kind_csv import (
    ALL_COLUMNS,
    REQUIRED,
    STAKE,
    Unreadable,
    column_of,
    columns_of,
    game_columns,
    players_columns,
    properties_of,
    read_cell,
    read_entry,
    read_seat,
    sides_of,
)
from scorekeeper.league.transfer.plan import PlannedSitting, Problems, worded
from scorekeeper.models import MILLE, Player
from scorekeeper.records.players import clean_player_name
from scorekeeper.values import read_amount, read_whole_number
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import gettext, ngettext


def is_kinds_header(row: Sequence[str]) -> bool:
    """Whether ``row`` heads a section of other games than Mille: it names ``game`` first,
    and a ``kind`` column."""
    names = [cell.strip().lower() for cell in row]
    return bool(names) and names[0] == "game" and "kind" in names


def kind_header(row: Sequence[str], where: str, problems: Problems) -> dict[str, int]:
    """The columns of a section of other games than Mille, by name; its problems end the
    check (a file whose header is wrong is better fixed first)."""
    columns: dict[str, int] = {}
    before = len(problems.found)
    for index, raw in enumerate(row):
        name = raw.strip().lower().replace(" ", "_")
        if name not in ALL_COLUMNS:
            problems.add(where, gettext("unknown column %(name)s: no game has it.", name=repr(raw)))
        elif name in columns:
            problems.add(where, gettext("the column %(name)s appears twice.", name=name))
        else:
            columns[name] = index
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        problems.add(
            where,
            ngettext(
                "missing column: %(names)s.",
                "missing columns: %(names)s.",
                len(missing),
                names=", ".join(missing),
            ),
        )
    if len(problems.found) > before:
        problems.raise_any()
    return columns


def _at(problems: Problems, where: str, column: str, message: str) -> None:
    problems.add(where, gettext("%(where)s: %(problem)s", where=column, problem=message))


class KindCsvGame:
    """The rows of one game of another kind than Mille, as read so far."""

    def __init__(self, key: str, where: str, first: dict[str, str]) -> None:
        self.key = key
        self.where = where
        self.first = first
        self.rows: list[tuple[str, dict[str, str]]] = []
        self.kind = KINDS.get(first.get("kind", "").casefold())

    def add_row(self, where: str, values: dict[str, str], problems: Problems) -> None:
        columns = game_columns(self.kind) if self.kind else ("kind",)
        check_game_cells(columns, self.key, (self.where, self.first), where, values, problems)
        self.rows.append((where, values))

    def plan(self, problems: Problems) -> PlannedSitting | None:
        kind = self._kind(problems)
        if kind is None:
            return None
        foreign = self._foreign_cells(kind, problems)
        before = len(problems.found)
        played = moment(self.first.get("date", ""), self.where, "date", problems, required=True)
        ended = boolean(self.first.get("finished", ""))
        if ended is None:
            _at(problems, self.where, "finished", gettext("write yes or no."))
        names = self._names(kind, problems)
        setup = self._setup(kind, names, problems) if len(problems.found) == before else None
        dealer = self._first_dealer(names, problems) if setup is not None else None
        if len(problems.found) > before or setup is None or played is None or dealer is None:
            return None
        sides = sides_of(kind, setup)
        entries = [
            self._entry(kind, setup, names, sides, number, row, problems)
            for number, row in enumerate(self.rows, start=1)
        ]
        if foreign or len(problems.found) > before:
            return None
        planned = PlannedSitting(
            self.where, kind.name, names, setup, dealer, entries, played, ended=bool(ended)
        )
        return self._replayed(kind, planned, problems)

    def _kind(self, problems: Problems) -> GameKind | None:
        if self.kind is not None and self.kind.name != MILLE:
            return self.kind
        others = ", ".join(name for name in KINDS if name != MILLE)
        text = repr(self.first.get("kind", ""))
        _at(
            problems,
            self.where,
            "kind",
            gettext(
                "%(kind)s is not one of %(kinds)s (Mille's games go in a section of "
                "Mille's columns).",
                kind=text,
                kinds=others,
            ),
        )
        return None

    def _foreign_cells(self, kind: GameKind, problems: Problems) -> bool:
        """A cell given in a column the game doesn't have is a mistake: said once a game;
        whether there was one."""
        own, said = set(columns_of(kind)), set()
        for where, values in self.rows:
            for column, cell in values.items():
                if cell and column not in own and column not in said:
                    said.add(column)
                    _at(
                        problems,
                        where,
                        column,
                        gettext("%(kind)s has no such column; leave it empty.", kind=kind.name),
                    )
        return bool(said)

    def _names(self, kind: GameKind, problems: Problems) -> tuple[str, ...]:
        """The players in seat order: the first player columns given, with no gap."""
        columns = players_columns(kind)
        cells = [self.first.get(column, "") for column in columns]
        while cells and not cells[-1]:
            cells.pop()
        names: list[str] = []
        keys: set[str] = set()
        for column, cell in zip(columns, cells, strict=False):
            try:
                name = clean_player_name(cell)
            except ServiceError as error:
                _at(problems, self.where, column, error.message)
                continue
            if Player.key(name) in keys:
                message = gettext(
                    "Each player can sit at the table once: %(name)s is there already.", name=name
                )
                _at(problems, self.where, column, message)
            keys.add(Player.key(name))
            names.append(name)
        return tuple(names)

    def _setup(self, kind: GameKind, names: Sequence[str], problems: Problems) -> Setup | None:
        """The game's rule options and stakes, as its kind reads them."""
        rules, stakes, before = {}, {}, len(problems.found)
        for name, schema in properties_of(kind.rules_schema).items():
            if text := self.first.get(name, ""):
                rules[name] = read_cell(text, schema, names, ())
        for name in kind.stakes_taken:
            if text := self.first.get(STAKE + name, ""):
                try:
                    stakes[name] = read_amount(text)
                except ValueError as error:
                    _at(problems, self.where, STAKE + name, str(error))
        if len(problems.found) > before:
            return None
        try:
            return kind.setup(len(names), rules, stakes)
        except Refused as refused:
            for problem in refused.problems:
                _at(problems, self.where, column_of(problem.field), problem_message(problem))
            return None

    def _first_dealer(self, names: Sequence[str], problems: Problems) -> int | None:
        try:
            return read_seat(self.first.get("first_dealer", "") or "a", names)
        except Unreadable as error:
            _at(problems, self.where, "first_dealer", str(error))
            return None

    def _entry(
        self,
        kind: GameKind,
        setup: Setup,
        names: Sequence[str],
        sides: Sequence[Sequence[int]],
        number: int,
        row: tuple[str, dict[str, str]],
        problems: Problems,
    ) -> dict[str, object]:
        """Row ``number`` of the game as the deal its kind reads (an empty one, said, when it
        can't be read)."""
        where, values = row
        given = values.get("deal", "")
        if given and read_whole_number(given) != number:
            message = gettext(
                "deal is %(given)s, but this row is deal %(number)s of game %(key)s; keep a "
                "game's deals in order.",
                given=repr(given),
                number=number,
                key=self.key,
            )
            problems.add(where, message)
        unreadable: list[tuple[str, str]] = []
        raw = read_entry(kind, values, names, sides, unreadable)
        for column, message in unreadable:
            _at(problems, where, column, message)
        if unreadable:
            return {}
        try:
            return dict(kind.read_deal(setup, raw))
        except Refused as refused:
            for problem in refused.problems:
                _at(problems, where, column_of(problem.field), problem_message(problem))
            return {}

    def _replayed(
        self, kind: GameKind, planned: PlannedSitting, problems: Problems
    ) -> PlannedSitting | None:
        """``planned`` replayed, finished on its date if it is, paid as its first row says."""
        wheres = [where for where, _ in self.rows]
        try:
            sitting = planned.replayed()
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
        if not self._finished_as_written(kind, sitting, problems):
            return None
        if sitting.finished:
            planned.finished_at = planned.created_at
        return self._paid(planned, sitting, problems)

    def _finished_as_written(self, kind: GameKind, sitting: Sitting, problems: Problems) -> bool:
        """A game that ends by its own rule is finished as its deals say, whatever the file."""
        written = self.first.get("finished", "")
        if not kind.ends_itself or not written or boolean(written) == sitting.finished:
            return True
        said = (
            gettext("by its deals, game %(key)s is finished: write yes.", key=self.key)
            if sitting.finished
            else gettext("by its deals, game %(key)s is not finished: write no.", key=self.key)
        )
        _at(problems, self.where, "finished", said)
        return False

    def _paid(
        self, planned: PlannedSitting, sitting: Sitting, problems: Problems
    ) -> PlannedSitting | None:
        paid = self.first.get("paid", "")
        if boolean(paid) is False or not paid:
            return planned
        if not sitting.finished:
            problems.add(
                self.where,
                gettext("game %(key)s is not finished, so it can't be paid.", key=self.key),
            )
            return None
        when: datetime | None = planned.created_at
        if not boolean(paid):
            when = moment(paid, self.where, "paid", problems)
        planned.paid_at = when
        return planned
