"""The history as files: Night Shift's own JSON (versioned, and read back by import), CSV, BG Stats' play format and
BoardGameGeek's plays XML.

docs/HISTORY.md documents each format; BG Stats' is its published "push plays to BG Stats from other apps" JSON,
BoardGameGeek's the <plays> document its XML API gives for a user's logged plays. Every one agrees with the result:
the winners first, a score only where the score decided the play, one length in minutes.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import unicodedata
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any, TypeVar
from urllib.parse import quote

from sqlalchemy import delete, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from ..errors import Conflict, Invalid, NightShiftError
from ..extensions import db
from ..health import BusyRetry
from ..inputs import JSON_DEPTH_MAX, STRICT_NUMBERS
from ..models import as_utc, utcnow
from ..yielding import in_a_thread, let_others_run
from . import figures as game_figures
from .models import ENDED_EARLY, FINISHED, Play, PlayerAlias, PlaySeat
from .names import NAME_MAX, People, key, typed_name

log = logging.getLogger(__name__)
T = TypeVar("T")

FORMAT = "nightshift-history"
VERSION = 1
IMPORT_MAX_BYTES = 8 * 1024 * 1024  # about 3,000 plays; an export of a few years of game nights
IMPORT_MAX_PLAYS = 20_000
# An imported play's free-form parts are bounded as a table's own are (its text fields by their columns): a single
# 7 MB options string was stored whole.
OPTIONS_MAX = 8_000  # characters of a play's options as JSON; the largest setup (12 named counters) is about 1,500
READINGS_MAX = 60
MERGES_MAX = 5_000
FIRST_YEAR, LAST_YEAR = 1900, 2999  # an imported play's dates: any real game night, and room to shift time zones
SOURCE_NAME = "Night Shift"
BG_STATS_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
CSV_HEADER = ("play_id", "ended_at", "game", "game_name", "table", "ending", "duration_minutes", "moves", "result",
              "seat", "seat_name", "player", "person", "winner", "score", "score_name", "status", "details",
              "score_decides", "team")
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 can't hold
CHUNK = 50  # plays per commit of an import, and between the pauses of a long export or import (about 30 ms of work)
UID = re.compile(r"[0-9a-f]{8,32}")
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")


def paced(items: Iterable[T]) -> Iterator[T]:
    """Each item in turn, with a pause for the worker's other requests every CHUNK of them: an export or import of
    thousands of plays is seconds of work that would otherwise hold every table on the worker."""
    for index, item in enumerate(items):
        if index and index % CHUNK == 0:
            let_others_run()
        yield item


def _iso(moment: datetime) -> str:
    return as_utc(moment).isoformat()


def _local_date(moment: datetime, pattern: str) -> str:
    """A moment in the host machine's own time zone (the table's), as the other apps take it."""
    return as_utc(moment).astimezone().strftime(pattern)


def score_decided(play: Play) -> bool:
    """Whether this play's scores decided who won (6AM: not when an Office was entered), as the game said or, for a
    play from before it said so, as the winners' scores show."""
    shown = play.figures or {}
    return game_figures.score_decided(shown.get("score_decides"),
                                      [(seat.winner, seat.score) for seat in play.seats])


def team_of(play: Play, number: int) -> str | None:
    """The side a seat played on, for games played by sides (Director's Cut's Guards and Animatronics)."""
    teams = (play.figures or {}).get("teams") or {}
    return next((team for team, seats in teams.items() if number in seats), None)


def play_json(play: Play, people: People) -> dict[str, Any]:
    """One play in schema version 1 (docs/HISTORY.md): what the API returns and the export holds."""
    shown = play.figures or {}
    scored = shown.get("score") is not None
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
        "score_decides": score_decided(play) if scored else None,
        "side": shown.get("side"),
        "scenario": shown.get("scenario"),
        "facts": shown.get("facts", []),
        "cooperative": bool(shown.get("cooperative")),
        "teams": shown.get("teams") or {},
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
            "plays": [play_json(play, people) for play in paced(plays)],
            "merges": [{"name": name_key, "person": person} for name_key, person in sorted(people.aliases.items())
                       if key(person) in persons]}


