"""Flipside's fight, resolved the way the rulebook's COMBAT section says; pure arithmetic, no state and no Flask.

"All involved characters lose DEF equal to the other's ATK. Apply damage simultaneously. If a character's DEF
reaches 0, it is killed and discarded." The attacker loses DEF equal to the blockers' ATK together. How much each
blocker loses is a reading (the table's `blocked_damage` option): each the attacker's full ATK, or the share of it
the attacker's player assigned (`damage`, one number per blocker).
"If an attack is unblocked, another player loses Health. Lost Health equals the number of damage dealt."
"""

from __future__ import annotations

from typing import Any


def fighter(atk: int, defence: int, bonus: int = 0) -> dict[str, int]:
    """A character as it enters the fight: printed ATK/DEF (DEF already lowered by damage this turn) plus +X/+X."""
    return {"atk": atk + bonus, "def": defence + bonus}


def resolve(attacker: dict[str, int], blockers: list[dict[str, int]],
            damage: list[int] | None = None) -> dict[str, Any]:
    """Everyone's damage at once: who survives with how much DEF, who dies, and what reaches the defending player.

    `damage` is what each blocker takes when the attacker split its ATK; left out, each takes the full ATK.
    """
    taken = sum(blocker["atk"] for blocker in blockers)
    attacker_after = {"atk": attacker["atk"], "def": attacker["def"], "damage": taken if blockers else 0,
                      "left": max(0, attacker["def"] - taken) if blockers else attacker["def"],
                      "dies": bool(blockers) and attacker["def"] - taken <= 0}
    shares = damage if damage is not None else [attacker["atk"]] * len(blockers)
    blockers_after = []
    for blocker, share in zip(blockers, shares, strict=True):
        left = blocker["def"] - share
        blockers_after.append({"atk": blocker["atk"], "def": blocker["def"], "damage": share,
                               "left": max(0, left), "dies": left <= 0})
    return {"attacker": attacker_after, "blockers": blockers_after,
            "unblocked": not blockers, "player_damage": 0 if blockers else attacker["atk"]}


def lethal_first(atk: int, blockers: list[dict[str, int]]) -> list[int]:
    """A split of `atk` that kills the blockers in order as far as it goes, the rest on the last: a valid default."""
    shares, left = [], atk
    for blocker in blockers:
        share = min(left, blocker["def"])
        shares.append(share)
        left -= share
    if shares:
        shares[-1] += left
    return shares


def describe(result: dict[str, Any]) -> str:
    """One sentence for the log: the fight and its dead."""
    attacker = result["attacker"]
    if result["unblocked"]:
        return f"an unblocked {attacker['atk']}/{attacker['def']} attacker deals {result['player_damage']} damage"
    parts = []
    for blocker in result["blockers"]:
        fate = "dies" if blocker["dies"] else f"survives with DEF {blocker['left']}"
        parts.append(f"blocker {blocker.get('slot', len(parts) + 1)} ({blocker['atk']}/{blocker['def']}) {fate}")
    fate = "dies" if attacker["dies"] else f"survives with DEF {attacker['left']}"
    return f"the {attacker['atk']}/{attacker['def']} attacker {fate}; " + ", ".join(parts)
