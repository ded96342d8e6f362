"""Open event streams are bounded per worker, per token, per client address and, for spectators, per table, so no
crowd can hold a worker and no watcher can keep a table's own screens out.

A gevent worker takes WORKER_CONNECTIONS connections at once; once they are all held, every new connection waits
unanswered (a crowd of 2,000 streams left /healthz and every move hanging). So streams get at most the budget, the
connections less CONNECTION_RESERVE: past it a new stream is a 503 with a sentence, and the reserve stays free for
pages, moves and /healthz. A token holds at most STREAMS_PER_TOKEN (its oldest closes when it opens one more: a phone
that reconnected leaves no ghost behind), a device at most STREAMS_PER_ADDRESS, and the spectators of a table share
SPECTATOR_STREAMS_PER_TABLE: a table's seats and host have their own tokens' places, which no spectator can take.
Counts are per worker process.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, current_app

from ..errors import NightShiftError


@dataclass(eq=False)
class Slot:
    """One open stream's place: who holds it, and how to end it early."""

    token: str
    table: str
    address: str | None
    watching: bool = False  # a spectator's: counted among the table's spectators
    hang_up: Callable[[], None] | None = None
    closed: bool = False
    evicted: bool = False

    def attach(self, hang_up: Callable[[], None]) -> None:
        """The stream's way to end; a slot evicted before it had one ends as soon as it does."""
        self.hang_up = hang_up
        if self.evicted:
            hang_up()


class TooManyStreams(NightShiftError):
    """Past a client's cap (429): the sentence says which."""

    status = 429
    title = "Too many live screens"
    retry_after = 60


class NoRoomForStreams(TooManyStreams):
    """Past the worker's budget (503): the server, not the client, is full."""

    status = 503
    title = "Night Shift is full of live screens"
    retry_after = 30


@dataclass
class StreamCaps:
    per_token: int
    per_address: int
    spectators_per_table: int
    budget: int  # streams this worker holds at most: its connections less the reserve for ordinary requests
    unlimited: frozenset[str] = frozenset()
    _lock: threading.Lock = field(default_factory=lambda: threading.Lock())  # looked up once patched
    _tokens: dict[str, list[Slot]] = field(default_factory=lambda: collections.defaultdict(list))
    _tables: collections.Counter = field(default_factory=collections.Counter)
    _spectators: collections.Counter = field(default_factory=collections.Counter)
    _addresses: collections.Counter = field(default_factory=collections.Counter)
    _open: int = 0

    def open(self, token: str, table: str, address: str | None, role: str = "seat") -> Slot:
        """Take a place for a new stream, closing this token's oldest past its cap; TooManyStreams past the others."""
        evicted = []
        with self._lock:
            held = self._tokens[token]
            while len(held) >= self.per_token:
                oldest = held[0]
                self._release(oldest)
                oldest.evicted = True
                evicted.append(oldest)
            if not held:
                self._tokens.pop(token, None)  # no place left behind if this stream is refused
            if self._open >= self.budget:
                raise NoRoomForStreams(f"This Night Shift server already holds {self.budget:,} live screens, all it "
                                       "has room for, so this screen can't follow the table live yet. Moves still "
                                       "work; reload in a minute.")
            watching = role == "spectator"
            if watching and self._spectators[table] >= self.spectators_per_table:
                raise TooManyStreams(f"Table {table}'s spectators already have {self.spectators_per_table} live "
                                     "screens open, all the places for watching. The players' and the host's "
                                     "screens have their own places. Close a spectator screen, or reload later.")
            counted = address is not None and address not in self.unlimited
            if counted and self._addresses[address] >= self.per_address:
                raise TooManyStreams(f"This device already has {self.per_address} live screens open. Close some "
                                     "tabs, then reload.")
            slot = Slot(token, table, address if counted else None, watching)
            self._tokens[token].append(slot)
            self._open += 1
            self._tables[table] += 1
            if watching:
                self._spectators[table] += 1
            if slot.address is not None:
                self._addresses[slot.address] += 1
        for old in evicted:
            if old.hang_up is not None:
                old.hang_up()
        return slot

    def close(self, slot: Slot) -> None:
        """The stream ended (once, however it ended)."""
        with self._lock:
            self._release(slot)

    def held(self, *, token: str | None = None, table: str | None = None, address: str | None = None,
             spectators: str | None = None) -> int:
        """Streams open now for a token, a table, an address or a table's spectators; with none named, in all."""
        with self._lock:
            if token is not None:
                return len(self._tokens.get(token, ()))
            if table is not None:
                return self._tables[table]
            if spectators is not None:
                return self._spectators[spectators]
            if address is not None:
                return self._addresses[address]
            return self._open

    def _release(self, slot: Slot) -> None:
        if slot.closed:
            return
        slot.closed = True
        held = self._tokens.get(slot.token, [])
        if slot in held:
            held.remove(slot)
        if not held:
            self._tokens.pop(slot.token, None)
        self._open -= 1
        _count_down(self._tables, slot.table)
        if slot.watching:
            _count_down(self._spectators, slot.table)
        if slot.address is not None:
            _count_down(self._addresses, slot.address)


def _count_down(counts: collections.Counter, key: str) -> None:
    counts[key] -= 1
    if counts[key] <= 0:
        del counts[key]


def stream_budget(config) -> int:
    """Streams one worker may hold: its connections less those kept for pages, moves and /healthz."""
    return max(0, int(config["WORKER_CONNECTIONS"]) - int(config["CONNECTION_RESERVE"]))


def init_caps(app: Flask) -> None:
    """Made per app, not at import, so the lock is gevent's once the worker is patched."""
    config = app.config
    app.extensions["nightshift.stream_caps"] = StreamCaps(
        config["STREAMS_PER_TOKEN"], config["STREAMS_PER_ADDRESS"], config["SPECTATOR_STREAMS_PER_TABLE"],
        stream_budget(config), frozenset(config["UNLIMITED_ADDRESSES"]))


def stream_caps() -> StreamCaps:
    return current_app.extensions["nightshift.stream_caps"]


def seat_token(seat_id: int) -> str:
    return f"seat:{seat_id}"


def host_token(table_id: int) -> str:
    return f"host:{table_id}"
