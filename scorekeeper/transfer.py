"""A league's games in and out: CSV and JSON exports, and imports of both.

The JSON export is lossless: importing it into a league without games gives
back every game (players, rules, stakes, first dealer, deals, when it was
played, finished and paid), so every settlement and standing too. The CSV
format is one row per deal, the same for export and for importing paper score
cards (README.md, "Importing paper score cards").

An import is checked completely first — every row by the rules of RULES.md,
each problem reported with its line — and then saved in one transaction:
everything or nothing.
"""

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from itertools import islice
from typing import Any, Final, TextIO

from flask import current_app
from sqlalchemy import func, insert, select
from sqlalchemy.orm import aliased, joinedload

from . import audit, league_stats
from .database import writing
from .engine import (
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
    format_money,
    parse_money,
    replay,
    settle,
    validate_tally,
)
from .forms import whole_number
from .i18n import gettext, ngettext
from .i18n import number as worded_number
from .messages import problem_message
from .models import FINISHED, IN_PROGRESS, Deal, Game, League, Player, Season, User, db
from .seasons import check_season
from .services import EARLIEST_DAY, ServiceError, clean_player_name

JSON_FORMAT: Final = "mille-scorekeeper-league/1"
#: Reported problems stop here; a file this wrong is better fixed and checked again.
MAX_PROBLEMS: Final = 100
#: Games saved between two progress lines.
BATCH: Final = 250

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
#: The engine's tally fields, as the CSV names them.
TALLY_COLUMNS: Final = {
    "out": "out",
    "scores.0": "score_a",
    "scores.1": "score_b",
    "stars.0": "stars_a",
    "stars.1": "stars_b",
}


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
    #: Per deal, what a JSON export kept beyond the tally: when it was recorded, its cards.
    deal_extras: list[dict[str, Any]] = field(default_factory=list)

    @property
    def card(self) -> Scorecard:
        return replay(self.rules, self.first_dealer, self.tallies)


@dataclass
class ImportPlan:
    """What a checked file holds: counted, and its games read again when they are saved."""

    source: str  # "score_card" (a CSV) or "league_export" (JSON), as the audit trail says
    #: Every player the file names (players without a game, too), by key.
    players: dict[str, str] = field(default_factory=dict)
    seasons: list[tuple[str, date, date]] = field(default_factory=list)
    game_count: int = 0
    deal_count: int = 0
    read_games: Callable[[], Iterable[PlannedGame]] = tuple
    #: The file the games are read from, closed once they are saved (or not).
    file: TextIO | None = None

    def add_player(self, name: str) -> None:
        self.players.setdefault(Player.key(name), name)

    def add(self, game: PlannedGame) -> None:
        for name in game.names:
            self.add_player(name)
        self.game_count += 1
        self.deal_count += len(game.tallies)


# Export -------------------------------------------------------------------------------


def _league_games(league_id: int) -> Any:
    return (
        select(Game)
        .options(joinedload(Game.player0), joinedload(Game.player1))
        .where(Game.league_id == league_id)
        .order_by(Game.id)
    )


def export_json(league: League) -> dict[str, Any]:
    """Everything needed to make the league's games again, and what they came to."""
    games = list(db.session.scalars(_league_games(league.id)))
    deals: dict[int, list[Deal]] = {}
    for deal in db.session.scalars(
        select(Deal)
        .join(Game)
        .where(Game.league_id == league.id)
        .order_by(Deal.game_id, Deal.number)
    ):
        deals.setdefault(deal.game_id, []).append(deal)
    payers = dict(
        db.session.execute(
            select(Game.id, User.username)
            .join(User, User.id == Game.paid_by_id)
            .where(Game.league_id == league.id)
        ).all()
    )
    seasons = db.session.scalars(
        select(Season).where(Season.league_id == league.id).order_by(Season.starts_on, Season.id)
    )
    return {
        "format": JSON_FORMAT,
        "exported_at": _iso(datetime.now(UTC).replace(tzinfo=None)),
        "league": {"name": league.name, "slug": league.slug, "public": league.public},
        "players": [player.name for player in league.players],
        "seasons": [
            {"name": s.name, "starts_on": s.starts_on.isoformat(), "ends_on": s.ends_on.isoformat()}
            for s in seasons
        ],
        "games": [_game_json(game, deals.get(game.id, []), payers.get(game.id)) for game in games],
    }


