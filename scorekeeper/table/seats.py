"""The other side of the table: a seat's link, and both players' agreement with the card.

**A seat link** opens one seat of one game on any phone, signed in or not (a capability:
:class:`~.models.SeatLink`). It shows that game's card and nothing else, and dies when the
scorekeeper stops sharing, with its game, or some days after the game is paid.

**An agreement** is a player's "I agree with this card", for the card as it was at that
moment: an audit event (:attr:`~.models.AuditAction.CARD_AGREED`) with the game's version.
Whether it still stands is read from the audit trail, never kept: it is void once any
change to the deals (a deal recorded, corrected or deleted, an undo, the end of a sitting
taken back) follows it, and that change is what every phone is told.

So no write path needs to know about agreements; marking the game paid or unlocking it
leaves them standing.

Every game has these, Mille's two seats and the other games' two to twelve alike: a
seat is a number below :func:`seat_count`, and nothing here knows one game from another.
"""

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Final

from flask import current_app
from sqlalchemy import bindparam, select, update
from sqlalchemy.orm import joinedload

from scorekeeper.accounts.permissions import acting_user
from scorekeeper.database import writing
from scorekeeper.errors import Conflict, NotFound
from scorekeeper.models import (
    MAX_ID,
    MILLE,
    AuditAction,
    AuditEvent,
    Game,
    Membership,
    SeatLink,
    db,
    utcnow,
)
from scorekeeper.table import audit
from scorekeeper.table.service import locked_game
from scorekeeper.web.translation import gettext

#: What a token looks like (``secrets.token_urlsafe``): anything else is no link at all.
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{16,64}")

#: The changes to the deals that void an agreement given before them.
DEAL_CHANGES: Final = (
    AuditAction.DEAL_RECORDED,
    AuditAction.DEAL_EDITED,
    AuditAction.DEAL_DELETED,
    # The end of a sitting taken back: what was agreed with was a finished card. (Mille's
    # end taken back comes with a deal deleted, which voids it first.)
    AuditAction.GAME_REOPENED,
)


def seat_count(game: Game) -> int:
    """How many seats the game has: Mille's two, another game's two to twelve."""
    return 2 if game.is_mille else len(game.seats)


def _check_seat(game: Game, seat: int) -> None:
    if not 0 <= seat < seat_count(game):
        raise NotFound(gettext("There is no such seat."))


# Seat links ------------------------------------------------------------------------------


def share(game_id: int, seat: int) -> str:
    """A new link to ``seat`` of the game; its token, shown this once (only its hash is kept)."""
    user = acting_user()
    with writing():
        game = db.session.get(Game, game_id)
        if game is None:
            raise NotFound(gettext("There is no such game."))
        _check_seat(game, seat)
        link, token = SeatLink.issue(game_id, seat, user.id if user else None)
        db.session.add(link)
    return token


def stop_sharing(game_id: int, seat: int) -> int:
    """Revoke every open link to ``seat`` of the game, at once; how many there were."""
    with writing():
        links = db.session.scalars(
            select(SeatLink).where(
                SeatLink.game_id == game_id, SeatLink.seat == seat, SeatLink.revoked_at.is_(None)
            )
        ).all()
        now = utcnow()
        for link in links:
            link.revoked_at = now
    return len(links)


def keep_expired_links_dead(game: Game) -> None:
    """Before a settled game is unlocked: its links that died of old age (some days after
    it was paid) are marked revoked when they died, so they stay dead once the game has no
    payment mark to count from. One statement, and only for a game paid that long ago."""
    if game.paid_at is None or utcnow() < SeatLink.dies_at(game.paid_at):
        return
    db.session.execute(
        update(SeatLink)
        .where(SeatLink.game_id == game.id, SeatLink.revoked_at.is_(None))
        .values(revoked_at=SeatLink.dies_at(game.paid_at))
    )


#: The links to a game's seats not revoked (a scorekeeper's game page asks: built once).
_UNREVOKED: Final = select(SeatLink).where(
    SeatLink.game_id == bindparam("game_id"), SeatLink.revoked_at.is_(None)
)


