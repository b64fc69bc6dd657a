"""A game in play: record, fix and take back deals, settle it (load -> engine -> persist);
starting one is :mod:`.starting`."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import bindparam, select
from sqlalchemy.orm import contains_eager, joinedload
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.database import insert, writing
from scorekeeper.engine import (
    DealAfterEnd,
    Scorecard,
    Seat,
    Settlement,
    Stakes,
    Tally,
    ends_with,
    replay,
    settle,
)
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.errors import Conflict, NotFound, StaleVersion
from scorekeeper.models import (
    FINISHED,
    IN_PROGRESS,
    AuditAction,
    Deal,
    Game,
    GameSeat,
    League,
    SubmissionToken,
    db,
    utcnow,
)
from scorekeeper.records import results
from scorekeeper.table import audit
from scorekeeper.web.translation import gettext


def scorecard(game: Game) -> Scorecard:
    """The game's score card, replayed by the engine from its stored deals."""
    return replay(game.rules, Seat(game.first_dealer), [deal.tally for deal in game.deals])


def settlement_of(card: Scorecard, stakes: Stakes) -> Settlement | None:
    """What the loser of a finished card pays; None while the game goes on."""
    return settle(card, stakes) if card.finished else None


def card_of(game: Game, saved: "Saved | None" = None) -> tuple[Scorecard, Settlement | None]:
    """The game's score card and settlement, as a page or an answer shows them: from
    ``saved`` (the replay of the change just made) when given, else replayed now."""
    if saved is not None:
        return saved.card, saved.settlement
    card = scorecard(game)
    return card, settlement_of(card, game.stakes)


@dataclass(frozen=True)
class Saved:
    """A game as a change to its deals left it, with what the change's one replay says.

    The page and the API build their answer from it: the game as written (its deals
    included; a commit leaves what it wrote in memory, :mod:`scorekeeper.extensions`), its
    score card and its settlement, without reading or replaying the game again.
    """

    game: Game
    card: Scorecard
    settlement: Settlement | None
    #: False when the same submission had been recorded already (a double tap, a retry).
    recorded: bool = True


#: Every write to a game starts with it: built once.
_LOCKED_GAME: Final = (
    select(Game)
    .join(Game.league)
    .where(Game.id == bindparam("game_id"))
    .options(
        contains_eager(Game.league),
        joinedload(Game.player0, innerjoin=True),
        joinedload(Game.player1, innerjoin=True),
    )
    .with_for_update(key_share=True, of=Game)
    .execution_options(populate_existing=True)
)
#: The same, with every seat and its player: a game of another kind than Mille, whose
#: players are its seats. (Seats never change once a game has started, so reading them
#: as they were before the wait for the lock is right, unlike its deals.)
_LOCKED_SEATED_GAME: Final = _LOCKED_GAME.options(
    joinedload(Game.seats).joinedload(GameSeat.player, innerjoin=False)  # flat, as GAME_PAGE
)


def locked_game(
    game_id: int,
    version: int | None = None,
    *,
    settled_ok: bool = False,
    abandoned_ok: bool = False,
    allowed: Callable[[League], object] | None = None,
    seated: bool = False,
) -> Game:
    """The game with its players, checked against a stale page, unless ``settled_ok``
    against a settled (locked) game, and unless ``abandoned_ok`` against an abandoned one.

    ``allowed``, the caller's check of who may change the game (it raises to refuse,
    :func:`.access.allows`), is given the game's league first of all, before the game's
    version or state is looked at: a refusal ("this game is settled") is only ever said to
    someone who may see the game.

    On PostgreSQL the statement locks the game and reads its league and players in one
    round trip; not the league: an ordinary deal changes nothing but its game. A change
    that reaches the league's derived rows takes the league's lock after its games; every
    writer locks in that order (its games by id, then the league), so no two wait for each
    other.
    ``FOR NO KEY UPDATE`` lets rows that refer to the game (a deal, an audit event) take
    their key-share locks. Deals are read later: joined here, they'd be read as before the
    wait for the lock. ``seated``: every seat and its player come in the same statement.
    """
    statement = _LOCKED_SEATED_GAME if seated else _LOCKED_GAME
    game = db.session.scalars(statement, {"game_id": game_id}).unique().first()
    if game is None:
        # PostgreSQL checks a row it waited to lock against the rows it had joined before
        # the wait: a game whose players a merge changed meanwhile (records.merging) reads
        # as none. Asked again, it is read as it is now.
        game = db.session.scalars(statement, {"game_id": game_id}).unique().first()
    if game is None:
        raise NotFound(gettext("There is no such game."))
    if allowed is not None:
        allowed(game.league)
    check_version(game, version)
    _check_open(game, settled_ok, abandoned_ok)
    return game


