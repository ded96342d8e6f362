"""Database wiring: SQLite in WAL mode by default, PostgreSQL through psycopg 3, migrations on start."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import event
from sqlalchemy.exc import DisconnectionError

from .extensions import db

MIGRATIONS = Path(__file__).parent / "migrations"


def normalise_url(url: str) -> str:
    """Let people write postgresql:// (or postgres://) and still get the psycopg 3 driver we install."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


# SQLite waits for a lock inside its own C code, where no other greenlet runs: a 10 s busy timeout froze every table
# on the worker while another program held the file. So it waits only this long itself; the write path then retries
# with pauses that let the worker serve everyone else (health.BusyRetry), for up to DB_BUSY_SECONDS.
SQLITE_BUSY_MS = 5


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    """WAL lets phones read while the host writes; a short busy timeout leaves the waiting to the write path."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_MS}")
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


# A pooled connection unused for this long is checked before it is handed out (a round trip): the database server
# may have closed it meanwhile (a restart, an idle timeout). One in steady use is not: a server that drops it between
# two uses fails that one statement, SQLAlchemy then discards every connection opened before, and each caller retries
# (the write path at once, a drawing a second later, a page with a "busy" 503).
PING_AFTER_IDLE_SECONDS = 5.0


def pool_options(config) -> dict:
    """One worker's pool: up to DB_POOL_SIZE connections, each opened when first needed and then kept (no overflow
    that closes again: opening one starts a PostgreSQL server process, and a pool that opened and closed its burst
    connections over and over cost 1-2% of a worker's CPU under load, and the database server more), then a bounded
    wait (a 503 after it)."""
    return {"pool_size": max(1, int(config["DB_POOL_SIZE"])), "max_overflow": 0,
            "pool_timeout": config["DB_POOL_TIMEOUT"]}


def postgres_options(config) -> dict:
    """A statement waits for a row lock at most DB_BUSY_SECONDS (PostgreSQL's lock_timeout), so a write stuck behind
    another holds no request for longer: it retries until then and answers a "busy" 503 (health.BusyRetry)."""
    return {"connect_args": {"options": f"-c lock_timeout={round(float(config['DB_BUSY_SECONDS']) * 1000)}"}}


def check_idle_connections(engine) -> None:
    """A database server's connections are checked as they leave the pool only if they sat in it for
    PING_AFTER_IDLE_SECONDS (pool_pre_ping checked every one: a round trip more for each request and each drawing,
    3% of a worker's CPU under load). A SQLite file never closes a connection, so SQLite's are not checked."""

    def returned(_dbapi_connection, record) -> None:
        record.info["idle_since"] = time.monotonic()

    def taken(dbapi_connection, record, _proxy) -> None:
        idle_since = record.info.pop("idle_since", None)
        if idle_since is None or time.monotonic() - idle_since < PING_AFTER_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:  # closed under us: the pool opens a fresh one instead
            raise DisconnectionError(f"a pooled connection was closed by the server ({type(error).__name__})") \
                from error

    event.listen(engine, "checkin", returned)
    event.listen(engine, "checkout", taken)


def init_database(app: Flask) -> None:
    """Attach Flask-SQLAlchemy and set SQLite's pragmas on every new connection."""
    app.config["SQLALCHEMY_DATABASE_URI"] = normalise_url(app.config["SQLALCHEMY_DATABASE_URI"])
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    if url.startswith("sqlite:"):
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if url.startswith("postgresql") or url.startswith("sqlite:///") and ":memory:" not in url:
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = pool_options(app.config) | app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    if url.startswith("postgresql"):
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = postgres_options(app.config) | app.config["SQLALCHEMY_ENGINE_OPTIONS"]
    db.init_app(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _sqlite_pragmas)
        else:
            cooperate_with_gevent()
            check_idle_connections(db.engine)


def upgrade_database(app: Flask) -> None:
    """Apply every Alembic migration not yet applied, so an upgraded Night Shift keeps every table."""
    with app.app_context():
        upgrade(directory=str(MIGRATIONS))
