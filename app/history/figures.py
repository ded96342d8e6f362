"""Each player's figures at the end of a game, read from the game's own `figures(state)` or a generic fallback.

The shape is documented in app/games/contract.py. What a game returns is checked and trimmed here, so a game's
slip can never stop the move that ends it: a figure that doesn't fit is left out and the fallback fills in.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

LABEL_MAX = 40
TEXT_MAX = 80
DETAILS_MAX = 24
FACTS_MAX = 12
RECORDS_MAX = 6
TEAMS_MAX = 6
GAME_WIDE = ("score", "side", "scenario", "facts", "score_decides", "cooperative", "teams")  # kept on the play
NUMBER_LIMIT = 10**9


def _text(value: Any, limit: int = TEXT_MAX) -> str | None:
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())[:limit]
    return None


def _number(value: Any) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and -NUMBER_LIMIT < value < NUMBER_LIMIT:
        return value
    return None


def _value(value: Any) -> int | str | None:
    """A shown value: a whole number or a short text."""
    number = _number(value)
    return number if number is not None else _text(value)


def _pairs(raw: Any, limit: int) -> list[list]:
    pairs = []
    for item in raw if isinstance(raw, list | tuple) else []:
        if isinstance(item, list | tuple) and len(item) == 2:
            label, value = _text(item[0], LABEL_MAX), _value(item[1])
            if label is not None and value is not None:
                pairs.append([label, value])
    return pairs[:limit]


def _records(raw: Any) -> dict[str, int]:
    records = {}
    for label, value in (raw.items() if isinstance(raw, dict) else []):
        label, number = _text(label, LABEL_MAX), _number(value)
        if label is not None and number is not None:
            records[label] = number
    return dict(list(records.items())[:RECORDS_MAX])


def _teams(raw: Any, seats: list[int]) -> dict[str, list[int]]:
    """The sides seats played on ({"Guards": [1, 2], "Animatronics": [3]}), each seat on at most one."""
    teams: dict[str, list[int]] = {}
    placed: set[int] = set()
    for label, members in (raw.items() if isinstance(raw, dict) else []):
        label = _text(label, LABEL_MAX)
        if label is None or not isinstance(members, list | tuple):
            continue
        chosen = [seat for seat in members if _number(seat) in seats and seat not in placed]
        placed.update(chosen)
        if chosen:
            teams[label] = chosen
    return dict(list(teams.items())[:TEAMS_MAX])


def score_decided(said: bool | None, seats: list[tuple[bool, int | None]]) -> bool:
    """Whether a play's scores decided who won: what the game said (`score_decides`), else whether every winner
    scored at least as much as every other seat (a play from before the game said it, or imported)."""
    if said is not None:
        return said
    won = [score for winner, score in seats if winner and score is not None]
    lost = [score for winner, score in seats if not winner and score is not None]
    return not won or not lost or min(won) >= max(lost)


def duration_minutes(seconds: int) -> int:
    """A play's length in whole minutes as every page and export says it: 0 only for no time at all, else at least 1
    (an 18-second game is 1 minute everywhere)."""
    return 0 if seconds <= 0 else max(1, round(seconds / 60))


def empty_seat() -> dict[str, Any]:
    return {"score": None, "status": None, "details": [], "records": {}}


def clean(raw: Any, seats: list[int]) -> dict[str, Any]:
    """A game's figures in the documented shape, for exactly these seat numbers."""
    raw = raw if isinstance(raw, dict) else {}
    given = raw.get("seats") if isinstance(raw.get("seats"), dict) else {}
    cleaned = {}
    for number in seats:
        entry = given.get(str(number))
        entry = entry if isinstance(entry, dict) else {}
        cleaned[str(number)] = {"score": _number(entry.get("score")), "status": _text(entry.get("status")),
                                "details": _pairs(entry.get("details"), DETAILS_MAX),
                                "records": _records(entry.get("records"))}
    decides = raw.get("score_decides")
    return {"score": _text(raw.get("score"), LABEL_MAX), "side": _text(raw.get("side"), LABEL_MAX),
            "scenario": _text(raw.get("scenario"), LABEL_MAX), "facts": _pairs(raw.get("facts"), FACTS_MAX),
            "score_decides": decides if isinstance(decides, bool) else None,
            "cooperative": raw.get("cooperative") is True, "teams": _teams(raw.get("teams"), seats),
            "seats": cleaned}


def read(rules: Any, state: dict | None, seats: list[int]) -> dict[str, Any]:
    """The figures of `state` from the rules' `figures`, or nothing per seat for a game that has none."""
    function = getattr(rules, "figures", None)
    if callable(function) and state is not None:
        try:
            return clean(function(state), seats)
        except Exception:  # a game's bug must not cost the table its final move
            log.exception("figures() of %s failed; the play is kept without its figures", rules.__name__)
    return clean({}, seats)
