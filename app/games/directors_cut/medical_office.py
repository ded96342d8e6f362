"""The Medical Office: from The Fourth Night, guards in the office bring one dead guard back, once a night.

Pure: checks a revive against tonight's rule card and returns a changed copy; never touches the input state.
The move's declared fields (rules.py) have already checked that the guard is a seat and the office a list of numbers.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..contract import Event, IllegalAction, copied
from ..words import listing
from .nights import night_of
from .story import REVIVE_COUNTS, freddy_room_note, guard_name, question


def _alive(state: dict[str, Any]) -> list[int]:
    return [int(seat) for seat, status in state["guards"].items() if status == "alive"]


def revive(state: dict[str, Any], guard: int, office: list[int], actor: int | None):
    """'If ONE player enters the Medical Office, a dead player can be revived and moved to default location.'"""
    tonight = night_of(state["night"])
    if not tonight.revive_needs:
        raise IllegalAction(f"There is no Medical Office revive on {tonight.label}; it starts on The Fourth Night.")
    if state["revive_used"]:
        raise IllegalAction("The Medical Office revive has already been used tonight: it works only once a night.")
    if state["ask"]["kind"] == "attack":
        raise IllegalAction(f"Finish the attack first: {question(state, state['ask'])}")
    if str(guard) not in state["guards"]:
        raise IllegalAction("Name the dead guard to revive by seat number, like 2.")
    status = state["guards"][str(guard)]
    if status == "eliminated":
        raise IllegalAction(f"{guard_name(guard)} was eliminated by Golden Freddy and cannot be revived.")
    if status == "alive":
        raise IllegalAction(f"{guard_name(guard)} is alive; only a dead guard can be revived.")
    if len(set(office)) != len(office):
        raise IllegalAction("Name each guard in the Medical Office once.")
    for seat in office:
        if state["guards"].get(str(seat)) != "alive":
            name = guard_name(seat) if str(seat) in state["guards"] else f"Seat {seat}"
            raise IllegalAction(f"{name} isn't a living guard, so they can't be in the Medical Office.")
    needs = tonight.revive_needs
    if len(office) < needs:
        raise IllegalAction(f"On {tonight.label} the revive needs {REVIVE_COUNTS[needs]} in the Medical Office; "
                            f"you named {len(office)}.")
    if actor is not None and actor not in office:
        raise IllegalAction("Only a guard in the Medical Office (or the host) can call the revive.")
    after = copied(state)
    after["guards"][str(guard)] = "alive"
    after["revive_used"] = True
    names = listing(guard_name(seat) for seat in sorted(office))
    return after, [Event(f"{names} in the Medical Office revive {guard_name(guard)}, who goes back to the start."
                         f"{freddy_room_note(after)}")]


def revive_options(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Every (dead guard, guards in the office) a revive could name now: exactly as many guards as tonight needs."""
    needs = night_of(state["night"]).revive_needs
    ask = state["ask"]
    if not needs or state["revive_used"] or ask is None or ask["kind"] == "attack":
        return []
    dead = [int(seat) for seat, status in state["guards"].items() if status == "dead"]
    return [{"guard": guard, "office": list(group)} for guard in dead for group in combinations(_alive(state), needs)]
