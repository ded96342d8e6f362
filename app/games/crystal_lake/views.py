"""What the Camp Crystal Lake screens show, derived from the state: odds, turn order, drop-off choices, the board check.

Pure: no Flask. Everything at this table is public, so every seat sees the same facts; `mine` adds the seat's own
choices (what the Backpack costs tonight, whether an Escape Token can dodge) to the top of their phone. Each part of
the view is built by a function named after what the Cabin Board or the rulebook calls it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..contract import copied
from ..options import readings_shown
from ..words import listing, percent, plural
from . import rules
from .scoring import NAMES, SUPPLIES, bonuses, counted, keep_label, keep_options, score, without

State = dict[str, Any]
READING_WORDS = {  # (the reading, its value): a sentence for screens and docs, and a few words beside a button
    ("critical_set", "board"): ("The Critical Supply set counts what you found tonight: the Player Board and a "
                                "Hidden Stash, not the Backpack.", "Backpack not counted"),
    ("critical_set", "backpack"): ("The Critical Supply set counts what you found tonight and the Supplies saved in "
                                   "your Backpack.", "Backpack counted"),
}


def tokens_text(board: dict[str, int]) -> str:
    """'2 Cleavers, 1 Axe, 1 Jason token' or 'nothing'."""
    parts = [counted(supply, board[supply]) for supply in SUPPLIES if board.get(supply)]
    if board.get("jason"):
        parts.append(plural(board["jason"], "Jason token"))
    return ", ".join(parts) or "nothing"


def supplies(state: State) -> list[dict[str, Any]]:
    """The Player Board's Supply value side, from the table's values (profile.toml): for forms and reminders."""
    return [{"key": supply, "one": NAMES[supply][0], "many": NAMES[supply][1], "value": state["values"][supply]}
            for supply in SUPPLIES]


def readings(state: State) -> dict[str, dict[str, str]]:
    """Each reading in force, with its words, so the screens that depend on it can say which one it is."""
    return readings_shown(state, rules.READINGS, READING_WORDS)


# ---- the Cabin Board -----------------------------------------------------------------------------------------------

def night_track(state: State) -> list[dict[str, Any]]:
    """'Night 1 through Night 5, with the Night Marker on the current night. Each remaining night space holds one
    Jason Supply Token.'"""
    night = state["night"]
    return [{"night": number, "current": number == night, "jason": number > night, "past": number < night}
            for number in range(1, state["nights"] + 1)]


def reward_text(points: int) -> str:
    """A Return to the Cabin space's Bravery Bonus in words: '+card', '2 points +card'."""
    return f"{plural(points, 'point')} +card" if points else "+card"


def cabin_spaces(state: State) -> list[dict[str, Any]]:
    """'The Return to the Cabin spaces ... read, in order: 1st — +CARD; 2nd — +CARD; 3rd — 1 +CARD ...'"""
    spaces = []
    for index, place in enumerate(rules.ORDINALS):
        entry = state["cabin"][index] if index < len(state["cabin"]) else None
        spaces.append({"place": place, "reward": reward_text(state["bravery_points"][index]),
                       "seat": entry["seat"] if entry else None, "attacked": bool(entry and entry["attacked"]),
                       "critical": entry["critical"] if entry else 0})
    return spaces


def critical_objective(state: State) -> dict[str, Any]:
    """The Critical Supply Objective space: the card as entered, who claimed it, and whether the host must enter it."""
    card = state["critical"]
    open_now = rules.critical_open(state)
    waiting = [entry["seat"] for entry in state["cabin"] if not entry["attacked"]] if card is None else []
    return {"text": listing(counted(supply, count) for supply, count in card["set"].items()) if card else None,
            "points": card["points"] if card else None, "claimed_by": card["claimed_by"] if card else None,
            "needed": card is None and open_now, "correctable": card is not None and open_now,
            "waiting": waiting}


def bag_view(state: State) -> dict[str, Any] | None:
    """The Camp Bag now, and the chance that the next search draws Jason, with the counts it comes from."""
    bag = rules.bag_now(state)
    if bag is None:
        return None
    total = sum(bag.values())
    chance = Fraction(bag["jason"], total) if total else Fraction(0)
    return {"counts": bag, "total": total, "jason": bag["jason"], "chance": percent(chance),
            "box_total": sum(state["box"].values()), "box": state["box"],
            "lines": [[NAMES[supply][1], bag[supply]] for supply in SUPPLIES] + [["Jason tokens", bag["jason"]]]}


