"""The one write path for tables: check, then change, log, bump the version and commit, or change nothing."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from ..errors import Conflict, Forbidden, Gone, Invalid, NotFound, Unavailable
from ..extensions import db
from ..games import OptionError, UnknownGame, get_game
from ..models import Action, Seat, Table, as_utc, utcnow
from . import codes

NAME_MAX = 24
FORBIDDEN_IN_NAMES = set("<>{}[]\\`$")
T = TypeVar("T")


@dataclass(frozen=True)
class Visitor:
    """Who is asking: the host, a seated player, a spectator, or nobody yet."""

    host: bool = False
    seat: Seat | None = None

    @property
    def player(self) -> Seat | None:
        return self.seat if self.seat is not None and self.seat.role == "player" else None

    @property
    def spectator(self) -> bool:
        return self.seat is not None and self.seat.role == "spectator"

    def may_act_for(self, seat: Seat) -> bool:
        """The host acts for any seat (pass-and-play); a phone only for its own."""
        return self.host or (self.player is not None and self.player.id == seat.id)


# ---- reading -------------------------------------------------------------------------------------------------


def find_table(code: object) -> Table:
    """The table for a code as typed, or a 404/410 with a sentence; an expired table is never served."""
    normalised = codes.normalise(code, codes.CODE_LENGTH)
    if normalised is None:
        raise NotFound(f"There is no table with the code {str(code)[:12]!r}. "
                       "Codes have 5 letters and digits; check it on the host screen.")
    table = db.session.scalar(select(Table).where(Table.code == normalised))
    if table is None:
        raise NotFound(f"There is no table with the code {normalised}. Check it on the host screen.")
    if is_expired(table):
        raise Gone(f"Table {normalised} expired: nobody used it for "
                   f"{current_app.config['TABLE_TTL_DAYS']} days. The host can start a new one.")
    return table


def is_expired(table: Table) -> bool:
    return datetime.now(UTC) - as_utc(table.updated_at) > timedelta(days=current_app.config["TABLE_TTL_DAYS"])


def visitor_for_token(table: Table, token: str | None) -> Visitor | None:
    """The host or seat a token opens at this table; None if it opens nothing here (forged, freed or foreign)."""
    if not token:
        return None
    digest = codes.token_hash(token)
    if codes.same(digest, table.host_token_hash):
        return Visitor(host=True)
    seat = db.session.scalar(select(Seat).where(Seat.table_id == table.id, Seat.token_hash == digest))
    return Visitor(seat=seat) if seat is not None else None


def seat_by_number(table: Table, number: object) -> Seat:
    """A player seat by its number (1-based) or its name as the box prints it."""
    for seat in table.player_seats:
        by_number = isinstance(number, int) and not isinstance(number, bool) and number == seat.number
        by_text = isinstance(number, str) and number.strip().lower() in (str(seat.number), seat.name.lower())
        if by_number or by_text:
            return seat
    names = ", ".join(f"{seat.number} ({seat.name})" for seat in table.player_seats)
    raise NotFound(f"This table has no seat {str(number)[:20]!r}. Its seats are {names}.")


def log_entries(table: Table, limit: int = 50) -> list[Action]:
    return list(db.session.scalars(select(Action).where(Action.table_id == table.id)
                                   .order_by(Action.seq.desc()).limit(limit)))


# ---- checks --------------------------------------------------------------------------------------------------


def clean_name(raw: object) -> str:
    """A player's name as shown on every screen: 1-24 printable characters, no markup."""
    if not isinstance(raw, str):
        raise Invalid("Type your name so the table knows who sits where.")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise Invalid("Type your name so the table knows who sits where.")
    if any(char in FORBIDDEN_IN_NAMES or unicodedata.category(char).startswith("C") for char in name):
        raise Invalid("Names can use letters, numbers, spaces and simple punctuation, "
                      "but not < > { } [ ] \\ ` or $.")
    if len(name) > NAME_MAX:
        raise Invalid(f"That name is {len(name)} characters long; keep it to {NAME_MAX}.")
    return name


def check_open(table: Table) -> None:
    if table.status == "finished":
        raise Gone(f"The game at table {table.code} has ended; it takes no more players. "
                   "Ask the host to start a new table.")


