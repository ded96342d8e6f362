"""The one write path for tables: check, then change, log, bump the version and commit, or change nothing."""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from flask import current_app
from sqlalchemy import bindparam, func, inspect, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import defer, joinedload, with_expression
from sqlalchemy.orm.attributes import PASSIVE_NO_INITIALIZE, get_history, set_committed_value
from sqlalchemy.orm.exc import StaleDataError

from ..dice import DiceError, TableDice, commitment, new_seed
from ..errors import BadRequest, Conflict, Forbidden, Gone, Invalid, NightShiftError, NotFound
from ..extensions import db
from ..games import OptionError, UnknownGame, get_game
from ..games.contract import IllegalAction, Viewer, copied
from ..games.words import plural
from ..health import BUSY, BusyRetry, Trouble
from ..models import Action, Seat, Table, as_utc, utcnow
from ..names import folded, has_forbidden, shows_nothing
from ..reading import NotAWholeNumber, quoted, whole_number, whole_or_none
from . import codes

log = logging.getLogger(__name__)

NAME_MAX = 24
LOG_TEXT_MAX = 400
ACTION_FIELDS_MAX = 20
CONNECTED_FOR = timedelta(seconds=150)  # refreshed each minute while a stream is open (routes.keep_present)
T = TypeVar("T")
LOCK_STRIPES = 64


class Changes:
    """Who hears that a table changed: `before_commit` inside the writing transaction, `after_commit` once it
    committed. This one tells nobody; create_app hands in the live broker, so this layer never imports `live`."""

    def before_commit(self, session, code: str, version: int | None = None, presence: bool = False) -> None:
        """Nobody to tell inside the transaction."""

    def after_commit(self, code: str, version: int | None = None, presence: bool = False) -> None:
        """Nobody to tell after the commit."""


class Plays:
    """What keeps the play history in step with a table, inside the write path's transaction: `record` when a move
    ends the game, `follow` after undo, redo, jump or the host ending it. This one keeps none; create_app hands in
    `app.history.record`, so this layer never imports `history`."""

    def record(self, table: Table, outcome, *, moving: bool = False) -> None:
        """No history to write."""

    def follow(self, table: Table) -> None:
        """No history to follow."""


def init_write_path(app, changes: Changes | None = None, plays: Plays | None = None) -> None:
    """Writers to one table queue on one of these locks first; across processes the version check or FOR UPDATE does.

    Made per app, not at import: gunicorn imports us before gevent patches the worker, and an unpatched lock held
    across a database wait would freeze every greenlet of the worker.
    """
    app.extensions["nightshift.table_locks"] = [threading.Lock() for _ in range(LOCK_STRIPES)]
    app.extensions["nightshift.changes"] = changes or Changes()
    app.extensions["nightshift.plays"] = plays or Plays()


def _table_lock(table_id: int) -> threading.Lock:
    return current_app.extensions["nightshift.table_locks"][table_id % LOCK_STRIPES]


def _changes() -> Changes:
    return current_app.extensions["nightshift.changes"]


def _plays() -> Plays:
    return current_app.extensions["nightshift.plays"]


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


def a_spectator() -> Visitor:
    """Someone who watches: sees what every spectator sees, and may do nothing."""
    return Visitor(seat=Seat(role="spectator", name="Spectator", player_name="Spectator"))


# ---- reading -------------------------------------------------------------------------------------------------


# Built once: a table with its seats in one query (the seats decide who is asking, and every screen lists them).
_BY_CODE = select(Table).options(joinedload(Table.seats)).where(Table.code == bindparam("code"))
_LOCKED = (select(Table).options(joinedload(Table.seats)).where(Table.id == bindparam("id"))
           .with_for_update(of=Table).execution_options(populate_existing=True))


def find_table(code: object, *, expired_ok: bool = False) -> Table:
    """The table for a code as typed, or a 404/410 with a sentence; an expired table is served only where asked
    (its host's log download, until the purge)."""
    normalised = codes.normalise(code, codes.CODE_LENGTH)
    if normalised is None:
        raise NotFound(f"There is no table with the code {quoted(code, 12)}. "
                       "Codes have 5 letters and digits; check it on the host screen.")
    table = db.session.execute(_BY_CODE, {"code": normalised}).unique().scalar_one_or_none()
    if table is None:
        raise NotFound(f"There is no table with the code {normalised}. Check it on the host screen.")
    if is_expired(table) and not expired_ok:
        raise expired(table)
    return table


def expired(table: Table) -> Gone:
    """The 410 of an expired table: until the purge, its host can still download the log."""
    from .purge import download_until

    until = download_until(as_utc(table.updated_at))
    return Gone(f"Table {table.code} expired: nobody used it for {current_app.config['TABLE_TTL_DAYS']} days. "
                f"Until {until:%d %B %Y} its host can still download its log (/api/tables/{table.code}/log); "
                "then it is deleted. The host can start a new table.")


def is_expired(table: Table) -> bool:
    return datetime.now(UTC) - as_utc(table.updated_at) > timedelta(days=current_app.config["TABLE_TTL_DAYS"])


def visitor_for_token(table: Table, token: str | None) -> Visitor | None:
    """The host or seat a token opens at this table; None if it opens nothing here (forged, freed or foreign)."""
    if not token:
        return None
    digest = codes.token_hash(token)
    if codes.same(digest, table.host_token_hash):
        return Visitor(host=True)
    seat = next((seat for seat in table.seats if seat.token_hash and codes.same(digest, seat.token_hash)), None)
    return Visitor(seat=seat) if seat is not None else None


def seat_by_number(table: Table, number: object) -> Seat:
    """A player seat by its number (1-based) or its name as the box prints it."""
    for seat in table.player_seats:
        by_number = isinstance(number, int) and not isinstance(number, bool) and number == seat.number
        by_text = isinstance(number, str) and number.strip().lower() in (str(seat.number), seat.name.lower())
        if by_number or by_text:
            return seat
    names = ", ".join(f"{seat.number} ({seat.name})" for seat in table.player_seats)
    raise NotFound(f"This table has no seat {quoted(number, 20)}. Its seats are {names}.")


