"""Camp Crystal Lake's rules: five nights of turns, Jason attacks, the Cabin's Bravery track and drop-off scoring.

Pure: no Flask, no SQLAlchemy. The cardboard stays on the table; the app records what each search drew, who returned
in which order, and does the end-of-night arithmetic (scoring.py). Cards the app can't see (the Critical Supply card,
Fear card texts, which Fear cards are Defense cards) are entered by the people who can.
"""

from __future__ import annotations

import copy
from typing import Any

from ..contract import Event, IllegalAction, Outcome, Viewer
from ..moves import check_move
from . import scoring
from .scoring import SUPPLIES, ScoringError, counted, keep_label, keep_options, name, score, without

TOKENS = (*SUPPLIES, "jason")  # what a search can draw
MAX_FEAR_CARDS = 64  # "64 Fear Cards" in the box
MAX_CRITICAL_POINTS = 99
MAX_BOX_COUNT = 99
BOX_TOKENS = scoring.MAX_TOKENS  # "67 Supply Tokens ... include the Jason Supply Tokens": never more out of the bag
FORM_NUMBERS = frozenset({*TOKENS, "defense", "target"})

# type -> (fields it needs, fields it may have), besides "type" and "seat"
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "search": (("supply",), ("whose", "escape")),
    "fear": ((), ("whose", "target")),
    "defense": ((), ("whose",)),
    "return": ((), ("whose",)),
    "escape": ((), ("whose",)),
    "drop-off": ((), ("whose", "keep", "bonus", "defense")),
    "critical": (("points",), SUPPLIES),
    "bag": ((), TOKENS),
    "set-board": ((), ("whose", "escape", *TOKENS)),
    "set-hand": (("count",), ("whose",)),
}
DOING = {"search": "Searching for Supplies", "fear": "Playing a Fear Card", "defense": "Playing a Defense Fear Card",
         "return": "Returning to the Cabin", "escape": "Discarding an Escape Token", "drop-off": "Dropping off",
         "critical": "Entering the Critical Supply card", "bag": "Counting the Camp Bag",
         "set-board": "Correcting a Player Board", "set-hand": "Correcting a hand of Fear Cards"}
HOST_ONLY = ("critical", "bag")
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")


def seat_name(seat: int) -> str:
    """The seat as the setup names it ('Counselor 2'); the server adds the player's own name to log lines."""
    return f"Counselor {seat}"


def empty_board() -> dict[str, int]:
    return dict.fromkeys(TOKENS, 0)


