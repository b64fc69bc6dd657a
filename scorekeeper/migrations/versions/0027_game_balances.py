"""Each seat's balance and the pool kept on the game (issue 36's benchmark)

A game page of a sitting that runs to hundreds of deals showed its newest ten deals, and
first summed what every deal before them moved (the 12-player, 200-deal Continental page:
2,000 ledger rows a request). ``game.balances`` (each seat's, in seat order) and
``game.pool`` keep those sums as the game stands, refreshed with the ledger on every
change, as Mille's totals are kept on its game; the page takes its newest deals back from
them.

Both are filled here from each game's ledger, so nothing a page or the API shows changes.
A game of Mille (no setup, no ledger) keeps none: NULL and 0.

Revision ID: 0027_game_balances
Revises: 0026_movement_ledger_index
"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0027_game_balances"
down_revision = "0026_movement_ledger_index"
branch_labels = None
depends_on = None

#: Games filled per UPDATE.
BATCH = 1000


def upgrade():
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("balances", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("pool", sa.BigInteger(), nullable=False, server_default="0"))
    connection = op.get_bind()
    seats = dict(
        connection.execute(
            sa.text(
                "SELECT game_seat.game_id, COUNT(*) FROM game_seat"
                " JOIN game ON game.id = game_seat.game_id"
                " WHERE game.setup IS NOT NULL GROUP BY game_seat.game_id"
            )
        ).all()
    )
    balances = {game_id: [0] * count for game_id, count in seats.items()}
    pools = defaultdict(int)
    moved = connection.execute(
        sa.text(
            "SELECT game_id, payer_seat, payee_seat, SUM(amount) FROM movement"
            " GROUP BY game_id, payer_seat, payee_seat"
        )
    )
    for game_id, payer, payee, amount in moved:
        for seat, sign in ((payer, -1), (payee, 1)):
            if seat is None:
                pools[game_id] += sign * int(amount)
            else:
                balances[game_id][seat] += sign * int(amount)
    game = sa.table(
        "game", sa.column("id", sa.Integer), sa.column("balances", sa.JSON), sa.column("pool")
    )
    update = (
        game.update()
        .where(game.c.id == sa.bindparam("game_id"))
        .values(balances=sa.bindparam("now"), pool=sa.bindparam("held"))
    )
    rows = [
        {"game_id": game_id, "now": now, "held": pools[game_id]}
        for game_id, now in balances.items()
    ]
    for start in range(0, len(rows), BATCH):
        connection.execute(update, rows[start : start + BATCH])


def downgrade():
    with op.batch_alter_table("game") as batch:
        batch.drop_column("pool")
        batch.drop_column("balances")
