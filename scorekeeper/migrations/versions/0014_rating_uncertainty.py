"""How sure a rating is: OpenSkill's skill beside the Elo rating (issue 25)

Every result keeps the player's skill after the game (``skill_mu_after``,
``skill_sigma_after``: OpenSkill's Bradley-Terry mean and uncertainty, in thousandths),
walked in game order as the Elo rating is. Every record (all time, and per season) keeps
what its last result leaves: the skill, the player's games in the league up to it
(``career_games``) and when it ended (``last_played_at``): a rating is provisional with
few games or after a long time away.

The skills of the games already played are worked out here, by the rules of
``scorekeeper.records.skill`` frozen at this revision (the model's parameters written
out, so a later openskill's defaults change nothing here), in batches of results in game
order. The downgrade drops the columns.

Revision ID: 0014_rating_uncertainty
Revises: 0013_invitations
"""

import math
from datetime import datetime, time, timedelta

import sqlalchemy as sa
from alembic import op
from openskill.models import BradleyTerryFull

revision = "0014_rating_uncertainty"
down_revision = "0013_invitations"
branch_labels = None
depends_on = None

#: Results read at a time (a benchmark league has millions).
BATCH = 5000

# scorekeeper.records.skill, frozen at this revision.
MODEL = BradleyTerryFull(mu=25.0, sigma=25 / 3, beta=25 / 3, kappa=0.0001, tau=25 / 300)
STORED = 1000
START_MU = 25000
START_SIGMA = 8333
AWAY_PER_DAY = 0.42


def _away(skill, days):
    mu, sigma = skill
    if days <= 0:
        return skill
    wider = math.sqrt((sigma / STORED) ** 2 + AWAY_PER_DAY**2 * days) * STORED
    return mu, min(START_SIGMA, round(wider))


def _days_between(earlier, later):
    if earlier is None:
        return 0.0
    return max(0.0, (later - earlier).total_seconds() / 86400)


def _after_game(winner, loser):
    rated = MODEL.rate(
        [[MODEL.rating(mu=mu / STORED, sigma=sigma / STORED)] for mu, sigma in (winner, loser)],
        ranks=[0, 1],
    )
    return [(round(team[0].mu * STORED), round(team[0].sigma * STORED)) for team in rated]


_result = sa.table(
    "game_result",
    sa.column("game_id", sa.Integer),
    sa.column("player_id", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("finished_at", sa.DateTime),
    sa.column("won", sa.Boolean),
    sa.column("number", sa.Integer),
    sa.column("skill_mu_after", sa.Integer),
    sa.column("skill_sigma_after", sa.Integer),
)
_RECORDS = ("player_record", "season_record")
_RECORD_COLUMNS = {
    "skill_mu": sa.Integer(),
    "skill_sigma": sa.Integer(),
    "career_games": sa.Integer(),
    "last_played_at": sa.DateTime(),
}


def _rate_results():
    """Every result's skill, in game order: each player's widened for their time away."""
    connection = op.get_bind()
    r = _result.c
    change = (
        _result.update()
        .where(r.game_id == sa.bindparam("g"), r.player_id == sa.bindparam("p"))
        .values(skill_mu_after=sa.bindparam("mu"), skill_sigma_after=sa.bindparam("sigma"))
    )
    running = {}  # player id: (skill, when their last game ended)
    last = None
    while True:
        query = sa.select(r.game_id, r.player_id, r.finished_at, r.won)
        if last is not None:
            query = query.where(sa.tuple_(r.finished_at, r.game_id) > sa.tuple_(*last))
        rows = connection.execute(
            query.order_by(r.finished_at, r.game_id, r.seat).limit(BATCH)
        ).all()
        if len(rows) == BATCH and rows[-1].game_id != rows[-2].game_id:
            rows.pop()  # half a game (never, with two rows a game and BATCH even): next batch
        if not rows:
            return
        changes = []
        for first, second in zip(rows[::2], rows[1::2]):
            winner, loser = (first, second) if first.won else (second, first)
            when = winner.finished_at
            before = []
            for row in (winner, loser):
                skill, then = running.get(row.player_id, ((START_MU, START_SIGMA), None))
                before.append(_away(skill, _days_between(then, when)))
            for row, (mu, sigma) in zip((winner, loser), _after_game(*before)):
                running[row.player_id] = ((mu, sigma), when)
                changes.append({"g": row.game_id, "p": row.player_id, "mu": mu, "sigma": sigma})
        connection.execute(change, changes)
        last = (rows[-1].finished_at, rows[-1].game_id)


def _fill_records():
    """Each record takes what its last result leaves: all time, the player's last result;
    in a season, their last result in it (by the season's dates, UTC days both included)."""
    connection = op.get_bind()
    connection.execute(sa.text("UPDATE player_record SET career_games = played"))
    season = sa.table(
        "season",
        sa.column("id", sa.Integer),
        sa.column("starts_on", sa.Date),
        sa.column("ends_on", sa.Date),
    )
    for season_id, starts_on, ends_on in connection.execute(sa.select(season)).all():
        connection.execute(
            sa.text(
                "UPDATE season_record SET career_games = (SELECT max(r.number) FROM game_result r"
                " WHERE r.player_id = season_record.player_id"
                " AND r.finished_at >= :start AND r.finished_at < :end)"
                " WHERE season_id = :season"
            ),
            {
                "start": datetime.combine(starts_on, time()),
                "end": datetime.combine(ends_on + timedelta(days=1), time()),
                "season": season_id,
            },
        )
    for table in _RECORDS:
        picked = {
            "skill_mu": "skill_mu_after",
            "skill_sigma": "skill_sigma_after",
            "last_played_at": "finished_at",
        }
        sets = ", ".join(
            f"{name} = (SELECT r.{column} FROM game_result r"
            f" WHERE r.player_id = {table}.player_id AND r.number = {table}.career_games)"
            for name, column in picked.items()
        )
        connection.execute(sa.text(f"UPDATE {table} SET {sets}"))


def upgrade():
    with op.batch_alter_table("game_result") as batch_op:
        batch_op.add_column(
            sa.Column("skill_mu_after", sa.Integer(), nullable=False, server_default=str(START_MU))
        )
        batch_op.add_column(
            sa.Column(
                "skill_sigma_after", sa.Integer(), nullable=False, server_default=str(START_SIGMA)
            )
        )
    for table in _RECORDS:
        with op.batch_alter_table(table) as batch_op:
            for name, kind in _RECORD_COLUMNS.items():
                batch_op.add_column(sa.Column(name, kind, nullable=True))
    _rate_results()
    _fill_records()
    with op.batch_alter_table("game_result") as batch_op:
        for name in ("skill_mu_after", "skill_sigma_after"):
            batch_op.alter_column(name, existing_type=sa.Integer(), server_default=None)
    for table in _RECORDS:
        with op.batch_alter_table(table) as batch_op:
            for name, kind in _RECORD_COLUMNS.items():
                batch_op.alter_column(name, existing_type=kind, nullable=False)


def downgrade():
    for table in _RECORDS:
        with op.batch_alter_table(table) as batch_op:
            for name in _RECORD_COLUMNS:
                batch_op.drop_column(name)
    with op.batch_alter_table("game_result") as batch_op:
        batch_op.drop_column("skill_sigma_after")
        batch_op.drop_column("skill_mu_after")
