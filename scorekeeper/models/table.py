"""The table's rows: leagues, players, games with their own rules and stakes, their seats,
their deals and the money each deal moves.

A game is of one kind (``Game.kind``, the engine's ``GameKind.name``). Mille, the first,
keeps its rules, stakes and deals in columns of their own; every other kind keeps its
setup and each deal's entry as the JSON its engine module reads (``Game.setup``,
``Deal.entry``), and the money each deal moves as rows of :class:`Movement`. A game's
derived columns (totals, stars, status, winner, settlement) and its movements are kept
up to date by the game service on every change, so league pages can aggregate them in
SQL instead of replaying every game.
"""

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, CheckConstraint, ForeignKey, Index, String, UniqueConstraint, event
from sqlalchemy.engine import Connection
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, Mapper, mapped_column, relationship

from scorekeeper.engine import DifferenceRule, Preset, Rules, Seat, SkunkRule, Stakes, Tally
from scorekeeper.engine.counted_cards import CountedCards
from scorekeeper.names import MAX_KEY_LENGTH
from scorekeeper.names import key as name_key

from .base import MAX_SEATS, Cents, Model, utcnow

IN_PROGRESS = "in_progress"
FINISHED = "finished"
#: The kind every game was before there were others, and a new game's default.
MILLE = "mille"


