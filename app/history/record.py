"""Writing a table's play, inside the write path's transaction, so a game's end and its play commit together.

The write path calls `record` when a move ends the game, and `follow` after undo, redo, jump and the host ending the
table: the play always matches the table's state. A table has at most one play; taking back the final move marks it
undone (hidden everywhere), bringing the ending back (redo, or another final move) writes it again in place.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import func, select

from ..dice import commitment
from ..extensions import db
from ..games import UnknownGame, get_game
from ..models import Action, Table, as_utc, utcnow
from . import figures as game_figures
from .models import ENDED_EARLY, FINISHED, Play, PlayKey, PlaySeat
from .names import key


def new_uid() -> str:
    return secrets.token_hex(8)


def readings(spec, options: dict[str, Any]) -> list[dict[str, str]]:
    """Each setup option as the host screen lists it, with whether the rulebook prints it or we assumed it."""
    return [{"option": option.key, "label": label, "value": value, "source": source}
            for option, (label, value, source) in zip(spec.options, spec.summary(options), strict=True)]


def _moves(table: Table) -> tuple[int, datetime | None]:
    """How many moves are in effect, and when the first of them was made (autoflush counts this change's undos)."""
    count, first = db.session.execute(
        select(func.count(Action.id), func.min(Action.created_at))
        .where(Action.table_id == table.id, Action.state_before.is_not(None), Action.undone.is_(False))).one()
    return count, first


def _play_of(table: Table) -> Play | None:
    return db.session.scalar(select(Play).where(Play.table_id == table.id))


def _keep_keys(play: Play, table: Table) -> None:
    """Remember every token that was at the table (host, seats, spectators), so its devices see the play later."""
    have = {item.token_hash for item in play.keys}
    wanted = [(table.host_token_hash, "host")] + [(seat.token_hash, "seat") for seat in table.seats if seat.token_hash]
    for digest, role in wanted:
        if digest not in have:
            play.keys.append(PlayKey(token_hash=digest, role=role))
            have.add(digest)


def record(table: Table, outcome, *, moving: bool = False) -> Play | None:
    """Write this table's play from its state now: finished with `outcome`, or ended early when it is None.

    `moving` says the move that ends the game is being written in this transaction and isn't in the log yet.
    A table ended before its first move leaves no play: nothing was played.
    """
    try:
        spec = get_game(table.game)
    except UnknownGame:
        return None
    play = _play_of(table)
    ending = FINISHED if outcome is not None else ENDED_EARLY
    if play is not None and not play.undone and play.ending == ending:
        _keep_keys(play, table)  # e.g. the host ends a table whose game had already ended
        return play
    count, first = _moves(table)
    count += 1 if moving else 0
    if count == 0 and play is None:
        return None
    with db.session.no_autoflush:  # the play is filled in completely before the database sees it
        play = _fill(play or Play(uid=new_uid(), table_id=table.id), table, spec, outcome, count, first)
    db.session.add(play)
    db.session.flush()
    return play


def _fill(play: Play, table: Table, spec, outcome, count: int, first: datetime | None) -> Play:
    """The play's fields and seats from the table now."""
    now = utcnow()
    started = as_utc(first) if first is not None else now
    ending = FINISHED if outcome is not None else ENDED_EARLY
    state = table.state
    numbers = [seat.number for seat in table.player_seats]
    found = game_figures.read(spec.rules, state, numbers)
    winners = set(outcome.winners) if outcome is not None else set()
    play.table_code, play.game, play.game_name = table.code, spec.slug, spec.name
    play.options, play.readings = dict(table.options), readings(spec, table.options)
    play.started_at, play.ended_at = started, now
    play.duration_seconds = max(0, int((now - started).total_seconds()))
    play.ending = ending
    play.result = (outcome.text if outcome is not None else
                   f"The host ended the table before the game's end, after {count} move{'s' if count != 1 else ''}.")
    play.shared = bool(outcome.shared) if outcome is not None else False
    play.figures = {name: found[name] for name in game_figures.GAME_WIDE}
    play.moves = count
    play.dice_commitment = commitment(table.dice_seed) if table.dice_seed else None
    play.dice_rolls = table.dice_counter or 0
    play.undone, play.imported, play.recorded_at = False, False, now
    by_number = {seat.number: seat for seat in play.seats}
    for seat in table.player_seats:
        mine = found["seats"][str(seat.number)]
        row = by_number.pop(seat.number, None)
        if row is None:
            row = PlaySeat(number=seat.number)
            play.seats.append(row)
        row.seat, row.colour = seat.name, seat.colour or ""
        row.player = seat.player_name
        row.player_key = key(seat.player_name) if seat.player_name else None
        row.winner = seat.number in winners
        row.score, row.status, row.details, row.records = (mine["score"], mine["status"], mine["details"],
                                                           mine["records"])
    for gone in by_number.values():
        play.seats.remove(gone)
    _keep_keys(play, table)
    return play


def follow(table: Table) -> None:
    """After undo, redo, jump or the table's end: write, keep or hide the play so it matches the table now."""
    try:
        rules = get_game(table.game).rules
    except UnknownGame:
        return
    over = rules.outcome(table.state) if rules is not None and table.state is not None else None
    if over is not None or table.status == "finished":
        record(table, over)
        return
    play = _play_of(table)
    if play is not None and not play.undone:
        play.undone = True  # the final move was taken back: the game isn't over any more
