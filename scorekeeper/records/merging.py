"""Two players who are one person ("Benn" and "Ben"), made one: what would move, and moving it.

:func:`plan_merge` reads what a merge of one player into another would move — their
games by kind, those in progress and those not paid yet, their Mille record, the links
to their seats, the Tonight rounds they sat out, where each is paid — or why it can't be
made. :func:`merge_players` makes it in one transaction: every seat, game and round of the
player merged moves to the one kept, the league's derived rows are made again from the
games (:func:`.results.rebuild_league`: ratings, standings, seasons, head-to-head and who
owes whom as if there had always been one player), the player merged is deleted, and the
league's history keeps the merge, who made it and when.

**Decisions.**

* Two players who sat at the same game (any game, abandoned ones too) are not merged: a
  game seats each person once, and no choice of which seat to keep would be the game
  that was played. The page and the API say so and name the games.
* What the league's history said stays as it was said ("Benn won after deal 7"): a
  game's page reads its players' names from their rows, so it shows Ben now; the words
  kept with its events are history.
* A game's own handle, said through a seat's link, belongs to the seat and so follows
  it. The league's handle: the kept player's unless the admin takes the other one's (the
  page asks when both have one and they differ; the API keeps the kept player's unless
  told ``"handle": "from"``); a player without one takes the other's. A change is kept
  in the history as any change of a handle is.
* Paid (locked) games move too: the merge changes no deal and no payment, only whose
  name a seat holds, and who owes whom is the same money between the same people.
"""

import hashlib
import json
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Select, and_, delete, func, select, update

from scorekeeper.database import writing
from scorekeeper.errors import Conflict, NotFound, ServiceError
from scorekeeper.models import (
    FINISHED,
    AuditAction,
    AuditEvent,
    Game,
    GameSeat,
    Invitation,
    LeagueRound,
    Membership,
    Player,
    PlayerRecord,
    SeatLink,
    db,
)
from scorekeeper.records.payment_handles import PaymentHandle, handle_of, keep_handle
from scorekeeper.records.results import rebuild_league
from scorekeeper.records.totals import lock_league
from scorekeeper.web.translation import gettext, ngettext

#: Whose league handle the player kept is paid by: theirs, or the merged player's.
KEEP, TAKE = "into", "from"


@dataclass(frozen=True)
class MergePlan:
    """What merging ``merged`` into ``kept`` would move, read before it is made."""

    merged: Player
    kept: Player
    #: The merged player's games that count or will, by kind (abandoned ones apart).
    games: dict[str, int]
    abandoned: int
    in_progress: int
    #: Finished games, not abandoned, whose money is not marked paid.
    unpaid: int
    #: The merged player's Mille record, which joins the kept one's (None: no finished game).
    record: PlayerRecord | None
    #: Links to the merged player's seats not taken back: they open the kept player's seat.
    links: int
    #: Tonight's rounds the merged player sat out (who sits out next reads them).
    rounds: int
    #: The games both sat at: the merge is refused.
    shared: list[int]
    game_ids: list[int]

    @property
    def handles(self) -> tuple[PaymentHandle | None, PaymentHandle | None]:
        """Where the merged player is paid, then where the kept one is."""
        return handle_of(self.merged), handle_of(self.kept)

    @property
    def asks_handle(self) -> bool:
        """Both are paid somewhere, not the same: whose is kept is asked."""
        merged, kept = self.handles
        return merged is not None and kept is not None and merged != kept

    @property
    def moved(self) -> int:
        return len(self.game_ids)

    @property
    def refusal(self) -> str | None:
        """Why the merge can't be made, in words; None when it can."""
        if not self.shared:
            return None
        return ngettext(
            "%(merged)s and %(kept)s sat at the same game: a game seats each person once, "
            "so they can't be one player.",
            "%(merged)s and %(kept)s sat at the same %(num)s games: a game seats each person "
            "once, so they can't be one player.",
            len(self.shared),
            merged=self.merged.name,
            kept=self.kept.name,
        )

    @property
    def signature(self) -> str:
        """What the page showed, to tell a merge asked on a page since outdated."""
        merged, kept = self.handles
        shown = [self.game_ids, self.unpaid, self.links, self.merged.name, self.kept.name]
        shown += [str(merged), str(kept)]
        return hashlib.sha256(json.dumps(shown).encode()).hexdigest()[:20]


def _seated(player_id: int) -> Select[int]:
    return select(GameSeat.game_id).where(GameSeat.player_id == player_id)


def _pair(league_id: int, merged_id: int, kept_id: int) -> tuple[Player, Player]:
    """The two players, both of the league: NotFound for the merged one, a refusal of the
    field ``into`` for the other."""
    merged = db.session.get(Player, merged_id)
    if merged is None or merged.league_id != league_id:
        raise NotFound(gettext("There is no such player."))
    if kept_id == merged_id:
        raise ServiceError(gettext("A player can't be merged into themself."), field="into")
    kept = db.session.get(Player, kept_id)
    if kept is None or kept.league_id != league_id:
        raise ServiceError(gettext("Choose another player of this league."), field="into")
    return merged, kept


