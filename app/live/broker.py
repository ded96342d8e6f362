"""Who needs to hear that a table changed: in-process channels, fed across processes by PostgreSQL LISTEN/NOTIFY.

A signal says "table CODE is at version N" or "who is connected changed". A table is drawn once per change for the
screens that show it (one snapshot, one render per kind of screen: the host, each seat, spectators): by the process
that wrote a move, for its own screens and the other processes' (SharingBroker), or by a process for its own when it
woke for anything else. Each stream sends only its own kind's picture, so what one seat may not see never reaches
another's phone.

With SQLite (the embedded default) the processes on this machine that share the database file signal each other
through Unix sockets (SocketBroker). With PostgreSQL the write path sends `pg_notify` inside the same
transaction as the change, so the signal goes out exactly when the change commits, and every server process (on any
machine) hears it through one LISTEN connection.
Under gunicorn's gevent worker `threading` is monkey-patched, so the conditions and the listener thread below are
greenlets, and psycopg 3 (3.1.14+) waits cooperatively.
"""

from __future__ import annotations

import atexit
import base64
import collections
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import wire

log = logging.getLogger(__name__)

CHANNEL = "nightshift"
PICTURE_MAX = 64 << 20  # a picture of one table for another process's screens is far smaller: anything more is wrong
PICTURE_WAIT = 0.5  # seconds a process waits for the writer's drawing of a move (PostgreSQL) before drawing it itself
ALIVE_SECONDS = 20.0  # how often a process says it is there (PostgreSQL); one silent for three times that is forgotten
NOTIFY_PART = 7600  # characters of a picture per NOTIFY: PostgreSQL refuses a payload of 8000 bytes or more
NOTIFY_ALL = "SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) AS payload"  # several in one round trip


@dataclass
class Channel:
    """One table's signal in this process: the newest version heard, a presence counter, and who waits."""

    version: int = 0
    presence: int = 0  # bumps when a seat connects or disconnects; not a game change, so no version bump
    pokes: int = 0  # bumps when the broker may have missed signals (listener reconnected): everyone re-checks
    listeners: int = 0
    changed: threading.Condition = field(default_factory=lambda: threading.Condition())
    kinds: collections.Counter = field(default_factory=collections.Counter)  # open screens here, by kind
    picture: Picture | None = None  # the newest drawing of this table, shared by its streams in this process
    remote: Picture | None = None  # the newest drawing another process sent for the screens here (SocketBroker)
    # One drawing at a time; the others wait for it. Looked up when a channel is made, not at import: gunicorn imports
    # this module before gevent patches threading, and an OS lock waited on by a greenlet freezes the whole worker.
    drawing: threading.Lock = field(default_factory=lambda: threading.Lock())

    def stamp(self) -> tuple[int, int, int]:
        """What this process has heard of the table: a drawing with another stamp may be out of date."""
        return self.version, self.presence, self.pokes


@dataclass
class Picture:
    """One table drawn once for every kind of screen open on it in this process."""

    version: int
    presence: str
    regions: dict = field(default_factory=dict)  # screen kind -> the live region's HTML: one line of UTF-8, as sent
    seats: dict = field(default_factory=dict)  # seat id -> token hash, so a stream notices its seat was freed
    packed: dict = field(default_factory=dict)  # screen kind -> (the event's bytes, the same deflated), made once
    stamp: tuple = ()
    root: str = ""  # where the app that drew it is mounted: its URLs are only right for screens under the same root

    def region(self, kind) -> str:
        """A kind's region as text, for whoever reads it rather than sends it."""
        return self.regions[kind].decode()


