"""The broker without a server: streams wake on a table's signal, draw it once for every kind of screen open in their
process, and, on PostgreSQL, hear other processes' signals when (and only when) their transaction commits."""

import threading
import time

import pytest

from app.live.broker import Broker, Picture, broker_for


def until(condition, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def heard(broker: Broker, code: str, version: int, within: float = 5.0) -> bool:
    return until(lambda: (channel := broker._channels.get(code)) is not None and channel.version >= version, within)


def painting(version: int, drawn: list):
    """A drawing that notes which kinds it was asked for."""
    def draw(kinds):
        drawn.append(set(kinds))
        return Picture(version=version, presence="-", regions={kind: f"{kind} at {version}" for kind in kinds})
    return draw


def test_a_stream_wakes_for_a_newer_version_or_who_is_connected_not_for_an_old_signal():
    broker = Broker()
    phone = broker.subscribe("AAAAA", ("seat", 1))
    broker.after_commit("AAAAA", 3)
    assert phone.wait(0, 1) == (3, False)
    started = time.monotonic()
    assert phone.wait(3, 0.2) == (3, False) and time.monotonic() - started >= 0.2, "nothing new: it waits it out"
    broker.after_commit("AAAAA", 2)  # an old signal, heard late
    assert phone.wait(3, 0.1) == (3, False)
    broker.after_commit("AAAAA", presence=True)
    assert phone.wait(3, 1) == (3, True)
    broker.after_commit("BBBBB", 9)  # nobody watches that table here: it costs nothing
    assert "BBBBB" not in broker._channels


def test_one_drawing_serves_every_kind_of_screen_open_in_the_process_until_the_table_changes():
    broker = Broker()
    host = broker.subscribe("AAAAA", ("host", None))
    phone = broker.subscribe("AAAAA", ("seat", 2))
    broker.subscribe("AAAAA", ("seat", 2))  # a second tab of the same phone: the same kind
    drawn: list = []
    broker.after_commit("AAAAA", 5)
    picture = host.picture(painting(5, drawn))
    assert phone.picture(lambda kinds: pytest.fail("drawn twice")) is picture
    assert drawn == [{("host", None), ("seat", 2)}]
    broker.after_commit("AAAAA", 6)
    assert phone.picture(painting(6, drawn)).version == 6 and len(drawn) == 2, "a new version is drawn again"
    late = broker.subscribe("AAAAA", ("watch", None))
    late.picture(painting(6, drawn))
    assert drawn[-1] == {("host", None), ("seat", 2), ("watch", None)}, "a kind no drawing had yet"


def test_streams_that_wake_together_draw_the_table_once_between_them():
    broker = Broker()
    streams = [broker.subscribe("AAAAA", ("seat", number)) for number in range(1, 6)]
    drawn, pictures = [], []

    def slow(kinds):
        time.sleep(0.1)
        return painting(2, drawn)(kinds)

    broker.after_commit("AAAAA", 2)
    threads = [threading.Thread(target=lambda s=stream: pictures.append(s.picture(slow))) for stream in streams]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(drawn) == 1 and len({id(picture) for picture in pictures}) == 1


def test_a_hung_up_stream_wakes_at_once_and_closing_the_last_forgets_the_table():
    broker = Broker()
    phone = broker.subscribe("AAAAA", ("seat", 1))
    threading.Timer(0.1, phone.hang_up).start()
    started = time.monotonic()
    phone.wait(0, 10)
    assert phone.hung_up and time.monotonic() - started < 5
    phone.close()
    assert "AAAAA" not in broker._channels


def test_sqlite_and_one_worker_signal_in_process_and_open_nothing():
    assert type(broker_for("sqlite:////tmp/night.sqlite3")) is Broker
    assert type(broker_for("sqlite://")) is Broker


@pytest.fixture
def pg_workers(database_url):
    """`pg_workers(n)`: n brokers on one PostgreSQL database, as n worker processes (on one machine or several)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's workers: CI runs this with NIGHTSHIFT_TEST_DATABASE_URL")
    made = []

    def make(count: int):
        made.extend(broker_for(database_url) for _ in range(count))
        return made[-count:]

    yield make
    for broker in made:
        broker.stop()


def in_transaction(broker, database_url: str, code: str, version: int, then) -> None:
    """What the write path does around a move's commit: the NOTIFY inside its transaction, `then()` before the
    commit, then `after_commit`."""
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from app.database import normalise_url

    engine = create_engine(normalise_url(database_url))
    try:
        with Session(engine) as session:
            broker.before_commit(session, code, version)
            then()
            session.commit()
    finally:
        engine.dispose()
    broker.after_commit(code, version)


def test_postgres_another_process_hears_a_move_when_it_commits_not_before(pg_workers, database_url):
    writer, other = pg_workers(2)
    writer.subscribe("AAAAA", ("host", None))
    other.subscribe("AAAAA", ("seat", 1))
    assert until(lambda: other._connection is not None and writer._connection is not None), "both listen"

    def not_yet():
        time.sleep(0.3)
        assert other._channels["AAAAA"].version == 0, "the move has not committed yet"

    in_transaction(writer, database_url, "AAAAA", 7, not_yet)
    assert heard(other, "AAAAA", 7) and heard(writer, "AAAAA", 7)


def test_postgres_a_process_listens_before_its_first_stream_reads_the_version(pg_workers, database_url):
    """A stream reads its table's version after subscribing; the first stream in a process subscribed before its
    LISTEN was up, so a move committed in between reached it only with the next move (a script's stream never)."""
    writer, other = pg_workers(2)
    other.subscribe("AAAAA", ("seat", 1))
    assert other._connection is not None, "subscribe returned before this process listened"
    in_transaction(writer, database_url, "AAAAA", 3, lambda: None)  # at once, as a move right after the read
    assert heard(other, "AAAAA", 3)


def test_postgres_who_is_connected_travels_too_and_a_malformed_signal_is_dropped(pg_workers, database_url, caplog):
    writer, other = pg_workers(2)
    phone = other.subscribe("AAAAA", ("seat", 1))
    assert until(lambda: other._connection is not None)
    from sqlalchemy import create_engine
    from sqlalchemy.orm import Session

    from app.database import normalise_url

    engine = create_engine(normalise_url(database_url))
    with Session(engine) as session:
        writer.before_commit(session, "AAAAA", presence=True)
        session.commit()
    engine.dispose()
    assert until(lambda: other._channels["AAAAA"].presence == 1)
    assert phone.wait(0, 1) == (0, True)
    other.heard("AAAAA v not-a-number")
    other.heard("too many words in it")
    assert "malformed signal" in caplog.text and other._channels["AAAAA"].version == 0


def test_postgres_a_listener_that_reconnects_makes_every_stream_check_again(pg_workers):
    broker, = pg_workers(1)
    phone = broker.subscribe("AAAAA", ("seat", 1))
    assert until(lambda: broker._connection is not None)
    pokes = broker._channels["AAAAA"].pokes
    from sqlalchemy import create_engine, text

    from app.database import normalise_url

    engine = create_engine(normalise_url(broker.url))
    with engine.connect() as connection:  # the database drops the LISTEN connection (a restart, a network blip)
        connection.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE query LIKE 'LISTEN nightshift%' AND pid <> pg_backend_pid() "
                                "AND datname = current_database()"))
        connection.commit()
    engine.dispose()
    assert until(lambda: broker._channels["AAAAA"].pokes > pokes, within=15), "signals may have been missed"
    assert phone.wait(0, 1)[1]


def test_are_a_channels_locks_gevents_once_the_worker_patched_threading_after_the_import():
    """gunicorn's master imports the broker before the gevent worker patches threading; a real lock held by a
    greenlet waiting on PostgreSQL froze the whole worker (every screen on PostgreSQL stopped updating)."""
    import subprocess
    import sys

    script = ("from app.live.broker import Channel\nfrom app.live.caps import StreamCaps\n"
              "from gevent import monkey; monkey.patch_all()\n"
              "print(type(Channel().drawing).__module__, type(Channel().changed._lock).__module__,"
              " type(StreamCaps(1, 1, 1, 1)._lock).__module__)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.split()
    assert "_thread" not in out, out  # the C lock would block every greenlet; gevent's, or Python's over it, yields
