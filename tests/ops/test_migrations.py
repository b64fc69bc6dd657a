"""The schema that migrations build is the schema the models describe."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper.models import db


def test_migrations_match_the_models(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, db.metadata)
    assert differences == []


def test_first_start_creates_the_default_league_private(client, auth):
    """The app is reachable from the network: who owes whom is the table's business."""
    assert client.get("/leagues/our-table/players").status_code == 404
    page = auth.login(client).get("/leagues/our-table/players")
    assert page.status_code == 200
    assert "Players of Our table" in page.get_data(as_text=True)
