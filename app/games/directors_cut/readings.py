"""The readings of loose rulebook sentences a table plays by: chosen at setup, shown on the screens that depend on them.

Pure. Each reading is a setup option (READINGS in this package's __init__.py, the rulebook sentence quoted in its
help); the state keeps the table's choice under the option's key.
"""

from __future__ import annotations

from typing import Any

from . import READINGS
from .nights import Night, night_of

# A table stored before a reading became a setup option plays on as it began, by the reading the app used then.
STORED_BEFORE = {"freddy_enters": "his-turn", "foxy_odd_roll": "full-turn", "golden_freddy_early": "rolls",
                 "foxy_inactive": "night", "dead_guards": "share"}
# The questions whose answer or roll a reading decides, so the screen shows the reading beside them.
ASKS = {"freddy_enters": ("freddy_room",), "foxy_odd_roll": ("foxy_blocked",), "foxy_inactive": ("foxy_blocked",),
        "golden_freddy_early": ("golden_freddy",), "dead_guards": ("attack",)}


def reading(state: dict[str, Any], key: str) -> str:
    """The table's reading of one loose sentence."""
    return state.get(key, STORED_BEFORE[key])


def matters(night: Night, key: str) -> bool:
    """Whether a reading can change anything tonight (Foxy's readings only on nights he moves, and so on)."""
    if key == "freddy_enters":
        return night.freddy_moves
    if key in ("foxy_odd_roll", "foxy_inactive"):
        return night.foxy_moves
    if key == "dead_guards":
        return True
    return not night.card_moves_golden_freddy


def in_force(state: dict[str, Any]) -> list[dict[str, Any]]:
    """Tonight's readings as the screens show them: the choice, its source and the sentence it reads."""
    tonight = night_of(state["night"])
    shown = []
    for option in READINGS:
        if not matters(tonight, option.key):
            continue
        value = reading(state, option.key)
        shown.append({"key": option.key, "label": option.label, "value": value, "choice": option.label_of(value),
                      "source": option.source, "why": option.help, "asks": list(ASKS[option.key])})
    return shown
