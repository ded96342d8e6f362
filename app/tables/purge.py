"""Tables nobody used for TABLE_TTL_DAYS expire; PURGE_GRACE_DAYS later they are deleted with their seats and log.

Between the two the table is refused to everyone but its host, who can still download its log as JSON
(GET /api/tables/CODE/log). The purge deletes rows of `tables`, `seats` and `actions` only, by explicit statements
rather than cascades, so whatever else keeps a game's story (a plays table) survives it. It runs at every start, by
`nightshift purge`, and once a day in each worker while the server runs.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import Flask, current_app
from sqlalchemy import delete, func, select
from sqlalchemy.exc import SQLAlchemyError

from ..extensions import db
from ..models import Action, Seat, Table
from ..yielding import let_others_run

log = logging.getLogger(__name__)

BATCH = 200  # tables per transaction: a big purge never holds the database for long
EVERY_SECONDS = 24 * 60 * 60  # a server up for weeks still deletes what expired meanwhile


@dataclass(frozen=True)
class Purged:
    tables: int = 0
    seats: int = 0
    actions: int = 0

    def __str__(self) -> str:
        return (f"Purged {self.tables} table{'s' if self.tables != 1 else ''} ({self.seats} seats, "
                f"{self.actions} log entries) unused for more than {keep_days()} days.")


def keep_days() -> int:
    return current_app.config["TABLE_TTL_DAYS"] + current_app.config["PURGE_GRACE_DAYS"]


def download_until(updated_at: datetime) -> datetime:
    """The last moment an expired table's host can still download its log."""
    return updated_at + timedelta(days=keep_days())


def purge_expired(now: datetime | None = None) -> Purged:
    """Delete every table last used before the expiry and the grace period, with its seats and log."""
    cutoff = (now or datetime.now(UTC)) - timedelta(days=keep_days())
    tables = seats = actions = 0
    while True:
        ids = list(db.session.scalars(select(Table.id).where(Table.updated_at < cutoff).order_by(Table.id)
                                      .limit(BATCH)))
        if not ids:
            break
        actions += db.session.scalar(select(func.count()).select_from(Action).where(Action.table_id.in_(ids)))
        seats += db.session.scalar(select(func.count()).select_from(Seat).where(Seat.table_id.in_(ids)))
        db.session.execute(delete(Action).where(Action.table_id.in_(ids)))
        db.session.execute(delete(Seat).where(Seat.table_id.in_(ids)))
        db.session.execute(delete(Table).where(Table.id.in_(ids)))
        db.session.commit()
        tables += len(ids)
        let_others_run()
    return Purged(tables, seats, actions)


def keep_purging(app: Flask, every: float = EVERY_SECONDS, stop: threading.Event | None = None) -> threading.Event:
    """Purge every `every` seconds in the background (a greenlet under gevent) until `stop` is set; returns it."""
    stop = stop or threading.Event()

    def purge_now_and_then() -> None:
        while not stop.wait(every):
            try:
                with app.app_context():
                    purged = purge_expired()
                    if purged.tables:
                        print(purged, flush=True)  # as each start says it
            except SQLAlchemyError as error:  # a busy or unreachable database: the next day's purge catches up
                log.warning("purge: could not delete expired tables (%s)", type(error).__name__)
            finally:
                with app.app_context():
                    db.session.remove()

    threading.Thread(target=purge_now_and_then, name="nightshift-purge", daemon=True).start()
    return stop
