"""Who needs to hear that a table changed: channels in this process, fed across processes by PostgreSQL NOTIFY.

A signal says only "table CODE is at version N" or "who is connected changed"; every process draws its own screens
from the database. One worker (the default, on SQLite) needs nothing else. Several workers or app servers share a
PostgreSQL database: the write path sends `pg_notify` inside the move's transaction, so the signal goes out exactly
when the change commits, and each process hears every table's signals on one LISTEN connection.
Under gunicorn's gevent worker `threading` is monkey-patched, so the conditions and the listener below are
greenlets, and psycopg 3 waits cooperatively.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

CHANNEL = "nightshift"
LISTEN_CHECK_SECONDS = 30.0  # a quiet LISTEN connection is checked this often, so a dead one is noticed
LISTEN_READY_SECONDS = 5.0  # the first stream in a process waits at most this long for its LISTEN to be up


@dataclass
class Picture:
    """One table drawn once for every kind of screen open on it in this process, at one version."""

    version: int
    presence: str
    regions: dict = field(default_factory=dict)  # screen kind -> its live region's HTML
    seats: dict = field(default_factory=dict)  # seat id -> token hash, so a stream notices its seat was freed
    events: dict = field(default_factory=dict)  # screen kind -> its `live` event, (bytes, deflated bytes), made once
    stamp: tuple = ()  # what the channel had heard when it was drawn


@dataclass
class Channel:
    """One table's signals in this process: the newest version heard, who waits, and its newest drawing."""

    version: int = 0
    presence: int = 0  # bumps when a seat connects or disconnects; not a game change, so no version bump
    pokes: int = 0  # bumps when signals may have been missed (the listener reconnected): every stream re-checks
    listeners: int = 0
    changed: threading.Condition = field(default_factory=lambda: threading.Condition())
    kinds: collections.Counter = field(default_factory=collections.Counter)  # open screens here, by kind
    picture: Picture | None = None
    # One drawing at a time; the others wait for it and take their kind's region. The lambdas look `threading` up
    # when a channel is made: gunicorn's master imports this module before the gevent worker patches threading, and a
    # real lock taken by a greenlet that waits on PostgreSQL froze the whole worker.
    drawing: threading.Lock = field(default_factory=lambda: threading.Lock())

    def stamp(self) -> tuple[int, int, int]:
        return self.version, self.presence, self.pokes


class Subscription:
    """A stream's handle on its table's channel: wait for the next change, then take this screen's picture."""

    def __init__(self, broker: Broker, code: str, channel: Channel, kind=None):
        self.broker, self.code, self.channel, self.kind = broker, code, channel, kind
        self.seen_presence, self.seen_pokes = channel.presence, channel.pokes
        self.hung_up = False

    def hang_up(self) -> None:
        """The client went away (or the stream was evicted): wake the stream so it ends now."""
        with self.channel.changed:
            self.hung_up = True
            self.channel.changed.notify_all()

    def wait(self, known_version: int, timeout: float) -> tuple[int, bool]:
        """Block until the table passes `known_version`, who is connected changes, or `timeout`; return the newest
        version and whether anything but the version changed."""
        channel = self.channel
        with channel.changed:
            channel.changed.wait_for(lambda: channel.version > known_version or channel.presence != self.seen_presence
                                     or channel.pokes != self.seen_pokes or self.hung_up, timeout)
            other = (channel.presence, channel.pokes) != (self.seen_presence, self.seen_pokes)
            self.seen_presence, self.seen_pokes = channel.presence, channel.pokes
            return channel.version, other

    def picture(self, draw: Callable[[set], Picture]) -> Picture:
        """This table as drawn for every kind of screen open here, at most once per change: the first stream to wake
        draws them all from one snapshot, the others wait on the lock and take their region from it."""
        channel = self.channel
        with channel.drawing:
            stamp = channel.stamp()
            picture = channel.picture
            if picture is not None and picture.stamp == stamp and self.kind in picture.regions:
                return picture
            picture = draw(set(channel.kinds) | {self.kind})
            picture.stamp = stamp
            channel.picture = picture
            return picture

    def close(self) -> None:
        self.broker._release(self.code, self.kind)