def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Night 1: Night Marker on Night 1, one Jason token on each later night, five Fear cards each, empty boards."""
    first = options.get("first_player", seats[0])
    dealt = profile.get("fear_cards_dealt", 5)
    return {
        "seats": list(seats),
        "mode": options.get("mode", "advanced"),
        "nights": profile.get("nights", 5),
        "night": 1,
        "phase": "night",  # night -> drop-off -> night ... -> over
        "starter": first,
        "turn": first,
        "values": scoring.values_from_profile(profile.get("supply_values")),
        "bravery_points": list(profile.get("bravery_points", [0, 0, 1, 2, 3, 4])),
        "cabin": [],  # this night's Return to the Cabin spaces, in order
        "critical": None,  # {"set": {supply: n}, "points": n, "claimed_by": seat | None}
        "box": None,  # the Camp Bag's tokens as the host counted them from the box (all of them)
        "players": {str(seat): {"board": empty_board(), "backpack": [], "escape": False, "escape_night": None,
                                "fear_cards": dealt, "returned": False, "dropped": False, "nights": []}
                    for seat in seats},
        "last_drop_offs": [],  # the breakdowns of the night just scored, for every screen
    }


# ---- reading the state ---------------------------------------------------------------------------------------------

def jason_waiting(state: dict[str, Any]) -> int:
    """Jason tokens still on the night track: one on each night after the current one."""
    return state["nights"] - state["night"]


def out_of_bag(state: dict[str, Any]) -> dict[str, int]:
    """Tokens that are not in the Camp Bag now: on Player Boards, in Backpacks and (Jason) on the night track."""
    out = dict.fromkeys(TOKENS, 0)
    for player in state["players"].values():
        for token, count in player["board"].items():
            out[token] += count
        for supply in player["backpack"]:
            out[supply] += 1
    out["jason"] += jason_waiting(state)
    return out


def bag_now(state: dict[str, Any]) -> dict[str, int] | None:
    """What the Camp Bag holds right now, if the host has counted the box; None until then."""
    if state["box"] is None:
        return None
    out = out_of_bag(state)
    return {token: state["box"][token] - out[token] for token in TOKENS}


def pool_of(player: dict[str, Any]) -> dict[str, int]:
    """The supplies a player drops off or saves tonight: their board (no Jason) plus their Backpack."""
    pool = {supply: player["board"][supply] for supply in SUPPLIES}
    for supply in player["backpack"]:
        pool[supply] += 1
    return pool


def holds_set(board: dict[str, int], wanted: dict[str, int]) -> bool:
    return all(board.get(supply, 0) >= count for supply, count in wanted.items())


def next_turn(state: dict[str, Any], after: int) -> int | None:
    """The next seat by seat number after `after` that is still searching; None if everyone returned.

    The rulebook says only "each Player taking turns"; seat order stands for going round the table.
    """
    seats = state["seats"]
    start = seats.index(after)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if not state["players"][str(seat)]["returned"]:
            return seat
    return None


def total_points(player: dict[str, Any]) -> int:
    return sum(night["total"] for night in player["nights"])


# ---- checking an action --------------------------------------------------------------------------------------------

def _number(action: dict[str, Any], key: str, label: str, low: int, high: int) -> int:
    value = action[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"Say {label} as a whole number.")
    if value < low:
        limit = "negative" if low == 0 else f"below {low}"
        raise IllegalAction(f"{label[0].upper()}{label[1:]} can't be {limit} ({value}).")
    if value > high:
        raise IllegalAction(f"{label[0].upper()}{label[1:]} can be at most {high}, not {value}.")
    return value


def _counts(action: dict[str, Any], keys: tuple[str, ...], high: int) -> dict[str, int]:
    """Counts per token from an action's fields (missing = 0), each a whole number from 0 to `high`."""
    return {key: (_number(action, key, f"the number of {'Jason tokens' if key == 'jason' else name(key, 2)}", 0, high)
                  if key in action else 0) for key in keys}


def _whose(state: dict[str, Any], action: dict[str, Any], actor: int | None) -> int:
    """The seat a move is for: the phone's own seat, or the seat the host names with `whose`."""
    whose = action.get("whose")
    if whose is None:
        if actor is None:
            raise IllegalAction("Say which counselor this is for (whose: their seat number).")
        return actor
    if isinstance(whose, bool) or not isinstance(whose, int) or whose not in state["seats"]:
        raise IllegalAction(f"There is no Counselor {str(whose)[:10]} at this table.")
    if actor is not None and whose != actor:
        raise IllegalAction(f"You play for {seat_name(actor)}; only the host can act for {seat_name(whose)}.")
    return whose


def _on_turn(state: dict[str, Any], seat: int, doing: str) -> dict[str, Any]:
    """The player may take a turn action now: it is night, they are still out searching and it is their turn."""
    player = _searching(state, seat, doing)
    if state["turn"] != seat:
        raise IllegalAction(f"It's {seat_name(state['turn'])}'s turn, not {seat_name(seat)}'s; wait for yours.")
    return player


def _searching(state: dict[str, Any], seat: int, doing: str) -> dict[str, Any]:
    if state["phase"] != "night":
        raise IllegalAction(f"Night {state['night']} is over: it's time to drop off supplies, not {doing.lower()}.")
    player = state["players"][str(seat)]
    if player["returned"]:
        raise IllegalAction(f"{seat_name(seat)} is back at the Cabin for the night and takes no more turns "
                            f"until the next night.")
    return player


