"""A night settled up in the fewest payments, each payment ticked as paid (issue 37)

``settled_payment``: a payment of the plan that settles a set of games, ticked as made:
who paid whom how much, for which games, when and by whom it was ticked. New, empty.

Revision ID: 0022_settled_payments
Revises: 0021_league_currency
"""

import sqlalchemy as sa
from alembic import op

revision = "0022_settled_payments"
down_revision = "0021_league_currency"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "settled_payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("games", sa.String(length=2000), nullable=False),
        sa.Column("payer_id", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("paid_at", sa.DateTime(), nullable=False),
        sa.Column("paid_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_settled_payment_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"],
            ["player.id"],
            name=op.f("fk_settled_payment_payer_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["payee_id"],
            ["player.id"],
            name=op.f("fk_settled_payment_payee_id_player"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["paid_by_id"],
            ["user.id"],
            name=op.f("fk_settled_payment_paid_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_settled_payment")),
        sa.UniqueConstraint(
            "league_id", "games", "payer_id", "payee_id", name="uq_settled_payment"
        ),
    )
    op.create_index(op.f("ix_settled_payment_league_id"), "settled_payment", ["league_id"])


def downgrade():
    op.drop_index(op.f("ix_settled_payment_league_id"), table_name="settled_payment")
    op.drop_table("settled_payment")