# ---- the counselors ------------------------------------------------------------------------------------------------

def turn_order(state: State) -> list[int]:
    """Seats from the first player of the night round the table."""
    seats = rules.seating_of(state)
    start = state["starter"] if state["starter"] in seats else seats[0]
    index = seats.index(start)
    return seats[index:] + seats[:index]


def cabin_place(state: State, seat: int) -> tuple[int, dict[str, Any]] | None:
    return next(((index + 1, entry) for index, entry in enumerate(state["cabin"]) if entry["seat"] == seat), None)


def status(state: State, seat: int) -> str:
    """Where the counselor is: searching, their turn, back at the Cabin (or fled), dropping off, home."""
    if state["phase"] == "over":
        return "home"
    if state["phase"] == "drop-off":
        return "dropped off" if state["players"][str(seat)]["dropped"] else "dropping off"
    place = cabin_place(state, seat)
    if place and place[1]["attacked"]:
        return f"fled from Jason, Cabin {rules.ORDINALS[place[0] - 1]}"
    if place:
        return f"Cabin {rules.ORDINALS[place[0] - 1]}"
    return "their turn" if state["turn"] == seat else "searching"


def counselor_row(state: State, seat: int) -> dict[str, Any]:
    """One counselor on the scoreboard and in the board check."""
    player = state["players"][str(seat)]
    place = cabin_place(state, seat)
    tonight = place[1]["bravery"] + place[1]["critical"] if place else 0
    return {"seat": seat, "name": rules.seat_name(seat), "status": status(state, seat),
            "turn": state["turn"] == seat, "returned": player["returned"],
            "attacked": bool(place and place[1]["attacked"]), "board": tokens_text(player["board"]),
            "stash": tokens_text(rules.stash_of(player)), "stash_card": bool(player.get("stash_card")),
            "backpack": keep_label(player["backpack"]) if player["backpack"] else "empty",
            "escape": player["escape"], "fear_cards": player["fear_cards"], "tonight": tonight,
            "escape_usable": rules.escape_usable(state, player),
            "jason": player["board"]["jason"], "dropped": player["dropped"],
            "nights": {str(entry["night"]): entry["total"] for entry in player["nights"]},
            "pending": 0 if player["dropped"] or state["phase"] == "over" else tonight,
            "cells": night_cells(state, player, tonight), "total": rules.total_points(player)}


def night_cells(state: State, player: dict[str, Any], tonight: int) -> list[str]:
    """The scoreboard's cell for each night: its points, '–' for a night gone by with none, '+N' for tonight's
    points not yet dropped off, blank for nights to come."""
    scored = {entry["night"]: entry["total"] for entry in player["nights"]}
    pending = 0 if player["dropped"] or state["phase"] == "over" else tonight
    cells = []
    for night in range(1, state["nights"] + 1):
        text = str(scored[night]) if night in scored else ("–" if night < state["night"] or state["phase"] == "over"
                                                           else "")
        cells.append(text + (f"+{pending}" if night == state["night"] and pending else ""))
    return cells


def drop_off_choices(state: State, seat: int) -> dict[str, Any]:
    """Every Backpack choice with tonight's points (best bonus) and what it costs against keeping nothing."""
    player = state["players"][str(seat)]
    pool = rules.pool_of(player)
    final = state["night"] == state["nights"]
    scored = []
    for keep in [()] if final else keep_options(pool):
        result = score(without(pool, keep), state["values"], jason=player["board"]["jason"])
        scored.append({"value": rules.keep_key(keep), "label": keep_label(keep), "points": result["points"],
                       "bonus": result["bonus"]["label"], "breakdown": result["breakdown"]})
    for choice in scored:
        choice["cost"] = scored[0]["points"] - choice["points"]
    rewards = rules._cabin_rewards(state, seat)
    return {"seat": seat, "pool": tokens_text({**pool, "jason": player["board"]["jason"]}), "final": final,
            "bravery": rewards["bravery"], "critical": rewards["critical"], "attacked": rewards["attacked"],
            "choices": scored, "bonuses": [option for option in bonuses(pool, state["values"])
                                           if option["key"] != "none"],
            "fear_cards": player["fear_cards"], "escape": player["escape"], "defense_asked": rules.final_count(state),
            "advanced": state["mode"] == "advanced"}