class Subscription:
    """A stream's handle on a channel: wait for the next change, then say what changed."""

    def __init__(self, broker: Broker, code: str, channel: Channel, kind=None, root: str = ""):
        self.broker, self.code, self.channel, self.kind, self.root = broker, code, channel, kind, root
        self.seen_presence = channel.presence
        self.seen_pokes = channel.pokes
        self.hung_up = False

    def hang_up(self) -> None:
        """The client went away: wake the stream so it ends now, not at its next ping."""
        with self.channel.changed:
            self.hung_up = True
            self.channel.changed.notify_all()

    def wait(self, known_version: int, timeout: float) -> tuple[int, bool, bool]:
        """Block until the table passes `known_version`, presence changes, or `timeout`; return what is new."""
        channel = self.channel
        with channel.changed:
            channel.changed.wait_for(lambda: channel.version > known_version or channel.presence != self.seen_presence
                                     or channel.pokes != self.seen_pokes or self.hung_up, timeout)
            presence = channel.presence != self.seen_presence
            poked = channel.pokes != self.seen_pokes
            self.seen_presence, self.seen_pokes = channel.presence, channel.pokes
            return channel.version, presence, poked

    def picture(self, draw: Callable[..., Picture], remote_ok: bool = False, also: frozenset = frozenset(),
                locked: bool = False) -> Picture:
        """This table as this stream's kind of screen sees it, drawn at most once per change for every stream here.

        The first stream to wake draws every kind open in this process from one snapshot; the others wait on the
        lock and take their kind's region from that drawing. `draw(code, kinds, publish)` hands the drawing to
        `publish` as soon as it is made, before its database session ends (on PostgreSQL a round trip, and a wait
        behind whatever else the worker runs): the others send it meanwhile. `remote_ok`: the stream woke for a new
        version only (not for who is connected, nor a re-check), so a drawing another process sent for this very
        change will do. `also`: kinds to draw beside this process's own (the other processes', for the writer).
        `locked`: the caller holds the drawing lock already (the writer took it before telling its streams).
        """
        channel = self.channel
        if not locked:
            channel.drawing.acquire()
        held = True
        try:
            stamp = channel.stamp()
            picture = channel.picture
            wanted = ({self.kind} | also) - {None}
            if picture is not None and picture.stamp == stamp and wanted <= picture.regions.keys():
                return picture
            remote = channel.remote
            if (remote_ok and remote is not None and remote.stamp == stamp and self.kind in remote.regions
                    and remote.root == self.root):
                channel.picture = remote
                return remote
            same = picture is not None and picture.stamp == stamp
            # a late joiner draws only its own kind
            kinds = (wanted - picture.regions.keys() if same else set(channel.kinds) | wanted) - {None}

            def publish(fresh: Picture) -> None:
                nonlocal held
                fresh.stamp = stamp
                if same and (fresh.version, fresh.presence) == (picture.version, picture.presence):
                    fresh.regions = picture.regions | fresh.regions
                    fresh.packed = picture.packed
                channel.picture = fresh
                held = False
                channel.drawing.release()

            fresh = draw(self.code, kinds, publish)
            if held:  # a drawing that returned without publishing
                publish(fresh)
            return fresh
        finally:
            if held:
                channel.drawing.release()

    def close(self) -> None:
        self.broker._release(self.code, self.kind)


class Broker:
    """In-process fan-out; `publish` is what the write path calls after a commit."""

    kind = "in-process"
    # Set by the app: the draw(code, kinds, publish) of the request that wrote a move, or None outside a request.
    painter: Callable[[], Callable[..., Picture] | None] | None = None

    def __init__(self) -> None:
        self._channels: dict[str, Channel] = {}
        self._lock = threading.Lock()
        self.seat_streams: collections.Counter[int] = collections.Counter()  # open streams per seat, here

    # -- subscribing ---------------------------------------------------------------------------------------------

    def subscribe(self, code: str, version: int, kind=None, root: str = "") -> Subscription:
        """Listen to a table; `version` is what the database said just after subscribing (no gap). A screen that
        wants its region pushed names its `kind`, so drawings include it, and where the app is mounted for it."""
        self._start()
        with self._lock:
            channel = self._channels.setdefault(code, Channel())
            channel.listeners += 1
            if kind is not None:
                channel.kinds[kind] += 1
            first = kind is not None and channel.kinds[kind] == 1
        if first:
            self._kind_opened(code, kind, True)
        self.deliver(code, version)
        return Subscription(self, code, channel, kind, root)

    def _release(self, code: str, kind=None) -> None:
        last = False
        with self._lock:
            channel = self._channels.get(code)
            if channel is not None:
                channel.listeners -= 1
                if kind is not None:
                    channel.kinds[kind] -= 1
                    if channel.kinds[kind] <= 0:
                        last = True
                        del channel.kinds[kind]
                        if channel.picture is not None:
                            channel.picture.regions.pop(kind, None)
                if channel.listeners <= 0:
                    del self._channels[code]
        if last:
            self._kind_opened(code, kind, False)

    def _kind_opened(self, code: str, kind, opened: bool) -> None:
        """The first screen of a kind opened here, or the last one closed: other processes may want to know."""

    def listening(self) -> int:
        """Open subscriptions in this process (for the benchmark and the health page)."""
        with self._lock:
            return sum(channel.listeners for channel in self._channels.values())

    # -- delivering ----------------------------------------------------------------------------------------------

    def deliver(self, code: str, version: int | None = None, presence: bool = False) -> None:
        """Wake this process's streams for a table; unknown tables (nobody listening here) cost nothing."""
        channel = self._channels.get(code)
        if channel is None:
            return
        with channel.changed:
            if version is not None and version > channel.version:
                channel.version = version
            if presence:
                channel.presence += 1
            channel.changed.notify_all()

    def _heard(self, payload: str) -> None:
        try:
            code, kind, number = payload.split(" ")
            if kind == "v":
                self.deliver(code, int(number))
            else:
                self.deliver(code, presence=True)
        except ValueError:
            log.warning("live updates: ignored a malformed signal %r", payload)

    def poke_all(self) -> None:
        """Signals may have been missed: every stream tells its screen to re-check (an unchanged view is a 204)."""
        for channel in list(self._channels.values()):
            with channel.changed:
                channel.pokes += 1
                channel.changed.notify_all()

    # -- publishing (called by the write path) -------------------------------------------------------------------

    def before_commit(self, session, code: str, version: int | None = None, presence: bool = False) -> None:
        """Hook inside the writing transaction, so other processes hear of a change exactly when it commits."""

    def after_commit(self, code: str, version: int | None = None, presence: bool = False) -> None:
        """Wake this process's streams at once."""
        self.deliver(code, version, presence)

    def _start(self) -> None:
        """Nothing to start in-process."""

    def stop(self) -> None:
        """Nothing to stop in-process."""


