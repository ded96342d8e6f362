"""The generic tracker's rules: counters within their limits, a round counter and dice, for any game on the table.

Pure: no Flask, no SQLAlchemy. A tracker has no hidden information and never ends by itself; the host ends the table.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from typing import Any

from ...dice import DiceError, parse
from ..contract import Event, IllegalAction, Outcome
from ..moves import check_move
from ..options import COUNTER_LIMIT  # how far a counter without a minimum or maximum may go

MAX_STEP = 10**6  # the most one adjustment may change a counter by
MAX_ROUND = 10**6
WHY_LENGTH = 40
SHARED = "shared"  # the one key of a shared counter's values; per-seat counters are keyed by seat number

# type -> (fields it needs, fields it may have), besides "type" and "seat"
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "adjust": (("counter", "by"), ("whose",)),
    "set": (("counter", "value"), ("whose",)),
    "next-round": ((), ()),
    "roll": (("dice",), ("why", "values")),
}
DOING = {"adjust": "Changing a counter", "set": "Setting a counter", "next-round": "Starting the next round",
         "roll": "Rolling dice"}
ASK = {"counter": "Say which counter to change.", "by": "Say how much to change the counter by.",
       "value": "Say what number to set the counter to.", "dice": "Say which dice to roll, like d20 or 2d6+1."}


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


def apply(state: dict[str, Any], action: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
    """Check the action completely, then return a changed copy of the state and what the log should say."""
    kind, actor = check_move(action, FIELDS, DOING, state["seats"], example='{"type": "next-round"}',
                             offer="isn't something you can do at this table; you can change or set a counter, "
                                   "start the next round, or roll dice.", missing=ASK)
    if kind in ("adjust", "set"):
        return _change_counter(state, action, actor)
    if kind == "next-round":
        return _next_round(state)
    return _roll(state, action, actor, rng)


def _counter(state: dict[str, Any], key: Any) -> dict[str, Any]:
    for counter in state["counters"]:
        if counter["key"] == key:
            return counter
    names = ", ".join(f"{counter['name']} ({counter['key']})" for counter in state["counters"])
    raise IllegalAction(f"There is no counter {str(key)[:40]!r} at this table; the counters are {names}.")


def _whose(state: dict[str, Any], counter: dict[str, Any], action: dict[str, Any], actor: int | None) -> int | None:
    """The seat whose counter changes (None for a shared one), after the own-counter rule."""
    whose = action.get("whose")
    name = counter["name"]
    if counter["scope"] == "shared":
        if whose is not None:
            raise IllegalAction(f"{name} is shared by the whole table; leave out whose it is.")
        return None
    if whose is None:
        if actor is None:
            raise IllegalAction(f"Say whose {name} to change: each player has their own.")
        return actor
    if isinstance(whose, bool) or not isinstance(whose, int):
        raise IllegalAction(f"Say whose {name} by seat number, like 2.")
    if whose not in state["seats"]:
        raise IllegalAction(f"There is no Player {whose} at this table.")
    if actor is not None and whose != actor:
        raise IllegalAction(f"You can change only your own {name}; Player {whose}'s is theirs to change.")
    return whose


def _change_counter(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    counter = _counter(state, action["counter"])
    whose = _whose(state, counter, action, actor)
    name = counter["name"]
    label = name if whose is None or whose == actor else f"Player {whose}'s {name}"
    owner = SHARED if whose is None else str(whose)
    old = counter["values"][owner]
    if action["type"] == "adjust":
        by = action["by"]
        if isinstance(by, bool) or not isinstance(by, int):
            raise IllegalAction(f"Change {name} by a whole number, like 1 or -3.")
        if by == 0:
            raise IllegalAction(f"Changing {name} by 0 changes nothing.")
        if abs(by) > MAX_STEP:
            raise IllegalAction(f"Change {name} by at most {MAX_STEP:,} at a time.")
        new = old + by
    else:
        new = action["value"]
        if isinstance(new, bool) or not isinstance(new, int):
            raise IllegalAction(f"Set {name} to a whole number.")
        if new == old:
            raise IllegalAction(f"{label} is already {old}.")
    low = counter["min"] if counter["min"] is not None else -COUNTER_LIMIT
    high = counter["max"] if counter["max"] is not None else COUNTER_LIMIT
    if new < low:
        raise IllegalAction(f"{label} can't go below {low:,}; it is {old:,} now.")
    if new > high:
        raise IllegalAction(f"{label} can't go above {high:,}; it is {old:,} now.")
    after = copy.deepcopy(state)
    _counter(after, counter["key"])["values"][owner] = new
    if action["type"] == "set":
        return after, [Event(f"set {label} to {new} (was {old})")]
    delta = f"+{new - old}" if new > old else f"\u2212{old - new}"
    return after, [Event(f"{label} {old} \u2192 {new} ({delta})")]


def _next_round(state: dict[str, Any]):
    if state["round"] >= MAX_ROUND:
        raise IllegalAction(f"This table counts rounds up to {MAX_ROUND:,}.")
    after = copy.deepcopy(state)
    after["round"] += 1
    return after, [Event(f"Round {after['round']} begins.")]


def _roll(state: dict[str, Any], action: dict[str, Any], actor: int | None, rng: Any):
    why = action.get("why")
    why = "" if why is None else why
    if not isinstance(why, str):
        raise IllegalAction("The reason for a roll must be text.")
    why = why.strip()
    if len(why) > WHY_LENGTH:
        raise IllegalAction(f"Keep the reason for a roll to {WHY_LENGTH} characters; that one has {len(why)}.")
    if not why.isprintable():
        raise IllegalAction("The reason for a roll must be one line of text.")
    values = action.get("values")
    try:
        dice = parse(action["dice"])
        roll = rng.roll(dice, why) if values is None else rng.physical(dice, values, why)
    except DiceError as error:
        raise IllegalAction(str(error)) from None
    source = "app" if values is None else "physical"
    after = copy.deepcopy(state)
    after["last_roll"] = {"dice": dice.text, "values": [list(group) for group in roll.values], "total": roll.total,
                          "text": roll.describe(), "why": why, "seat": actor, "source": source}
    reason = f" for {why}" if why else ""
    verb = "rolled" if source == "app" else "entered a real"
    return after, [Event(f"{verb} {dice.text}{reason}: {roll.describe()}")]


def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """What the UI offers this seat: change/set templates for the counters it may change, next round, the tray."""
    if seat is not None and seat not in state["seats"]:
        return []
    actions: list[dict[str, Any]] = []
    for counter in state["counters"]:
        if counter["scope"] == "shared":
            owners: list[int | None] = [None]
        else:
            owners = [seat] if seat is not None else list(state["seats"])
        for owner in owners:
            for kind in ("adjust", "set"):
                template = {"type": kind, "counter": counter["key"]}
                if owner is not None:
                    template["whose"] = owner
                actions.append(template)
    if state["round"] < MAX_ROUND:
        actions.append({"type": "next-round"})
    actions.extend({"type": "roll", "dice": dice} for dice in state["tray"])
    return actions


def outcome(state: dict[str, Any]) -> Outcome | None:
    """A tracker never ends by itself: the host ends the table when the game on the cardboard is over."""
    return None


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Everything (nothing is hidden), plus `mine`: this seat's own counters, for the top of their phone."""
    seen = copy.deepcopy(state)
    seen["mine"] = []
    if seat is not None and seat in state["seats"]:
        seen["mine"] = [{"key": counter["key"], "name": counter["name"], "value": counter["values"][str(seat)],
                         "min": counter["min"], "max": counter["max"]}
                        for counter in state["counters"] if counter["scope"] == "each"]
    return seen
