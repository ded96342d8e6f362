"""Kinds of screen and drawing a table for them: one snapshot per change, one render per kind, pushed to each stream.

A kind is what decides a live region's content: ("host", None) for the host screen, ("host", N) for the host playing
for seat N, ("seat", N) for seat N's phone, ("watch", None) for spectators, ("board", None) for the TV board. A new
screen adds a kind and a way to draw it; the broker neither knows nor cares what a kind means.
"""

from __future__ import annotations

import io
import re
import time
from collections import OrderedDict
from collections.abc import Callable

from flask import Flask, current_app, g, has_request_context, request, url_for
from flask_wtf.csrf import generate_csrf
from jinja2 import Template, pass_context
from jinja2.environment import TemplateModule
from jinja2.ext import Extension
from markupsafe import Markup
from sqlalchemy import bindparam, select
from sqlalchemy.orm import joinedload

from ..extensions import db
from ..models import Seat, Table
from . import wire
from .broker import Picture

Kind = tuple[str, int | None]
_TABLE = select(Table).options(joinedload(Table.seats)).where(Table.code == bindparam("code"))  # one query, built once


def kind_of(visitor, seat, board: bool = False) -> Kind:
    """The kind of screen a visitor sees a table as (`seat`: the seat shown, for a player or the host)."""
    if visitor.host and board:
        return ("board", None)
    if visitor.host:
        return ("host", seat.number if seat is not None else None)
    if visitor.player is not None:
        return ("seat", visitor.player.number)
    return ("watch", None)


def shared_csrf_token() -> str:
    """Forms in a region drawn for many screens carry no token of their own: the page's token goes in the
    X-CSRFToken header of every htmx request (hx-headers on <body>), and is valid for the whole session."""
    return "" if g.get("drawing_for_many") else generate_csrf()


def stream_url(table: Table, visitor, seat, presence: str, board: bool = False) -> str:
    """The page's event stream: it pushes this screen's region, starting from the picture the page shows."""
    number = seat.number if (seat is not None and visitor.host) else None
    return url_for("live.events", code=table.code, v=table.version, p=presence, seat=number, region=1,
                   board=1 if board else None)


def _visitor_for(kind: Kind, table: Table):
    from ..tables.service import Visitor

    role, number = kind
    if role in ("host", "board"):
        return Visitor(host=True)
    if role == "seat":
        return Visitor(seat=next(seat for seat in table.player_seats if seat.number == number))
    return Visitor(seat=Seat(role="spectator", name="Spectator", player_name="Spectator"))


def _seat_shown(kind: Kind, table: Table):
    _, number = kind
    return next((seat for seat in table.player_seats if seat.number == number), None) if number else None


# Under gevent a drawing yields to the worker's other requests (and its heartbeat to gunicorn) once it has held the
# worker this long: a table of a host and six phones draws in one go (yielding between its renders let every other
# ready request in first, and each table's last screen waited for them all), while a table with dozens of screens
# still lets the others through at least every 20 ms (and so does a wave of drawings, one table after another).
HOLD_SECONDS = 0.02


class Drawing:
    """What the renders of one drawing for many screens share, looked up once (`g.drawing_for_many`): a fragment
    asked for through Flask's proxies (g, request.host, current_app) paid for each lookup, dozens of times a screen."""

    __slots__ = ("root", "where", "kept", "urls", "fragments", "phones")

    def __init__(self, app: Flask):
        self.root = request.url_root  # the URLs drawn depend on where the app is mounted
        self.where = (request.host, request.script_root)
        self.kept = app.extensions.setdefault("nightshift_kept", OrderedDict())  # from one drawing to the next
        self.urls = app.extensions.setdefault("nightshift_urls", {})
        self.fragments: dict = {}  # `once`: for this drawing only
        self.phones: list | None = None  # while one render draws every phone: (seat number, its context) each


