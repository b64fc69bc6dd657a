"""When each game was played, to list games newest first by it (issue 13)

"Newest first" was by id, so an imported game of last year showed above this week's.
A game was played when it finished, else when it started: ``played_at`` keeps that
(set by the models on every insert and change). The indexes that read games in id
order for those lists (a league's, each seat of a player's, a pair's) read them in
(played_at, id) order instead, so a keyset page is still one index range.

Revision ID: 0008_played_order
Revises: 0007_money_64bit
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_played_order"
down_revision = "0007_money_64bit"
branch_labels = None
depends_on = None

#: The id-ordered indexes replaced, and the played-ordered ones that replace them.
OLD = {
    "ix_game_league_newest": ["league_id", "id"],
    "ix_game_player0_newest": ["player0_id", "id"],
    "ix_game_player1_newest": ["player1_id", "id"],
}
NEW = {
    "ix_game_league_played": ["league_id", "played_at", "id"],
    "ix_game_player0_played": ["player0_id", "played_at", "id"],
    "ix_game_player1_played": ["player1_id", "played_at", "id"],
    "ix_game_pair_played": ["player0_id", "player1_id", "played_at", "id"],
}


def upgrade():
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(sa.Column("played_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE game SET played_at = coalesce(finished_at, created_at)")
    with op.batch_alter_table("game") as batch_op:
        batch_op.alter_column("played_at", existing_type=sa.DateTime(), nullable=False)
        for name in OLD:
            batch_op.drop_index(name)
        for name, columns in NEW.items():
            batch_op.create_index(name, columns)


def downgrade():
    with op.batch_alter_table("game") as batch_op:
        for name in NEW:
            batch_op.drop_index(name)
        for name, columns in OLD.items():
            batch_op.create_index(name, columns)
        batch_op.drop_column("played_at")
