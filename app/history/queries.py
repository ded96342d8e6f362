"""Reading the history: plays a reader may see, filtered by game and player, newest first; shared by pages and API."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from ..errors import BadRequest, Forbidden, NotFound
from ..extensions import db
from ..games import REGISTRY
from ..models import as_utc
from ..reading import quoted, whole_or_none
from .access import Reader
from .exports import CHUNK, paced
from .models import Play, PlaySeat
from .names import People, typed_name
from .stats import names_of

UID = re.compile(r"[0-9a-f]{8,32}")
PAGE_SIZE = 30
PAGE_MAX = 10**6


@dataclass(frozen=True)
class Filters:
    """What the history is narrowed to: a game's slug and a player's name, either may be None."""

    game: str | None = None
    player: str | None = None

    def as_args(self) -> dict[str, str]:
        return {name: value for name, value in (("game", self.game), ("player", self.player)) if value}


def game_choices() -> list[tuple[str, str]]:
    """(slug, name) of every game on the registry and every game an imported play brought along."""
    found = dict(db.session.execute(select(Play.game, func.max(Play.game_name)).group_by(Play.game)).all())
    choices = {slug: spec.name for slug, spec in REGISTRY.items()} | {
        slug: name for slug, name in found.items() if slug not in REGISTRY}
    return sorted(choices.items(), key=lambda item: item[1])


def filters(args) -> Filters:
    """The filters of a query string, or a 400 naming what was wrong with them."""
    game = (args.get("game") or "").strip() or None
    if game is not None and game not in dict(game_choices()):
        raise BadRequest(f"There is no game {quoted(game, 32)} in the history. Pick a game from the list, "
                         f"or leave it empty for every game.")
    player = args.get("player")
    player = typed_name(player) if player is not None and player.strip() else None
    return Filters(game, player)


def page_number(args) -> int:
    page = whole_or_none(args.get("page") or "1", minimum=1, maximum=PAGE_MAX)  # 5,000 digits too: a 400, not a 500
    if page is None:
        raise BadRequest("The page must be a whole number from 1.")
    return page


def plays_query(reader: Reader, chosen: Filters, people: People):
    """Plays this reader may see, kept (not taken back), matching the filters, newest first."""
    query = select(Play).where(Play.undone.is_(False))
    if chosen.game:
        query = query.where(Play.game == chosen.game)
    if chosen.player:
        query = query.where(Play.id.in_(select(PlaySeat.play_id).where(
            PlaySeat.player_key.in_(sorted(people.spellings(chosen.player))))))
    return reader.visible(query).order_by(Play.ended_at.desc(), Play.id.desc())


def plays(reader: Reader, chosen: Filters, people: People, *, page: int | None = None,
          size: int = PAGE_SIZE) -> list[Play]:
    query = plays_query(reader, chosen, people).options(selectinload(Play.seats))
    if page is not None:
        return list(db.session.scalars(query.limit(size + 1).offset((page - 1) * size)))
    # Every play (an export): read a chunk at a time, with a pause for the worker's other requests between chunks.
    return list(paced(db.session.scalars(query.execution_options(yield_per=CHUNK))))


def one_play(reader: Reader, uid: str) -> Play:
    """A play this reader may see, or a 404 / 403 with a sentence."""
    if not isinstance(uid, str) or not UID.fullmatch(uid):
        raise NotFound("There is no play with that number: play numbers are 16 letters and digits, like "
                       "3f2a9c0d1e4b5a67. Find it on the history page.")
    play = db.session.scalar(select(Play).where(Play.uid == uid, Play.undone.is_(False))
                             .options(selectinload(Play.seats)))
    if play is None:
        raise NotFound(f"There is no play {uid} in the history: it was never recorded here, or its final move "
                       "was taken back.")
    if not reader.sees(play):
        raise Forbidden("This play is from a table this device didn't sit at. Its players and the host machine "
                        "can see it.")
    return play


def stat_plays(reader: Reader) -> list[dict]:
    """The plays this reader may see, with just what the stats read, in play_json's shape: one joined query and no
    ORM objects, so a few thousand plays stay quick."""
    query = reader.visible(
        select(Play.id, Play.uid, Play.game, Play.game_name, Play.ended_at, Play.duration_seconds, Play.ending,
               Play.figures, PlaySeat.number, PlaySeat.seat, PlaySeat.player, PlaySeat.winner, PlaySeat.score,
               PlaySeat.records)
        .outerjoin(PlaySeat, PlaySeat.play_id == Play.id).where(Play.undone.is_(False))
    ).order_by(Play.ended_at, Play.id, PlaySeat.number)
    found: dict[int, dict] = {}
    for row in db.session.execute(query):
        play = found.get(row.id)
        if play is None:
            shown = row.figures or {}
            play = found[row.id] = {
                "id": row.uid, "game": row.game, "game_name": row.game_name,
                "ended_at": as_utc(row.ended_at).isoformat(), "duration_seconds": row.duration_seconds,
                "ending": row.ending, "score": shown.get("score"), "score_decides": shown.get("score_decides"),
                "side": shown.get("side"), "scenario": shown.get("scenario"), "players": []}
        if row.number is not None:  # a play nobody sat at still counts for its game
                play["players"].append({"seat": row.number, "seat_name": row.seat, "name": row.player,
                                    "winner": row.winner, "score": row.score, "records": row.records or {}})
    return list(found.values())


def for_stats(reader: Reader, chosen: Filters, people: People) -> tuple[list[dict], dict[str, str]]:
    """Every play this reader may see, for the stats, and each person's shown name; a 404 for a player not in them."""
    every = stat_plays(reader)
    shown = names_of(every, people)
    if chosen.player and people.person_key(chosen.player) not in shown:
        raise NotFound(f"Nobody called “{chosen.player}” played in the plays you can see. Check the spelling, or "
                       "pick a name from the list.")
    return every, shown