# ---- checks --------------------------------------------------------------------------------------------------


def clean_name(raw: object) -> str:
    """A player's name as shown on every screen: 1-24 printable characters, no markup."""
    if not isinstance(raw, str):
        raise Invalid("Type your name so the table knows who sits where.")
    name = folded(raw)
    if shows_nothing(name):
        raise Invalid("Type your name so the table knows who sits where.")
    if has_forbidden(name):
        raise Invalid("Names can use letters, numbers, spaces and simple punctuation, "
                      "but not < > { } [ ] \\ ` or $.")
    if len(name) > NAME_MAX:
        raise Invalid(f"That name is {len(name)} characters long; keep it to {NAME_MAX}.")
    return name


def check_open(table: Table) -> None:
    """A finished table is read-only: its pages, log and dice check stay, and every write is a 410."""
    if table.status == "finished":
        raise Gone(f"The game at table {table.code} has ended; it takes no more players, moves or seat changes. "
                   "Its log and dice check stay here; the host can start a new table.")


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


@dataclass
class Entry:
    """What a change writes to the log: who did what, in the game's words, and for game moves the states around it."""

    type: str
    text: str
    actor: str
    seat: Seat | None = None
    payload: dict = field(default_factory=dict)
    result: dict = field(default_factory=dict)
    state_before: dict | None = None
    state_after: dict | None = None
    dice: list | None = None
    undoable: bool = False
    written: Action | None = None  # the log row, once the write path has added it (or found, for a repeat)


@dataclass(frozen=True)
class Tap:
    """A sender's key for one tap (Idempotency-Key) and what it asked for: a repeat must ask for the same."""

    key: str
    type: str
    payload: Mapping[str, Any] = field(default_factory=dict)
    whole: bool = False  # the payload is the whole move as sent (a game move): a repeat sends exactly the same

    def matches(self, prior: Action) -> bool:
        stored = prior.payload if isinstance(prior.payload, dict) else {}
        if self.whole:
            return prior.type == self.type and stored == dict(self.payload)
        return prior.type == self.type and all(stored.get(name) == value for name, value in self.payload.items())


def _repeat_of(table_id: int, tap: Tap) -> Entry | None:
    """The log entry a key already wrote at this table, detached with everything loaded; None for a new key."""
    prior = db.session.scalar(select(Action).where(Action.table_id == table_id, Action.idempotency_key == tap.key))
    if prior is None:
        return None
    if not tap.matches(prior):
        raise Invalid("That Idempotency-Key was already used for a different move at this table; "
                      "send a new key for a new move.")
    db.session.expunge(prior)
    prior.replayed = True
    return Entry(prior.type, prior.text, prior.actor, written=prior)


def stale(table: Table) -> Conflict:
    return Conflict(f"The table changed while you were deciding (it is now at version {table.version}); "
                    "nothing was done. Look again and retry.", version=table.version)


def _write(loaded: Table, change: Callable[[Table], tuple[T, Entry]], *, expected_version: int | None = None,
           tap: Tap | None = None, attempts: int = 12) -> T:
    """The one write path: lock the table, check and change, log, bump the version, commit, then tell every screen.

    Writers to one table queue on a lock in this process and on `SELECT ... FOR UPDATE` in PostgreSQL; the
    version in the table's one UPDATE (`WHERE version = ...`) and the log's unique (table, seq) catch anyone else
    (another SQLite process), and the write is retried on fresh state. Any typed error `change` raises leaves the
    database exactly as it was. A `tap` whose key is already in the log changes nothing and returns that entry (its
    `written.replayed` is True): a resent tap counts once, even across restarts. The log's unique (table, key) finds
    a repeat, so a new tap costs no lookup; only a refused or colliding write looks for the earlier one.
    The first attempt is optimistic: it changes the table as the caller `loaded` it (with its seats), and the checked
    UPDATE proves nobody wrote in between; a refusal, a lost race or a busy database tries again on a locked, fresh
    read, so nothing is ever refused on a stale picture. A move is three statements (tests/tables/test_statements.py):
    the caller's read of the table and its seats, the table's one UPDATE and the log's INSERT; nothing is read back
    after the commit.
    """
    hub = _changes()
    table_id = loaded.id
    waiting = BusyRetry()  # a locked database is waited out for DB_BUSY_SECONDS from here, the queue included
    lock = _table_lock(table_id)
    if not lock.acquire(timeout=waiting.left()):
        raise Trouble(BUSY, "this table's earlier writes are still waiting").refusal()
    try:
        tries = 0  # attempts lost to another writer or refused; a busy database's are counted by `waiting`
        first = True
        while tries < attempts:
            optimistic = first and loaded in db.session and not inspect(loaded).expired_attributes
            first = False
            if not optimistic:
                db.session.rollback()
            if tries > 1:
                time.sleep(random.uniform(0, 0.01 * tries))  # another process won: let it finish
            try:
                table = loaded if optimistic else (
                    db.session.execute(_LOCKED, {"id": table_id}).unique().scalar_one_or_none())
                if table is None:
                    raise NotFound("This table was deleted a moment ago; nothing was done.")
                version = table.version
                try:
                    if expected_version is not None and expected_version != version:
                        raise stale(table)
                    result, entry = change(table)
                except NightShiftError:
                    if optimistic:
                        tries += 1
                        continue  # decide a refusal on the locked, fresh table
                    repeat = _repeat_after_refusal(table_id, tap)
                    if repeat is not None:
                        return repeat  # type: ignore[return-value] - keyed writes return their Entry
                    raise
                table.version, table.updated_at = version + 1, utcnow()
                _update_checked(table, version)
                entry.written = Action(
                    table_id=table.id, seq=version + 1, seat_id=entry.seat.id if entry.seat else None,
                    actor=entry.actor[:80], type=entry.type[:48], text=entry.text[:LOG_TEXT_MAX],
                    payload=entry.payload, result=entry.result, state_before=entry.state_before,
                    state_after=entry.state_after, dice=entry.dice, undoable=entry.undoable,
                    idempotency_key=tap.key if tap is not None else None, undone=False, created_at=utcnow())
                # One INSERT, not the ORM's unit of work: the entry is written once and never changed in this
                # request, so it stays a plain object.
                db.session.execute(_LOG_INSERT, _row(entry.written))
                hub.before_commit(db.session, table.code, version + 1)
                _commit_keeping(table, entry.written)
            except StaleDataError:
                tries += 1
                continue  # another process bumped the version between our read and our write: retry on fresh state
            except IntegrityError:
                repeat = _repeat_after_refusal(table_id, tap)  # the tap's key was in the log already, or a
                if repeat is not None:  # concurrent writer took this seq: then try again on fresh state
                    return repeat  # type: ignore[return-value]
                tries += 1
                continue
            except DBAPIError as error:
                db.session.rollback()  # locked: wait a moment while the worker serves others; full or read-only: 503
                waiting.again(error)
                continue
            except Exception:
                db.session.rollback()
                raise
            committed = table.code, version + 1
            break
        else:
            raise Conflict("Too many people changed this table at the same moment. Try again.")
    finally:
        lock.release()
    hub.after_commit(*committed)  # out of the lock: the screens' drawing need not wait for it
    return result


