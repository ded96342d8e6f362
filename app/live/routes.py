"""GET /t/CODE/events: a server-sent event stream that says "table-changed" (with the version) and nothing else."""

from __future__ import annotations

import socket
import time

from flask import Blueprint, Response, current_app, request
from sqlalchemy import select

from ..errors import Forbidden
from ..extensions import db
from ..models import Table
from ..tables import auth, service
from . import broker

bp = Blueprint("live", __name__)

PING_SECONDS = 15.0  # proxies and phones drop a silent connection; a comment every 15 s keeps it open
HEARTBEAT_SECONDS = 60.0  # how often a seat's open stream refreshes "connected" on the host screen
RETRY_MS = 2000  # how soon a browser reconnects after the stream drops


def known_version() -> int:
    """The newest version this client has shown: `?v=` from the page, or Last-Event-ID on a reconnect."""
    best = 0
    for raw in (request.args.get("v", ""), request.headers.get("Last-Event-ID", "")):
        raw = raw.strip()
        if raw.isdigit() and len(raw) <= 9:
            best = max(best, int(raw))
    return best


@bp.get("/t/<code>/events")
def events(code: str):
    """Signals only: each screen fetches its own view afterwards, so no seat's secrets ride on a broadcast."""
    table = service.find_table(code)
    visitor, _ = auth.request_visitor(table)
    if visitor is None:
        raise Forbidden(f"Join table {table.code} to follow it live: scan the QR code on the host screen.")
    app = current_app._get_current_object()
    hub = broker()
    table_id, code = table.id, table.code
    seat_id = visitor.player.id if visitor.player is not None and not visitor.host else None
    sent = known_version()

    subscription = hub.subscribe(code, 0)
    # Read the version after subscribing, so a change committed in between is not lost.
    hub.deliver(code, db.session.scalar(select(Table.version).where(Table.id == table_id)))
    if seat_id is not None:
        service.seat_connected(code, seat_id, hub)
    db.session.remove()  # a stream may stay open all night; it must not hold a database connection

    watcher = watch_for_hang_up(request.environ.get("gunicorn.socket"), subscription)
    closed = []

    def close() -> None:
        """Once, whether the stream ran to its end or the client left before its first byte."""
        if closed:
            return
        closed.append(True)
        if watcher is not None:
            watcher.kill(block=False)
        subscription.close()
        if seat_id is not None:
            with app.app_context():
                service.seat_disconnected(code, seat_id, hub)

    def stream():
        nonlocal sent
        last_beat = time.monotonic()
        try:
            yield f"retry: {RETRY_MS}\n: connected to table {code}\n\n"
            while True:
                version, presence, poked = subscription.wait(sent, PING_SECONDS)
                if subscription.hung_up:
                    return
                chunks = []
                if version > sent or poked:
                    sent = max(sent, version)
                    chunks.append(f"event: table-changed\nid: {sent}\ndata: {sent}\n\n")
                if presence:
                    chunks.append("event: seats-changed\ndata: presence\n\n")
                yield "".join(chunks) or ": ping\n\n"
                if seat_id is not None and time.monotonic() - last_beat > HEARTBEAT_SECONDS:
                    last_beat = time.monotonic()
                    with app.app_context():
                        service.seat_heartbeat(seat_id)
        finally:
            close()

    headers = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}
    response = Response(stream(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(close)
    return response


def watch_for_hang_up(client: socket.socket | None, subscription):
    """Under gevent, notice at once that a phone closed its stream (the host's seat list says so), not at the
    next ping; elsewhere the next ping finds out."""
    try:
        import gevent
        from gevent import monkey
        from gevent.socket import wait_read
    except ImportError:  # pragma: no cover - gevent is a dependency; other servers fall back to pings
        return None
    if client is None or not monkey.is_module_patched("socket"):
        return None

    def watch() -> None:
        try:
            wait_read(client.fileno())
            if client.recv(1, socket.MSG_PEEK):
                return  # the client sent something (it shouldn't); leave it to the pings
        except OSError:
            pass
        subscription.hang_up()

    return gevent.spawn(watch)