def shared_seats(game: Game) -> tuple[int, ...]:
    """How many links to each seat of the game are open now, in seat order."""
    now = utcnow()
    counts = [0] * seat_count(game)
    for link in db.session.scalars(_UNREVOKED, {"game_id": game.id}):
        if link.is_open(game.paid_at, now, game.abandoned_at) and link.seat < len(counts):
            counts[link.seat] += 1
    return tuple(counts)


#: How long after a game ended a rematch of it still belongs to the same evening.
SAME_EVENING: Final = timedelta(hours=12)


def evening_of(game: Game) -> list[Game]:
    """The game and the rematches that followed it, oldest first: the same league, kind
    and players in the same seats, each started after the one before ended and within
    :data:`SAME_EVENING` of it, none abandoned (issue 38, point 4: one link for the
    evening). A game nobody played again is alone: one statement, no more."""
    later = db.session.scalars(
        select(Game)
        .where(
            Game.league_id == game.league_id,
            Game.kind == game.kind,
            Game.player0_id == game.player0_id,
            Game.player1_id == game.player1_id,
            Game.id > game.id,
            Game.abandoned_at.is_(None),
        )
        .order_by(Game.id)
        .limit(50)
    ).all()
    evening = [game]
    players = [seat.player_id for seat in game.seats] if later else []
    for candidate in later:
        ended = evening[-1].finished_at
        if ended is None or candidate.created_at > ended + SAME_EVENING:
            break
        if candidate.created_at >= ended and [s.player_id for s in candidate.seats] == players:
            evening.append(candidate)
    return evening


def open_seat(token: str) -> SeatLink | None:
    """The open link with this token, its game and players loaded; None for any other
    token (malformed, unknown, revoked, expired, its game abandoned or gone)."""
    return _open_link(SeatLink.token_hash, token)


def open_receipt(token: str) -> SeatLink | None:
    """The open link whose receipt token this is (:meth:`.SeatLink.receipt_token`), as
    :func:`open_seat` finds one: a receipt lives and dies with its link. A payer's receipt
    as the scorekeeper shares it (:func:`payer_receipt_token`) comes as a link of that seat
    that is kept nowhere: it opens the receipt and nothing else."""
    found = _open_link(SeatLink.receipt_hash, token)
    if found is None and (signed := _PAYER_RECEIPT.fullmatch(token)):
        return _payer_receipt(int(signed[1]), int(signed[2]), token)
    return found


#: A payer's receipt token (:func:`payer_receipt_token`): the game, the seat, and a MAC.
_PAYER_RECEIPT: Final = re.compile(r"([0-9]{1,10})-([0-9]{1,2})-[A-Za-z0-9_-]{22}")


def payer_receipt_token(game: Game, seat: int) -> str:
    """The token of the receipt of ``seat``'s player, as the scorekeeper's bill shares it
    (issue 38, point 7): read-only, never the seat's power to agree. Made from the game,
    the seat and the app's secret key, so the page gives the same address every time and
    no row is kept; it opens while the game's seat links would (not abandoned, not paid
    more than some days ago)."""
    key = current_app.config["SECRET_KEY"]
    secret = key.encode() if isinstance(key, str) else bytes(key)
    mac = hmac.new(secret, f"payer receipt {game.id} {seat}".encode(), hashlib.sha256)
    said = base64.urlsafe_b64encode(mac.digest()[:16]).rstrip(b"=").decode()
    return f"{game.id}-{seat}-{said}"


def _payer_receipt(game_id: int, seat: int, token: str) -> SeatLink | None:
    game = None
    if game_id <= MAX_ID:
        game = db.session.scalars(_GAME_OF_A_LINK, {"game_id": game_id}).unique().first()
    if game is None or not 0 <= seat < seat_count(game):
        return None
    if game.is_mille:  # its seats were not joined: read when asked for, not none
        db.session.expire(game, ["seats"])
    if not hmac.compare_digest(payer_receipt_token(game, seat), token):
        return None
    link = SeatLink(game_id=game.id, seat=seat)  # in no session: it is kept nowhere
    link.game = game
    if not link.is_open(game.paid_at, utcnow(), game.abandoned_at):
        return None
    return link


