"""Audit events kept as data: the action and its values, no sentence (issue 14)

``audit_event.summary`` held an English sentence ("Ana won after deal 7.") that
pages read back with regular expressions to word it in French. Each event now
keeps the values it is worded from in ``params`` (JSON), and pages and the API
word it when they show it. Every stored sentence is read once, here, by the
patterns the app wrote it with (frozen below: a migration never imports the
app's code). A sentence these patterns can't read (none is known: an import
sentence cut at 200 characters is read as far as it goes) is kept as it was
written, as ``{"text": ...}``, and shown as it is.

The downgrade writes the sentences again from the values, as the app wrote them.

Revision ID: 0011_audit_values
Revises: 0010_sessions
"""

import re
from decimal import Decimal, InvalidOperation

import sqlalchemy as sa
from alembic import op

revision = "0011_audit_values"
down_revision = "0010_sessions"
branch_labels = None
depends_on = None

#: Rows read and written at a time: a benchmark league has millions of events.
BATCH = 5000
SUMMARY_LENGTH = 200

# The sentences as the app wrote them up to 0010, by action.
_DEAL = re.compile(r"Deal (?P<number>\d+) (?:recorded|corrected|deleted; later deals moved up)\.")
_FINISHED = re.compile(r"(?P<winner>.+) won after deal (?P<number>\d+)\.", re.DOTALL)
_PAID = re.compile(r"(?P<payer>.+)'s payment of (?P<amount>-?[\d.]+) marked paid\.", re.DOTALL)
_IMPORTED = re.compile(
    r"Imported from (?P<file>a paper score card|a league export) "
    r"\((?P<place>line|game) (?P<where>.+?)\)\."
    # The claim, whole, or as much of it as the first 200 characters kept.
    r"(?: The file says (?P<paid_by>.*?)(?: marked it paid\.)?)?",
    re.DOTALL,
)
_FILES = {"a paper score card": "score_card", "a league export": "league_export"}
_FIXED = {
    "game_reopened": "The game is in progress again.",
    "game_unlocked": "Game unlocked; its payment is unpaid again.",
}


def _cents(amount):
    try:
        return int(Decimal(amount) * 100)
    except InvalidOperation:
        return None


def params_of(action, summary):
    """The values of an event, read from the sentence 0010 kept for it."""
    if action in ("deal_recorded", "deal_edited", "deal_deleted"):
        found = _DEAL.fullmatch(summary)
        if found:
            return {"number": int(found["number"])}
    elif action == "game_finished":
        found = _FINISHED.fullmatch(summary)
        if found:
            return {"winner": found["winner"], "number": int(found["number"])}
    elif action == "payment_marked":
        found = _PAID.fullmatch(summary)
        cents = _cents(found["amount"]) if found else None
        if cents is not None:
            return {"payer": found["payer"], "amount": cents}
    elif action == "game_imported":
        found = _IMPORTED.fullmatch(summary)
        if found:
            return {
                "file": _FILES[found["file"]],
                "place": found["place"],
                "where": found["where"],
                "paid_by": found["paid_by"] or None,
            }
    elif action in _FIXED and summary == _FIXED[action]:
        return {}
    return {"text": summary}


def summary_of(action, params):
    """The sentence 0010 kept for an event, written again from its values."""
    if "text" in params:
        return params["text"]
    if action in _FIXED:
        return _FIXED[action]
    if action == "deal_recorded":
        return f"Deal {params['number']} recorded."
    if action == "deal_edited":
        return f"Deal {params['number']} corrected."
    if action == "deal_deleted":
        return f"Deal {params['number']} deleted; later deals moved up."
    if action == "game_finished":
        return f"{params['winner']} won after deal {params['number']}."
    if action == "payment_marked":
        amount = (Decimal(params["amount"]) / 100).quantize(Decimal("0.01"))
        return f"{params['payer']}'s payment of {amount} marked paid."
    if action == "game_imported":
        source = {code: words for words, code in _FILES.items()}[params["file"]]
        claimed = f" The file says {params['paid_by']} marked it paid." if params.get("paid_by") else ""
        return f"Imported from {source} ({params['place']} {params['where']}).{claimed}"
    return action


def _convert(read, write, convert):
    """Every event, in batches by id: ``column`` written from ``convert(action, read)``."""
    connection = op.get_bind()
    events = sa.table(
        "audit_event",
        sa.column("id", sa.Integer),
        sa.column("action", sa.String),
        sa.column(read, sa.JSON if read == "params" else sa.String),
        sa.column(write, sa.JSON if write == "params" else sa.String),
    )
    change = (
        events.update()
        .where(events.c.id == sa.bindparam("event_id"))
        .values({write: sa.bindparam("value")})
    )
    last = 0
    while True:
        rows = connection.execute(
            sa.select(events.c.id, events.c.action, events.c[read])
            .where(events.c.id > last)
            .order_by(events.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        connection.execute(
            change, [{"event_id": id_, "value": convert(action, value)} for id_, action, value in rows]
        )
        last = rows[-1][0]


def upgrade():
    with op.batch_alter_table("audit_event") as batch_op:
        batch_op.add_column(sa.Column("params", sa.JSON(), nullable=True))
    _convert("summary", "params", params_of)
    with op.batch_alter_table("audit_event") as batch_op:
        batch_op.alter_column("params", existing_type=sa.JSON(), nullable=False)
        batch_op.drop_column("summary")


def downgrade():
    with op.batch_alter_table("audit_event") as batch_op:
        batch_op.add_column(sa.Column("summary", sa.String(length=SUMMARY_LENGTH), nullable=True))
    _convert("params", "summary", lambda action, params: summary_of(action, params)[:SUMMARY_LENGTH])
    with op.batch_alter_table("audit_event") as batch_op:
        batch_op.alter_column(
            "summary", existing_type=sa.String(length=SUMMARY_LENGTH), nullable=False
        )
        batch_op.drop_column("params")
