"""Playing at a table from the browser: the live region, moves, undo/redo/jump, the full log and the dice check."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, g, redirect, render_template, request, url_for
from markupsafe import Markup

from ..dice.verify import verify as verify_draws
from ..errors import Forbidden
from ..games import get_game
from ..games.moves import Offers
from ..inputs import IDEMPOTENCY_FIELD, idempotency_key
from ..models import Table
from ..reading import natural, whole_or_none
from . import auth, qr, service
from .links import join_url

bp = Blueprint("play", __name__)

LOG_ON_SCREEN = 12


def _visitor(table: Table) -> service.Visitor:
    visitor, _ = auth.request_visitor(table)
    if visitor is None:
        raise Forbidden(f"Join table {table.code} to see it: scan the QR code on the host screen.")
    return visitor


def _seat_for(table: Table, visitor: service.Visitor):
    """Which seat this screen shows: the phone's own, the seat the host is playing for, or None (host screen)."""
    if not visitor.host:
        return visitor.player
    wanted = whole_or_none(request.values.get("seat", ""), minimum=1)
    return service.seat_by_number(table, wanted) if wanted is not None else None


BOARD_LOG = 4  # lines of the log the TV shows: the latest rolls, readable from across the room


class Shared:
    """What every screen's live region shares at one version of a table: loaded once, then rendered per screen."""

    def __init__(self, table: Table):
        self.table = table
        self.spec = get_game(table.game)
        self.rules = self.spec.rules
        self.state = service.game_state(table)
        self.outcome = self.rules.outcome(self.state)
        self.log = service.log_page(table, limit=LOG_ON_SCREEN)
        self.newest = service.Newest(self.log, whole=len(self.log) < LOG_ON_SCREEN)
        self.presence = service.presence_key(table)
        self.dice = service.dice_disclosure(table)
        self.all_seated = all(seat.occupied for seat in table.player_seats)
        self._undo: object = service.UNREAD
        self._history: tuple | None = None
        self._tail: Markup | None = None

    def undo_target(self):
        """The newest move in effect: what the host's Undo takes back, and a phone's own slip if it made it."""
        if self._undo is service.UNREAD:
            self._undo = service.undo_target(self.table, self.newest)
        return self._undo

    def tail(self, context: dict[str, Any]) -> Markup:
        """The seat list and the log as every phone and spectator sees them, rendered once for all of them."""
        if self._tail is None:
            self._tail = Markup(render_template("tables/_tail.html", **context))
        return self._tail

    def history(self) -> tuple:
        """The host's undo and redo targets, queried once and only if a host screen is drawn."""
        if self._history is None:
            self._history = service.history_controls(self.table, self.undo_target(), self.newest)
        return self._history


def live_context(table: Table, visitor: service.Visitor, seat, screen: str = "page",
                 shared: Shared | None = None) -> dict[str, Any]:
    """Everything a live region renders; one place, so the page, the fragment and the pushed region agree.

    `screen` is "page" (a phone, a spectator, the host's console) or "board" (the TV: no controls, nothing to scroll).
    `shared` is the table's snapshot when one drawing serves several screens.
    """
    shared = shared or Shared(table)
    rules = shared.rules
    viewer = service.viewer_of(visitor, seat)
    view = rules.view(shared.state, viewer)
    offered = view["moves"] if table.status != "finished" and screen != "board" else []
    offers = Offers(rules.MOVES, shared.state, offered, viewer.seat)
    undo_target, redo_target = shared.history() if visitor.host else (None, None)
    slip = (service.own_slip(table, visitor, shared.undo_target())
            if seat is not None and not visitor.host and table.status != "finished" else None)
    log = shared.log[:BOARD_LOG] if screen == "board" else shared.log
    context = {"table": table, "spec": shared.spec, "visitor": visitor, "seat": seat, "view": view,
               "outcome": shared.outcome, "log": log, "undo_target": undo_target, "redo_target": redo_target,
               "slip": slip, "presence": shared.presence, "connected": service.is_connected,
               "newest": log[0] if log else None, "dice": shared.dice, "all_seated": shared.all_seated,
               "offers": offers, "panel": f"games/{shared.spec.package}/_panel.html", "screen": screen,
               "board": f"games/{shared.spec.package}/_board.html",
               "board_qr": board_qr(table, shared.outcome is not None) if screen == "board" else None,
               "shared_tail": None}
    if screen == "page" and not visitor.host and g.get("drawing_for_many"):
        context["shared_tail"] = shared.tail(context)  # one drawing serves many phones: their tail is the same
    return context