_TABLE_COLUMNS = [column.key for column in inspect(Table).column_attrs if column.key != "id"]
_TABLE_RELATIONSHIPS = [relation.key for relation in inspect(Table).relationships]


def _update_checked(table: Table, version: int) -> None:
    """The table's one UPDATE, `WHERE version = <the one read>`, as a plain statement: the ORM's unit of work cost a
    sixth of a move. Raises StaleDataError, as the ORM's version check did, when another writer got there first."""
    state = inspect(table)
    changed = {key: getattr(table, key) for key in _TABLE_COLUMNS if _changed(table, key)}
    for key, value in changed.items():
        set_committed_value(table, key, value)  # written here: the session has nothing left to flush for it
    if not any(_changed(table, key) for key in _TABLE_RELATIONSHIPS):
        state._commit_all(state.dict, state.session.identity_map)  # nor to look at (its seats are unchanged)
    done = db.session.connection().execute(_TABLE_UPDATE.values(changed), {"table_id": table.id,
                                                                          "read_version": version})
    if done.rowcount != 1:
        raise StaleDataError(f"table {table.code} moved past version {version}")


def _changed(table: Table, key: str) -> bool:
    """Whether this write changed the attribute: `inspect(table).attrs` would answer too, but it builds a view of every
    attribute that points back at the table's state, a cycle left for the garbage collector on every move."""
    return get_history(table, key, PASSIVE_NO_INITIALIZE).has_changes()


_TABLE_UPDATE = Table.__table__.update().where(Table.__table__.c.id == bindparam("table_id"),
                                               Table.__table__.c.version == bindparam("read_version"))
_LOG_INSERT = Action.__table__.insert()
_LOG_COLUMNS = [column.key for column in Action.__table__.columns if column.key != "id"]


def _row(written: Action) -> dict[str, Any]:
    return {key: getattr(written, key) for key in _LOG_COLUMNS}


def _repeat_after_refusal(table_id: int, tap: Tap | None) -> Entry | None:
    """After a refused or colliding write: the entry this tap's key already wrote, if any (the write is undone)."""
    db.session.rollback()
    return _repeat_of(table_id, tap) if tap is not None else None


def _commit_keeping(table: Table, written: Action) -> None:
    """Commit without reading back what was just written: the table, its seats and the new log entry stay as they are
    in memory (the database now holds exactly that); anything else the change touched is read again if used."""
    session = db.session()
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True
    kept = {id(table), id(written)} | {id(seat) for seat in table.seats}
    for instance in list(session.identity_map.values()):
        if id(instance) not in kept:
            session.expire(instance)


def create_table(game: object, raw_options: object, *, from_form: bool = False) -> tuple[Table, str]:
    """A new table with its seats; returns the table and the host token (shown once, stored hashed)."""
    try:
        spec = get_game(game)
        options, seat_defs = spec.configure(raw_options if raw_options is not None else {}, from_form=from_form)
    except (UnknownGame, OptionError) as error:
        raise Invalid(str(error)) from None
    host_token = codes.new_token()
    waiting = BusyRetry()
    taken = 0
    while taken < 20:
        try:
            table = _open_table(spec, options, [(seat.name, seat.colour) for seat in seat_defs],
                                lambda code: codes.token_hash(host_token))
            db.session.commit()
        except IntegrityError:
            db.session.rollback()  # another table took this code between the check and the insert
            taken += 1
            continue
        except DBAPIError as error:
            db.session.rollback()
            waiting.again(error)  # locked: a moment's wait while the worker serves others; can't save: a 503
            continue
        return table, host_token
    raise Conflict("Could not find a free table code. Try again.")


def _open_table(spec, options: dict[str, Any], seats: list[tuple[str, str]], host_hash: Callable[[str], str],
                opened: str = "") -> Table:
    """A new table with its seats and its first log line, added to the session for the caller to commit."""
    for _ in range(20):
        code = codes.new_code()
        if not db.session.scalar(select(func.count()).select_from(Table).where(Table.code == code)):
            break
    else:
        raise Conflict("Could not find a free table code. Try again.")
    table = Table(code=code, game=spec.slug, options=options, version=1, status="open",
                  join_key=codes.new_join_key(), host_token_hash=host_hash(code), dice_seed=new_seed(), dice_counter=0,
                  state=_new_state(spec, options, len(seats)))
    table.seats = [Seat(role="player", number=number, name=name, colour=colour)
                   for number, (name, colour) in enumerate(seats, start=1)]
    db.session.add(table)
    db.session.flush()
    opened = opened or "Table {code} opened for {game}, {seats}."
    db.session.add(Action(table_id=table.id, seq=1, actor="Host", type="table.create", undoable=False,
                          text=opened.format(code=code, game=spec.name, seats=plural(len(seats), "seat"))))
    return table


