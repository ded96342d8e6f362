"""Migrations: the first one builds what the models describe, so an upgrade never loses a table."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from app.extensions import db


def test_migrations_create_exactly_what_the_models_describe(app):
    with app.app_context(), db.engine.connect() as connection:
        context = MigrationContext.configure(connection)
        assert context.get_current_revision() is not None
        assert compare_metadata(context, db.metadata) == []


def test_upgrading_twice_changes_nothing(app):
    from app.database import upgrade_database

    upgrade_database(app)
    with app.app_context(), db.engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), db.metadata) == []