def check_join_key(table: Table, key: object) -> None:
    """The code alone is easy to guess; the key in the QR link is not."""
    if not key:
        raise Forbidden("This join link is missing its key. Scan the QR code on the host screen, "
                        "or type the join key shown under it.")
    normalised = codes.normalise(key, codes.KEY_LENGTH)
    if normalised is None or not codes.same(normalised, table.join_key):
        raise Forbidden("That join key doesn't match this table. Scan the QR code on the host screen again, "
                        "or check the key shown under it.")


def check_host(visitor: Visitor | None) -> None:
    if visitor is None or not visitor.host:
        raise Forbidden("Only the host can do that. Use the device that created this table.")


def _check_unique_name(table: Table, name: str) -> None:
    taken = {seat.player_name.casefold() for seat in table.seats if seat.player_name}
    if name.casefold() in taken:
        raise Conflict(f"Someone called {name} is already at this table. Add an initial so people can tell "
                       "you apart.")


# ---- writing -------------------------------------------------------------------------------------------------


def _write(table_id: int, change: Callable[[Table], tuple[T, str, str, Seat | None, str]], attempts: int = 8) -> T:
    """Load the table, apply `change`, log it and bump the version only if nobody else did meanwhile; else retry.

    `change` returns (result, action type, log text, seat or None, actor). Any typed error it raises leaves
    the database exactly as it was.
    """
    busy = False
    for _ in range(attempts):
        db.session.rollback()
        table = db.session.get(Table, table_id, populate_existing=True)
        version = table.version
        try:
            result, kind, text, seat, actor = change(table)
            bumped = db.session.execute(
                update(Table).where(Table.id == table.id, Table.version == version)
                .values(version=version + 1, updated_at=utcnow()).execution_options(synchronize_session=False))
            if bumped.rowcount != 1:
                db.session.rollback()
                continue
            db.session.add(Action(table_id=table.id, seq=version + 1, seat_id=seat.id if seat else None,
                                  actor=actor, type=kind, text=text, undoable=False))
            db.session.commit()
        except (IntegrityError, OperationalError) as error:
            db.session.rollback()  # a concurrent writer won the row or the lock: try again on fresh state
            busy = isinstance(error, OperationalError)
            continue
        except Exception:
            db.session.rollback()
            raise
        db.session.refresh(table)
        return result
    if busy:
        raise Unavailable("Night Shift's database is busy or unreachable. Nothing was changed; try again in a moment.")
    raise Conflict("Too many people changed this table at the same moment. Try again.")


def create_table(game: object, raw_options: object, *, from_form: bool = False) -> tuple[Table, str]:
    """A new table with its seats; returns the table and the host token (shown once, stored hashed)."""
    try:
        spec = get_game(game)
        options, seat_defs = spec.configure(raw_options if raw_options is not None else {}, from_form=from_form)
    except (UnknownGame, OptionError) as error:
        raise Invalid(str(error)) from None
    host_token = codes.new_token()
    for _ in range(20):
        code = codes.new_code()
        if db.session.scalar(select(func.count()).select_from(Table).where(Table.code == code)):
            continue
        table = Table(code=code, game=spec.slug, options=options, state=None, version=1, status="open",
                      join_key=codes.new_join_key(), host_token_hash=codes.token_hash(host_token))
        table.seats = [Seat(role="player", number=number, name=seat.name, colour=seat.colour)
                       for number, seat in enumerate(seat_defs, start=1)]
        try:
            db.session.add(table)
            db.session.flush()
            db.session.add(Action(table_id=table.id, seq=1, actor="host", type="table.create", undoable=False,
                                  text=f"Table {code} opened for {spec.name}, {len(seat_defs)} seats."))
            db.session.commit()
        except IntegrityError:
            db.session.rollback()  # another table took this code between the check and the insert
            continue
        return table, host_token
    raise Conflict("Could not find a free table code. Try again.")


