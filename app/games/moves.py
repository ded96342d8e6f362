"""The shape of a move, checked the same way in every game before any rule is applied: type, fields, acting seat.

Pure: no Flask, no SQLAlchemy. Each game names its move types as FIELDS = {type: (fields it needs, fields it may
have)} besides "type" and "seat"; this module refuses anything else with a sentence, so a rules module's `apply`
starts from a move whose shape is known.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from .contract import IllegalAction

Fields = Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]]


def seat_text(actor: Any) -> str:
    """A seat as a player typed it, short enough to echo back in a sentence."""
    return str(actor) if isinstance(actor, int) and not isinstance(actor, bool) else str(actor)[:20]


def check_move(action: Any, fields: Fields, doing: Mapping[str, str], seats: Collection[int], *,
               example: str, offer: str, missing: Mapping[str, str] | Callable[[str, str], str],
               no_seat: str = "There is no seat {seat} at this table.") -> tuple[str, int | None]:
    """The move's type and acting seat (None = the host), or IllegalAction with a sentence a player understands.

    `example` is a move of this game as JSON, `offer` ends "'<type>' ..." for an unknown type, `missing` says what a
    needed field is for (a dict by field, or a function of the type and the field), `no_seat` has a {seat} slot.
    """
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(f"An action needs a type, like {example}.")
    kind = action["type"]
    if kind not in fields:
        raise IllegalAction(f"'{kind[:40]}' {offer}")
    needed, allowed = fields[kind]
    for key in action:
        if key not in ("type", "seat", *needed, *allowed):
            raise IllegalAction(f"{doing[kind]} doesn't take '{str(key)[:40]}'.")
    if "seat" not in action:
        raise IllegalAction("That action doesn't say who is acting.")
    for key in needed:
        if key not in action:
            raise IllegalAction(missing(kind, key) if callable(missing) else missing[key])
    actor = action["seat"]
    if actor is not None and (isinstance(actor, bool) or not isinstance(actor, int) or actor not in seats):
        raise IllegalAction(no_seat.format(seat=seat_text(actor)))
    return kind, actor


__all__ = ["Fields", "check_move", "seat_text"]
