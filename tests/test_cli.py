"""The `nightshift` command: migrate on its own, and serving on the LAN by default."""

import os
import socket
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, inspect

from app.cli import main
from app.database import normalise_url
from tests.server import ROOT


def test_migrate_creates_the_database_and_says_so(tmp_path, database_url, monkeypatch, capsys):
    monkeypatch.setenv("NIGHTSHIFT_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("NIGHTSHIFT_DATABASE_URL", database_url)
    main(["migrate"])
    assert "Database is up to date." in capsys.readouterr().out
    engine = create_engine(normalise_url(database_url))
    assert {"tables", "seats", "actions", "alembic_version"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_help_lists_the_server_s_options_and_the_lan_default():
    result = subprocess.run([sys.executable, "-m", "app", "--help"], cwd=ROOT, capture_output=True, text=True,
                            timeout=30)
    assert result.returncode == 0
    for option in ("--host", "--port", "--workers", "0.0.0.0", "NIGHTSHIFT_HOST", "migrate", "purge"):
        assert option in result.stdout, option


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///{tmp}/night.sqlite3"])
def test_sqlite_refuses_more_than_one_worker_with_a_sentence_that_names_postgresql(tmp_path, url):
    """Live updates between workers ride on PostgreSQL; on SQLite a second worker's phones would miss moves."""
    env = {"PATH": "/usr/bin:/bin", "NIGHTSHIFT_INSTANCE_PATH": str(tmp_path),
           "NIGHTSHIFT_DATABASE_URL": url.format(tmp=tmp_path)}
    result = subprocess.run([sys.executable, "-m", "app", "--workers", "2", "--port", "0"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "SQLite serves one worker" in result.stderr and "PostgreSQL" in result.stderr


def limits(monkeypatch, soft, hard):
    """A machine whose open-file limit is (soft, hard); raising it is recorded, up to hard."""
    import resource

    current = [soft, hard]

    def setrlimit(_which, wanted):
        if wanted[0] > hard:
            raise ValueError("not allowed")
        current[0] = wanted[0]

    monkeypatch.setattr(resource, "getrlimit", lambda _which: tuple(current))
    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    environ = {name: value for name, value in os.environ.items() if name != "NIGHTSHIFT_WORKER_CONNECTIONS"}
    monkeypatch.setattr(os, "environ", environ)  # what the server tells its workers stays in this test
    return current


SETTINGS = {"WORKER_CONNECTIONS": 4000, "CONNECTION_RESERVE": 400, "DB_POOL_SIZE": 20}


def test_each_worker_takes_its_connections_raising_the_open_file_limit_for_them(monkeypatch):
    from app.cli import _connections

    current = limits(monkeypatch, 1024, 65536)
    assert _connections(SETTINGS) == 4000 and current[0] >= 4000 + 20
    assert "NIGHTSHIFT_WORKER_CONNECTIONS" not in os.environ


def test_a_low_open_file_limit_shrinks_the_connections_and_the_stream_budget_with_them(monkeypatch, capsys):
    from app.cli import _connections

    limits(monkeypatch, 1024, 1024)
    assert _connections(SETTINGS) == 1024 - 20 - 64
    assert os.environ["NIGHTSHIFT_WORKER_CONNECTIONS"] == "940"  # the workers' budget: 940 - 400 screens
    assert "allows 940 connections per worker, not 4000" in capsys.readouterr().out


def test_a_reserve_that_leaves_no_screen_is_refused_with_a_sentence(monkeypatch):
    from app.cli import _connections

    limits(monkeypatch, 65536, 65536)
    with pytest.raises(SystemExit, match="must be at least 0 and below"):
        _connections(SETTINGS | {"CONNECTION_RESERVE": 4000})
    limits(monkeypatch, 450, 450)
    with pytest.raises(SystemExit, match="leaves no room for live screens"):
        _connections(SETTINGS)


def test_the_default_server_opens_no_socket_besides_its_port(tmp_path):
    """One worker on SQLite hears its tables' changes in process: gunicorn's arbiter and worker hold the port they
    listen on and the connections they serve, and no other socket (no Unix socket, no listener for other workers)."""
    import json
    import urllib.request

    import psutil

    from tests.live.sse import EventStream
    from tests.server import free_port, start_server

    (tmp_path / "instance").mkdir()
    port = free_port()
    with open(tmp_path / "server.log", "ab") as log:
        server = start_server(tmp_path / "instance", f"sqlite:///{tmp_path / 'night.sqlite3'}", port, log=log)
    try:
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/tables", b'{"game": "tracker"}',
                                         {"Content-Type": "application/json"}, method="POST")
        with urllib.request.urlopen(request, timeout=10) as created:
            table = json.loads(created.read())
        with EventStream(f"http://127.0.0.1:{port}/t/{table['code']}/events?v=0", table["host_token"]) as stream:
            stream.wait_for("table-changed")  # a stream is open: whatever the live path opens, it has opened
            tree = [psutil.Process(server.pid), *psutil.Process(server.pid).children(recursive=True)]
            sockets = [connection for process in tree for connection in process.net_connections(kind="all")]
        assert any(connection.status == psutil.CONN_LISTEN and connection.laddr.port == port for connection in sockets)
        others = [connection for connection in sockets
                  if connection.family == socket.AF_UNIX
                  or (connection.laddr and connection.laddr.port != port and connection.status == psutil.CONN_LISTEN)]
        assert others == [], others
        tcp = {connection.laddr.port for connection in sockets if connection.family != socket.AF_UNIX}
        assert tcp == {port}, tcp  # every TCP socket of the server is on its own port: the listener and the stream
    finally:
        server.terminate()
        server.wait(timeout=15)
