"""What the readers make of a file: its checked games (:class:`ImportPlan`) or its
problems (:class:`ImportProblems`), each problem with where it is, and what both readers
accept as a moment a game was played."""

import pickle
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import IO, Any, Final

from scorekeeper.engine import Rules, Scorecard, Seat, Stakes, Tally, replay
from scorekeeper.engine.games import Setup, Sitting, kind_named
from scorekeeper.models import Player
from scorekeeper.table import kind_service
from scorekeeper.table.service import derived_columns, settlement_of
from scorekeeper.values import EARLIEST_DAY
from scorekeeper.web.translation import gettext

#: Reported problems stop here; a file this wrong is better fixed and checked again.
MAX_PROBLEMS: Final = 100


class ImportProblems(Exception):
    """The file can't be imported; ``problems`` says where and why (nothing was saved)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass
class PlannedGame:
    """One game as a file describes it, checked and replayed, ready to save."""

    source: str  # "line 12" or "game 3": where the file describes it
    names: tuple[str, str]
    rules: Rules
    stakes: Stakes
    first_dealer: Seat
    tallies: list[Tally]
    created_at: datetime
    finished_at: datetime | None = None
    paid_at: datetime | None = None
    paid_by: str | None = None
    #: When the game was abandoned (a JSON export says), and by whom: it counts like no game.
    abandoned_at: datetime | None = None
    abandoned_by: str | None = None
    #: Per deal, what a JSON export kept beyond the tally: when it was recorded, its cards.
    deal_extras: list[dict[str, Any]] = field(default_factory=list)

    #: What the game's score card says of it (``table.service.derived_columns``), kept when
    #: it is checked (:meth:`replayed`), so that saving it replays it no more.
    derived: dict[str, Any] = field(default_factory=dict)

    def replayed(self) -> Scorecard:
        """The game's score card (DealAfterEnd if a deal follows the game's end), and what
        it says of the game kept in :attr:`derived`."""
        card = replay(self.rules, self.first_dealer, self.tallies)
        self.derived = derived_columns(card, settlement_of(card, self.stakes))
        return card

    @property
    def deal_total(self) -> int:
        return len(self.tallies)

    def __getstate__(self) -> dict[str, Any]:
        """Kept on disk (:meth:`ImportPlan.keep`) with its tallies as plain numbers: a
        third of the time of pickling each as the object it is."""
        return {**vars(self), "tallies": [(int(t.out), t.scores, t.stars) for t in self.tallies]}

    def __setstate__(self, state: dict[str, Any]) -> None:
        tallies = [Tally(Seat(out), scores, stars) for out, scores, stars in state["tallies"]]
        vars(self).update(state, tallies=tallies)


@dataclass
class PlannedSitting:
    """One game of any other kind than Mille as a file describes it: its setup and its deals'
    entries read by its kind (``engine.games``), replayed, ready to save as the game
    service (``table.kind_service``) keeps such a game."""

    source: str  # "line 12" or "game 3": where the file describes it
    kind: str
    names: tuple[str, ...]
    setup: Setup
    first_dealer: int
    #: Each deal as its kind read it (``GameKind.read_deal``): what ``Deal.entry`` keeps.
    entries: list[dict[str, Any]]
    created_at: datetime
    #: The scorekeeper ended the sitting (ignored by a game that ends by its own rule).
    ended: bool = False
    finished_at: datetime | None = None
    paid_at: datetime | None = None
    paid_by: str | None = None
    abandoned_at: datetime | None = None
    abandoned_by: str | None = None
    #: Per deal, when it was recorded (a JSON export says).
    deal_extras: list[dict[str, Any]] = field(default_factory=list)

    #: What the replay (:meth:`replayed`) says, kept so that saving replays no more: the
    #: game's derived columns, each deal's winner, and the game's ledger (movement rows
    #: without their game).
    derived: dict[str, Any] = field(default_factory=dict)
    winners: list[int | None] = field(default_factory=list)
    movements: list[dict[str, Any]] = field(default_factory=list)

    @property
    def deal_total(self) -> int:
        return len(self.entries)

    def replayed(self) -> Sitting:
        """The game replayed by its kind (``DealAfterEnd`` if a deal follows the end of a
        game that ends itself), and what it says of the game kept."""
        kind = kind_named(self.kind)
        sitting = kind.replay(self.setup, self.first_dealer, self.entries, ended=self.ended)
        self.derived = kind_service.derived_columns(sitting)
        self.winners = [line.winner for line in sitting.lines]
        self.movements = kind_service.movement_rows(0, sitting)
        return sitting


#: A game a file describes, of Mille or of any other kind.
Planned = PlannedGame | PlannedSitting


@dataclass
class ImportPlan:
    """What a checked file holds: counted, and its games read again when they are saved."""

    source: str  # "score_card" (a CSV) or "league_export" (JSON), as the audit trail says
    #: Every player the file names (players without a game, too), by key.
    players: dict[str, str] = field(default_factory=dict)
    seasons: list[tuple[str, date, date]] = field(default_factory=list)
    game_count: int = 0
    deal_count: int = 0
    read_games: Callable[[], Iterable[Planned]] = tuple
    #: The file the games are read from, closed once they are saved (or not).
    file: IO[Any] | None = None
    #: The checked games (:meth:`keep`), on disk until they are saved.
    spool: IO[bytes] | None = None

    def keep(self, game: Planned) -> None:
        """Keep a checked game to be saved (:meth:`kept_games`): on disk, not in memory, and
        not read and checked from the file a second time."""
        if self.spool is None:
            self.spool = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
            self.read_games = self.kept_games
        pickle.dump(game, self.spool, protocol=pickle.HIGHEST_PROTOCOL)

    def kept_games(self) -> Iterator[Planned]:
        """The games :meth:`keep` kept, in order (written by this process: safe to unpickle)."""
        if self.spool is None:
            return
        self.spool.seek(0)
        while True:
            try:
                yield pickle.load(self.spool)
            except EOFError:
                return

    def close(self) -> None:
        for file in (self.file, self.spool):
            if file is not None:
                file.close()

    def add_player(self, name: str) -> None:
        self.players.setdefault(Player.key(name), name)

    def add(self, game: Planned) -> None:
        for name in game.names:
            self.add_player(name)
        self.game_count += 1
        self.deal_count += game.deal_total


class Problems:
    """Problems found so far, each with where it is; stops the check when there are too many."""

    def __init__(self) -> None:
        #: Each problem's line (or game) number, read from ``where`` before it is worded
        #: for the page, to report them in file order; and the problem.
        self.found: list[tuple[int, str]] = []

    def add(self, where: str, message: str) -> None:
        problem = gettext("%(where)s: %(problem)s", where=worded(where), problem=message)
        self.found.append((_place(where), problem))
        if len(self.found) >= MAX_PROBLEMS:
            raise ImportProblems(
                [
                    *self._in_file_order(),
                    gettext(
                        "Stopped after %(most)s problems; fix these and try again.",
                        most=MAX_PROBLEMS,
                    ),
                ]
            )

    def raise_any(self) -> None:
        if self.found:
            raise ImportProblems(self._in_file_order())

    def _in_file_order(self) -> list[str]:
        return [problem for _, problem in sorted(self.found, key=lambda found: found[0])]


def worded(where: str) -> str:
    """A place in a CSV file ("line 7") in the page's language."""
    line = re.fullmatch(r"line (\d+)", where)
    return gettext("line %(number)s", number=line[1]) if line else where


def _place(where: str) -> int:
    """The line (or game) number of a place in the file ("line 7", "game 3 (id 12)")."""
    number = re.search(r"\d+", where)
    return int(number[0]) if number else 0


def read_text(data: bytes) -> str:
    """An uploaded file as text: UTF-8, with or without a byte order mark."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportProblems(
            [gettext("The file is not UTF-8 text (save the spreadsheet as CSV UTF-8).")]
        ) from None


def reasonable_moment(moment: datetime) -> datetime | None:
    """The moment in UTC without a time zone, as the database keeps it, if a game could
    have been played then: from EARLIEST_DAY to a day from now (a file written in a time
    zone ahead of UTC may be dated tomorrow). None otherwise."""
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # year 1 or 9999 moved to UTC leaves the calendar
            return None
    latest = datetime.now(UTC).replace(tzinfo=None) + timedelta(days=1)
    return moment if datetime.combine(EARLIEST_DAY, time()) <= moment <= latest else None


def unreasonable_moment(column: str, text: str) -> str:
    return gettext(
        "%(column)s is %(text)s; give a day from %(first)s up to today.",
        column=column,
        text=repr(text),
        first=EARLIEST_DAY.isoformat(),
    )
