"""Load rows, ask the engine, persist: every change to leagues, players and games.

Each public function that writes owns its transaction (:func:`writing`), so a
rejected change leaves the database as it was.
"""

import random
import re
import unicodedata
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from . import audit, league_stats
from .counted_cards import CountedCards
from .database import writing
from .engine import (
    DealAfterEnd,
    Rules,
    Scorecard,
    Seat,
    Settlement,
    Stakes,
    Tally,
    format_money,
    replay,
    settle,
)
from .i18n import gettext
from .models import (
    FINISHED,
    IN_PROGRESS,
    AuditEvent,
    Deal,
    Game,
    League,
    Player,
    SubmissionToken,
    db,
    utcnow,
)
from .permissions import current_actor

DEFAULT_LEAGUE_NAME = "Our table"
MAX_NAME_LENGTH = 40
#: The earliest day a game or a season may have. Paper score cards go back no further, and
#: with a known range of days no date arithmetic can leave the calendar (year 1 minus a day).
EARLIEST_DAY = date(1900, 1, 1)


class ServiceError(Exception):
    """A change that can't be made; ``field`` names the input at fault, if one is."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class Conflict(ServiceError):
    """The change conflicts with the game's state: finished, or changed since it was read."""


class StaleVersion(Conflict):
    """The change was made against a version of the game that is no longer its current one."""


class NotFound(ServiceError):
    """The game, deal or league named does not exist."""


# Leagues and players -------------------------------------------------------


#: The longest league address (``league.slug``'s column), a ``-2`` to tell names apart included.
MAX_SLUG = 60


def slugify(name: str, suffix: str = "") -> str:
    """A league's address from its name: ``Friday club`` → ``friday-club``; ``suffix`` (``-2``)
    is kept within :data:`MAX_SLUG` by shortening the name's part."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "league"
    return base[: MAX_SLUG - len(suffix)].rstrip("-") + suffix


def default_league() -> League | None:
    return db.session.scalars(select(League).order_by(League.id).limit(1)).first()


def ensure_default_league() -> League:
    """The first start creates a league, so casual players never think about leagues."""
    league = default_league()
    if league is not None:
        return league
    try:
        with writing():
            db.session.add(League(slug=slugify(DEFAULT_LEAGUE_NAME), name=DEFAULT_LEAGUE_NAME))
    except IntegrityError:
        pass  # another process made it first
    league = default_league()
    assert league is not None
    return league


def league_by_slug(slug: str) -> League | None:
    if "\x00" in slug:  # never in a slug, and PostgreSQL can't even compare one
        return None
    return db.session.scalars(select(League).where(League.slug == slug)).first()


def squeeze(name: str) -> str:
    """A name trimmed, with runs of spaces inside it made one."""
    return " ".join(name.split())


def printable(text: str) -> bool:
    """Whether a string can be stored, compared and shown: no control characters (NUL,
    escape, delete…) and no lone surrogates. PostgreSQL can't even hold a NUL."""
    return not any(unicodedata.category(char) in ("Cc", "Cs") for char in text)


def check_printable(name: str) -> None:
    """ServiceError unless ``name`` is :func:`printable` (a tab or a line break in a name
    typed or imported has already been made a space by :func:`squeeze`)."""
    if not printable(name):
        raise ServiceError(gettext("A name can't contain control characters."), field="name")


def clean_player_name(name: str) -> str:
    """Trimmed, 1–40 printable characters; ServiceError otherwise."""
    cleaned = squeeze(name)
    if not cleaned:
        raise ServiceError(gettext("Enter a name."), field="name")
    check_printable(cleaned)
    if len(cleaned) > MAX_NAME_LENGTH:
        raise ServiceError(
            gettext("A name is at most %(most)s characters.", most=MAX_NAME_LENGTH), field="name"
        )
    return cleaned


def find_player(league_id: int, name: str) -> Player | None:
    return db.session.scalars(
        select(Player).where(Player.league_id == league_id, Player.name_key == Player.key(name))
    ).first()


def _new_player(league_id: int, name: str) -> Player:
    player = Player(league_id=league_id, name=name, name_key=Player.key(name))
    db.session.add(player)
    return player


def add_player(league_id: int, name: str) -> Player:
    """A new player in the league; the name must be new there, ignoring case."""
    cleaned = clean_player_name(name)
    with writing():
        if find_player(league_id, cleaned) is not None:
            raise ServiceError(
                gettext("%(name)s is already a player in this league.", name=cleaned), field="name"
            )
        player = _new_player(league_id, cleaned)
    return player


# Games ----------------------------------------------------------------------


def _seat_name(index: int, name: str) -> str:
    """The name of the player in seat ``index``; its ServiceError names that seat."""
    try:
        return clean_player_name(name)
    except ServiceError as error:
        raise ServiceError(error.message, field=f"players.{index}") from None


