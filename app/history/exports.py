"""The history as files: Night Shift's own JSON (versioned, and read back by import), CSV, and BG Stats' play format.

docs/HISTORY.md documents each format; BG Stats' is its published "push plays to BG Stats from other apps" JSON.
"""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

from sqlalchemy import select

from ..errors import Invalid, NightShiftError
from ..extensions import db
from ..inputs import JSON_DEPTH_MAX, STRICT_NUMBERS, json_depth
from ..models import as_utc, utcnow
from . import figures as game_figures
from .models import ENDED_EARLY, FINISHED, Play, PlayerAlias, PlaySeat
from .names import NAME_MAX, People, key, typed_name

FORMAT = "nightshift-history"
VERSION = 1
IMPORT_MAX_BYTES = 8 * 1024 * 1024  # about 3,000 plays; an export of a few years of game nights
IMPORT_MAX_PLAYS = 20_000
FIRST_YEAR, LAST_YEAR = 1900, 2999  # an imported play's dates: any real game night, and room to shift time zones
SOURCE_NAME = "Night Shift"
BG_STATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
CSV_HEADER = ("play_id", "ended_at", "game", "game_name", "table", "ending", "duration_minutes", "moves", "result",
              "seat", "seat_name", "player", "person", "winner", "score", "score_name", "status", "details")
UID = re.compile(r"[0-9a-f]{8,32}")
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()


def play_json(play: Play, people: People) -> dict[str, Any]:
    """One play in schema version 1 (docs/HISTORY.md): what the API returns and the export holds."""
    shown = play.figures or {}
    return {
        "id": play.uid,
        "game": play.game,
        "game_name": play.game_name,
        "table": play.table_code,
        "started_at": _iso(play.started_at),
        "ended_at": _iso(play.ended_at),
        "duration_seconds": play.duration_seconds,
        "ending": play.ending,
        "result": play.result,
        "shared": play.shared,
        "moves": play.moves,
        "options": play.options,
        "readings": play.readings,
        "score": shown.get("score"),
        "side": shown.get("side"),
        "scenario": shown.get("scenario"),
        "facts": shown.get("facts", []),
        "players": [{"seat": seat.number, "seat_name": seat.seat, "colour": seat.colour, "name": seat.player,
                     "person": people.person(seat.player) if seat.player else None, "winner": seat.winner,
                     "score": seat.score, "status": seat.status, "details": seat.details, "records": seat.records}
                    for seat in play.seats],
        "dice": {"commitment": play.dice_commitment, "rolls": play.dice_rolls},
    }


def history_json(plays: list[Play], people: People) -> dict[str, Any]:
    """The whole history (or what this reader may see of it), with the host's merges of the names in it, ready to
    import elsewhere."""
    persons = {people.person_key(seat.player) for play in plays for seat in play.seats if seat.player}
    return {"format": FORMAT, "version": VERSION, "exported_at": utcnow().isoformat(),
            "plays": [play_json(play, people) for play in plays],
            "merges": [{"name": name_key, "person": person} for name_key, person in sorted(people.aliases.items())
                       if key(person) in persons]}


# ---- CSV --------------------------------------------------------------------------------------------------------


