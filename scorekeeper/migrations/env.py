"""Alembic environment: migrate the app's own database (Flask-Migrate supplies the app)."""

from alembic import context
from flask import current_app

db = current_app.extensions["migrate"].db


def run_migrations_offline() -> None:
    context.configure(
        url=str(db.engine.url),
        target_metadata=db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    with db.engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=db.metadata,
            # SQLite can't ALTER most things; batch mode copies the table instead.
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