def mine(state: State, seat: int) -> dict[str, Any]:
    """One counselor's situation: their turn options, what a return earns now, the risk of the next search."""
    player = state["players"][str(seat)]
    card = state["critical"]
    place = len(state["cabin"]) + 1
    bravery = state["bravery_points"][min(place, len(state["bravery_points"])) - 1]
    holds = rules.holds_set(rules.carried(state, player), card["set"]) if card else False
    worth = score({supply: player["board"][supply] for supply in SUPPLIES}, state["values"])
    bag = rules.bag_now(state)
    searching = state["phase"] == "night" and not player["returned"]
    return {"seat": seat, "name": rules.seat_name(seat), "my_turn": state["phase"] == "night" and state["turn"] == seat,
            "searching": searching, "second": player["board"]["jason"] >= 1,
            "dodge": player["board"]["jason"] >= 1 and rules.escape_usable(state, player),
            "attacked": any(entry["seat"] == seat and entry["attacked"] for entry in state["cabin"]),
            "risk": percent(Fraction(bag["jason"], sum(bag.values()))) if bag and sum(bag.values()) else None,
            "return_place": rules.ORDINALS[min(place, 6) - 1],
            "return_reward": f"{plural(bravery, 'point')} and a Fear card" if bravery else "a Fear card",
            "claims_critical": bool(card and card["claimed_by"] is None and holds),
            "critical_points": card["points"] if card else 0, "critical_entered": card is not None,
            "board_worth": worth["points"], "board_bonus": worth["bonus"]["label"],
            "fear_cards": player["fear_cards"], "escape": player["escape"],
            "escape_usable": searching and rules.escape_usable(state, player) and player["board"]["jason"] >= 1,
            "board": tokens_text(player["board"]), "stash": tokens_text(rules.stash_of(player)),
            "stash_card": bool(player.get("stash_card")),
            "backpack": keep_label(player["backpack"]) if player["backpack"] else "empty",
            "counts": dict(player["board"])}


def seating(state: State) -> dict[str, Any]:
    """Round the table: the order turns go in, and whether it is only assumed (seat order) or the host's entry."""
    order = rules.seating_of(state)
    assumed = rules.same_round(order, list(state["seats"]))
    return {"order": order, "text": ", ".join(str(seat) for seat in order), "assumed": assumed,
            "source": "assumed" if assumed else "entered"}


# ---- the shared keys' words ----------------------------------------------------------------------------------------

def turn_text(state: State) -> str:
    """Whose move the table waits for, in the rulebook's words."""
    if state["phase"] == "over":
        over = rules.outcome(state)
        return over.text if over else "Help has arrived."
    if state["phase"] == "drop-off":
        waiting = rules.turn_seats(state)
        return f"Drop off supplies: waiting for {listing(rules.seat_name(seat) for seat in waiting)}."
    return f"{rules.seat_name(state['turn'])}'s turn on Night {state['night']}."


def board_check(state: State) -> list[str]:
    """What the cardboard should show now: the night track, the card, the Cabin, the bag, every board."""
    waiting = rules.jason_waiting(state)
    card = critical_objective(state)
    lines = [f"Night Marker on Night {state['night']}; {plural(waiting, 'Jason token')} waiting on the night track.",
             "Critical Supply: " + (f"{card['text']}, {card['points']} points"
                                     + (f", claimed by {rules.seat_name(card['claimed_by'])}" if card["claimed_by"]
                                        else "") if card["text"] else "not entered") + ".",
             "Cabin: " + (", ".join(f"{space['place']} {rules.seat_name(space['seat'])}"
                                    + (" (dark side up)" if space["attacked"] else "")
                                    for space in cabin_spaces(state) if space["seat"]) or "nobody back yet") + "."]
    bag = bag_view(state)
    if bag:
        lines.append("Camp Bag: " + ", ".join(f"{count} {label}" for label, count in bag["lines"])
                     + f" ({bag['total']}).")
    for seat in state["seats"]:
        row = counselor_row(state, seat)
        stash = f"; Hidden Stash: {row['stash']}" if row["stash_card"] or row["stash"] != "nothing" else ""
        lines.append(f"{row['name']}: board {row['board']}{stash}; Backpack {row['backpack']}; "
                     f"{plural(row['fear_cards'], 'Fear Card')}" + ("; Escape Token" if row["escape"] else "") + ".")
    return lines


