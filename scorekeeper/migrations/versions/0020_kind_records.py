"""The standings and ratings of the other games (issue 37)

``kind_result``: one player's result of one finished game of a kind other than Mille,
in that kind's order in the league, with the skill after it (OpenSkill, from the
finishing order); ``kind_record``: a player's results in one kind added up. Both are
derived, and start empty: an upgrade from 0.2.0 has no game of another kind yet (the app
fills them as games finish).

Revision ID: 0020_kind_records
Revises: 0019_seat_link_hardening
"""

import sqlalchemy as sa
from alembic import op

revision = "0020_kind_records"
down_revision = "0019_seat_link_hardening"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "kind_result",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("side", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=False),
        sa.Column("net", sa.BigInteger(), nullable=False),
        sa.Column("deals_won", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("points_for", sa.Integer(), nullable=False),
        sa.Column("points_against", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("skill_mu_after", sa.Integer(), nullable=False),
        sa.Column("skill_sigma_after", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_kind_result_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_kind_result_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_kind_result_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "player_id", name=op.f("pk_kind_result")),
    )
    op.create_index(
        "ix_kind_result_order", "kind_result", ["league_id", "kind", "finished_at", "game_id"]
    )
    op.create_index(
        "ix_kind_result_player", "kind_result", ["player_id", "kind", "finished_at", "game_id"]
    )
    op.create_table(
        "kind_record",
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("deals_won", sa.Integer(), nullable=False),
        sa.Column("money_won", sa.BigInteger(), nullable=False),
        sa.Column("money_lost", sa.BigInteger(), nullable=False),
        sa.Column("points_for", sa.Integer(), nullable=False),
        sa.Column("points_against", sa.Integer(), nullable=False),
        sa.Column("skill_mu", sa.Integer(), nullable=False),
        sa.Column("skill_sigma", sa.Integer(), nullable=False),
        sa.Column("last_played_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_kind_record_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
            name=op.f("fk_kind_record_player_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("league_id", "kind", "player_id", name=op.f("pk_kind_record")),
    )


def downgrade():
    op.drop_table("kind_record")
    op.drop_index("ix_kind_result_player", table_name="kind_result")
    op.drop_index("ix_kind_result_order", table_name="kind_result")
    op.drop_table("kind_result")