class SharingBroker(Broker):
    """Processes that draw a move once between them, not once each.

    Each process tells the others which kinds of screen it holds of each table ("CODE k NAME ROLE N +" when the first
    opens, "... -" when the last closes; NAME is the process's), and the process that wrote a move draws those kinds
    with its own, from one snapshot, and sends each process its kinds' regions. A stream that woke for anything but a
    version (who is connected, a re-check), or whose kind a picture lacks, draws for itself, as it does when no
    picture comes. TV boards are always drawn where they stream: their QR code names the address the TV itself used.
    Subclasses carry the lines (`_tell`) and the pictures (`_send`).
    """

    name: str | None = None  # this process, as the others know it (None: it can't be told anything yet)
    share_from = 1  # how many other processes must hold screens of a table before its writer draws for them

    def __init__(self) -> None:
        super().__init__()
        self._wanted: dict[str, dict[str, set]] = {}  # another process's name -> table -> kinds it holds

    def wanted_by_others(self, code: str) -> dict[str, set]:
        """The kinds of screen the other processes hold of a table, by their name."""
        with self._lock:
            return {name: set(tables[code]) for name, tables in self._wanted.items() if tables.get(code)}

    def _to_draw_for(self, code: str, version: int | None, presence: bool) -> tuple[dict[str, set], Callable | None]:
        """The other processes a committed move is drawn for, and how this request draws it (None: they draw)."""
        if presence or version is None or self.painter is None:
            return {}, None
        wanted = self.wanted_by_others(code)
        return (wanted, self.painter()) if len(wanted) >= self.share_from else ({}, None)

    def after_commit(self, code: str, version: int | None = None, presence: bool = False) -> None:
        """Wake this process's streams and tell the others; if they hold screens of the table, draw it for them
        too, once the move's own request is answered (a greenlet of its own, holding the table's drawing lock from
        now on, so that no stream here draws the change as well)."""
        subscription, locked, wanted = None, False, {}
        try:
            wanted, draw = self._to_draw_for(code, version, presence)
            if draw is not None:
                subscription = self.subscribe(code, 0)
                subscription.channel.drawing.acquire()
                locked = True
                super().after_commit(code, version, presence)
                later(self._draw_for_others, subscription, draw, wanted, version)
                return
        except Exception as error:  # noqa: BLE001 - the change is committed: tell everyone the plain way instead
            log.warning("live updates: could not draw table %s for other processes (%s)", code, error)
            if locked:
                subscription.channel.drawing.release()
            if subscription is not None:
                subscription.close()
        super().after_commit(code, version, presence)
        self._send(code, version, presence, None, wanted)

    def _send(self, code: str, version: int | None, presence: bool, picture: Picture | None = None,
              wanted: dict | None = None) -> None:
        """Tell the other processes of a change: the processes in `wanted` its `picture` (without one, a plain
        signal, and they draw it)."""
        raise NotImplementedError

    def _tell(self, lines: list[str]) -> None:
        """Say lines (without their newline) to every other process."""
        raise NotImplementedError

    def _draw_for_others(self, subscription: Subscription, draw, wanted: dict[str, set], version: int) -> None:
        """The writer draws the other processes' kinds with its own, once, as its streams would (same lock and
        stamp): they take the picture, and so do the other processes."""
        picture = None
        try:
            picture = subscription.picture(draw, also=frozenset(set().union(*wanted.values())), locked=True)
        except Exception as error:  # noqa: BLE001 - the others then draw for themselves
            log.warning("live updates: could not draw table %s for other processes (%s)", subscription.code, error)
        finally:
            subscription.close()
            self._send(subscription.code, version, False, picture, wanted)

    def _kind_opened(self, code: str, kind, opened: bool) -> None:
        if kind[0] == "board" or self.name is None:
            return
        try:
            self._tell([kind_line(code, self.name, kind, opened)])
        except Exception as error:  # noqa: BLE001 - the others then keep drawing for themselves
            log.warning("live updates: could not tell other processes of a screen (%s)", error)

    def _held_lines(self) -> list[str]:
        """Every kind this process holds, for a process that may have started after they opened, or forgotten
        them."""
        name = self.name
        return [kind_line(code, name, kind, True) for code, channel in list(self._channels.items())
                for kind in list(channel.kinds) if kind[0] != "board"]

    def _speaks(self, name: str, connection) -> bool:
        """Whether a line from process `name` counts (called holding the lock)."""
        return True

    def _kind_heard(self, words: list[str], connection=None) -> None:
        code, _, name, role, number, sign = words
        try:
            kind = (role, None if number == "-" else int(number))
        except ValueError:
            log.warning("live updates: ignored a malformed signal %r", " ".join(words))
            return
        with self._lock:
            if not self._speaks(name, connection):
                return
            held = self._wanted.setdefault(name, {}).setdefault(code, set())
            if sign == "+":
                held.add(kind)
            else:
                held.discard(kind)
                if not held:
                    del self._wanted[name][code]

    def _picture_heard(self, code: str, version: int, header: bytes, body: bytes) -> None:
        """Another process drew this table for the screens here: the streams that woke for its version take it.
        A picture that can't be read still says the version, and the streams draw it themselves."""
        try:
            meta = json.loads(header)
            regions, at = {}, 0
            for role, number, size in meta["k"]:
                regions[(role, number)] = body[at:at + size]
                at += size
            picture = Picture(version=version, presence=meta["p"], regions=regions,
                              seats={int(seat): token for seat, token in meta["s"].items()}, root=meta.get("r", ""))
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            log.warning("live updates: ignored a malformed picture of %s (%s)", code, error)
            self.deliver(code, version)
            return
        channel = self._channels.get(code)
        if channel is None:
            return
        with channel.changed:
            if picture.version > channel.version:
                channel.version = picture.version
            drawn_here = channel.picture
            # not when this process drew that version itself: it may know of a later change of who is connected
            if picture.version >= channel.version and (drawn_here is None or drawn_here.version < picture.version):
                picture.stamp = channel.stamp()
                channel.remote = picture
            channel.changed.notify_all()


