"""End-of-night drop-off arithmetic for Camp Crystal Lake: supply values, the one bonus, and a breakdown to read aloud.

Pure: no Flask, no state. The rulebook's words it follows (the Player Board's combination side):
"When dropping off 3 Supplies of the same type, double the value of one other type of Supply.
 When dropping off 4 Supplies of the same type, double the value of two other types of Supply.
 When dropping off a set of any 5 different types of Supply, receive an additional 8 Blood Spatter Points.
 When dropping off a set of any 6 different types of Supply, receive an additional 12 Blood Spatter Points."
and "Each player can only use ONE of these bonuses per night".
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Any

from . import PROFILE

# The six Supplies in the order the Backpack Card lists them; Jason tokens are worth nothing.
SUPPLIES = ("pan", "flashlight", "gasoline", "cleaver", "car_keys", "axe")
NAMES = {"pan": ("Cast Iron Pan", "Cast Iron Pans"), "flashlight": ("Flashlight", "Flashlights"),
         "gasoline": ("Gasoline", "Gasoline"), "cleaver": ("Cleaver", "Cleavers"),
         "car_keys": ("Car Keys", "Car Keys"), "axe": ("Axe", "Axes")}
BOARD_NAMES = {"Cast Iron Pan": "pan", "Flashlight": "flashlight", "Gasoline": "gasoline", "Cleaver": "cleaver",
               "Car Keys": "car_keys", "Axe": "axe"}
# The component numbers come from profile.toml only: the Player Board's values, its two set bonuses, the box's tokens.
VALUES = {key: int(PROFILE["supply_values"].value[board]) for board, key in BOARD_NAMES.items()}
FIVE_TYPES_BONUS = int(PROFILE["combination_bonuses"].value["five"])
SIX_TYPES_BONUS = int(PROFILE["combination_bonuses"].value["six"])
MAX_TOKENS = int(PROFILE["supply_tokens"].value)  # "67 Supply Tokens" in the box: no drop-off can hold more


class ScoringError(ValueError):
    """A drop-off that can't be scored as given; the message is a sentence for the player."""


def name(supply: str, count: int = 1) -> str:
    """'Cast Iron Pan' or 'Cast Iron Pans', as the rulebook writes them."""
    singular, plural = NAMES[supply]
    return singular if count == 1 else plural


def counted(supply: str, count: int) -> str:
    """'3 Cast Iron Pans', '1 Axe'."""
    return f"{count} {name(supply, count)}"


def values_from_profile(profile_values: Mapping[str, Any] | None) -> dict[str, int]:
    """The Player Board's values keyed by supply, from profile.toml's names ('Cast Iron Pan' = 1)."""
    values = dict(VALUES)
    if not profile_values:
        return values
    for board_name, key in BOARD_NAMES.items():
        if board_name in profile_values:
            values[key] = int(profile_values[board_name])
    return values


def check_supplies(supplies: object, what: str = "A drop-off") -> dict[str, int]:
    """Counts per supply, every key known and every count a whole number from 0 to the box's 67 tokens."""
    if not isinstance(supplies, Mapping):
        raise ScoringError(f"{what} is a list of supplies and how many, like {{\"pan\": 3, \"cleaver\": 2}}.")
    counts = dict.fromkeys(SUPPLIES, 0)
    for key, count in supplies.items():
        if key not in counts:
            raise ScoringError(f"'{str(key)[:30]}' isn't a Supply; the Supplies are {', '.join(SUPPLIES)}.")
        if isinstance(count, bool) or not isinstance(count, int):
            raise ScoringError(f"Say how many {name(key, 2)} as a whole number.")
        if count < 0:
            raise ScoringError(f"{name(key, 2)} can't be negative ({count}).")
        if count > MAX_TOKENS:
            raise ScoringError(f"{count} {name(key, 2)} is more than the box's {MAX_TOKENS} Supply Tokens.")
        counts[key] = count
    if sum(counts.values()) > MAX_TOKENS:
        raise ScoringError(f"That is {sum(counts.values())} tokens; the box has only {MAX_TOKENS} Supply Tokens.")
    return counts


