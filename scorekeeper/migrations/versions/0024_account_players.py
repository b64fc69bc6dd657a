"""A member's own player in a league (issue 38, point 13)

``membership.player_id``: the player a member is in the league (a league admin says so), so
that their account page says how they are paid. NULL, as every membership is after the
upgrade, is no player; the player's removal (a merge) sets it back to NULL.

Revision ID: 0024_account_players
Revises: 0023_audit_league_action
"""

import sqlalchemy as sa
from alembic import op

revision = "0024_account_players"
down_revision = "0023_audit_league_action"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("membership") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_membership_player_id_player"), "player", ["player_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with op.batch_alter_table("membership") as batch:
        batch.drop_constraint(op.f("fk_membership_player_id_player"), type_="foreignkey")
        batch.drop_column("player_id")
