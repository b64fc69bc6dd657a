"""A league's currency (issue 37)

``league.currency``: the ISO 4217 code of the currency its pages write amounts in
("EUR"). NULL, as every league is after the upgrade, is Canadian dollars, as every
amount was written before; NULL rather than a server default of 'CAD' so that the
upgrade writes no row, a backup's league row from before it restores as it was, and
the default stays the app's to say. Amounts stay stored in cents: only their writing
changes.

Revision ID: 0021_league_currency
Revises: 0020_kind_records
"""

import sqlalchemy as sa
from alembic import op

revision = "0021_league_currency"
down_revision = "0020_kind_records"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("currency", sa.String(length=3), nullable=True))


def downgrade():
    with op.batch_alter_table("league") as batch:
        batch.drop_column("currency")
