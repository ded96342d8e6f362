"""The generic tracker's rules: counters within their limits, a round counter and dice, for any game on the table.

Pure: no Flask, no SQLAlchemy. A tracker has no hidden information and never ends by itself; the host ends the table.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from ...dice import DiceError, parse
from ...reading import quoted
from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Choice, Count, Field, Move, Moves, Numbers, Text
from ..options import COUNTER_LIMIT  # how far a counter without a minimum or maximum may go

MAX_STEP = 10**6  # the most one adjustment may change a counter by
MAX_ROUND = 10**6
WHY_LENGTH = 40
SHARED = "shared"  # the one key of a shared counter's values; per-seat counters are keyed by seat number
ENDS_BY_ITSELF = False  # the host ends a tracker's table when the game on the cardboard is over

MOVES = Moves("tracker", example='{"type": "next-round"}',
              offer="isn't something you can do at this table; you can change or set a counter, start the next "
                    "round, or roll dice.")


def counter_key(name: str, taken: set[str]) -> str:
    """A short key for a counter's name ('Round score' -> 'round-score'), unique at this table."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    base = re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-") or "counter"
    key, number = base, 2
    while key in taken:
        key, number = f"{base}-{number}", number + 1
    return key


def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Round 1, every counter at its start value (values per seat number, or under 'shared'), the host's dice tray."""
    counters, taken = [], set()
    for definition in options["counters"]:
        key = counter_key(definition["name"], taken)
        taken.add(key)
        owners = [str(seat) for seat in seats] if definition["scope"] == "each" else [SHARED]
        counters.append({"key": key, "name": definition["name"], "scope": definition["scope"],
                         "min": definition["min"], "max": definition["max"],
                         "values": {owner: definition["start"] for owner in owners}})
    return {"round": 1, "seats": list(seats), "counters": counters, "tray": list(options["dice"]), "last_roll": None}


# ---- reading a counter --------------------------------------------------------------------------------------------

def counter_of(state: dict[str, Any], move: Mapping[str, Any]) -> dict[str, Any]:
    return next(counter for counter in state["counters"] if counter["key"] == move["counter"])


def _owner(state: dict[str, Any], move: Mapping[str, Any]) -> str | None:
    """Whose value of the move's counter changes ('shared' or a seat number), or None while that is still unsaid."""
    counter = counter_of(state, move)
    if counter["scope"] == "shared":
        return SHARED
    whose = move.get("whose") if move.get("whose") is not None else move.get("seat")
    return str(whose) if whose is not None else None


def _limits(counter: dict[str, Any]) -> tuple[int, int]:
    low = counter["min"] if counter["min"] is not None else -COUNTER_LIMIT
    high = counter["max"] if counter["max"] is not None else COUNTER_LIMIT
    return low, high


def _label(move: Mapping[str, Any]) -> str:
    """'Health' on a player's own phone and for a shared counter; "Player 2's Health" when the host names a seat."""
    whose, name = move.get("whose"), move["name"]
    return name if whose is None or whose == move.get("seat") else f"Player {whose}'s {name}"


def _now(state: dict[str, Any], move: Mapping[str, Any]) -> int | None:
    owner = _owner(state, move)
    return counter_of(state, move)["values"].get(owner) if owner is not None else None


def _step_bound(which: str):
    """How far an adjustment may go from the counter's value now: its limit, and MAX_STEP at a time."""
    def bound(state: dict[str, Any], move: Mapping[str, Any]) -> int | None:
        now = _now(state, move)
        if now is None:
            return None
        low, high = _limits(counter_of(state, move))
        return max(-MAX_STEP, low - now) if which == "low" else min(MAX_STEP, high - now)
    return bound


def _value_bound(which: str):
    """A counter's own limits, once it is said whose value is set (else the handler asks whose first)."""
    def bound(state: dict[str, Any], move: Mapping[str, Any]) -> int | None:
        if _now(state, move) is None:
            return None
        return _limits(counter_of(state, move))[0 if which == "low" else 1]
    return bound


def _past_limit(which: str, adjusting: bool):
    """'Health can't go below 0; it is 2 now.', or 'Change Gold by at most 1,000,000 at a time.'"""
    def sentence(state: dict[str, Any], move: Mapping[str, Any], value: int) -> str:
        counter = counter_of(state, move)
        if adjusting and abs(value) > MAX_STEP:
            return f"Change {counter['name']} by at most {MAX_STEP:,} at a time."
        low, high = _limits(counter)
        label = _label({**move, "name": counter["name"]})
        limit = f"below {low:,}" if which == "low" else f"above {high:,}"
        return f"{label} can't go {limit}; it is {_now(state, move):,} now."
    return sentence


def _names(state: dict[str, Any]) -> str:
    return ", ".join(f"{counter['name']} ({counter['key']})" for counter in state["counters"])


