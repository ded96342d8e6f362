"""Pages: create a table, the host screen with its QR code, the join page and each phone's seat page."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, request, url_for

from ..errors import Conflict, Forbidden, Invalid
from ..games import REGISTRY, UnknownGame, get_game
from ..models import Table
from . import auth, codes, lan, play, qr, service
from .links import base_url, join_url

bp = Blueprint("tables", __name__)


def _game_or_404(slug: str):
    try:
        return get_game(slug)
    except UnknownGame:
        abort(404)


def _host_only(table: Table) -> service.Visitor:
    """Host rights from the browser's cookie, or from the host's bearer token for scripts."""
    visitor, _ = auth.request_visitor(table)
    if visitor is None or not visitor.host:
        raise Forbidden(f"This is the host screen of table {table.code}, and this device isn't its host. "
                        "To play, scan the QR code on the host screen with your phone.")
    return visitor


@bp.get("/")
def index():
    return render_template("index.html", games=REGISTRY.values(), remembered=auth.remembered_codes())


@bp.get("/join")
def join_lookup():
    """The home page's 'join by code' form: a code and the key shown on the host screen."""
    table = service.find_table(request.args.get("code", ""))
    typed = request.args.get("key", "").strip()[:32]
    key = codes.normalise(typed, codes.KEY_LENGTH) or typed  # a mistyped key is refused as wrong, not as missing
    return redirect(url_for("tables.join_page", code=table.code, k=key or None))


@bp.get("/new/<slug>")
def new_table(slug: str):
    spec = _game_or_404(slug)
    return render_template("tables/new.html", spec=spec, values={}, error=None)


@bp.post("/new/<slug>")
def create_table(slug: str):
    spec = _game_or_404(slug)
    known = {option.key: option for option in spec.options}
    raw = {}
    for key in request.form:
        if key == "csrf_token":
            continue
        values = request.form.getlist(key)
        option = known.get(key)  # unknown keys go through, to be refused by name
        raw[key] = values if option is not None and option.kind == "multi" else values[-1]
    try:
        table, host_token = service.create_table(spec.slug, raw, from_form=True)
    except Invalid as error:
        shown = {option.key: raw.get(option.key, [] if option.kind == "multi" else
                                     (False if option.kind == "bool" else option.default))
                 for option in spec.options}  # what the host sent, unticked boxes included
        return render_template("tables/new.html", spec=spec, values=shown, error=error.message), 422
    auth.remember(table.code, "host", host_token)
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


def _table_view(table: Table, visitor: service.Visitor | None, seat=None) -> dict:
    """A page's context; pages with a live region get everything the region renders too."""
    spec = get_game(table.game)
    context = {"table": table, "spec": spec, "visitor": visitor, "summary": spec.summary(table.options)}
    if visitor is not None:
        context |= play.live_context(table, visitor, seat)
    return context


@bp.get("/t/<code>")
def host_screen(code: str):
    table = service.find_table(code)
    visitor, _ = auth.browser_visitor(table)
    if visitor is not None and not visitor.host:
        return redirect(url_for("tables.my_seat", code=table.code))
    visitor = _host_only(table)  # the cookie's host, or a script's bearer token
    base = base_url()
    link = join_url(table, base)
    others = lan.candidates() if base.source != "NIGHTSHIFT_PUBLIC_URL" else []
    return render_template("tables/host.html", **_table_view(table, visitor), base=base, join_url=link,
                           qr_svg=qr.svg(link), join_key=codes.spaced(table.join_key), other_addresses=others,
                           join_qr_shown=service.join_qr_requested(table))


@bp.get("/t/<code>/board")
def board(code: str):
    """The TV: the game's shared state filling the screen, no controls, nothing to scroll (the host's token only)."""
    table = service.find_table(code)
    visitor = _host_only(table)
    return render_template("tables/board.html", **(_table_view(table, visitor)
                                                   | play.live_context(table, visitor, None, "board")))


@bp.post("/t/<code>/board/qr")
def board_qr(code: str):
    """The console's 'QR on the board' switch: bring the join code back for a late player, or send it away."""
    table = service.find_table(code)
    service.show_join_qr(table, _host_only(table), request.form.get("show") == "1")
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


@bp.post("/t/<code>/join-key")
def change_join_key(code: str):
    """The host screen's "Change the join code": a new QR code and key; the old ones stop working at once."""
    table = service.find_table(code)
    service.change_join_key(table, _host_only(table))
    flash("New join code: the old QR code and key no longer work. Players keep their seats.")
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


@bp.get("/t/<code>/qr.svg")
def qr_svg(code: str):
    table = service.find_table(code)
    _host_only(table)
    return Response(qr.svg(join_url(table)), mimetype="image/svg+xml")


