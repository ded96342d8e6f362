"""Playing at a table from the browser: the live region, moves, undo/redo/jump, the full log and the dice check."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, redirect, render_template, request, url_for
from markupsafe import Markup

from ..dice.verify import verify as verify_draws
from ..errors import Forbidden
from ..games import get_game
from ..games.moves import Offers
from ..games.pages import board_template, panel_template, phone_template
from ..inputs import IDEMPOTENCY_FIELD, idempotency_key
from ..models import Table
from ..reading import natural, whole_or_none
from . import auth, qr, service
from .links import join_url

bp = Blueprint("play", __name__)

LOG_ON_SCREEN = service.ON_SCREEN  # a slip is undone, or asked about, while on screen


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
        self.by_number = {seat.number: seat for seat in table.player_seats}
        self._undo: object = service.UNREAD
        self._history: tuple | None = None
        self._slips: dict[int, service.Slip] | None = None
        self._tails: dict[tuple[bool, bool], Markup] = {}
        self._public: dict[tuple[bool, int | None], Markup] = {}
        self._common: list[dict[str, Any]] | None = None
        self.checked: dict = {}  # Offers.allows' verdicts, shared by every screen of this state
        self.phone_panel = phone_template(self.spec.package)

    def undo_target(self):
        """The newest move in effect: what the host's Undo takes back, and a phone's own slip if it made it."""
        if self._undo is service.UNREAD:
            self._undo = service.undo_target(self.table, self.newest)
        return self._undo

    def slips(self) -> dict[int, service.Slip]:
        """Each seat's latest move on screen and what its phone may do about it; the asks waiting for the host."""
        if self._slips is None:
            self._slips = service.slips_on_screen(self.log) if self.table.status != "finished" else {}
        return self._slips

    def history(self) -> tuple:
        """The host's undo and redo targets, queried once and only if a host screen is drawn."""
        if self._history is None:
            self._history = service.history_controls(self.table, self.undo_target(), self.newest)
        return self._history

    def tail(self, seat_controls: bool, log_controls: bool) -> Markup:
        """The seat list and the log, rendered from the table alone (no seat, view or offers in its context), so
        every phone and spectator of one drawing shares one render."""
        key = (seat_controls, log_controls)
        if key not in self._tails:
            self._tails[key] = Markup(render_template(
                "tables/_tail.html", table=self.table, log=self.log, dice=self.dice, connected=service.is_connected,
                seat_controls=seat_controls, log_controls=log_controls))
        return self._tails[key]

    def common(self) -> list[dict[str, Any]]:
        """The moves the rules offer every seat alike (the same move, word for word): a game with a phone part draws
        them once, in the panel every phone shares, and each phone's own part holds only the rest of its moves."""
        if self._common is None:
            numbers = [seat.number for seat in self.table.player_seats]
            offered = ([self.rules.legal_actions(self.state, number) for number in numbers]
                       if self.table.status != "finished" and numbers else [[]])
            self._common = [move for move in offered[0] if all(move in others for others in offered[1:])]
        return self._common

    def public(self, phones: bool, as_seat: int | None = None) -> Markup:
        """The game's panel as every phone (`phones`, also in its context: with the moves every seat may make,
        `common`) or every spectator (no moves) sees it, drawn once for all of them. Its view is a spectator's and it
        has no seat, so no seat's own view can reach another phone through it; what a phone marks as its own (its row
        in a table of every seat) belongs in its phone part."""
        key = (phones, as_seat)
        if key not in self._public:
            context = _panel_context(self.table, service.a_spectator(), None, "page", self)
            if phones:
                numbers = [seat.number for seat in self.table.player_seats]
                context |= {"offers": Offers(self.rules.MOVES, self.state, self.common(), None, every=numbers,
                                             checked=self.checked),
                            "as_seat": as_seat, "phones": True}
            self._public[key] = Markup(render_template(panel_template(self.spec.package), **context))
        return self._public[key]


