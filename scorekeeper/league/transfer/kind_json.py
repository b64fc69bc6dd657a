"""A game of any other kind than Mille in a league's JSON export: what the export says its
deals come to, and reading such a game back, checked by its kind (``engine.games``).

Such a game is written as the API writes it (API.md, "The other games"): its ``game``, its
players in seat order, its ``rules`` and ``stakes`` (money as decimal strings, a stake left
out as null), each deal's ``entry`` as its kind read it, and, for a reader, its balances,
pool, totals and winning side. Nothing here knows one game from another.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from scorekeeper.engine import DealAfterEnd, format_money
from scorekeeper.engine.games import KINDS, GameKind, Refused, Setup, Sitting
from scorekeeper.errors import ServiceError
from scorekeeper.league.transfer.json_parts import (
    check_marks,
    check_outcome,
    json_moment,
    optional_moment,
    recorded_at,
)
from scorekeeper.league.transfer.plan import PlannedSitting, Problems
from scorekeeper.models import MILLE, Player
from scorekeeper.records.players import clean_player_name
from scorekeeper.values import read_json_amount, read_json_whole_number
from scorekeeper.web.messages import problem_message
from scorekeeper.web.translation import gettext

#: The moments a game may have besides when it started, each optional.
MOMENTS = ("finished_at", "paid_at", "abandoned_at")


def stakes_json(stakes: Mapping[str, int | None]) -> dict[str, str | None]:
    """Stakes as the API writes them: money as a decimal string, a stake left out as null."""
    return {name: None if cents is None else format_money(cents) for name, cents in stakes.items()}


def outcome_json(sitting: Sitting) -> dict[str, Any]:
    """What a game's deals come to, as the API says it: each seat's balance, the pool, the
    totals per side and the winning side's seats (null where the game has none)."""
    return {
        "balances": [format_money(balance) for balance in sitting.balances],
        "pool": None if sitting.pool is None else format_money(sitting.pool),
        "totals": None if sitting.totals is None else list(sitting.totals),
        "winner": None if sitting.winners is None else list(sitting.winners),
    }


def is_other_kind(data: object) -> bool:
    """Whether a game of the file says it is of another kind than Mille (a game that says
    nothing is Mille's, as every export before there were others)."""
    return isinstance(data, dict) and data.get("game", MILLE) != MILLE


def json_sitting(data: dict[str, Any], where: str, problems: Problems) -> PlannedSitting | None:
    """A game of another kind than Mille, checked; None once it has any problem."""
    before = len(problems.found)
    try:
        where = f"{where} (id {read_json_whole_number(data['id'])})" if "id" in data else where
    except ValueError as error:
        problems.add(where, gettext("can't be read (%(error)s).", error=error))
        return None
    kind = KINDS.get(data["game"]) if isinstance(data["game"], str) else None
    if kind is None or kind.name == MILLE:
        others = ", ".join(name for name in KINDS if name != MILLE)
        problems.add(
            where,
            gettext(
                "game is %(game)s; the games are %(games)s.", game=repr(data["game"]), games=others
            ),
        )
        return None
    try:
        planned = _read(kind, data, where)
    except Refused as refused:  # a ValueError: first
        for problem in refused.problems:
            problems.add(where, f"{problem.field}: {problem_message(problem)}")
        return None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        problems.add(where, gettext("can't be read (%(error)s).", error=error))
        return None
    except ServiceError as error:
        field = error.field or "players"
        problems.add(where, gettext("%(where)s: %(problem)s", where=field, problem=error.message))
        return None
    _check_moments(planned, data, where, problems)
    _read_deals(kind, planned, list(data["deals"]), where, problems)
    if len(problems.found) > before:
        return None
    return _replayed(kind, planned, data, where, problems)


