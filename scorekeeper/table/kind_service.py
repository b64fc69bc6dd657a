"""A game of any kind its engine module keeps whole (every kind but Mille, whose tuned path
is :mod:`.service`): record, correct and delete its deals, end a sitting and take the end
back (load -> engine -> persist).

Nothing here knows one game from another. The game's kind (``engine.games``) reads each
deal (``read_deal``) and replays the deals (``replay``) into a :class:`Sitting`: what each
deal paid, the balances, the pool, the totals, the end. A change stores the deal's entry,
rewrites the game's :class:`Movement` rows from the first deal it touches, and keeps the
game's derived columns, all in one transaction under the game's lock
(:func:`.service.locked_game`), with its audit event.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Table, delete, insert, or_, select

from scorekeeper.database import writing
from scorekeeper.engine.game import DealAfterEnd
from scorekeeper.engine.games import Entry, Payment, Sitting, outcome
from scorekeeper.errors import Conflict, NotFound
from scorekeeper.models import (
    FINISHED,
    IN_PROGRESS,
    AuditAction,
    Deal,
    Game,
    League,
    Movement,
    db,
    utcnow,
)
from scorekeeper.records import kind_records
from scorekeeper.records.sittings import kind_of, setup_of, sitting_of
from scorekeeper.table import audit
from scorekeeper.table.service import check_version, first_use, locked_game
from scorekeeper.web.translation import gettext


def derived_columns(sitting: Sitting) -> dict[str, Any]:
    """The game's columns a change derives from its replay (every other derived column is
    Mille's, left at its default), but for ``finished_at``: when it ended is the change's."""
    return {
        "deal_count": len(sitting.lines),
        "status": FINISHED if sitting.finished else IN_PROGRESS,
        "balances": list(sitting.balances),
        "pool": sitting.pool or 0,
    }


def movement_rows(game_id: int, sitting: Sitting, *, since: int = 1) -> list[dict[str, Any]]:
    """The game's ledger as :class:`Movement` rows for a bulk insert: what each deal from
    deal ``since`` on moved, then what the end moved (a pool given back)."""
    rows = [
        _movement(game_id, line.number, payment)
        for line in sitting.lines[since - 1 :]
        for payment in line.payments
    ]
    return rows + [_movement(game_id, None, payment) for payment in sitting.closing]


def entries_of(game: Game) -> list[Entry]:
    """The game's deals as its kind keeps them, in order: one statement of plain rows, for a
    page that reads them (a write loads the deals with the locked game)."""
    found = db.session.scalars(
        select(Deal.entry).where(Deal.game_id == game.id).order_by(Deal.number)
    )
    return [entry or {} for entry in found]


def who_pays(game: Game) -> tuple[str, int]:
    """Who pays in a finished game (their names, joined) and how much in all: Mille's loser
    and what it is due; in any other game, every payer of its settlement."""
    if game.is_mille:
        return game.player(1 - int(game.winner_seat or 0)).name, game.amount_due or 0
    settlement = sitting_of(game).settlement or ()
    payers = dict.fromkeys(game.player(transfer.payer).name for transfer in settlement)
    return ", ".join(payers), sum(transfer.amount for transfer in settlement)


@dataclass(frozen=True)
class Played:
    """A game as a change left it, with the change's one replay (as :class:`.service.Saved`
    is for Mille): the page and the API answer from it without replaying again."""

    game: Game
    sitting: Sitting
    #: False when the same submission had been recorded already (a double tap, a retry).
    recorded: bool = True


def read_entry(game: Game, raw: Mapping[str, object]) -> Entry:
    """A deal's body read by the game's kind; ``engine.games.Refused`` names each field
    at fault."""
    return kind_of(game).read_deal(setup_of(game), raw)


def record(
    game_id: int,
    raw: Mapping[str, object],
    *,
    version: int | None = None,
    token: str | None = None,
    allowed: Callable[[League], object] | None = None,
) -> Played:
    """Add the next deal; ``raw`` is read by the game's kind (``Refused`` if it breaks a
    rule, and nothing is written). As :func:`.service.record_deal`: ``allowed`` checks
    the caller on the locked game's league before anything is read or said of the game,
    a ``token`` seen before records nothing, a stale ``version`` is refused."""
    with writing():
        game = locked_game(game_id, seated=True)
        if allowed is not None:
            allowed(game.league)
        if token and not first_use(token, game_id):
            return Played(game, sitting_of(game), recorded=False)
        check_version(game, version)
        if game.finished:
            raise Conflict(gettext("The game is over: it takes no more deals."))
        entry = read_entry(game, raw)
        number = len(game.deals) + 1
        sitting = _replayed(game, [*(deal.entry or {} for deal in game.deals), entry])
        deal = Deal(game_id=game.id, number=number, entry=dict(entry))
        deal.winner_seat = sitting.lines[-1].winner
        game.deals.append(deal)
        audit.record(game, AuditAction.DEAL_RECORDED, {"number": number}, after=dict(entry))
        _store(game, sitting, since=number)
    return Played(game, sitting)


def edit(
    game_id: int, number: int, raw: Mapping[str, object], *, version: int | None = None
) -> Played:
    """Correct any deal; everything after it is recomputed. A finished sitting stays
    finished; a game that ends itself is in progress again if the change undoes its end."""
    with writing():
        game = locked_game(game_id, version, seated=True)
        deal = _deal(game, number)
        entry = read_entry(game, raw)
        entries: list[Entry] = [d.entry or {} for d in game.deals]
        entries[number - 1] = entry
        sitting = _replayed(game, entries)
        audit.record(
            game,
            AuditAction.DEAL_EDITED,
            {"number": number},
            before=deal.entry,
            after=dict(entry),
        )
        deal.entry = dict(entry)
        deal.winner_seat = sitting.lines[number - 1].winner
        _store(game, sitting, since=number)
    return Played(game, sitting)


def delete_deal(game_id: int, number: int, *, version: int | None = None) -> Played:
    """Remove any deal; later deals move up one number (and their dealers with them)."""
    with writing():
        game = locked_game(game_id, version, seated=True)
        deal = _deal(game, number)
        remaining = [d for d in game.deals if d is not deal]
        sitting = _replayed(game, [d.entry or {} for d in remaining])
        audit.record(game, AuditAction.DEAL_DELETED, {"number": number}, before=deal.entry)
        game.deals.remove(deal)
        db.session.flush()  # free the number before the later deals take it
        for new_number, later in enumerate(remaining, start=1):
            later.number = new_number
        _store(game, sitting, since=number)
    return Played(game, sitting)


def finish(game_id: int, *, version: int | None = None) -> Played:
    """The scorekeeper ends a sitting: what is left in a pool goes back to its givers, and
    the settlement is the fewest payments. A game that ends by its own rule can't be ended."""
    with writing():
        game = locked_game(game_id, version, seated=True)
        _refuse_if_it_ends_itself(game)
        if game.finished:
            raise Conflict(gettext("This sitting is over already."))
        if not game.deals:
            raise Conflict(
                gettext("A sitting ends after a deal: record one first, or abandon the game.")
            )
        sitting = sitting_of(game, ended=True)
        _store(game, sitting, since=len(game.deals) + 1)
    return Played(game, sitting)


