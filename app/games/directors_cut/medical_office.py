"""The Medical Office: from The Fourth Night, guards in the office bring one dead guard back, once a night.

Pure: checks a revive against tonight's rule card and returns a changed copy; never touches the input state.
"""

from __future__ import annotations

import copy
from typing import Any

from ..contract import Event, IllegalAction
from .nights import night_of
from .story import guard_name, question

COUNTS = {1: "ONE guard", 2: "TWO guards", 3: "THREE guards"}  # the rule card's own capitals


def _alive(state: dict[str, Any]) -> list[int]:
    return [int(seat) for seat, status in state["guards"].items() if status == "alive"]


def revive(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """'If ONE player enters the Medical Office, a dead player can be revived and moved to default location.'"""
    tonight = night_of(state["night"])
    if not tonight.revive_needs:
        raise IllegalAction(f"There is no Medical Office revive on {tonight.label}; it starts on The Fourth Night.")
    if state["revive_used"]:
        raise IllegalAction("The Medical Office revive has already been used tonight: it works only once a night.")
    if state["ask"]["kind"] == "attack":
        raise IllegalAction(f"Finish the attack first: {question(state, state['ask'])}")
    guard, office = action["guard"], action["office"]
    if isinstance(guard, bool) or not isinstance(guard, int) or str(guard) not in state["guards"]:
        raise IllegalAction("Name the dead guard to revive by seat number, like 2.")
    status = state["guards"][str(guard)]
    if status == "eliminated":
        raise IllegalAction(f"{guard_name(guard)} was eliminated by Golden Freddy and cannot be revived.")
    if status == "alive":
        raise IllegalAction(f"{guard_name(guard)} is alive; only a dead guard can be revived.")
    if not isinstance(office, list) or any(isinstance(seat, bool) or not isinstance(seat, int) for seat in office):
        raise IllegalAction("Name the guards in the Medical Office by seat number, like [1, 3].")
    if len(set(office)) != len(office):
        raise IllegalAction("Name each guard in the Medical Office once.")
    for seat in office:
        if str(seat) not in state["guards"] or state["guards"][str(seat)] != "alive":
            name = guard_name(seat) if str(seat) in state["guards"] else f"Seat {seat}"
            raise IllegalAction(f"{name} isn't a living guard, so they can't be in the Medical Office.")
    needs = tonight.revive_needs
    if len(office) < needs:
        count = COUNTS[needs]
        raise IllegalAction(f"On {tonight.label} the revive needs {count} in the Medical Office; "
                            f"you named {len(office)}.")
    if actor is not None and actor not in office:
        raise IllegalAction("Only a guard in the Medical Office (or the host) can call the revive.")
    after = copy.deepcopy(state)
    after["guards"][str(guard)] = "alive"
    after["revive_used"] = True
    names = " and ".join(guard_name(seat) for seat in sorted(office))
    return after, [Event(f"{names} in the Medical Office revive {guard_name(guard)}, who goes back to the start.")]


def revive_options(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every (dead guard, guards in the office) a revive could name now: exactly as many guards as tonight needs."""
    needs = night_of(state["night"]).revive_needs
    ask = state["ask"]
    if not needs or state["revive_used"] or ask is None or ask["kind"] == "attack":
        return []
    dead = [int(seat) for seat, status in state["guards"].items() if status == "dead"]
    alive = _alive(state)
    return [{"guard": guard, "office": list(group)} for guard in dead for group in _groups(alive, needs)]


def _groups(items: list[int], size: int) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    return [(first, *rest) for index, first in enumerate(items) for rest in _groups(items[index + 1:], size - 1)]