def derive(state: State, seat: int | None) -> dict[str, Any]:
    """The game's own keys of the view: the state (its `turn` is `turn_seat` here) and what the screens show."""
    shown = {key: copied(value) for key, value in state.items() if key != "turn"}
    rows = [counselor_row(state, number) for number in turn_order(state)]
    shown |= {
        "turn_seat": state["turn"],
        "readings": readings(state),
        "supplies": supplies(state),
        "box_tokens": rules.BOX_TOKENS,
        "seating": seating(state),
        "seat_names": {str(number): rules.seat_name(number) for number in state["seats"]},
        "turn_name": rules.seat_name(state["turn"]) if state["turn"] else None,
        "final_night": state["night"] == state["nights"],
        "jason_waiting": rules.jason_waiting(state),
        "night_track": night_track(state),
        "cabin_spaces": cabin_spaces(state),
        "critical_card": critical_objective(state),
        "critical_text": critical_objective(state)["text"],
        "bag": bag_view(state),
        "order": rows,
        "scoreboard": sorted(rows, key=lambda row: row["seat"]),
        "standings": [{"seat": number, "name": rules.seat_name(number), "points": points}
                      for number, points in rules.standings(state)],
        "nights_list": list(range(1, state["nights"] + 1)),
        "drop_offs": {str(number): drop_off_choices(state, number)
                      for number in ([seat] if seat is not None else state["seats"])
                      if state["phase"] == "drop-off" and not state["players"][str(number)]["dropped"]},
        "last_scored": [dict(entry, name=rules.seat_name(entry["seat"])) for entry in state["last_drop_offs"]],
        "mine": mine(state, seat) if seat is not None and seat in state["seats"] else None,
        "targets": [{"seat": row["seat"], "name": row["name"]} for row in rows if not row["returned"]],
    }
    shown["acting"] = shown["mine"] or (mine(state, state["turn"]) if state["turn"] else None)
    return shown


# ---- the view's own keys, as a JSON Schema (checked by the contract test, documented in docs/API.md) -----------------

_SEAT_OR_NULL = {"type": ["integer", "null"]}
_COUNTS = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
_ROW = {"type": "object", "required": ["seat", "name", "status", "turn", "returned", "attacked", "board", "stash",
                                       "backpack", "escape", "fear_cards", "nights", "pending", "cells", "total"],
        "properties": {"seat": {"type": "integer"}, "name": {"type": "string"}, "status": {"type": "string"},
                       "board": {"type": "string"}, "stash": {"type": "string"}, "backpack": {"type": "string"},
                       "fear_cards": {"type": "integer", "minimum": 0}, "total": {"type": "integer"},
                       "nights": {"type": "object", "additionalProperties": {"type": "integer"}},
                       "cells": {"type": "array", "items": {"type": "string"}}}}
_PLAYER = {"type": "object", "required": ["board", "backpack", "escape", "escape_night", "fear_cards", "returned",
                                          "dropped", "nights"],
           "properties": {"board": _COUNTS, "stash": _COUNTS, "stash_card": {"type": "boolean"},
                          "backpack": {"type": "array", "items": {"enum": list(SUPPLIES)}, "maxItems": 2},
                          "escape": {"type": "boolean"}, "escape_night": _SEAT_OR_NULL,
                          "fear_cards": {"type": "integer", "minimum": 0}, "returned": {"type": "boolean"},
                          "dropped": {"type": "boolean"}, "nights": {"type": "array", "items": {
                              "type": "object", "required": ["night", "bravery", "critical", "drop_off", "extras",
                                                             "total", "kept", "breakdown"]}}}}
_CHOICES = {"type": "object", "required": ["seat", "pool", "final", "bravery", "critical", "attacked", "choices",
                                           "bonuses", "fear_cards", "defense_asked"],
            "properties": {"choices": {"type": "array", "items": {
                "type": "object", "required": ["value", "label", "points", "bonus", "breakdown", "cost"]}}}}