def resume(game_id: int, *, version: int | None = None) -> Played:
    """Take back the end of a sitting: it is in progress again (refused once paid)."""
    with writing():
        game = locked_game(game_id, version, seated=True)
        _refuse_if_it_ends_itself(game)
        if not game.finished:
            raise Conflict(gettext("This sitting is in progress already."))
        sitting = sitting_of(game, ended=False)
        _store(game, sitting, since=len(game.deals) + 1)
    return Played(game, sitting)


def _refuse_if_it_ends_itself(game: Game) -> None:
    if kind_of(game).ends_itself:
        raise Conflict(
            gettext("This game ends by its own rule: it can't be ended or resumed by hand.")
        )


def _deal(game: Game, number: int) -> Deal:
    if not 1 <= number <= len(game.deals):
        raise NotFound(gettext("This game has no deal %(number)s.", number=number))
    return game.deals[number - 1]


def _replayed(game: Game, entries: Sequence[Entry]) -> Sitting:
    """The game with these deals, or a 409 when a deal would follow the end of a game
    that ends itself (as Mille's correction of an earlier deal can)."""
    try:
        return sitting_of(game, entries)
    except DealAfterEnd as error:
        raise Conflict(
            gettext(
                "With this change the game would end at deal %(number)s, but later deals "
                "follow it. Delete the later deals first, then make this change.",
                number=error.ended_at,
            )
        ) from None


def _store(game: Game, sitting: Sitting, *, since: int) -> None:
    """Keep what ``sitting`` says: the derived columns, the end in the audit trail, the
    game's movements rewritten from deal ``since`` on (and at the end), and the league's
    records of the game's kind (:mod:`..records.kind_records`), all in this transaction."""
    was_finished = game.finished
    for column, value in derived_columns(sitting).items():
        setattr(game, column, value)
    _mark_end(game, sitting, was_finished)
    game.version += 1
    if was_finished or since <= len(sitting.lines) - 1:  # a deal only added needs no delete
        db.session.execute(
            delete(Movement).where(
                Movement.game_id == game.id,
                or_(Movement.deal_number >= since, Movement.deal_number.is_(None)),
            )
        )
    rows = movement_rows(game.id, sitting, since=since)
    if rows:  # the table's own INSERT: one statement for every row, whichever are None
        db.session.execute(insert(cast(Table, Movement.__table__)), rows)
    if was_finished or sitting.finished:
        outcomes = outcome(sitting) if game.counts else None
        kind_records.game_changed(game, outcomes, had_results=was_finished)


def _movement(game_id: int, number: int | None, payment: Payment) -> dict[str, Any]:
    return {
        "game_id": game_id,
        "deal_number": number,
        "payer_seat": payment.payer,
        "payee_seat": payment.payee,
        "amount": payment.amount,
        "reason": payment.reason.value,
    }


def _mark_end(game: Game, sitting: Sitting, was_finished: bool) -> None:
    """When the game ended, in its column and its audit trail."""
    if sitting.finished and not was_finished:
        game.finished_at = utcnow()
        winners = [game.player(seat).name for seat in sitting.winners or ()]
        audit.record(
            game,
            AuditAction.GAME_FINISHED,
            {"winner": ", ".join(winners), "number": len(sitting.lines)},
            after={"status": FINISHED},
        )
    elif not sitting.finished and was_finished:
        game.finished_at = None
        audit.record(
            game,
            AuditAction.GAME_REOPENED,
            before={"status": FINISHED},
            after={"status": IN_PROGRESS},
        )
