"""The database pool: sized per worker from the settings, and a dry pool is a 503 with a sentence, never a 500."""

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.pool import NullPool

from app import create_app, database
from app.extensions import db
from app.tables import service
from tests.conftest import POSTGRES_URL, bearer, create_via_api


def test_each_worker_keeps_up_to_db_pool_size_connections_open_once_opened(tmp_path, database_url):
    app = create_app({"INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": database_url,
                      "DB_POOL_SIZE": 7, "DB_POOL_TIMEOUT": 3})
    with app.app_context():
        pool = db.engine.pool
        # No overflow that closes again: a burst's connections stay open for the next one.
        assert (pool.size(), pool._max_overflow, pool._timeout) == (7, 0, 3)
        # Not every connection is checked as it is taken (a round trip more for every request): only one that sat
        # in the pool a while (below), and only a database server's.
        assert pool._pre_ping is False
        db.engine.dispose()


def _backend_of_a_pooled_connection() -> int:
    """The server process behind the connection the next request gets (it goes back to the pool after)."""
    backend = db.session.scalar(text("SELECT pg_backend_pid()"))
    db.session.remove()
    return backend


@pytest.mark.postgres
def test_a_connection_the_server_closed_while_it_waited_in_the_pool_is_replaced_unnoticed(app, monkeypatch):
    if not POSTGRES_URL:
        pytest.skip("needs PostgreSQL: a SQLite file never closes a connection")
    with app.app_context():
        backend = _backend_of_a_pooled_connection()
        other = create_engine(db.engine.url, poolclass=NullPool)  # the server restarts, or drops idle connections
        with other.connect() as connection:
            assert connection.scalar(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
        other.dispose()
        monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.0)  # it waited long enough to be checked
        assert _backend_of_a_pooled_connection() not in (backend, None)  # a fresh one, and no error


def test_a_connection_in_steady_use_is_not_checked_again_before_each_request(app, monkeypatch):
    checks = []
    with app.app_context():
        monkeypatch.setattr(type(db.engine.dialect), "do_ping", lambda _self, _conn: checks.append(1) or True)
        for _ in range(3):
            db.session.scalar(text("SELECT 1"))
            db.session.remove()
        assert checks == []
        monkeypatch.setattr(database, "PING_AFTER_IDLE_SECONDS", 0.0)
        db.session.scalar(text("SELECT 1"))
        db.session.remove()
        # A database server's connection that waited is checked once as it is taken; a SQLite file's never.
        assert checks == ([1] if POSTGRES_URL else [])


def test_a_dry_pool_answers_503_with_a_sentence(app, client, monkeypatch):
    table = create_via_api(client, "tracker")

    def dry(*_args, **_kwargs):
        raise PoolTimeout("QueuePool limit of size 10 overflow 10 reached, connection timed out, timeout 10.00")

    monkeypatch.setattr(service, "find_table", dry)
    answer = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"]))
    assert answer.status_code == 503
    assert "busy" in answer.get_json()["error"]
    page = client.get(f"/t/{table['code']}")
    assert page.status_code == 503 and "try again in a moment" in page.get_data(as_text=True)