def _cell(text: str | None) -> str:
    """Text as a spreadsheet shows it, never as a formula it runs (a name like '=1+1' stays text)."""
    text = text or ""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def csv_text(plays: list[Play], people: People) -> str:
    """One row per player per play, under CSV_HEADER; a seat nobody took has an empty player."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for play in plays:
        score_name = (play.figures or {}).get("score") or ""
        for seat in play.seats:
            details = "; ".join(f"{label}: {value}" for label, value in seat.details)
            writer.writerow([play.uid, _iso(play.ended_at), play.game, _cell(play.game_name), play.table_code,
                             play.ending, round(play.duration_seconds / 60), play.moves, _cell(play.result),
                             seat.number, _cell(seat.seat), _cell(seat.player),
                             _cell(people.person(seat.player) if seat.player else ""),
                             "yes" if seat.winner else "no", "" if seat.score is None else seat.score,
                             _cell(score_name), _cell(seat.status), _cell(details)])
    return out.getvalue()


# ---- BG Stats ---------------------------------------------------------------------------------------------------


def _ranks(seats: list[PlaySeat], scored: bool) -> dict[int, int]:
    """Winners first (rank 1); the others after them by score, ties sharing a rank; no rank when nobody won."""
    winners = [seat for seat in seats if seat.winner]
    others = [seat for seat in seats if not seat.winner]
    if not winners:
        return {}
    if not scored:
        return {seat.number: (1 if seat.winner else 2) for seat in seats}
    ranks = {seat.number: 1 for seat in winners}
    others.sort(key=lambda seat: -(seat.score or 0))
    for index, seat in enumerate(others):
        same = index and (others[index - 1].score or 0) == (seat.score or 0)
        ranks[seat.number] = ranks[others[index - 1].number] if same else 2 + index
    return ranks


def bgstats_play(play: Play, people: People) -> dict[str, Any]:
    """The play in BG Stats' documented import format ('push plays to BG Stats from other apps')."""
    shown = play.figures or {}
    scored = shown.get("score") is not None
    seats = [seat for seat in play.seats if seat.player]
    ranks = _ranks(seats, scored)
    first = play.options.get("first_player") if isinstance(play.options, dict) else None
    players = []
    for seat in seats:
        entry: dict[str, Any] = {"name": people.person(seat.player), "role": seat.seat, "winner": seat.winner,
                                 "startPlayer": first == seat.number,
                                 "sourcePlayerId": people.person_key(seat.player)}
        if scored and seat.score is not None:
            entry["score"] = seat.score
        if seat.number in ranks:
            entry["rank"] = ranks[seat.number]
        players.append(entry)
    comments = play.result + (" The host ended this table before the game's end." if play.ending == ENDED_EARLY
                              else "")
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.uid,
        "playDate": as_utc(play.started_at).astimezone().strftime("%Y-%m-%d %H:%M:%S"),  # the table's local time
        "durationMin": max(1, round(play.duration_seconds / 60)),
        "game": {"name": play.game_name, "sourceGameId": play.game, "highestWins": scored, "noPoints": not scored},
        "board": shown.get("scenario") or "",
        "comments": f"{comments} Table {play.table_code}, logged by Night Shift."[:500],
        "players": players,
    }


def bgstats_link(play: Play, people: People) -> str:
    """The link BG Stats opens on a phone that has it: its createPlay address with the play as url-encoded JSON."""
    return BG_STATS_LINK + quote(json.dumps(bgstats_play(play, people), separators=(",", ":"), ensure_ascii=False),
                                 safe="")


# ---- import -----------------------------------------------------------------------------------------------------


class Refused(Invalid):
    """An import file Night Shift can't take: the sentence says what and where; nothing was stored."""


def _where(index: int | None) -> str:
    return "The file" if index is None else f"Play {index + 1} in the file"


def _need(condition: bool, index: int | None, what: str) -> None:
    if not condition:
        raise Refused(f"{_where(index)} {what} Nothing was imported.")


def _text(value: Any, index: int, field: str, limit: int, *, empty: bool = False) -> str:
    _need(isinstance(value, str) and (empty or value.strip()) and len(value) <= limit, index,
          f"needs '{field}' as text of at most {limit} characters.")
    return value


def _whole(value: Any, index: int, field: str, high: int) -> int:
    _need(isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= high, index,
          f"needs '{field}' as a whole number from 0 to {high}.")
    return value