def play_again(table: Table, visitor: Visitor | None) -> Table:
    """The next game of the same box: same options, the same people in the same seats, their phones following.

    The finished table stays readable (its log, its dice check) and points to the next one. Each seat's token at the
    next table is made from its token here (codes.follow_token), so phones move over without rescanning.
    """
    check_host(visitor)
    spec = get_game(table.game)
    secret = current_app.config["SECRET_KEY"]

    def follow(token_hash: str | None, code: str) -> str | None:
        return codes.token_hash(codes.follow_token(secret, token_hash, code)) if token_hash else None

    def change(fresh: Table):
        if fresh.next_code:
            raise Conflict(f"The next game has already started at table {fresh.next_code}.")
        if fresh.status != "finished" and spec.rules.outcome(game_state(fresh)) is None:
            raise Conflict("This game is still going: play it to the end or end it, then play again.")
        seats = fresh.player_seats
        upcoming = _open_table(spec, dict(fresh.options), [(seat.name, seat.colour) for seat in seats],
                               lambda code: follow(fresh.host_token_hash, code),
                               f"Table {{code}} opened for the next game of {{game}} after table {fresh.code}, "
                               "with the same seats.")
        moving = {seat.number: seat for seat in upcoming.player_seats}
        for seat in seats:
            if seat.occupied:
                mine = moving[seat.number]
                mine.player_name, mine.joined_at = seat.player_name, utcnow()
                mine.token_hash = follow(seat.token_hash, upcoming.code)
        for watcher in fresh.spectators:
            db.session.add(Seat(table_id=upcoming.id, role="spectator", number=None, name="Spectator", colour="",
                                player_name=watcher.player_name, joined_at=utcnow(),
                                token_hash=follow(watcher.token_hash, upcoming.code)))
        fresh.next_code = upcoming.code
        if fresh.status != "finished":
            fresh.status, fresh.finished_at = "finished", utcnow()
        return upcoming, Entry("table.again", f"The host started the next game at table {upcoming.code}: same game, "
                                              "same seats. This table stays here to look back on.", "Host",
                               payload={"code": upcoming.code})

    return _write(table, change)


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
            watcher = Seat(role="spectator", number=None, name="Spectator", colour="",
                           player_name=clean, token_hash=codes.token_hash(token), joined_at=utcnow())
            fresh.seats.append(watcher)  # in the table's seats, which stay in memory after the commit
            db.session.flush()
            return watcher, Entry("seat.watch", f"{clean} is watching.", clean, watcher)
        target = _free_seat(fresh, seat)
        taken = db.session.execute(
            update(Seat).where(Seat.id == target.id, Seat.player_name.is_(None))
            .values(player_name=clean, token_hash=codes.token_hash(token), joined_at=utcnow())
            .execution_options(synchronize_session=False))
        if taken.rowcount != 1:
            raise Conflict(f"{target.name} was just taken by someone else. Pick another seat.")
        return target, Entry("seat.join", f"{clean} sat down as {target.name}.", clean, target)

    taken_seat = _write(table, change)
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
        check_open(fresh)
        _check_unique_name(fresh, clean)
        target = seat_by_number(fresh, number)
        if target.occupied:
            raise Conflict(f"{target.name} is already taken by {target.player_name}. Free it first.")
        target.player_name, target.token_hash, target.joined_at = clean, None, utcnow()
        return target, Entry("seat.host", f"The host seated {clean} as {target.name}.", "Host", target)

    return _write(table, change)


def free_seat(table: Table, visitor: Visitor | None, number: object) -> Seat:
    """The host frees a seat: its phone's token stops working at once, and the seat no longer shows as connected."""
    check_host(visitor)
    check_open(table)

    def change(fresh: Table):
        check_open(fresh)
        target = seat_by_number(fresh, number)
        if not target.occupied:
            raise Conflict(f"{target.name} is already free.")
        who = target.player_name
        target.player_name, target.token_hash, target.joined_at, target.last_seen_at = None, None, None, None
        return target, Entry("seat.free", f"The host freed {target.name} ({who}).", "Host", target)

    return _write(table, change)  # its phone's stream, drawing this change, finds the seat freed and says so


def change_join_key(table: Table, visitor: Visitor | None) -> Table:
    """The host's "Change the join code": a new key, so the old QR code and key stop working at once. Players keep
    their seats (their tokens are their own); spectators, let in by the old key alone, must scan the new one."""
    check_host(visitor)
    check_open(table)

    def change(fresh: Table):
        check_open(fresh)
        fresh.join_key = codes.new_join_key()
        watchers = fresh.spectators
        for watcher in watchers:
            watcher.token_hash = None
        gone = f" {plural(len(watchers), 'spectator')} must scan the new one to watch again." if watchers else ""
        return watchers, Entry("table.join-key", "The host changed the join code: the old QR code and key no longer "
                                                 f"work.{gone}", "Host")

    _write(table, change)  # their screens, drawing this change, find their tokens gone and stop following the table
    return table


def end_table(table: Table, visitor: Visitor | None) -> Table:
    """The host ends the game: the table stays readable but takes no more players."""
    check_host(visitor)
    check_open(table)

    def change(fresh: Table):
        check_open(fresh)
        fresh.status, fresh.finished_at = "finished", utcnow()
        _plays().follow(fresh)  # a game ended before its outcome leaves a play marked ended early
        return fresh, Entry("table.end", "The host ended the game. The dice seed is revealed: anyone at the table "
                                         "can now check every roll.", "Host")

    return _write(table, change)


