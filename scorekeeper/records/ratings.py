"""The running values of a league's results, in game order: each player's number of games,
rating, how sure it is (OpenSkill's skill, :mod:`.skill`) and net money so far, before and
after every game they played.

:func:`rerate` walks the stored results from a game onward; :func:`rate_game` numbers and
rates one game's new result rows from where its players stood, which is all the usual
change at the table needs (:func:`.results.add_newest`), and :func:`rate_from_scratch`
does it for a whole league's new rows at once (:func:`.results.rebuild_league`).
"""

from collections.abc import Sequence
from datetime import datetime
from itertools import groupby
from typing import Any, NamedTuple

from sqlalchemy import select, tuple_

from scorekeeper.engine.rating import START, Rated, new_ratings
from scorekeeper.models import GameResult, db
from scorekeeper.records import skill
from scorekeeper.records.skill import Skill

OrderKey = tuple[datetime, int]


class Running(NamedTuple):
    """A player's standing just before a game: games played, rating, net cents so far,
    skill, and when their last game ended (None before their first)."""

    games: int
    rating: int
    net: int
    skill: Skill
    last_at: datetime | None


FIRST_GAME = Running(0, START, 0, skill.FIRST, None)

#: A result's running values, as :func:`_running_before` and :func:`.results.add_newest`
#: read them back: a :class:`Running` (``running_after``).
RUNNING_COLUMNS = (
    GameResult.number,
    GameResult.rating_after,
    GameResult.net_after,
    GameResult.skill_mu_after,
    GameResult.skill_sigma_after,
    GameResult.finished_at,
)


def running_after(row: Any) -> Running:
    """The player's standing after a stored result (read with :data:`RUNNING_COLUMNS`)."""
    return Running(
        row.number,
        row.rating_after,
        row.net_after,
        Skill(row.skill_mu_after, row.skill_sigma_after),
        row.finished_at,
    )


def rerate(league_id: int, start: OrderKey | None) -> set[int]:
    """Renumber and re-rate every result from ``start`` on (all, if None), in game order.

    Returns the players whose results were walked.
    """
    query = select(GameResult).where(GameResult.league_id == league_id)
    if start is not None:
        query = query.where(order_key() >= tuple_(*start))
    rows = db.session.scalars(
        query.order_by(GameResult.finished_at, GameResult.game_id, GameResult.seat)
        # Rows rewritten by a bulk statement in this transaction must be read afresh.
        .execution_options(populate_existing=True)
    )
    running: dict[int, Running] = {}
    for _, pair in groupby(rows, key=lambda row: row.game_id):
        first, second = pair
        winner, loser = (first, second) if first.won else (second, first)
        before = [
            running.get(row.player_id) or _running_before(row.player_id, start)
            for row in (winner, loser)
        ]
        after = _after_game(before, (winner.net, loser.net), winner.finished_at)
        for row, was, now in zip((winner, loser), before, after, strict=True):
            assign(row, "number", now.games)
            assign(row, "rating_before", was.rating)
            assign(row, "rating_after", now.rating)
            assign(row, "net_after", now.net)
            assign(row, "skill_mu_after", now.skill.mu)
            assign(row, "skill_sigma_after", now.skill.sigma)
            running[row.player_id] = now
    db.session.flush()
    return set(running)


def _after_game(
    before: Sequence[Running], nets: tuple[int, int], finished_at: datetime
) -> list[Running]:
    """The winner's and the loser's standings after their game, which ended at
    ``finished_at``, from those before it: Elo, and the skill, each player's first widened
    for their time away since their last game."""
    winner, loser = before
    ratings = new_ratings(Rated(winner.rating, winner.games), Rated(loser.rating, loser.games))
    skills = skill.after_game(
        *(skill.away(was.skill, skill.days_between(was.last_at, finished_at)) for was in before)
    )
    return [
        Running(was.games + 1, rating, was.net + net, now, finished_at)
        for was, rating, net, now in zip(before, ratings, nets, skills, strict=True)
    ]


def rate_game(
    winner: dict[str, Any], loser: dict[str, Any], before: list[Running]
) -> list[Running]:
    """One game's two result rows numbered and rated from each player's state ``before``
    it (winner's first); the states after it."""
    after = _after_game(before, (winner["net"], loser["net"]), winner["finished_at"])
    for row, was, now in zip((winner, loser), before, after, strict=True):
        row.update(
            number=now.games,
            rating_before=was.rating,
            rating_after=now.rating,
            net_after=now.net,
            skill_mu_after=now.skill.mu,
            skill_sigma_after=now.skill.sigma,
        )
    return after


def rate_from_scratch(rows: list[dict[str, Any]], running: dict[int, Running]) -> None:
    """What :func:`rerate` does from the first game, on new result rows before they are
    inserted (sorted into game order in place), continuing from ``running``: each
    player's state after the games before these, updated as they are rated."""
    rows.sort(key=lambda row: (row["finished_at"], row["game_id"], row["seat"]))
    for _, pair in groupby(rows, key=lambda row: row["game_id"]):
        first, second = pair
        winner, loser = (first, second) if first["won"] else (second, first)
        before = [running.get(row["player_id"], FIRST_GAME) for row in (winner, loser)]
        for row, now in zip((winner, loser), rate_game(winner, loser, before), strict=True):
            running[row["player_id"]] = now


def _running_before(player_id: int, start: OrderKey | None) -> Running:
    if start is None:
        return FIRST_GAME
    last = db.session.execute(
        select(*RUNNING_COLUMNS)
        .where(GameResult.player_id == player_id, order_key() < tuple_(*start))
        .order_by(GameResult.finished_at.desc(), GameResult.game_id.desc())
        .limit(1)
    ).first()
    return FIRST_GAME if last is None else running_after(last)


def order_key() -> Any:
    return tuple_(GameResult.finished_at, GameResult.game_id)


def assign(row: Any, name: str, value: Any) -> None:
    """Set a column only when it changes, so an unchanged row is not written again."""
    if getattr(row, name) != value:
        setattr(row, name, value)
