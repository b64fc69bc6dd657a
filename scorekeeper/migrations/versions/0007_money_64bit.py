"""Money columns in 64 bits

A progressive game at high stakes can settle for more than 2³¹ cents
($21,474,836.47): PostgreSQL refused to store it ("integer out of range") and the
deal that ended the game failed. SQLite's integers were always 64 bits; there the
tables are copied with the new column types so the schema says what the models do.

Revision ID: 0007_money_64bit
Revises: 0006_perf
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_money_64bit"
down_revision = "0006_perf"
branch_labels = None
depends_on = None

MONEY_COLUMNS = {
    "game": ("small_stake", "big_stake", "amount_due"),
    "game_result": ("net", "net_after"),
    "player_record": ("net",),
    "season_record": ("net",),
    "pair_record": ("net", "unpaid_won", "unpaid_lost"),
}


def upgrade():
    _retype(sa.Integer(), sa.BigInteger())


def downgrade():
    _retype(sa.BigInteger(), sa.Integer())


def _retype(old, new):
    for table, columns in MONEY_COLUMNS.items():
        with op.batch_alter_table(table) as batch_op:
            for column in columns:
                batch_op.alter_column(column, existing_type=old, type_=new)