def _game_json(game: Game, deals: list[Deal], paid_by: str | None) -> dict[str, Any]:
    return {
        "id": game.id,
        "players": [game.player0.name, game.player1.name],
        "preset": game.preset,
        "rules": {
            "target": game.target,
            "progressive": game.progressive,
            "natural_needed": game.natural_needed,
            "skunk": game.skunk,
            "difference": game.difference,
        },
        "stakes": {"small": format_money(game.small_stake), "big": format_money(game.big_stake)},
        "first_dealer": game.first_dealer,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "paid_at": _iso(game.paid_at),
        "paid_by": paid_by,
        "deals": [_deal_json(deal) for deal in deals],
        # What the deals come to, for a reader; an import checks them again.
        "status": game.status,
        "totals": [game.total0, game.total1],
        "winner": game.winner_seat,
        "amount_due": None if game.amount_due is None else format_money(game.amount_due),
    }


def _deal_json(deal: Deal) -> dict[str, Any]:
    data: dict[str, Any] = {
        "out": deal.out_seat,
        "scores": [deal.score0, deal.score1],
        "stars": [deal.stars0, deal.stars1],
        "created_at": _iso(deal.created_at),
    }
    if deal.cards is not None:
        data["cards"] = deal.cards
    return data


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat(sep=" ")


