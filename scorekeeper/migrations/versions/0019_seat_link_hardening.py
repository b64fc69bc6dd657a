"""A seat link's read-only receipt (issue 34, point 2)

``seat_link.receipt_hash``: the SHA-256 of the link's receipt token, which opens that
game's receipt and nothing else (it can't agree, nor say how a player is paid). The token
is derived from the link's own token, so it is never stored; a link made before this
revision gets its hash the first time its page is opened.

Revision ID: 0019_seat_link_hardening
Revises: 0018_more_games
"""

import sqlalchemy as sa
from alembic import op

revision = "0019_seat_link_hardening"
down_revision = "0018_more_games"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("seat_link") as batch:
        batch.add_column(sa.Column("receipt_hash", sa.String(length=64), nullable=True))
        batch.create_unique_constraint(op.f("uq_seat_link_receipt_hash"), ["receipt_hash"])


def downgrade():
    with op.batch_alter_table("seat_link") as batch:
        batch.drop_constraint(op.f("uq_seat_link_receipt_hash"), type_="unique")
        batch.drop_column("receipt_hash")