def _check_open(game: Game, settled_ok: bool, abandoned_ok: bool) -> None:
    """Refuse a change to an abandoned or a settled game, unless it is one of those."""
    if game.abandoned and not abandoned_ok:
        raise Conflict(
            gettext("This game was abandoned: it takes no change. A league admin can restore it.")
        )
    if game.locked and not settled_ok:
        raise Conflict(
            gettext(
                "This game is settled: its payment is marked paid, so it is locked. "
                "A league admin can unlock it."
            )
        )


def check_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise StaleVersion(
            gettext(
                "The score card changed since this page was loaded (another phone?). "
                "Here it is as it stands now; enter your change again if it is still needed."
            )
        )


def derived_columns(card: Scorecard, settlement: Settlement | None) -> dict[str, Any]:
    """The game's derived columns as its score card and settlement (:func:`settlement_of`)
    say them (all but ``finished_at``).

    Pure: the write path below stores them, and bulk loaders (``bench.generate``) use it
    to set the very same values without a write per deal.
    """
    return {
        "deal_count": len(card.lines),
        "total0": card.totals[0],
        "total1": card.totals[1],
        "stars0": card.stars[0],
        "stars1": card.stars[1],
        "chapeaux0": card.chapeaux[0],
        "chapeaux1": card.chapeaux[1],
        "winner_seat": None if card.winner is None else int(card.winner),
        "status": FINISHED if card.finished else IN_PROGRESS,
        "amount_due": None if settlement is None else settlement.total,
    }


def _refresh(
    game: Game, tallies: Sequence[Tally], *, league_locked: bool = False
) -> tuple[Scorecard, Settlement | None]:
    """Check the deals with the engine and store what they say about the game; the score
    card and settlement of that one replay. ``league_locked``: by :func:`_read_deals`."""
    try:
        card = replay(game.rules, Seat(game.first_dealer), tallies)
    except DealAfterEnd as error:
        raise Conflict(
            gettext(
                "With this change the game would end at deal %(number)s, but later deals "
                "follow it. Delete the later deals first, then make this change.",
                number=error.ended_at,
            )
        ) from None
    was_finished = game.finished
    settlement = settlement_of(card, game.stakes)
    for name, value in derived_columns(card, settlement).items():
        setattr(game, name, value)
    _mark_end(game, card, was_finished)
    game.version += 1
    # Standings, ratings, head-to-head: same transaction.
    results.game_changed(game, was_finished=was_finished, league_locked=league_locked)
    return card, settlement


def _mark_end(game: Game, card: Scorecard, was_finished: bool) -> None:
    """When the game ended, in its column and its audit trail: now if this change ends it;
    no more if it reopens it."""
    if card.finished and not was_finished:
        game.finished_at = utcnow()
        winner = game.player(int(card.winner or 0)).name
        audit.record(
            game,
            AuditAction.GAME_FINISHED,
            {"winner": winner, "number": len(card.lines)},
            after={"winner": game.winner_seat, "amount_due": game.amount_due},
        )
    elif not card.finished:
        game.finished_at = None
        if was_finished:
            audit.record(
                game,
                AuditAction.GAME_REOPENED,
                before={"status": FINISHED},
                after={"status": IN_PROGRESS},
            )


def record_deal(
    game_id: int,
    tally: Tally,
    *,
    version: int | None = None,
    token: str | None = None,
    cards: CountedCards | None = None,
    allowed: Callable[[League], object] | None = None,
) -> Saved:
    """Add the next deal: the game loaded once (locked, with its deals), replayed and
    settled once.

    ``allowed``, the caller's check of who may record (it raises to refuse), is given the
    game's league as soon as the game is locked, before anything about the game is checked
    or written (:func:`locked_game`): so the page needn't read the game once to check and
    again to change it, and a refusal is never built for someone who may not see the game.
    A token seen before means the same submission arrived twice (a double tap, a retry):
    nothing is recorded the second time (``Saved.recorded`` is False). A finished game
    takes no more deals.
    ``cards``, the cards the tally was counted from, are kept with the deal only if they
    count to exactly ``tally`` (:func:`_kept_cards`).
    """
    with writing():
        # Taken first, so a concurrent retry sees our token.
        game = locked_game(game_id, allowed=allowed)
        if token and not first_use(token, game_id):
            card = scorecard(game)
            return Saved(game, card, settlement_of(card, game.stakes), recorded=False)
        check_version(game, version)
        if game.finished:
            raise Conflict(gettext("The game is over: it takes no more deals."))
        ends = ends_with(game.rules, (game.total0, game.total1), (game.stars0, game.stars1), tally)
        tallies = [*(deal.tally for deal in _read_deals(game, locking_league=ends)), tally]
        deal = _new_deal(game, len(tallies), tally, cards)
        card, settlement = _refresh(game, tallies, league_locked=ends)
        game.deals.append(deal)
    return Saved(game, card, settlement)


