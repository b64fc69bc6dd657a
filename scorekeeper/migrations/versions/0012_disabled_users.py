"""A site administrator can disable an account, and undo it (issue 21, point 9)

``user.disabled_at``: when the account was disabled, NULL while it is in use. Disabling
ends the account's sessions and revokes its API tokens; its games, payments and history
stay. Every account is in use after the upgrade; the downgrade drops the column (a
disabled account is then in use again, with its sessions and tokens still ended).

Revision ID: 0012_disabled_users
Revises: 0015_seat_links
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_disabled_users"
down_revision = "0015_seat_links"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("user") as batch_op:
        batch_op.add_column(sa.Column("disabled_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("disabled_at")
