"""Database wiring: SQLite in WAL mode by default, PostgreSQL through psycopg 3, migrations on start."""

from __future__ import annotations

import sys
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event

from .extensions import db

MIGRATIONS = Path(__file__).parent / "migrations"


def normalise_url(url: str) -> str:
    """Let people write postgresql:// (or postgres://) and still get the psycopg 3 driver we install."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets phones read while the host writes; the busy timeout queues writers instead of failing them."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def cooperate_with_gevent() -> None:
    """psycopg picks how it waits for the network when first imported; our CLI imports it to migrate before gunicorn
    forks and gevent patches the worker, so switch to the poll-based wait that gevent makes cooperative (else one
    query, or the LISTEN connection, would freeze every phone on the worker)."""
    monkey = sys.modules.get("gevent.monkey")
    waiting = sys.modules.get("psycopg.waiting")
    if monkey is None or waiting is None or not monkey.is_module_patched("select"):
        return
    if getattr(waiting, "wait_c", None) is not None and waiting.wait is waiting.wait_c:
        waiting.wait = waiting.wait_poll


def pool_options(config, server: bool) -> dict:
    """One worker's pool: DB_POOL_SIZE kept open, as many again for a burst, then a bounded wait (a 503 after it).
    A database `server` may close a connection while it waits in the pool (a restart, an idle timeout), so each is
    checked as it is taken; a SQLite file never does, and the check was a statement more on every request."""
    size = max(1, int(config["DB_POOL_SIZE"]))
    return {"pool_size": size, "max_overflow": size, "pool_timeout": config["DB_POOL_TIMEOUT"], "pool_pre_ping": server}


def init_database(app: Flask) -> None:
    """Attach Flask-SQLAlchemy and set SQLite's pragmas on every new connection."""
    app.config["SQLALCHEMY_DATABASE_URI"] = normalise_url(app.config["SQLALCHEMY_DATABASE_URI"])
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:"):
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql") or url.startswith("sqlite:///") and ":memory:" not in url:
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = (pool_options(app.config, url.startswith("postgresql"))
                                                   | app.config["SQLALCHEMY_ENGINE_OPTIONS"])
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
        else:
            cooperate_with_gevent()


def upgrade_database(app: Flask) -> None:
    """Apply every Alembic migration not yet applied, so an upgraded Night Shift keeps every table."""
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
