"""What the Camp Crystal Lake screens show, derived from the state: odds, turn order, drop-off choices, the board check.

Pure: no Flask. Everything at this table is public, so every seat sees the same facts; `mine` adds the seat's own
choices (what the Backpack costs tonight, whether an Escape Token can dodge) to the top of their phone.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any

from . import rules
from .scoring import SUPPLIES, bonuses, counted, keep_label, keep_options, name, score, without

REWARDS = ("+card", "+card", "1 point +card", "2 points +card", "3 points +card", "4 points +card")


def percent(chance: Fraction) -> str:
    """'7.7%', '0%', '100%': one decimal, none when it is whole."""
    value = round(float(chance) * 100, 1)
    return f"{value:.0f}%" if value == int(value) else f"{value:.1f}%"


def tokens_text(board: dict[str, int]) -> str:
    """'2 Cleavers, 1 Axe, 1 Jason token' or 'nothing'."""
    parts = [counted(supply, board[supply]) for supply in SUPPLIES if board.get(supply)]
    if board.get("jason"):
        parts.append(f"{board['jason']} Jason token{'s' if board['jason'] != 1 else ''}")
    return ", ".join(parts) or "nothing"


def bag_view(state: dict[str, Any]) -> dict[str, Any] | None:
    """The Camp Bag now, and the chance that the next search draws Jason, with the counts it comes from."""
    bag = rules.bag_now(state)
    if bag is None:
        return None
    total = sum(bag.values())
    chance = Fraction(bag["jason"], total) if total else Fraction(0)
    return {"counts": bag, "total": total, "jason": bag["jason"], "chance": percent(chance),
            "box_total": sum(state["box"].values()), "box": state["box"],
            "lines": [(name(supply, 2), bag[supply]) for supply in SUPPLIES] + [("Jason tokens", bag["jason"])]}


def drop_off_choices(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Every Backpack choice with tonight's points (best bonus) and what it costs against keeping nothing."""
    player = state["players"][str(seat)]
    pool = rules.pool_of(player)
    final = state["night"] == state["nights"]
    options = [()] if final else keep_options(pool)
    scored = []
    for keep in options:
        result = score(without(pool, keep), state["values"], jason=player["board"]["jason"])
        scored.append({"value": ",".join(keep) or "nothing", "label": keep_label(keep), "points": result["points"],
                       "bonus": result["bonus"]["label"], "breakdown": result["breakdown"]})
    nothing = scored[0]["points"]
    for choice in scored:
        choice["cost"] = nothing - choice["points"]
    pool_bonuses = [option for option in bonuses(pool, state["values"]) if option["key"] != "none"]
    cabin = next((entry for entry in state["cabin"] if entry["seat"] == seat), None) or {}
    return {"seat": seat, "pool": tokens_text({**pool, "jason": player["board"]["jason"]}), "final": final,
            "bravery": cabin.get("bravery", 0), "critical": cabin.get("critical", 0),
            "attacked": cabin.get("attacked", False),
            "choices": scored, "bonuses": pool_bonuses, "fear_cards": player["fear_cards"],
            "escape": player["escape"], "advanced": state["mode"] == "advanced"}