def start_game(
    league_id: int,
    names: tuple[str, str],
    rules: Rules,
    stakes: Stakes,
    first_dealer: Seat | None = None,
    *,
    create_players: bool = True,
) -> Game:
    """A new game between two different players, with its own copy of rules and stakes.

    Names that aren't players of the league yet become players when
    ``create_players`` is set; otherwise they are an error.
    """
    cleaned = tuple(_seat_name(index, name) for index, name in enumerate(names))
    if Player.key(cleaned[0]) == Player.key(cleaned[1]):
        raise ServiceError(gettext("Choose two different players."), field="players.1")
    with writing():
        seats = []
        for index, name in enumerate(cleaned):
            player = find_player(league_id, name)
            if player is None and not create_players:
                raise ServiceError(
                    gettext("%(name)s is not a player in this league.", name=name),
                    f"players.{index}",
                )
            seats.append(player or _new_player(league_id, name))
        game = Game(
            league_id=league_id,
            player0=seats[0],
            player1=seats[1],
            first_dealer=int(
                first_dealer if first_dealer is not None else random.choice(list(Seat))
            ),
        )
        game.rules = rules
        game.stakes = stakes
        db.session.add(game)
    return game


def scorecard(game: Game) -> Scorecard:
    """The game's score card, replayed by the engine from its stored deals."""
    return replay(game.rules, Seat(game.first_dealer), [deal.tally for deal in game.deals])


def settlement(game: Game, card: Scorecard | None = None) -> Settlement | None:
    card = card or scorecard(game)
    return settle(card, game.stakes) if card.finished else None


def _game_for_update(game_id: int, version: int | None = None, *, settled_ok: bool = False) -> Game:
    """The game, row-locked for this write (PostgreSQL), checked against a stale page
    and, unless ``settled_ok``, against a settled (locked) game."""
    game = db.session.get(Game, game_id, with_for_update=True, populate_existing=True)
    if game is None:
        raise NotFound(gettext("There is no such game."))
    _check_version(game, version)
    if game.locked and not settled_ok:
        raise Conflict(
            gettext(
                "This game is settled: its payment is marked paid, so it is locked. "
                "A league admin can unlock it."
            )
        )
    return game


def _check_version(game: Game, version: int | None) -> None:
    if version is not None and version != game.version:
        raise StaleVersion(
            gettext(
                "The score card changed since this page was loaded (another phone?). "
                "Here it is as it stands now; enter your change again if it is still needed."
            )
        )


