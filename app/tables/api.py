"""The JSON API: the same service calls as the pages, authenticated by bearer tokens instead of cookies."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ..errors import BadRequest
from ..games import REGISTRY
from ..inputs import idempotency_key
from ..reading import quoted, whole_or_none
from . import auth, service
from .links import join_url

bp = Blueprint("api", __name__, url_prefix="/api")


def json_body() -> dict[str, Any]:
    """The request's JSON object, or a 400 that says what was expected."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest("Send a JSON object with Content-Type: application/json.")
    return body


def table_view(table, visitor: service.Visitor) -> dict[str, Any]:
    """The table as this token may see it; the host also gets the join link its QR code carries."""
    data = service.describe(table, visitor)
    if visitor.host:
        data["join_url"] = join_url(table)
    return data


@bp.get("/games")
def games():
    """Every game on the registry with its player counts and setup options."""
    return jsonify({"games": [spec.describe() for spec in REGISTRY.values()]})


@bp.post("/tables")
def create_table():
    body = json_body()
    unknown = sorted(set(body) - {"game", "options"})
    if unknown:
        raise BadRequest(f"Unknown field {quoted(unknown[0])}; send 'game' and 'options'.")
    table, host_token = service.create_table(body.get("game"), body.get("options", {}))
    return jsonify(table_view(table, service.Visitor(host=True)) | {"host_token": host_token}), 201


@bp.get("/tables/<code>")
def get_table(code: str):
    """The table as this token sees it; after Play again, `next` names the next table and this token's key to it."""
    table = service.find_table(code)
    data = table_view(table, auth.api_visitor(table))
    if table.next_code:
        data["next"] = {"code": table.next_code, "token": auth.next_token(auth.bearer_token(), table)}
    return jsonify(data)


@bp.post("/tables/<code>/join")
def join(code: str):
    table = service.find_table(code)
    body = json_body()
    unknown = sorted(set(body) - {"name", "seat", "key", "spectator"})
    if unknown:
        raise BadRequest(f"Unknown field {quoted(unknown[0])}; send 'name', 'key' and optionally 'seat' or "
                         "'spectator'.")
    spectator = body.get("spectator", False)
    if not isinstance(spectator, bool):
        raise BadRequest("'spectator' must be true or false.")
    seat, token = service.join(table, key=body.get("key"), name=body.get("name"), seat=body.get("seat"),
                               spectator=spectator)
    return jsonify({"seat_token": token, "role": seat.role, "seat": seat.number, "seat_name": seat.name,
                    "player": seat.player_name, "version": table.version}), 201


@bp.post("/tables/<code>/seats/<int:number>/free")
def free_seat(code: str, number: int):
    table = service.find_table(code)
    service.free_seat(table, auth.api_visitor(table), number)
    return jsonify(table_view(table, service.Visitor(host=True)))


@bp.post("/tables/<code>/end")
def end_table(code: str):
    table = service.find_table(code)
    service.end_table(table, auth.api_visitor(table))
    return jsonify(table_view(table, service.Visitor(host=True)))


@bp.post("/tables/<code>/join-key")
def change_join_key(code: str):
    """A new join key (host only): the old key and QR code stop working at once; players keep their seats."""
    table = service.find_table(code)
    service.change_join_key(table, auth.api_visitor(table))
    return jsonify(table_view(table, service.Visitor(host=True)))


@bp.post("/tables/<code>/again")
def play_again(code: str):
    """The next game with the same options and seats; the host's token for it is made from this one."""
    table = service.find_table(code)
    upcoming = service.play_again(table, auth.api_visitor(table))
    token = auth.next_token(auth.bearer_token(), table)
    return jsonify(table_view(upcoming, service.Visitor(host=True)) | {"host_token": token}), 201


def client_version(body: dict[str, Any]) -> int | None:
    """The version the client last saw: the If-Match header or a `version` field; stale means 409."""
    from_body = service.parse_version(body.pop("version", None))
    from_header = service.parse_version(request.headers.get("If-Match"))
    return from_header if from_header is not None else from_body


def moved(table, visitor: service.Visitor, entries):
    """After a move: the new version, this token's view of the table, and the log lines it wrote.

    A repeated Idempotency-Key gets the log line its first request wrote and the table as it is now, marked
    `Idempotent-Replayed: true`; nothing was applied again.
    """
    response = jsonify({"version": table.version, **service.seen_by(table, visitor),
                        "log": [service.entry_json(entry) for entry in entries]})
    if any(entry.replayed for entry in entries):
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.post("/tables/<code>/actions")
def act(code: str):
    """A move: {"type": ..., fields...}; the host may add "seat" to play for a seat."""
    table = service.find_table(code)
    visitor = auth.api_visitor(table)
    body = json_body()
    version = client_version(body)
    entry = service.apply_action(table, visitor, body, version=version, key=idempotency_key())
    return moved(table, visitor, [entry])


@bp.post("/tables/<code>/<any(undo, redo, jump, 'undo-ask', 'undo-grant', 'undo-keep'):step>")
def history(code: str, step: str):
    """Undo, redo, or jump back to just after log entry {"seq": N} (host only); a player's ask to undo their move
    (undo-ask), and the host's answer to the ask logged as {"seq": N} (undo-grant, undo-keep). Each is a log entry."""
    table = service.find_table(code)
    visitor = auth.api_visitor(table)
    body = request.get_json(silent=True) if request.data else {}
    if not isinstance(body, dict):
        raise BadRequest("Send nothing, or a JSON object such as {\"version\": 7} or {\"seq\": 12}.")
    version = client_version(body)
    key = idempotency_key()
    entry = service.history_step(table, visitor, step, body.get("seq"), version=version, key=key)
    return moved(table, visitor, [entry])


@bp.get("/tables/<code>/log")
def table_log(code: str):
    """The log, newest first; `?before=SEQ` pages back, `?limit=` up to 200. The host's export: it works with the
    host's cookie too, and after the table expired until the purge."""
    table = service.find_table(code, expired_ok=True)
    visitor, _ = auth.request_visitor(table)
    if visitor is None:
        auth.api_visitor(table)  # the 401 that says which token to send
    if service.is_expired(table) and not visitor.host:
        raise service.expired(table)
    before = request.args.get("before", "")
    before_seq = whole_or_none(before) if before else None
    limit = whole_or_none(request.args.get("limit", "50"), minimum=1, maximum=200)
    if (before and before_seq is None) or limit is None:
        raise BadRequest("Use ?before=SEQ (a log entry number) and ?limit= from 1 to 200.")
    entries = service.log_page(table, before=before_seq, limit=limit)
    return jsonify({"version": table.version, "log": [service.entry_json(entry) for entry in entries]})


@bp.get("/tables/<code>/dice")
def dice(code: str):
    """The seed's commitment, the seed once the table ended, and every logged draw: enough to re-check them all."""
    table = service.find_table(code)
    auth.api_visitor(table)
    return jsonify(service.dice_disclosure(table) | {"draws": service.logged_draws(table)})