# ---- game moves: the rules decide, the log remembers, undo restores ------------------------------------------


def _new_state(spec, options: Mapping[str, Any], players: int) -> dict:
    """The game's opening state from its pure rules."""
    profile = {key: entry.value for key, entry in spec.profile.items()}
    return spec.rules.new_state(list(range(1, players + 1)), dict(options), profile)


def game_state(table: Table) -> dict:
    """The stored state; a table stored before its game had rules (state NULL) starts from the opening state."""
    if table.state is None:
        return _new_state(get_game(table.game), table.options, len(table.player_seats))
    return table.state


def viewer_of(visitor: Visitor, seat: Seat | None = None) -> Viewer:
    """The rules' viewer: the seat a screen shows (a phone's own, or one the host plays), else host or spectator."""
    if seat is None and not visitor.host:
        seat = visitor.player
    if seat is not None:
        return Viewer.of_seat(seat.number)
    return Viewer.host() if visitor.host else Viewer.spectator()


def actor_label(seat: Seat | None) -> str:
    """How the log names whoever acted: 'Anna (Player 2)', or 'Host'."""
    if seat is None:
        return "Host"
    return f"{seat.player_name} ({seat.name})" if seat.player_name else seat.name


def parse_version(raw: object) -> int | None:
    """A client's idea of the table's version (If-Match header or a `version` field), if it sent one."""
    if raw is None or raw == "":
        return None
    if isinstance(raw, str):
        raw = raw.strip().removeprefix("W/").strip('"')
    try:
        return whole_number(raw)
    except NotAWholeNumber:
        raise BadRequest("The version must be a whole number: the table version your screen shows.") from None


def _acting_seat(table: Table, visitor: Visitor | None, wanted: object) -> Seat | None:
    """The seat a move is made for: a phone's own seat, or any seat (or none: the host as host) for the host."""
    if visitor is None:
        raise Forbidden(f"Join table {table.code} to play: scan the QR code on the host screen.")
    if visitor.spectator:
        raise Forbidden("Spectators watch the table; they can't change it.")
    if visitor.host:
        if wanted in (None, ""):
            return None
        seat = seat_by_number(table, wanted)
        if not seat.occupied:
            raise Conflict(f"Nobody sits at {seat.name} yet. Seat a player there first.")
        return seat
    own = visitor.player
    if wanted not in (None, "") and seat_by_number(table, wanted).id != own.id:
        raise Forbidden(f"You sit at {own.name}; only the host can play for another seat.")
    return own


def _clean_action(action: object) -> dict[str, Any]:
    if not isinstance(action, Mapping):
        raise BadRequest("An action is a JSON object with a 'type', e.g. {\"type\": \"next-round\"}.")
    if not isinstance(action.get("type"), str) or not 0 < len(action["type"]) <= 40:
        raise BadRequest("Say what to do: an action needs a 'type', e.g. {\"type\": \"next-round\"}.")
    if len(action) > ACTION_FIELDS_MAX:
        raise BadRequest(f"An action has at most {ACTION_FIELDS_MAX} fields.")
    return dict(action)


def apply_action(table: Table, visitor: Visitor | None, action: object, *, version: int | None = None,
                 key: str | None = None) -> Action:
    """A move by a seat (or the host): authorise, let the pure rules decide, log it with its dice, commit, publish.

    With a `key`, a repeat of the same move returns the entry the first one wrote and applies nothing.
    """
    action = _clean_action(action)
    seat = _acting_seat(table, visitor, action.pop("seat", None))
    rules = get_game(table.game).rules
    seat_id = seat.id if seat is not None else None
    action["seat"] = seat.number if seat is not None else None

    def change(fresh: Table):
        check_open(fresh)
        acting = next((candidate for candidate in fresh.seats if candidate.id == seat_id), None)
        if seat_id is not None and (acting is None or not acting.occupied):
            raise Conflict("Your seat was freed by the host a moment ago; nothing was done.")
        state = game_state(fresh)
        over = rules.outcome(state)
        if over is not None:
            raise Conflict(f"The game is over: {over.text} The host can undo the last move or end the table.")
        who = actor_label(acting)
        dice = TableDice(fresh.dice_seed, fresh.dice_counter, who)
        try:
            after, events = rules.apply(copied(state), copied(action), dice)
        except (IllegalAction, DiceError) as error:
            raise Invalid(str(error)) from None
        ended = rules.outcome(after)
        lines = [event.text for event in events] + ([ended.text] if ended is not None else [])
        fresh.state, fresh.dice_counter = after, dice.counter
        if ended is not None:
            _plays().record(fresh, ended, moving=True)  # the play commits with the move that ends the game
        entry = Entry(action["type"], f"{who}: {' '.join(lines)}" if lines else who, who, acting,
                      payload=action, result={"events": [event.as_dict() for event in events],
                                              "outcome": ended.as_dict() if ended is not None else None},
                      state_before=state, state_after=after, dice=dice.records,
                      undoable=all(event.undoable for event in events))
        return entry, entry

    tap = Tap(key, action["type"], action, whole=True) if key else None
    return _write(table, change, expected_version=version, tap=tap).written


def _entries():
    """Log rows without the states, which only undo, redo and jump read (for one row each)."""
    return select(Action).options(defer(Action.state_before), defer(Action.state_after), defer(Action.payload),
                                  defer(Action.result),
                                  with_expression(Action.is_move, Action.state_before.is_not(None)))


def _moves_of(table: Table):
    return _entries().where(Action.table_id == table.id, Action.state_before.is_not(None))


# Built once, not on every screen's drawing: the log page, the moves undo and redo would take, the board's QR word.
NO_SEQ_ABOVE = 2**31 - 1
_LOG_PAGE = (_entries().where(Action.table_id == bindparam("table_id"), Action.seq < bindparam("before"))
             .order_by(Action.seq.desc()).limit(bindparam("limit")))