def draw(app: Flask, environ: dict, code: str, kinds: set[Kind],
         publish: Callable[[Picture], None] | None = None) -> Picture:
    """Load the table once and render its live region for each kind of screen; the session ends before returning,
    after `publish` (if given) has the picture: ending it is a round trip on PostgreSQL, and the screens need not wait.

    Raises NotFound if the table is gone, and SQLAlchemy's errors if the database is unreachable or its pool is dry:
    the stream waits and draws again.
    """
    from flask import render_template

    from ..errors import NotFound
    from ..tables.play import Shared, live_context

    with app.app_context(), app.request_context(environ):  # a context of its own, even inside a request
        g.drawing_for_many = Drawing(app)
        try:
            reading_alone()
            table = db.session.execute(_TABLE, {"code": code}).unique().scalar_one_or_none()
            if table is None:
                raise NotFound(f"Table {code} is gone.")
            table.freeze_seats()  # this session only reads, and ends with the drawing
            shared = Shared(table)
            if any(role in ("host", "board") for role, _ in kinds):
                shared.history()  # read now, with the rest of the snapshot, not between renders
            elif any(role == "seat" for role, _ in kinds):
                shared.undo_target()  # a phone's "Undo my last move" is the same newest move for every seat
            picture = Picture(version=table.version, presence=shared.presence,
                              seats={seat.id: seat.token_hash for seat in table.seats}, root=mount(environ))
            numbers = {seat.number for seat in table.player_seats}
            kinds = [kind for kind in kinds if kind[1] is None or kind[1] in numbers]  # a freed seat's streams end
            together = _phones_together(shared, kinds)
            held_since = time.perf_counter()
            for kind in (*(kind for kind in kinds if kind not in together), *together[:1]):
                if time.perf_counter() - held_since >= HOLD_SECONDS:
                    time.sleep(0)
                    held_since = time.perf_counter()
                if kind in together:
                    picture.regions |= _every_phone(table, shared, together)
                    continue
                screen = "board" if kind[0] == "board" else "page"
                context = live_context(table, _visitor_for(kind, table), _seat_shown(kind, table), screen, shared)
                template = "tables/_board_live.html" if screen == "board" else "tables/_live.html"
                picture.regions[kind] = personal(render_template(template, **context).strip(), kind[1],
                                                 table.version)
            if publish is not None:
                publish(picture)
            return picture
        finally:
            db.session.remove()


READ_ALONE = {"isolation_level": "AUTOCOMMIT"}


def reading_alone() -> None:
    """A drawing only reads. On PostgreSQL its statements run outside a transaction: each reads the newest committed
    rows, as it would inside the READ COMMITTED transaction it had before, without that transaction's BEGIN and
    ROLLBACK, two round trips of the four a drawing made (SQLite reads begin no transaction anyway)."""
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options=READ_ALONE)


def painter() -> Callable[..., Picture] | None:
    """How the request that wrote a move draws its table for other processes' screens (SharingBroker): with the
    request's host and mount point, in a context of its own."""
    if not has_request_context():
        return None
    app, environ = current_app._get_current_object(), drawing_environ(request.environ)
    return lambda code, kinds, publish: draw(app, environ, code, kinds, publish)


def _phones_together(shared, kinds) -> list[Kind]:
    """The phones drawn in one render for all of them: every seat's, if the game declares that its phones differ
    only in `each_phone` blocks (GameSpec.phones_alike) and more than one is open."""
    if shared.spec.phones_alike is None:
        return []
    phones = sorted(kind for kind in kinds if kind[0] == "seat")
    return phones if len(phones) > 1 else []


def _every_phone(table: Table, shared, phones: list[Kind]) -> dict[Kind, bytes]:
    """One region for every phone at the table, each seat's own blocks between marks, then made each phone's own by
    `personal`. Each seat's view, offers and slip are worked out as for its own render; where their views differ in
    more than the game declared (its rules and its declaration disagree), each phone is rendered on its own."""
    from flask import render_template

    from ..tables.play import live_context

    contexts = [live_context(table, _visitor_for(kind, table), _seat_shown(kind, table), "page", shared)
                for kind in phones]
    differ = {"viewer", "moves", *shared.spec.phones_alike}
    views = [{key: value for key, value in context["view"].items() if key not in differ} for context in contexts]
    drawing = g.drawing_for_many
    if all(view == views[0] for view in views[1:]):
        drawing.phones = [(kind[1], context) for kind, context in zip(phones, contexts, strict=True)]
        try:
            parts = marked(render_template("tables/_live.html", **contexts[0]).strip())
        finally:
            drawing.phones = None
        return {kind: personal_parts(parts, kind[1], table.version) for kind in phones}
    return {kind: personal(render_template("tables/_live.html", **context).strip(), kind[1], table.version)
            for kind, context in zip(phones, contexts, strict=True)}


