"""Reading a league exported as JSON: every game checked and replayed, and its own
totals, winner and amount checked against its deals."""

import json
from collections.abc import Iterable
from datetime import date, datetime
from typing import IO, Any

from scorekeeper.engine import (
    DealAfterEnd,
    DifferenceRule,
    InvalidTally,
    Rules,
    Scorecard,
    Seat,
    SkunkRule,
    Stakes,
    format_money,
    settle,
    validate_tally,
)
from scorekeeper.errors import ServiceError
from scorekeeper.json_stream import JsonStream
from scorekeeper.league.seasons import check_season
from scorekeeper.league.transfer.formats import JSON_FORMAT
from scorekeeper.league.transfer.json_parts import (
    check_marks,
    check_outcome,
    deal_extras,
    json_moment,
    optional_moment,
)
from scorekeeper.league.transfer.kind_json import is_other_kind, json_sitting
from scorekeeper.league.transfer.plan import (
    ImportPlan,
    ImportProblems,
    PlannedGame,
    Problems,
    read_text,
)
from scorekeeper.models import Player
from scorekeeper.records.players import clean_player_name
from scorekeeper.values import read_json_amount, read_json_whole_number
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import gettext


def parse_json(data: object) -> ImportPlan:
    """Check a league exported as JSON (its value); ImportProblems names each bad game and
    deal."""
    if not isinstance(data, dict) or data.get("format") != JSON_FORMAT:
        raise _not_an_export()
    problems = Problems()
    plan = ImportPlan(source="league_export")
    _players_and_seasons(plan, data, problems)
    try:
        _games(plan, _list(data, "games", problems), problems)
        problems.raise_any()
    except BaseException:
        plan.close()
        raise
    return plan


def parse_json_file(file: IO[bytes]) -> ImportPlan:
    """Check a league exported as JSON, read from ``file`` a game at a time: however large,
    it is never all in memory (each checked game waits on disk to be saved)."""
    stream = JsonStream(file)
    problems = Problems()
    plan = ImportPlan(source="league_export")
    head: dict[str, Any] = {}
    try:
        if not stream.starts_an_object():  # not an export: said as json.loads says it
            file.seek(0)
            return parse_json(json.loads(read_text(file.read())))
        for key in stream.members():
            if key != "games":
                head[key] = stream.value()
            elif stream.peek() != "[":
                head[key] = stream.value()  # reported below, as parse_json does
            else:
                _games(plan, stream.items(), problems)
        if head.get("format") != JSON_FORMAT:
            raise _not_an_export()
        _players_and_seasons(plan, head, problems)
        _list(head, "games", problems)
        problems.raise_any()
    except BaseException as error:
        plan.close()
        if isinstance(error, UnicodeDecodeError):
            raise ImportProblems(
                [gettext("The file is not UTF-8 text (save the spreadsheet as CSV UTF-8).")]
            ) from None
        if isinstance(error, ValueError) and not isinstance(error, ImportProblems):
            raise ImportProblems(
                [gettext("The file is not JSON: %(error)s.", error=error)]
            ) from None
        if isinstance(error, RecursionError):
            raise ImportProblems(
                [gettext("The file is nested too deeply to be a league export.")]
            ) from None
        raise
    return plan


def _not_an_export() -> ImportProblems:
    return ImportProblems(
        [
            gettext(
                "This is not a league exported by Mille Scorekeeper (%(format)s).",
                format=JSON_FORMAT,
            )
        ]
    )


def _players_and_seasons(plan: ImportPlan, data: dict[str, Any], problems: Problems) -> None:
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


def _games(plan: ImportPlan, games: Iterable[Any], problems: Problems) -> None:
    """Check each game, of Mille or of any other kind; keep the good ones to be saved."""
    for index, game in enumerate(games, start=1):
        where = f"game {index}"
        planned = (
            json_sitting(game, where, problems)
            if is_other_kind(game)
            else _json_game(game, where, problems)
        )
        if planned is not None:
            plan.add(planned)
            plan.keep(planned)


def _list(data: dict[str, Any], key: str, problems: Problems) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        problems.add(key, "should be a list.")
        return []
    return value


