"""Flipside's fight, resolved the way the rulebook's COMBAT section says; pure arithmetic, no state and no Flask.

"All involved characters lose DEF equal to the other's ATK. Apply damage simultaneously. If a character's DEF
reaches 0, it is killed and discarded." With several blockers the rulebook does not split the attacker's ATK, so
each blocker loses DEF equal to the attacker's ATK, and the attacker loses DEF equal to the blockers' ATK together.
"If an attack is unblocked, another player loses Health. Lost Health equals the number of damage dealt."
"""

from __future__ import annotations

from typing import Any


def fighter(atk: int, defence: int, bonus: int = 0) -> dict[str, int]:
    """A character as it enters the fight: printed ATK/DEF (DEF already lowered by damage this turn) plus +X/+X."""
    return {"atk": atk + bonus, "def": defence + bonus}


def resolve(attacker: dict[str, int], blockers: list[dict[str, int]]) -> dict[str, Any]:
    """Everyone's damage at once: who survives with how much DEF, who dies, and what reaches the defending player."""
    taken = sum(blocker["atk"] for blocker in blockers)
    attacker_after = {"atk": attacker["atk"], "def": attacker["def"], "damage": taken if blockers else 0,
                      "left": max(0, attacker["def"] - taken) if blockers else attacker["def"],
                      "dies": bool(blockers) and attacker["def"] - taken <= 0}
    blockers_after = []
    for blocker in blockers:
        left = blocker["def"] - attacker["atk"]
        blockers_after.append({"atk": blocker["atk"], "def": blocker["def"], "damage": attacker["atk"],
                               "left": max(0, left), "dies": left <= 0})
    return {"attacker": attacker_after, "blockers": blockers_after,
            "unblocked": not blockers, "player_damage": 0 if blockers else attacker["atk"]}


def describe(result: dict[str, Any]) -> str:
    """One sentence for the log: the fight and its dead."""
    attacker = result["attacker"]
    if result["unblocked"]:
        return f"an unblocked {attacker['atk']}/{attacker['def']} attacker deals {result['player_damage']} damage"
    parts = []
    for number, blocker in enumerate(result["blockers"], start=1):
        fate = "dies" if blocker["dies"] else f"survives with DEF {blocker['left']}"
        parts.append(f"blocker {number} ({blocker['atk']}/{blocker['def']}) {fate}")
    fate = "dies" if attacker["dies"] else f"survives with DEF {attacker['left']}"
    return f"the {attacker['atk']}/{attacker['def']} attacker {fate}; " + ", ".join(parts)
