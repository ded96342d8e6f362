"""Who is asking: host and seat tokens from the signed session cookie (browsers) or a bearer header (API)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app, request, session

from ..errors import Unauthorized
from ..models import Table
from . import codes
from .service import Visitor, visitor_for_token

SESSION_KEY = "tables"
REMEMBERED_TABLES = 20  # a signed cookie stays small: the oldest tables are forgotten first
RENEWED_KEY = "renewed"  # the day the cookie was last sent: a remembered seat lasts 60 days from the last visit


def _remembered() -> dict[str, dict[str, str]]:
    value = session.get(SESSION_KEY)
    return value if isinstance(value, dict) else {}


def remember(code: str, role: str, token: str) -> None:
    """Keep a host or seat token for this table in the browser's signed cookie."""
    tables = {key: value for key, value in _remembered().items() if key != code}
    entry = dict(_remembered().get(code, {}))
    entry[role] = token
    tables[code] = entry
    session[SESSION_KEY] = dict(list(tables.items())[-REMEMBERED_TABLES:])
    session.permanent = True
    session[RENEWED_KEY] = datetime.now(UTC).date().isoformat()


def forget(code: str, role: str) -> None:
    tables = dict(_remembered())
    entry = {key: value for key, value in tables.get(code, {}).items() if key != role}
    if entry:
        tables[code] = entry
    else:
        tables.pop(code, None)
    session[SESSION_KEY] = tables


def remembered_codes() -> list[tuple[str, str]]:
    """(code, role) of the tables this browser hosts or sits at, newest first."""
    rows = []
    for code, entry in reversed(list(_remembered().items())):
        if isinstance(entry, dict):
            rows += [(code, role) for role in ("host", "seat") if role in entry]
    return rows


def bearer_token() -> str | None:
    """The token of an `Authorization: Bearer TOKEN` header, if one was sent."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip() or len(token) > 200:
        raise Unauthorized("Send your token as 'Authorization: Bearer TOKEN'.")
    return token.strip()


def api_visitor(table: Table, *, required: bool = True) -> Visitor | None:
    """The visitor a bearer token opens; a token that opens nothing here is refused, never ignored."""
    token = bearer_token()
    if token is None:
        if required:
            raise Unauthorized(f"Table {table.code} needs the host's or a seat's token "
                               "('Authorization: Bearer TOKEN').")
        return None
    visitor = visitor_for_token(table, token)
    if visitor is None:
        raise Unauthorized(f"That token doesn't open table {table.code}: it was never issued here, "
                           "or the host freed its seat.")
    return visitor


def _renew_daily() -> None:
    """The cookie is sent again once a day, not on every refresh (SESSION_REFRESH_EACH_REQUEST is off), so a phone
    that keeps coming back keeps its seats without re-signing its cookie on every move."""
    today = datetime.now(UTC).date().isoformat()
    if session.permanent and session.get(RENEWED_KEY) != today:
        session[RENEWED_KEY] = today


def browser_visitor(table: Table) -> tuple[Visitor | None, bool]:
    """(visitor, stale) from the cookie: host rights win; `stale` means a remembered seat was freed."""
    _renew_daily()
    entry = _remembered().get(table.code, {})
    if not isinstance(entry, dict):
        return None, False
    host = visitor_for_token(table, entry.get("host"))
    if host is not None and host.host:
        return host, False
    seat_token = entry.get("seat")
    seat = visitor_for_token(table, seat_token)
    if seat is not None and seat.seat is not None:
        return seat, False
    return None, bool(seat_token)


def next_token(token: str, table: Table) -> str:
    """The token that opens the same place at the game played after this table (see service.play_again)."""
    return codes.follow_token(current_app.config["SECRET_KEY"], codes.token_hash(token), table.next_code)


def follow_next(table: Table) -> str | None:
    """After Play again: give this browser its host or seat token for the next table; the role it follows as."""
    if not table.next_code:
        return None
    entry = _remembered().get(table.code, {})
    followed = None
    for role in ("seat", "host"):
        token = entry.get(role) if isinstance(entry, dict) else None
        if token and visitor_for_token(table, token) is not None:
            remember(table.next_code, role, next_token(token, table))
            followed = role
    return followed


def request_visitor(table: Table) -> tuple[Visitor | None, bool]:
    """Whoever sent this request: a script's bearer token when one is sent, else the browser's cookie."""
    if bearer_token() is not None:
        return api_visitor(table), False
    return browser_visitor(table)