def bonuses(counts: Mapping[str, int], values: Mapping[str, int] = VALUES) -> list[dict[str, Any]]:
    """Every bonus these supplies allow (plus 'none'), each with the extra points it adds, best first."""
    present = [supply for supply in SUPPLIES if counts.get(supply, 0) > 0]
    found: list[dict[str, Any]] = [{"key": "none", "label": "No bonus", "points": 0, "doubled": []}]
    for triple in present:
        if counts[triple] < 3:
            continue
        others = [supply for supply in present if supply != triple]
        for other in others:
            found.append({"key": f"three:{triple}:{other}", "doubled": [other], "trigger": triple,
                          "label": f"Three of a kind ({counted(triple, 3)}): {name(other, counts[other])} doubled",
                          "points": counts[other] * values[other]})
        if counts[triple] >= 4:
            pairs = list(combinations(others, 2)) or [(other,) for other in others]
            for pair in pairs:
                doubled = " and ".join(name(other, counts[other]) for other in pair)
                found.append({"key": f"four:{triple}:{'+'.join(pair)}", "doubled": list(pair), "trigger": triple,
                              "label": f"Four of a kind ({counted(triple, 4)}): {doubled} doubled",
                              "points": sum(counts[other] * values[other] for other in pair)})
    if len(present) == 6:
        found.append({"key": "six", "label": "Six different types", "points": SIX_TYPES_BONUS, "doubled": []})
    if len(present) >= 5:
        found.append({"key": "five", "label": "Five different types", "points": FIVE_TYPES_BONUS, "doubled": []})
    order = {bonus["key"]: index for index, bonus in enumerate(found)}
    return sorted(found, key=lambda bonus: (-bonus["points"], order[bonus["key"]]))


def score(supplies: object, values: Mapping[str, int] = VALUES, bonus: object = None,
          jason: int = 0) -> dict[str, Any]:
    """Points for one drop-off: face values, one bonus (the best, or the one asked for), and the lines that add up.

    `jason` Jason tokens on the board are listed at 0 points so the breakdown matches the cardboard.
    """
    counts = check_supplies(supplies)
    eligible = bonuses(counts, values)
    if bonus in (None, "", "best"):
        chosen = eligible[0]
    else:
        chosen = next((option for option in eligible if option["key"] == bonus), None)
        if chosen is None:
            possible = ", ".join(option["label"] for option in eligible)
            raise ScoringError(f"That bonus isn't possible with these supplies; the possible ones are: {possible}.")
    lines = []
    base = 0
    trigger_first = [chosen["trigger"]] if "trigger" in chosen else []
    doubled_next = sorted(chosen["doubled"], key=lambda supply: -values[supply])
    for supply in trigger_first + doubled_next + [s for s in SUPPLIES if s not in trigger_first + doubled_next]:
        count = counts[supply]
        if not count:
            continue
        worth = count * values[supply]
        base += worth
        if supply in chosen["doubled"]:
            trigger = counted(chosen["trigger"], 3 if chosen["key"].startswith("three") else 4)
            lines.append(f"{trigger}: {name(supply, count)} doubled, {count} x {values[supply] * 2} = {worth * 2}")
        else:
            lines.append(f"{counted(supply, count)}, {count} x {values[supply]} = {worth}")
    if jason:
        lines.append(f"{jason} Jason token{'s' if jason != 1 else ''}, worth 0")
    if chosen["key"] in ("five", "six"):
        lines.append(f"{chosen['label']}: +{chosen['points']}")
    if not lines:
        lines.append("Nothing to drop off: 0")
    points = base + chosen["points"]
    lines.append(f"Total {points}")
    return {"points": points, "base": base, "counts": counts,
            "bonus": {"key": chosen["key"], "label": chosen["label"], "points": chosen["points"]},
            "best": chosen["points"] == eligible[0]["points"],
            "bonuses": [{"key": option["key"], "label": option["label"], "points": option["points"]}
                        for option in eligible],
            "breakdown": lines}


def keep_options(pool: Mapping[str, int]) -> list[tuple[str, ...]]:
    """Every way to save up to two Supplies in the Backpack from `pool`: (), (axe,), (axe, pan), (pan, pan)..."""
    options: list[tuple[str, ...]] = [()]
    present = [supply for supply in SUPPLIES if pool.get(supply, 0) > 0]
    options += [(supply,) for supply in present]
    for index, first in enumerate(present):
        for second in present[index:]:
            if first != second or pool[first] >= 2:
                options.append((first, second))
    return options


def without(pool: Mapping[str, int], keep: tuple[str, ...] | list[str]) -> dict[str, int]:
    """The pool after the kept supplies come out."""
    rest = {supply: pool.get(supply, 0) for supply in SUPPLIES}
    for supply in keep:
        rest[supply] -= 1
    return rest


def keep_label(keep: tuple[str, ...] | list[str]) -> str:
    """'nothing', 'Axe', 'Axe and Cast Iron Pan', '2 Cleavers'."""
    if not keep:
        return "nothing"
    if len(keep) == 2 and keep[0] == keep[1]:
        return counted(keep[0], 2)
    return " and ".join(name(supply) for supply in keep)


__all__ = ["SUPPLIES", "NAMES", "VALUES", "ScoringError", "score", "bonuses", "check_supplies", "keep_options",
           "without", "keep_label", "name", "counted", "values_from_profile"]