_MINE = {"type": "object", "required": ["seat", "name", "my_turn", "searching", "second", "dodge", "attacked", "risk",
                                        "return_place", "return_reward", "claims_critical", "critical_points",
                                        "critical_entered", "board_worth", "fear_cards", "escape", "escape_usable",
                                        "board", "stash", "stash_card", "backpack", "counts"],
         "properties": {"risk": {"type": ["string", "null"]}, "counts": _COUNTS}}
VIEW_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["seats", "mode", "readings", "nights", "night", "phase", "turn_seat", "turn_name", "values",
                 "bravery_points", "cabin", "critical", "box", "players", "supplies", "box_tokens", "night_track",
                 "cabin_spaces", "critical_card", "bag", "order", "seating", "scoreboard", "standings", "drop_offs",
                 "last_scored", "mine", "acting", "targets"],
    "properties": {
        "seats": {"type": "array", "items": {"type": "integer"}},
        "mode": {"enum": ["basic", "advanced"]},
        "readings": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["value", "text", "short", "label", "source"],
            "properties": {"source": {"enum": ["verified", "assumed"]}}}},
        "nights": {"type": "integer", "minimum": 1},
        "night": {"type": "integer", "minimum": 1},
        "phase": {"enum": ["night", "drop-off", "over"]},
        "starter": {"type": "integer"},
        "turn_seat": _SEAT_OR_NULL,
        "turn_name": {"type": ["string", "null"]},
        "values": _COUNTS,
        "bravery_points": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "cabin": {"type": "array", "items": {"type": "object", "required": ["seat", "attacked", "bravery",
                                                                            "critical"]}},
        "critical": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["set", "points", "claimed_by"],
                                                  "properties": {"set": _COUNTS, "points": {"type": "integer"},
                                                                 "claimed_by": _SEAT_OR_NULL}}]},
        "box": {"oneOf": [{"type": "null"}, _COUNTS]},
        "players": {"type": "object", "additionalProperties": _PLAYER},
        "last_drop_offs": {"type": "array"},
        "supplies": {"type": "array", "items": {"type": "object", "required": ["key", "one", "many", "value"]}},
        "box_tokens": {"type": "integer", "minimum": 1},
        "seating": {"type": "object", "required": ["order", "text", "assumed", "source"],
                    "properties": {"order": {"type": "array", "items": {"type": "integer"}},
                                   "source": {"enum": ["assumed", "entered"]}}},
        "seat_names": {"type": "object", "additionalProperties": {"type": "string"}},
        "final_night": {"type": "boolean"},
        "jason_waiting": {"type": "integer", "minimum": 0},
        "night_track": {"type": "array", "items": {"type": "object", "required": ["night", "current", "jason",
                                                                                  "past"]}},
        "cabin_spaces": {"type": "array", "items": {"type": "object", "required": ["place", "reward", "seat",
                                                                                   "attacked", "critical"],
                                                    "properties": {"seat": _SEAT_OR_NULL}}},
        "critical_card": {"type": "object", "required": ["text", "points", "claimed_by", "needed", "correctable",
                                                         "waiting"]},
        "critical_text": {"type": ["string", "null"]},
        "bag": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["counts", "total", "jason", "chance",
                                                                            "box_total", "lines"]}]},
        "order": {"type": "array", "items": _ROW},
        "scoreboard": {"type": "array", "items": _ROW},
        "standings": {"type": "array", "items": {"type": "object", "required": ["seat", "name", "points"]}},
        "nights_list": {"type": "array", "items": {"type": "integer"}},
        "drop_offs": {"type": "object", "additionalProperties": _CHOICES},
        "last_scored": {"type": "array", "items": {"type": "object", "required": ["seat", "night", "breakdown",
                                                                                  "points", "name"]}},
        "mine": {"oneOf": [{"type": "null"}, _MINE]},
        "acting": {"oneOf": [{"type": "null"}, _MINE]},
        "targets": {"type": "array", "items": {"type": "object", "required": ["seat", "name"]}},
    },
}


__all__ = ["derive", "drop_off_choices", "bag_view", "tokens_text", "board_check", "turn_text", "VIEW_SCHEMA"]