def _read_deals(game: Game, *, locking_league: bool) -> list[Deal]:
    """The locked game's deals, read with its league's lock when ``locking_league``: the
    change is about to reach the league's derived rows (a game ends, or a finished one
    changes), and the lock then costs no statement of its own.

    Safe in one statement: the deals are read as they were before the wait for the
    league, but nobody changes them meanwhile (we hold the game). The league is the outer
    side of the join, so a game with no deal yet still locks it.
    """
    if not locking_league:
        return game.deals
    rows = db.session.execute(
        select(League.id, Deal)
        .outerjoin(Deal, Deal.game_id == game.id)
        .where(League.id == game.league_id)
        .order_by(Deal.number)
        .with_for_update(key_share=True, of=League)
    )
    set_committed_value(game, "deals", [deal for _, deal in rows if deal is not None])
    return game.deals


def _new_deal(game: Game, number: int, tally: Tally, cards: CountedCards | None) -> Deal:
    """Deal ``number`` of ``game``, with its cards if they count to it, and its audit event."""
    deal = Deal(game_id=game.id, number=number)
    deal.tally = tally
    deal.cards = _kept_cards(tally, cards)
    audit.record(
        game,
        AuditAction.DEAL_RECORDED,
        {"number": number},
        after=audit.tally_values(number, tally),
    )
    return deal


def first_use(token: str, game_id: int) -> bool:
    """Keep the submission's token; False if it was kept before (the same deal sent again).
    A change that is then refused rolls the token back with it."""
    kept = insert(SubmissionToken).values(token=token, game_id=game_id)
    return (
        db.session.scalar(kept.on_conflict_do_nothing().returning(SubmissionToken.token))
        is not None
    )


def _deal(game: Game, number: int, deals: Sequence[Deal]) -> Deal:
    if not 1 <= number <= len(deals):
        raise NotFound(gettext("This game has no deal %(number)s.", number=number))
    return deals[number - 1]


def _kept_cards(tally: Tally, cards: CountedCards | None) -> dict[str, Any] | None:
    """The cards to store with a deal: only cards that count to exactly its tally.

    Cards come back from a page's hidden field, so they are counted again here;
    when the scorekeeper changed the numbers after counting, the typed tally wins
    and no cards are kept.
    """
    return cards.to_json() if cards is not None and cards.agrees_with(tally) else None


def edit_deal(
    game_id: int,
    number: int,
    tally: Tally,
    *,
    version: int | None = None,
    cards: CountedCards | None = None,
) -> Saved:
    """Correct any deal; everything after it is recomputed.

    A deal corrected by typing (no ``cards``) loses the cards it was counted from.
    """
    with writing():
        game = locked_game(game_id, version)
        finished = game.finished
        deal = _deal(game, number, _read_deals(game, locking_league=finished))
        tallies = [d.tally for d in game.deals]
        before = audit.tally_values(number, deal.tally)
        tallies[number - 1] = tally
        audit.record(
            game,
            AuditAction.DEAL_EDITED,
            {"number": number},
            before=before,
            after=audit.tally_values(number, tally),
        )
        card, settlement = _refresh(game, tallies, league_locked=finished)
        deal.tally = tally
        deal.cards = _kept_cards(tally, cards)
    return Saved(game, card, settlement)


def delete_deal(game_id: int, number: int, *, version: int | None = None) -> Saved:
    """Remove any deal; later deals move up one number."""
    with writing():
        game = locked_game(game_id, version)
        finished = game.finished
        deal = _deal(game, number, _read_deals(game, locking_league=finished))
        remaining = [d for d in game.deals if d is not deal]
        audit.record(
            game,
            AuditAction.DEAL_DELETED,
            {"number": number},
            before=audit.tally_values(number, deal.tally),
        )
        card, settlement = _refresh(game, [d.tally for d in remaining], league_locked=finished)
        game.deals.remove(deal)
        db.session.flush()  # free the number before the later deals take it
        for new_number, later in enumerate(remaining, start=1):
            later.number = new_number
    return Saved(game, card, settlement)


def undo_last_deal(game_id: int, *, version: int | None = None) -> Saved:
    """Take back the most recent deal: one tap at the table."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(gettext("There is no such game."))
    if not game.deal_count:
        raise Conflict(gettext("There is no deal to undo."))
    return delete_deal(game_id, game.deal_count, version=version)