# ---- CSV --------------------------------------------------------------------------------------------------------


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what makes a spreadsheet read a cell as a formula


def _cell(value: object) -> object:
    """A cell as a spreadsheet shows it, never as a formula it runs: text that starts like one (= + - @, their
    full-width forms such as '＝', a tab or a carriage return) gets a leading apostrophe; numbers stay numbers."""
    if not isinstance(value, str):
        return value
    return "'" + value if unicodedata.normalize("NFKC", value[:1])[:1] in FORMULA_STARTS else value


def csv_text(plays: list[Play], people: People) -> str:
    """One row per player per play, under CSV_HEADER; a seat nobody took has an empty player. Every text cell is
    neutralised, whatever its column: an imported play brings its own table code and names."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for play in paced(plays):
        score_name = (play.figures or {}).get("score") or ""
        decides = ("yes" if score_decided(play) else "no") if score_name else ""
        for seat in play.seats:
            details = "; ".join(f"{label}: {value}" for label, value in seat.details)
            writer.writerow([_cell(value) for value in (
                play.uid, _iso(play.ended_at), play.game, play.game_name, play.table_code, play.ending,
                game_figures.duration_minutes(play.duration_seconds), play.moves, play.result, seat.number,
                seat.seat, seat.player, people.person(seat.player) if seat.player else "",
                "yes" if seat.winner else "no", "" if seat.score is None else seat.score, score_name, seat.status,
                details, decides, team_of(play, seat.number))])
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


def _first_player(play: Play) -> int | None:
    return play.options.get("first_player") if isinstance(play.options, dict) else None


def _comments(play: Play) -> str:
    """The game's result sentence, what its score meant when the score didn't decide it, and an early end."""
    shown = play.figures or {}
    comments = play.result
    if shown.get("score") and not score_decided(play):
        comments += (f" {shown['score'][:1].upper()}{shown['score'][1:]} didn't decide this play: the result did, "
                     "so no score is given.")
    if play.ending == ENDED_EARLY:
        comments += " The host ended this table before the game's end."
    return f"{comments} Table {play.table_code}, logged by Night Shift."


def bgstats_play(play: Play, people: People) -> dict[str, Any]:
    """The play in BG Stats' documented import format ('push plays to BG Stats from other apps'): scores only where
    they decided the play, the winners ranked first, a game played together marked cooperative."""
    shown = play.figures or {}
    scored = shown.get("score") is not None
    counted = scored and score_decided(play)
    seats = [seat for seat in play.seats if seat.player]
    ranks = _ranks(seats, counted)
    first = _first_player(play)
    players = []
    for seat in seats:
        team = team_of(play, seat.number)
        entry: dict[str, Any] = {"name": people.person(seat.player), "winner": seat.winner,
                                 "role": f"{team} ({seat.seat})" if team else seat.seat,
                                 "startPlayer": first == seat.number,
                                 "sourcePlayerId": people.person_key(seat.player)}
        if counted and seat.score is not None:
            entry["score"] = seat.score
        if seat.number in ranks:
            entry["rank"] = ranks[seat.number]
        players.append(entry)
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.uid,
        "playDate": _local_date(play.started_at, "%Y-%m-%d %H:%M:%S"),  # the table's local time
        "durationMin": game_figures.duration_minutes(play.duration_seconds),
        "game": {"name": play.game_name, "sourceGameId": play.game, "highestWins": scored, "noPoints": not scored,
                 "cooperative": bool(shown.get("cooperative"))},
        "board": shown.get("scenario") or "",
        "comments": _comments(play)[:500],
        "players": players,
    }


def bgstats_link(play: Play, people: People) -> str:
    """The link BG Stats opens on a phone that has it: its createPlay address with the play as url-encoded JSON."""
    return BG_STATS_LINK + quote(json.dumps(bgstats_play(play, people), separators=(",", ":"), ensure_ascii=False),
                                 safe="")


# ---- BoardGameGeek -----------------------------------------------------------------------------------------------


def _xml_text(value: Any) -> str:
    """Text as XML 1.0 can hold it: control characters a name or a sentence could carry are dropped."""
    return NOT_XML.sub("", str(value))


def _start_position(play: Play, number: int, seats: int) -> int:
    """Where a seat sat in the turn order: from the first player chosen at setup, else by seat number."""
    first = _first_player(play)
    return (number - first) % seats + 1 if isinstance(first, int) and 1 <= first <= seats else number


def bgg_plays(plays: list[Play], people: People) -> str:
    """The plays as BoardGameGeek's plays XML: <plays><play date quantity length incomplete nowinstats location>
    <item name objecttype objectid/><comments/><players><player name startposition color score win new/>.

    A score is given only where it decided the play; a table ended early is incomplete and out of the win stats.
    BoardGameGeek's number for a box is unknown to Night Shift: objectid is left empty, the name says which game."""
    root = ElementTree.Element("plays", {"source": SOURCE_NAME, "total": str(len(plays))})
    for play in plays:
        early = play.ending == ENDED_EARLY
        counted = (play.figures or {}).get("score") is not None and score_decided(play)
        entry = ElementTree.SubElement(root, "play", {
            "id": play.uid, "date": _local_date(play.started_at, "%Y-%m-%d"), "quantity": "1",
            "length": str(game_figures.duration_minutes(play.duration_seconds)), "incomplete": "1" if early else "0",
            "nowinstats": "1" if early else "0", "location": ""})
        ElementTree.SubElement(entry, "item", {"name": _xml_text(play.game_name), "objecttype": "thing",
                                               "objectid": ""})
        ElementTree.SubElement(entry, "comments").text = _xml_text(_comments(play))
        players = ElementTree.SubElement(entry, "players")
        for seat in play.seats:
            if not seat.player:
                continue
            ElementTree.SubElement(players, "player", {
                "name": _xml_text(people.person(seat.player)),
                "startposition": str(_start_position(play, seat.number, len(play.seats))),
                "color": _xml_text(seat.colour or ""),
                "score": str(seat.score) if counted and seat.score is not None else "",
                "win": "1" if seat.winner else "0", "new": "0"})
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"


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
    deep = False
    try:
        text = raw.decode("utf-8-sig")
        data = in_a_thread(_loaded, text)
    except (UnicodeDecodeError, ValueError):
        raise Refused("That file isn't JSON: choose the file Night Shift's history export made "
                      "(nightshift-history.json). Nothing was imported.") from None
    except RecursionError:
        deep = True
    # Nesting json.loads reads but the JSON encoder can't write back (about 940 deep) answered 500 when the play was
    # stored. Night Shift's own export nests a few levels.
    _need(not deep and _depth(data) <= JSON_DEPTH_MAX, None, f"nests lists and objects more than {JSON_DEPTH_MAX} "
                                                             "deep, which Night Shift's own export never does.")
    try:  # an unpaired \ud800-\udfff escape: no UTF-8 text holds it, so storing or downloading it answered 500
        if SURROGATE_ESCAPE.search(text):  # only such an escape can make one: most files need no second pass
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