def export_csv(league_id: int) -> Iterator[str]:
    """The league's deals as CSV in the import format, streamed a row at a time."""
    a, b = aliased(Player), aliased(Player)
    rows = db.session.execute(
        select(Game, a.name, b.name, Deal)
        .join(a, a.id == Game.player0_id)
        .join(b, b.id == Game.player1_id)
        .join(Deal, Deal.game_id == Game.id)
        .where(Game.league_id == league_id)
        .order_by(Game.id, Deal.number)
        .execution_options(yield_per=1000)
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for game, name_a, name_b, deal in rows:
        writer.writerow([_inert(cell) for cell in _csv_row(game, name_a, name_b, deal)])
        if buffer.tell() > 64_000:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


def _csv_row(game: Game, name_a: str, name_b: str, deal: Deal) -> list[Any]:
    played = game.finished_at or game.created_at
    return [
        game.id,
        played.isoformat(sep=" ", timespec="seconds"),
        name_a,
        name_b,
        game.preset or "",
        game.target,
        _yes_no(game.progressive),
        _yes_no(game.natural_needed),
        game.skunk,
        game.difference,
        format_money(game.small_stake),
        format_money(game.big_stake),
        "ab"[game.first_dealer],
        "" if game.paid_at is None else game.paid_at.isoformat(sep=" ", timespec="seconds"),
        "ab"[deal.out_seat],
        deal.score0,
        deal.score1,
        deal.stars0,
        deal.stars1,
    ]


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


#: What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def _quoted(text: str) -> bool:
    """A cell a spreadsheet was kept from reading as a formula: ``'`` and a formula start
    (or a second ``'``, for text that itself starts so)."""
    return text.startswith("'") and text[1:].startswith((*FORMULA_STARTS, "'"))


def _inert(cell: Any) -> Any:
    """Text a spreadsheet would run as a formula, with a ``'`` in front so it shows as
    text; numbers stay numbers (-50 is a score). :func:`_unquoted` takes the ``'`` off."""
    if isinstance(cell, str) and (cell.startswith(FORMULA_STARTS) or _quoted(cell)):
        return "'" + cell
    return cell


def _unquoted(text: str) -> str:
    return text[1:] if _quoted(text) else text


# Reading a CSV of paper score cards -----------------------------------------------------


class _Problems:
    """Problems found so far, each with where it is; stops the check when there are too many."""

    def __init__(self) -> None:
        #: Each problem's line (or game) number, read from ``where`` before it is worded
        #: for the page, to report them in file order; and the problem.
        self.found: list[tuple[int, str]] = []

    def add(self, where: str, message: str) -> None:
        worded = gettext("%(where)s: %(problem)s", where=_worded(where), problem=message)
        self.found.append((_place(where), worded))
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


def _worded(where: str) -> str:
    """A place in a CSV file ("line 7") in the page's language."""
    line = re.fullmatch(r"line (\d+)", where)
    return gettext("line %(number)s", number=line[1]) if line else where


def _place(where: str) -> int:
    """The line (or game) number of a place in the file ("line 7", "game 3 (id 12)")."""
    number = re.search(r"\d+", where)
    return int(number[0]) if number else 0


def read_text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportProblems(
            [gettext("The file is not UTF-8 text (save the spreadsheet as CSV UTF-8).")]
        ) from None


def parse_csv(source: str | TextIO) -> ImportPlan:
    """Check every row of a CSV of paper score cards; ImportProblems lists each bad line.

    The file is read as a stream, a game at a time, and read again to be saved
    (:attr:`ImportPlan.read_games`): however large, it is never all in memory.
    """
    stream = io.StringIO(source) if isinstance(source, str) else source
    plan = ImportPlan(source="score_card")
    for game in _csv_games(stream):
        plan.add(game)
    plan.read_games = lambda: _csv_games(stream)
    plan.file = stream
    return plan


def _csv_games(stream: TextIO) -> Iterator[PlannedGame]:
    """The file's games, checked, as each one ends; ImportProblems at the end if any is bad."""
    try:
        stream.seek(0)
        header = stream.readline()
        stream.seek(0)
        delimiter = ";" if header.count(";") > header.count(",") else ","
        reader = csv.reader(stream, delimiter=delimiter)
        problems = _Problems()
        columns = _header(next(reader, []), problems)
        started: dict[str, str] = {}  # where each game's first row is
        current: _CsvGame | None = None
        for row in _rows(reader, problems):
            where = f"line {reader.line_num}"
            if not any(cell.strip() for cell in row):
                continue
            values = {
                name: _unquoted(row[i].strip()) if i < len(row) else ""
                for name, i in columns.items()
            }
            key = values.get("game", "")
            if not key:
                problems.add(where, gettext("the game column is empty; every row names its game."))
                continue
            if current is None or key != current.key:
                if key in started:
                    problems.add(
                        where,
                        gettext(
                            "game %(key)s started on %(where)s and continues here after other "
                            "games; keep the rows of a game together.",
                            key=key,
                            where=_worded(started[key]),
                        ),
                    )
                    continue
                if current is not None and (game := current.plan(problems)) is not None:
                    yield game
                current = _CsvGame(key, where, values)
                started[key] = where
            current.add_row(where, values, problems)
        if current is not None and (game := current.plan(problems)) is not None:
            yield game
    except UnicodeDecodeError:
        raise ImportProblems(
            [gettext("The file is not UTF-8 text (save the spreadsheet as CSV UTF-8).")]
        ) from None
    if not started and not problems.found:
        problems.add("line 2", gettext("there are no deals in this file."))
    problems.raise_any()


def _rows(reader: Any, problems: _Problems) -> Iterator[list[str]]:
    """The reader's rows; a line it can't read (a field over 128 KB, say) ends the check."""
    try:
        yield from reader
    except csv.Error as error:
        problems.add(
            f"line {reader.line_num}",
            gettext("this line can't be read as CSV (%(error)s).", error=error),
        )
        problems.raise_any()


def _header(row: list[str], problems: _Problems) -> dict[str, int]:
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

    def add_row(self, where: str, values: dict[str, str], problems: _Problems) -> None:
        for name in GAME_COLUMNS:
            given, kept = values.get(name, ""), self.first.get(name, "")
            if given and given.casefold() != kept.casefold():
                started = repr(kept or gettext("nothing"))
                problems.add(
                    where,
                    gettext(
                        "%(name)s is %(given)s but game %(key)s started with %(kept)s on "
                        "%(where)s; a game's %(name)s is set by its first row.",
                        name=name,
                        given=repr(given),
                        key=self.key,
                        kept=started,
                        where=_worded(self.where),
                    ),
                )
        self.rows.append((where, values))

    def plan(self, problems: _Problems) -> PlannedGame | None:
        before = len(problems.found)
        first, where = self.first, self.where
        names = self._names(problems)
        rules = _csv_rules(first, where, problems)
        stakes = _csv_stakes(first, where, problems)
        played = _moment(first.get("date", ""), where, "date", problems, required=True)
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
        if _boolean(paid) is not False and paid:
            if not card.finished:
                problems.add(
                    where,
                    gettext("game %(key)s is not finished, so it can't be paid.", key=self.key),
                )
                return None
            paid_at = played if _boolean(paid) else _moment(paid, where, "paid", problems)
            game.paid_at = paid_at
        return game

    def _names(self, problems: _Problems) -> tuple[str, str] | None:
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
        where: str, values: dict[str, str], names: tuple[str, str] | None, problems: _Problems
    ) -> Tally | None:
        out = _side(values.get("out", ""), names, where, "out", problems)
        scores = [whole_number(values.get(c, "")) for c in ("score_a", "score_b")]
        stars = [whole_number(values.get(c, "") or "0") for c in ("stars_a", "stars_b")]
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