class League(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    name: Mapped[str] = mapped_column(String(60))
    public: Mapped[bool] = mapped_column(default=True)
    #: What a new game starts from: Mille's rules and stakes as the league's settings say
    #: them, ``{"rules": {...}, "stakes": {...}}`` (absent until they are saved), and under
    #: ``"games"`` the setup every other game was last started with (:meth:`last_setup`).
    defaults: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The IANA time zone its pages show times in ("America/Toronto"); None: the server's.
    time_zone: Mapped[str | None] = mapped_column(String(64))
    #: The ISO 4217 code of the currency its pages write amounts in ("EUR"); None: Canadian
    #: dollars, as every league was before it could choose (``web.formatting.currency_of``).
    currency: Mapped[str | None] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    players: Mapped[list["Player"]] = relationship(
        back_populates="league", order_by="Player.name_key"
    )
    games: Mapped[list["Game"]] = relationship(back_populates="league")

    def last_setup(self, kind: str) -> dict[str, Any] | None:
        """The rules and stakes the league's last game of ``kind`` (any but Mille) was
        started with, ``{"rules": {...}, "stakes": {name: cents or None}}``; None before
        its first."""
        found = ((self.defaults or {}).get("games") or {}).get(kind)
        return found if isinstance(found, dict) else None

    def remember_setup(
        self, kind: str, rules: Mapping[str, object], stakes: Mapping[str, int | None]
    ) -> None:
        """Keep a new game's rules and stakes as the ones its kind's next game starts from.
        Mille's defaults, the league's settings, are left as they are."""
        defaults = dict(self.defaults or {})
        games = dict(defaults.get("games") or {})
        games[kind] = {"rules": dict(rules), "stakes": dict(stakes)}
        # A new dict, not the old one changed in place: the JSON column sees it changed.
        self.defaults = {**defaults, "games": games}


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
        CheckConstraint(f"first_dealer >= 0 AND first_dealer < {MAX_SEATS}", name="first_dealer"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    #: Which game it is: the engine's name of its kind ("mille", "knock-rummy", …).
    kind: Mapped[str] = mapped_column(String(20), default=MILLE, server_default=MILLE)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    # The players of seats 0 and 1, as in every game; all its seats are ``seats``.
    player0_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    player1_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    first_dealer: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    # The rules and stakes the game was started with; never changed afterwards. A game of
    # Mille keeps them in these columns (None for every other kind)…
    preset: Mapped[str | None] = mapped_column(String(20))
    target: Mapped[int | None]
    progressive: Mapped[bool | None]
    natural_needed: Mapped[bool | None]
    skunk: Mapped[str | None] = mapped_column(String(10))
    difference: Mapped[str | None] = mapped_column(String(10))
    small_stake: Mapped[Cents | None]
    big_stake: Mapped[Cents | None]
    #: … a game of any other kind as its engine's ``Setup`` says them: ``{"rules": {…},
    #: "stakes": {name: cents or None}}`` (None for Mille).
    setup: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))

    #: Bumped on every change, so a page loaded before a change can't overwrite it.
    version: Mapped[int] = mapped_column(default=1)
    #: How many agreements with the card were given (:mod:`..table.seats`). An agreement
    #: changes no deal, so it leaves ``version`` alone (a deal typed meanwhile is not stale);
    #: an open page sees it by this count, which is part of the card's ETag.
    agreement_count: Mapped[int] = mapped_column(default=0, server_default="0")

    # Derived from the deals by the engine, refreshed on every change (a sitting, which
    # ends when its scorekeeper says so, keeps that in ``status``). The totals, stars,
    # chapeaux, winner and amount due are Mille's; 0 or None for every other kind.
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
    #: A game of any other kind: each seat's balance as its ledger leaves it (cents, in
    #: seat order), and what its pool holds (0 without one), as Mille's totals are kept:
    #: a long sitting's page takes its newest deals back from them and sums no old deal.
    #: None and 0 for Mille, whose money is its settlement.
    balances: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True))
    pool: Mapped[Cents] = mapped_column(default=0, server_default="0")
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
    seats: Mapped[list["GameSeat"]] = relationship(
        back_populates="game", order_by="GameSeat.seat", cascade="all, delete-orphan"
    )

    @property
    def rules(self) -> Rules:
        """Mille's rules (a game of Mille has every one of their columns)."""
        assert self.target is not None
        assert self.skunk is not None
        assert self.difference is not None
        return Rules(
            target=self.target,
            progressive=bool(self.progressive),
            natural_needed=bool(self.natural_needed),
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
        """Mille's stakes."""
        assert self.small_stake is not None
        assert self.big_stake is not None
        return Stakes(small=self.small_stake, big=self.big_stake)

    @stakes.setter
    def stakes(self, stakes: Stakes) -> None:
        self.small_stake, self.big_stake = stakes.small, stakes.big

    @property
    def players(self) -> tuple[Player, Player]:
        """Seats 0 and 1: a game of Mille's two players."""
        return self.player0, self.player1

    @property
    def seated(self) -> list[Player]:
        """Every player of the game, in seat order (two or more)."""
        return [seat.player for seat in self.seats]

    @property
    def is_mille(self) -> bool:
        return self.kind == MILLE

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
        return self.players[seat] if seat < 2 else self.seats[seat].player


class GameSeat(Model):
    """A player's place at a game: seat 0 is the first player named. Every game has one
    row per player (Mille two, the others up to :data:`MAX_SEATS`)."""

    __table_args__ = (
        UniqueConstraint("game_id", "player_id", name="uq_game_seat_one_seat_each"),
        CheckConstraint(f"seat >= 0 AND seat < {MAX_SEATS}", name="seat"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(lazy="joined", innerjoin=True)


class Deal(Model):
    __table_args__ = (
        UniqueConstraint("game_id", "number", name="uq_deal_number"),
        CheckConstraint("out_seat IN (0, 1)", name="out_seat"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    # A deal of Mille: who went out, the two scores and stars (None for another kind)…
    out_seat: Mapped[int | None]
    score0: Mapped[int | None]
    score1: Mapped[int | None]
    stars0: Mapped[int] = mapped_column(default=0)
    stars1: Mapped[int] = mapped_column(default=0)
    #: … a deal of any other kind as its engine module reads it (``GameKind.read_deal``):
    #: the API's body, every default filled in (None for Mille).
    entry: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    #: The seat the deal paid, as its kind says (``engine.games.Line.winner``): who went
    #: out, the knock's winner, who took the pool; None for a dead or spoilt deal, and for
    #: every deal of Mille and Scotch Whist. Derived, kept for the standings' deals won.
    winner_seat: Mapped[int | None]
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
        """A deal of Mille's tally."""
        assert self.out_seat is not None
        assert self.score0 is not None
        assert self.score1 is not None
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


class Movement(Model):
    """Money a deal moved, or the end of a game did: a row of the game's ledger.

    From a seat, or the pool (None), to a seat or the pool, a positive amount and the
    engine's reason (``engine.games.Reason``). Derived from the deals by the engine and
    rewritten, from the first deal a change touches, on every change, with their sums per
    seat and in the pool kept on the game (``Game.balances``, ``Game.pool``); who owes whom
    is summed over these rows. ``deal_number`` is
    None for what moves when the game ends (a pool given back). A game of Mille moves its
    money once, by its settlement (``Game.amount_due``), and has no rows here.
    """

    __table_args__ = (
        CheckConstraint("amount > 0", name="amount"),
        Index("ix_movement_game_deal", "game_id", "deal_number"),
        # Who owes whom sums each unpaid game's ledger pair of seats by pair (balances.py):
        # the groups' order and every column the sum reads, so it walks this index alone.
        Index("ix_movement_ledger", "game_id", "payer_seat", "payee_seat", "deal_number", "amount"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    deal_number: Mapped[int | None]
    payer_seat: Mapped[int | None]
    payee_seat: Mapped[int | None]
    amount: Mapped[Cents]
    reason: Mapped[str] = mapped_column(String(16))


class SubmissionToken(Model):
    """A form's or request's one-time token: a retried save is recognised, not repeated."""

    token: Mapped[str] = mapped_column(String(100), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


@event.listens_for(Game, "before_update")
def _keep_played_at(_mapper: Mapper[Game], _connection: Connection, game: Game) -> None:
    """A game that finishes, or is in progress again, moves to when it was played."""
    game.played_at = game.finished_at or game.created_at
