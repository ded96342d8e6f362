"""Kinds of screen, and drawing a table for them: one snapshot, one render per kind.

A kind is what decides a live region's content: ("host", None) for the host's console, ("host", N) for the host
playing for seat N, ("seat", N) for seat N's phone, ("watch", None) for spectators, ("board", None) for the TV board.
Every screen of one kind gets the same region, so a drawing renders each kind once, whoever shows it; what one seat
may not see is never in another kind's region. `app/live` pushes the regions; it gets `draw` handed in.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from flask import Flask, g, render_template, url_for
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from ..errors import NotFound
from ..extensions import db
from ..games import get_game
from ..models import Action, Seat, Table
from . import service
from .play import Shared, live_context

Kind = tuple[str, int | None]
_TABLE = select(Table).options(joinedload(Table.seats)).where(Table.code == bindparam("code"))
READ_ALONE = {"isolation_level": "AUTOCOMMIT"}


@dataclass
class Drawn:
    """A table drawn for some kinds of screen at one version."""

    version: int
    presence: str
    regions: dict[Kind, str] = field(default_factory=dict)
    seats: dict[int, str | None] = field(default_factory=dict)  # seat id -> token hash: a freed seat's phone notices


def kind_of(visitor: service.Visitor, seat: Seat | None, board: bool = False) -> Kind:
    """The kind of screen a visitor sees a table as (`seat`: the seat shown, for a player or the host)."""
    if visitor.host and board:
        return ("board", None)
    if visitor.host:
        return ("host", seat.number if seat is not None else None)
    if visitor.player is not None:
        return ("seat", visitor.player.number)
    return ("watch", None)


def _visitor_for(kind: Kind, table: Table) -> service.Visitor:
    role, number = kind
    if role in ("host", "board"):
        return service.Visitor(host=True)
    if role == "seat":
        return service.Visitor(seat=next(seat for seat in table.player_seats if seat.number == number))
    return service.a_spectator()


def draw(code: str, kinds: set[Kind]) -> Drawn:
    """Load the table once and render its live region for each kind of screen (a freed seat's kind is left out, and
    its streams end). Runs in a request context of its own, with no cookie: its forms carry no CSRF token (the page
    sends its own with every htmx request). Raises NotFound if the table is gone."""
    g.pushed = True
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options=READ_ALONE)  # two reads need no BEGIN and ROLLBACK round trips
    table = db.session.execute(_TABLE, {"code": code}).unique().scalar_one_or_none()
    if table is None:
        raise NotFound(f"Table {code} is gone.")
    table.freeze_seats()  # this snapshot is only read: its seats are sorted once, not for every screen
    shared = Shared(table)
    drawn = Drawn(table.version, shared.presence, seats={seat.id: seat.token_hash for seat in table.seats})
    numbers = {seat.number for seat in table.player_seats}
    for kind in sorted(kinds, key=str):
        role, number = kind
        if number is not None and number not in numbers:
            continue
        shown = next((seat for seat in table.player_seats if seat.number == number), None)
        screen = "board" if role == "board" else "page"
        context = live_context(table, _visitor_for(kind, table), shown, screen, shared)
        drawn.regions[kind] = render_template(
            "tables/_board_live.html" if screen == "board" else "tables/_live.html", **context).strip()
    return drawn


def csrf_token() -> str:
    """The session's CSRF token for a form; empty in a pushed region, drawn without a session (live.js fills it in
    from the page's own token as the form leaves)."""
    return "" if g.get("pushed") else generate_csrf()


def tap_key() -> str:
    """A fresh key for one form's tap: a browser without JavaScript resending that very post is counted once. A
    pushed region has none: only live.js reads pushed regions, and it gives every tap a fresh key of its own."""
    return "" if g.get("pushed") else secrets.token_urlsafe(18)


def url_for_once(endpoint: str, **values) -> str:
    """url_for, built once per endpoint and values within one request or drawing (a region asks for the same few
    URLs dozens of times; within one request a URL depends on nothing else)."""
    built = g.setdefault("built_urls", {})
    key = (endpoint, *sorted(values.items()))
    try:
        url = built.get(key)
    except TypeError:  # an unhashable value: build it every time
        return url_for(endpoint, **values)
    if url is None:
        url = built[key] = url_for(endpoint, **values)
    return url


def stream_url(table: Table, visitor: service.Visitor, seat: Seat | None, presence: str, board: bool = False) -> str:
    """The page's event stream: it pushes this screen's region, starting from the picture the page shows."""
    number = seat.number if (seat is not None and visitor.host) else None
    return url_for("live.events", code=table.code, v=table.version, p=presence, seat=number, region=1,
                   board=1 if board else None)


def seats_numbered(table: Table, numbers) -> list[Seat]:
    """The table's player seats among these numbers, in seat order (whose turn it is, who won)."""
    wanted = set(numbers or ())
    return [seat for seat in table.player_seats if seat.number in wanted]


def having(items, key: str, value) -> list:
    """The mappings among `items` whose `key` is `value`."""
    return [item for item in items if item.get(key) == value]


def cue_of(table: Table, entry: Action, board: bool = False) -> Markup:
    """A log line's cue as data- attributes (static/js/cues.js plays it once it is new): its sound, the seat number it
    concerns, and on the board the words to read out, the line without "Host: ". Only a game's moves, not undone.
    Worked out once per entry in a request or drawing: the console's log and the phones' show the same lines."""
    known = g.setdefault("cues", {})
    key = (entry.id, entry.undone, board)
    if key not in known:
        known[key] = _cue(table, entry, board)
    return known[key]


def _cue(table: Table, entry: Action, board: bool) -> Markup:
    spec = get_game(table.game)
    if entry.undone or entry.type not in spec.rules.MOVES.types:  # undo, a seat's join: nothing of the game's night
        return Markup("")
    cues = spec.cues
    heard = cues.heard(entry.text, any(draw.get("source") != "physical" for draw in entry.dice or ()))  # app dice
    parts = []
    if heard is not None:
        concerned = (next((seat for seat in table.seats if seat.id == entry.seat_id), None) if heard.mover
                     else next((seat for seat in table.player_seats if seat.name == heard.seat), None))
        parts.append(f' data-cue="{heard.sound}"')
        if concerned is not None:
            parts.append(f' data-cue-seat="{concerned.number}"')
    if board and cues.speaks(entry.text, heard):
        parts.append(f' data-say="{escape(entry.text.removeprefix(service.actor_label(None) + ": "))}"')
    return Markup("".join(parts))


def init_templates(app: Flask) -> None:
    """What every screen's templates may call, beside Flask's own."""
    app.jinja_env.globals.update(csrf_token=csrf_token, tap_key=tap_key, stream_url=stream_url,
                                 seats_numbered=seats_numbered, having=having, url_for=url_for_once,
                                 cue_of=cue_of)
    app.context_processor(lambda: {"csrf_token": csrf_token})  # over Flask-WTF's own, which rendered pages see
