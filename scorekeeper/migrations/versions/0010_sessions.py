"""Sessions that end on the server, and sign-in attempts counted atomically (issue 16)

``user_session``: one row per signed-in browser; signing out deletes it, so a copied
cookie stops working. ``login_throttle``: one counter per key, incremented in one
statement, replaces ``login_failure`` (one row per failure, counted after the password
check, so concurrent guesses all passed). The failures it held are dropped: they
only ever mattered for 15 minutes. Everyone signed in is signed out once, as the
cookies' contents change.

Revision ID: 0010_sessions
Revises: 0009_names
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_sessions"
down_revision = "0009_names"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "user_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"],
            ["user.id"],
            name=op.f("fk_user_session_user_id_user"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_session")),
        sa.UniqueConstraint("key_hash", name=op.f("uq_user_session_key_hash")),
    )
    op.create_index(op.f("ix_user_session_user_id"), "user_session", ["user_id"])
    op.create_index(op.f("ix_user_session_expires_at"), "user_session", ["expires_at"])
    op.create_table(
        "login_throttle",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("window_start", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_throttle")),
        sa.UniqueConstraint("key", name=op.f("uq_login_throttle_key")),
    )
    op.create_index(op.f("ix_login_throttle_window_start"), "login_throttle", ["window_start"])
    op.drop_index(op.f("ix_login_failure_key"), table_name="login_failure")
    op.drop_index(op.f("ix_login_failure_created_at"), table_name="login_failure")
    op.drop_table("login_failure")


def downgrade():
    op.create_table(
        "login_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_failure")),
    )
    op.create_index(op.f("ix_login_failure_created_at"), "login_failure", ["created_at"])
    op.create_index(op.f("ix_login_failure_key"), "login_failure", ["key"])
    op.drop_index(op.f("ix_login_throttle_window_start"), table_name="login_throttle")
    op.drop_table("login_throttle")
    op.drop_index(op.f("ix_user_session_expires_at"), table_name="user_session")
    op.drop_index(op.f("ix_user_session_user_id"), table_name="user_session")
    op.drop_table("user_session")
