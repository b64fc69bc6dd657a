"""The table's rows: leagues, players, games with their own rules and stakes, and deals.

A game's derived columns (totals, stars, status, winner, settlement) are kept
up to date by :mod:`scorekeeper.table.service` on every change, so league pages can
aggregate them in SQL instead of replaying every game.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, String, UniqueConstraint, event
from sqlalchemy.engine import Connection
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, Mapper, mapped_column, relationship

from scorekeeper.engine import DifferenceRule, Preset, Rules, Seat, SkunkRule, Stakes, Tally
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.names import MAX_KEY_LENGTH
from scorekeeper.names import key as name_key

from .base import Cents, Model, utcnow

IN_PROGRESS = "in_progress"
FINISHED = "finished"


class League(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    public: Mapped[bool] = mapped_column(default=True)
    #: The rules and stakes a new game starts from: {"rules": {...}, "stakes": {...}}.
    defaults: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The IANA time zone its pages show times in ("America/Toronto"); None: the server's.
    time_zone: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list["Player"]] = relationship(
        back_populates="league", order_by="Player.name_key"
    )
    games: Mapped[list["Game"]] = relationship(back_populates="league")


class Player(Model):
    __table_args__ = (UniqueConstraint("league_id", "name_key", name="uq_player_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    #: The name folded for comparison (:func:`..names.key`): unique per league.
    name_key: Mapped[str] = mapped_column(String(MAX_KEY_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Where this player is paid (:mod:`..records.payment_handles`): "email" or "phone" for
    #: an Interac e-Transfer, "paypal" for a PayPal.me name; shown only to the league's
    #: members and to the seat links of this player's games.
    payment_kind: Mapped[str | None] = mapped_column(String(10))
    payment_handle: Mapped[str | None] = mapped_column(String(254))

    league: Mapped[League] = relationship(back_populates="players")

    @staticmethod
    def key(name: str) -> str:
        return name_key(name)


def _played_at_on_insert(context: DefaultExecutionContext) -> datetime:
    """A new game's ``played_at``, however it is inserted (the ORM, or bulk rows)."""
    row = context.get_current_parameters()
    return row.get("finished_at") or row.get("created_at") or utcnow()


