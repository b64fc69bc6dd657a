"""The model base class, and helpers every model uses (the database object is one of the
app's extensions: :mod:`scorekeeper.extensions`)."""

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

from sqlalchemy import BigInteger
from sqlalchemy.orm import mapped_column

from scorekeeper.extensions import Base, db

if TYPE_CHECKING:  # db.Model is made at run time; to a type checker it is our Base
    Model = Base
else:
    Model = db.Model


#: An amount of money in cents. 64 bits: a progressive game at high stakes can settle for
#: more than 2³¹ cents ($21,474,836.47), which a PostgreSQL ``integer`` can't hold.
Cents = Annotated[int, mapped_column(BigInteger)]

#: The largest id a row can have (PostgreSQL's integer); larger ones are nobody's.
MAX_ID = 2**31 - 1
#: The most players a game of any kind seats (Continental Rummy's twelve).
MAX_SEATS = 12


def utcnow() -> datetime:
    """Now, in UTC, without a time zone (stored the same way on SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)
