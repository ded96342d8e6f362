"""The TV boards' test tables: what each game's board names (data-board) and a script to mid-game and to its end,
shared by the Flask tests (tests/tables/test_board.py) and the browser's (tests/browser/test_board.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from app.games import REGISTRY

GAMES = Path(__file__).resolve().parent.parent / "app" / "games"

# The parts issue 15 names for each board (point 3); a board not listed here must name at least one part.
NAMED = {
    "tracker": {"round", "counter", "roll", "per-seat"},
    "directors-cut": {"night", "full-turn", "whose-move", "rolls", "alive"},
    "night-of-frights": {"turn", "action-tokens", "scare-tracker", "last-capture"},
    "flipside": {"player", "health", "power", "remnant", "deck"},
    "crystal-lake": {"night-track", "cabin", "scoreboard"},
    "survive-6am": {"clock", "dial", "cameras"},
}


def _dc_end() -> list[dict]:
    """From full turn 2: Bonnie sees Guards 2, 3 and 4 in turn and each one's die comes up odd: the animatronics win."""
    moves = [{"type": "roll", "values": [5], "seat": 2}, {"type": "roll", "values": [2], "seat": 3},
             {"type": "roll", "values": [7]}, {"type": "roll", "values": [7]}]
    for guard in (2, 3, 4):
        moves += [{"type": "answer", "guard": guard},
                  {"type": "roll", "values": [1]} | ({"seat": guard} if guard < 4 else {})]
    return moves


# Per game: the options, the players who sit down (one seat stays free, so the QR code is on the board), the moves to
# mid-game and then on to the end (host moves; "seat" plays for that player). Real dice: the same game every time.
SCRIPTS = {
    "tracker": {
        "options": {"players": 3, "counters": "Health, each, 0, 20, 20\nDoom, shared, 0, 20, 0"},
        "players": ["Ann", "Bo"],
        "mid": [{"type": "adjust", "counter": "doom", "by": 3, "seat": 1}, {"type": "next-round", "seat": 1},
                {"type": "adjust", "counter": "health", "by": -4, "seat": 2},
                {"type": "roll", "dice": "2d6", "values": [3, 5], "why": "the basement", "seat": 1}],
        "end": None,  # the host ends it
    },
    "directors-cut": {
        "options": {"guards": 4, "night": "second", "rolling": "tap"},  # each roll entered as the real die showed
        "players": ["Ann", "Bo", "Cy"],
        # Four guards move (the host rolls for the free seat); Bonnie spots Ann, who dies; Chica meets nobody;
        # Foxy and Golden Freddy miss.
        "mid": [{"type": "roll", "values": [4], "seat": 1}, {"type": "roll", "values": [6], "seat": 2},
                {"type": "roll", "values": [3], "seat": 3}, {"type": "roll", "values": [5]},
                {"type": "roll", "values": [7]}, {"type": "answer", "guard": 1},
                {"type": "roll", "values": [1], "seat": 1}, {"type": "answer", "choice": "nobody"},
                {"type": "roll", "values": [2]}, {"type": "answer", "choice": "nobody"},
                {"type": "roll", "values": [5]}, {"type": "roll", "values": [3]}],
        "end": _dc_end(),
    },
    "night-of-frights": {
        "options": {"characters": ["Freddy", "Bonnie", "Chica", "Foxy"]},
        "players": ["Ann", "Bo", "Cy"],
        "mid": [{"type": "first-player", "whose": 1}, {"type": "place-items", "seat": 1},
                {"type": "spend", "steps": 3, "seat": 1}, {"type": "capture", "room": 2, "event": "guard", "seat": 1},
                {"type": "draw", "guards": 0, "seat": 1}, {"type": "end-turn", "seat": 1},
                {"type": "place-items", "seat": 2}, {"type": "take-action", "what": "move", "seat": 2},
                {"type": "spend", "steps": 2, "seat": 2}],
        # Bonnie tries from space 2 and the real bag gives a Guard: Bonnie wins.
        "end": [{"type": "capture", "room": 1, "event": "miss", "seat": 2}, {"type": "draw", "guards": 1, "seat": 2}],
    },
    "flipside": {
        "options": {"players": 4},
        "players": ["Ann", "Bo", "Cy"],
        "mid": [*({"type": "redraw", "whose": seat, "count": 0} for seat in (1, 2, 3, 4)), {"type": "start"},
                {"type": "next-phase"}, {"type": "next-phase"}, {"type": "next-phase"},
                {"type": "lose-health", "whose": 2, "amount": 4}, {"type": "discard", "whose": 1, "amount": 2},
                {"type": "attack", "target": 2, "atk": 3, "def": 2, "seat": 1},
                {"type": "block", "blockers": [{"atk": 1, "def": 2}], "seat": 2}],
        # Three players lose all their Health: Ann is the last one standing.
        "end": [{"type": "lose-health", "whose": 2, "amount": 16},
                *({"type": "lose-health", "whose": seat, "amount": 20} for seat in (3, 4))],
    },
}


def has_board(slug: str) -> bool:
    """Whether the game has a board of its own (else the TV shows the generic one)."""
    package = REGISTRY[slug].package
    return (GAMES / package / "templates" / package / "_board.html").is_file()


Call = Callable[..., dict]  # call(path, body=None, token=None): the JSON API, raising on a refusal


def offered_moves(call: Call, table: dict, steps: int) -> int:
    """A few times, the first move offered to whoever the game waits for (the host if it waits for nobody seated);
    a game without a script gets to mid-game this way. How many were made before none was offered."""
    for made in range(steps):
        state = call(f"/api/tables/{table['code']}", token=table["host_token"])
        turn = state["view"].get("turn")  # the shared shape ({"seats": [...], "text": ...}) once a game declares it
        waited = [seat for seat in (turn.get("seats", []) if isinstance(turn, dict) else []) if seat in table["tokens"]]
        token = table["tokens"][waited[0]] if waited else table["host_token"]
        offers = call(f"/api/tables/{table['code']}", token=token)["view"].get("moves") or []
        if not offers:
            return made
        call(f"/api/tables/{table['code']}/actions", offers[0], token)
    return steps


def set_up(call: Call, slug: str, phase: str, surname: str = "") -> dict:
    """A table of `slug` at the `phase` its board is checked in, with one seat still free: "start" (everyone just
    sat down), "mid" (the script's moves to mid-game) or "finished" (on to the end; the host ends it if no script
    does). Moves go from the host token: for a seated player when they name `seat`, as the host otherwise. A
    `surname` makes every name long (a name may have 24 characters): the board must still show it whole."""
    script = SCRIPTS.get(slug, {"options": {}, "players": None, "mid": None, "end": None})
    table = call("/api/tables", {"game": slug, "options": script["options"]})
    names = script["players"] or ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"][:max(1, len(table["seats"]) - 1)]
    table["tokens"] = {}
    for name in names:
        seated = call(f"/api/tables/{table['code']}/join", {"name": f"{name} {surname}".strip()[:24],
                                                             "key": table["join_key"]})
        table["tokens"][seated["seat"]] = seated["seat_token"]
    if phase == "start":
        return table
    if script["mid"] is None:
        offered_moves(call, table, 6)
    for action in [*(script["mid"] or []), *((script["end"] or []) if phase == "finished" else [])]:
        call(f"/api/tables/{table['code']}/actions", action, table["host_token"])
    if phase == "finished" and call(f"/api/tables/{table['code']}", token=table["host_token"])["outcome"] is None:
        call(f"/api/tables/{table['code']}/end", {}, table["host_token"])
    return table
