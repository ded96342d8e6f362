"""What a failed database statement means for the people at the table, and a /healthz that tells the truth about it.

A database can fail a write three ways, and each gets its own sentence: it is busy (another program holds the SQLite
file, a PostgreSQL row lock is taken), which a write waits out for a few seconds while the worker serves everyone
else; it can't save (a full disk, a read-only file), which no wait cures and the host must fix; or it is out of
reach. /healthz answers 503 with the reason while the database can't save: a write failed so within the last minute
and none has succeeded since, or (SQLite) the disk holding the file is full or the file is read-only.
"""

from __future__ import annotations

import os
import random
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from flask import Flask, current_app, has_app_context
from sqlalchemy import event
from sqlalchemy.exc import DBAPIError, InternalError, OperationalError

from .errors import Unavailable, refused
from .extensions import db

BUSY, UNSAVED, UNREACHABLE = "busy", "unsaved", "unreachable"
REMEMBERED_SECONDS = 60.0  # a failed save keeps /healthz at 503 this long, unless a write succeeds first
LOOK_EVERY_SECONDS = 1.0  # the disk under a SQLite file is looked at no more often than this
DISK_FREE_MIN = 1 << 20  # bytes: below this a write of a move and its log entry soon fails
FIRST_PAUSE, LONGEST_PAUSE = 0.02, 0.25  # seconds between a busy write's tries, doubling

# SQLite's primary result codes (https://sqlite.org/rescode.html) and PostgreSQL's SQLSTATEs, by what they mean here.
SQLITE_CODES = {5: (BUSY, "its database is locked"), 6: (BUSY, "its database is locked"),
                13: (UNSAVED, "the disk holding its database is full"), 8: (UNSAVED, "its database is read-only"),
                10: (UNSAVED, "the disk holding its database failed to read or write"),
                11: (UNSAVED, "its database file is damaged"), 26: (UNSAVED, "its database file is damaged"),
                14: (UNREACHABLE, "it can't open its database file")}
POSTGRES_STATES = {"53100": (UNSAVED, "the disk holding its database is full"),
                   "25006": (UNSAVED, "its database is read-only"),
                   "58030": (UNSAVED, "the disk holding its database failed to read or write"),
                   "55P03": (BUSY, "a row it needs is locked"), "57014": (BUSY, "a statement took too long"),
                   "40001": (BUSY, "two writes collided"), "40P01": (BUSY, "two writes collided"),
                   "53300": (BUSY, "its database has no connection free"),
                   "53200": (BUSY, "its database is low on memory")}
REMEDIES = {"the disk holding its database is full": "free some space on the machine Night Shift runs on",
            "its database is read-only": "make Night Shift's database (and its folder) writable again",
            "its database file is damaged": "restore the database from a backup"}


@dataclass(frozen=True)
class Trouble:
    """What went wrong with the database, in a few words (/healthz and the log say `reason`)."""

    kind: str
    reason: str

    def refusal(self) -> Unavailable:
        """The 503 a player reads: busy and unreachable are "try again", a failed save says the host must act."""
        if self.kind == BUSY:
            return Unavailable("Night Shift's database is busy right now. Nothing was changed; try again in a few "
                               "seconds.", retry_after=5)
        if self.kind == UNSAVED:
            remedy = REMEDIES.get(self.reason, "check the machine Night Shift runs on")
            return Unavailable(f"Night Shift can't save anything: {self.reason}. Nothing was changed. Tell the host "
                               f"to {remedy}, then try again.", retry_after=30)
        return Unavailable("Night Shift can't reach its database right now. Nothing was changed; try again in a "
                           "moment.", retry_after=5)


def trouble_of(error: BaseException) -> Trouble:
    """What a failed statement means: busy, can't save, or out of reach (anything else a database says)."""
    original = getattr(error, "orig", error)
    code = getattr(original, "sqlite_errorcode", None)
    if code is not None and code & 0xFF in SQLITE_CODES:
        return Trouble(*SQLITE_CODES[code & 0xFF])
    state = getattr(original, "sqlstate", None)
    if state in POSTGRES_STATES:
        return Trouble(*POSTGRES_STATES[state])
    return Trouble(UNREACHABLE, "it can't reach its database")