class PostgresBroker(SharingBroker):
    """Signals ride on PostgreSQL NOTIFY; one LISTEN connection per process hears every table's changes.

    Processes (on any machine) draw a move once between them when at least `share_from` other processes hold screens
    of its table: the writer's NOTIFY, sent inside the move's transaction, names itself and the processes it will draw
    for ("CODE v N WRITER NAME,NAME"); they wait up to PICTURE_WAIT for their picture, which comes after the commit as
    "CODE P N NAME HEADER PART PARTS DATA" (deflated, base64, cut under NOTIFY's 8000-byte limit). If it doesn't come
    (the writer died, or could not draw), they draw the move themselves. A process says it is there every
    ALIVE_SECONDS ("- a NAME"); one silent for three times that is forgotten, and one that (re)connects asks the
    others for what they hold ("- h NAME").
    """

    kind = "postgres"
    # With one other process, that one draws its screens at the same time as the writer, on the other core, and a
    # picture by NOTIFY would cost more than that drawing (bench/live.py --workers 2, README): it pays from two on.
    share_from = 2

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.name = f"{os.getpid()}.{secrets.token_hex(4)}"
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._connection = None
        self._sender = None  # a connection of its own for what this process says outside a transaction
        self._sending: threading.Lock | None = None
        self._promised: dict[tuple[str, int], tuple[dict, Callable]] = {}  # moves whose NOTIFY named processes
        self._seen: dict[str, float] = {}  # another process's name -> when it last spoke
        self._parts: dict[tuple[str, int], list] = {}  # a picture that came in several NOTIFYs, until it is whole

    def before_commit(self, session, code: str, version: int | None = None, presence: bool = False) -> None:
        from sqlalchemy import text

        payload = f"{code} p 0" if presence else f"{code} v {version}"
        wanted, draw = super()._to_draw_for(code, version, presence)
        if draw is not None:
            if len(self._promised) > 256:
                self._promised.clear()  # writes that never committed
            self._promised[(code, version)] = wanted, draw
            payload += f" {self.name} {','.join(sorted(wanted))}"
        session.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": payload})

    def _to_draw_for(self, code: str, version: int | None, presence: bool) -> tuple[dict[str, set], Callable | None]:
        return self._promised.pop((code, version), ({}, None))  # what the move's NOTIFY promised

    def _send(self, code: str, version: int | None, presence: bool, picture: Picture | None = None,
              wanted: dict | None = None) -> None:
        if not wanted:
            return  # the signal went out with the commit
        payloads = [f"{code} v {version}"]  # those waiting for a picture draw the move themselves
        if picture is not None and picture.version >= version:
            try:
                drawn = copied(picture)
                payloads = [part for name, kinds in wanted.items() for part in notify_parts(code, drawn, name, kinds)]
            except Exception as error:  # noqa: BLE001 - they then draw for themselves
                log.warning("live updates: could not pack table %s for other processes (%s)", code, error)
        try:
            self._tell(payloads)
        except Exception as error:  # noqa: BLE001 - the change is committed; they draw it after PICTURE_WAIT
            log.warning("live updates: could not send table %s to other processes (%s)", code, error)

    def _tell(self, lines: list[str]) -> None:
        import psycopg

        if self._sending is None:
            self._sending = threading.Lock()  # made in the worker, after gevent patched threading
        with self._sending:
            for attempt in range(2):  # a connection the database closed is opened again once
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(self.url, autocommit=True, connect_timeout=5)
                    self._sender.execute(NOTIFY_ALL, (CHANNEL, lines))
                    return
                except psycopg.Error:
                    sender, self._sender = self._sender, None
                    if sender is not None:
                        with contextlib.suppress(Exception):
                            sender.close()
                    if attempt:
                        raise

    def _heard(self, payload: str) -> None:
        words = payload.split(" ", 7)
        try:
            if words[0] == "-" and len(words) == 3:
                self._process_heard(words[1], words[2])
            elif len(words) == 6 and words[1] == "k":
                if words[2] != self.name:
                    self._kind_heard(words)
            elif len(words) == 8 and words[1] == "P":
                if words[3] == self.name:
                    self._part_heard(words)
            elif len(words) == 5 and words[1] == "v":  # a move whose writer draws it for the processes named
                if words[3] == self.name:
                    pass  # this process wrote it: its streams hear of it after the commit, holding the drawing lock
                elif self.name in words[4].split(","):
                    self._await(words[0], int(words[2]))
                else:
                    self.deliver(words[0], int(words[2]))
            else:
                super()._heard(payload)
        except ValueError:
            log.warning("live updates: ignored a malformed signal %r", payload[:200])

    def _speaks(self, name: str, connection) -> bool:
        self._seen[name] = time.monotonic()
        return True

    def _process_heard(self, what: str, name: str) -> None:
        """"- h NAME": that process (re)connected and asks what the others hold; "- a": it is still there; "- b":
        it stopped."""
        if name == self.name:
            return
        with self._lock:
            if what in ("h", "b"):
                self._wanted.pop(name, None)
            if what == "b":
                self._seen.pop(name, None)
            else:
                self._seen[name] = time.monotonic()
        if what == "h":
            later(self._tell_held)

    def _tell_held(self) -> None:
        try:
            lines = self._held_lines()
            if lines:
                self._tell(lines)
        except Exception as error:  # noqa: BLE001 - that process then draws for this one's screens itself
            log.warning("live updates: could not tell a new process what this one holds (%s)", error)

    def _await(self, code: str, version: int) -> None:
        """The writer promised a picture of this move: the streams here wake when it comes, or after PICTURE_WAIT."""
        channel = self._channels.get(code)
        if channel is not None and version > channel.version:
            later(self._give_up, code, version)

    def _give_up(self, code: str, version: int) -> None:
        time.sleep(PICTURE_WAIT)
        self.deliver(code, version)  # nothing, if the picture came

    def _part_heard(self, words: list[str]) -> None:
        code, _, version, _, header, part, parts, data = words
        version, header, part, parts = int(version), int(header), int(part), int(parts)
        if parts > 1:
            if len(self._parts) > 64:
                self._parts.clear()  # pictures whose rest never came
            pieces = self._parts.setdefault((code, version), [None] * parts)
            if len(pieces) != parts or not 0 <= part < parts:
                raise ValueError("a part that does not fit")
            pieces[part] = data
            if None in pieces:
                return
            data = "".join(self._parts.pop((code, version)))
        try:
            unzip = zlib.decompressobj()
            raw = unzip.decompress(base64.b64decode(data), PICTURE_MAX)
        except (ValueError, zlib.error) as error:
            log.warning("live updates: ignored an unreadable picture of %s (%s)", code, error)
            self.deliver(code, version)
            return
        self._picture_heard(code, version, raw[:header], raw[header:])

    def _still_here(self, connection) -> None:
        """Say this process is still here, and forget the processes that have gone silent."""
        connection.execute(NOTIFY_ALL, (CHANNEL, [f"- a {self.name}"]))
        self._forget_silent()

    def _forget_silent(self) -> None:
        """A process that has said nothing for three ALIVE_SECONDS is gone (killed, or its machine is): draw nothing
        more for it."""
        silent = time.monotonic() - 3 * ALIVE_SECONDS
        with self._lock:
            for name in [name for name, when in self._seen.items() if when < silent]:
                del self._seen[name]
                self._wanted.pop(name, None)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stopping = False
                self._thread = threading.Thread(target=self._listen, name="nightshift-listen", daemon=True)
                self._thread.start()
                atexit.register(self.stop)  # a worker restarting says goodbye: the others stop drawing for it

    def stop(self) -> None:
        if self._stopping:
            return
        self._stopping = True
        sender, self._sender = self._sender, None
        if sender is not None:
            with contextlib.suppress(Exception):
                sender.execute(NOTIFY_ALL, (CHANNEL, [f"- b {self.name}"]))
                sender.close()
        connection = self._connection
        if connection is not None:
            try:
                connection.cancel_safe() if hasattr(connection, "cancel_safe") else connection.cancel()
            except Exception:  # noqa: BLE001 - best effort on shutdown
                pass

    def _listen(self) -> None:
        """Hold one LISTEN connection; on any failure reconnect with backoff and make every stream re-check."""
        import psycopg

        backoff = 0.2
        while not self._stopping:
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    self._connection = connection
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.poke_all()  # anything that changed while we were not listening
                    # and what the others hold may have changed: ask them, and say what this process holds
                    with self._lock:
                        self._wanted.clear()
                    connection.execute(NOTIFY_ALL, (CHANNEL, [f"- h {self.name}", *self._held_lines()]))
                    backoff = 0.2
                    while not self._stopping:
                        for notice in connection.notifies(timeout=ALIVE_SECONDS):
                            self._heard(notice.payload)
                            if self._stopping:
                                break
                        else:
                            self._still_here(connection)
            except Exception as error:  # noqa: BLE001 - the listener must outlive a database restart
                if self._stopping:
                    break
                log.warning("live updates: lost the PostgreSQL LISTEN connection (%s); reconnecting", error)
                time.sleep(backoff)
                backoff = min(backoff * 2, 5.0)
            finally:
                self._connection = None