def _json_rules(data: Any) -> tuple[Rules, Stakes]:
    """A game's rules and stakes as the export writes them (KeyError, ValueError… if not)."""
    rules = Rules(
        target=read_json_whole_number(data["rules"]["target"]),
        progressive=bool(data["rules"]["progressive"]),
        natural_needed=bool(data["rules"]["natural_needed"]),
        skunk=SkunkRule(data["rules"]["skunk"]),
        difference=DifferenceRule(data["rules"]["difference"]),
    )
    stakes = Stakes(
        small=read_json_amount(data["stakes"]["small"]),
        big=read_json_amount(data["stakes"]["big"]),
    )
    return rules, stakes


def _json_game(data: Any, where: str, problems: Problems) -> PlannedGame | None:
    before = len(problems.found)
    try:
        where = f"{where} (id {read_json_whole_number(data['id'])})" if "id" in data else where
        players = (str(data["players"][0]), str(data["players"][1]))
        rules, stakes = _json_rules(data)
        dealer = Seat(read_json_whole_number(data["first_dealer"]))
        created_at = datetime.fromisoformat(data["created_at"])
        finished_at = optional_moment(data.get("finished_at"))
        paid_at = optional_moment(data.get("paid_at"))
        abandoned_at = optional_moment(data.get("abandoned_at"))
        deals = list(data["deals"])
    except (KeyError, IndexError, TypeError, ValueError) as error:
        problems.add(where, f"can't be read ({error}).")
        return None
    try:
        names = (clean_player_name(players[0]), clean_player_name(players[1]))
    except ServiceError as error:
        problems.add(where, f"players: {error.message}")
        return None
    created_at = json_moment(created_at, "created_at", data, where, problems)
    if finished_at is not None:
        finished_at = json_moment(finished_at, "finished_at", data, where, problems)
    if paid_at is not None:
        paid_at = json_moment(paid_at, "paid_at", data, where, problems)
    if abandoned_at is not None:
        abandoned_at = json_moment(abandoned_at, "abandoned_at", data, where, problems)
    if Player.key(names[0]) == Player.key(names[1]):
        problems.add(where, "the two players are the same player.")
    game = PlannedGame(where, names, rules, stakes, dealer, [], created_at, finished_at, paid_at)
    game.paid_by = data.get("paid_by") if isinstance(data.get("paid_by"), str) else None
    game.abandoned_at = abandoned_at
    if abandoned_at is not None and isinstance(data.get("abandoned_by"), str):
        game.abandoned_by = data["abandoned_by"]
    return _with_json_deals(game, data, deals, where, problems, before)


def _with_json_deals(
    game: PlannedGame, data: Any, deals: list[Any], where: str, problems: Problems, before: int
) -> PlannedGame | None:
    """``game`` with its deals read in and its card checked against the outcome the file
    gives; None once the game has any problem (``before``: how many there were before it)."""
    _read_json_deals(game, deals, where, problems)
    if len(problems.found) > before:
        return None
    try:
        card = game.replayed()
    except DealAfterEnd as error:
        problems.add(f"{where}, deal {error.ended_at + 1}", str(error))
        return None
    _check_json_outcome(data, game, card, where, problems)
    return game


def _read_json_deals(game: PlannedGame, deals: list[Any], where: str, problems: Problems) -> None:
    """Each deal's tally, checked, and what else it keeps, into ``game``."""
    for number, deal in enumerate(deals, start=1):
        try:
            tally = validate_tally(deal["out"], deal["scores"], deal["stars"])
        except InvalidTally as invalid:
            for problem in invalid.problems:
                message = problem_message(problem)
                problems.add(f"{where}, deal {number}", f"{problem.field}: {message}")
            continue
        except (KeyError, IndexError, TypeError):
            problems.add(f"{where}, deal {number}", "needs out, scores and stars.")
            continue
        game.tallies.append(tally)
        game.deal_extras.append(
            deal_extras(deal, game.created_at, f"{where}, deal {number}", problems)
        )


def _check_json_outcome(
    data: dict[str, Any], game: PlannedGame, card: Scorecard, where: str, problems: Problems
) -> None:
    """The file's own totals, winner and amount must be what its deals give."""
    due = format_money(settle(card, game.stakes).total) if card.finished else None
    winner = None if card.winner is None else int(card.winner)
    if card.finished != (game.finished_at is not None):
        problems.add(where, "finished_at doesn't match its deals (finished or not).")
    check_marks(card.finished, game.paid_at, game.abandoned_at, where, problems)
    expected = {"totals": list(card.totals), "winner": winner, "amount_due": due}
    check_outcome(data, expected, where, problems)