def _panel_context(table: Table, visitor: service.Visitor, seat, screen: str, shared: Shared) -> dict[str, Any]:
    """What a game's panel renders from: the view and moves of this visitor, and what every game's templates share."""
    rules = shared.rules
    viewer = service.viewer_of(visitor, seat)
    view = rules.view(shared.state, viewer)
    offered = view["moves"] if table.status != "finished" and screen != "board" else []
    log = shared.log[:BOARD_LOG] if screen == "board" else shared.log
    return {"table": table, "spec": shared.spec, "visitor": visitor, "seat": seat, "view": view,
            "outcome": shared.outcome, "log": log, "newest": log[0] if log else None, "dice": shared.dice,
            "offers": Offers(rules.MOVES, shared.state, offered, viewer.seat, checked=shared.checked),
            "screen": screen,
            "connected": service.is_connected, "by_number": shared.by_number, "phones": False,
            "as_seat": seat.number if (seat is not None and visitor.host) else None,
            "open": table.status != "finished" and not shared.outcome}


def live_context(table: Table, visitor: service.Visitor, seat, screen: str = "page",
                 shared: Shared | None = None) -> dict[str, Any]:
    """Everything a live region renders; one place, so the page, the fragment and the pushed region agree.

    `screen` is "page" (a phone, a spectator, the host's console) or "board" (the TV: no controls, nothing to scroll).
    `shared` is the table's snapshot when one drawing serves several screens. Besides the view and the offered moves,
    a game's templates get `by_number` (seat number -> seat), `as_seat` (the seat the host plays for, or None) and
    `open` (the game goes on).
    """
    shared = shared or Shared(table)
    context = _panel_context(table, visitor, seat, screen, shared)
    undo_target, redo_target = shared.history() if visitor.host and screen != "board" else (None, None)
    slip = shared.slips().get(seat.id) if seat is not None and not visitor.host else None
    asks = ([slip for slip in shared.slips().values() if slip.can == "asked"]
            if visitor.host and seat is None and screen != "board" else [])
    # A game with a phone part: a phone (or the host playing a seat) shows that part for its seat, with the moves only
    # it is offered, then the panel with the moves every seat is offered, shared by every phone; a spectator, that
    # panel without moves; the host's console, the whole panel with every move.
    split = shared.phone_panel is not None and screen == "page" and (seat is not None or not visitor.host)
    phone = split and seat is not None
    if phone:
        # With one seat every move is "every seat's": the phone part keeps them all (the question put to that seat),
        # and each game's panel draws only table-wide ones, so nothing is drawn twice.
        common = shared.common() if len(table.player_seats) > 1 else []
        context["offers"] = Offers(shared.rules.MOVES, shared.state,
                                   [move for move in context["offers"].offered if move not in common],
                                   context["offers"].seat, checked=shared.checked)
    return context | {
        "undo_target": undo_target, "redo_target": redo_target, "slip": slip, "undo_asks": asks,
        "presence": shared.presence,
        "all_seated": shared.all_seated, "panel": panel_template(shared.spec.package),
        "board": board_template(shared.spec.package),
        "phone_panel": shared.phone_panel if phone else None,
        "public_panel": shared.public(phone, context["as_seat"]) if split else None,
        "board_qr": board_qr(table, shared.outcome is not None) if screen == "board" else None,
        "tail": shared.tail(visitor.host, visitor.host and seat is None) if screen == "page" else None}


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


@bp.post("/t/<code>/<any(undo, redo, jump, 'undo-ask', 'undo-grant', 'undo-keep'):step>")
def history(code: str, step: str):
    """Undo, redo and 'back to here'; a phone undoes its own slip, or asks the host, who answers in one tap. Each
    carries the version the screen showed."""
    table = service.find_table(code)
    visitor = _visitor(table)
    service.history_step(table, visitor, step, request.form.get("seq"),
                         version=service.parse_version(request.form.get("version")), key=idempotency_key())
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
