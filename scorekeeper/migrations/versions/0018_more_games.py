"""The table's other games (issue 35): a game's kind, its seats, other kinds' setups and
entries, and the money each deal moves

``game.kind``: which game it is, "mille" for every game there is. ``game.setup``: a game
of another kind's rules and stakes (JSON); Mille's rule and stake columns become
nullable, for those games. ``game_seat``: every player of a game in seat order, filled
from ``player0_id`` and ``player1_id`` for every existing game. ``deal.entry``: a deal of
another kind (JSON), and ``deal.winner_seat`` the seat it paid; Mille's deal columns become
nullable. ``movement``: the money each
deal of another kind moves, from a seat or the pool to a seat or the pool. A seat may be
any of twelve: the checks on ``first_dealer`` and on a seat link's ``seat`` widen.

Nothing of an existing game changes: every one is Mille, with its columns as they were.

Revision ID: 0018_more_games
Revises: 0017_league_time_zone
"""

import sqlalchemy as sa
from alembic import op

revision = "0018_more_games"
down_revision = "0017_league_time_zone"
branch_labels = None
depends_on = None

MILLE_GAME_COLUMNS = (
    ("target", sa.Integer()),
    ("progressive", sa.Boolean()),
    ("natural_needed", sa.Boolean()),
    ("skunk", sa.String(length=10)),
    ("difference", sa.String(length=10)),
    ("small_stake", sa.BigInteger()),
    ("big_stake", sa.BigInteger()),
)
MILLE_DEAL_COLUMNS = (("out_seat", sa.Integer()), ("score0", sa.Integer()), ("score1", sa.Integer()))


def upgrade():
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column("kind", sa.String(length=20), nullable=False, server_default="mille")
        )
        batch.add_column(sa.Column("setup", sa.JSON(), nullable=True))
        for name, type_ in MILLE_GAME_COLUMNS:
            batch.alter_column(name, existing_type=type_, nullable=True)
        batch.drop_constraint(op.f("ck_game_first_dealer_seat"), type_="check")
        batch.create_check_constraint(
            op.f("ck_game_first_dealer"), "first_dealer >= 0 AND first_dealer < 12"
        )
    with op.batch_alter_table("deal") as batch:
        batch.add_column(sa.Column("entry", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("winner_seat", sa.Integer(), nullable=True))
        for name, type_ in MILLE_DEAL_COLUMNS:
            batch.alter_column(name, existing_type=type_, nullable=True)
    with op.batch_alter_table("seat_link") as batch:
        batch.drop_constraint(op.f("ck_seat_link_seat"), type_="check")
        batch.create_check_constraint(op.f("ck_seat_link_seat"), "seat >= 0 AND seat < 12")
    op.create_table(
        "game_seat",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.CheckConstraint("seat >= 0 AND seat < 12", name=op.f("ck_game_seat_seat")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_game_seat_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_game_seat_player_id_player")
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_seat")),
        sa.UniqueConstraint("game_id", "player_id", name=op.f("uq_game_seat_one_seat_each")),
    )
    op.create_index(op.f("ix_game_seat_player_id"), "game_seat", ["player_id"])
    op.execute(
        "INSERT INTO game_seat (game_id, seat, player_id) "
        "SELECT id, 0, player0_id FROM game UNION ALL SELECT id, 1, player1_id FROM game"
    )
    op.create_table(
        "movement",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("deal_number", sa.Integer(), nullable=True),
        sa.Column("payer_seat", sa.Integer(), nullable=True),
        sa.Column("payee_seat", sa.Integer(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(length=16), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_movement_amount")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_movement_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_movement")),
    )
    op.create_index("ix_movement_game_deal", "movement", ["game_id", "deal_number"])


def downgrade():
    """Back to Mille alone: only possible while every game is one of Mille."""
    others = op.get_bind().execute(sa.text("SELECT count(*) FROM game WHERE kind <> 'mille'"))
    if others.scalar():
        raise RuntimeError(
            "Games of other kinds than Mille are kept: the schema can't go back to before "
            "there were any. Delete them first, or restore a backup of that time."
        )
    op.drop_index("ix_movement_game_deal", table_name="movement")
    op.drop_table("movement")
    op.drop_index(op.f("ix_game_seat_player_id"), table_name="game_seat")
    op.drop_table("game_seat")
    with op.batch_alter_table("seat_link") as batch:
        batch.drop_constraint(op.f("ck_seat_link_seat"), type_="check")
        batch.create_check_constraint(op.f("ck_seat_link_seat"), "seat IN (0, 1)")
    with op.batch_alter_table("deal") as batch:
        for name, type_ in MILLE_DEAL_COLUMNS:
            batch.alter_column(name, existing_type=type_, nullable=False)
        batch.drop_column("winner_seat")
        batch.drop_column("entry")
    with op.batch_alter_table("game") as batch:
        batch.drop_constraint(op.f("ck_game_first_dealer"), type_="check")
        batch.create_check_constraint(op.f("ck_game_first_dealer_seat"), "first_dealer IN (0, 1)")
        for name, type_ in MILLE_GAME_COLUMNS:
            batch.alter_column(name, existing_type=type_, nullable=False)
        batch.drop_column("setup")
        batch.drop_column("kind")
