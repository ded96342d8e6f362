"""Reading the history: plays a reader may see, filtered by game and player, newest first; shared by pages and API."""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from ..errors import BadRequest, Forbidden, NotFound
from ..extensions import db
from ..games import REGISTRY
from .access import Reader
from .exports import play_json
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
        shown = game[:32]
        raise BadRequest(f"There is no game {shown!r} in the history. Pick a game from the list, "
                         f"or leave it empty for every game.")
    player = args.get("player")
    player = typed_name(player) if player is not None and player.strip() else None
    return Filters(game, player)


def page_number(args) -> int:
    raw = args.get("page") or "1"
    if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= PAGE_MAX):
        raise BadRequest("The page must be a whole number from 1.")
    return int(raw)


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
        query = query.limit(size + 1).offset((page - 1) * size)
    return list(db.session.scalars(query))


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


def for_stats(reader: Reader, chosen: Filters, people: People) -> tuple[list[dict], dict[str, str]]:
    """Every play this reader may see, as play_json, and each person's shown name; a 404 for a player not in them."""
    every = [play_json(play, people) for play in plays(reader, Filters(), people)]
    shown = names_of(every, people)
    if chosen.player and people.person_key(chosen.player) not in shown:
        raise NotFound(f"Nobody called “{chosen.player}” played in the plays you can see. Check the spelling, or "
                       "pick a name from the list.")
    return every, shown
