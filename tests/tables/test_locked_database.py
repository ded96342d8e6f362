"""Another program holding the SQLite file (BEGIN EXCLUSIVE): the worker keeps answering everyone, a move waits a few
seconds, then says the database is busy with Retry-After and changes nothing; once the file is free, moves work."""

import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from tests.live.test_events import tracker_table
from tests.server import running_server

HOLD = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("ROLLBACK")
"""
HELD_SECONDS = 10


def timed(method, url, token=None, body=None):
    """(status, headers, text, seconds) of one request."""
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, json.dumps(body).encode() if body is not None else None, headers,
                                     method=method)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode(), time.monotonic() - started
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode(), time.monotonic() - started


def test_a_file_held_by_another_process_freezes_no_table_and_a_move_says_busy(tmp_path):
    path = tmp_path / "held.sqlite3"
    with running_server(tmp_path / "instance", f"sqlite:///{path}") as base:
        table = tracker_table(base, players=1)
        code, host = table["code"], table["host_token"]
        moves = f"{base}/api/tables/{code}/actions"
        before = timed("GET", f"{base}/api/tables/{code}", host)[2]
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path), str(HELD_SECONDS)], stdout=subprocess.PIPE,
                                  text=True)
        try:
            assert holder.stdout.readline().strip() == "held"
            held_since = time.monotonic()
            answers = {}
            move = threading.Thread(target=lambda: answers.update(move=timed("POST", moves, host,
                                                                             {"type": "next-round"})))
            move.start()
            waits = []
            while move.is_alive() or len(waits) < 10:
                for url in (f"{base}/healthz", f"{base}/t/{code}", f"{base}/api/tables/{code}"):
                    status, _, _, took = timed("GET", url, host)
                    assert status == 200, url
                    waits.append(took)
            move.join()
            status, headers, text, took = answers["move"]
            assert time.monotonic() - held_since < HELD_SECONDS - 2  # all of this happened while the file was held
            assert status == 503 and took < 5, (status, took)
            assert "busy" in json.loads(text)["error"] and "Nothing was changed" in json.loads(text)["error"]
            assert int(headers["Retry-After"]) > 0
            # A 10 s busy timeout held the worker for all of it; under 2.5 s leaves a loaded machine room and still
            # catches a worker held for DB_BUSY_SECONDS (3 s) by the move's retries.
            assert max(waits) < 2.5, sorted(waits)[-5:]
            assert timed("GET", f"{base}/api/tables/{code}", host)[2] == before  # nothing changed
        finally:
            holder.wait(timeout=HELD_SECONDS + 10)
        status, _, text, _ = timed("POST", moves, host, {"type": "next-round"})
        assert status == 200 and json.loads(text)["version"] == table["version"] + 1


def test_a_row_held_by_another_postgresql_session_is_a_busy_503_within_seconds(app, client, database_url):
    """PostgreSQL waits for a row lock cooperatively, but a move waited out a 45 s lock: lock_timeout ends the wait
    after DB_BUSY_SECONDS, and the move answers "busy" with Retry-After, having changed nothing."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a PostgreSQL row lock")
    from sqlalchemy import create_engine, text

    from app.database import normalise_url
    from tests.conftest import act_via_api, create_via_api, join_via_api, snapshot

    table = create_via_api(client, "tracker", {"players": 2})
    seat = join_via_api(client, table, "Ann")["seat_token"]
    before = snapshot(app)
    other = create_engine(normalise_url(database_url))
    with other.connect() as holder:
        holder.execute(text("SELECT id FROM tables WHERE code = :code FOR UPDATE"), {"code": table["code"]})
        started = time.monotonic()
        refused = act_via_api(client, table, seat, {"type": "next-round"})
        took = time.monotonic() - started
        holder.rollback()
    other.dispose()
    assert refused.status_code == 503 and took < 5, (refused.status_code, took)
    assert "busy" in refused.get_json()["error"] and int(refused.headers["Retry-After"]) > 0
    assert snapshot(app) == before
    assert act_via_api(client, table, seat, {"type": "next-round"}).status_code == 200
