"""The rules-engine contract every `app/games/<pkg>/rules.py` follows: typed refusals, outcomes and log events.

A rules module is pure: it imports neither Flask nor SQLAlchemy. It exposes
`new_state(seats, options, profile)`, `legal_actions(state, seat)`, `apply(state, action, rng)`,
`outcome(state)` and `view(state, seat)`; see ARCHITECTURE.md.

`seat` is a seat number (1-based) or None for the host acting as the host. The write path puts the acting
seat into every action as `action["seat"]`, so a phone can never claim to be another seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class IllegalAction(ValueError):
    """The rules forbid this action; the message is a sentence a player understands, shown as is."""


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats (empty when everyone lost) and why, in the game's words."""

    winners: tuple[int, ...]
    text: str
    shared: bool = False  # more than one winner by the rules, not a tie-break

    def as_dict(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "text": self.text, "shared": self.shared}


@dataclass
class Event:
    """One line of the log an action produced; `undoable=False` marks an action that revealed hidden information."""

    text: str
    undoable: bool = True

    def as_dict(self) -> dict[str, Any]:
        return {"text": self.text, "undoable": self.undoable}


__all__ = ["IllegalAction", "Outcome", "Event"]