_MOVES = _entries().where(Action.table_id == bindparam("table_id"), Action.state_before.is_not(None))
_UNDO_TARGET = _MOVES.where(Action.undone.is_(False)).order_by(Action.seq.desc()).limit(1)
_REDO_TARGET = _MOVES.where(Action.undone.is_(True), Action.seq > bindparam("after")).order_by(Action.seq).limit(1)
_JOIN_QR_WORD = (select(Action.payload).where(Action.table_id == bindparam("table_id"), Action.type == "board.qr")
                 .order_by(Action.seq.desc()).limit(1))
UNREAD = object()  # "the caller hasn't read the undo target yet", as opposed to "there is none" (None)


@dataclass(frozen=True)
class Newest:
    """The newest log entries a screen already read (newest first), and whether they are the whole log: undo's and
    redo's targets are almost always among them, so a drawing needs no query of its own for them."""

    entries: list
    whole: bool


def undo_target(table: Table, seen: Newest | None = None) -> Action | None:
    """The newest move still in effect."""
    if seen is not None:
        found = next((entry for entry in seen.entries if entry.is_move and not entry.undone), None)
        if found is not None or seen.whole:
            return found
    return db.session.scalar(_UNDO_TARGET, {"table_id": table.id})


def _redo_target(table: Table, base: Action | None, seen: Newest | None = None) -> Action | None:
    """The earliest undone move after the newest live one; a new move after an undo ends the redo chain."""
    after = base.seq if base is not None else 0
    if seen is not None and (seen.whole or any(entry.seq <= after for entry in seen.entries)):
        # Every entry after `after` is among those read: the oldest undone move of them, if any.
        return next((entry for entry in reversed(seen.entries)
                     if entry.seq > after and entry.is_move and entry.undone), None)
    return db.session.scalar(_REDO_TARGET, {"table_id": table.id, "after": after})


def history_controls(table: Table, base: Action | None | object = UNREAD,
                     seen: Newest | None = None) -> tuple[Action | None, Action | None]:
    """(what undo would take back, what redo would bring back), for the host's buttons; `base` if already read."""
    base = undo_target(table, seen) if base is UNREAD else base
    return base, _redo_target(table, base, seen)


def _refuse_hidden(move: Action) -> None:
    if not move.undoable:
        raise Conflict(f"“{move.text}” can't be undone: it showed the table something that can't be unseen.")


def _check_own_slip(target: Action, player: Seat) -> None:
    """A player takes back only their own move, and only while it is the newest move in effect."""
    if target.seat_id != player.id:
        raise Forbidden(f"The latest move is #{target.seq} ({target.actor}); only whoever made it, or the host, can "
                        "take it back.")


def undo(table: Table, visitor: Visitor | None, *, version: int | None = None,
         key: str | None = None) -> Action:
    """Take back the newest move: the host any move; a player their own slip, while nothing later is in effect.

    The table returns to the exact state before it, and the log says who undid what.
    """
    if visitor is None or (not visitor.host and visitor.player is None):
        check_host(visitor)
    player = None if visitor.host else visitor.player
    who = "Host" if player is None else actor_label(player)

    def change(fresh: Table):
        check_open(fresh)
        target = undo_target(fresh)
        if target is None:
            raise Conflict("There is nothing to undo yet.")
        if player is not None:
            _check_own_slip(target, player)
        _refuse_hidden(target)
        fresh.state, target.undone = target.state_before, True
        _plays().follow(fresh)
        whose = "" if player is None else "their move "
        entry = Entry("undo", f"{who} undid {whose}#{target.seq}: {target.text}", who, player,
                      payload={"seq": target.seq})
        return entry, entry

    return _write(table, change, expected_version=version, tap=Tap(key, "undo") if key else None).written


def redo(table: Table, visitor: Visitor | None, *, version: int | None = None, key: str | None = None) -> Action:
    """The host brings back the move undone last, exactly as it was (same dice), not a new roll."""
    check_host(visitor)

    def change(fresh: Table):
        check_open(fresh)
        target = _redo_target(fresh, undo_target(fresh))
        if target is None:
            raise Conflict("There is nothing to redo: redo brings back undone moves until a new move is made.")
        fresh.state, target.undone = target.state_after, False
        _plays().follow(fresh)
        entry = Entry("redo", f"Host redid #{target.seq}: {target.text}", "Host", payload={"seq": target.seq})
        return entry, entry

    return _write(table, change, expected_version=version, tap=Tap(key, "redo") if key else None).written


def jump_back(table: Table, visitor: Visitor | None, seq: object, *, version: int | None = None,
              key: str | None = None) -> Action:
    """The host returns the table to just after log entry `seq`, undoing every later move in one step."""
    check_host(visitor)
    seq = whole_or_none(seq, minimum=1)
    if seq is None:
        raise BadRequest("Say which log entry to go back to, by its number.")

    def change(fresh: Table):
        check_open(fresh)
        if seq > fresh.version:
            raise NotFound(f"The log has no entry #{seq}; the newest is #{fresh.version}.")
        undone = _go_back(fresh, seq)
        entry = Entry("jump", f"Host went back to #{seq}, undoing {plural(len(undone), 'move')}.", "Host",
                      payload={"seq": seq, "undone": undone})
        return entry, entry

    tap = Tap(key, "jump", {"seq": seq}) if key else None
    return _write(table, change, expected_version=version, tap=tap).written


# ---- asking the host to undo: a slip that others have moved past since ---------------------------------------------

ON_SCREEN = 12  # log entries a screen shows: a player undoes, or asks about, their move while it is among them
ASKED, KEPT, GRANTED = "undo.ask", "undo.keep", "undo.grant"


@dataclass(frozen=True)
class Slip:
    """A seat's latest move in effect on screen, and what its phone may do about it: `undo` it (nothing later is in
    effect), `ask` the host (others moved since), or wait: `asked` (the host hasn't answered)."""

    move: Action
    can: str
    asked: Action | None = None


