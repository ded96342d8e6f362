"""Configuration: NIGHTSHIFT_* environment variables, instance/config.py, and a secret key generated once."""

import pytest

from app import create_app
from app.config import from_environment
from app.database import normalise_url


def test_a_secret_key_is_generated_into_the_instance_folder_once(tmp_path, monkeypatch):
    monkeypatch.delenv("NIGHTSHIFT_SECRET_KEY", raising=False)
    first = create_app({"INSTANCE_PATH": tmp_path, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    second = create_app({"INSTANCE_PATH": tmp_path, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert len(first.config["SECRET_KEY"]) >= 48
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only
    other = create_app({"INSTANCE_PATH": tmp_path / "elsewhere", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert other.config["SECRET_KEY"] != first.config["SECRET_KEY"]


def test_environment_variables_override_the_instance_config(tmp_path, monkeypatch):
    (tmp_path / "config.py").write_text("PUBLIC_URL = 'http://from-instance:1'\nTABLE_TTL_DAYS = 3\n")
    monkeypatch.setenv("NIGHTSHIFT_PUBLIC_URL", "http://from-env:2")
    monkeypatch.setenv("NIGHTSHIFT_SECRET_KEY", "s" * 40)
    monkeypatch.setenv("NIGHTSHIFT_PORT", "9001")
    monkeypatch.setenv("NIGHTSHIFT_DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    app = create_app({"INSTANCE_PATH": tmp_path})
    assert app.config["PUBLIC_URL"] == "http://from-env:2"
    assert app.config["TABLE_TTL_DAYS"] == 3
    assert app.config["PORT"] == 9001
    assert app.config["SECRET_KEY"] == "s" * 40
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("x.sqlite3")
    assert not (tmp_path / "secret_key").exists()


def test_the_default_database_is_sqlite_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("NIGHTSHIFT_DATABASE_URL", raising=False)
    app = create_app({"INSTANCE_PATH": tmp_path})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'nightshift.sqlite3'}"


def test_a_bad_port_is_a_sentence_not_a_trace():
    with pytest.raises(SystemExit, match="NIGHTSHIFT_PORT='eighty' is not valid"):
        from_environment({"NIGHTSHIFT_PORT": "eighty"})


def test_postgres_urls_use_the_installed_driver():
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("sqlite:///x") == "sqlite:///x"


def test_the_database_runs_with_its_safe_settings(app):
    """SQLite: WAL and foreign keys on every connection. PostgreSQL: reached through psycopg 3."""
    from sqlalchemy import text

    from app.extensions import db

    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1
        else:
            assert db.engine.dialect.name == "postgresql" and db.engine.dialect.driver == "psycopg"
            assert db.session.execute(text("SELECT 1")).scalar() == 1
