"""One-time submission tokens: each save a form or request sends carries one, kept so that
the same save sent again (a double tap, a retry, a phone's offline queue) is recognised
and not recorded twice (``table/service.py``).

They are needed only as long as a save may come again. A phone sends what it kept as
soon as it is back online, and a save typed on a page older than the game's current
version is refused anyway (the version check), so a month is far beyond their use:
older ones are pruned (issue 26: at 20,000 games they were a quarter of the database),
a batch per transaction, so no writer waits for more than one batch. The audit trail
keeps its own rows: nothing of it refers to a token.
"""

from datetime import timedelta
from typing import Final

from sqlalchemy import delete, select

from scorekeeper.database import writing
from scorekeeper.models import SubmissionToken, db, utcnow

#: How long a token is kept.
KEEP_FOR: Final = timedelta(days=30)
#: Tokens deleted per transaction.
BATCH: Final = 5000


def prune(*, keep_for: timedelta = KEEP_FOR, batch: int = BATCH) -> int:
    """Delete the tokens older than ``keep_for``, a batch per transaction; how many."""
    cutoff = utcnow() - keep_for
    pruned = 0
    while True:
        with writing():
            old = select(SubmissionToken.token).where(SubmissionToken.created_at < cutoff)
            if db.session.get_bind().dialect.name == "postgresql":
                old = old.with_for_update(skip_locked=True)  # a save using one goes on
            deleted = db.session.execute(
                delete(SubmissionToken).where(SubmissionToken.token.in_(old.limit(batch)))
            )
        count = int(getattr(deleted, "rowcount", 0) or 0)
        pruned += count
        if count < batch:
            return pruned
