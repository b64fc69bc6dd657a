"""A long sitting's balances summed from an index (issue 36's benchmark)

A game page of a sitting that runs to hundreds of deals sums what every deal before its
newest ten moved, pair of seats by pair of seats (``table/kind_card.py``). With only
``ix_movement_game_deal`` (game_id, deal_number), SQLite read every row and sorted them
into groups: 1.2 ms of the 12-player, 200-deal Continental page. ``ix_movement_ledger``
holds the rows in the groups' order with every column the sum reads, so the sum walks the
index alone: 0.5 ms.

Revision ID: 0026_movement_ledger_index
Revises: 0025_invitation_players
"""

from alembic import op

revision = "0026_movement_ledger_index"
down_revision = "0025_invitation_players"
branch_labels = None
depends_on = None

COLUMNS = ["game_id", "payer_seat", "payee_seat", "deal_number", "amount"]


def upgrade():
    op.create_index("ix_movement_ledger", "movement", COLUMNS)


def downgrade():
    op.drop_index("ix_movement_ledger", table_name="movement")