def board_qr(table: Table, decided: bool) -> str | None:
    """The join QR code for the TV while seats are free, or while the host asks for it; never once the game ended,
    whether the host ended it or the rules decided it (`decided`: the board shows the result there instead)."""
    if decided or table.status == "finished" or table.next_code:
        return None
    if all(seat.occupied for seat in table.player_seats) and not service.join_qr_requested(table):
        return None
    return qr.svg(join_url(table))


def render_live(table: Table, visitor: service.Visitor, seat, screen: str = "page") -> str:
    template = "tables/_board_live.html" if screen == "board" else "tables/_live.html"
    return render_template(template, **live_context(table, visitor, seat, screen))


@bp.get("/t/<code>/live")
def live(code: str):
    """The live region for this screen; 204 (nothing rendered) while its version and seat list are current."""
    table = service.find_table(code)
    visitor, stale = auth.request_visitor(table)
    if visitor is None and stale:  # the host freed this phone's seat: a clean page says so, not an error inside
        return Response(status=204, headers={"HX-Redirect": url_for("tables.my_seat", code=table.code)})
    visitor = _visitor(table)
    if request.args.get("v") == str(table.version) and request.args.get("p") == service.presence_key(table):
        return Response(status=204)
    if request.args.get("screen") == "board" and visitor.host:
        return render_live(table, visitor, None, "board")
    return render_live(table, visitor, _seat_for(table, visitor))


def form_action(rules) -> dict[str, Any]:
    """A move from a form: each field read as its declared kind (a number, a list of numbers, a yes-or-no box)."""
    return rules.MOVES.from_form({key: value for key, value in request.form.items()
                                  if key not in ("csrf_token", "version")})


def _after(table: Table, visitor: service.Visitor, seat):
    """htmx gets the fresh live region; a plain form goes back to its page."""
    if request.htmx:
        return render_live(table, visitor, seat)
    if seat is not None:
        return redirect(url_for("tables.seat_page", code=table.code, number=seat.number), code=303)
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


@bp.post("/t/<code>/act")
def act(code: str):
    table = service.find_table(code)
    visitor = _visitor(table)
    action = form_action(get_game(table.game).rules)
    action.pop(IDEMPOTENCY_FIELD, None)  # the tap's key, not a field of the move
    seat = _seat_for(table, visitor)
    if visitor.host and seat is not None:
        action["seat"] = seat.number
    service.apply_action(table, visitor, action, version=service.parse_version(request.form.get("version")),
                         key=idempotency_key())
    return _after(table, visitor, seat)


@bp.post("/t/<code>/<any(undo, redo, jump):step>")
def history(code: str, step: str):
    """Undo, redo and 'back to here' (a phone may undo its own slip); each carries the version the screen showed."""
    table = service.find_table(code)
    visitor = _visitor(table)
    version = service.parse_version(request.form.get("version"))
    key = idempotency_key()
    if step == "jump":
        service.jump_back(table, visitor, request.form.get("seq"), version=version, key=key)
    else:
        (service.undo if step == "undo" else service.redo)(table, visitor, version=version, key=key)
    return _after(table, visitor, _seat_for(table, visitor))


@bp.get("/t/<code>/log")
def full_log(code: str):
    """The whole story of the table, 100 entries a page, newest first."""
    table = service.find_table(code)
    visitor = _visitor(table)
    entries = service.log_page(table, before=request.args.get("before", type=natural), limit=100)
    older = entries[-1].seq if len(entries) == 100 and entries[-1].seq > 1 else None
    return render_template("tables/log.html", table=table, spec=get_game(table.game), visitor=visitor,
                           entries=entries, older=older)


@bp.get("/t/<code>/verify")
def verify_dice(code: str):
    """Re-check every app roll from the revealed seed; before the end, show the commitment and how it works."""
    table = service.find_table(code)
    visitor = _visitor(table)
    disclosed = service.dice_disclosure(table)
    draws = service.logged_draws(table)
    report = verify_draws(disclosed["seed"], draws, table.dice_counter) if disclosed["seed"] else None
    return render_template("tables/verify.html", table=table, spec=get_game(table.game), visitor=visitor,
                           disclosed=disclosed, draws=draws, report=report,
                           commitment_ok=report.commitment_ok(disclosed["commitment"]) if report else None)
