"""Live updates against the real server: signals on change, catch-up on reconnect, presence, and who may listen."""

import contextlib
import json
import os
import time
import urllib.error
import urllib.request

import pytest

from tests.conftest import IN_CI
from tests.live.sse import EventStream
from tests.server import running_server

POSTGRES_FOR_TWO_PROCESSES = os.environ.get("NIGHTSHIFT_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"


def call(method, url, body=None, token=None):
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, json.dumps(body).encode() if body is not None else None, headers,
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def tracker_table(base, players=2):
    status, table = call("POST", f"{base}/api/tables", {"game": "tracker", "options": {"players": players}})
    assert status == 201, table
    table["tokens"] = [call("POST", f"{base}/api/tables/{table['code']}/join",
                            {"name": f"P{n}", "key": table["join_key"]})[1]["seat_token"] for n in range(players)]
    table["version"] += players
    return table


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    instance = tmp_path_factory.mktemp("live") / "instance"
    with running_server(instance, f"sqlite:///{instance.parent / 'live.sqlite3'}") as base:
        yield base


def test_a_move_reaches_every_open_stream_with_its_version(server):
    table = tracker_table(server)
    streams = [EventStream(f"{server}/t/{table['code']}/events?v={table['version']}", token)
               for token in table["tokens"] + [table["host_token"]]]
    try:
        assert all(stream.status == 200 for stream in streams)
        status, moved = call("POST", f"{server}/api/tables/{table['code']}/actions", {"type": "next-round"},
                             table["tokens"][0])
        assert status == 200
        for stream in streams:
            ident, data = stream.wait_for("table-changed", timeout=5)
            assert ident == data == str(moved["version"])
        assert any(comment.startswith("connected") for comment in streams[0].comments)
    finally:
        for stream in streams:
            stream.close()


def test_a_phone_that_slept_catches_up_at_once_from_last_event_id(server):
    table = tracker_table(server)
    for _ in range(3):
        call("POST", f"{server}/api/tables/{table['code']}/actions", {"type": "next-round"}, table["tokens"][1])
    with EventStream(f"{server}/t/{table['code']}/events", table["tokens"][0],
                     last_event_id=str(table["version"])) as stream:
        ident, _ = stream.wait_for("table-changed", timeout=3)
        assert int(ident) == table["version"] + 3


def test_the_host_sees_which_seats_are_connected(server):
    table = tracker_table(server)
    url = f"{server}/api/tables/{table['code']}"
    with EventStream(f"{server}/t/{table['code']}/events?v={table['version']}", table["host_token"]) as host:
        assert call("GET", url, token=table["host_token"])[1]["connected"] == []
        phone = EventStream(f"{server}/t/{table['code']}/events?v={table['version']}", table["tokens"][1])
        host.wait_for("seats-changed", timeout=5)
        assert call("GET", url, token=table["host_token"])[1]["connected"] == [2]
        phone.close()
        host.wait_for("seats-changed", timeout=5)
        assert call("GET", url, token=table["host_token"])[1]["connected"] == []


def test_strangers_cannot_listen_and_unknown_tables_are_404(server):
    table = tracker_table(server)
    for token, status in ((None, 403), ("forged", 401)):
        stream = EventStream(f"{server}/t/{table['code']}/events", token)
        assert stream.status == status
        stream.close()
    stream = EventStream(f"{server}/t/QQQQQ/events", table["host_token"])
    assert stream.status == 404
    stream.close()


def postgres_available() -> bool:
    try:
        import psycopg

        psycopg.connect(POSTGRES_FOR_TWO_PROCESSES, connect_timeout=3).close()
        return True
    except Exception:  # noqa: BLE001 - any failure means no database here
        return False


@contextlib.contextmanager
def two_servers_on_postgres(tmp_path):
    """Two server processes on one fresh PostgreSQL database (CI must have it; elsewhere the test skips)."""
    if not postgres_available():
        if IN_CI:
            pytest.fail("CI must have PostgreSQL at 127.0.0.1:5432 for the two-process live test")
        pytest.skip("no PostgreSQL at 127.0.0.1:5432")
    from tests.conftest import database_of_this_worker, reset_postgres

    # A database of this pytest worker's own: the other two-server test, on another worker at the same moment,
    # dropped the schema under these servers or raced their migration.
    database = database_of_this_worker(POSTGRES_FOR_TWO_PROCESSES)
    reset_postgres(database)
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
    with running_server(tmp_path / "a" / "instance", database) as first, \
            running_server(tmp_path / "b" / "instance", database) as second:
        yield first, second


def test_two_server_processes_on_postgres_share_live_updates(tmp_path):
    """An action sent to one server process reaches an SSE client of another, through LISTEN/NOTIFY."""
    with two_servers_on_postgres(tmp_path) as (first, second):
        table = tracker_table(first)
        with EventStream(f"{second}/t/{table['code']}/events?v={table['version']}", table["tokens"][1]) as stream:
            # No pause: the stream answered once it subscribed, and the second process listened before that.
            started = time.monotonic()
            status, moved = call("POST", f"{first}/api/tables/{table['code']}/actions",
                                 {"type": "adjust", "counter": "health", "by": -1}, table["tokens"][0])
            assert status == 200
            ident = "0"
            while int(ident) < moved["version"]:  # a stream may first be told to re-check what it has
                ident, _ = stream.wait_for("table-changed", timeout=5)
            assert int(ident) == moved["version"]
            assert time.monotonic() - started < 2
        status, seen = call("GET", f"{second}/api/tables/{table['code']}", token=table["tokens"][1])
        assert seen["version"] == moved["version"]


def test_two_workers_on_postgres_share_live_updates(tmp_path, database_url):
    """`nightshift --workers 2` on PostgreSQL (LISTEN/NOTIFY): a move made through one worker reaches phones
    streaming from the other. (On SQLite the server refuses a second worker: tests/test_cli.py.)"""
    if not database_url.startswith("postgresql"):
        pytest.skip("several workers need PostgreSQL: CI runs this with NIGHTSHIFT_TEST_DATABASE_URL")
    (tmp_path / "instance").mkdir()
    with running_server(tmp_path / "instance", database_url, workers=2) as base:
        table = tracker_table(base)
        streams, workers = [], {}
        try:
            for attempt in range(40):  # the kernel spreads connections over the workers; keep one stream on each
                stream = EventStream(f"{base}/t/{table['code']}/events?v=0", table["tokens"][attempt % 2])
                stream.wait_for("table-changed", timeout=10)
                worker = next(comment.rsplit("worker ", 1)[1] for comment in stream.comments if "worker" in comment)
                if worker in workers:
                    stream.close()
                    continue
                workers[worker] = stream
                streams.append(stream)
                if len(workers) == 2:
                    break
            assert len(workers) == 2, "every stream landed on one worker"
            for _ in range(3):  # moves land on either worker; every stream hears every one
                status, moved = call("POST", f"{base}/api/tables/{table['code']}/actions", {"type": "next-round"},
                                     table["tokens"][0])
                assert status == 200, moved
                for stream in streams:
                    ident = "0"
                    while int(ident) < moved["version"]:
                        ident, _ = stream.wait_for("table-changed", timeout=10)
                    assert int(ident) == moved["version"]
        finally:
            for stream in streams:
                stream.close()


def test_two_workers_push_each_phone_its_own_region_whichever_worker_wrote_the_move(tmp_path, database_url):
    """With two workers on PostgreSQL each draws its own screens when it hears a move: each phone, whichever worker
    it streams from, is pushed its own region of every move."""
    import re

    if not database_url.startswith("postgresql"):
        pytest.skip("several workers need PostgreSQL: CI runs this with NIGHTSHIFT_TEST_DATABASE_URL")
    (tmp_path / "instance").mkdir()
    with running_server(tmp_path / "instance", database_url, workers=2) as base:
        table = tracker_table(base, players=2)
        streams, workers = {}, set()
        try:
            for _ in range(80):  # the kernel spreads connections over the workers: each seat on its own
                seat = len(streams)
                stream = EventStream(f"{base}/t/{table['code']}/events?region=1&v=0", table["tokens"][seat])
                stream.wait_for("live", timeout=10)
                worker = next(comment.rsplit("worker ", 1)[1] for comment in stream.comments if "worker" in comment)
                if worker in workers:
                    stream.close()
                    continue
                workers.add(worker)
                streams[seat] = stream
                if len(streams) == 2:
                    break
            assert len(streams) == 2, "both phones landed on one worker"
            for move in range(6):  # each seat moves in turn; the kernel picks the worker that writes it
                mover = move % 2
                status, moved = call("POST", f"{base}/api/tables/{table['code']}/actions",
                                     {"type": "adjust", "counter": "health", "by": -1}, table["tokens"][mover])
                assert status == 200, moved
                for seat, stream in streams.items():
                    version = 0
                    while version < moved["version"]:
                        _, region = stream.wait_for("live", timeout=10)
                        version = int(re.search(r'data-version="(\d+)"', region).group(1))
                    assert version == moved["version"]
                    own = re.findall(r'<tr class="seat-\w+ mine">\s*<th scope="row">.*?</span> ([^<]+)</th>', region)
                    assert own == [f"P{seat}"], f"seat {seat}'s phone marks its own row only"
                    assert region.count("Undo my last move") == (seat == mover), "and its own undo"
        finally:
            for stream in streams.values():
                stream.close()
        log = (tmp_path / f"server-{base.rsplit(':', 1)[1]}.log").read_text()
        assert "live updates:" not in log, log[-2000:]
