"""People join a league by invitation; rounds started from "Tonight" (issue 25)

``invitation``: a single-use link with a role, open for 7 days, withdrawn at will; only
the token's SHA-256 is kept. ``league_round``: the rounds of games started together
from a league's "Tonight" page, kept for who sat each out (the next odd player out is
whoever has sat out least recently); ``token`` is the form's one-time token, so a
double tap starts one round.

Revision ID: 0013_invitations
Revises: 0011_audit_values
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_invitations"
down_revision = "0011_audit_values"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "invitation",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=True),
        sa.Column("used_by_id", sa.Integer(), nullable=True),
        sa.Column("withdrawn_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_invitation_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["created_by_id"],
            ["user.id"],
            name=op.f("fk_invitation_created_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["used_by_id"],
            ["user.id"],
            name=op.f("fk_invitation_used_by_id_user"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_invitation")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_invitation_token_hash")),
    )
    op.create_index(op.f("ix_invitation_league_id"), "invitation", ["league_id"])
    op.create_table(
        "league_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("league_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sitting_out_id", sa.Integer(), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["league_id"],
            ["league.id"],
            name=op.f("fk_league_round_league_id_league"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["sitting_out_id"],
            ["player.id"],
            name=op.f("fk_league_round_sitting_out_id_player"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_league_round")),
        sa.UniqueConstraint("token", name=op.f("uq_league_round_token")),
    )
    op.create_index(op.f("ix_league_round_league_id"), "league_round", ["league_id"])
    op.create_index(op.f("ix_league_round_sitting_out_id"), "league_round", ["sitting_out_id"])


def downgrade():
    op.drop_index(op.f("ix_league_round_sitting_out_id"), table_name="league_round")
    op.drop_index(op.f("ix_league_round_league_id"), table_name="league_round")
    op.drop_table("league_round")
    op.drop_index(op.f("ix_invitation_league_id"), table_name="invitation")
    op.drop_table("invitation")