def plan_merge(league_id: int, merged_id: int, kept_id: int) -> MergePlan:
    """What merging the player ``merged_id`` into ``kept_id`` would move, or why it can't."""
    merged, kept = _pair(league_id, merged_id, kept_id)
    games = db.session.execute(
        select(Game.id, Game.kind, Game.status, Game.paid_at, Game.abandoned_at)
        .where(Game.id.in_(_seated(merged.id)))
        .order_by(Game.id)
    ).all()
    counting = [game for game in games if game.abandoned_at is None]
    links = db.session.scalar(
        select(func.count())
        .select_from(SeatLink)
        .join(GameSeat, and_(GameSeat.game_id == SeatLink.game_id, GameSeat.seat == SeatLink.seat))
        .where(GameSeat.player_id == merged.id, SeatLink.revoked_at.is_(None))
    )
    return MergePlan(
        merged=merged,
        kept=kept,
        games=dict(Counter(game.kind for game in counting)),
        abandoned=len(games) - len(counting),
        in_progress=sum(game.status != FINISHED for game in counting),
        unpaid=sum(game.status == FINISHED and game.paid_at is None for game in counting),
        record=db.session.get(PlayerRecord, merged.id),
        links=links or 0,
        rounds=db.session.scalar(
            select(func.count()).where(LeagueRound.sitting_out_id == merged.id)
        )
        or 0,
        shared=list(
            db.session.scalars(
                _seated(kept.id)
                .where(GameSeat.game_id.in_(_seated(merged.id)))
                .order_by(GameSeat.game_id)
            )
        ),
        game_ids=[game.id for game in games],
    )


def merge_players(
    league_id: int,
    merged_id: int,
    kept_id: int,
    *,
    handle: str = KEEP,
    signature: str | None = None,
    by: int | None,
) -> Player:
    """Merge the player ``merged_id`` into ``kept_id`` (the module's docstring): the kept
    player, every game, record and payment of the merged one now theirs; ``handle``, whose
    league handle they keep when both have one (:data:`KEEP` or :data:`TAKE`).

    Refused, changing nothing: a player not of the league (NotFound; ServiceError for
    ``into``), two players who sat at the same game (Conflict), a page's ``signature``
    that no longer matches what would move, or a game of the merged player started
    meanwhile (Conflict).
    """
    with writing():
        plan = _locked_plan(league_id, merged_id, kept_id, signature)
        merged, kept = plan.merged, plan.kept
        said = {"from": merged.name, "into": kept.name, "from_id": merged.id}
        taken = _handle_after(plan, handle)
        _move(merged.id, kept.id)
        db.session.expire_all()  # the games' seats, read again by the rebuild
        rebuild_league(league_id)
        if taken is not None:
            keep_handle(kept, taken, by=by)
        db.session.execute(delete(Player).where(Player.id == merged_id))
        whose = None if handle_of(kept) is None else TAKE if taken is not None else KEEP
        db.session.add(
            AuditEvent(
                league_id=league_id,
                user_id=by,
                action=AuditAction.PLAYERS_MERGED,
                params={**said, "player_id": kept.id, "games": plan.moved, "handle": whose},
            )
        )
    return kept


def _locked_plan(league_id: int, merged_id: int, kept_id: int, signature: str | None) -> MergePlan:
    """What the merge moves, read under its locks, or why it is refused (Conflict).

    Locks as every writer does (``table.service.locked_game``): the games first, in order
    of id, then the league, then the two players — the merged one against a game started
    with them meanwhile, whose seat would wait for the merge and then find no player.
    """
    locked = _lock_games(merged_id)
    lock_league(league_id)
    _lock_players(merged_id, kept_id)
    plan = plan_merge(league_id, merged_id, kept_id)
    if plan.game_ids != locked:
        raise Conflict(gettext("A game was started meanwhile: look again before merging."))
    if plan.refusal is not None:
        raise Conflict(plan.refusal)
    if signature is not None and signature != plan.signature:
        raise Conflict(gettext("What would move changed since the page was loaded."))
    return plan


def _handle_after(plan: MergePlan, handle: str) -> PaymentHandle | None:
    """The merged player's handle, when the kept player takes it (asked, or having none)."""
    merged, kept = plan.handles
    if merged is None or merged == kept:
        return None
    return merged if kept is None or handle == TAKE else None


def _lock_games(player_id: int) -> list[int]:
    """The player's games, locked in order of id; their ids."""
    return list(
        db.session.scalars(
            select(Game.id)
            .where(Game.id.in_(_seated(player_id)))
            .order_by(Game.id)
            .with_for_update(key_share=True)
        )
    )


def _lock_players(merged_id: int, kept_id: int) -> None:
    """The merged player's row against a game started with them (its seat would wait), and
    the kept one's against a rename or a change of handle; after the league's lock."""
    for player_id in sorted((merged_id, kept_id)):
        db.session.execute(
            select(Player.id)
            .where(Player.id == player_id)
            .with_for_update(key_share=player_id == kept_id)
        )


def _move(merged_id: int, kept_id: int) -> None:
    """Every seat, game, round and member of the merged player, the kept one's."""
    db.session.execute(
        update(GameSeat).where(GameSeat.player_id == merged_id).values(player_id=kept_id)
    )
    for column in (Game.player0_id, Game.player1_id):
        db.session.execute(update(Game).where(column == merged_id).values({column: kept_id}))
    db.session.execute(
        update(LeagueRound)
        .where(LeagueRound.sitting_out_id == merged_id)
        .values(sitting_out_id=kept_id)
    )
    # A member who was the merged player, or an invitation made for them, is the kept
    # one's (issue 38, point 13).
    for made_for in (Membership, Invitation):
        db.session.execute(
            update(made_for).where(made_for.player_id == merged_id).values(player_id=kept_id)
        )