#: A game with what its link's pages show (its league, players, deals or seats).
_GAME_OF_A_LINK: Final = (
    select(Game)
    .where(Game.id == bindparam("game_id"))
    .options(
        joinedload(Game.league),
        joinedload(Game.player0),
        joinedload(Game.player1),
        joinedload(Game.deals.and_(Game.kind == MILLE)),
        joinedload(Game.seats.and_(Game.kind != MILLE)),
    )
)


def _open_link(column: Any, token: str) -> SeatLink | None:
    if not _TOKEN.fullmatch(token):
        return None
    link = db.session.scalars(
        select(SeatLink)
        .where(column == SeatLink.digest(token))
        .options(
            joinedload(SeatLink.created_by),  # whether its maker still answers for it
            joinedload(SeatLink.game).options(
                joinedload(Game.league),  # for its time zone
                joinedload(Game.player0),
                joinedload(Game.player1),
                joinedload(Game.deals),
                joinedload(Game.seats.and_(Game.kind != MILLE)),  # another game's players
            ),
        )
    ).first()
    if link is None or not link.is_open(link.game.paid_at, utcnow(), link.game.abandoned_at):
        return None
    if link.game.is_mille:  # its seats were not joined: read when asked for, not none
        db.session.expire(link.game, ["seats"])
    return link


def receipt_token(link: SeatLink, token: str) -> str:
    """The token of the receipt of ``link`` (whose own token is ``token``): what the bill's
    sentence and the printed receipt carry, since it opens the receipt and nothing else.
    A link made before receipts had tokens keeps its hash now, once."""
    receipt = SeatLink.receipt_token(token)
    if link.receipt_hash is None:
        with writing():
            db.session.execute(
                update(SeatLink)
                .where(SeatLink.id == link.id)
                .values(receipt_hash=SeatLink.digest(receipt))
            )
    return receipt


def seat_version(token: str) -> tuple[SeatLink | None, int, int]:
    """The link if it is open (else None), with the version and agreement count of the
    game it shows: what its page polls. One statement."""
    if not _TOKEN.fullmatch(token):
        return None, 0, 0
    found = db.session.execute(
        select(SeatLink, Game.version, Game.agreement_count, Game.paid_at, Game.abandoned_at)
        .join(Game)
        .where(SeatLink.token_hash == SeatLink.digest(token))
    ).one_or_none()
    if found is None:
        return None, 0, 0
    link, version, agreements, paid_at, abandoned_at = found
    if not link.is_open(paid_at, utcnow(), abandoned_at):
        return None, 0, 0
    return link, version, agreements


def etag(version: int, agreements: int) -> str:
    """The card's ETag: its version, and the agreements given once there are any (a game
    nobody agreed with keeps the ETag it always had)."""
    return f"{version}.{agreements}" if agreements else str(version)


def qr_svg(url: str, title: str) -> str:
    """``url`` as a QR code, an inline SVG drawn here (no script, no network, no inline
    style: it passes the pages' Content-Security-Policy)."""
    import segno  # the QR library: loaded when a code is first drawn (issue 26)

    code = segno.make(url, error="m")
    return code.svg_inline(  # type: ignore[no-any-return]
        scale=1,
        border=4,
        svgclass="qr",
        lineclass=None,
        omitsize=True,
        title=title,
        dark="#000",
        light="#fff",
    )


# Agreements ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Agreement:
    """A player's latest agreement with the card, and whether it still stands."""

    seat: int
    at: datetime
    version: int
    #: Given through the seat's link (else by a member on the game page).
    by_link: bool
    #: The first change to the deals after it (an audit event): it voids the agreement.
    voided_by: AuditEvent | None
    #: Every change to the deals after it, oldest first (what the player has not seen).
    changes: tuple[AuditEvent, ...] = ()

    @property
    def changed_deals(self) -> set[int]:
        """The deals recorded or corrected since the player agreed (their numbers now, as
        long as no deal was deleted before them)."""
        return {
            int(change.params["number"])
            for change in self.changes
            if change.action in (AuditAction.DEAL_RECORDED, AuditAction.DEAL_EDITED)
            and "number" in change.params
        }

    @property
    def stands(self) -> bool:
        return self.voided_by is None