def _replay_rows(game: PlannedGame, wheres: list[str], problems: _Problems) -> Scorecard | None:
    try:
        return game.card
    except DealAfterEnd as error:
        problems.add(
            wheres[error.ended_at],
            gettext(
                "the game already ended with the deal on %(where)s (deal %(number)s); "
                "no deal can follow the end of a game.",
                where=_worded(wheres[error.ended_at - 1]),
                number=error.ended_at,
            ),
        )
        return None


def _side(
    text: str, names: tuple[str, str] | None, where: str, column: str, problems: _Problems
) -> Seat | None:
    """``a``/``b`` (or a player's name) as a seat."""
    wanted = text.strip().casefold()
    choices = {"a": Seat.FIRST, "b": Seat.SECOND}
    if names is not None:
        choices |= {Player.key(names[0]): Seat.FIRST, Player.key(names[1]): Seat.SECOND}
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


def _csv_rules(values: dict[str, str], where: str, problems: _Problems) -> Rules | None:
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
        target = whole_number(values.get("target", "")) if values.get("target") else base.target
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
    value = _boolean(text)
    if value is None:
        raise ValueError(
            gettext("%(name)s is %(text)s; write yes or no", name=name, text=repr(text))
        )
    return value


def _boolean(text: str) -> bool | None:
    folded = text.strip().casefold()
    if folded in ("yes", "y", "true", "1"):
        return True
    if folded in ("no", "n", "false", "0", ""):
        return False
    return None


def _csv_stakes(values: dict[str, str], where: str, problems: _Problems) -> Stakes | None:
    try:
        small = parse_money(values.get("small", "") or "1")
        big = parse_money(values["big"]) if values.get("big") else 3 * small
        return Stakes(small=small, big=big)
    except ValueError as error:
        problems.add(where, gettext("stakes: %(error)s.", error=error))
        return None