def _read(kind: GameKind, data: dict[str, Any], where: str) -> PlannedSitting:
    """The game's players, setup, first dealer and moments (KeyError, TypeError, ValueError
    when one can't be read; Refused when the setup breaks the game's rules)."""
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise TypeError("players is not a list of names")
    names = _names(players)
    rules, stakes = data.get("rules") or {}, data["stakes"]
    if not isinstance(rules, dict) or not isinstance(stakes, dict):
        raise TypeError("rules and stakes must be objects")
    amounts = {
        name: None if value is None else read_json_amount(value) for name, value in stakes.items()
    }
    setup: Setup = kind.setup(len(names), rules, amounts)
    first_dealer = read_json_whole_number(data["first_dealer"])
    if not 0 <= first_dealer < len(names):
        message = gettext("The first dealer must be one of the players.")
        raise ServiceError(message, "first_dealer")
    finished_at, paid_at, abandoned_at = (optional_moment(data.get(key)) for key in MOMENTS)
    if not isinstance(data["deals"], list):
        raise TypeError("deals is not a list")
    planned = PlannedSitting(
        where,
        kind.name,
        names,
        setup,
        first_dealer,
        [],
        datetime.fromisoformat(data["created_at"]),
        ended=finished_at is not None,
        finished_at=finished_at,
        paid_at=paid_at,
        abandoned_at=abandoned_at,
    )
    planned.paid_by = data.get("paid_by") if isinstance(data.get("paid_by"), str) else None
    if planned.abandoned_at is not None and isinstance(data.get("abandoned_by"), str):
        planned.abandoned_by = data["abandoned_by"]
    return planned


def _names(players: list[Any]) -> tuple[str, ...]:
    """The players' names, each read as a name, all different (ServiceError otherwise)."""
    names = tuple(clean_player_name(name) for name in players)
    seen: set[str] = set()
    for name in names:
        if Player.key(name) in seen:
            raise ServiceError(
                gettext(
                    "Each player can sit at the table once: %(name)s is there already.", name=name
                ),
                "players",
            )
        seen.add(Player.key(name))
    return names


def _check_moments(
    planned: PlannedSitting, data: dict[str, Any], where: str, problems: Problems
) -> None:
    """Each moment of the game as the database keeps it, or a problem."""
    planned.created_at = json_moment(planned.created_at, "created_at", data, where, problems)
    for key in MOMENTS:
        moment = getattr(planned, key)
        if moment is not None:
            setattr(planned, key, json_moment(moment, key, data, where, problems))


def _read_deals(
    kind: GameKind, planned: PlannedSitting, deals: list[Any], where: str, problems: Problems
) -> None:
    """Each deal's entry, read by the game's kind, and when it was recorded, into ``planned``."""
    for number, deal in enumerate(deals, start=1):
        place = f"{where}, deal {number}"
        if not isinstance(deal, dict) or not isinstance(deal.get("entry"), dict):
            problems.add(place, gettext("needs its entry, the deal as its game reads it."))
            continue
        try:
            planned.entries.append(dict(kind.read_deal(planned.setup, deal["entry"])))
        except Refused as refused:
            for problem in refused.problems:
                problems.add(place, f"{problem.field}: {problem_message(problem)}")
            continue
        moment = recorded_at(deal, planned.created_at, place, problems)
        planned.deal_extras.append({"created_at": moment})


def _replayed(
    kind: GameKind, planned: PlannedSitting, data: dict[str, Any], where: str, problems: Problems
) -> PlannedSitting | None:
    """``planned`` once its replay is what the file says of it; None otherwise."""
    try:
        sitting = planned.replayed()
    except DealAfterEnd as error:
        problems.add(f"{where}, deal {error.ended_at + 1}", str(error))
        return None
    before = len(problems.found)
    if sitting.finished != (planned.finished_at is not None):
        problems.add(where, "finished_at doesn't match its deals (finished or not).")
    if not kind.ends_itself and sitting.finished and not sitting.lines:
        problems.add(
            where, gettext("A sitting ends after a deal: record one first, or abandon the game.")
        )
    check_marks(sitting.finished, planned.paid_at, planned.abandoned_at, where, problems)
    expected = {"status": planned.derived["status"], **outcome_json(sitting)}
    check_outcome(data, expected, where, problems)
    return None if len(problems.found) > before else planned
