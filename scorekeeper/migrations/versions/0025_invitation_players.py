"""An invitation made for a player (issue 38, point 13)

``invitation.player_id``: the player whoever joins by the invitation is in the league, so
that their account page says how they are paid. NULL, as every invitation is after the
upgrade, is no player; the player's removal (a merge) sets it back to NULL.

Revision ID: 0025_invitation_players
Revises: 0024_account_players
"""

import sqlalchemy as sa
from alembic import op

revision = "0025_invitation_players"
down_revision = "0024_account_players"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("invitation") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            op.f("fk_invitation_player_id_player"), "player", ["player_id"], ["id"], ondelete="SET NULL"
        )


def downgrade():
    with op.batch_alter_table("invitation") as batch:
        batch.drop_constraint(op.f("fk_invitation_player_id_player"), type_="foreignkey")
        batch.drop_column("player_id")
