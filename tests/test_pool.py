"""The database pool: sized per worker from the settings, and a dry pool is a 503 with a sentence, never a 500."""

from sqlalchemy.exc import TimeoutError as PoolTimeout

from app import create_app
from app.extensions import db
from app.tables import service
from tests.conftest import bearer, create_via_api


def test_each_worker_keeps_db_pool_size_connections_and_as_many_again_for_a_burst(tmp_path, database_url):
    app = create_app({"INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": database_url,
                      "DB_POOL_SIZE": 7, "DB_POOL_TIMEOUT": 3})
    with app.app_context():
        pool = db.engine.pool
        assert (pool.size(), pool._max_overflow, pool._timeout) == (7, 7, 3)
        # A database server may drop a pooled connection (a restart): each is checked as it is taken. A SQLite file
        # never drops one, and the check would be a statement more on every request.
        assert pool._pre_ping is database_url.startswith("postgresql")
        db.engine.dispose()


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
