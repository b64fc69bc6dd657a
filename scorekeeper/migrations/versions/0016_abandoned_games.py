"""A scorekeeper can abandon a game, and a league admin restore it (issue 24, point 4)

``game.abandoned_at``: when the game was abandoned, NULL for a game that counts;
``game.abandoned_by_id``: who abandoned it (NULL once that account is deleted). An
abandoned game keeps its deals and derived columns, so restoring it is clearing both.
Every game counts after the upgrade. The downgrade drops the columns, so a game
abandoned by then is an ordinary game again; the league records still leave it out
until they are rebuilt (``records.results.rebuild_league``).

Revision ID: 0016_abandoned_games
Revises: 0012_disabled_users
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_abandoned_games"
down_revision = "0012_disabled_users"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("abandoned_at", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("abandoned_by_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_game_abandoned_by_id_user"),
            "user",
            ["abandoned_by_id"],
            ["id"],
            ondelete="SET NULL",
        )


def downgrade():
    with op.batch_alter_table("game") as batch:
        batch.drop_constraint(batch.f("fk_game_abandoned_by_id_user"), type_="foreignkey")
        batch.drop_column("abandoned_by_id")
        batch.drop_column("abandoned_at")