def _loaded(text: str) -> Any:
    """The file's JSON, calling back into Python for every object: in a thread, that lets the worker's loop take the
    GIL every few milliseconds (json.loads of 7 MB in one C call held it for a quarter of a second)."""
    return json.loads(text, object_hook=_as_is, **STRICT_NUMBERS)


def _as_is(value: dict) -> dict:
    return value


def _depth(data: Any) -> int:
    """How deeply lists and objects nest in parsed JSON (counted as the API's json_depth counts brackets), stopping
    once past JSON_DEPTH_MAX; it pauses for the worker's other requests every few thousand nodes."""
    deepest, walked, waiting = 0, 0, [(data, 1)]
    while waiting and deepest <= JSON_DEPTH_MAX:
        value, depth = waiting.pop()
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        waiting.extend((child, depth + 1) for child in children)
        walked += 1
        if walked % 5000 == 0:
            let_others_run()
    return deepest


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
    _need(isinstance(raw.get("options"), dict) and _size(raw["options"]) <= OPTIONS_MAX, index,
          f"needs 'options' as an object of at most {OPTIONS_MAX:,} characters (a game's whole setup is far less).")
    readings = raw.get("readings")
    _need(isinstance(readings, list) and len(readings) <= READINGS_MAX and all(
        isinstance(item, dict) and all(isinstance(item.get(name), str) and len(item[name]) <= 200
                                       for name in ("option", "label", "value", "source")) for item in readings),
        index, f"needs 'readings' as a list of at most {READINGS_MAX} options with their label, value and source.")
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
            "figures": {name: shown[name] for name in game_figures.GAME_WIDE},
            "dice_commitment": commitment, "dice_rolls": _whole(dice.get("rolls"), index, "rolls", 10**9),
            "seats": seats}


