"""The JSON API: the same service calls as the pages, authenticated by bearer tokens instead of cookies."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, request

from ..errors import BadRequest
from ..games import REGISTRY
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
        raise BadRequest(f"Unknown field {unknown[0]!r}; send 'game' and 'options'.")
    table, host_token = service.create_table(body.get("game"), body.get("options", {}))
    return jsonify(table_view(table, service.Visitor(host=True)) | {"host_token": host_token}), 201


@bp.get("/tables/<code>")
def get_table(code: str):
    table = service.find_table(code)
    return jsonify(table_view(table, auth.api_visitor(table)))


@bp.post("/tables/<code>/join")
def join(code: str):
    table = service.find_table(code)
    body = json_body()
    unknown = sorted(set(body) - {"name", "seat", "key", "spectator"})
    if unknown:
        raise BadRequest(f"Unknown field {unknown[0]!r}; send 'name', 'key' and optionally 'seat' or 'spectator'.")
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