class BusyRetry:
    """How long one write keeps trying a database that is only busy: pauses that let the worker's other requests run
    (gevent makes `time.sleep` cooperative), growing, until DB_BUSY_SECONDS from when the write began."""

    def __init__(self) -> None:
        self.until = time.monotonic() + float(current_app.config["DB_BUSY_SECONDS"])
        self.pause = FIRST_PAUSE

    def left(self) -> float:
        return max(0.0, self.until - time.monotonic())

    def again(self, error: BaseException) -> None:
        """After `error` (rolled back): return after a pause if another try may succeed, else raise the 503."""
        trouble = trouble_of(error)
        if trouble.kind == UNSAVED or self.left() < self.pause:
            raise trouble.refusal() from None
        time.sleep(random.uniform(0.5, 1.0) * self.pause)
        self.pause = min(2 * self.pause, LONGEST_PAUSE)


class Health:
    """This worker's knowledge of whether its database can save."""

    def __init__(self, sqlite_file: str | None):
        self.sqlite_file = Path(sqlite_file) if sqlite_file else None
        self.failed: Trouble | None = None
        self.failed_at = 0.0
        self.disk: str | None = None
        self.next_look = 0.0

    def failure(self, trouble: Trouble) -> None:
        if trouble.kind == UNSAVED:
            self.failed, self.failed_at = trouble, time.monotonic()

    def saved(self) -> None:
        self.failed = None

    def problem(self) -> str | None:
        """Why the database can't save now, or None: a recent failed save, else (SQLite) a full or read-only disk."""
        now = time.monotonic()
        if self.failed is not None and now - self.failed_at < REMEMBERED_SECONDS:
            return self.failed.reason
        if self.sqlite_file is not None and now >= self.next_look:
            self.next_look = now + LOOK_EVERY_SECONDS
            self.disk = disk_problem(self.sqlite_file)
        return self.disk


def disk_problem(path: Path) -> str | None:
    """A full disk or a read-only file or folder under a SQLite database, said the way /healthz says it."""
    folder = path.parent
    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        return "it can't open its database's folder"
    if free < DISK_FREE_MIN:
        return f"the disk holding its database is full ({free // 1024} KB free)"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return "its database is read-only"
    return None


def _saved(_session) -> None:
    """A commit went through: whatever failed to save before is no longer the news."""
    if has_app_context():
        known = current_app.extensions.get("nightshift.health")
        if known is not None and known.failed is not None:
            known.saved()


def init_health(app: Flask) -> None:
    """Note every failed save of this app's engine, and serve /healthz."""
    with app.app_context():
        engine = db.engine
        on_file = engine.url.get_backend_name() == "sqlite" and engine.url.database not in (None, "", ":memory:")
        known = app.extensions["nightshift.health"] = Health(engine.url.database if on_file else None)

        def failed(context) -> None:
            if isinstance(context.sqlalchemy_exception, DBAPIError):
                known.failure(trouble_of(context.sqlalchemy_exception))

        event.listen(engine, "handle_error", failed)
    if not event.contains(db.session, "after_commit", _saved):
        event.listen(db.session, "after_commit", _saved)

    @app.errorhandler(OperationalError)
    @app.errorhandler(InternalError)
    def database_unavailable(error: OperationalError | InternalError):
        """A statement the database refused outside the write path's own retries: busy, can't save, or unreachable."""
        trouble = trouble_of(error)
        app.logger.error("database %s (%s): %s", trouble.kind, trouble.reason, error)
        return refused(trouble.refusal())

    @app.get("/healthz")
    def healthz():
        """Liveness for load balancers, and the benchmarks' floor: "ok", or a 503 that says why nothing can be saved."""
        problem = known.problem()
        headers = {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}
        if problem is not None:
            return f"Night Shift can't save: {problem}.\n", 503, headers | {"Retry-After": "30"}
        return "ok\n", 200, headers
