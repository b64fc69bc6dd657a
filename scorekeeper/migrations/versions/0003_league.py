"""League history: seasons and payments (issue 4)

Seasons; the derived tables of the league pages (game_result, player_record,
season_record, pair_record); indexes for reading games newest first. Games
already played are added to the derived tables, so an upgraded install shows
its whole history.

Revision ID: 0003_league
Revises: 0002_accounts
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_league"
down_revision = "0002_accounts"
branch_labels = None
depends_on = None

RECORD_SUMS = (
    "played",
    "won",
    "net",
    "naturals",
    "chapeaux",
    "skunks_given",
    "skunks_taken",
    "margin_won",
    "deals",
    "points",
    "rating_start",
    "rating",
)


def _record_columns():
    return [sa.Column(name, sa.Integer(), nullable=False) for name in RECORD_SUMS]


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("ends_on >= starts_on", name=op.f("ck_season_season_dates")),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_season_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_season")),
        sa.UniqueConstraint("league_id", "name", name="uq_season_name"),
    )
    op.create_index(op.f("ix_season_league_id"), "season", ["league_id"], unique=False)

    op.create_table(
        "pair_record",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("net", sa.Integer(), nullable=False),
        sa.Column("unpaid_games", sa.Integer(), nullable=False),
        sa.Column("unpaid_won", sa.Integer(), nullable=False),
        sa.Column("unpaid_lost", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_pair_record_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"],
            ["player.id"],
            name=op.f("fk_pair_record_opponent_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_pair_record_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "opponent_id", name=op.f("pk_pair_record")),
    )
    op.create_index(op.f("ix_pair_record_league_id"), "pair_record", ["league_id"], unique=False)

    op.create_table(
        "player_record",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        *_record_columns(),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_player_record_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_player_record_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_player_record")),
    )
    op.create_index(
        op.f("ix_player_record_league_id"), "player_record", ["league_id"], unique=False
    )

    op.create_table(
        "season_record",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        *_record_columns(),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_season_record_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_season_record_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["season.id"],
            name=op.f("fk_season_record_season_id_season"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("season_id", "player_id", name=op.f("pk_season_record")),
    )
    op.create_index(
        op.f("ix_season_record_league_id"), "season_record", ["league_id"], unique=False
    )

    op.create_table(
        "game_result",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("opponent_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("net", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("opponent_total", sa.Integer(), nullable=False),
        sa.Column("margin", sa.Integer(), nullable=False),
        sa.Column("naturals", sa.Integer(), nullable=False),
        sa.Column("chapeaux", sa.Integer(), nullable=False),
        sa.Column("skunk_given", sa.Boolean(), nullable=False),
        sa.Column("skunk_taken", sa.Boolean(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("rating_before", sa.Integer(), nullable=False),
        sa.Column("rating_after", sa.Integer(), nullable=False),
        sa.Column("net_after", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["game.id"],
            name=op.f("fk_game_result_game_id_game"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_game_result_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["opponent_id"],
            ["player.id"],
            name=op.f("fk_game_result_opponent_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_game_result_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_game_result")),
    )
    op.create_index(
        "ix_game_result_league_order",
        "game_result",
        ["league_id", "finished_at", "game_id"],
        unique=False,
    )
    op.create_index("ix_game_result_player_net", "game_result", ["player_id", "net"], unique=False)
    op.create_index(
        "ix_game_result_player_number", "game_result", ["player_id", "number"], unique=False
    )
    op.create_index(
        "ix_game_result_player_order",
        "game_result",
        ["player_id", "finished_at", "game_id"],
        unique=False,
    )

    op.create_index("ix_game_league_newest", "game", ["league_id", "id"], unique=False)
    op.create_index("ix_game_league_paid", "game", ["league_id", "paid_at"], unique=False)
    op.create_index("ix_game_player0_newest", "game", ["player0_id", "id"], unique=False)
    op.create_index("ix_game_player1_newest", "game", ["player1_id", "id"], unique=False)
    op.create_index(
        "ix_game_pair_newest", "game", ["player0_id", "player1_id", "id"], unique=False
    )

    _derive_played_games()


def downgrade():
    op.drop_index("ix_game_pair_newest", table_name="game")
    op.drop_index("ix_game_player1_newest", table_name="game")
    op.drop_index("ix_game_player0_newest", table_name="game")
    op.drop_index("ix_game_league_paid", table_name="game")
    op.drop_index("ix_game_league_newest", table_name="game")
    op.drop_table("game_result")
    op.drop_table("season_record")
    op.drop_table("player_record")
    op.drop_table("pair_record")
    op.drop_table("season")


# The games played before this revision, added to the derived tables ----------------------

_game = sa.table(
    "game",
    *(
        sa.column(name, sa.Integer)
        for name in (
            "id",
            "league_id",
            "player0_id",
            "player1_id",
            "target",
            "total0",
            "total1",
            "stars0",
            "stars1",
            "chapeaux0",
            "chapeaux1",
            "winner_seat",
            "amount_due",
            "deal_count",
        )
    ),
    sa.column("status", sa.String),
    sa.column("finished_at", sa.DateTime),
)
_result_columns = [
    ("game_id", sa.Integer),
    ("player_id", sa.Integer),
    ("league_id", sa.Integer),
    ("opponent_id", sa.Integer),
    ("seat", sa.Integer),
    ("finished_at", sa.DateTime),
    ("won", sa.Boolean),
    ("net", sa.Integer),
    ("total", sa.Integer),
    ("opponent_total", sa.Integer),
    ("margin", sa.Integer),
    ("naturals", sa.Integer),
    ("chapeaux", sa.Integer),
    ("skunk_given", sa.Boolean),
    ("skunk_taken", sa.Boolean),
    ("deals", sa.Integer),
    ("number", sa.Integer),
    ("rating_before", sa.Integer),
    ("rating_after", sa.Integer),
    ("net_after", sa.Integer),
]
_game_result = sa.table("game_result", *(sa.column(n, t) for n, t in _result_columns))
_player_record = sa.table(
    "player_record",
    sa.column("player_id", sa.Integer),
    sa.column("league_id", sa.Integer),
    *(sa.column(name, sa.Integer) for name in RECORD_SUMS),
)


# The league rating of scorekeeper.engine.rating, frozen at this revision: Elo from 1500,
# K = 40 for a player's first 10 games and 20 after, whole points rounded after every game.
START = 1500
K_NEW = 40
K_ESTABLISHED = 20
NEW_PLAYER_GAMES = 10
SCALE = 400


def _new_ratings(winner, loser):
    """The winner's and the loser's ratings after a game; each is (rating, games before)."""
    (winner_rating, winner_games), (loser_rating, loser_games) = winner, loser
    surprise = 1 - 1 / (1 + 10 ** ((loser_rating - winner_rating) / SCALE))

    def k_factor(games):
        return K_NEW if games < NEW_PLAYER_GAMES else K_ESTABLISHED

    return (
        winner_rating + round(k_factor(winner_games) * surprise),
        loser_rating - round(k_factor(loser_games) * surprise),
    )


def _derive_played_games():
    """What scorekeeper.league_stats.rebuild_league does, frozen at this revision."""
    bind = op.get_bind()
    games = bind.execute(
        sa.select(_game)
        .where(_game.c.status == "finished")
        .order_by(_game.c.finished_at, _game.c.id)
    ).all()
    if not games:
        return
    running = {}  # player id: (games, rating, net so far)
    results, records = [], {}
    for g in games:
        totals, players, winner = (g.total0, g.total1), (g.player0_id, g.player1_id), g.winner_seat
        skunk = 2 * totals[1 - winner] < g.target
        seats = (winner, 1 - winner)
        before = [running.get(players[seat], (0, START, 0)) for seat in seats]
        ratings = _new_ratings((before[0][1], before[0][0]), (before[1][1], before[1][0]))
        for seat, was, rating in zip(seats, before, ratings):
            won = seat == winner
            net = g.amount_due if won else -g.amount_due
            running[players[seat]] = (was[0] + 1, rating, was[2] + net)
            row = {
                "game_id": g.id,
                "player_id": players[seat],
                "league_id": g.league_id,
                "opponent_id": players[1 - seat],
                "seat": seat,
                "finished_at": g.finished_at,
                "won": won,
                "net": net,
                "total": totals[seat],
                "opponent_total": totals[1 - seat],
                "margin": totals[seat] - totals[1 - seat],
                "naturals": (g.stars0, g.stars1)[seat],
                "chapeaux": (g.chapeaux0, g.chapeaux1)[seat],
                "skunk_given": won and skunk,
                "skunk_taken": not won and skunk,
                "deals": g.deal_count,
                "number": was[0] + 1,
                "rating_before": was[1],
                "rating_after": rating,
                "net_after": was[2] + net,
            }
            results.append(row)
            record = records.setdefault(
                players[seat],
                dict.fromkeys(RECORD_SUMS, 0)
                | {"player_id": players[seat], "league_id": g.league_id, "rating_start": START},
            )
            record["played"] += 1
            record["won"] += won
            record["net"] += net
            record["naturals"] += row["naturals"]
            record["chapeaux"] += row["chapeaux"]
            record["skunks_given"] += row["skunk_given"]
            record["skunks_taken"] += row["skunk_taken"]
            record["margin_won"] += row["margin"] if won else 0
            record["deals"] += row["deals"]
            record["points"] += row["total"]
            record["rating"] = rating
    op.bulk_insert(_game_result, results)
    op.bulk_insert(_player_record, list(records.values()))
    op.execute(
        "INSERT INTO pair_record (player_id, opponent_id, league_id, played, won, net, "
        "unpaid_games, unpaid_won, unpaid_lost) "
        "SELECT r.player_id, r.opponent_id, MIN(r.league_id), COUNT(*), "
        "SUM(CASE WHEN r.won THEN 1 ELSE 0 END), SUM(r.net), "
        "SUM(CASE WHEN g.paid_at IS NULL THEN 1 ELSE 0 END), "
        "SUM(CASE WHEN g.paid_at IS NULL AND r.won THEN r.net ELSE 0 END), "
        "SUM(CASE WHEN g.paid_at IS NULL AND NOT r.won THEN -r.net ELSE 0 END) "
        "FROM game_result r JOIN game g ON g.id = r.game_id "
        "GROUP BY r.player_id, r.opponent_id"
    )
