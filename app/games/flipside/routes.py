"""Flipside's own pages: the keyword glossary and the deck-list checker (a page with a form, and JSON for scripts)."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request

from ...errors import BadRequest, NightShiftError
from ...reading import quoted
from .. import REGISTRY
from ..pages import game_blueprint
from . import deck_list, keywords

bp = game_blueprint("flipside")
api_bp = Blueprint("flipside_api", __name__, url_prefix="/api/flipside")

SPEC = REGISTRY["flipside"]
BODY_LIMIT = 32 * 1024  # room for the longest list we accept, in the form's URL encoding or JSON escaping


class TooLarge(NightShiftError):
    status = 413
    title = "That is more than a deck list"


def _check_size() -> None:
    """Refuse a body far bigger than any deck list before reading it."""
    if request.content_length is not None and request.content_length > BODY_LIMIT:
        raise TooLarge(f"A deck list can be at most {deck_list.MAX_CHARACTERS:,} characters; that request has "
                       f"{request.content_length:,} bytes. Paste one deck at a time.")


def _checked(text: str, white: object) -> dict:
    try:
        return deck_list.check(text, white)
    except deck_list.DeckListTooLong as error:
        raise TooLarge(str(error)) from None
    except deck_list.UnknownReading as error:
        raise BadRequest(str(error)) from None


def _white(value: object) -> str:
    """The reading of White's copy limit: a table's link or the form names it; else the option's default."""
    try:
        return deck_list.white_reading(value if value != "" else None)
    except deck_list.UnknownReading as error:
        raise BadRequest(str(error)) from None


@bp.get("/keywords")
def glossary():
    """Every keyword of the rulebook; `?q=` narrows the list on the server, so the phone needs no script."""
    query = request.args.get("q", "")[: keywords.QUERY_LENGTH].strip()
    found = keywords.search(query)
    return render_template("flipside/glossary.html", spec=SPEC, query=query, found=found,
                           total=len(keywords.KEYWORDS), back=_back())


@bp.route("/deck", methods=["GET", "POST"])
def deck_check():
    """Paste a list; see exactly which line breaks which deck-building rule, under the White reading in force."""
    result, text = None, ""
    white = _white(request.args.get("white"))
    if request.method == "POST":
        _check_size()
        text = request.form.get("list", "")
        white = _white(request.form.get("white", white))
        result = _checked(text, white)
    status = 200 if result is None or result["ok"] else 422
    return render_template("flipside/deck_check.html", spec=SPEC, text=text, result=result, white=white,
                           reading=deck_list.WHITE, limits=deck_list, back=_back()), status


@api_bp.post("/deck")
def deck_check_json():
    """{"list": "3 Toy Chica [Yellow]\\n...", "white": "free"} -> {"ok", "cards", "colours", "white", "reading",
    "problems": [{"line", "message"}]}."""
    _check_size()
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest('Send a JSON object like {"list": "3 Toy Chica [Yellow]"} with Content-Type: '
                         "application/json.")
    unknown = sorted(str(key) for key in body if key not in ("list", "white"))
    if unknown:
        raise BadRequest(f"Unknown field {quoted(unknown[0])}; send 'list' and, if you like, 'white'.")
    if not isinstance(body.get("list"), str):
        raise BadRequest("'list' must be the deck list as text, one card per line like '3 Toy Chica [Yellow]'.")
    return jsonify(_checked(body["list"], body.get("white")))


def _back() -> str | None:
    """Where 'back to the table' goes: a table page on this site that linked here, if any."""
    back = request.args.get("from", "")
    if back.startswith("/t/") and len(back) <= 40 and all(char.isalnum() or char in "/-" for char in back):
        return back
    return None
