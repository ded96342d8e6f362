"""Camp Crystal Lake's own pages: the drop-off calculator (page and JSON) and the host's saved Camp Bag count."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, make_response, redirect, render_template, request, url_for

from ...errors import BadRequest, Invalid, NotFound
from ...inputs import idempotency_key
from ...reading import NotAWholeNumber, quoted, whole_number, whole_or_none
from ...tables import public as tables
from .. import REGISTRY
from ..pages import game_blueprint
from . import rules
from .scoring import FIVE_TYPES_BONUS, SIX_TYPES_BONUS, SUPPLIES, VALUES, ScoringError, name, score

bp = game_blueprint("crystal_lake")
api_bp = Blueprint("crystal_lake_api", __name__, url_prefix="/api/crystal-lake")

SLUG = "crystal-lake"
BAG_COOKIE = "crystal_lake_bag"
BAG_COOKIE_DAYS = 365  # "counted once from the box, saved for reuse": a year on this browser
CALCULATOR_KEYS = frozenset({"supplies", "bonus"})


def _whole(raw: str, label: str) -> int:
    """A count typed into a form: empty is 0; anything but a whole number from 0 is refused with a sentence."""
    text = raw.strip()
    if text == "":
        return 0
    try:
        return whole_number(text, minimum=None, maximum=999_999)
    except NotAWholeNumber:
        raise BadRequest(f"Type how many {label} as a whole number, like 3.") from None


def _table_code(raw: str) -> str:
    """The table a calculator was opened from, for its way back; anything that isn't a table code is dropped."""
    return raw.upper() if raw.isalnum() and len(raw) <= 8 else ""


@bp.app_template_global("crystal_lake_saved_bag")
def saved_bag() -> dict[str, int] | None:
    """The Camp Bag count this browser saved last time, to pre-fill the host's form; None if there is none."""
    raw = request.cookies.get(BAG_COOKIE, "")
    parts = raw.split(".")
    counts = [whole_or_none(part, maximum=999) for part in parts]
    if len(parts) != len(rules.TOKENS) or None in counts:
        return None
    return dict(zip(rules.TOKENS, counts, strict=True))


# ---- the calculator: anyone, no table ------------------------------------------------------------------------------

@bp.route("/score", methods=["GET", "POST"])
def calculator():
    """Score a drop-off without a table: a phone-sized form; the result reads line by line."""
    values: dict[str, Any] = {supply: "" for supply in SUPPLIES}
    result, error, bonus = None, None, ""
    if request.method == "POST":
        values = {supply: request.form.get(supply, "") for supply in SUPPLIES}
        bonus = request.form.get("bonus", "")
        try:
            counts = {supply: _whole(values[supply], name(supply, 2)) for supply in SUPPLIES}
            result = score(counts, bonus=bonus or None)
        except (ScoringError, BadRequest) as problem:
            error = str(problem)
    status = 422 if error else 200
    return render_template("crystal_lake/calculator.html", spec=REGISTRY[SLUG], values=values,
                           result=result, error=error, bonus=bonus, names=[(s, name(s, 2)) for s in SUPPLIES],
                           back=_table_code(request.args.get("t", "")), five=FIVE_TYPES_BONUS, six=SIX_TYPES_BONUS,
                           board_values=[(s, name(s, 2), name(s), VALUES[s]) for s in SUPPLIES]), status


@api_bp.post("/score")
def calculator_api():
    """`{"supplies": {"pan": 3, "cleaver": 2}, "bonus": optional key}` -> points, the bonus used and the breakdown."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise BadRequest('Send a JSON object like {"supplies": {"pan": 3, "cleaver": 2}}.')
    unknown = sorted(str(key) for key in body if key not in CALCULATOR_KEYS)
    if unknown:
        raise Invalid(f"{quoted(unknown[0], 30)} isn't part of a drop-off; send 'supplies' and, to pick a bonus, "
                      "'bonus'.")
    if "supplies" not in body:
        raise Invalid('Say what is dropped off: {"supplies": {"pan": 3, "cleaver": 2}}.')
    bonus = body.get("bonus")
    if bonus is not None and not isinstance(bonus, str):
        raise Invalid("Name the bonus by its key, like 'three:pan:cleaver', or leave it out for the best one.")
    try:
        result = score(body["supplies"], bonus=bonus)
    except ScoringError as error:
        raise Invalid(str(error)) from None
    return jsonify({"points": result["points"], "bonus": result["bonus"], "breakdown": result["breakdown"],
                    "bonuses": result["bonuses"], "supplies": result["counts"]})


# ---- the host's Camp Bag count, saved on this browser for the next game --------------------------------------------

@bp.post("/t/<code>/bag")
def count_bag(code: str):
    """Record the box's token count at this table (the one write path) and remember it in a long-lived cookie."""
    table = tables.find_table(code)
    if table.game != SLUG:  # another game's table: its rules must never see a Camp Bag count
        raise NotFound(f"Table {table.code} isn't a Camp Crystal Lake table, so it has no Camp Bag to count.")
    visitor, _ = tables.request_visitor(table)
    tables.check_host(visitor)
    action: dict[str, Any] = {"type": "bag"}
    for token in rules.TOKENS:
        label = "Jason tokens" if token == "jason" else name(token, 2)
        action[token] = _whole(request.form.get(token, ""), label)
    tables.apply_action(table, visitor, action, key=idempotency_key())
    if request.htmx:
        response = make_response(tables.render_live(table, visitor, None))
    else:
        response = redirect(url_for("tables.host_screen", code=table.code), code=303)
    response.set_cookie(BAG_COOKIE, ".".join(str(action[token]) for token in rules.TOKENS),
                        max_age=BAG_COOKIE_DAYS * 24 * 3600, httponly=True, samesite="Lax", secure=request.is_secure)
    return response
