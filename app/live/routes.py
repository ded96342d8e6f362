"""GET /t/CODE/events: a server-sent event stream. A page's stream pushes its screen's live region on every change
(`event: live`) with a heartbeat (`event: beat`); a script's stream says "table-changed" (with the version) only."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

from flask import Blueprint, Response, current_app, request, url_for
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.test import EnvironBuilder

from ..errors import Forbidden, NightShiftError
from ..extensions import db
from ..inputs import accepts_encoding
from ..models import Table
from ..reading import whole_or_none
from ..tables import auth, service
from ..tables.screens import kind_of
from . import broker, wire
from .broker import Picture
from .caps import host_token, seat_token, stream_caps

bp = Blueprint("live", __name__)
log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 60.0  # how often this process refreshes "connected" for every seat with a stream open here
RETRY_MS = 2000  # how soon a browser reconnects after the stream drops
REDRAW_AFTER_FAILURE = 1.0  # the database was unreachable or its pool dry: try again this soon, keep the stream
# Phones come and go in waves (a room joining, everyone reconnecting after a restart): a change of who is connected
# waits this long, so a wave costs each screen kind one drawing, not one per phone. Moves are drawn at once.
PRESENCE_SETTLE = 1.0


def known_version() -> int:
    """The newest version this client has shown: `?v=` from the page, or Last-Event-ID on a reconnect."""
    return max(whole_or_none(raw) or 0 for raw in (request.args.get("v", ""), request.headers.get("Last-Event-ID", "")))


def drawing_environ() -> dict:
    """A request of its own for drawing outside the stream's: the same host and mount point (the regions' URLs), no
    cookie (so no session: pushed forms carry no CSRF token)."""
    return EnvironBuilder(base_url=request.url_root).get_environ()


def live_event(picture: Picture, kind, gzipped: bool) -> tuple[bytes, bytes]:
    """A kind's `live` event, encoded once (and deflated once if any stream gzips) for every stream here."""
    raw, deflated = picture.events.get(kind, (None, b""))
    if raw is None:
        raw = wire.event_bytes("live", picture.regions[kind].encode(), picture.version)
    if gzipped and not deflated:
        deflated = wire.deflate(raw)
    picture.events[kind] = (raw, deflated)
    return raw, deflated


