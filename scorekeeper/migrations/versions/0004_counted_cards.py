"""Counted cards kept with a deal (issue 8)

Revision ID: 0004_counted_cards
Revises: 0003_league
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_counted_cards"
down_revision = "0003_league"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("deal") as batch_op:
        batch_op.add_column(sa.Column("cards", sa.JSON(none_as_null=True), nullable=True))


def downgrade():
    with op.batch_alter_table("deal") as batch_op:
        batch_op.drop_column("cards")