def apply(state: dict[str, Any], action: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
    """Check the action completely, then return a changed copy of the state and what the log should say."""
    kind, actor = check_move(action, FIELDS, DOING, state["seats"], example='{"type": "search", "supply": "axe"}',
                             offer="isn't something you can do at Camp Crystal Lake; on your turn you can search, "
                                   "play a Fear Card or return to the Cabin.",
                             missing=lambda kind, key: f"{DOING[kind]} needs '{key}'.")
    if state["phase"] == "over":
        raise IllegalAction("Help has arrived: the five nights are over.")
    if kind in HOST_ONLY:
        if actor is not None:
            raise IllegalAction(f"{DOING[kind]} is for the host screen.")
        return (_critical if kind == "critical" else _bag)(state, action)
    seat = _whose(state, action, actor)
    handler = {"search": _search, "fear": _fear, "defense": _defense, "return": _return, "escape": _escape,
               "drop-off": _drop_off, "set-board": _set_board, "set-hand": _set_hand}[kind]
    return handler(state, action, seat)


# ---- turn actions --------------------------------------------------------------------------------------------------

def _search(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'reach into the Camp Bag, draw one token out, and place it on your Player Board.'"""
    player = _on_turn(state, seat, "Searching for Supplies")
    token = action["supply"]
    if not isinstance(token, str) or token not in TOKENS:
        raise IllegalAction(f"'{str(token)[:30]}' isn't a token in the Camp Bag; it holds "
                            f"{', '.join(name(supply, 2) for supply in SUPPLIES)} and Jason tokens.")
    bag = bag_now(state)
    if bag is not None and bag[token] <= 0:
        what = "Jason tokens" if token == "jason" else name(token, 2)
        raise IllegalAction(f"By the host's count the Camp Bag holds no {what} now; check the token drawn, "
                            "or correct the bag count or a Player Board.")
    _check_box_total(state, 1)
    second_jason = token == "jason" and player["board"]["jason"] >= 1
    can_dodge = second_jason and escape_usable(state, player)
    escape = action.get("escape")
    if escape is not None and not can_dodge:
        raise IllegalAction("There is no Second Jason Attack to dodge with an Escape Token here; leave 'escape' out.")
    if can_dodge and escape not in ("use", "keep"):
        raise IllegalAction("That's a second Jason token and you hold an Escape Token: say 'use' to discard it "
                            "and send your first Jason back to the bag, or 'keep' to take the attack.")
    after = copy.deepcopy(state)
    mine = after["players"][str(seat)]
    events = []
    if token != "jason":
        mine["board"][token] += 1
        events.append(f"searched and found {counted(token, 1)}.")
    elif not second_jason:
        mine["board"]["jason"] = 1
        events.append("searched and found a Jason token: a close call. A second one tonight means a Jason attack.")
    elif escape == "use":
        mine["escape"], mine["escape_night"] = False, None  # the first Jason goes back, the new one stays
        events.append("searched and found a second Jason token, and discarded the Escape Token: the first Jason "
                      "token goes back to the Camp Bag.")
    else:
        events.append(_jason_attack(after, seat))
        return _pass_turn(after, seat, events)
    return _pass_turn(after, seat, events)


def _check_box_total(state: dict[str, Any], more: int) -> None:
    """'67 Supply Tokens' (Jason tokens included): refuse taking more out of the bag than the box holds."""
    out = sum(out_of_bag(state).values())
    if more > 0 and out + more > BOX_TOKENS:
        raise IllegalAction(f"{out} of the box's {BOX_TOKENS} tokens are already out of the Camp Bag (on boards, in "
                            "Backpacks and on the night track); check the boards before drawing more.")


def escape_usable(state: dict[str, Any], player: dict[str, Any]) -> bool:
    """'This token may be discarded to remove a Jason Token on their Player Board on another night.'"""
    return player["escape"] and (player["escape_night"] is None or player["escape_night"] < state["night"])


def _jason_attack(state: dict[str, Any], seat: int, how: str = "searched and found a second Jason token") -> str:
    """A Second Jason Attack, on `state` (already a copy): board to the bag, forced return, an Escape token if none."""
    player = state["players"][str(seat)]
    lost = sum(player["board"][supply] for supply in SUPPLIES)
    player["board"] = empty_board()
    player["returned"] = True
    place = len(state["cabin"]) + 1
    state["cabin"].append({"seat": seat, "attacked": True, "bravery": 0, "card": False, "critical": 0})
    gained = not player["escape"]
    if gained:
        player["escape"], player["escape_night"] = True, state["night"]
    text = (f"{how}: SECOND JASON ATTACK! {lost} suppl{'y' if lost == 1 else 'ies'} "
            f"and both Jason tokens go back to the Camp Bag; fled to the Cabin ({ORDINALS[place - 1]}, dark side up) "
            "with no Bravery Bonus")
    return text + (" and gains an Escape Token." if gained else "; already holds an Escape Token, so gains none.")


def _fear(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'A player may choose to play a Fear Card for their turn.' Returned players 'may not be the target'."""
    player = _on_turn(state, seat, "Playing a Fear Card")
    if player["fear_cards"] < 1:
        raise IllegalAction(f"{seat_name(seat)} has no Fear Cards left to play.")
    target = action.get("target")
    if target is not None:
        if isinstance(target, bool) or not isinstance(target, int) or target not in state["seats"]:
            raise IllegalAction(f"There is no Counselor {str(target)[:10]} to target.")
        if target == seat:
            raise IllegalAction("Name another counselor as the target, or leave the target out.")
        if state["players"][str(target)]["returned"]:
            raise IllegalAction(f"{seat_name(target)} is back at the Cabin and can't be the target of Fear Cards "
                                "tonight.")
    after = copy.deepcopy(state)
    after["players"][str(seat)]["fear_cards"] -= 1
    on = f" on {seat_name(target)}" if target is not None else ""
    return _pass_turn(after, seat, [f"played a Fear Card{on}."])


def _defense(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'Using these defensive Fear Cards can only be done out of turn, and does not count as an action.'"""
    if state["mode"] != "advanced":
        raise IllegalAction("This is a basic game: the Defense Fear Cards were removed from the deck.")
    player = _searching(state, seat, "Playing a Defense Fear Card")
    if state["turn"] == seat:
        raise IllegalAction("Defense Fear Cards are played out of turn, to block a Fear Card played against you.")
    if player["fear_cards"] < 1:
        raise IllegalAction(f"{seat_name(seat)} has no Fear Cards in hand.")
    after = copy.deepcopy(state)
    after["players"][str(seat)]["fear_cards"] -= 1
    return after, [Event(f"played a Defense Fear Card against {seat_name(state['turn'])}'s Fear Card.")]


def _return(state: dict[str, Any], action: dict[str, Any], seat: int):
    """Return to the Cabin: the next Bravery space's bonus; the Critical Supply card's points to the first holder.

    "If you are the first player to return with the Supplies shown on the Critical Supply Card, gain the points shown
    on the card." Choice: the set is checked on the Player Board (what you flip and bring back tonight), not the
    Backpack, whose Supplies wait "to be traded at the end of another day".
    """
    player = _on_turn(state, seat, "Returning to the Cabin")
    critical = state["critical"]
    if critical is None:
        raise IllegalAction(f"Enter Night {state['night']}'s Critical Supply card on the host screen first "
                            "(its set and points), so the Cabin can check who holds it.")
    place = len(state["cabin"]) + 1
    points = state["bravery_points"][min(place, len(state["bravery_points"])) - 1]
    claims = critical["claimed_by"] is None and holds_set(player["board"], critical["set"])
    after = copy.deepcopy(state)
    mine = after["players"][str(seat)]
    mine["returned"] = True
    mine["fear_cards"] += 1
    gained = critical["points"] if claims else 0
    if claims:
        after["critical"]["claimed_by"] = seat
    after["cabin"].append({"seat": seat, "attacked": False, "bravery": points, "card": True, "critical": gained})
    bonus = f"{points} point{'s' if points != 1 else ''} and a Fear card" if points else "a Fear card"
    text = f"returned to the Cabin {ORDINALS[place - 1]}: Bravery Bonus, {bonus}."
    if claims:
        text += f" First back with the Critical Supply set: +{gained} points."
    return _pass_turn(after, seat, [text])


def _pass_turn(state: dict[str, Any], seat: int, texts: list[str]):
    """Hand the turn on clockwise; when nobody is left searching, the night ends and drop-off begins."""
    following = next_turn(state, seat)
    events = [Event(text) for text in texts]
    if following is None:
        state["turn"] = None
        state["phase"] = "drop-off"
        state["starter"] = state["cabin"][-1]["seat"]  # "The last player to Return ... takes the first turn"
        last = "the five nights end" if state["night"] == state["nights"] else "drop off your supplies"
        events.append(Event(f"Everyone is back at the Cabin: Night {state['night']} is over; {last}."))
    else:
        state["turn"] = following
    return state, events


def _escape(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'An Escape Token may be discarded by its owner at any time and does not count as an action.'"""
    if state["phase"] != "night":
        raise IllegalAction("Escape Tokens remove a Jason token during the night; now it's drop-off.")
    player = state["players"][str(seat)]
    if not player["escape"]:
        raise IllegalAction(f"{seat_name(seat)} holds no Escape Token.")
    if not escape_usable(state, player):
        raise IllegalAction("An Escape Token removes a Jason token on another night than the one it was gained.")
    if player["board"]["jason"] < 1:
        raise IllegalAction(f"There is no Jason token on {seat_name(seat)}'s Player Board to send back.")
    after = copy.deepcopy(state)
    mine = after["players"][str(seat)]
    mine["board"]["jason"] -= 1
    mine["escape"], mine["escape_night"] = False, None
    return after, [Event("discarded an Escape Token: a Jason token goes from the Player Board back to the Camp Bag.")]


# ---- drop-off and the next night ----------------------------------------------------------------------------------

def parse_keep(raw: Any) -> list[str]:
    """The Backpack choice: a list of supply keys, or text like 'axe,pan'; 'nothing' or missing keeps nothing."""
    if raw is None or raw == "nothing":
        return []
    if isinstance(raw, str):
        raw = [part.strip() for part in raw.split(",") if part.strip()]
    if not isinstance(raw, list) or not all(isinstance(item, str) for item in raw):
        raise IllegalAction("Say what goes in the Backpack as a list of supplies, like [\"axe\", \"pan\"].")
    for item in raw:
        if item == "jason":
            raise IllegalAction("A Jason token can't be saved in the Backpack: it goes back to the Camp Bag.")
        if item not in SUPPLIES:
            raise IllegalAction(f"'{item[:30]}' isn't a Supply; the Supplies are {', '.join(SUPPLIES)}.")
    if len(raw) > 2:
        raise IllegalAction(f"The Backpack saves up to two Supplies, not {len(raw)}.")
    return sorted(raw, key=SUPPLIES.index)


def _drop_off(state: dict[str, Any], action: dict[str, Any], seat: int):
    """Save up to two Supplies in the Backpack, score the rest with one bonus; after Night 5 everything counts."""
    if state["phase"] != "drop-off":
        raise IllegalAction(f"Drop-off comes when everyone is back at the Cabin; Night {state['night']} is still on.")
    player = state["players"][str(seat)]
    if player["dropped"]:
        raise IllegalAction(f"{seat_name(seat)} has already dropped off tonight.")
    final = state["night"] == state["nights"]
    keep = parse_keep(action.get("keep"))
    pool = pool_of(player)
    if final and keep:
        raise IllegalAction("After the fifth night everything is dropped off, Backpacks included; keep nothing.")
    for supply in set(keep):
        if keep.count(supply) > pool[supply]:
            raise IllegalAction(f"{seat_name(seat)} has {counted(supply, pool[supply])} to save, not "
                                f"{keep.count(supply)}.")
    defense = 0
    if final and state["mode"] == "advanced":
        if "defense" not in action:
            raise IllegalAction(f"Say how many of your {player['fear_cards']} Fear Cards are Defense Fear Cards "
                                "(0 if none): they score 3 points each.")
        defense = _number(action, "defense", "the number of Defense Fear Cards", 0, player["fear_cards"])
    elif "defense" in action and action["defense"] not in (0, None):
        raise IllegalAction("Defense Fear Cards are counted after the fifth night of an advanced game only.")
    bonus = action.get("bonus")
    if bonus is not None and not isinstance(bonus, str):
        raise IllegalAction("Name the bonus by its key, like 'three:pan:cleaver', or leave it out for the best.")
    try:
        result = score(without(pool, keep), state["values"], bonus, jason=player["board"]["jason"])
    except ScoringError as error:
        raise IllegalAction(str(error)) from None
    after = copy.deepcopy(state)
    mine = after["players"][str(seat)]
    tonight = [entry for entry in after["cabin"] if entry["seat"] == seat]
    bravery = tonight[0]["bravery"] if tonight else 0
    critical = tonight[0]["critical"] if tonight else 0
    lines = list(result["breakdown"])
    extras = 0
    if final:
        plain = player["fear_cards"] - defense
        extras = plain + 3 * defense + (3 if player["escape"] else 0)
        lines.insert(-1, f"{plain} Fear Card{'s' if plain != 1 else ''} left, {plain} x 1 = {plain}")
        if state["mode"] == "advanced":
            lines.insert(-1, f"{defense} Defense Fear Card{'s' if defense != 1 else ''}, {defense} x 3 = {3 * defense}")
        if player["escape"]:
            lines.insert(-1, "1 Escape Token, 1 x 3 = 3")
        lines[-1] = f"Total {result['points'] + extras}"
        mine["fear_cards"], mine["escape"], mine["escape_night"] = 0, False, None
    mine["nights"].append({"night": state["night"], "bravery": bravery, "critical": critical,
                           "drop_off": result["points"], "extras": extras,
                           "total": bravery + critical + result["points"] + extras,
                           "kept": keep, "bonus": result["bonus"], "breakdown": lines})
    mine["board"] = empty_board()  # "Once scored, all tokens on Player Boards are returned to the Camp Bag."
    mine["backpack"] = keep
    mine["dropped"] = True
    after["last_drop_offs"] = [entry for entry in after["last_drop_offs"]  # tonight's only: last night's go
                               if entry["night"] == state["night"] and entry["seat"] != seat]
    after["last_drop_offs"].append({"seat": seat, "night": state["night"], "breakdown": lines,
                                    "points": result["points"] + extras, "kept": keep,
                                    "night_total": mine["nights"][-1]["total"], "bravery": bravery,
                                    "critical": critical, "attacked": bool(tonight and tonight[0]["attacked"])})
    saved = f", saved {keep_label(keep)} in the Backpack" if keep else ""
    scored = result["points"] + extras
    night_total = mine["nights"][-1]["total"]
    events = [Event(f"dropped off for {scored} point{'s' if scored != 1 else ''} ({result['bonus']['label']}){saved}; "
                    f"{night_total} for Night {state['night']} in all.")]
    if all(other["dropped"] for other in after["players"].values()):
        events += _end_of_night(after)
    return after, events


def _end_of_night(state: dict[str, Any]) -> list[Event]:
    """Everyone has dropped off: the game ends after the last night, else the next night begins (on `state`, a copy)."""
    if state["night"] == state["nights"]:
        state["phase"], state["turn"] = "over", None
        return []
    state["night"] += 1
    state["phase"] = "night"
    state["cabin"] = []
    state["critical"] = None
    state["turn"] = state["starter"]
    for player in state["players"].values():
        player["fear_cards"] = min(player["fear_cards"] + 1, MAX_FEAR_CARDS)
        player["returned"] = False
        player["dropped"] = False
    return [Event(f"Night {state['night']} begins: everyone draws a Fear Card, a new Critical Supply card is "
                  f"revealed, and the Night {state['night']} Jason token goes into the Camp Bag. "
                  f"{seat_name(state['starter'])}, last back to the Cabin, goes first.")]


# ---- what only the cardboard knows: entered by the host or the player ---------------------------------------------

def _critical(state: dict[str, Any], action: dict[str, Any]):
    """'Each Critical Supply Card shows a set of Supplies and the number of points the first player to return ...'"""
    if state["phase"] != "night":
        raise IllegalAction("Enter the Critical Supply card during the night it is revealed.")
    if state["critical"] is not None and state["critical"]["claimed_by"] is not None:
        raise IllegalAction(f"{seat_name(state['critical']['claimed_by'])} already claimed tonight's Critical Supply "
                            "card; undo that return to change the card.")
    wanted = _counts(action, SUPPLIES, scoring.MAX_TOKENS)
    if not any(wanted.values()):
        raise IllegalAction("A Critical Supply card shows at least one Supply; enter how many of each it shows.")
    points = _number(action, "points", "the card's points", 1, MAX_CRITICAL_POINTS)
    after = copy.deepcopy(state)
    after["critical"] = {"set": {supply: count for supply, count in wanted.items() if count}, "points": points,
                         "claimed_by": None}
    shown = ", ".join(counted(supply, count) for supply, count in wanted.items() if count)
    return after, [Event(f"revealed Night {state['night']}'s Critical Supply card: {shown}, worth {points} points "
                         "to the first counselor back at the Cabin with it.")]


def _bag(state: dict[str, Any], action: dict[str, Any]):
    """The box's Supply and Jason tokens, counted once, so the app knows what the Camp Bag holds."""
    box = _counts(action, TOKENS, MAX_BOX_COUNT)
    if not any(box.values()):
        raise IllegalAction("Enter how many tokens of each kind the box holds.")
    if sum(box.values()) > BOX_TOKENS:
        raise IllegalAction(f"That is {sum(box.values())} tokens; the box holds {BOX_TOKENS} Supply Tokens, "
                            "Jason tokens included. Count again.")
    out = out_of_bag(state)
    for token in TOKENS:
        if box[token] < out[token]:
            what = "Jason tokens" if token == "jason" else name(token, 2)
            where = "on boards, in Backpacks and on the night track" if token == "jason" else "on boards and in " \
                                                                                              "Backpacks"
            raise IllegalAction(f"You counted {box[token]} {what}, but {out[token]} are {where} right now.")
    after = copy.deepcopy(state)
    after["box"] = box
    total = sum(box.values())
    return after, [Event(f"counted the Camp Bag's tokens: {total} in the box, {box['jason']} of them Jason tokens.")]


def _set_board(state: dict[str, Any], action: dict[str, Any], seat: int):
    """After a Fear Card moves tokens: what the Player Board shows now. Returned players can't be targeted.

    "A Second Jason Attack occurs when a player has two Jason Tokens on their Player Board" -- on anyone's turn, so a
    Fear Card that puts a second Jason on a board is recorded here as the attack (or dodged with an Escape Token).
    """
    player = _searching(state, seat, "Correcting a Player Board")
    board = _counts(action, TOKENS, scoring.MAX_TOKENS)
    if board["jason"] > 2:
        raise IllegalAction("A Player Board never holds more than two Jason tokens: the second one is a Second Jason "
                            "Attack.")
    if board == player["board"]:
        raise IllegalAction(f"{seat_name(seat)}'s Player Board already shows that.")
    bag = bag_now(state)
    if bag is not None:
        for token in TOKENS:
            more = board[token] - player["board"][token]
            if more > bag[token]:
                what = "Jason tokens" if token == "jason" else name(token, 2)
                raise IllegalAction(f"That takes {more} more {what} than the Camp Bag holds by the count "
                                    f"({bag[token]}).")
    _check_box_total(state, sum(board.values()) - sum(player["board"].values()))
    attack = board["jason"] == 2
    can_dodge = attack and escape_usable(state, player)
    escape = action.get("escape")
    if escape is not None and not can_dodge:
        raise IllegalAction("There is no Second Jason Attack to dodge with an Escape Token here; leave 'escape' out.")
    if can_dodge and escape not in ("use", "keep"):
        raise IllegalAction(f"Two Jason tokens and {seat_name(seat)} holds an Escape Token: say 'use' to discard it "
                            "and send one Jason back to the bag, or 'keep' to take the attack.")
    after = copy.deepcopy(state)
    mine = after["players"][str(seat)]
    if attack and escape != "use":
        mine["board"] = board
        text = _jason_attack(after, seat, f"recorded a second Jason token on {seat_name(seat)}'s Player Board")
        if state["turn"] == seat:
            return _pass_turn(after, seat, [text])
        return after, [Event(text)]
    if attack:  # dodged: the Escape Token sends one Jason back to the bag
        board = {**board, "jason": 1}
        mine["escape"], mine["escape_night"] = False, None
    mine["board"] = board
    shown = ", ".join(counted(token, count) if token != "jason" else f"{count} Jason" for token, count
                      in board.items() if count) or "nothing"
    dodged = " The Escape Token is discarded: the second Jason goes back to the Camp Bag." if attack else ""
    return after, [Event(f"corrected {seat_name(seat)}'s Player Board to: {shown}.{dodged}")]


def _set_hand(state: dict[str, Any], action: dict[str, Any], seat: int):
    """After a Fear Card draws or discards cards: how many Fear Cards the player holds now."""
    count = _number(action, "count", "the number of Fear Cards", 0, MAX_FEAR_CARDS)
    player = state["players"][str(seat)]
    if count == player["fear_cards"]:
        raise IllegalAction(f"{seat_name(seat)} already holds {count} Fear Cards.")
    after = copy.deepcopy(state)
    after["players"][str(seat)]["fear_cards"] = count
    return after, [Event(f"corrected {seat_name(seat)}'s hand to {count} Fear Cards (was {player['fear_cards']}).")]


# ---- the contract's other functions --------------------------------------------------------------------------------

def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """What the UI offers: the turn actions to whoever's turn it is, drop-off to who hasn't, the host's entries."""
    if state["phase"] == "over" or (seat is not None and seat not in state["seats"]):
        return []
    actions: list[dict[str, Any]] = []
    seats = [seat] if seat is not None else list(state["seats"])
    bag = bag_now(state)
    room = sum(out_of_bag(state).values()) < BOX_TOKENS
    for number in seats:
        player = state["players"][str(number)]
        mark = {"whose": number} if seat is None else {}
        if state["phase"] == "night" and not player["returned"]:
            if state["turn"] == number:
                for token in TOKENS:
                    if not room or (bag is not None and bag[token] <= 0):
                        continue  # the bag holds none of it: the search would be refused
                    if token == "jason" and player["board"]["jason"] and escape_usable(state, player):
                        actions += [{"type": "search", "supply": "jason", "escape": choice, **mark}
                                    for choice in ("use", "keep")]
                    else:
                        actions.append({"type": "search", "supply": token, **mark})
                if player["fear_cards"]:
                    actions.append({"type": "fear", **mark})
                if state["critical"] is not None:
                    actions.append({"type": "return", **mark})
            elif state["mode"] == "advanced" and player["fear_cards"]:
                actions.append({"type": "defense", **mark})
            if escape_usable(state, player) and player["board"]["jason"]:
                actions.append({"type": "escape", **mark})
        if state["phase"] == "drop-off" and not player["dropped"]:
            final_count = state["night"] == state["nights"] and state["mode"] == "advanced"
            actions.append({"type": "drop-off", **mark, **({"defense": 0} if final_count else {})})
    if seat is None:
        if state["phase"] == "night" and (state["critical"] is None or state["critical"]["claimed_by"] is None):
            actions.append({"type": "critical"})
        actions.append({"type": "bag"})
    return actions


def standings(state: dict[str, Any]) -> list[tuple[int, int]]:
    """(seat, points) from most points down; seat order breaks nothing, it only keeps the list steady."""
    return sorted(((seat, total_points(state["players"][str(seat)])) for seat in state["seats"]),
                  key=lambda row: -row[1])


def outcome(state: dict[str, Any]) -> Outcome | None:
    """'The player with the most points is the winner!' The rulebook names no tie-break, so a tie is shared."""
    if state["phase"] != "over":
        return None
    ranked = standings(state)
    top = ranked[0][1]
    winners = tuple(seat for seat, points in ranked if points == top)
    if len(winners) == 1:
        text = f"Help has arrived! {seat_name(winners[0])} wins with {top} points."
    else:
        text = f"Help has arrived! {' and '.join(seat_name(seat) for seat in winners)} share the win with {top} points."
    return Outcome(winners, text, shared=len(winners) > 1)


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything is public on the table; add the derived numbers the screens show (odds, choices, the board check)."""
    seat = viewer.seat if isinstance(viewer, Viewer) else viewer  # until this game declares its moves (issue 13)
    from .views import derive  # the presentation arithmetic lives in its own pure module

    return derive(state, seat)


__all__ = ["new_state", "legal_actions", "apply", "outcome", "view", "FORM_NUMBERS", "bag_now", "out_of_bag",
           "pool_of", "keep_options"]


def figures(state: dict[str, Any]) -> dict[str, Any]:
    """For the history: each counselor's points in all and night by night, and their best night (the contract's
    optional `figures`; reads only the state)."""
    seats = {}
    for seat in state["seats"]:
        nights = [(night["night"], night["total"]) for night in state["players"][str(seat)]["nights"]]
        seats[str(seat)] = {"score": sum(total for _, total in nights), "status": None,
                            "details": [[f"Night {number}", total] for number, total in nights],
                            "records": {"Best night": max(total for _, total in nights)} if nights else {}}
    scored = max((len(state["players"][str(seat)]["nights"]) for seat in state["seats"]), default=0)
    return {"score": "points", "side": None, "scenario": None, "seats": seats,
            "facts": [["Nights scored", f"{scored} of {state['nights']}"], ["Mode", state["mode"]]]}
