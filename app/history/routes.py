"""History pages: the plays newest first, one play's page, stats with charts, exports, import and name merges."""

from __future__ import annotations

import json
from datetime import datetime

from flask import Blueprint, Response, flash, redirect, render_template, request, session, url_for
from flask_wtf.csrf import CSRFError, validate_csrf
from sqlalchemy import select
from werkzeug.exceptions import RequestEntityTooLarge
from wtforms.validators import ValidationError

from ..errors import BadRequest, NightShiftError, NotFound
from ..extensions import db
from ..models import Table, as_utc
from ..tables import auth, codes
from ..tables.service import is_expired
from . import access, charts, exports, names, queries, stats
from . import figures as game_figures
from .models import ENDED_EARLY, Play

bp = Blueprint("history", __name__, url_prefix="/history")


class TooLarge(NightShiftError):
    status = 413
    title = "That file is too large"


@bp.app_template_filter("local_time")
def local_time(moment: datetime | str) -> str:
    """A moment in the host machine's own time zone, as people say it: 'Sat 1 Dec 2026, 21:30'."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    local = as_utc(moment).astimezone()
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M}"


@bp.app_template_filter("duration")
def duration(seconds: int | None) -> str:
    if seconds is None:
        return "–"
    minutes = game_figures.duration_minutes(seconds)  # the same minutes as every export
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def _download(body: str, filename: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def _json(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


@bp.get("")
def index():
    """Plays newest first, narrowed by game and player; each links to its page."""
    reader = access.reader()
    people = names.People()
    chosen = queries.filters(request.args)
    page = queries.page_number(request.args)
    found = queries.plays(reader, chosen, people, page=page)
    more = len(found) > queries.PAGE_SIZE
    return render_template("history/index.html", plays=found[:queries.PAGE_SIZE], people=people, chosen=chosen,
                           games=queries.game_choices(), reader=reader, page=page, more=more,
                           ENDED_EARLY=ENDED_EARLY)


@bp.get("/plays/<uid>")
def play_page(uid: str):
    """One play: the result, each seat's figures, the setup, and the way to its log while the table exists."""
    reader = access.reader()
    play = queries.one_play(reader, uid)
    people = names.People()
    table = db.session.get(Table, play.table_id) if play.table_id is not None else None
    table = table if table is not None and not is_expired(table) else None
    remembered = session.get(auth.SESSION_KEY)
    holds_table = table is not None and isinstance(remembered, dict) and bool(remembered.get(table.code))
    return render_template("history/play.html", play=play, people=people, table=table, holds_table=holds_table,
                           bgstats_link=exports.bgstats_link(play, people), ENDED_EARLY=ENDED_EARLY,
                           score_decides=exports.score_decided(play), reader=reader)


@bp.get("/table/<code>")
def table_play(code: str):
    """The host screen's link: this table's play, or the history with a word on why there is none yet."""
    reader = access.reader()
    code = codes.normalise(code, codes.CODE_LENGTH)
    if code is None:
        raise NotFound("There is no table with that code: codes have 5 letters and digits.")
    play = db.session.scalar(reader.visible(select(Play).where(
        Play.table_code == code, Play.undone.is_(False))).order_by(Play.ended_at.desc()).limit(1))
    if play is None:
        flash(f"Table {code} has no play in the history yet: it is written when the game ends.")
        return redirect(url_for("history.index"))
    return redirect(url_for("history.play_page", uid=play.uid))


@bp.get("/stats")
def stats_page():
    """Stats over the plays this device may see: every game, one game, one player, or one player at one game."""
    reader = access.reader()
    people = names.People()
    chosen = queries.filters(request.args)
    every, shown = queries.for_stats(reader, chosen, people)
    rows = stats.by_player(every, people, player=chosen.player, game=chosen.game)
    games = stats.by_game(every, people, game=chosen.game)
    player_name = shown.get(people.person_key(chosen.player)) if chosen.player else None
    choices = queries.game_choices()
    totals = stats.totals(rows) if not (chosen.player or chosen.game) else []
    return render_template("history/stats.html", chosen=chosen, rows=rows, games=games, player_name=player_name,
                           totals=totals,
                           people=sorted(set(shown.values()), key=str.casefold), charts=_charts(rows, games, chosen),
                           game_choices=choices, game_name=dict(choices).get(chosen.game), reader=reader)


def _charts(rows: list[stats.PlayerGame], games: list[stats.GameSummary], chosen: queries.Filters) -> list:
    """The charts of a stats page: what is worth drawing for the filters chosen."""
    drawn = []
    if chosen.player:
        drawn.append(charts.bars("wins-by-game", "Wins out of plays, by game",
                                 [(row.game_name, row.wins, row.plays, f"{row.wins} of {row.plays} won")
                                  for row in rows]))
        for index, row in enumerate(row for row in rows if row.scores):
            values = [(play, score, won) for play, score, won in row.history if score is not None]
            drawn.append(charts.columns(f"scores-{index}", f"{row.game_name}: {row.score_name or 'score'} in each "
                                        "play, wins highlighted", values, row.score_name or "points"))
        return drawn
    if chosen.game:
        for summary in games:
            wins = summary.wins.most_common(10)
            plays = {row.person: row.plays for row in rows}
            drawn.append(charts.bars("wins-by-player", f"{summary.game_name}: wins by player",
                                     [(name, count, plays.get(name), f"{count} of {plays.get(name, count)} won")
                                      for name, count in wins]))
            if summary.has_sides:
                drawn.append(charts.bars("wins-by-side", f"{summary.game_name}: how often each side wins",
                                         [(side, count, summary.plays, f"{count} of {summary.plays}")
                                          for side, count in summary.sides.most_common()]))
        return drawn
    if games:
        drawn.append(charts.bars("plays-by-game", "Plays by game",
                                 [(summary.game_name, summary.plays, None,
                                   f"{summary.plays} play{'s' if summary.plays != 1 else ''}") for summary in games]))
    return drawn