class SocketBroker(SharingBroker):
    """SQLite: every process on this machine that opens the same database file shares signals through Unix sockets
    in one private folder named after that file, so `nightshift --workers 2` (or two servers) uses both cores.

    A process listens on its own socket once its first stream subscribes; a commit writes one line ("CODE v N") to
    every other process's socket over a connection kept open. Stream sockets, not datagrams: a datagram queue holds
    only ten messages (net.unix.max_dgram_qlen), and a wave of phones arriving would lose signals. A socket nobody
    answers any more (a crashed worker) is removed.

    A move is drawn once (SharingBroker): the lines that say which kinds a process holds travel on these sockets,
    and a picture ("CODE P VERSION HEADER BODY", lengths for the last two, then the bytes) takes the place of the
    version's line for a process that holds screens of the table.
    """

    kind = "sqlite-sockets"

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self._socket: socket.socket | None = None
        self._path: Path | None = None
        self._thread: threading.Thread | None = None
        self._peers: dict[str, socket.socket] = {}
        self._sending: threading.Lock | None = None
        self._speaking: dict[str, object] = {}  # that process's name -> the connection it last spoke through

    def _send(self, code: str, version: int | None, presence: bool, picture: Picture | None = None,
              wanted: dict | None = None) -> None:
        """The version's line to every other process, or to each that holds screens of the table its regions."""
        plain = (f"{code} p 0\n" if presence else f"{code} v {version}\n").encode()
        message: bytes | Callable[[str], bytes] = plain
        if picture is not None and wanted is not None and picture.version >= version:
            # the regions as drawn now: a stream closing here meanwhile takes its kind out of the picture's own
            drawn = copied(picture)

            def message(name: str) -> bytes:
                try:
                    return packed_picture(code, drawn, wanted[name]) if name in wanted else plain
                except Exception as error:  # noqa: BLE001 - that process then draws for itself
                    log.warning("live updates: could not pack table %s for %s (%s)", code, name, error)
                    return plain
        try:
            self._broadcast(message)
        except Exception as error:  # noqa: BLE001 - the change is committed; a lost signal must not fail it
            log.warning("live updates: could not signal other processes (%s)", error)

    @property
    def name(self) -> str | None:
        return self._path.name if self._path is not None else None

    def _tell(self, lines: list[str]) -> None:
        self._broadcast("".join(line + "\n" for line in lines))

    def _held_here(self) -> bytes:
        """Who this process is and every kind it holds, for a process it connects to (which may have started after
        they opened, or forgotten them when the last connection dropped)."""
        if self._path is None:
            return b""
        return "".join(line + "\n" for line in [f"- h {self.name}", *self._held_lines()]).encode()

    def _broadcast(self, line: str | bytes | Callable[[str], bytes]) -> None:
        """Write to every other process's socket: the same bytes, or each its own (`line(socket name)`)."""
        try:
            paths = [entry.path for entry in os.scandir(self.folder) if entry.name.endswith(".sock")]
        except OSError:
            return  # nobody listens yet: no other process has a stream
        own = str(self._path) if self._path else None
        if self._sending is None:
            self._sending = threading.Lock()  # made in the worker, after gevent patched threading
        same = line.encode() if isinstance(line, str) else line
        with self._sending:  # one writer at a time on each connection
            for path in paths:
                if path == own:
                    continue
                data = same if isinstance(same, bytes) else same(os.path.basename(path))
                for attempt in range(2):  # a connection the peer closed is reopened once
                    peer = self._peers.get(path)
                    try:
                        if peer is None:
                            peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                            peer.settimeout(2.0)
                            peer.connect(path)
                            self._peers[path] = peer
                            peer.sendall(self._held_here())
                        peer.sendall(data)
                        break
                    except (ConnectionRefusedError, FileNotFoundError):
                        self._forget(path, unlink=True)  # its process is gone
                        break
                    except OSError as error:
                        self._forget(path)
                        if attempt:
                            log.warning("live updates: could not signal %s (%s)", path, error)

    def _forget(self, path: str, unlink: bool = False) -> None:
        peer = self._peers.pop(path, None)
        if peer is not None:
            with contextlib.suppress(OSError):
                peer.close()
        if unlink:
            with self._lock:  # its process is gone: draw nothing more for it
                self._wanted.pop(os.path.basename(path), None)
                self._speaking.pop(os.path.basename(path), None)
            with contextlib.suppress(OSError):
                os.unlink(path)

    def _start(self) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return
            binding = None
            try:
                self.folder.mkdir(mode=0o700, exist_ok=True)
                if self.folder.stat().st_uid != os.getuid():
                    raise PermissionError(f"{self.folder} belongs to another user")
                path = self.folder / f"{os.getpid()}-{secrets.token_hex(4)}.sock"
                # Bound under another name and renamed once listening: between bind and listen a connection is
                # refused, and a process signalling then would take this socket for a dead one's and delete it,
                # and this process would hear no other from then on.
                binding = path.with_suffix(".binding")
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self._socket.bind(str(binding))
                self._socket.listen(64)
                os.replace(binding, path)
                self._path = path
            except OSError as error:
                log.warning("live updates: other processes can't signal this one (%s)", error)
                if self._socket is not None:
                    self._socket.close()
                if binding is not None:
                    with contextlib.suppress(OSError):
                        binding.unlink()
                self._socket = self._path = None
                return
            self._thread = threading.Thread(target=self._listen, name="nightshift-listen", daemon=True)
            self._thread.start()
            atexit.register(self.stop)

    def _listen(self) -> None:
        """Accept each other process's connection and read its lines (a greenlet each under gevent)."""
        listener = self._socket
        while listener is not None:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=self._read, args=(connection,), daemon=True).start()

    def _read(self, connection: socket.socket) -> None:
        """One other process's lines and pictures; the kinds it said it holds count until it hangs up."""
        buffer = b""
        try:
            with connection:
                while True:
                    try:
                        data = connection.recv(65536)
                    except OSError:
                        return
                    if not data:
                        return
                    buffer += data
                    while (end := buffer.find(b"\n")) >= 0:
                        words = buffer[:end].decode("ascii", "replace").split(" ")
                        if len(words) == 5 and words[1] == "P":  # a picture of version N: header and regions follow
                            try:
                                version, header, body = int(words[2]), int(words[3]), int(words[4])
                            except ValueError:
                                version = header = body = -1
                            if min(version, header, body) < 0 or header + body > PICTURE_MAX:
                                log.warning("live updates: a malformed picture; hanging up on that process")
                                return
                            if len(buffer) < end + 1 + header + body:
                                break  # the rest is on its way
                            start = end + 1
                            self._picture_heard(words[0], version, buffer[start:start + header],
                                                buffer[start + header:start + header + body])
                            buffer = buffer[start + header + body:]
                        else:
                            buffer = buffer[end + 1:]
                            if len(words) == 3 and words[:2] == ["-", "h"]:  # a new connection: all it holds follows
                                with self._lock:
                                    self._wanted[words[2]], self._speaking[words[2]] = {}, connection
                            elif len(words) == 6 and words[1] == "k":
                                self._kind_heard(words, connection)
                            else:
                                self._heard(" ".join(words))
        finally:
            with self._lock:  # a process whose connection ends no longer holds anything, until it says so again
                for name in [name for name, speaking in self._speaking.items() if speaking is connection]:
                    del self._speaking[name]
                    self._wanted.pop(name, None)

    def _speaks(self, name: str, connection) -> bool:
        # not from a connection that process has replaced (its new one began with all it holds)
        return self._speaking.setdefault(name, connection) is connection

    def stop(self) -> None:
        sock, path, self._socket, self._path = self._socket, self._path, None, None
        for peer in list(self._peers):
            self._forget(peer)
        if path is not None:
            with contextlib.suppress(OSError):
                path.unlink()
            with contextlib.suppress(OSError):
                self.folder.rmdir()  # only if no other process still has a socket here
        if sock is not None:
            sock.close()


