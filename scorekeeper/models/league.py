"""A league's history: seasons, and the tables derived from its finished games.

:class:`GameResult` holds one row per player per finished game; the records
(:class:`PlayerRecord` for all time, :class:`SeasonRecord` per season,
:class:`PairRecord` per opponent) add those rows up. All of them are derived,
kept up to date by :mod:`scorekeeper.records.results` in the same transaction as
every change to a game or its payment, so a league page reads a few rows instead of replaying
or re-adding its history.
"""

from datetime import date, datetime

from sqlalchemy import CheckConstraint, Date, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.engine.rating import START

from .base import Cents, Model, utcnow
from .table import Game

#: OpenSkill's starting mean and uncertainty, in thousandths (``records.skill.FIRST``;
#: a test checks they agree): the skill a result row starts with before it is rated.
SKILL_START_MU = 25000
SKILL_START_SIGMA = 8333


class Season(Model):
    """A named stretch of dates (UTC days, both included) that standings can be read for."""

    __table_args__ = (
        UniqueConstraint("league_id", "name", name="uq_season_name"),
        CheckConstraint("ends_on >= starts_on", name="season_dates"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(60))
    starts_on: Mapped[date] = mapped_column(Date)
    ends_on: Mapped[date] = mapped_column(Date)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameResult(Model):
    """One player's side of one finished game, in the league's game order.

    Game order is ``(finished_at, game_id)``. ``number``, the ratings and
    ``net_after`` depend on every earlier game of the player, so a change to
    a game renumbers and re-rates everything after it.
    """

    __table_args__ = (
        Index("ix_game_result_league_order", "league_id", "finished_at", "game_id"),
        Index("ix_game_result_player_order", "player_id", "finished_at", "game_id"),
        Index("ix_game_result_player_number", "player_id", "number"),
        Index("ix_game_result_player_net", "player_id", "net"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    opponent_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    seat: Mapped[int]
    finished_at: Mapped[datetime]
    won: Mapped[bool]
    #: Cents: the amount the loser pays, positive for the winner and negative for the loser.
    net: Mapped[Cents]
    total: Mapped[int]
    opponent_total: Mapped[int]
    #: This player's total minus the opponent's (the winner's can be below 0 when a
    #: natural is needed to win).
    margin: Mapped[int]
    naturals: Mapped[int]  # stars this player collected
    chapeaux: Mapped[int]  # chapeaux this player suffered
    skunk_given: Mapped[bool]
    skunk_taken: Mapped[bool]
    deals: Mapped[int]
    # Running values, in game order.
    number: Mapped[int] = mapped_column(default=0)  # this player's 1st, 2nd … finished game
    rating_before: Mapped[int] = mapped_column(default=START)
    rating_after: Mapped[int] = mapped_column(default=START)
    net_after: Mapped[Cents] = mapped_column(default=0)  # won minus lost so far
    #: OpenSkill's skill after the game (``records.skill``), in thousandths: its mean and
    #: its uncertainty (one standard deviation), widened first for the time away.
    skill_mu_after: Mapped[int] = mapped_column(default=SKILL_START_MU)
    skill_sigma_after: Mapped[int] = mapped_column(default=SKILL_START_SIGMA)


class KindResult(Model):
    """One player's result of one finished game of a kind other than Mille (whose results
    are :class:`GameResult`), in the order of that kind's games in the league.

    Game order is ``(finished_at, game_id)``; ``number`` and the skill after it depend on
    the player's earlier games of the kind, so a change to a game re-rates every later
    one of its kind (:mod:`scorekeeper.records.kind_records`).
    """

    __table_args__ = (
        Index("ix_kind_result_order", "league_id", "kind", "finished_at", "game_id"),
        Index("ix_kind_result_player", "player_id", "kind", "finished_at", "game_id"),
    )

    game_id: Mapped[int] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20))
    seat: Mapped[int]
    #: The side the seat played on (its seat, or Scotch Whist's pair): rated together.
    side: Mapped[int]
    finished_at: Mapped[datetime]
    #: Money received minus paid over the game, in cents.
    net: Mapped[Cents]
    deals_won: Mapped[int]
    #: 1 for the best; sides that finish level share it (engine.games.outcome).
    place: Mapped[int]
    won: Mapped[bool]
    points_for: Mapped[int]
    points_against: Mapped[int]
    # Running values, in the kind's game order.
    number: Mapped[int] = mapped_column(default=0)
    skill_mu_after: Mapped[int] = mapped_column(default=SKILL_START_MU)
    skill_sigma_after: Mapped[int] = mapped_column(default=SKILL_START_SIGMA)


class KindRecord(Model):
    """A player's record in one kind of game, over all time: :class:`KindResult` added up,
    and the skill after the last game counted (the standings of that game read it)."""

    league_id: Mapped[int] = mapped_column(
        ForeignKey("league.id", ondelete="CASCADE"), primary_key=True
    )
    kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    played: Mapped[int]
    won: Mapped[int]
    deals_won: Mapped[int]
    money_won: Mapped[Cents]  # the nets of the games that ended above 0, added up
    money_lost: Mapped[Cents]  # those below 0, as a positive amount
    points_for: Mapped[int]
    points_against: Mapped[int]
    skill_mu: Mapped[int]
    skill_sigma: Mapped[int]
    last_played_at: Mapped[datetime]

    @property
    def net(self) -> int:
        return self.money_won - self.money_lost


class SettledPayment(Model):
    """One payment of a night settled up, ticked as paid (issue 37): the fewest payments
    that settle a set of games are worked out anew from the games; what is kept is which of
    them were made, by whom and when. ``games`` names the set (its ids, sorted, joined
    with commas): a tick counts for that set, and for that payment, alone."""

    __table_args__ = (
        UniqueConstraint("league_id", "games", "payer_id", "payee_id", name="uq_settled_payment"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    games: Mapped[str] = mapped_column(String(2000))
    payer_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    payee_id: Mapped[int] = mapped_column(ForeignKey("player.id", ondelete="CASCADE"))
    amount: Mapped[Cents]
    paid_at: Mapped[datetime] = mapped_column(default=utcnow)
    paid_by_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))


class LeagueRound(Model):
    """A round of games started together from "Tonight", kept for who sat it out: the next
    odd player out is whoever has sat out least recently (:mod:`..league.pairing`)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sitting_out_id: Mapped[int | None] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), index=True
    )
    #: The one-time token of the form that started it: a double tap starts one round.
    token: Mapped[str] = mapped_column(String(64), unique=True)


class RecordColumns:
    """What a record adds up over a player's finished games."""

    played: Mapped[int]
    won: Mapped[int]
    net: Mapped[Cents]
    naturals: Mapped[int]
    chapeaux: Mapped[int]
    skunks_given: Mapped[int]
    skunks_taken: Mapped[int]
    margin_won: Mapped[int]  # the sum of the winning margins
    deals: Mapped[int]
    points: Mapped[int]  # the sum of the player's final totals
    rating_start: Mapped[int]  # before the first game counted
    rating: Mapped[int]  # after the last game counted
    # How sure that rating is: OpenSkill's skill after the last game counted, in
    # thousandths; the player's games in the league up to it and when it ended (a rating
    # is provisional with few games or after long away: ``records.skill.provisional``).
    skill_mu: Mapped[int]
    skill_sigma: Mapped[int]
    career_games: Mapped[int]
    last_played_at: Mapped[datetime]


class PlayerRecord(RecordColumns, Model):
    """A player's record over all time."""

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)