def _moment(
    text: str, where: str, column: str, problems: _Problems, *, required: bool = False
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
    reasonable = _reasonable(moment)
    if reasonable is None:
        problems.add(where, _unreasonable(column, text))
    return reasonable


def _reasonable(moment: datetime) -> datetime | None:
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


def _unreasonable(column: str, text: str) -> str:
    return gettext(
        "%(column)s is %(text)s; give a day from %(first)s up to today.",
        column=column,
        text=repr(text),
        first=EARLIEST_DAY.isoformat(),
    )


# Reading a JSON export ------------------------------------------------------------------


def parse_json(data: object) -> ImportPlan:
    """Check a league exported as JSON; ImportProblems names each bad game and deal."""
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise ImportProblems(
            [
                gettext(
                    "This is not a league exported by Mille Scorekeeper (%(format)s).",
                    format=JSON_FORMAT,
                )
            ]
        )
    problems = _Problems()
    plan = ImportPlan(source="league_export")
    for name in _list(data, "players", problems):
        try:
            plan.add_player(clean_player_name(str(name)))
        except ServiceError as error:
            problems.add("players", error.message)
    for index, season in enumerate(_list(data, "seasons", problems), start=1):
        try:
            name = str(season["name"])
            starts_on = date.fromisoformat(season["starts_on"])
            ends_on = date.fromisoformat(season["ends_on"])
        except (KeyError, TypeError, ValueError):
            problems.add(f"season {index}", "needs a name, starts_on and ends_on (YYYY-MM-DD).")
            continue
        try:
            plan.seasons.append((check_season(name, starts_on, ends_on), starts_on, ends_on))
        except ServiceError as error:
            problems.add(f"season {index}", error.message)
    games = []
    for index, game in enumerate(_list(data, "games", problems), start=1):
        planned = _json_game(game, f"game {index}", problems)
        if planned is not None:
            plan.add(planned)
            games.append(planned)
    problems.raise_any()
    plan.read_games = lambda: games
    return plan


def _list(data: dict[str, Any], key: str, problems: _Problems) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.add(key, "should be a list.")
        return []
    return value


def _json_game(data: Any, where: str, problems: _Problems) -> PlannedGame | None:
    before = len(problems.found)
    try:
        where = f"{where} (id {int(data['id'])})" if "id" in data else where
        players = (str(data["players"][0]), str(data["players"][1]))
        rules = Rules(
            target=int(data["rules"]["target"]),
            progressive=bool(data["rules"]["progressive"]),
            natural_needed=bool(data["rules"]["natural_needed"]),
            skunk=SkunkRule(data["rules"]["skunk"]),
            difference=DifferenceRule(data["rules"]["difference"]),
        )
        stakes = Stakes(
            small=parse_money(str(data["stakes"]["small"])),
            big=parse_money(str(data["stakes"]["big"])),
        )
        dealer = Seat(int(data["first_dealer"]))
        created_at = datetime.fromisoformat(data["created_at"])
        finished_at = _optional_moment(data.get("finished_at"))
        paid_at = _optional_moment(data.get("paid_at"))
        deals = list(data["deals"])
    except (KeyError, IndexError, TypeError, ValueError) as error:
        problems.add(where, f"can't be read ({error}).")
        return None
    try:
        names = (clean_player_name(players[0]), clean_player_name(players[1]))
    except ServiceError as error:
        problems.add(where, f"players: {error.message}")
        return None
    created_at = _json_moment(created_at, "created_at", data, where, problems)
    if finished_at is not None:
        finished_at = _json_moment(finished_at, "finished_at", data, where, problems)
    if paid_at is not None:
        paid_at = _json_moment(paid_at, "paid_at", data, where, problems)
    if Player.key(names[0]) == Player.key(names[1]):
        problems.add(where, "the two players are the same player.")
    game = PlannedGame(where, names, rules, stakes, dealer, [], created_at, finished_at, paid_at)
    game.paid_by = data.get("paid_by") if isinstance(data.get("paid_by"), str) else None
    for number, deal in enumerate(deals, start=1):
        try:
            tally = validate_tally(deal["out"], deal["scores"], deal["stars"])
        except InvalidTally as invalid:
            for problem in invalid.problems:
                problems.add(f"{where}, deal {number}", f"{problem.field}: {problem.message}")
            continue
        except (KeyError, IndexError, TypeError):
            problems.add(f"{where}, deal {number}", "needs out, scores and stars.")
            continue
        game.tallies.append(tally)
        game.deal_extras.append(
            _deal_extras(deal, game.created_at, f"{where}, deal {number}", problems)
        )
    if len(problems.found) > before:
        return None
    try:
        card = game.card
    except DealAfterEnd as error:
        problems.add(f"{where}, deal {error.ended_at + 1}", str(error))
        return None
    _check_json_outcome(data, game, card, where, problems)
    return game


def _deal_extras(
    deal: dict[str, Any], default: datetime, where: str, problems: _Problems
) -> dict[str, Any]:
    """The deal's cards and when it was recorded (the game's start, if the file can't say)."""
    cards = deal.get("cards")
    try:
        recorded = _optional_moment(deal.get("created_at"))
    except ValueError:
        recorded = None
    if recorded is not None:
        recorded = _json_moment(recorded, "created_at", deal, where, problems)
    return {"cards": cards if isinstance(cards, dict) else None, "created_at": recorded or default}


def _optional_moment(value: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def _json_moment(
    moment: datetime, column: str, data: dict[str, Any], where: str, problems: _Problems
) -> datetime:
    """A moment of the file as :func:`_reasonable` has it; a problem (and the moment as
    given, which is never saved) when no game could have been played then."""
    reasonable = _reasonable(moment)
    if reasonable is None:
        problems.add(where, _unreasonable(column, str(data[column])))
        return moment
    return reasonable


def _check_json_outcome(
    data: dict[str, Any], game: PlannedGame, card: Scorecard, where: str, problems: _Problems
) -> None:
    """The file's own totals, winner and amount must be what its deals give."""
    due = format_money(settle(card, game.stakes).total) if card.finished else None
    winner = None if card.winner is None else int(card.winner)
    if card.finished != (game.finished_at is not None):
        problems.add(where, "finished_at doesn't match its deals (finished or not).")
    if game.paid_at is not None and not card.finished:
        problems.add(where, "is paid but not finished.")
    expected = {"totals": list(card.totals), "winner": winner, "amount_due": due}
    for key, value in expected.items():
        if key in data and data[key] != value:
            problems.add(
                where, f"{key} is {data[key]!r} in the file, but its deals give {value!r}."
            )


# Saving an import -----------------------------------------------------------------------


def check_league_empty(league_id: int) -> None:
    count = db.session.scalar(select(func.count(Game.id)).where(Game.league_id == league_id))
    if count:
        raise ImportProblems(
            [
                gettext(
                    "A league export is imported into a league without games; this one has "
                    "%(count)s. Create a new league for it.",
                    count=worded_number(count),
                )
            ]
        )


def run_import(league_id: int, plan: ImportPlan) -> Iterator[str]:
    """Save a checked plan in one transaction, saying how far it got as it goes.

    The last line says what was imported. If anything fails, nothing is saved
    and the last line says so.
    """
    total = plan.game_count
    try:
        with writing():
            league_stats.lock_league(league_id)
            players = _players_for(league_id, plan)
            _seasons_for(league_id, plan)
            done = 0
            for batch in _batches(plan.read_games(), BATCH):
                _save(league_id, batch, players, plan.source)
                done += len(batch)
                yield gettext(
                    "Saved %(done)s of %(total)s games…",
                    done=worded_number(done),
                    total=worded_number(total),
                )
            yield gettext("Recomputing standings, ratings, head-to-head and balances…")
            league_stats.rebuild_league(league_id)
    except ServiceError as error:  # the transaction is rolled back: say so, don't half-import
        yield gettext("Nothing was imported: %(error)s", error=error.message)
        return
    except Exception:  # a database error is for the log, never for the page
        current_app.logger.exception("Import into league %s failed", league_id)
        yield gettext(
            "Nothing was imported: the database refused the file's data. Nothing was changed; "
            "check the file (names and values), or ask the site's administrator, who can see "
            "what went wrong in the log."
        )
        return
    finally:
        if plan.file is not None:
            plan.file.close()
    yield ngettext(
        # English has always said "games", even for one.
        "Imported %(games)s games (%(deals)s deals).",
        "Imported %(games)s games (%(deals)s deals).",
        total,
        games=worded_number(total),
        deals=worded_number(plan.deal_count),
    )


def _batches(games: Iterable[PlannedGame], size: int) -> Iterator[list[PlannedGame]]:
    games = iter(games)
    while batch := list(islice(games, size)):
        yield batch


def import_all(league_id: int, plan: ImportPlan) -> str:
    """Save a checked plan; the last progress line, which says what was imported."""
    return list(run_import(league_id, plan))[-1]


def _players_for(league_id: int, plan: ImportPlan) -> dict[str, int]:
    """The id of every player the file names, by key; new ones are added to the league."""
    players = dict(
        db.session.execute(
            select(Player.name_key, Player.id).where(Player.league_id == league_id)
        ).all()
    )
    new = [
        {"league_id": league_id, "name": name, "name_key": key}
        for key, name in plan.players.items()
        if key not in players
    ]
    if new:
        db.session.execute(insert(Player), new)
        players = dict(
            db.session.execute(
                select(Player.name_key, Player.id).where(Player.league_id == league_id)
            ).all()
        )
    return players


def _seasons_for(league_id: int, plan: ImportPlan) -> None:
    taken = set(db.session.scalars(select(Season.name).where(Season.league_id == league_id)))
    for name, starts_on, ends_on in plan.seasons:
        if name not in taken:
            db.session.add(
                Season(league_id=league_id, name=name, starts_on=starts_on, ends_on=ends_on)
            )
            taken.add(name)


def _save(
    league_id: int,
    batch: Sequence[PlannedGame],
    players: dict[str, int],
    source: str,
) -> None:
    """Save a batch of games, then let the session forget them: memory stays bounded."""
    games = []
    for planned in batch:
        game = Game(
            league_id=league_id,
            player0_id=players[Player.key(planned.names[0])],
            player1_id=players[Player.key(planned.names[1])],
            first_dealer=int(planned.first_dealer),
            created_at=planned.created_at,
            version=1,
        )
        game.rules, game.stakes = planned.rules, planned.stakes
        _derive(game, planned.card)
        game.finished_at = planned.finished_at if game.finished else None
        game.paid_at = planned.paid_at  # marked paid by nobody here: the import says who
        db.session.add(game)
        games.append(game)
    db.session.flush()
    deals = [
        {
            "game_id": game.id,
            "number": number,
            "out_seat": int(tally.out),
            "score0": tally.scores[0],
            "score1": tally.scores[1],
            "stars0": tally.stars[0],
            "stars1": tally.stars[1],
            "created_at": game.created_at,
            "cards": None,
            **(planned.deal_extras[number - 1] if planned.deal_extras else {}),
        }
        for game, planned in zip(games, batch, strict=True)
        for number, tally in enumerate(planned.tallies, start=1)
    ]
    if deals:
        db.session.execute(insert(Deal), deals)
    events = []
    for game, planned in zip(games, batch, strict=True):
        place, _, where = planned.source.partition(" ")  # "line 12", "game 3 (id 57)"
        events.append(
            audit.record(
                game,
                audit.IMPORTED,
                {"file": source, "place": place, "where": where, "paid_by": planned.paid_by},
                after={"deals": len(planned.tallies), "status": game.status},
            )
        )
    db.session.flush()
    for row in (*games, *events):
        db.session.expunge(row)


def _derive(game: Game, card: Scorecard) -> None:
    """The game's derived columns, as ``services._refresh`` stores them for a played game."""
    game.deal_count = len(card.lines)
    game.total0, game.total1 = card.totals
    game.stars0, game.stars1 = card.stars
    game.chapeaux0, game.chapeaux1 = card.chapeaux
    game.winner_seat = None if card.winner is None else int(card.winner)
    game.status = FINISHED if card.finished else IN_PROGRESS
    game.amount_due = settle(card, game.stakes).total if card.finished else None