class Game(Model):
    __table_args__ = (
        CheckConstraint("player0_id <> player1_id", name="two_players"),
        CheckConstraint("first_dealer IN (0, 1)", name="first_dealer_seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    player0_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    player1_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    first_dealer: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # The rules and stakes the game was started with; never changed afterwards.
    preset: Mapped[str | None] = mapped_column(String(20))
    target: Mapped[int]
    progressive: Mapped[bool]
    natural_needed: Mapped[bool]
    skunk: Mapped[str] = mapped_column(String(10))
    difference: Mapped[str] = mapped_column(String(10))
    small_stake: Mapped[Cents]
    big_stake: Mapped[Cents]

    #: Bumped on every change, so a page loaded before a change can't overwrite it.
    version: Mapped[int] = mapped_column(default=1)
    #: How many agreements with the card were given (:mod:`..table.seats`). An agreement
    #: changes no deal, so it leaves ``version`` alone (a deal typed meanwhile is not stale);
    #: an open page sees it by this count, which is part of the card's ETag.
    agreement_count: Mapped[int] = mapped_column(default=0, server_default="0")

    # Derived from the deals by the engine, refreshed on every change.
    status: Mapped[str] = mapped_column(String(12), default=IN_PROGRESS, index=True)
    deal_count: Mapped[int] = mapped_column(default=0)
    total0: Mapped[int] = mapped_column(default=0)
    total1: Mapped[int] = mapped_column(default=0)
    stars0: Mapped[int] = mapped_column(default=0)
    stars1: Mapped[int] = mapped_column(default=0)
    chapeaux0: Mapped[int] = mapped_column(default=0)
    chapeaux1: Mapped[int] = mapped_column(default=0)
    winner_seat: Mapped[int | None]
    amount_due: Mapped[Cents | None]  # the loser pays, once finished
    finished_at: Mapped[datetime | None]
    #: When the game was played: when it finished, else when it started. "Newest first"
    #: means by it, so an imported game of last year sorts below this week's games.
    #: Kept by the database layer: set on insert, and on every change to ``finished_at``.
    played_at: Mapped[datetime] = mapped_column(default=_played_at_on_insert)

    #: When the loser's payment was marked paid; a paid game is locked.
    paid_at: Mapped[datetime | None] = mapped_column(index=True)
    paid_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))

    #: When a scorekeeper abandoned the game (started by mistake, never to be finished);
    #: None for a game that counts. An abandoned game counts like no game: it leaves the
    #: lists of games in progress, the standings, the ratings and who owes whom, but keeps
    #: its deals and history, and a league admin can restore it (issue 24).
    abandoned_at: Mapped[datetime | None]
    abandoned_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))

    league: Mapped[League] = relationship(back_populates="games")
    player0: Mapped[Player] = relationship(foreign_keys=[player0_id])
    player1: Mapped[Player] = relationship(foreign_keys=[player1_id])
    deals: Mapped[list["Deal"]] = relationship(
        back_populates="game", order_by="Deal.number", cascade="all, delete-orphan"
    )

    @property
    def rules(self) -> Rules:
        return Rules(
            target=self.target,
            progressive=self.progressive,
            natural_needed=self.natural_needed,
            skunk=SkunkRule(self.skunk),
            difference=DifferenceRule(self.difference),
        )

    @rules.setter
    def rules(self, rules: Rules) -> None:
        self.target = rules.target
        self.progressive = rules.progressive
        self.natural_needed = rules.natural_needed
        self.skunk = rules.skunk.value
        self.difference = rules.difference.value
        preset = rules.matching_preset()
        self.preset = preset.value if preset else None

    @property
    def preset_label(self) -> str:
        return Preset(self.preset).label if self.preset else "Custom rules"

    @property
    def stakes(self) -> Stakes:
        return Stakes(small=self.small_stake, big=self.big_stake)

    @stakes.setter
    def stakes(self, stakes: Stakes) -> None:
        self.small_stake, self.big_stake = stakes.small, stakes.big

    @property
    def players(self) -> tuple[Player, Player]:
        return self.player0, self.player1

    @property
    def finished(self) -> bool:
        return self.status == FINISHED

    @property
    def abandoned(self) -> bool:
        return self.abandoned_at is not None

    @property
    def counts(self) -> bool:
        """A finished game that was not abandoned: one the league's records count."""
        return self.finished and not self.abandoned

    @property
    def takes_deals(self) -> bool:
        """In progress, not settled, not abandoned: the game page shows the deal form."""
        return not self.finished and not self.locked and not self.abandoned

    @property
    def locked(self) -> bool:
        """A settled game (payment marked paid) takes no change until an admin unlocks it."""
        return self.paid_at is not None

    def player(self, seat: int) -> Player:
        return self.players[seat]


class Deal(Model):
    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_deal_number"),
        CheckConstraint("out_seat IN (0, 1)", name="out_seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    out_seat: Mapped[int]
    score0: Mapped[int]
    score1: Mapped[int]
    stars0: Mapped[int] = mapped_column(default=0)
    stars1: Mapped[int] = mapped_column(default=0)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The cards the tally was counted from (issue 8), as :mod:`..counted_cards` writes them;
    #: None for a tally typed in.
    cards: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))

    game: Mapped[Game] = relationship(back_populates="deals")

    @property
    def counted(self) -> CountedCards | None:
        """The counted cards, when they are kept and count to exactly this deal's tally."""
        return CountedCards.stored(self.cards, self.tally) if self.cards else None

    @property
    def tally(self) -> Tally:
        return Tally(
            out=Seat(self.out_seat),
            scores=(self.score0, self.score1),
            stars=(self.stars0, self.stars1),
        )

    @tally.setter
    def tally(self, tally: Tally) -> None:
        self.out_seat = int(tally.out)
        self.score0, self.score1 = tally.scores
        self.stars0, self.stars1 = tally.stars


class SubmissionToken(Model):
    """A form's or request's one-time token: a retried save is recognised, not repeated."""

    token: Mapped[str] = mapped_column(String(100), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


@event.listens_for(Game, "before_update")
def _keep_played_at(_mapper: Mapper[Game], _connection: Connection, game: Game) -> None:
    """A game that finishes, or is in progress again, moves to when it was played."""
    game.played_at = game.finished_at or game.created_at