def derived_columns(card: Scorecard, stakes: Stakes) -> dict[str, Any]:
    """The game's derived columns as its score card says them (all but ``finished_at``).

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
        "amount_due": settle(card, stakes).total if card.finished else None,
    }


def _refresh(game: Game, tallies: Sequence[Tally]) -> None:
    """Check the deals with the engine and store what they say about the game."""
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
    for name, value in derived_columns(card, game.stakes).items():
        setattr(game, name, value)
    if card.finished and not was_finished:
        game.finished_at = utcnow()
        winner = game.player(int(card.winner or 0)).name
        audit.record(
            game,
            "game_finished",
            f"{winner} won after deal {len(card.lines)}.",
            after={"winner": game.winner_seat, "amount_due": game.amount_due},
        )
    elif not card.finished:
        game.finished_at = None
        if was_finished:
            audit.record(
                game,
                "game_reopened",
                "The game is in progress again.",
                before={"status": FINISHED},
                after={"status": IN_PROGRESS},
            )
    game.version += 1
    league_stats.game_changed(game)  # standings, ratings, head-to-head: same transaction


def record_deal(
    game_id: int,
    tally: Tally,
    *,
    version: int | None = None,
    token: str | None = None,
    cards: CountedCards | None = None,
) -> tuple[Game, bool]:
    """Add the next deal. Returns the game and whether this call recorded it.

    A token seen before means the same submission arrived twice (a double tap,
    a retry): nothing is recorded the second time. A finished game takes no
    more deals. ``cards``, the cards the tally was counted from, are kept with
    the deal only if they count to exactly ``tally`` (:func:`_kept_cards`).
    """
    with writing():
        game = _game_for_update(game_id)  # taken first, so a concurrent retry sees our token
        if token and db.session.get(SubmissionToken, token) is not None:
            return game, False
        _check_version(game, version)
        if game.finished:
            raise Conflict(gettext("The game is over: it takes no more deals."))
        if token:
            db.session.add(SubmissionToken(token=token, game_id=game_id))
        tallies = [deal.tally for deal in game.deals] + [tally]
        deal = Deal(number=len(tallies))
        deal.tally = tally
        deal.cards = _kept_cards(tally, cards)
        audit.record(
            game,
            "deal_recorded",
            f"Deal {deal.number} recorded.",
            after=audit.tally_values(deal.number, tally),
        )
        _refresh(game, tallies)
        game.deals.append(deal)
        committed = {"deal_count": game.deal_count, "version": game.version}
    # The commit expired the game; what the caller reads next ("Deal 12 saved.") is what
    # this transaction just wrote, so it is set back rather than loaded again.
    for name, value in committed.items():
        set_committed_value(game, name, value)
    return game, True


def _deal(game: Game, number: int) -> Deal:
    if not 1 <= number <= len(game.deals):
        raise NotFound(gettext("This game has no deal %(number)s.", number=number))
    return game.deals[number - 1]


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
) -> Game:
    """Correct any deal; everything after it is recomputed.

    A deal corrected by typing (no ``cards``) loses the cards it was counted from.
    """
    with writing():
        game = _game_for_update(game_id, version)
        deal = _deal(game, number)
        tallies = [d.tally for d in game.deals]
        before = audit.tally_values(number, deal.tally)
        tallies[number - 1] = tally
        audit.record(
            game,
            "deal_edited",
            f"Deal {number} corrected.",
            before=before,
            after=audit.tally_values(number, tally),
        )
        _refresh(game, tallies)
        deal.tally = tally
        deal.cards = _kept_cards(tally, cards)
    return game


def delete_deal(game_id: int, number: int, *, version: int | None = None) -> Game:
    """Remove any deal; later deals move up one number."""
    with writing():
        game = _game_for_update(game_id, version)
        deal = _deal(game, number)
        remaining = [d for d in game.deals if d is not deal]
        audit.record(
            game,
            "deal_deleted",
            f"Deal {number} deleted; later deals moved up.",
            before=audit.tally_values(number, deal.tally),
        )
        _refresh(game, [d.tally for d in remaining])
        game.deals.remove(deal)
        db.session.flush()  # free the number before the later deals take it
        for new_number, later in enumerate(remaining, start=1):
            later.number = new_number
    return game


def undo_last_deal(game_id: int, *, version: int | None = None) -> Game:
    """Take back the most recent deal: one tap at the table."""
    game = db.session.get(Game, game_id)
    if game is None:
        raise NotFound(gettext("There is no such game."))
    if not game.deal_count:
        raise Conflict(gettext("There is no deal to undo."))
    return delete_deal(game_id, game.deal_count, version=version)


def mark_paid(game_id: int, *, version: int | None = None) -> Game:
    """The loser has paid: the game is settled and locked."""
    with writing():
        game = _game_for_update(game_id, version)
        _record_payment(game)
    return game


def mark_games_paid(league_id: int, versions: Mapping[int, int | None]) -> list[Game]:
    """Settle several games of a league at once (two players settling up): all, or none.

    ``versions`` maps each game to the version the page showed, so an amount
    that changed since then is not marked paid unseen.
    """
    with writing():
        games = [_game_for_update(game_id, versions[game_id]) for game_id in sorted(versions)]
        for game in games:
            if game.league_id != league_id:
                raise NotFound(gettext("There is no such game in this league."))
            _record_payment(game)
    return games


def _record_payment(game: Game) -> None:
    if not game.finished:
        raise Conflict(gettext("Only a finished game can be marked paid."))
    game.paid_at = utcnow()
    user = current_actor()
    game.paid_by_id = user.id if user else None
    game.version += 1
    payer = game.player(1 - int(game.winner_seat or 0)).name
    audit.record(
        game,
        "payment_marked",
        f"{payer}'s payment of {format_money(game.amount_due or 0)} marked paid.",
        after={"paid_at": game.paid_at.isoformat(), "amount": game.amount_due},
    )
    league_stats.payment_changed(game)  # who owes whom: same transaction


def unlock(game_id: int, *, version: int | None = None) -> Game:
    """A league admin reopens a settled game for corrections; the payment mark is removed."""
    with writing():
        game = _game_for_update(game_id, version, settled_ok=True)
        if not game.locked:
            raise Conflict(gettext("This game is not locked."))
        before = {"paid_at": game.paid_at.isoformat() if game.paid_at else None}
        game.paid_at = game.paid_by_id = None
        game.version += 1
        audit.record(
            game,
            "game_unlocked",
            "Game unlocked; its payment is unpaid again.",
            before=before,
            after={"paid_at": None},
        )
        league_stats.payment_changed(game)
    return game


def history(game_id: int) -> list[AuditEvent]:
    """A game's changes, newest first."""
    return list(
        db.session.scalars(
            select(AuditEvent)
            .where(AuditEvent.game_id == game_id)
            .order_by(AuditEvent.id.desc())
            .options(joinedload(AuditEvent.user))
        )
    )


def games_of_leagues(
    league_ids: Sequence[int], *, status: str | None = None, limit: int = 20
) -> list[Game]:
    """The newest games of these leagues, with their players: one query, however many rows."""
    query = select(Game).where(Game.league_id.in_(league_ids))
    if status:
        query = query.where(Game.status == status)
    query = query.options(joinedload(Game.player0), joinedload(Game.player1))
    return list(db.session.scalars(query.order_by(Game.id.desc()).limit(limit)))


def player_count(league_id: int) -> int:
    return (
        db.session.scalar(select(func.count(Player.id)).where(Player.league_id == league_id)) or 0
    )
