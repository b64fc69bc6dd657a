"""Times in the league's time zone (issue 24, point 10)

``league.time_zone``: the IANA name of the zone its pages show times in
("America/Toronto"); NULL, as every league is after the upgrade, shows them in the
server's zone. Times stay stored in UTC.

Revision ID: 0017_league_time_zone
Revises: 0016_abandoned_games
"""

import sqlalchemy as sa
from alembic import op

revision = "0017_league_time_zone"
down_revision = "0016_abandoned_games"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("league") as batch:
        batch.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table("league") as batch:
        batch.drop_column("time_zone")