def mount(environ: dict) -> str:
    """Where the app is mounted for a request: a region's URLs are right only for screens under the same root."""
    return environ.get("SCRIPT_NAME", "").rstrip("/")


def drawing_environ(environ: dict) -> dict:
    """A minimal request for rendering outside the stream's own request: the same host and mount point, no cookie."""
    keep = ("wsgi.url_scheme", "SERVER_NAME", "SERVER_PORT", "HTTP_HOST", "SCRIPT_NAME", "wsgi.errors")
    base = {key: environ[key] for key in keep if key in environ}
    return base | {"REQUEST_METHOD": "GET", "PATH_INFO": "/", "QUERY_STRING": "", "wsgi.input": io.BytesIO(),
                   "wsgi.version": (1, 0), "wsgi.multithread": False, "wsgi.multiprocess": True,
                   "wsgi.run_once": False}


KEPT_URLS = 4096  # per process: every table's few dozen URLs, for a few hundred tables


def remembered_url(endpoint: str, **values) -> str:
    """url_for, built once per endpoint and values: for as long as this app context lasts, and in drawings for many
    screens for as long as the process (a URL depends only on where the app is mounted and its values)."""
    many = g.get("drawing_for_many")
    urls = many.urls if many else g.setdefault("built_urls", {})
    try:
        root = many.root if many else request.url_root if has_request_context() else ""
        key = (root, endpoint, *sorted(values.items()))
        url = urls.get(key)
    except TypeError:  # an unhashable value: build it every time
        return url_for(endpoint, **values)
    if url is None:
        if many and len(urls) >= KEPT_URLS:
            urls.clear()
        url = urls[key] = url_for(endpoint, **values)
    return url


def remembered_csrf_token() -> str:
    """The page's CSRF token, made once per request (every form of a screen carries the same one)."""
    token = g.get("csrf_for_forms")
    if token is None:
        token = g.csrf_for_forms = shared_csrf_token()
    return token


# Marks in a drawing for many screens, filled in for each screen by `personal`. Each holds a "<", which escaping turns
# into "&lt;": no name or text a player typed can ever read as one.
TAP_MARK = "<~tap-key~>"  # where a tap key goes: each region gets fresh ones
# Where the table's version goes (an undo or "back to here" carries the version its screen showed): a fragment kept
# from one drawing to the next gets the version of the drawing it is shown in.
VERSION_MARK = "<~version~>"
MINE_MARK = "<~mine-{}~>"  # " mine" on the rows of the seat the screen shows
OWN_MARK, OWN_END = "<~own-{}~>", "<~/own~>"  # around a block only seat N's phone shows (`each_phone`)
_MARKED = b"<~"  # how every mark begins, in the region's UTF-8
_TAP, _VERSION, _MINE, _OWN, _OWN_END = (mark[2:].split("{")[0].encode()
                                         for mark in (TAP_MARK, VERSION_MARK, MINE_MARK, OWN_MARK, OWN_END))


def personal(html: str, number: int | None, version: int) -> bytes:
    """A region drawn from fragments shared by many screens, made this screen's own, as the one line of UTF-8 its
    event sends (`wire.one_line`): every form gets its own tap key (a browser without JavaScript resends the key its
    form carries, and two phones must never send the same one), the rows of seat `number` (the seat this screen
    shows) are marked as its own, only its own `each_phone` blocks stay, and `version` is the drawing's."""
    return personal_parts(marked(html), number, version)


def marked(html: str) -> list[bytes]:
    """A region's one line of UTF-8 split at its marks: once, however many screens it is then made personal for.

    One split of the encoded region, not a pass over its text per kind of mark: a host console holds dozens, and
    its text is twice as wide as its bytes (a minus sign or an ellipsis is enough)."""
    return wire.one_line(html.encode()).split(_MARKED)