def _moment(value: Any, index: int, field: str) -> datetime:
    try:  # stored in UTC, as every time Night Shift writes: the offset is applied, not dropped
        moment = datetime.fromisoformat(value) if isinstance(value, str) and len(value) <= 40 else None
        moment = moment if moment is None or not moment.tzinfo else moment.astimezone(UTC)
    except (ValueError, OverflowError):
        moment = None
    _need(moment is not None, index, f"needs '{field}' as a date and time like 2026-12-01T21:30:00+00:00.")
    # Pages show it in the machine's own time zone, which a year 1 or 9999 doesn't survive.
    _need(FIRST_YEAR <= moment.year <= LAST_YEAR, index, f"needs '{field}' between the years {FIRST_YEAR} and "
                                                         f"{LAST_YEAR}.")
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def parse(raw: bytes) -> dict[str, Any]:
    """Night Shift's JSON from an uploaded file, or Refused with a sentence (not JSON, another format or version)."""
    try:
        text = raw.decode("utf-8-sig")
        # Measured before parsing, as the API does: nesting json.loads reads but the JSON encoder can't write back
        # (about 940 deep) answered 500 when the play was stored. Night Shift's own export nests a few levels.
        deep = json_depth(text) > JSON_DEPTH_MAX
        data = None if deep else json.loads(text, **STRICT_NUMBERS)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused("That file isn't JSON: choose the file Night Shift's history export made "
                      "(nightshift-history.json). Nothing was imported.") from None
    _need(not deep, None, f"nests lists and objects more than {JSON_DEPTH_MAX} deep, which Night Shift's own export "
                          "never does.")
    try:  # an unpaired \ud800-\udfff escape: no UTF-8 text holds it, so storing or downloading it answered 500
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Refused("The file has text with a broken character (an unpaired \\ud800-\\udfff escape), which "
                      "Night Shift's own export never writes. Nothing was imported.") from None
    _need(isinstance(data, dict) and data.get("format") == FORMAT, None,
          "isn't a Night Shift history: choose the file the history page's 'Export JSON' made.")
    version = data.get("version")
    said = f"is version {str(version)[:10]}" if version is not None else "doesn't say which version"
    _need(version == VERSION, None, f"{said} of Night Shift's history, and this Night Shift reads version {VERSION}."
                                    " Export it again from a Night Shift of the same version.")
    _need(isinstance(data.get("plays"), list), None, "has no list of plays.")
    _need(len(data["plays"]) <= IMPORT_MAX_PLAYS, None, f"holds more than {IMPORT_MAX_PLAYS:,} plays.")
    return data


