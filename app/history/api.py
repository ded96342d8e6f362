"""The history's JSON API: plays and stats, with the same bearer-or-cookie rules as the tables' API."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from ..errors import BadRequest
from ..reading import whole_or_none
from . import access, exports, names, queries, stats

bp = Blueprint("history_api", __name__, url_prefix="/api")

LIMIT_MAX = 200


def _limit() -> int:
    limit = whole_or_none(request.args.get("limit", str(queries.PAGE_SIZE)), minimum=1, maximum=LIMIT_MAX)
    if limit is None:
        raise BadRequest(f"Use ?limit= from 1 to {LIMIT_MAX}.")
    return limit


@bp.get("/plays")
def plays():
    """Plays this token may see, newest first; ?game=, ?player=, ?page= and ?limit= narrow them."""
    reader = access.api_reader()
    people = names.People()
    chosen = queries.filters(request.args)
    page, limit = queries.page_number(request.args), _limit()
    found = queries.plays(reader, chosen, people, page=page, size=limit)
    return jsonify({"version": exports.VERSION, "page": page, "more": len(found) > limit,
                    "plays": [exports.play_json(play, people) for play in found[:limit]]})


@bp.get("/plays/<uid>")
def play(uid: str):
    reader = access.api_reader()
    return jsonify(exports.play_json(queries.one_play(reader, uid), names.People()))


@bp.get("/stats")
def stats_json():
    """Per player and game, and per game, over the plays this token may see; ?player= and ?game= narrow them."""
    reader = access.api_reader()
    people = names.People()
    chosen = queries.filters(request.args)
    every, _ = queries.for_stats(reader, chosen, people)
    return jsonify({"player": chosen.player, "game": chosen.game,
                    "players": [row.as_dict() for row in stats.by_player(every, people, player=chosen.player,
                                                                          game=chosen.game)],
                    "games": [summary.as_dict() for summary in stats.by_game(every, people, game=chosen.game)]})
