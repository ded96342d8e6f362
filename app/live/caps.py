"""Open event streams are bounded per token, per table and per client address, so one client can't hold a worker.

A gevent worker takes `worker_connections` (2,000) connections; without a cap one host token opened all of them and
every other table stopped answering. With the caps a table holds at most STREAMS_PER_TABLE streams and a device at
most STREAMS_PER_ADDRESS; a token that opens one stream too many closes its own oldest (a phone that reconnected
leaves no ghost behind), and a freed seat's streams close at once. Counts are per worker process.
"""

from __future__ import annotations

import collections
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Flask, current_app


@dataclass(eq=False)
class Slot:
    """One open stream's place: who holds it, and how to end it early."""

    token: str
    table: str
    address: str | None
    hang_up: Callable[[], None] | None = None
    closed: bool = False
    evicted: bool = False
    freed: bool = False  # ended because the host freed its seat: the page is told so, not just cut off

    def attach(self, hang_up: Callable[[], None]) -> None:
        """The stream's way to end; a slot evicted before it had one ends as soon as it does."""
        self.hang_up = hang_up
        if self.evicted:
            hang_up()


class TooManyStreams(Exception):
    """Past a cap: `message` says which, for the 429."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass
class StreamCaps:
    per_token: int
    per_table: int
    per_address: int
    unlimited: frozenset[str] = frozenset()
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _tokens: dict[str, list[Slot]] = field(default_factory=lambda: collections.defaultdict(list))
    _tables: collections.Counter = field(default_factory=collections.Counter)
    _addresses: collections.Counter = field(default_factory=collections.Counter)

    def open(self, token: str, table: str, address: str | None) -> Slot:
        """Take a place for a new stream, closing this token's oldest past its cap; TooManyStreams past the others."""
        evicted = []
        with self._lock:
            held = self._tokens[token]
            while len(held) >= self.per_token:
                oldest = held[0]
                self._release(oldest)
                oldest.evicted = True
                evicted.append(oldest)
            if self._tables[table] >= self.per_table:
                raise TooManyStreams(f"Table {table} already has {self.per_table} live screens open, more than any "
                                     "game night needs. Close a screen you don't use, or reload in a minute.")
            counted = address is not None and address not in self.unlimited
            if counted and self._addresses[address] >= self.per_address:
                raise TooManyStreams(f"This device already has {self.per_address} live screens open. Close some "
                                     "tabs, then reload.")
            slot = Slot(token, table, address if counted else None)
            held.append(slot)
            self._tables[table] += 1
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

    def close_token(self, token: str) -> int:
        """End every stream of a token that stopped opening anything (a freed seat); returns how many."""
        with self._lock:
            slots = list(self._tokens.get(token, ()))
            for slot in slots:
                self._release(slot)
                slot.evicted = slot.freed = True
        for slot in slots:
            if slot.hang_up is not None:
                slot.hang_up()
        return len(slots)

    def held(self, *, token: str | None = None, table: str | None = None, address: str | None = None) -> int:
        """Streams open now for a token, a table or an address (for tests and the health of a worker)."""
        with self._lock:
            if token is not None:
                return len(self._tokens.get(token, ()))
            if table is not None:
                return self._tables[table]
            return self._addresses[address]

    def _release(self, slot: Slot) -> None:
        if slot.closed:
            return
        slot.closed = True
        held = self._tokens.get(slot.token, [])
        if slot in held:
            held.remove(slot)
        if not held:
            self._tokens.pop(slot.token, None)
        self._tables[slot.table] -= 1
        if self._tables[slot.table] <= 0:
            del self._tables[slot.table]
        if slot.address is not None:
            self._addresses[slot.address] -= 1
            if self._addresses[slot.address] <= 0:
                del self._addresses[slot.address]


def init_caps(app: Flask) -> None:
    """Made per app, not at import, so the lock is gevent's once the worker is patched."""
    app.extensions["nightshift.stream_caps"] = StreamCaps(
        app.config["STREAMS_PER_TOKEN"], app.config["STREAMS_PER_TABLE"], app.config["STREAMS_PER_ADDRESS"],
        frozenset(app.config["UNLIMITED_ADDRESSES"]))


def stream_caps() -> StreamCaps:
    return current_app.extensions["nightshift.stream_caps"]


def still_seated(app: Flask, seat_id: int, token_hash: str | None) -> bool:
    """Does this seat still belong to the token its stream opened with? (A script's signal-only stream, freed in another
    worker process: no. Pushed regions learn it from their picture.)"""
    from sqlalchemy import select

    from ..extensions import db
    from ..models import Seat

    with app.app_context():
        try:
            return db.session.scalar(select(Seat.token_hash).where(Seat.id == seat_id)) == token_hash
        finally:
            db.session.remove()


def seat_token(seat_id: int) -> str:
    return f"seat:{seat_id}"


def host_token(table_id: int) -> str:
    return f"host:{table_id}"