class SeasonRecord(RecordColumns, Model):
    """A player's record over one season."""

    season_id: Mapped[int] = mapped_column(
        ForeignKey("season.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)


class PairRecord(Model):
    """A player's record against one opponent (both directions are stored), and what
    is still unpaid between them: who owes whom is read from here."""

    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    opponent_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    league_id: Mapped[int] = mapped_column(ForeignKey("league.id", ondelete="CASCADE"), index=True)
    played: Mapped[int]
    won: Mapped[int]
    net: Mapped[Cents]  # from the player's side
    unpaid_games: Mapped[int]  # finished games not marked paid yet
    unpaid_won: Mapped[Cents]  # the opponent owes the player for those games
    unpaid_lost: Mapped[Cents]  # the player owes the opponent for them


# The league pages read games newest first (keyset on when they were played, then id),
# per league, per player and per pair of players; these indexes make each a range scan in
# that order. A pair's unpaid games are read in id order; payments by when they were paid.
Index("ix_game_league_played", Game.league_id, Game.played_at, Game.id)
Index("ix_game_player0_played", Game.player0_id, Game.played_at, Game.id)
Index("ix_game_player1_played", Game.player1_id, Game.played_at, Game.id)
Index("ix_game_pair_played", Game.player0_id, Game.player1_id, Game.played_at, Game.id)
Index("ix_game_pair_newest", Game.player0_id, Game.player1_id, Game.id)
Index("ix_game_league_paid", Game.league_id, Game.paid_at)
# A change to a game re-adds its pair's head-to-head record (records.totals.refresh_pairs)
# from the pair's results, read from this index alone, however long their history.
Index(
    "ix_game_result_pair",
    GameResult.player_id,
    GameResult.opponent_id,
    GameResult.won,
    GameResult.net,
)
