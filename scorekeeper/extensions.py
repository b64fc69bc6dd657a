"""Every Flask extension the app uses, made once here and bound to the app by
``create_app`` (``register_extensions``); a module that needs one imports it from here.

Imports nothing from the app, so the models, the database wiring and every area can.
"""

from flask_babel import Babel
from flask_compress import Compress
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

#: Constraint names Alembic can find again on every database.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The declarative base of every model (``models/``)."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)


#: A commit leaves what it wrote in memory: a change's answer is built from what the
#: change wrote and replayed, without reading it back. Every write starts by expiring
#: everything the request had read (``database.writing``), so it never builds on stale rows.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
migrate = Migrate()
babel = Babel()
csrf = CSRFProtect()
login_manager = LoginManager()
compress = Compress()