def agreements(game: Game) -> tuple[Agreement | None, ...]:
    """Each seat's latest agreement (None: never agreed), in seat order. No query for a
    game nobody agreed with."""
    if not game.agreement_count:
        return (None,) * seat_count(game)
    events = db.session.scalars(
        select(AuditEvent)
        .where(
            AuditEvent.game_id == game.id,
            AuditEvent.action.in_((AuditAction.CARD_AGREED, *DEAL_CHANGES)),
        )
        .order_by(AuditEvent.id)
    )
    found: list[Agreement | None] = [None] * seat_count(game)
    for event in events:
        if event.action == AuditAction.CARD_AGREED:
            seat = int(event.params["seat"])
            by_link = event.params.get("by") == "link"
            version = int(event.params["version"])
            found[seat] = Agreement(seat, event.created_at, version, by_link, None)
            continue
        for seat, agreement in enumerate(found):
            if agreement is not None:
                voided_by = agreement.voided_by or event
                changes = (*agreement.changes, event)
                found[seat] = replace(agreement, voided_by=voided_by, changes=changes)
    return tuple(found)


def missing_agreements(game: Game) -> list[int]:
    """The seats whose player has no standing agreement with the card."""
    return [seat for seat, a in enumerate(agreements(game)) if a is None or not a.stands]


def own_seats(game: Game) -> frozenset[int]:
    """The seats of the game whose player the signed-in user is (their account linked to
    that player in the game's league): the scorekeeper who records the card and marks it
    paid agrees with it by doing so, and is not asked about themselves (issue 38, point
    5). Nothing is stored: the other seats' agreements stay as they are. Read from the
    memberships loaded with the user (``auth.load_user``): no query on a page."""
    user = acting_user()
    if user is None:
        return frozenset()
    linked = next((m.player_id for m in user.memberships if m.league_id == game.league_id), None)
    return _seats_of(game, linked)


def recorded_by_their_player(game: Game, history: list[AuditEvent]) -> frozenset[int]:
    """The seats whose player recorded the card as it stands: the account that made its
    latest change to the deals is linked to that player in the game's league. What
    :func:`own_seats` is to the scorekeeper's page, this is to the other players' links:
    "Ana recorded this card", not "Ana has not agreed". From the game's ``history``
    (newest first), and one statement when a change was made by an account."""
    latest = next((event for event in history if event.action in DEAL_CHANGES), None)
    if latest is None or latest.user_id is None:
        return frozenset()
    linked = db.session.scalar(
        select(Membership.player_id).where(
            Membership.user_id == latest.user_id, Membership.league_id == game.league_id
        )
    )
    return _seats_of(game, linked)


def _seats_of(game: Game, player_id: int | None) -> frozenset[int]:
    """The game's seats where ``player_id`` sits (none: no player)."""
    if player_id is None:
        return frozenset()
    players = (
        (game.player0_id, game.player1_id)
        if game.is_mille
        else tuple(seat.player_id for seat in game.seats)
    )
    return frozenset(seat for seat, seated in enumerate(players) if seated == player_id)


def agree(game_id: int, seat: int, version: int | None, *, by_link: bool) -> bool:
    """``seat``'s player agrees with the card as it is at ``version`` (the one their page
    showed: a card changed since is refused as stale, so nobody agrees blind). Returns
    whether this was new (agreeing again with the same card changes nothing)."""
    with writing():
        game = locked_game(game_id, version, settled_ok=True)
        _check_seat(game, seat)
        if not game.deal_count:
            raise Conflict(gettext("There is no deal to agree with yet."))
        standing = agreements(game)[seat]
        if standing is not None and standing.stands:
            return False
        audit.record(
            game,
            AuditAction.CARD_AGREED,
            {
                "seat": seat,
                "name": game.player(seat).name,
                "version": game.version,
                "by": "link" if by_link else "member",
            },
        )
        game.agreement_count += 1
    return True