def _clean_play(raw: Any, index: int) -> dict[str, Any]:
    """One play of the file, checked field by field; the figures go through the same trim as a game's own."""
    _need(isinstance(raw, dict), index, "isn't an object.")
    uid = raw.get("id")
    _need(isinstance(uid, str) and UID.fullmatch(uid) is not None, index, "needs an 'id' of 8-32 hex digits.")
    game = raw.get("game")
    _need(isinstance(game, str) and SLUG.fullmatch(game) is not None, index, "needs a 'game' like 'crystal-lake'.")
    started, ended = _moment(raw.get("started_at"), index, "started_at"), _moment(raw.get("ended_at"), index,
                                                                                   "ended_at")
    _need(started <= ended, index, "ends before it starts.")
    _need(raw.get("ending") in (FINISHED, ENDED_EARLY), index, f"needs 'ending' to be '{FINISHED}' or "
                                                               f"'{ENDED_EARLY}'.")
    _need(isinstance(raw.get("shared"), bool), index, "needs 'shared' as true or false.")
    _need(isinstance(raw.get("options"), dict), index, "needs 'options' as an object.")
    readings = raw.get("readings")
    _need(isinstance(readings, list) and all(
        isinstance(item, dict) and all(isinstance(item.get(name), str) and len(item[name]) <= 200
                                       for name in ("option", "label", "value", "source")) for item in readings),
        index, "needs 'readings' as a list of options with their label, value and source.")
    dice = raw.get("dice")
    _need(isinstance(dice, dict), index, "needs 'dice' with its commitment and rolls.")
    commitment = dice.get("commitment")
    _need(commitment is None or (isinstance(commitment, str) and re.fullmatch(r"[0-9a-f]{64}", commitment)),
          index, "needs the dice 'commitment' as 64 hex digits, or null.")
    players = raw.get("players")
    _need(isinstance(players, list) and len(players) <= 99, index, "needs 'players' as a list of seats.")
    seats, numbers = [], set()
    for seat in players:
        _need(isinstance(seat, dict), index, "has a seat that isn't an object.")
        number = _whole(seat.get("seat"), index, "seat", 99)
        _need(number >= 1 and number not in numbers, index, "has a seat number twice, or a seat 0.")
        numbers.add(number)
        name = seat.get("name")
        if name is not None:
            try:
                name = typed_name(name)
            except NightShiftError as error:
                raise Refused(f"{_where(index)} has a player name that won't do: {error.message} Nothing was "
                              "imported.") from None
        _need(isinstance(seat.get("winner"), bool), index, "needs 'winner' as true or false for every seat.")
        seats.append({"number": number, "seat": _text(seat.get("seat_name"), index, "seat_name", 32),
                      "colour": _text(seat.get("colour", ""), index, "colour", 16, empty=True), "player": name,
                      "winner": seat["winner"]})
    shown = game_figures.clean({**raw, "seats": {str(seat.get("seat")): seat for seat in players}},
                               [seat["number"] for seat in seats])
    for seat in seats:
        seat.update(shown["seats"][str(seat["number"])])
    return {"uid": uid, "game": game, "game_name": _text(raw.get("game_name"), index, "game_name", 120),
            "table_code": _text(raw.get("table", ""), index, "table", 8, empty=True),
            "started_at": started, "ended_at": ended,
            "duration_seconds": _whole(raw.get("duration_seconds"), index, "duration_seconds", 10**8),
            "ending": raw["ending"], "result": _text(raw.get("result", ""), index, "result", 400, empty=True),
            "shared": raw["shared"], "moves": _whole(raw.get("moves"), index, "moves", 10**8),
            "options": raw["options"], "readings": readings,
            "figures": {name: shown[name] for name in ("score", "side", "scenario", "facts")},
            "dice_commitment": commitment, "dice_rolls": _whole(dice.get("rolls"), index, "rolls", 10**9),
            "seats": seats}


def _clean_merges(raw: Any) -> dict[str, str]:
    _need(raw is None or isinstance(raw, list), None, "has 'merges' that aren't a list.")
    merges = {}
    for item in raw or []:
        _need(isinstance(item, dict), None, "has a merge that isn't an object.")
        try:
            spelling, person = typed_name(item.get("name")), typed_name(item.get("person"))
        except NightShiftError as error:
            raise Refused(f"The file has a merged name that won't do: {error.message} Nothing was imported.") from None
        if key(spelling) != key(person):
            merges[key(spelling)] = person[:NAME_MAX]
    return merges


def import_history(raw: bytes) -> tuple[int, int]:
    """Add the file's plays that aren't here yet (matched by id) and its merges; all or nothing.

    Returns (plays added, plays already here).
    """
    data = parse(raw)
    plays = [_clean_play(item, index) for index, item in enumerate(data["plays"])]
    merges = _clean_merges(data.get("merges"))
    ids = {play["uid"] for play in plays}
    _need(len(ids) == len(plays), None, "holds the same play twice.")
    have = set()
    wanted = sorted(ids)
    for start in range(0, len(wanted), 500):
        have |= set(db.session.scalars(select(Play.uid).where(Play.uid.in_(wanted[start:start + 500]))))
    added = 0
    try:
        for fields in plays:
            if fields["uid"] in have:
                continue
            seats = fields.pop("seats")
            play = Play(**fields, undone=False, imported=True, recorded_at=utcnow())
            play.seats = [PlaySeat(number=seat["number"], seat=seat["seat"], colour=seat["colour"],
                                   player=seat["player"], player_key=key(seat["player"]) if seat["player"] else None,
                                   winner=seat["winner"], score=seat["score"], status=seat["status"],
                                   details=seat["details"], records=seat["records"]) for seat in seats]
            db.session.add(play)
            added += 1
        for spelling, person in merges.items():
            if db.session.get(PlayerAlias, spelling) is None:
                db.session.add(PlayerAlias(key=spelling, person=person, person_key=key(person)))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return added, len(plays) - added
