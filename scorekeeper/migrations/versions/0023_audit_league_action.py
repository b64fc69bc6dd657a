"""A league's changes of one action read by an index (issues 36 and 37's benchmarks)

A player's page reads the league's renames and merges, and the changes of where the player
is paid: ``audit_event`` rows of one league and one action. The index on ``league_id``
alone made each read walk every event of the league (every deal it ever recorded: a
second at 20,000 games). ``ix_audit_event_league_action`` (league_id, action) replaces
it; it serves a read by league alone as well.

Revision ID: 0023_audit_league_action
Revises: 0022_settled_payments
"""

from alembic import op

revision = "0023_audit_league_action"
down_revision = "0022_settled_payments"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_audit_event_league_action", "audit_event", ["league_id", "action"])
    op.drop_index("ix_audit_event_league_id", table_name="audit_event")


def downgrade():
    op.create_index("ix_audit_event_league_id", "audit_event", ["league_id"])
    op.drop_index("ix_audit_event_league_action", table_name="audit_event")