def later(target: Callable[..., None], *args) -> None:
    """Run `target` beside the current request: under gevent a greenlet that starts when the request next waits
    (`Thread.start` would wait for the new greenlet to start, and so run all of it first)."""
    try:
        from gevent import monkey, spawn
    except ImportError:  # pragma: no cover - gevent is a dependency
        spawn = None
    if spawn is not None and monkey.is_module_patched("threading"):
        spawn(target, *args)
    else:
        threading.Thread(target=target, args=args, daemon=True).start()


def kind_line(code: str, name: str, kind, opened: bool) -> str:
    """"CODE k NAME ROLE N +": process NAME opened its first screen of this kind of a table (or "-", closed its
    last)."""
    role, number = kind
    return f"{code} k {name} {role} {'-' if number is None else number} {'+' if opened else '-'}"


def copied(picture: Picture) -> Picture:
    """The regions as drawn now: a stream closing meanwhile takes its kind out of the picture's own."""
    return Picture(picture.version, picture.presence, dict(picture.regions), dict(picture.seats), root=picture.root)


def picture_parts(picture: Picture, kinds: set) -> tuple[bytes, bytes]:
    """A drawing for another process: a header that says how to cut its kinds' regions apart, and the regions."""
    regions = [(kind, picture.regions[kind]) for kind in kinds if kind in picture.regions]
    header = json.dumps({"p": picture.presence, "s": picture.seats, "r": picture.root,
                         "k": [[role, number, len(region)] for (role, number), region in regions]}).encode()
    return header, b"".join(region for _, region in regions)