COUNTER = Choice("counter", "the counter", lambda state, move: [counter["key"] for counter in state["counters"]],
                 ask="Say which counter to change.",
                 wrong=lambda state, move, value: f"There is no counter {quoted(move.get('counter'))} at this "
                                                  f"table; the counters are {_names(state)}.")


def _whose_field() -> Field:
    """A counter of one's own: a phone names only its own seat; the host names whose it is."""
    name = lambda state, move: counter_of(state, move)["name"]  # noqa: E731 - read where the sentence is said
    return Field("whose", "whose counter it is", "seat", optional=True, own=True,
                 wrong=lambda state, move, value: f"Say whose {name(state, move)} by seat number, like 2.",
                 unknown="There is no Player {value} at this table.",
                 not_yours=lambda state, move, value: f"You can change only your own {name(state, move)}; "
                                                      f"Player {value}'s is theirs to change.")


# ---- moves ----------------------------------------------------------------------------------------------------------

@MOVES.move("adjust", "Changing a counter", COUNTER, _whose_field(),
            Count("by", "the change", low=_step_bound("low"), high=_step_bound("high"),
                  ask="Say how much to change the counter by.",
                  wrong=lambda state, move, value: f"Change {counter_of(state, move)['name']} by a whole number, "
                                                   "like 1 or -3.",
                  too_low=_past_limit("low", True), too_high=_past_limit("high", True)), label="Change")
def adjust(state: dict[str, Any], move: Move, rng: Any):
    """A counter goes up or down by a step, within its limits."""
    counter, owner = _whose(state, move)
    if move["by"] == 0:
        raise IllegalAction(f"Changing {counter['name']} by 0 changes nothing.")
    return _set(state, move, counter, owner, counter["values"][owner] + move["by"])


@MOVES.move("set", "Setting a counter", COUNTER, _whose_field(),
            Count("value", "the new value", low=_value_bound("low"), high=_value_bound("high"),
                  ask="Say what number to set the counter to.",
                  wrong=lambda state, move, value: f"Set {counter_of(state, move)['name']} to a whole number.",
                  too_low=_past_limit("low", False), too_high=_past_limit("high", False)),
            label="Set", correction=True)
def set_counter(state: dict[str, Any], move: Move, rng: Any):
    """A counter set to what the cardboard shows."""
    counter, owner = _whose(state, move)
    if move["value"] == counter["values"][owner]:
        raise IllegalAction(f"{_label({**move, 'name': counter['name']})} is already {move['value']}.")
    return _set(state, move, counter, owner, move["value"])


def _whose(state: dict[str, Any], move: Move) -> tuple[dict[str, Any], str]:
    """The counter and whose value of it changes, after the own-counter rule."""
    counter = counter_of(state, move)
    if counter["scope"] == "shared":
        if move["whose"] is not None:
            raise IllegalAction(f"{counter['name']} is shared by the whole table; leave out whose it is.")
        return counter, SHARED
    owner = _owner(state, move)
    if owner is None:
        raise IllegalAction(f"Say whose {counter['name']} to change: each player has their own.")
    return counter, owner


def _set(state: dict[str, Any], move: Move, counter: dict[str, Any], owner: str, new: int):
    old = counter["values"][owner]
    label = _label({**move, "name": counter["name"]})
    after = copied(state)
    counter_of(after, move)["values"][owner] = new
    if move.type == "set":
        return after, [Event(f"set {label} to {new} (was {old})")]
    delta = f"+{new - old}" if new > old else f"\u2212{old - new}"
    return after, [Event(f"{label} {old} \u2192 {new} ({delta})")]


@MOVES.move("next-round", "Starting the next round", label="Next round")
def next_round(state: dict[str, Any], move: Move, rng: Any):
    """The round counter goes up by one."""
    if state["round"] >= MAX_ROUND:
        raise IllegalAction(f"This table counts rounds up to {MAX_ROUND:,}.")
    after = copied(state)
    after["round"] += 1
    return after, [Event(f"Round {after['round']} begins.")]


@MOVES.move("roll", "Rolling dice",
            Text("dice", "the dice", length=100, picked=True, ask="Say which dice to roll, like d20 or 2d6+1.",
                 wrong="Dice must be written as text, like d20 or 2d6+1.", help="2d6+1, 4d6kh3, d{0,5,10}"),
            Text("why", "the reason for a roll", length=WHY_LENGTH, optional=True, default="", picked=True,
                 help="what the roll is for (optional)"),
            Numbers("values", "what the real dice showed", optional=True, picked=True,
                    help="leave empty to let the app roll"), label="Roll")