def _size(value: Any) -> int:
    """Characters a JSON value takes once stored."""
    return len(json.dumps(value, ensure_ascii=False))


def _clean_merges(raw: Any) -> dict[str, str]:
    _need(raw is None or isinstance(raw, list), None, "has 'merges' that aren't a list.")
    _need(len(raw or []) <= MERGES_MAX, None, f"has more than {MERGES_MAX:,} merged names.")
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

    The whole file is checked before anything is stored; then the new plays go in CHUNK at a time, each chunk one
    commit, with a pause between for the worker's other requests (6,000 plays in one transaction held every table
    on the worker for seconds). If a chunk can't be stored, the chunks before it are deleted again.
    Returns (plays added, plays already here).
    """
    data = parse(raw)
    plays = [_clean_play(item, index) for index, item in enumerate(paced(data["plays"]))]
    merges = _clean_merges(data.get("merges"))
    ids = {play["uid"] for play in plays}
    _need(len(ids) == len(plays), None, "holds the same play twice.")
    have = set()
    wanted = sorted(ids)
    for start in range(0, len(wanted), 500):
        have |= set(db.session.scalars(select(Play.uid).where(Play.uid.in_(wanted[start:start + 500]))))
    new = [fields for fields in plays if fields["uid"] not in have]
    stored: list[str] = []
    try:
        for start in range(0, max(len(new), 1), CHUNK):
            chunk = new[start:start + CHUNK]
            _store(chunk, merges if start + CHUNK >= len(new) else {})
            stored += [fields["uid"] for fields in chunk]
            let_others_run()
    except Exception:
        _forget(stored)
        raise
    return len(new), len(plays) - len(new)


def _store(plays: list[dict[str, Any]], merges: dict[str, str]) -> None:
    """Some checked plays (and the merges, with the last of them) in one commit, tried again while the database is
    only busy."""
    waiting = BusyRetry()
    while True:
        try:
            for fields in plays:
                play = Play(**{name: value for name, value in fields.items() if name != "seats"}, undone=False,
                            imported=True, recorded_at=utcnow())
                play.seats = [PlaySeat(**seat, player_key=key(seat["player"]) if seat["player"] else None)
                              for seat in fields["seats"]]
                db.session.add(play)
            for spelling, person in merges.items():
                if db.session.get(PlayerAlias, spelling) is None:
                    db.session.add(PlayerAlias(key=spelling, person=person, person_key=key(person)))
            db.session.commit()
            return
        except IntegrityError:
            db.session.rollback()
            raise Conflict("Another import is adding the same plays right now. Nothing was imported; look at the "
                           "history, then import again if they are missing.") from None
        except DBAPIError as error:
            db.session.rollback()
            waiting.again(error)  # busy: try this chunk again in a moment; full, read-only, out of time: a 503
        except Exception:
            db.session.rollback()
            raise


def _forget(uids: list[str]) -> None:
    """Delete the plays an import stored before one of its chunks failed (their seats go with them)."""
    db.session.rollback()
    try:
        for start in range(0, len(uids), 500):
            db.session.execute(delete(Play).where(Play.uid.in_(uids[start:start + 500])))
        db.session.commit()
    except DBAPIError:
        db.session.rollback()  # importing the file again adds only what is missing
        log.warning("import: %d plays stored before the failure stay; importing again completes them", len(uids))