def personal_parts(parts: list[bytes], number: int | None, version: int) -> bytes:
    """`personal`, on a region already split by `marked`."""
    from ..tables.forms import tap_key

    if len(parts) == 1:
        return parts[0]
    stamp = b"%d" % version
    own = b"mine-%d~>" % number if number is not None else None
    block = b"own-%d~>" % number if number is not None else None
    prefix = None  # one random prefix per region and a count after it: keys no other screen can guess or repeat,
    taps = 0  # for one draw from the system's randomness instead of one per form
    skipping = False  # inside another seat's own block
    out = [parts[0]]
    for part in parts[1:]:
        if skipping:
            if part.startswith(_OWN_END):
                skipping = False
                out.append(part[len(_OWN_END):])
        elif part.startswith(_TAP):
            if prefix is None:
                prefix = tap_key().encode()
            taps += 1
            out += (prefix, b".%d" % taps, part[len(_TAP):])
        elif part.startswith(_VERSION):
            out += (stamp, part[len(_VERSION):])
        elif part.startswith(_MINE) and part[len(_MINE):(end := part.find(b"~>"))].isdigit():
            if own is not None and part.startswith(own):
                out.append(b" mine")
            out.append(part[end + 2:])
        elif part.startswith(_OWN) and part[len(_OWN):(end := part.find(b"~>"))].isdigit():
            if block is not None and part.startswith(block):
                out.append(part[end + 2:])
            else:
                skipping = True
        elif part.startswith(_OWN_END):
            out.append(part[len(_OWN_END):])
        else:  # not a mark: as it was drawn
            out += (_MARKED, part)
    return b"".join(out)


_PHONE = ("seat", "view", "offers", "slip")  # what an `each_phone` block may read of its seat's context


@pass_context
def each_phone(context, *, caller) -> str:
    """A block only a seat's own phone shows, with that seat's `phone` (`{% call(phone) each_phone() %}`: phone.seat,
    phone.view, phone.offers, phone.slip): the screen's own on its own render; in one render for every phone at the
    table (GameSpec.phones_alike), every seat's, each between marks that `personal` keeps on that seat's phone only."""
    drawing = g.get("drawing_for_many")
    phones = drawing.phones if drawing else None
    if not phones:
        return caller({key: context.get(key) for key in _PHONE})
    out = []
    for number, phone in phones:
        out += (Markup(OWN_MARK.format(number)), caller(phone), Markup(OWN_END))
    return Markup("").join(out)


@pass_context
def mine(context, number: int) -> str:
    """' mine' on the row of the seat this screen shows (`class="seat-red{{ mine(2) }}"`), in a fragment drawn once
    for every phone too: there it is a mark that `personal` resolves for each screen."""
    if g.get("drawing_for_many"):
        return Markup(MINE_MARK.format(int(number)))
    seat = context.get("seat")
    return " mine" if seat is not None and seat.number == number else ""


def once(*key, caller) -> str:
    """A fragment drawn once per drawing for every screen that passes the same key (`{% call once(...) %}`).

    The key must name everything the fragment reads that differs between the screens of one table at one version
    (who is looking, what they are offered); outside a drawing for many screens it is drawn every time.
    """
    drawing = g.get("drawing_for_many")
    if not drawing:
        return caller()
    fragments = drawing.fragments
    try:
        drawn = fragments.get(key)
    except TypeError:  # an unhashable key: draw it every time
        return caller()
    if drawn is None:
        drawn = fragments[key] = caller()
    return drawn


def seats_numbered(table: Table, numbers) -> list[Seat]:
    """The table's player seats among these numbers, in seat order (whose turn it is, who won)."""
    wanted = set(numbers or ())
    return [seat for seat in table.player_seats if seat.number in wanted]


def having(items, key: str, value) -> list:
    """The mappings among `items` whose `key` is `value`: Jinja's selectattr parses its attribute on every call, and
    the hot templates call it on every screen of every drawing."""
    return [item for item in items if item.get(key) == value]


# Per process. A table with six phones and a host screen keeps about 50 (counters, log lines, seat rows), about 2 KB
# each with its key: this holds about 300 busy tables in at most 35 MB. Past that the least recently drawn go (and are
# drawn again when asked); at 4,096 a benchmark of 143 such tables evicted each fragment before it was asked for again.
KEPT_FRAGMENTS = 16384


