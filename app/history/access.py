"""Who sees which plays: a phone sees the plays of tables it sat at or hosted; the host machine sees them all.

"The host machine" is the machine Night Shift runs on: a request from a loopback address, not relayed by a proxy.
Creating a table needs no credentials, so a host token is no proof of being the host machine: it shows the plays of
the tables it hosted, as a seat token shows the plays of the tables it sat at. A phone shows what its browser
remembers: the seat and host tokens in its signed cookie, matched against the token hashes each play keeps, so a
purged table's players still see their plays. docs/HISTORY.md says the same for people.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from flask import request, session
from sqlalchemy import false, select

from ..errors import Forbidden, Unauthorized
from ..extensions import db
from ..tables import auth, codes
from .models import Play, PlayKey

PROXY_HEADERS = ("X-Forwarded-For", "Forwarded", "X-Real-IP")


@dataclass(frozen=True)
class Reader:
    """Whoever reads the history: the host machine, or the token hashes a phone or script holds."""

    host: bool
    hashes: frozenset[str]
    local: bool = False
    identified: bool = False  # sent a token or holds a cookie entry: someone, even if they sat nowhere yet

    def visible(self, query):
        """`query` (of plays) narrowed to what this reader may see."""
        if self.host:
            return query
        if not self.hashes:
            return query.where(false())
        return query.where(Play.id.in_(select(PlayKey.play_id).where(PlayKey.token_hash.in_(sorted(self.hashes)))))

    def sees(self, play: Play) -> bool:
        if self.host:
            return True
        return bool(self.hashes) and db.session.scalar(
            select(PlayKey.id).where(PlayKey.play_id == play.id, PlayKey.token_hash.in_(sorted(self.hashes)))
            .limit(1)) is not None


def on_this_machine() -> bool:
    """A request from the machine Night Shift runs on, straight from a browser there (no proxy in between)."""
    if any(request.headers.get(header) for header in PROXY_HEADERS):
        return False
    try:
        return ipaddress.ip_address((request.remote_addr or "").split("%")[0]).is_loopback
    except ValueError:
        return False


def _cookie_tokens() -> list[tuple[str, str]]:
    """(role, token) of every host and seat token this browser remembers."""
    remembered = session.get(auth.SESSION_KEY)
    tokens = []
    for entry in (remembered.values() if isinstance(remembered, dict) else []):
        if isinstance(entry, dict):
            tokens += [(role, token) for role in ("host", "seat")
                       if isinstance(token := entry.get(role), str) and 0 < len(token) <= 200]
    return tokens


def reader() -> Reader:
    """The reader of this request: a bearer token when one is sent, else the browser's cookie and address."""
    token = auth.bearer_token()
    if token is not None:
        digest = codes.token_hash(token)
        return Reader(host=on_this_machine(), hashes=frozenset({digest}), identified=True)
    tokens = _cookie_tokens()
    hashes = {codes.token_hash(token) for _, token in tokens}
    local = on_this_machine()
    return Reader(host=local, hashes=frozenset(hashes), local=local, identified=bool(tokens))


def api_reader() -> Reader:
    """Like the rest of the API: a token is needed, unless the browser's cookie or the host machine speaks."""
    found = reader()
    if not (found.host or found.identified):
        raise Unauthorized("Send a host or seat token ('Authorization: Bearer TOKEN'): the history shows the plays "
                           "of the tables a token sat at, or every play to a host.")
    if auth.bearer_token() is not None and not found.host and not _issued(next(iter(found.hashes))):
        raise Unauthorized("That token was never issued here: it opens no table and no play in the history.")
    return found


def _issued(digest: str) -> bool:
    """A seat's or a host's token of a table here now, or one a play keeps (its table may be purged)."""
    from ..models import Seat, Table

    return any(db.session.scalar(select(column).where(column == digest).limit(1)) is not None
               for column in (Seat.token_hash, Table.host_token_hash, PlayKey.token_hash))


def host_only(found: Reader) -> None:
    if not found.host:
        raise Forbidden("Only the host machine can do that: open Night Shift on the machine it runs on "
                        "(http://127.0.0.1:PORT/ there).")