def slips_on_screen(entries: list[Action]) -> dict[int, Slip]:
    """Each seat's slip among the log entries a screen shows (newest first), by seat id: no query of its own.

    A move that revealed something can't be undone, nor can the host go back past one; each move is asked about once,
    and once the host kept it, it stays.
    """
    found: dict[int, Slip] = {}
    later_moves: list[Action] = []
    asks: dict[int, Action] = {}  # each seat's newest ask on screen, until its move is found below it
    for entry in entries:
        seat = entry.seat_id
        if entry.type == ASKED and seat is not None and seat not in found:
            asks.setdefault(seat, entry)
        if not entry.is_move or entry.undone:
            continue
        if seat is not None and seat not in found:
            ask = asks.get(seat)
            can = ""
            if entry.undoable and all(move.undoable for move in later_moves):
                can = ("undo" if not later_moves else "ask" if ask is None
                       else "" if answered_after(entries, ask) else "asked")
            found[seat] = Slip(entry, can, ask)
        later_moves.append(entry)
    return {seat: slip for seat, slip in found.items() if slip.can}


def answered_after(entries: list[Action], ask: Action) -> bool:
    """Whether the host kept the move or went back for it after this ask."""
    return any(entry.seq > ask.seq and entry.type in (KEPT, GRANTED) and entry.seat_id == ask.seat_id
               for entry in entries)


def ask_undo(table: Table, visitor: Visitor | None, *, version: int | None = None, key: str | None = None) -> Action:
    """A player asks the host to undo their latest move, which others have moved past: logged, once per move, and
    only for a move still on screen that the host can go back to."""
    check_open(table)
    player = visitor.player if visitor is not None else None
    if player is None:
        raise Forbidden("Only a seated player can ask the host to undo their own move.")
    who = actor_label(player)

    def change(fresh: Table):
        check_open(fresh)
        slip = slips_on_screen(log_page(fresh, limit=ON_SCREEN)).get(player.id)
        if slip is None:
            raise Conflict("You have no move on screen that the host can take back.")
        if slip.can == "undo":
            raise Conflict(f"#{slip.move.seq} is still the latest move: take it back yourself with Undo my last move.")
        if slip.can == "asked":
            raise Conflict(f"You asked the host to undo #{slip.move.seq} already; they will answer on the host screen.")
        entry = Entry(ASKED, f"{who} asks the host to undo #{slip.move.seq}: {slip.move.text}", who, player,
                      payload={"seq": slip.move.seq})
        return entry, entry

    return _write(table, change, expected_version=version, tap=Tap(key, ASKED) if key else None).written


def answer_undo(table: Table, visitor: Visitor | None, asked: object, grant: bool, *, version: int | None = None,
                key: str | None = None) -> Action:
    """The host answers a player's ask in one tap: go back to just before their move (every later move undone, the
    log keeping the ask and the answer), or keep it."""
    check_host(visitor)
    seq = whole_or_none(asked, minimum=1)
    if seq is None:
        raise BadRequest("Say which request to answer, by its log number.")

    def change(fresh: Table):
        check_open(fresh)
        ask = db.session.scalar(select(Action).where(Action.table_id == fresh.id, Action.seq == seq))
        if ask is None or ask.type != ASKED:
            raise Conflict(f"Log entry #{seq} is no player's request to undo; the host screen shows each one.")
        target = db.session.scalar(_moves_of(fresh).where(Action.seat_id == ask.seat_id, Action.seq < ask.seq)
                                   .order_by(Action.seq.desc()).limit(1))
        answers = select(Action.seq).where(Action.table_id == fresh.id, Action.seq > ask.seq,
                                           Action.seat_id == ask.seat_id, Action.type.in_((KEPT, GRANTED)))
        if target is None or target.undone or db.session.scalar(answers.limit(1)) is not None:
            raise Conflict(f"{ask.actor}'s request #{seq} is answered already.")
        who, seat = ask.actor, next((seat for seat in fresh.seats if seat.id == ask.seat_id), None)
        if not grant:
            entry = Entry(KEPT, f"Host kept #{target.seq}, as it was, though {who} asked to undo it.", "Host",
                          seat, payload={"seq": target.seq, "asked": seq})
            return entry, entry
        undone = _go_back(fresh, target.seq - 1)
        entry = Entry(GRANTED, f"Host went back to before #{target.seq}, as {who} asked, undoing "
                               f"{plural(len(undone), 'move')}.", "Host", seat,
                      payload={"seq": target.seq - 1, "asked": seq, "undone": undone})
        return entry, entry

    return _write(table, change, expected_version=version, tap=Tap(key, "undo.answer", {"asked": seq}) if key else None
                  ).written


def history_step(table: Table, visitor: Visitor | None, step: str, seq: object = None, *,
                 version: int | None = None, key: str | None = None) -> Action:
    """Undo, redo, back to entry `seq`, a player's ask to undo and the host's answer, by the name the page and the
    API both use."""
    if step == "jump":
        return jump_back(table, visitor, seq, version=version, key=key)
    if step == "undo-ask":
        return ask_undo(table, visitor, version=version, key=key)
    if step in ("undo-grant", "undo-keep"):
        return answer_undo(table, visitor, seq, step == "undo-grant", version=version, key=key)
    return (undo if step == "undo" else redo)(table, visitor, version=version, key=key)


def _go_back(fresh: Table, seq: int) -> list[int]:
    """Return the table to just after log entry `seq`, marking every later move undone; the moves it undid."""
    later = list(db.session.scalars(_moves_of(fresh).where(Action.seq > seq, Action.undone.is_(False))
                                    .order_by(Action.seq)))
    if not later:
        raise Conflict(f"The table is already as it was after #{seq}; there is nothing to undo.")
    for move in later:
        _refuse_hidden(move)
    fresh.state = later[0].state_before
    for move in later:
        move.undone = True
    _plays().follow(fresh)
    return [move.seq for move in later]


