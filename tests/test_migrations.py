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


def test_tables_opened_before_the_dice_existed_get_their_own_secret_seed(tmp_path, database_url):
    """Upgrading from 0001 keeps every table and gives each a seed of its own, so their rolls can be checked too."""
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import text

    from app import create_app
    from app.database import MIGRATIONS

    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "old", "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision="0001")
        for code in ("OLD22", "OLD33"):
            db.session.execute(text(
                "INSERT INTO tables (code, game, options, version, status, join_key, host_token_hash, created_at, "
                "updated_at) VALUES (:code, 'tracker', '{}', 1, 'open', 'KEY', :hash, :now, :now)"),
                {"code": code, "hash": code * 8, "now": "2026-12-01 00:00:00"})
        db.session.commit()
        upgrade(directory=str(MIGRATIONS))
        seeds = db.session.execute(text("SELECT code, dice_seed, dice_counter FROM tables ORDER BY code")).all()
        assert [(code, counter) for code, _, counter in seeds] == [("OLD22", 0), ("OLD33", 0)]
        assert all(len(seed) == 64 for _, seed, _ in seeds) and seeds[0][1] != seeds[1][1]
        db.session.rollback()  # PostgreSQL: our read would otherwise block the downgrade's ALTER TABLE
        downgrade(directory=str(MIGRATIONS), revision="0001")  # and back, for whoever must roll back a release
        assert db.session.execute(text("SELECT count(*) FROM tables")).scalar_one() == 2
        db.session.remove()
        db.engine.dispose()