class Broker:
    """Signals within one process: the write path calls `after_commit`, streams `subscribe` and wait."""

    kind = "in-process"

    def __init__(self) -> None:
        self._channels: dict[str, Channel] = {}
        self._lock = threading.Lock()
        self.seat_streams: collections.Counter[int] = collections.Counter()  # open streams per seat, here

    def subscribe(self, code: str, kind=None) -> Subscription:
        """Listen to a table; a screen that wants its region pushed names its `kind`, so drawings include it."""
        self._start()
        with self._lock:
            channel = self._channels.setdefault(code, Channel())
            channel.listeners += 1
            if kind is not None:
                channel.kinds[kind] += 1
        return Subscription(self, code, channel, kind)

    def _release(self, code: str, kind=None) -> None:
        with self._lock:
            channel = self._channels.get(code)
            if channel is None:
                return
            channel.listeners -= 1
            if kind is not None:
                channel.kinds[kind] -= 1
                if channel.kinds[kind] <= 0:
                    del channel.kinds[kind]
            if channel.listeners <= 0:
                del self._channels[code]

    def deliver(self, code: str, version: int | None = None, presence: bool = False) -> None:
        """Wake this process's streams of a table; a table nobody watches here costs nothing."""
        channel = self._channels.get(code)
        if channel is None:
            return
        with channel.changed:
            if version is not None and version > channel.version:
                channel.version = version
            if presence:
                channel.presence += 1
            channel.changed.notify_all()

    def poke_all(self) -> None:
        """Signals may have been missed: every stream draws its table again (an unchanged picture is not sent)."""
        for channel in list(self._channels.values()):
            with channel.changed:
                channel.pokes += 1
                channel.changed.notify_all()

    def before_commit(self, session, code: str, version: int | None = None, presence: bool = False) -> None:
        """Inside the writing transaction: other processes hear of a change exactly when it commits."""

    def after_commit(self, code: str, version: int | None = None, presence: bool = False) -> None:
        self.deliver(code, version, presence)

    def _start(self) -> None:
        """Nothing to start in-process."""

    def stop(self) -> None:
        """Nothing to stop in-process."""


class PostgresBroker(Broker):
    """Signals ride on PostgreSQL NOTIFY ("CODE v N", "CODE p 0"), sent in the writing transaction; one LISTEN
    connection per process hears every table's, including its own (delivering a version twice is harmless)."""

    kind = "postgres"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self._thread: threading.Thread | None = None
        self._connection = None
        self._stopping = False
        self._listening = threading.Event()  # set once this process has listened: no signal after that is missed

    def before_commit(self, session, code: str, version: int | None = None, presence: bool = False) -> None:
        from sqlalchemy import text

        payload = f"{code} p 0" if presence else f"{code} v {version}"
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def heard(self, payload: str) -> None:
        """One NOTIFY payload; anything malformed is logged and dropped."""
        try:
            code, what, number = payload.split(" ")
            self.deliver(code, int(number)) if what == "v" else self.deliver(code, presence=True)
        except ValueError:
            log.warning("live updates: ignored a malformed signal %r", payload[:200])

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stopping = False
                self._thread = threading.Thread(target=self._listen, name="nightshift-listen", daemon=True)
                self._thread.start()
        # A stream reads its table's version after subscribing. Had it subscribed before this process listened, a
        # move committed in between would reach it only with the next move (and a script's stream never).
        self._listening.wait(LISTEN_READY_SECONDS)

    def stop(self) -> None:
        self._stopping = True
        connection = self._connection
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.cancel_safe()

    def _listen(self) -> None:
        """Hold one LISTEN connection; on any failure reconnect with backoff, and every stream re-checks."""
        import psycopg

        backoff = 0.2
        while not self._stopping:
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    self._connection = connection
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    self.poke_all()  # anything that changed while nobody listened
                    backoff = 0.2
                    while not self._stopping:
                        for notice in connection.notifies(timeout=LISTEN_CHECK_SECONDS):
                            self.heard(notice.payload)
                            if self._stopping:
                                break
                        else:
                            connection.execute("SELECT 1")  # a connection that died quietly raises here
            except Exception as error:  # noqa: BLE001 - the listener must outlive a database restart
                if self._stopping:
                    break
                log.warning("live updates: lost the PostgreSQL LISTEN connection (%s); reconnecting", error)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            finally:
                self._connection = None


def broker_for(url: str) -> Broker:
    """PostgreSQL signals between processes and machines; anything else (SQLite, one worker) stays in-process."""
    if url.startswith("postgresql"):
        return PostgresBroker(url.replace("postgresql+psycopg://", "postgresql://", 1))
    return Broker()
