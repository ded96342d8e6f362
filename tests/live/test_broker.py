"""The SQLite workers' signals (app/live/broker.py's SocketBroker), without a server: two brokers on one folder stand
for two worker processes on one database file."""

import socket
import time

import pytest

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


def test_a_drawing_is_handed_to_the_other_streams_before_the_drawer_s_session_ends():
    """Ending a drawing's session is a round trip on PostgreSQL, and a wait behind whatever else the worker runs:
    the other streams of the table take the picture as soon as it is made, while the drawer's session ends."""
    from app.live.broker import Broker, Picture

    broker = Broker()
    host = broker.subscribe("AAAAA", 3, kind=("host", None))
    phone = broker.subscribe("AAAAA", 3, kind=("seat", 1))
    taken_meanwhile = []

    def draw(code, kinds, publish):
        picture = Picture(version=3, presence="-", regions={kind: f"{kind}".encode() for kind in kinds})
        publish(picture)
        # the drawer's session ends here: another stream gets the picture without waiting or drawing again
        taken_meanwhile.append(phone.picture(lambda *args: pytest.fail("drawn twice")))
        return picture

    drawn = host.picture(draw)
    assert taken_meanwhile == [drawn] and set(drawn.regions) == {("host", None), ("seat", 1)}
    assert host.picture(lambda *args: pytest.fail("drawn twice")) is drawn  # nothing changed since


def test_a_drawing_that_fails_after_publishing_leaves_the_lock_free_and_one_that_never_publishes_is_kept():
    from app.live.broker import Broker, Picture

    broker = Broker()
    stream = broker.subscribe("BBBBB", 1, kind=("seat", 1))

    def failing(code, kinds, publish):
        publish(Picture(version=1, presence="-", regions={("seat", 1): b"x"}))
        raise RuntimeError("the session could not end")

    with pytest.raises(RuntimeError):
        stream.picture(failing)
    assert stream.channel.drawing.acquire(blocking=False), "the lock is free"
    stream.channel.drawing.release()
    assert stream.picture(lambda *args: pytest.fail("drawn twice")).regions == {("seat", 1): b"x"}

    broker.deliver("BBBBB", 2)
    quiet = stream.picture(lambda code, kinds, publish: Picture(version=2, presence="-", regions={("seat", 1): b"y"}))
    assert quiet.version == 2 and stream.channel.picture is quiet
    assert stream.channel.drawing.acquire(blocking=False)
