"""The SQLite workers' signals (app/live/broker.py's SocketBroker), without a server: two brokers on one folder stand
for two worker processes on one database file."""

import socket
import time

from app.live.broker import SocketBroker


def heard(broker: SocketBroker, code: str, version: int, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        channel = broker._channels.get(code)
        if channel is not None and channel.version >= version:
            return True
        time.sleep(0.01)
    return False


def test_a_worker_that_signals_while_another_starts_listening_does_not_cut_it_off(tmp_path, monkeypatch):
    """Worker A commits a move at the very moment worker B opens its socket (bound, not yet listening). A used to be
    refused, take B's socket for a dead worker's and delete it; B then heard none of A's moves, and half the moves of
    a two-worker benchmark run reached B's phones only with a later move of B's own."""
    folder = tmp_path / "signals"
    a, b = SocketBroker(folder), SocketBroker(folder)
    a.subscribe("AAAAA", 0)  # A listens first, as the first worker to get a stream
    real_listen = socket.socket.listen

    def listen_while_a_signals(sock, *args):
        a._broadcast("ZZZZZ v 1\n")  # A's commit lands between B's bind and its listen
        return real_listen(sock, *args)

    monkeypatch.setattr(socket.socket, "listen", listen_while_a_signals)
    b.subscribe("BBBBB", 0)
    monkeypatch.setattr(socket.socket, "listen", real_listen)
    try:
        assert b._path is not None and b._path.exists(), "B's socket is still where other workers find it"
        a._broadcast("BBBBB v 7\n")
        assert heard(b, "BBBBB", 7), "B hears A's next move"
        b._broadcast("AAAAA v 3\n")
        assert heard(a, "AAAAA", 3), "and A hears B's"
    finally:
        a.stop()
        b.stop()


def test_a_dead_worker_s_socket_is_removed_and_the_others_keep_signalling(tmp_path):
    folder = tmp_path / "signals"
    a, b = SocketBroker(folder), SocketBroker(folder)
    a.subscribe("AAAAA", 0)
    b.subscribe("BBBBB", 0)
    gone = folder / "999999-deadbeef.sock"  # a crashed worker's: the file stays, nobody listens
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(gone))
    try:
        a._broadcast("BBBBB v 2\n")
        assert heard(b, "BBBBB", 2)
        assert not gone.exists(), "the dead worker's socket is cleared away"
        assert sorted(path.name for path in folder.glob("*.sock")) == sorted([a._path.name, b._path.name])
    finally:
        a.stop()
        b.stop()