def kept(*key, caller) -> str:
    """A fragment kept from one drawing to the next for as long as its key stays the same (`{% call kept(...) %}`):
    a move changes one or two counters, and the others' controls need not be drawn again.

    Stricter than `once`: the key must name everything the fragment reads, at any version of the table (the table's
    code, who is looking, the values shown, what is offered). Outside a drawing for many screens it is drawn every
    time; inside, its forms carry marks, not keys, so one fragment serves every screen and every drawing.
    """
    drawing = g.get("drawing_for_many")
    if not drawing:
        return caller()
    fragments = drawing.kept
    try:
        key = (*drawing.where, *key)  # the URLs drawn
        drawn = fragments.get(key)
    except TypeError:  # an unhashable key: draw it every time
        return caller()
    if drawn is None:
        drawn = fragments[key] = caller()
        if len(fragments) > KEPT_FRAGMENTS:
            fragments.popitem(last=False)
    else:
        fragments.move_to_end(key)
    return drawn


class SharedGlobalsTemplate(Template):
    """A template whose imports skip Jinja's check for globals of the importer's own: this app gives templates no
    globals of their own (every one is the environment's, seen live by every template), so the check always finds
    none, and it cost each drawing about 5% (a set difference over every global, per `{% from ... import %}`)."""

    def _get_default_module(self, ctx=None):
        return super()._get_default_module(None)

    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        """Every compiled template renders through `_freed_after`, so no render leaves a cycle behind."""
        template = super()._from_namespace(environment, namespace, globals)
        template.root_render_func = _freed_after(namespace["root"])
        return template

    def make_module(self, vars=None, shared=False, locals=None):
        """Jinja's own, with the module's context marked: its macros are called long after it rendered, so they stay."""
        context = self.new_context(vars, shared, locals)
        context.module = True
        return TemplateModule(self, context)


def _freed_after(root):
    """A template's render that lets go of its context's variables once done.

    A template that defines a macro holds it in its context, and the macro holds the context: a cycle, so everything
    the render saw (the view, the offers, every list and dict the template made) waited for the garbage collector,
    about 700 objects per drawing of a host and six phones, and each collection of thousands of them paused the worker
    for whichever screens were waiting. Cleared here, they are freed as soon as the render ends."""

    def render(context):
        try:
            yield from root(context)
        finally:
            if not getattr(context, "module", False):
                context.vars.clear()

    return render


class Unindented(Extension):
    """Templates drawn without their source's indentation, which is never shown: a live region is pushed to every
    screen on every move, and the indentation was about a seventh of a phone's region, encoded and deflated each time.
    Only leading spaces go, never a line break, so no two words are joined; no template holds a <pre>, or a string
    literal or <textarea> text across lines, where they would count (tests/live/test_render_cost.py checks)."""

    def preprocess(self, source: str, name: str | None, filename: str | None = None) -> str:
        return _INDENTATION.sub("", source)


_INDENTATION = re.compile(r"^[ \t]+", re.MULTILINE)


def init_screens(app: Flask) -> None:
    """Templates get the shared-render CSRF token, URLs built once, and the stream URL helper."""
    app.jinja_env.add_extension(Unindented)
    app.jinja_env.template_class = SharedGlobalsTemplate
    app.jinja_env.globals["csrf_token"] = remembered_csrf_token  # macros imported without context see globals
    app.context_processor(lambda: {"csrf_token": remembered_csrf_token})  # included templates see the context
    app.jinja_env.globals["url_for"] = remembered_url
    app.jinja_env.globals["stream_url"] = stream_url
    app.jinja_env.globals["once"] = once
    app.jinja_env.globals["kept"] = kept
    app.jinja_env.globals["mine"] = mine
    app.jinja_env.globals["each_phone"] = each_phone
    app.jinja_env.globals["seats_numbered"] = seats_numbered
    app.jinja_env.globals["having"] = having
    from ..tables import forms

    app.jinja_env.globals["forms"] = forms  # templates/tables/_act.html hands its tap forms to the templates


def beat_seconds() -> float:
    return float(current_app.config["LIVE_BEAT_SECONDS"])
