"""The other side of the table: seat links, agreements and payment handles (issue 23)

``seat_link``: a link that opens one seat of one game on any phone (a capability: only the
token's SHA-256 is kept), revoked at will, gone with its game. ``game.agreement_count``:
how many agreements with the card were given (each is an audit event), so an open page
sees a new one by the card's ETag. ``player.payment_kind`` and ``payment_handle``: where a
player is paid (an Interac e-Transfer e-mail or phone number, or a PayPal.me name).

Revision ID: 0015_seat_links
Revises: 0014_rating_uncertainty
"""

import sqlalchemy as sa
from alembic import op

revision = "0015_seat_links"
down_revision = "0014_rating_uncertainty"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "seat_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.CheckConstraint("seat IN (0, 1)", name=op.f("ck_seat_link_seat")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_seat_link_game_id_game"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["user.id"],
            name=op.f("fk_seat_link_created_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_link")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_seat_link_token_hash")),
    )
    op.create_index(op.f("ix_seat_link_game_id"), "seat_link", ["game_id"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(
            sa.Column("agreement_count", sa.Integer(), nullable=False, server_default="0")
        )
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("payment_kind", sa.String(length=10), nullable=True))
        batch.add_column(sa.Column("payment_handle", sa.String(length=254), nullable=True))


def downgrade():
    with op.batch_alter_table("player") as batch:
        batch.drop_column("payment_handle")
        batch.drop_column("payment_kind")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("agreement_count")
    op.drop_index(op.f("ix_seat_link_game_id"), table_name="seat_link")
    op.drop_table("seat_link")