def join(table: Table, *, key: object, name: object, seat: object = None,
         spectator: bool = False) -> tuple[Seat, str]:
    """Take a free seat (or watch): checks the key, the name and the seat, then writes; returns the seat token."""
    check_open(table)
    check_join_key(table, key)
    clean = clean_name(name)
    token = codes.new_token()

    def change(fresh: Table):
        check_open(fresh)
        _check_unique_name(fresh, clean)
        if spectator:
            watcher = Seat(table_id=fresh.id, role="spectator", number=None, name="Spectator", colour="",
                           player_name=clean, token_hash=codes.token_hash(token), joined_at=utcnow())
            db.session.add(watcher)
            db.session.flush()
            return watcher, "seat.watch", f"{clean} is watching.", watcher, clean
        target = _free_seat(fresh, seat)
        taken = db.session.execute(
            update(Seat).where(Seat.id == target.id, Seat.player_name.is_(None))
            .values(player_name=clean, token_hash=codes.token_hash(token), joined_at=utcnow())
            .execution_options(synchronize_session=False))
        if taken.rowcount != 1:
            raise Conflict(f"{target.name} was just taken by someone else. Pick another seat.")
        return target, "seat.join", f"{clean} sat down as {target.name}.", target, clean

    taken_seat = _write(table.id, change)
    db.session.refresh(taken_seat)
    return taken_seat, token


def _free_seat(table: Table, wanted: object) -> Seat:
    """The seat asked for if it is free; the first free seat if none was asked for."""
    free = [seat for seat in table.player_seats if not seat.occupied]
    if wanted in (None, ""):
        if not free:
            raise Conflict(f"Table {table.code} is full: all {len(table.player_seats)} seats are taken. "
                           "You can still join as a spectator.")
        return free[0]
    target = seat_by_number(table, wanted)
    if target.occupied:
        raise Conflict(f"{target.name} is already taken by {target.player_name}. Pick a free seat.")
    return target


def host_seats_player(table: Table, visitor: Visitor | None, number: object, name: object) -> Seat:
    """Pass-and-play: the host puts a player in a seat without a phone, and then acts for that seat."""
    check_host(visitor)
    check_open(table)
    clean = clean_name(name)

    def change(fresh: Table):
        _check_unique_name(fresh, clean)
        target = seat_by_number(fresh, number)
        if target.occupied:
            raise Conflict(f"{target.name} is already taken by {target.player_name}. Free it first.")
        target.player_name, target.token_hash, target.joined_at = clean, None, utcnow()
        return target, "seat.host", f"The host seated {clean} as {target.name}.", target, "host"

    return _write(table.id, change)


def free_seat(table: Table, visitor: Visitor | None, number: object) -> Seat:
    """The host frees a seat: its phone's token stops working at once."""
    check_host(visitor)

    def change(fresh: Table):
        target = seat_by_number(fresh, number)
        if not target.occupied:
            raise Conflict(f"{target.name} is already free.")
        who = target.player_name
        target.player_name, target.token_hash, target.joined_at = None, None, None
        return target, "seat.free", f"The host freed {target.name} ({who}).", target, "host"

    return _write(table.id, change)


def end_table(table: Table, visitor: Visitor | None) -> Table:
    """The host ends the game: the table stays readable but takes no more players."""
    check_host(visitor)
    check_open(table)

    def change(fresh: Table):
        check_open(fresh)
        fresh.status, fresh.finished_at = "finished", utcnow()
        return fresh, "table.end", "The host ended the game.", None, "host"

    return _write(table.id, change)


def describe(table: Table, visitor: Visitor | None = None) -> dict[str, Any]:
    """The table as JSON: what any seated visitor may see; the join key only for the host."""
    spec = get_game(table.game)
    data = {
        "code": table.code,
        "game": table.game,
        "game_name": spec.name,
        "options": table.options,
        "status": table.status,
        "version": table.version,
        "seats": [{"number": seat.number, "name": seat.name, "player": seat.player_name,
                   "occupied": seat.occupied} for seat in table.player_seats],
        "spectators": len(table.spectators),
        "created_at": as_utc(table.created_at).isoformat(),
    }
    if visitor is not None and visitor.seat is not None:
        data["you"] = {"role": visitor.seat.role, "number": visitor.seat.number, "name": visitor.seat.name,
                       "player": visitor.seat.player_name}
    if visitor is not None and visitor.host:
        data["you"] = {"role": "host"}
        data["join_key"] = table.join_key
    return data
