"""An index for the head-to-head records kept up to date on every change (issue 7)

Revision ID: 0006_perf
Revises: 0005_api
"""

from alembic import op

revision = "0006_perf"
down_revision = "0005_api"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index(
        "ix_game_result_pair", "game_result", ["player_id", "opponent_id", "won", "net"]
    )


def downgrade():
    op.drop_index("ix_game_result_pair", table_name="game_result")