@bp.get("/t/<code>/qr.png")
def qr_png(code: str):
    table = service.find_table(code)
    _host_only(table)
    return Response(qr.png(join_url(table)), mimetype="image/png")


@bp.get("/j/<code>")
def join_page(code: str):
    table = service.find_table(code)
    visitor, stale = auth.browser_visitor(table)
    if visitor is not None and visitor.seat is not None:
        return redirect(url_for("tables.my_seat", code=table.code))  # rescanning returns to the same seat
    service.check_open(table)
    key = request.args.get("k", "")
    service.check_join_key(table, key)
    if stale:
        auth.forget(table.code, "seat")
        flash("The host freed your seat. Pick a seat to join again.")
    return render_template("tables/join.html", **_table_view(table, visitor), key=key, error=None, name="")


@bp.post("/j/<code>")
def join_post(code: str):
    table = service.find_table(code)
    key, name = request.form.get("k", ""), request.form.get("name", "")
    spectator = request.form.get("watch") == "1"
    try:
        seat, token = service.join(table, key=key, name=name, seat=request.form.get("seat") or None,
                                   spectator=spectator)
    except (Invalid, Conflict) as error:
        return render_template("tables/join.html", **_table_view(table, None), key=key, error=error.message,
                               name=name), error.status
    auth.remember(table.code, "seat", token)
    if seat.role == "player":  # straight to the seat page: one round trip less on a phone's first load
        return redirect(url_for("tables.seat_page", code=table.code, number=seat.number), code=303)
    return redirect(url_for("tables.my_seat", code=table.code), code=303)


@bp.get("/t/<code>/seat")
def my_seat(code: str):
    """Where a phone belongs at this table: its seat page, the spectator page, or the join page."""
    table = service.find_table(code)
    visitor, stale = auth.browser_visitor(table)
    if visitor is not None and visitor.player is not None:
        return redirect(url_for("tables.seat_page", code=table.code, number=visitor.player.number))
    if visitor is not None and visitor.spectator:
        return render_template("tables/watch.html", **_table_view(table, visitor))
    if visitor is not None and visitor.host:
        return redirect(url_for("tables.host_screen", code=table.code))
    if stale:
        auth.forget(table.code, "seat")  # this browser held a seat here (the cookie is signed): offer it back
        return render_template("tables/freed.html", table=table, spec=get_game(table.game), visitor=None,
                               key=table.join_key)
    raise Forbidden(f"This device has no seat at table {table.code}. Scan the QR code on the host screen.")


@bp.get("/t/<code>/seats/<int:number>")
def seat_page(code: str, number: int):
    """A player's phone view; the host may open any seat to play for it (pass-and-play)."""
    table = service.find_table(code)
    visitor, _ = auth.browser_visitor(table)
    seat = service.seat_by_number(table, number)
    if visitor is None or not visitor.may_act_for(seat):
        raise Forbidden(f"{seat.name} belongs to another player. Only they and the host can open it.")
    return render_template("tables/seat.html", **_table_view(table, visitor, seat))


@bp.post("/t/<code>/seats/<int:number>/free")
def free_seat(code: str, number: int):
    table = service.find_table(code)
    seat = service.free_seat(table, auth.browser_visitor(table)[0], number)
    flash(f"{seat.name} is free again.")
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


@bp.post("/t/<code>/seats/<int:number>/sit")
def host_sit(code: str, number: int):
    table = service.find_table(code)
    seat = service.host_seats_player(table, auth.browser_visitor(table)[0], number, request.form.get("name"))
    flash(f"{seat.player_name} sits as {seat.name}; open the seat to play for them.")
    return redirect(url_for("tables.host_screen", code=table.code), code=303)


@bp.post("/t/<code>/again")
def play_again(code: str):
    """Play again: the next game at a new table, same options and seats; every phone follows on its own."""
    table = service.find_table(code)
    visitor, _ = auth.browser_visitor(table)
    if not table.next_code:
        service.play_again(table, visitor)
    return redirect(url_for("tables.follow_next", code=table.code), code=303)


@bp.get("/t/<code>/next")
def follow_next(code: str):
    """Where a screen of a finished table goes after Play again: the same place at the next table (the TV's board to
    the next board)."""
    table = service.find_table(code)
    role = auth.follow_next(table)
    if role == "host":
        place = "tables.board" if request.args.get("screen") == "board" else "tables.host_screen"
        return redirect(url_for(place, code=table.next_code), code=303)
    if role == "seat":
        return redirect(url_for("tables.my_seat", code=table.next_code), code=303)
    return redirect(url_for("tables.my_seat", code=table.code), code=303)


@bp.post("/t/<code>/end")
def end_table(code: str):
    table = service.find_table(code)
    service.end_table(table, auth.browser_visitor(table)[0])
    flash("The game has ended. The table stays here to look back on.")
    return redirect(url_for("tables.host_screen", code=table.code), code=303)