def packed_picture(code: str, picture: Picture, kinds: set) -> bytes:
    """A picture's line and bytes on a socket."""
    header, body = picture_parts(picture, kinds)
    return b"%s P %d %d %d\n%s%s" % (code.encode(), picture.version, len(header), len(body), header, body)


def notify_parts(code: str, picture: Picture, name: str, kinds: set) -> list[str]:
    """A picture for process `name` as NOTIFY payloads: deflated (a table's regions repeat each other), in base64
    (a payload is text), cut under the 8000-byte limit."""
    header, body = picture_parts(picture, kinds)
    data = base64.b64encode(wire.squeezed(header + body)).decode()
    parts = [data[at:at + NOTIFY_PART] for at in range(0, len(data), NOTIFY_PART)]
    return [f"{code} P {picture.version} {name} {len(header)} {n} {len(parts)} {part}" for n, part in enumerate(parts)]


def socket_folder(database: str) -> Path:
    """Where the processes of one SQLite database meet: short (socket paths are limited to about 100 bytes), private,
    and the same for every process that opens the same file."""
    digest = hashlib.sha256(os.path.realpath(database).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"nightshift-{os.getuid()}-{digest}"


def broker_for(url: str) -> Broker:
    """PostgreSQL shares signals between processes and machines; processes on one SQLite file share them through
    local sockets; an in-memory database stays in its process."""
    if url.startswith("postgresql"):
        return PostgresBroker(url.replace("postgresql+psycopg://", "postgresql://", 1))
    database = url.split("///", 1)[1].split("?", 1)[0] if url.startswith("sqlite:///") else ""
    if database and database != ":memory:" and hasattr(socket, "AF_UNIX"):
        return SocketBroker(socket_folder(database))
    return Broker()