def show_join_qr(table: Table, visitor: Visitor | None, show: bool) -> Action:
    """The host brings the join QR code back to the board (a late player, a spectator), or sends it away again."""
    check_host(visitor)
    check_open(table)
    text = ("The host put the join QR code on the board." if show
            else "The host took the join QR code off the board.")

    def change(fresh: Table):
        check_open(fresh)
        entry = Entry("board.qr", text, "Host", payload={"show": show})
        return entry, entry

    return _write(table, change).written


def join_qr_requested(table: Table) -> bool:
    """Whether the host's latest word on the board's QR code was to show it."""
    payload = db.session.scalar(_JOIN_QR_WORD, {"table_id": table.id})  # asked on every drawing of the board
    return bool(payload and payload.get("show"))


def logged_draws(table: Table) -> list[dict[str, Any]]:
    """Every draw the table's log holds, oldest first, each with the log entry it belongs to."""
    draws = []
    for seq, dice in db.session.execute(select(Action.seq, Action.dice).where(Action.table_id == table.id,
                                                                             Action.dice.is_not(None))
                                        .order_by(Action.seq)):
        draws += [dict(draw, entry=seq) for draw in dice or [] if isinstance(draw, dict)]
    return draws


def log_page(table: Table, *, before: int | None = None, limit: int = 50) -> list[Action]:
    """The log, newest first, `limit` entries older than `before`."""
    before = NO_SEQ_ABOVE if before is None else min(before, NO_SEQ_ABOVE)
    return list(db.session.scalars(_LOG_PAGE, {"table_id": table.id, "before": before, "limit": limit}))


def entry_json(entry: Action) -> dict[str, Any]:
    """A log entry for the API and the verify page: what happened, who did it, the dice, whether it was undone."""
    return {"seq": entry.seq, "type": entry.type, "actor": entry.actor, "text": entry.text,
            "dice": entry.dice or [], "undoable": entry.undoable, "undone": entry.undone,
            "move": entry.move, "at": as_utc(entry.created_at).isoformat()}


# ---- presence: which phones have the table open ------------------------------------------------------------


def is_connected(seat: Seat) -> bool:
    return seat.last_seen_at is not None and datetime.now(UTC) - as_utc(seat.last_seen_at) < CONNECTED_FOR


def presence_key(table: Table) -> str:
    """Which seats are connected, as a short string: part of what a screen's seat list depends on."""
    return ".".join(str(seat.number) for seat in table.player_seats if is_connected(seat)) or "-"


def _presence_write(code: str, seat_id: int, seen: datetime | None) -> None:
    seat = db.session.get(Seat, seat_id)
    if seat is None:
        return
    flipped = is_connected(seat) != (seen is not None)
    seat.last_seen_at = seen
    if flipped:
        _changes().before_commit(db.session, code, presence=True)
    db.session.commit()
    if flipped:
        _changes().after_commit(code, presence=True)


def seat_connected(code: str, seat_id: int) -> None:
    """A seat's phone opened its live stream: the host screen shows it as connected."""
    try:
        _presence_write(code, seat_id, utcnow())
    except (OperationalError, IntegrityError) as error:  # presence is a courtesy; never fail the stream for it
        db.session.rollback()
        log.warning("could not record seat %s as connected: %s", seat_id, error)


def still_seated(seat_id: int, token_hash: str | None) -> bool:
    """Does this seat still belong to the token a stream opened with? (A script's stream learns so of a freed seat.)"""
    try:
        return db.session.scalar(select(Seat.token_hash).where(Seat.id == seat_id)) == token_hash
    finally:
        db.session.remove()


def seats_heartbeat(seat_ids: list[int]) -> None:
    """Every seat with a stream open in this process is still connected: one UPDATE for all of them."""
    try:
        seen = utcnow()
        for start in range(0, len(seat_ids), 500):  # well under SQLite's limit on bound parameters
            db.session.execute(update(Seat).where(Seat.id.in_(seat_ids[start:start + 500])).values(last_seen_at=seen))
        db.session.commit()
    except OperationalError:
        db.session.rollback()
    finally:
        db.session.remove()


def seat_disconnected(code: str, seat_id: int) -> None:
    """The last stream of a seat in this process closed: show the seat as away."""
    try:
        _presence_write(code, seat_id, None)
    except (OperationalError, IntegrityError) as error:
        db.session.rollback()
        log.warning("could not record seat %s as gone: %s", seat_id, error)
    finally:
        db.session.remove()


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
        "connected": [seat.number for seat in table.player_seats if is_connected(seat)],
        "created_at": as_utc(table.created_at).isoformat(),
        "dice": dice_disclosure(table),
    }
    if visitor is not None and visitor.seat is not None:
        data["you"] = {"role": visitor.seat.role, "number": visitor.seat.number, "name": visitor.seat.name,
                       "player": visitor.seat.player_name}
    if visitor is not None and visitor.host:
        data["you"] = {"role": "host"}
        data["join_key"] = table.join_key
    if visitor is not None:
        data.update(seen_by(table, visitor))
    return data


def seen_by(table: Table, visitor: Visitor) -> dict[str, Any]:
    """The game as this visitor sees it and its outcome: all a move's reply carries besides the log."""
    rules = get_game(table.game).rules
    state = game_state(table)
    over = rules.outcome(state)
    return {"view": rules.view(state, viewer_of(visitor)), "outcome": over.as_dict() if over is not None else None}


def dice_disclosure(table: Table) -> dict[str, Any]:
    """The seed's SHA-256 from the start; the seed itself only once the table has ended and no roll can follow."""
    disclosed = {"commitment": commitment(table.dice_seed) if table.dice_seed else None,
                 "rolls": table.dice_counter, "seed": None}
    if table.status == "finished":
        disclosed["seed"] = table.dice_seed
    return disclosed
