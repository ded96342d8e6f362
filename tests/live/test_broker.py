"""The SQLite workers' signals (app/live/broker.py's SocketBroker), without a server: two brokers on one folder stand
for two worker processes on one database file."""

import importlib
import socket
import time

import pytest

from app.live.broker import SocketBroker

broker_module = importlib.import_module("app.live.broker")  # `app.live.broker` is also the function broker()


def until(condition, within: float = 3.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def heard(broker: SocketBroker, code: str, version: int, within: float = 3.0) -> bool:
    return until(lambda: (channel := broker._channels.get(code)) is not None and channel.version >= version, within)


@pytest.fixture
def workers(tmp_path):
    """`workers(n)`: n brokers on one folder, as n worker processes on one SQLite file; all stopped afterwards."""
    made: list[SocketBroker] = []

    def make(count: int) -> list[SocketBroker]:
        made.extend(SocketBroker(tmp_path / "signals") for _ in range(count))
        return made[-count:]

    yield make
    for broker in made:
        broker.stop()


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


def painting(version: int, drawn: list):
    """A writer's painter that records the kinds it is asked to draw."""
    from app.live.broker import Picture

    def draw(code, kinds, publish):
        drawn.append(set(kinds))
        picture = Picture(version=version, presence="P", regions={kind: f"<{kind[0]} {kind[1]}>".encode()
                                                                  for kind in kinds}, seats={7: "hash"})
        publish(picture)
        return picture

    return lambda: draw


def test_the_writer_draws_the_other_workers_screens_and_sends_each_its_own_regions(workers):
    """Two workers on one SQLite file: the one that wrote the move draws the table once for both, with the other's
    phones; the other's streams take that picture and draw nothing."""
    writer, other = workers(2)
    host = writer.subscribe("AAAAA", 4, kind=("host", None))
    phone = other.subscribe("AAAAA", 4, kind=("seat", 2))
    board = other.subscribe("AAAAA", 4, kind=("board", None))
    assert until(lambda: writer.wanted_by_others("AAAAA")), "the writer hears which screens the other holds"
    assert list(writer.wanted_by_others("AAAAA").values()) == [{("seat", 2)}], "a TV board is drawn where it is"
    drawn: list = []
    writer.painter = painting(5, drawn)
    writer.after_commit("AAAAA", 5)  # the drawing runs once the move's request is answered
    assert host.picture(lambda *args: pytest.fail("drawn twice")).version == 5, "the writer's stream waits for it"
    assert drawn == [{("host", None), ("seat", 2)}], "one drawing, the writer's screens and the other's"
    assert heard(other, "AAAAA", 5)
    picture = phone.picture(lambda *args: pytest.fail("the other worker drew too"), remote_ok=True)
    assert picture.version == 5 and picture.regions == {("seat", 2): b"<seat 2>"}, "only its own kinds travel"
    assert picture.seats == {7: "hash"} and picture.presence == "P"

    redrawn = []
    assert phone.picture(lambda *args: redrawn.append(1) or pytest.fail("drawn again")) is picture
    assert not redrawn, "the other streams of its kind take it too"
    assert board.picture(painting(5, drawn)(), remote_ok=True).regions.keys() >= {("board", None)}, \
        "a kind the picture lacks is drawn where it streams"


def test_a_stream_that_woke_for_who_is_connected_draws_for_itself(workers):
    writer, other = workers(2)
    writer.subscribe("AAAAA", 1)
    phone = other.subscribe("AAAAA", 1, kind=("seat", 1))
    assert until(lambda: writer.wanted_by_others("AAAAA"))
    writer.painter = painting(2, [])
    writer.after_commit("AAAAA", 2)
    assert heard(other, "AAAAA", 2)
    own: list = []
    assert phone.picture(painting(2, own)(), remote_ok=False).version == 2
    assert own == [{("seat", 1)}], "a presence change or a re-check is drawn from the database, not taken"
    other.deliver("AAAAA", presence=True)  # heard after the picture came: it may predate that change
    fresh: list = []
    phone.picture(painting(2, fresh)(), remote_ok=True)
    assert fresh == [{("seat", 1)}]


def test_the_writer_stops_drawing_for_screens_that_closed_or_a_worker_that_is_gone(workers):
    writer, other, late = workers(3)
    writer.subscribe("AAAAA", 1)
    one = other.subscribe("AAAAA", 1, kind=("seat", 1))
    two = other.subscribe("AAAAA", 1, kind=("seat", 1))
    assert until(lambda: writer.wanted_by_others("AAAAA"))
    two.close()
    time.sleep(0.1)
    assert list(writer.wanted_by_others("AAAAA").values()) == [{("seat", 1)}], "one phone of the kind is left"
    one.close()
    assert until(lambda: not writer.wanted_by_others("AAAAA")), "its last screen of the table closed"

    other.subscribe("BBBBB", 1, kind=("seat", 3))
    late.subscribe("CCCCC", 1)  # a worker that starts after the other's screens opened
    other._broadcast("CCCCC v 2\n")  # the other's next signal opens its connection, which says what it holds
    assert until(lambda: late.wanted_by_others("BBBBB")), "it learns them when the other first connects"
    assert until(lambda: writer.wanted_by_others("BBBBB"))
    other.stop()  # its process ends: its connections close
    assert until(lambda: not writer.wanted_by_others("BBBBB") and not late.wanted_by_others("BBBBB"))


def test_a_picture_is_cut_apart_as_it_was_packed_even_across_reads(workers):
    """Regions hold any UTF-8 but a line break; a picture arrives in pieces and between other lines."""
    from app.live.broker import Picture, packed_picture

    reader, sender = workers(2)
    stream = reader.subscribe("AAAAA", 1, kind=("seat", 4))
    big = ("− " * 40000).encode()  # 240 KB: more than one read
    picture = Picture(version=9, presence="x", regions={("seat", 4): big, ("seat", 5): b"not yours"}, seats={})
    sender._broadcast(b"ZZZZZ v 3\n" + packed_picture("AAAAA", picture, {("seat", 4)}) + b"AAAAA p 0\n")
    assert heard(reader, "AAAAA", 9)
    assert until(lambda: reader._channels["AAAAA"].presence == 1), "the line after the picture is read too"
    got = reader._channels["AAAAA"].remote
    assert got.version == 9 and got.regions == {("seat", 4): big}
    drawn: list = []
    assert stream.picture(painting(9, drawn)(), remote_ok=True) is not got
    assert drawn == [{("seat", 4)}], "heard before the presence change that followed it: no longer current"


def test_a_drawing_for_others_that_cannot_start_still_signals_them_and_frees_the_table(workers, monkeypatch):
    """The move is committed: whatever fails in drawing it for the other processes, they still hear its version."""
    writer, other = workers(2)
    host = writer.subscribe("AAAAA", 1, kind=("host", None))
    other.subscribe("AAAAA", 1, kind=("seat", 1))
    assert until(lambda: writer.wanted_by_others("AAAAA"))
    writer.painter = painting(2, [])

    def cannot_start(*args):
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(broker_module, "later", cannot_start)
    writer.after_commit("AAAAA", 2)  # raises nothing into the write path
    assert heard(other, "AAAAA", 2) and other._channels["AAAAA"].remote is None, "the plain line went out"
    assert host.channel.drawing.acquire(blocking=False), "and the table's drawing lock is free"
    host.channel.drawing.release()


def test_a_picture_that_cannot_be_read_still_says_its_version_and_a_bad_length_hangs_up(workers):
    reader, sender = workers(2)
    reader.subscribe("AAAAA", 1, kind=("seat", 1))
    sender._broadcast(b"AAAAA P 7 3 0\nxyz")  # a header that is not JSON
    assert heard(reader, "AAAAA", 7), "its streams draw that version themselves"
    assert reader._channels["AAAAA"].remote is None
    sender._broadcast(b"AAAAA P 8 -20 5\n0123456789")  # would never move past its line: the reader hangs up
    for version in range(9, 100):  # the sender notices the hung-up connection on a later send and opens a new one
        sender._broadcast(f"AAAAA v {version}\n")
        if heard(reader, "AAAAA", version, within=0.05):
            break
    assert reader._channels["AAAAA"].version >= 9, "a reader that spun on that line would never hear again"


def test_a_version_this_process_drew_itself_is_not_replaced_by_another_s_drawing_of_it(workers):
    """It drew that version from the database because who is connected changed: the other's may predate that, so a
    screen that opened since draws its own kind too rather than take the other's."""
    from app.live.broker import Picture, packed_picture

    reader, sender = workers(2)
    first = reader.subscribe("AAAAA", 1, kind=("seat", 1))
    reader.deliver("AAAAA", 3)
    first.picture(painting(3, [])())
    later_phone = reader.subscribe("AAAAA", 3, kind=("seat", 2))
    theirs = Picture(3, "older", {("seat", 1): b"theirs", ("seat", 2): b"theirs"}, {})
    sender._broadcast(packed_picture("AAAAA", theirs, {("seat", 1), ("seat", 2)}))
    reader.subscribe("ZZZZZ", 0)
    sender._broadcast(b"ZZZZZ v 1\n")  # read after the picture: once it is heard, the picture was handled
    assert heard(reader, "ZZZZZ", 1) and reader._channels["AAAAA"].remote is None
    drawn: list = []
    assert later_phone.picture(painting(3, drawn)(), remote_ok=True).regions[("seat", 2)] != b"theirs"
    assert drawn == [{("seat", 2)}]


def test_lines_from_a_connection_another_process_has_replaced_are_ignored(workers):
    """A process that reconnected began its new connection with all it holds; its old one's last lines are stale."""
    reader, = workers(1)
    old, new = object(), object()
    reader._kind_heard("AAAAA k B seat 1 +".split(), old)
    with reader._lock:
        reader._wanted["B"], reader._speaking["B"] = {}, new  # "- h B" on the new connection
    reader._kind_heard("AAAAA k B seat 2 +".split(), new)
    reader._kind_heard("AAAAA k B seat 3 +".split(), old)
    assert reader.wanted_by_others("AAAAA") == {"B": {("seat", 2)}}


def test_a_picture_is_taken_only_by_screens_under_the_root_it_was_drawn_for(workers):
    """Its URLs begin with the writer's mount point: a screen of the app mounted elsewhere draws its own."""
    writer, other = workers(2)
    writer.subscribe("AAAAA", 1)
    mounted = other.subscribe("AAAAA", 1, kind=("seat", 1), root="/night")
    assert until(lambda: writer.wanted_by_others("AAAAA"))
    writer.painter = painting(2, [])
    writer.after_commit("AAAAA", 2)
    assert until(lambda: other._channels["AAAAA"].remote is not None)
    drawn: list = []
    mounted.picture(painting(2, drawn)(), remote_ok=True)
    assert drawn == [{("seat", 1)}]


@pytest.fixture
def pg_workers(database_url):
    """`pg_workers(n)`: n brokers on one PostgreSQL database, as n worker processes (on one machine or several)."""
    from app.live.broker import broker_for

    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's workers: CI runs this with NIGHTSHIFT_TEST_DATABASE_URL")
    made = []

    def make(count: int):
        made.extend(broker_for(database_url) for _ in range(count))
        return made[-count:]

    yield make
    for broker in made:
        broker.stop()


def commit_move(broker, database_url: str, code: str, version: int, after: bool = True) -> None:
    """What the write path does around a move's commit: the NOTIFY inside its transaction, then `after_commit`."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from app.database import normalise_url

    engine = create_engine(normalise_url(database_url))
    try:
        with Session(engine) as session:
            broker.before_commit(session, code, version)
            session.commit()
    finally:
        engine.dispose()
    if after:
        broker.after_commit(code, version)


def test_postgres_the_writer_draws_the_other_processes_screens_and_they_wait_for_its_picture(
        pg_workers, database_url, monkeypatch):
    """On PostgreSQL too the writer draws once for every process, once two others hold screens of the table: the
    move's NOTIFY names the processes it draws for, and their streams wake with the picture (sent in several NOTIFYs
    when it is large), not before."""
    import secrets
    import threading

    from app.live.broker import Picture

    monkeypatch.setattr(broker_module, "PICTURE_WAIT", 30.0)  # the picture, not the fallback, wakes them
    writer, other, third = pg_workers(3)
    host = writer.subscribe("AAAAA", 4, kind=("host", None))
    phone = other.subscribe("AAAAA", 4, kind=("seat", 2))
    other.subscribe("AAAAA", 4, kind=("board", None))
    third_phone = third.subscribe("AAAAA", 4, kind=("seat", 3))
    assert until(lambda: writer.wanted_by_others("AAAAA") == {other.name: {("seat", 2)}, third.name: {("seat", 3)}}), \
        "TV boards are drawn where they stream"
    big = secrets.token_hex(20000).encode()  # hardly compresses: more than one NOTIFY
    go, drawn = threading.Event(), []

    def draw(code, kinds, publish):
        drawn.append(set(kinds))
        go.wait(10)
        picture = Picture(version=5, presence="P", regions={kind: big + str(kind).encode() for kind in kinds},
                          seats={7: "hash"}, root="")
        publish(picture)
        return picture

    writer.painter = lambda: draw
    commit_move(writer, database_url, "AAAAA", 5)
    time.sleep(0.5)
    assert other._channels["AAAAA"].version == third._channels["AAAAA"].version == 4, "they wait for the picture"
    go.set()
    assert host.picture(lambda *args: pytest.fail("drawn twice")).version == 5
    assert drawn == [{("host", None), ("seat", 2), ("seat", 3)}]
    assert heard(other, "AAAAA", 5, within=5) and heard(third, "AAAAA", 5, within=5)
    picture = phone.picture(lambda *args: pytest.fail("the other process drew too"), remote_ok=True)
    assert picture.regions == {("seat", 2): big + b"('seat', 2)"} and picture.seats == {7: "hash"}
    assert third_phone.picture(lambda *args: pytest.fail("drawn again"), remote_ok=True).regions.keys() == {("seat", 3)}
    assert not other._parts, "the parts were put together"


def test_postgres_with_one_other_process_each_draws_its_own_screens(pg_workers, database_url):
    """That one draws at the same time as the writer, on the other core: nobody waits for a picture."""
    writer, other = pg_workers(2)
    writer.subscribe("AAAAA", 1, kind=("host", None))
    other.subscribe("AAAAA", 1, kind=("seat", 1))
    assert until(lambda: writer.wanted_by_others("AAAAA"))
    drawn: list = []
    writer.painter = painting(2, drawn)
    commit_move(writer, database_url, "AAAAA", 2)
    assert heard(other, "AAAAA", 2) and heard(writer, "AAAAA", 2)
    time.sleep(0.2)
    assert drawn == [] and other._channels["AAAAA"].remote is None, "the writer drew nothing for the other"


def test_postgres_a_picture_that_never_comes_is_drawn_after_the_wait(pg_workers, database_url, monkeypatch):
    """The writer died after its commit, or could not draw: the others draw the move themselves, a moment later."""
    monkeypatch.setattr(broker_module, "PICTURE_WAIT", 0.3)
    writer, other, third = pg_workers(3)
    writer.subscribe("AAAAA", 1)
    other.subscribe("AAAAA", 1, kind=("seat", 1))
    third.subscribe("AAAAA", 1, kind=("seat", 2))
    assert until(lambda: len(writer.wanted_by_others("AAAAA")) == 2)
    writer.painter = painting(2, [])
    commit_move(writer, database_url, "AAAAA", 2, after=False)  # promised, then nothing
    time.sleep(0.1)
    assert other._channels["AAAAA"].version == 1, "promised a picture: it waits"
    assert heard(other, "AAAAA", 2) and other._channels["AAAAA"].remote is None, "then draws for itself"

    def cannot_draw(code, kinds, publish):
        raise RuntimeError("the database went away")

    monkeypatch.setattr(broker_module, "PICTURE_WAIT", 30.0)
    writer.painter = lambda: cannot_draw
    commit_move(writer, database_url, "AAAAA", 3)
    assert heard(other, "AAAAA", 3), "a writer that could not draw says the plain version at once"
    other._heard(f"AAAAA P 4 {other.name} 10 0 1 not-a-picture")
    assert heard(other, "AAAAA", 4), "an unreadable picture still says its version"


def test_postgres_processes_learn_who_holds_what_and_forget_those_that_stop_or_fall_silent(pg_workers):
    writer, other = pg_workers(2)
    other.subscribe("BBBBB", 1, kind=("seat", 3))
    writer.subscribe("CCCCC", 1)  # starts after the other's screens opened: asks what the others hold
    assert until(lambda: writer.wanted_by_others("BBBBB") == {other.name: {("seat", 3)}})
    late, = pg_workers(1)
    late.subscribe("CCCCC", 1)
    assert until(lambda: late.wanted_by_others("BBBBB"))
    with writer._lock:
        writer._seen[other.name] -= 3 * broker_module.ALIVE_SECONDS + 1
    writer._forget_silent()
    assert not writer.wanted_by_others("BBBBB"), "silent for three beats: gone"
    other.stop()
    assert until(lambda: not late.wanted_by_others("BBBBB")), "it said goodbye"
