"""The database object, the declarative base, and helpers every model uses."""

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import BigInteger, MetaData
from sqlalchemy.orm import DeclarativeBase, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


db = SQLAlchemy(model_class=Base)

if TYPE_CHECKING:  # db.Model is made at run time; to a type checker it is our Base
    Model = Base
else:
    Model = db.Model


#: An amount of money in cents. 64 bits: a progressive game at high stakes can settle for
#: more than 2³¹ cents ($21,474,836.47), which a PostgreSQL ``integer`` can't hold.
Cents = Annotated[int, mapped_column(BigInteger)]


def utcnow() -> datetime:
    """Now, in UTC, without a time zone (stored the same way on SQLite and PostgreSQL)."""
    return datetime.now(UTC).replace(tzinfo=None)
