"""The rules-engine contract every `app/games/<pkg>/rules.py` follows: who looks, typed refusals, outcomes, log lines.

A rules module is pure: it imports neither Flask nor SQLAlchemy. It exposes

- `MOVES`: its declared moves (app/games/moves.py), and `apply = MOVES.apply`: `apply(state, action, rng)` checks a
  move completely, then returns a changed copy of the state and its log lines, or raises IllegalAction and changes
  nothing. `action["seat"]` is the acting seat (1-based) or None for the host acting as the host; the write path sets
  it, so a phone can never claim to be another seat.
- `new_state(seats, options, profile)`: the opening state, JSON-serialisable, with `state["seats"]` the seat numbers.
- `legal_actions(state, seat)`: the complete moves that seat (None: the host) may make now, each accepted by `apply`
  exactly as returned. A value the player picks (a die, a count) is offered with a valid default; the move's declared
  fields say what else is valid.
- `outcome(state)`: None while the game goes on, else an Outcome.
- `view(state, viewer)`: what one viewer sees, as JSON. Every view carries the shared keys of `seen()` below with one
  meaning each, and the game's own keys, described by the module's `VIEW_SCHEMA` (a JSON Schema).
- `invariants(state) -> list[str]`: what the box itself guarantees about every state it can reach (Night of
  Frights: the bag always holds a Guard; 6AM: each Power Dial between 0 and where it started), as one sentence per
  invariant that is broken; an empty list while every one holds. `broken()` below builds it from (holds, sentence)
  pairs. The contract test checks it after every move of its random play-outs, for every option combination.
- Optional: `figures(state) -> dict`, each player's figures for the play history (app/history/), read only from the
  state when the game ends or the host ends the table. A game without it still gets plays, with winners and no
  figures:

      {"score": "points",              # what a seat's score counts, or None if the game keeps no score
       "side": "Guards",               # the side that won, for games played by sides, else None
       "scenario": "The Third Night",  # the night or scenario played, else None
       "facts": [["Rounds played", 12]],           # game-wide figures to show: [label, whole number or text]
       "score_decides": True,          # optional: whether the higher score won this play (6AM: not when an Office
                                       # was entered); left out, the history checks the winners' scores
       "cooperative": False,           # optional: the players (or one side of them) win or lose together
       "teams": {"Guards": [1, 2]},    # optional: the sides seats played on, for games played by sides
       "seats": {"1": {"score": 37,                 # a whole number, higher is better; or None
                       "status": "survived",        # a few words for how the seat ended, or None
                       "details": [["Night 1", 8]], # more figures to show, in order
                       "records": {"Best night": 14}}}}  # figures whose best the stats keep per player and game
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

ROLES = ("host", "seat", "spectator")


def broken(checks: Iterable[tuple[bool, str]]) -> list[str]:
    """The sentences of the invariants that don't hold, from (holds, sentence) pairs: a game's `invariants`."""
    return [sentence for holds, sentence in checks if not holds]


class IllegalAction(ValueError):
    """The rules forbid this action; the message is a sentence a player understands, shown as is."""


@dataclass(frozen=True)
class Viewer:
    """Who looks at the table: the host, a seated player (or the host playing that seat), or a spectator.

    Three roles, never two: a spectator is not the host, so a game with hidden information hides it from spectators
    by default.
    """

    role: str
    seat: int | None = None

    def __post_init__(self):
        if self.role not in ROLES or (self.role == "seat") != (self.seat is not None):
            raise ValueError(f"a viewer is the host, a seat with its number, or a spectator, not {self!r}")

    @classmethod
    def host(cls) -> Viewer:
        return cls("host")

    @classmethod
    def of_seat(cls, seat: int) -> Viewer:
        return cls("seat", seat)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls("spectator")

    @property
    def moves(self) -> bool:
        """Whether this viewer makes moves at all (a spectator only watches)."""
        return self.role != "spectator"

    def as_dict(self) -> dict[str, Any]:
        return {"role": self.role, "seat": self.seat}


def copied(value: Any) -> Any:
    """A deep copy of JSON data (a state, a move, a view): several times cheaper than copy.deepcopy, which memoises
    every object it meets; each screen's view and each move copies the whole state."""
    kind = type(value)
    if kind is dict:
        return {key: copied(item) for key, item in value.items()}
    if kind is list:
        return [copied(item) for item in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    return copy.deepcopy(value)


def seen(viewer: Viewer, *, moves: list[dict[str, Any]], turn: list[int], turn_text: str,
         board_check: list[str] | None = None) -> dict[str, Any]:
    """The keys every game's view has, with one meaning each.

    viewer: who this view is for; moves: the complete moves this viewer may make now (none for a spectator);
    turn: the seats whose move the table waits for ([] when nobody's in particular, or the game is over) and
    turn_text, the same in words; board_check: lines the table checks on the cardboard, in order.
    """
    return {"viewer": viewer.as_dict(), "moves": moves if viewer.moves else [], "turn": {"seats": list(turn),
            "text": turn_text}, "board_check": list(board_check or [])}


VIEW_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "The keys every game's view has",
    "type": "object",
    "required": ["viewer", "moves", "turn", "board_check"],
    "properties": {
        "viewer": {"type": "object", "required": ["role", "seat"], "additionalProperties": False,
                   "properties": {"role": {"enum": list(ROLES)}, "seat": {"type": ["integer", "null"], "minimum": 1}}},
        "moves": {"type": "array", "items": {"type": "object", "required": ["type"],
                                             "properties": {"type": {"type": "string"}}}},
        "turn": {"type": "object", "required": ["seats", "text"], "additionalProperties": False,
                 "properties": {"seats": {"type": "array", "items": {"type": "integer", "minimum": 1}},
                                "text": {"type": "string"}}},
        "board_check": {"type": "array", "items": {"type": "string"}},
    },
}


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


__all__ = ["IllegalAction", "Viewer", "seen", "VIEW_SCHEMA", "Outcome", "Event", "ROLES", "broken"]