def derive(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    seen = copy.deepcopy(state)
    night = state["night"]
    seen["seat_names"] = {str(number): rules.seat_name(number) for number in state["seats"]}
    seen["turn_name"] = rules.seat_name(state["turn"]) if state["turn"] else None
    seen["final_night"] = night == state["nights"]
    seen["jason_waiting"] = rules.jason_waiting(state)
    seen["night_track"] = [{"night": number, "current": number == night, "jason": number > night,
                            "past": number < night} for number in range(1, state["nights"] + 1)]
    places = {entry["seat"]: (index + 1, entry) for index, entry in enumerate(state["cabin"])}
    seen["cabin_spaces"] = [{"place": rules.ORDINALS[index], "reward": REWARDS[index],
                             "seat": state["cabin"][index]["seat"] if index < len(state["cabin"]) else None,
                             "attacked": state["cabin"][index]["attacked"] if index < len(state["cabin"]) else False}
                            for index in range(len(rules.ORDINALS))]
    critical = state["critical"]
    seen["critical_text"] = (", ".join(counted(supply, count) for supply, count in critical["set"].items())
                             if critical else None)
    seen["bag"] = bag_view(state)

    start = state["starter"] if state["starter"] in state["seats"] else state["seats"][0]
    index = state["seats"].index(start)
    order = state["seats"][index:] + state["seats"][:index]
    rows = []
    for number in order:
        player = state["players"][str(number)]
        place = places.get(number)
        if place and place[1]["attacked"]:
            status = f"fled from Jason, Cabin {rules.ORDINALS[place[0] - 1]}"
        elif place:
            status = f"Cabin {rules.ORDINALS[place[0] - 1]}"
        elif state["phase"] == "night":
            status = "their turn" if state["turn"] == number else "searching"
        else:
            status = "at the Cabin"
        if state["phase"] == "drop-off":
            status = "dropped off" if player["dropped"] else "dropping off"
        if state["phase"] == "over":
            status = "home"
        tonight = place[1]["bravery"] + place[1]["critical"] if place else 0
        rows.append({"seat": number, "name": rules.seat_name(number), "status": status,
                     "turn": state["turn"] == number, "returned": player["returned"],
                     "attacked": bool(place and place[1]["attacked"]), "board": tokens_text(player["board"]),
                     "backpack": keep_label(player["backpack"]) if player["backpack"] else "empty",
                     "escape": player["escape"], "fear_cards": player["fear_cards"], "tonight": tonight,
                     "escape_usable": rules.escape_usable(state, player),
                     "jason": player["board"]["jason"], "dropped": player["dropped"],
                     "nights": {str(entry["night"]): entry["total"] for entry in player["nights"]},
                     "pending": 0 if player["dropped"] or state["phase"] == "over" else tonight,
                     "total": rules.total_points(player)})
    seen["order"] = rows
    seen["scoreboard"] = sorted(rows, key=lambda row: row["seat"])
    seen["standings"] = [{"seat": number, "name": rules.seat_name(number), "points": points}
                         for number, points in rules.standings(state)]
    seen["nights_list"] = list(range(1, state["nights"] + 1))

    seen["drop_offs"] = {}
    if state["phase"] == "drop-off":
        for number in ([seat] if seat is not None else state["seats"]):
            if not state["players"][str(number)]["dropped"]:
                seen["drop_offs"][str(number)] = drop_off_choices(state, number)
    seen["last_scored"] = [dict(entry, name=rules.seat_name(entry["seat"])) for entry in state["last_drop_offs"]]
    seen["mine"] = mine(state, seat) if seat is not None and seat in state["seats"] else None
    seen["acting"] = seen["mine"] if seen["mine"] else (mine(state, state["turn"]) if state["turn"] else None)
    seen["targets"] = [{"seat": row["seat"], "name": row["name"]} for row in rows if not row["returned"]]
    return seen


def mine(state: dict[str, Any], seat: int) -> dict[str, Any]:
    """One counselor's situation: their turn options, what a return earns now, the risk of the next search."""
    player = state["players"][str(seat)]
    critical = state["critical"]
    place = len(state["cabin"]) + 1
    attacked = any(entry["seat"] == seat and entry["attacked"] for entry in state["cabin"])
    bravery = state["bravery_points"][min(place, len(state["bravery_points"])) - 1]
    claims = bool(critical and critical["claimed_by"] is None and rules.holds_set(player["board"], critical["set"]))
    worth = score({supply: player["board"][supply] for supply in SUPPLIES}, state["values"])
    bag = rules.bag_now(state)
    second = player["board"]["jason"] >= 1
    dodge = second and rules.escape_usable(state, player)
    risk = None
    if bag is not None and sum(bag.values()):
        risk = percent(Fraction(bag["jason"], sum(bag.values())))
    reward = f"{bravery} point{'s' if bravery != 1 else ''} and a Fear card" if bravery else "a Fear card"
    return {"seat": seat, "name": rules.seat_name(seat), "my_turn": state["phase"] == "night" and state["turn"] == seat,
            "searching": state["phase"] == "night" and not player["returned"], "dodge": dodge, "second": second,
            "attacked": attacked,
            "risk": risk, "return_place": rules.ORDINALS[min(place, 6) - 1],
            "return_reward": reward,
            "claims_critical": claims, "critical_points": critical["points"] if critical else 0,
            "board_worth": worth["points"], "board_bonus": worth["bonus"]["label"],
            "fear_cards": player["fear_cards"], "escape": player["escape"],
            "escape_usable": (state["phase"] == "night" and not player["returned"]
                              and rules.escape_usable(state, player) and player["board"]["jason"] >= 1),
            "board": tokens_text(player["board"]), "backpack": keep_label(player["backpack"]) if player["backpack"]
            else "empty", "counts": dict(player["board"])}


__all__ = ["derive", "drop_off_choices", "bag_view", "percent", "tokens_text"]