# ---- exports ----------------------------------------------------------------------------------------------------


def _visible_plays() -> tuple[list[Play], names.People]:
    reader = access.reader()
    people = names.People()
    return queries.plays(reader, queries.filters(request.args), people), people


@bp.get("/export.json")
def export_json():
    found, people = _visible_plays()
    return _download(_json(exports.history_json(found, people)), "nightshift-history.json", "application/json")


@bp.get("/export.csv")
def export_csv():
    found, people = _visible_plays()
    return _download(exports.csv_text(found, people), "nightshift-history.csv", "text/csv")


@bp.get("/export.bgstats.json")
def export_bgstats():
    found, people = _visible_plays()
    return _download(_json([exports.bgstats_play(play, people) for play in exports.paced(found)]),
                     "nightshift-bgstats.json",
                     "application/json")


@bp.get("/export.bgg.xml")
def export_bgg():
    found, people = _visible_plays()
    return _download(exports.bgg_plays(found, people), "nightshift-bgg-plays.xml", "application/xml")


@bp.get("/plays/<uid>/play.json")
def play_json(uid: str):
    play = queries.one_play(access.reader(), uid)
    return _download(_json(exports.history_json([play], names.People())), f"nightshift-play-{uid}.json",
                     "application/json")


@bp.get("/plays/<uid>/play.csv")
def play_csv(uid: str):
    play = queries.one_play(access.reader(), uid)
    return _download(exports.csv_text([play], names.People()), f"nightshift-play-{uid}.csv", "text/csv")


@bp.get("/plays/<uid>/bgstats.json")
def play_bgstats(uid: str):
    play = queries.one_play(access.reader(), uid)
    return _download(_json(exports.bgstats_play(play, names.People())), f"nightshift-bgstats-{uid}.json",
                     "application/json")


@bp.get("/plays/<uid>/bgg.xml")
def play_bgg(uid: str):
    play = queries.one_play(access.reader(), uid)
    return _download(exports.bgg_plays([play], names.People()), f"nightshift-bgg-play-{uid}.xml", "application/xml")


# ---- the host machine: import and merges ------------------------------------------------------------------------


@bp.post("/import")
def import_history():
    """Bring back a history exported from Night Shift (a new machine, a restored backup); plays already here are
    skipped, so importing twice adds nothing. CSRF is checked here, once the larger size limit is in force."""
    request.max_content_length = exports.IMPORT_MAX_BYTES
    try:
        token, upload = request.form.get("csrf_token"), request.files.get("file")
    except RequestEntityTooLarge:
        raise TooLarge(f"That file is over {exports.IMPORT_MAX_BYTES // (1024 * 1024)} MB, more than any Night Shift "
                       "history export; nothing was imported.") from None
    try:
        validate_csrf(token)
    except ValidationError as error:
        raise CSRFError(str(error)) from None
    access.host_only(access.reader())
    if upload is None or not upload.filename:
        raise BadRequest("Choose the history file to import (nightshift-history.json).")
    added, skipped = exports.import_history(upload.read(exports.IMPORT_MAX_BYTES + 1))
    flash(f"Imported {added} play{'s' if added != 1 else ''}"
          + (f"; {skipped} {'was' if skipped == 1 else 'were'} already here." if skipped else "."))
    return redirect(url_for("history.index"), code=303)


@bp.get("/people")
def people_page():
    """Every name in the history and the merges in force, for the host to merge two spellings of one person."""
    reader = access.reader()
    access.host_only(reader)
    people = names.People()
    every = queries.stat_plays(reader)
    spellings: dict[str, tuple[set[str], int]] = {}  # a name's key -> (its spellings, plays)
    for play in every:
        for seat in play["players"]:
            if seat["name"]:
                typed, count = spellings.get(names.key(seat["name"]), (set(), 0))
                spellings[names.key(seat["name"])] = (typed | {seat["name"]}, count + 1)
    listed = sorted(((", ".join(sorted(typed)), min(typed), count,
                      people.person(min(typed)) if people.person_key(min(typed)) != names.key(min(typed)) else None)
                     for typed, count in spellings.values()), key=lambda item: item[0].casefold())
    return render_template("history/people.html", spellings=listed,
                           merges=names.merges(), people=people, reader=reader)


@bp.post("/people/merge")
def merge():
    access.host_only(access.reader())
    source, person = names.merge(request.form.get("name"), request.form.get("into"))
    flash(f"From now on, every play of “{source}” counts as {person}'s.")
    return redirect(url_for("history.people_page"), code=303)


@bp.post("/people/unmerge")
def unmerge():
    access.host_only(access.reader())
    name = names.unmerge(request.form.get("name"))
    flash(f"“{name}” counts as a person of their own again.")
    return redirect(url_for("history.people_page"), code=303)