@bp.get("/t/<code>/events")
def events(code: str):
    """Each stream gets only its own kind of screen's region, drawn once per change for every stream here."""
    table = service.find_table(code)
    visitor, _ = auth.request_visitor(table)
    if visitor is None:
        raise Forbidden(f"Join table {table.code} to follow it live: scan the QR code on the host screen.")
    app = current_app._get_current_object()
    hub = broker()
    table_id, code = table.id, table.code
    seat_id = visitor.player.id if visitor.player is not None and not visitor.host else None
    own_seat = (visitor.seat.id, visitor.seat.token_hash) if visitor.seat is not None and not visitor.host else None
    sent = known_version()
    kind = None
    if request.args.get("region"):
        wanted = whole_or_none(request.args.get("seat", ""), minimum=1)  # as /live reads it: else the host screen
        shown = service.seat_by_number(table, wanted) if visitor.host and wanted is not None else visitor.player
        kind = kind_of(visitor, shown, board=request.args.get("board") == "1")
    shown_presence = request.args.get("p", "")[:64]
    # A page that shows an older picture than the table (it reconnected after missing changes) gets one at once.
    behind = kind is not None and (sent < table.version or shown_presence != service.presence_key(table))
    beat = float(app.config["LIVE_BEAT_SECONDS"])
    environ = drawing_environ()
    where_now = url_for("tables.my_seat", code=table.code)  # a freed seat's phone goes here: it says what happened

    caps = stream_caps()
    role = "host" if own_seat is None else "spectator" if visitor.spectator else "seat"
    # Past a cap, a TooManyStreams: a 429 (or a 503 when the worker is full) with a sentence and Retry-After.
    slot = caps.open(host_token(table_id) if own_seat is None else seat_token(own_seat[0]), code,
                     request.remote_addr, role)

    subscription = hub.subscribe(code, kind)
    slot.attach(subscription.hang_up)
    # Read the version after subscribing, so a change committed in between is not lost.
    hub.deliver(code, db.session.scalar(select(Table.version).where(Table.id == table_id)))
    if seat_id is not None:
        hub.seat_streams[seat_id] += 1
        service.seat_connected(code, seat_id)
        keep_present(app, hub)
    db.session.remove()  # a stream may stay open all night; it must not hold a database connection

    watcher = watch_for_hang_up(request.environ.get("gunicorn.socket"), subscription)
    closed = []

    def close() -> None:
        """Once, whether the stream ran to its end or the client left before its first byte."""
        if closed:
            return
        closed.append(True)
        caps.close(slot)
        if watcher is not None:
            watcher.kill(block=False)
        subscription.close()
        if seat_id is not None:
            hub.seat_streams[seat_id] -= 1
            if hub.seat_streams[seat_id] > 0:
                return
            del hub.seat_streams[seat_id]
            try:
                with app.app_context():
                    service.seat_disconnected(code, seat_id)
            except SQLAlchemyError as error:
                log.warning("live: could not mark seat %s away (%s)", seat_id, type(error).__name__)

    def draw(kinds: set) -> Picture:
        """The table's regions for these kinds, from the app's own drawing (`init_live`), in a context of its own."""
        with app.app_context(), app.request_context(environ):
            try:
                drawn = app.extensions["nightshift.draw"](code, kinds)
            finally:
                db.session.remove()
        return Picture(drawn.version, drawn.presence, drawn.regions, drawn.seats)

    gzipped = accepts_encoding("gzip")
    out = wire.GzipStream() if gzipped else wire.PlainStream()

    def region_stream():
        """Push this screen's region whenever the table or its seats change; a beat when nothing did."""
        nonlocal sent, shown_presence, behind
        last_sent = time.monotonic()
        heard = sent  # the newest version this stream has drawn for (pushed or not)
        yield out.text(f"retry: {RETRY_MS}\n: connected to table {code} (worker {os.getpid()})\n\n")
        while True:
            if not behind:
                version, other = subscription.wait(heard, beat)
                if subscription.hung_up:
                    return
                behind = version > heard or other
                if behind and version <= heard:
                    time.sleep(PRESENCE_SETTLE)
            if behind:
                try:
                    picture = subscription.picture(draw)
                except NightShiftError:
                    yield out.text(wire.event("gone", where_now)) + out.end()
                    return
                except SQLAlchemyError as error:  # a pool timeout or a lost database: keep the stream, draw later
                    log.warning("live: could not draw table %s (%s); trying again", code, type(error).__name__)
                    time.sleep(REDRAW_AFTER_FAILURE)
                    if subscription.hung_up:
                        return
                    picture = None
                if picture is not None:
                    behind = False
                    heard = max(heard, picture.stamp[0], picture.version)
                    freed = own_seat is not None and picture.seats.get(own_seat[0]) != own_seat[1]
                    if freed or kind not in picture.regions:
                        # The host freed this seat (or it no longer exists): its view is no longer this phone's.
                        yield out.text(wire.event("gone", where_now)) + out.end()
                        return
                    if picture.version > sent or picture.presence != shown_presence:
                        sent, shown_presence = max(sent, picture.version), picture.presence
                        last_sent = time.monotonic()
                        yield out.shared(*live_event(picture, kind, gzipped))
            if time.monotonic() - last_sent >= beat:
                last_sent = time.monotonic()
                yield out.text(wire.event("beat", str(sent)))

    def seated(seat_id: int, token_hash: str | None) -> bool:
        with app.app_context():
            return service.still_seated(seat_id, token_hash)

    def signal_stream():
        """Scripts: "table-changed" with the version, "seats-changed", and a comment now and then; a seat's stream
        ends once its seat is freed."""
        nonlocal sent
        yield f"retry: {RETRY_MS}\n: connected to table {code} (worker {os.getpid()})\n\n"
        while True:
            version, other = subscription.wait(sent, beat)
            if subscription.hung_up or (own_seat and version > sent and not seated(*own_seat)):
                return
            chunks = []
            if version > sent:
                sent = version
                chunks.append(f"event: table-changed\nid: {sent}\ndata: {sent}\n\n")
            if other:
                chunks.append("event: seats-changed\ndata: presence\n\n")
            yield "".join(chunks) or ": ping\n\n"

    def stream():
        try:
            yield from (region_stream() if kind is not None else signal_stream())
        finally:
            close()

    headers = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no", "Vary": "Accept-Encoding"}
    if kind is not None and gzipped:
        headers["Content-Encoding"] = "gzip"
    response = Response(stream(), mimetype="text/event-stream", headers=headers)
    response.call_on_close(close)
    return response


def keep_present(app, hub) -> None:
    """One refresher per process keeps "connected" true for every seat with a stream open here: one UPDATE a minute
    for all of them, not one per phone (at a thousand phones that was a write every 70 ms, and its CPU). It stops when
    no seat streams here, and the next seat's stream starts it again."""
    if app.extensions.get("nightshift.presence"):  # no lock: nothing yields in between, and two would be harmless
        return
    app.extensions["nightshift.presence"] = True
    threading.Thread(target=_refresh_presence, args=(app, hub), name="nightshift-presence", daemon=True).start()


def _refresh_presence(app, hub) -> None:
    while True:
        time.sleep(HEARTBEAT_SECONDS)
        seats = [seat_id for seat_id, streams in hub.seat_streams.items() if streams > 0]
        if not seats:
            app.extensions["nightshift.presence"] = False
            return
        try:  # presence is a courtesy: a dry pool or a lost database must not end the refresher
            with app.app_context():
                service.seats_heartbeat(seats)
        except SQLAlchemyError as error:
            log.warning("live: could not refresh %d seats' presence (%s)", len(seats), type(error).__name__)


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
