"""Migration 0004: the history's tables come and go without touching the tables, and a purge can't cascade to plays."""

from sqlalchemy import inspect, text

from app import create_app
from app.database import MIGRATIONS
from app.extensions import db


def test_plays_point_at_their_table_with_set_null_so_a_purge_keeps_them(app):
    with app.app_context():
        [foreign] = [key for key in inspect(db.engine).get_foreign_keys("plays") if key["referred_table"] == "tables"]
        assert foreign["options"].get("ondelete", "").upper() == "SET NULL"
        assert foreign["constrained_columns"] == ["table_id"]


def test_upgrading_to_0004_and_back_keeps_every_table(tmp_path, database_url):
    from alembic.script import ScriptDirectory
    from flask_migrate import downgrade, upgrade

    before = ScriptDirectory(str(MIGRATIONS)).get_revision("0004").down_revision  # whatever 0004 is chained after
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "old", "SQLALCHEMY_DATABASE_URI": database_url})
    with app.app_context():
        upgrade(directory=str(MIGRATIONS), revision=before)
        db.session.execute(text(
            "INSERT INTO tables (code, game, options, version, status, join_key, host_token_hash, created_at, "
            "updated_at, dice_counter) VALUES ('OLD22', 'tracker', '{}', 1, 'open', 'KEY', :hash, :now, :now, 0)"),
            {"hash": "ab" * 32, "now": "2026-12-01 00:00:00"})
        db.session.commit()
        upgrade(directory=str(MIGRATIONS), revision="0004")
        assert db.session.execute(text("SELECT count(*) FROM plays")).scalar_one() == 0
        db.session.rollback()
        downgrade(directory=str(MIGRATIONS), revision=before)
        assert db.session.execute(text("SELECT code FROM tables")).scalar_one() == "OLD22"
        assert "plays" not in inspect(db.engine).get_table_names()
        db.session.remove()
        db.engine.dispose()