def roll(state: dict[str, Any], move: Move, rng: Any):
    """The app rolls from the table's seed, or checks and logs what real dice showed."""
    why, values = move["why"], move["values"]
    try:
        dice = parse(move["dice"])
        rolled = rng.roll(dice, why) if values is None else rng.physical(dice, values, why)
    except DiceError as error:
        raise IllegalAction(str(error)) from None
    source = "app" if values is None else "physical"
    after = copied(state)
    after["last_roll"] = {"dice": dice.text, "values": [list(group) for group in rolled.values],
                          "total": rolled.total, "text": rolled.describe(), "why": why, "seat": move.actor,
                          "source": source}
    reason = f" for {why}" if why else ""
    verb = "rolled" if source == "app" else "entered a real"
    return after, [Event(f"{verb} {dice.text}{reason}: {rolled.describe()}")]


apply = MOVES.apply


def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """Complete moves: a step of 1 (or -1 at the top) and a set to a neighbouring value for each counter this seat may
    change, the next round, and each die of the tray."""
    if seat is not None and seat not in state["seats"]:
        return []
    actions: list[dict[str, Any]] = []
    for counter in state["counters"]:
        if counter["scope"] == "shared":
            owners: list[int | None] = [None]
        else:
            owners = [seat] if seat is not None else list(state["seats"])
        low, high = _limits(counter)
        for owner in owners:
            now = counter["values"][SHARED if owner is None else str(owner)]
            if low == high:
                continue
            step = 1 if now < high else -1
            mine = {"whose": owner} if owner is not None else {}
            actions.append({"type": "adjust", "counter": counter["key"], **mine, "by": step})
            actions.append({"type": "set", "counter": counter["key"], **mine, "value": now + step})
    if state["round"] < MAX_ROUND:
        actions.append({"type": "next-round"})
    actions.extend({"type": "roll", "dice": dice} for dice in state["tray"])
    return actions


def invariants(state: dict[str, Any]) -> list[str]:
    """What the table set up guarantees at every step: every counter within its own limits, the round from 1."""
    checks = [(1 <= state["round"] <= MAX_ROUND, f"Round {state['round']} is outside 1 to {MAX_ROUND:,}.")]
    for counter in state["counters"]:
        low, high = _limits(counter)
        checks += [(low <= value <= high, f"{counter['name']} is {value:,}, outside {low:,} to {high:,}.")
                   for value in counter["values"].values()]
    return broken(checks)


def outcome(state: dict[str, Any]) -> Outcome | None:
    """A tracker never ends by itself: the host ends the table when the game on the cardboard is over."""
    return None


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything (nothing is hidden), plus `me`: a seat's own counters, for the top of its phone."""
    shown = copied(state)
    shown["me"] = None
    if viewer.seat in state["seats"]:
        shown["me"] = {"counters": [{"key": counter["key"], "name": counter["name"], "min": counter["min"],
                                     "max": counter["max"], "value": counter["values"][str(viewer.seat)]}
                                    for counter in state["counters"] if counter["scope"] == "each"]}
    moves = legal_actions(state, viewer.seat) if viewer.moves else []
    return shown | seen(viewer, moves=moves, turn=[], turn_text=f"Round {state['round']}")


_COUNTER_SCHEMA = {"type": "object", "required": ["key", "name", "min", "max"],
                   "properties": {"key": {"type": "string"}, "name": {"type": "string"},
                                  "min": {"type": ["integer", "null"]}, "max": {"type": ["integer", "null"]}}}
VIEW_SCHEMA = {
    "type": "object",
    "required": ["round", "seats", "counters", "tray", "last_roll", "me"],
    "properties": {
        "round": {"type": "integer", "minimum": 1},
        "seats": {"type": "array", "items": {"type": "integer"}},
        "counters": {"type": "array", "items": _COUNTER_SCHEMA | {
            "required": [*_COUNTER_SCHEMA["required"], "scope", "values"],
            "properties": _COUNTER_SCHEMA["properties"] | {
                "scope": {"enum": ["each", "shared"]},
                "values": {"type": "object", "additionalProperties": {"type": "integer"}}}}},
        "tray": {"type": "array", "items": {"type": "string"}},
        "last_roll": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["dice", "total", "text", "seat"]}]},
        "me": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["counters"], "properties": {
            "counters": {"type": "array", "items": _COUNTER_SCHEMA | {
                "required": [*_COUNTER_SCHEMA["required"], "value"]}}}}]},
    },
}


def figures(state: dict[str, Any]) -> dict[str, Any]:
    """For the history: each seat's own counters and the shared ones as they ended; a tracker keeps no score of its
    own (the contract's optional `figures`; reads only the state)."""
    seats = {str(seat): {"score": None, "status": None, "records": {},
                         "details": [[counter["name"], counter["values"][str(seat)]] for counter in state["counters"]
                                     if counter["scope"] == "each"]}
             for seat in state["seats"]}
    shared = [[counter["name"], counter["values"]["shared"]] for counter in state["counters"]
              if counter["scope"] != "each"]
    return {"score": None, "side": None, "scenario": None, "seats": seats,
            "facts": [["Round", state["round"]], *shared]}
