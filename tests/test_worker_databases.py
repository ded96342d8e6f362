"""The suite's own setup: parallel workers on PostgreSQL each get a database, so one's schema reset spares the other."""

import os

import pytest
from sqlalchemy import create_engine, make_url, text

from app.database import normalise_url
from tests.conftest import database_of_this_worker

NAMED = os.environ.get("NIGHTSHIFT_TEST_DATABASE_URL", "")


def test_outside_xdist_or_on_sqlite_the_url_is_kept(monkeypatch):
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    assert database_of_this_worker("postgresql://postgres@127.0.0.1:5432/test") == \
        "postgresql://postgres@127.0.0.1:5432/test"
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    assert database_of_this_worker("") == ""


@pytest.mark.postgres
@pytest.mark.skipif(not NAMED, reason="needs NIGHTSHIFT_TEST_DATABASE_URL")
def test_a_worker_gets_a_database_of_its_own_beside_the_named_one(monkeypatch):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw97")
    own = database_of_this_worker(NAMED)
    assert make_url(own).database == f"{make_url(NAMED).database}_gw97"
    assert database_of_this_worker(NAMED) == own  # the second call finds it made
    engine = create_engine(normalise_url(own))
    with engine.connect() as connection:
        assert connection.scalar(text("SELECT current_database()")) == make_url(own).database
    engine.dispose()
    admin = create_engine(normalise_url(NAMED), isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE "{make_url(own).database}"'))
    admin.dispose()
