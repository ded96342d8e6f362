"""Health tells the truth: a database that can't save (a full disk, a read-only file) is a 503 that says so, to the
phone that tried and at /healthz, never a "busy" that invites waiting; a write that succeeds again clears it."""

import pytest
from sqlalchemy import event, text

from app import health
from app.extensions import db
from tests.conftest import act_via_api, create_via_api, csrf_token, join_via_api, page_text, snapshot


@pytest.fixture
def table(client):
    table = create_via_api(client, "tracker", {"players": 2})
    table["seat"] = join_via_api(client, table, "Ann")["seat_token"]
    return table


def every_new_connection(app, statement: str):
    """Run `statement` on each connection the app opens from now on (the pool's are closed first); returns a function
    that stops it."""
    def run(dbapi_connection, _record):
        cursor = dbapi_connection.cursor()
        cursor.execute(statement)
        cursor.close()
        if db.engine.dialect.name == "postgresql":
            dbapi_connection.commit()

    with app.app_context():
        engine = db.engine
        engine.dispose()
        event.listen(engine, "connect", run)

    def stop():
        with app.app_context():
            event.remove(engine, "connect", run)
            engine.dispose()
    return stop


def full_disk(app):
    """SQLite: the file may not grow by a page (max_page_count), which fails a write with SQLITE_FULL, "database or
    disk is full", exactly as a full disk does."""
    with app.app_context():
        pages = db.session.execute(text("PRAGMA page_count")).scalar()
        db.session.remove()
    return every_new_connection(app, f"PRAGMA max_page_count = {pages}")


def move_until_refused(client, table, limit=400):
    """Moves until the database refuses one (a full disk lets a write into a page that still has room)."""
    for _ in range(limit):
        response = act_via_api(client, table, table["seat"], {"type": "adjust", "counter": "doom", "by": 1})
        if response.status_code != 200:
            return response
    raise AssertionError("every move was saved")


def test_a_full_disk_is_a_503_saying_nothing_can_be_saved_and_healthz_says_why(app, client, table):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("a full disk is simulated on SQLite; PostgreSQL's read-only database is the next test")
    assert client.get("/healthz").status_code == 200
    stop = full_disk(app)
    try:
        refused = move_until_refused(client, table)
        said = refused.get_json()["error"]
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
        assert "can't save anything: the disk holding its database is full" in said and "busy" not in said
        assert "free some space" in said
        before = snapshot(app)
        health_now = client.get("/healthz")
        assert health_now.status_code == 503 and health_now.headers["Cache-Control"] == "no-store"
        assert "can't save: the disk holding its database is full" in health_now.get_data(as_text=True)
        # The phone's own tap says the same, beside the control it used.
        phone = app.test_client()
        with phone.session_transaction() as session:
            session["tables"] = {table["code"]: {"seat": table["seat"]}}
        form = {"csrf_token": csrf_token(phone, f"/t/{table['code']}/seats/1"), "type": "adjust", "counter": "doom",
                "by": "1"}
        tapped = phone.post(f"/t/{table['code']}/act", data=form, headers={"HX-Request": "true"})
        assert tapped.status_code == 503 and "can't save anything" in page_text(tapped)
        assert snapshot(app) == before  # the refused taps changed nothing
    finally:
        stop()
    assert act_via_api(client, table, table["seat"], {"type": "next-round"}).status_code == 200
    assert client.get("/healthz").status_code == 200  # a saved write clears it


def test_a_read_only_database_is_a_503_saying_so_on_either_database(app, client, table):
    postgres = app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql")
    stop = every_new_connection(app, "SET default_transaction_read_only = on" if postgres else "PRAGMA query_only = 1")
    try:
        before = snapshot(app)
        refused = act_via_api(client, table, table["seat"], {"type": "next-round"})
        assert refused.status_code == 503 and "can't save anything: its database is read-only" in \
            refused.get_json()["error"]
        created = client.post("/api/tables", json={"game": "tracker", "options": {}})
        assert created.status_code == 503 and "read-only" in created.get_json()["error"]
        assert snapshot(app) == before
        assert "its database is read-only" in client.get("/healthz").get_data(as_text=True)
    finally:
        stop()
    assert act_via_api(client, table, table["seat"], {"type": "next-round"}).status_code == 200
    assert client.get("/healthz").status_code == 200


def test_healthz_sees_a_full_disk_or_a_read_only_file_under_sqlite_before_any_write_fails(app, client, monkeypatch):
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the disk under a SQLite file")
    known = app.extensions["nightshift.health"]
    assert client.get("/healthz").get_data(as_text=True) == "ok\n"
    monkeypatch.setattr(health.shutil, "disk_usage", lambda _path: type("Usage", (), {"free": 300 * 1024})())
    known.next_look = 0.0
    said = client.get("/healthz")
    assert said.status_code == 503 and "the disk holding its database is full (300 KB free)" in said.get_data(
        as_text=True) and said.headers["Retry-After"]
    monkeypatch.undo()
    monkeypatch.setattr(health.os, "access", lambda path, _mode: str(path).endswith("instance"))
    known.next_look = 0.0
    assert "its database is read-only" in client.get("/healthz").get_data(as_text=True)
    monkeypatch.undo()
    known.next_look = 0.0
    assert client.get("/healthz").status_code == 200


def test_what_each_failure_means():
    """SQLite's result codes and PostgreSQL's SQLSTATEs, sorted into busy, can't save and out of reach."""
    class Failed(Exception):
        def __init__(self, code=None, state=None):
            self.sqlite_errorcode, self.sqlstate = code, state

    assert health.trouble_of(Failed(code=5)).kind == health.BUSY  # SQLITE_BUSY
    assert health.trouble_of(Failed(code=517)).kind == health.BUSY  # SQLITE_BUSY_SNAPSHOT, an extended code
    assert health.trouble_of(Failed(code=13)).reason == "the disk holding its database is full"  # SQLITE_FULL
    assert health.trouble_of(Failed(code=1032)).reason == "its database is read-only"  # SQLITE_READONLY_DBMOVED
    assert health.trouble_of(Failed(state="53100")).kind == health.UNSAVED  # disk_full
    assert health.trouble_of(Failed(state="55P03")).kind == health.BUSY  # lock_not_available (lock_timeout)
    assert health.trouble_of(Failed(state="08006")).kind == health.UNREACHABLE
    assert health.trouble_of(Failed()).refusal().retry_after > 0
