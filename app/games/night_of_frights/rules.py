"""Five Nights at Freddy's: Night of Frights! — the Scare Tracker, the Guard bag, the Event deck and whose turn it is.

Pure: no Flask, no SQLAlchemy. The cardboard keeps the board, the items and the cards' texts; Night Shift keeps what
decides the game: each character's tracker space and side, the bag's true contents, the Event cards left, the Action
tokens of the turn, and it draws from the bag fairly (or records what the real bag gave).

Seats are the characters in box order (Freddy, Bonnie, Chica, Foxy). The rulebook says "passing an Action token to
the player on your left" and the app cannot see who sits where: turns pass in seat order (assumed) until a player
passes the turn to someone else, who then stays on their left for the rest of the night ("order").
"""

from __future__ import annotations

import copy
from typing import Any

from ...dice import DiceError
from ..contract import Event, IllegalAction, Outcome, Viewer
from ..moves import check_move
from .guard_bag import GUARD, MISS, as_percent, bag_tokens, capture_chance

FORM_NUMBERS = frozenset({"room", "steps", "guards"})

TRACK_TOP = 10  # "When you reach 10 on the Scare Tracker, you no longer flip your Character token to the X side."
HAND = 3  # "Each player draws three Action cards." / "Draw Action cards from the deck until you have three."
ACTION_CARDS = 18  # Contents: 18 Action Cards
CAPTURE_ROOMS = (1, 2)  # "You must be in Room 1 or 2"
MAX_SCARE_STEP = 3  # "move it one, two, or three spaces up the Scare Tracker"
DRAW_TABLE_MAX = 20  # the same bound as the setup option

# What an Event card may say. The first three change what Night Shift tracks; the rest happen on the board.
EFFECTS: dict[str, str] = {
    "guard": "+1 GUARD TOKEN",
    "miss": "-2 MISS TOKENS",
    "action": "+1 ACTION TOKEN",
    "item": "DRAW AN ITEM",
    "jump-room": "JUMP TO A ROOM",
    "jump-camera": "JUMP TO THE CAMERA",
    "swap": "SWAP PLACES",
    "steal": "STEAL AN ITEM",
    "other": "another effect",
}
ACTIONS: dict[str, str] = {"move": "MOVE", "pick-up": "PICK UP", "play-card": "PLAY A CARD"}

# type -> (fields it needs, fields it may have), besides "type" and "seat"
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "first-player": ((), ("whose",)),
    "place-items": ((), ()),
    "take-action": (("what",), ()),
    "spend": (("steps",), ()),
    "capture": (("room", "event"), ()),
    "draw": ((), ("guards",)),
    "end-turn": ((), ("whose",)),
    "party-time": ((), ("whose",)),
    "draw-table": (("values",), ()),
}
DOING = {"first-player": "Choosing the first player", "place-items": "Placing two items",
         "take-action": "Taking an action", "spend": "Spending items", "capture": "Trying to capture",
         "draw": "Drawing from the bag", "end-turn": "Passing the turn", "party-time": "Shouting party time",
         "draw-table": "Changing the draw table"}
ASK = {"what": "Say which action: move, pick-up or play-card.",
       "steps": "Say how many spaces the items move you up the Scare Tracker: 1, 2 or 3.",
       "room": "Say which room you are in: 1 or 2.",
       "event": "Say what the Event card you flipped says, like guard, miss, action or other.",
       "values": "Give the number of tokens drawn from each Scare Tracker space 1 to 10."}


# ---- setup ----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Setup steps 5-9: the bag with 19 Miss + 1 Guard, every token on 0 X side up, three cards each (Freddy four)."""
    characters = list(options["characters"])
    if len(characters) != len(seats):
        raise ValueError("one character per seat")
    bag = profile.get("bag", {MISS: 19, GUARD: 1})
    hands = {str(seat): HAND + (1 if name == "Freddy" else 0) for seat, name in zip(seats, characters, strict=True)}
    deck = int(options["event_deck"])
    return {
        "seats": list(seats),
        "order": list(seats),  # around the table to the left; corrected when a turn passes to someone else
        "characters": {str(seat): name for seat, name in zip(seats, characters, strict=True)},
        "scare_track": {str(seat): {"space": 0, "scary": False} for seat in seats},
        "hands": hands,
        "action_deck": ACTION_CARDS - sum(hands.values()),
        "action_discard": 0,
        "bag": {MISS: int(bag[MISS]), GUARD: int(bag[GUARD])},
        "guard_aside": True,  # "Set the other Guard token aside for now."
        "action_token_aside": True,  # "Set the other Action token aside for now."
        "action_tokens": int(profile.get("action_tokens", 4)),
        "event_deck": deck,
        "event_deck_size": deck,
        "events_flipped": [],
        "draw_table": [int(number) for number in options["draw_table"]],
        "turn": None,  # until the table says who most recently ate pizza
        "turn_number": 0,
        "actions_left": 0,
        "items_placed": False,
        "forgot_items": False,
        "party_called": None,
        "capture": None,
        "last_draw": None,
        "attempts": 0,
        "winner": None,
        "escaped": False,
    }


# ---- helpers --------------------------------------------------------------------------------------------------------

def _name(state: dict[str, Any], seat: int) -> str:
    return state["characters"][str(seat)]


def _next_seat(state: dict[str, Any], seat: int) -> int:
    """The player on this seat's left: seat order until the table has said otherwise."""
    order = state.get("order", state["seats"])
    return order[(order.index(seat) + 1) % len(order)]


def _whole(value: Any, message: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(message)
    return value


def _draws_at(state: dict[str, Any], space: int) -> int | None:
    """How many tokens a capture from this space draws (draw table, assumed); None below space 1."""
    return state["draw_table"][space - 1] if space >= 1 else None


def _tokens(count: int) -> str:
    return "1 token" if count == 1 else f"{count} tokens"


def _bag_text(bag: dict[str, int]) -> str:
    guards = "1 Guard" if bag[GUARD] == 1 else f"{bag[GUARD]} Guards"
    return f"{bag[MISS]} Miss + {guards}"


# ---- apply ----------------------------------------------------------------------------------------------------------

def apply(state: dict[str, Any], action: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
    """Check the action completely, then return a changed copy of the state and what the log should say."""
    kind, actor = check_move(action, FIELDS, DOING, state["seats"], example='{"type": "end-turn"}',
                             offer="isn't a move in Night of Frights; you can place items, take an action, spend "
                                   "items, try to capture, draw from the bag or pass the turn.", missing=ASK)
    if state["winner"] is not None or state["escaped"]:
        raise IllegalAction("The night is over; nothing more can happen at this table.")
    if kind == "first-player":
        return _first_player(state, action, actor)
    if kind == "party-time":
        return _party_time(state, action, actor)
    if kind == "draw-table":
        return _draw_table(state, action, actor)
    seat = _turn_seat(state, actor, kind)
    after, events = _turn_move(state, action, kind, seat, rng)
    if actor is None:  # the host screen plays for whoever's turn it is: the log names them
        events = [Event(f"for {_name(state, seat)}, {event.text}", event.undoable) for event in events]
    return after, events


def _turn_move(state: dict[str, Any], action: dict[str, Any], kind: str, seat: int, rng: Any):
    """A move of the player whose turn it is."""
    if kind == "draw":
        return _draw(state, action, seat, rng)
    if state["capture"] is not None:
        raise IllegalAction(f"{_name(state, seat)} flipped an Event card to try to capture: draw from the bag first.")
    if kind == "place-items":
        return _place_items(state, seat)
    if kind == "take-action":
        return _take_action(state, action, seat)
    if kind == "spend":
        return _spend(state, action, seat)
    if kind == "capture":
        return _capture(state, action, seat)
    return _end_turn(state, action, seat)


def _turn_seat(state: dict[str, Any], actor: int | None, kind: str) -> int:
    """The seat whose turn it is; a phone may act only on its own turn, the host acts for the current player."""
    turn = state["turn"]
    if turn is None:
        raise IllegalAction("First say who most recently ate pizza: they take the first turn.")
    if actor is not None and actor != turn:
        raise IllegalAction(f"It's {_name(state, turn)}'s turn; {DOING[kind].lower()} waits for your own turn.")
    return turn


def _named_seat(state: dict[str, Any], action: dict[str, Any], actor: int | None, missing: str, how: str,
                own_only: str) -> int:
    """The seat a move names in `whose`: a phone names only itself, the host must name someone ({name} in own_only)."""
    whose = action.get("whose")
    if whose is None:
        if actor is None:
            raise IllegalAction(missing)
        whose = actor
    whose = _whole(whose, how)
    if whose not in state["seats"]:
        raise IllegalAction(f"There is no seat {whose} at this table.")
    if actor is not None and whose != actor:
        raise IllegalAction(own_only.format(name=_name(state, whose)))
    return whose


def _first_player(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """'The player who most recently ate pizza will take the first turn. Give them four Action tokens.'"""
    if state["turn"] is not None:
        raise IllegalAction(f"The first turn has been taken already; it is {_name(state, state['turn'])}'s turn.")
    whose = _named_seat(state, action, actor, "Say who most recently ate pizza: they take the first turn.",
                        "Say who goes first by seat number, like 2.",
                        "You can say only that you ate pizza most recently; the host can pick {name}.")
    after = copy.deepcopy(state)
    _start_turn(after, whose)
    return after, [Event(f"{_name(state, whose)} most recently ate pizza and takes the first turn with "
                         f"{after['actions_left']} Action tokens.")]


def _start_turn(state: dict[str, Any], seat: int) -> None:
    state["turn"] = seat
    state["turn_number"] += 1
    state["actions_left"] = state["action_tokens"]
    state["items_placed"] = False
    state["forgot_items"] = False
    state["party_called"] = None


def _place_items(state: dict[str, Any], seat: int):
    """Step 1: 'Draw two Item tokens from the pool. Place each one face up in the room ... that matches the number.'"""
    if state["items_placed"]:
        raise IllegalAction(f"{_name(state, seat)} has already placed two items this turn.")
    after = copy.deepcopy(state)
    after["items_placed"] = True
    return after, [Event("placed two Item tokens on the board.")]


def _forgot(state: dict[str, Any]) -> bool:
    """'If you forget this step by going to Step 2': the first action without placing items opens 'party time!'."""
    if state["items_placed"] or state["forgot_items"]:
        return False
    state["forgot_items"] = True
    return True


PARTY = " They forgot to place two items: the first other player to shout \"party time!\" draws an Item token."


def _use_token(state: dict[str, Any], seat: int, doing: str) -> None:
    if state["actions_left"] < 1:
        raise IllegalAction(f"{_name(state, seat)} has no Action tokens left this turn, so can't {doing}; "
                            f"pass the turn to {_name(state, _next_seat(state, seat))}.")


def _take_action(state: dict[str, Any], action: dict[str, Any], seat: int):
    """Step 2: MOVE, PICK UP or PLAY A CARD, each for one Action token passed to the left."""
    what = action["what"]
    if not isinstance(what, str) or what not in ACTIONS:
        raise IllegalAction("Say which action: move, pick-up or play-card (trying to capture has its own button).")
    _use_token(state, seat, ACTIONS[what].lower())
    if what == "play-card" and state["hands"][str(seat)] < 1:
        raise IllegalAction(f"{_name(state, seat)} has no Action cards in hand to play.")
    after = copy.deepcopy(state)
    after["actions_left"] -= 1
    text = f"took an action: {ACTIONS[what]}"
    if what == "play-card":
        after["hands"][str(seat)] -= 1
        after["action_discard"] += 1
        text += f" ({after['hands'][str(seat)]} left in hand; \"Don't draw a card to replace the one you played!\")"
    text += f". Action tokens left: {after['actions_left']}."
    if _forgot(after):
        text += PARTY
    return after, [Event(text)]


def _spend(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'Flip your Character token to the scary side and move it one, two, or three spaces up' — no Action token."""
    steps = _whole(action["steps"], "Say how many spaces the items move you up: 1, 2 or 3.")
    if not 1 <= steps <= MAX_SCARE_STEP:
        raise IllegalAction(f"Spending items moves you 1, 2 or 3 spaces up the Scare Tracker, not {steps}.")
    token = state["scare_track"][str(seat)]
    if token["space"] + steps > TRACK_TOP:
        raise IllegalAction(f"{_name(state, seat)} is on {token['space']}: {steps} more would move past {TRACK_TOP}, "
                            "the top of the Scare Tracker.")
    after = copy.deepcopy(state)
    mine = after["scare_track"][str(seat)]
    mine["space"] += steps
    flipped = "" if token["scary"] else ", flipped to the scary side"
    mine["scary"] = True
    return after, [Event(f"spent items: Scare Tracker {token['space']} \u2192 {mine['space']}{flipped}.")]


def _capture(state: dict[str, Any], action: dict[str, Any], seat: int):
    """'Trying to Capture' step 1: in Room 1 or 2, scary side up, one Action token: flip the top Event card."""
    name = _name(state, seat)
    room = _whole(action["room"], "Say which room you are in as a number: 1 or 2.")
    if room not in CAPTURE_ROOMS:
        raise IllegalAction(f"You can try to capture only from Room 1 or 2, not Room {room}.")
    event = action["event"]
    if not isinstance(event, str) or event not in EFFECTS:
        raise IllegalAction("Say what the Event card says: " + ", ".join(EFFECTS) + ".")
    token = state["scare_track"][str(seat)]
    if not token["scary"]:
        raise IllegalAction(f"{name}'s Character token shows the X side: spend items to get scarier before "
                            "trying to capture again.")
    _use_token(state, seat, "try to capture")
    bag = dict(state["bag"])
    if event == "guard":
        if not state["guard_aside"]:
            raise IllegalAction("The second Guard token is already in the bag; there is no other to add.")
        bag[GUARD] += 1
    elif event == "miss":
        if bag[MISS] < 2:
            left = "no Miss tokens" if bag[MISS] == 0 else "only 1 Miss token"
            raise IllegalAction(f"The bag holds {left}: -2 MISS TOKENS can't remove two.")
        bag[MISS] -= 2
    elif event == "action" and not state["action_token_aside"]:
        raise IllegalAction("The fifth Action token is already in play; +1 ACTION TOKEN has nothing left to give.")
    count = _draws_at(state, token["space"])
    if count > bag[MISS] + bag[GUARD]:
        raise IllegalAction(f"Space {token['space']} draws {_tokens(count)}, but the bag would hold only "
                            f"{bag[MISS] + bag[GUARD]} ({_bag_text(bag)}): the host can fix the draw table.")
    after = copy.deepcopy(state)
    after["bag"] = bag
    after["actions_left"] -= 1
    after["event_deck"] -= 1
    after["events_flipped"].append(event)
    text = f"tried to capture from Room {room} at space {token['space']} and flipped an Event card: {EFFECTS[event]}"
    if event == "guard":
        after["guard_aside"] = False
        text += " — the second Guard goes into the bag"
    elif event == "miss":
        text += " — two Miss tokens go back in the box"
    elif event == "action":
        # "From now on, players may take up to five actions per turn, including the current turn."
        after["action_token_aside"] = False
        after["action_tokens"] += 1
        after["actions_left"] += 1
        text += f" — from now on every turn has {after['action_tokens']} Action tokens"
    else:
        text += " (done on the board)"
    after["capture"] = {"seat": seat, "room": room, "space": token["space"], "count": count, "event": event}
    chance = capture_chance(bag[MISS], bag[GUARD], count)
    text += (f". Event cards left: {after['event_deck']}. Next: draw {_tokens(count)} from {_bag_text(bag)} "
             f"({as_percent(chance)} to find a Guard).")
    if _forgot(after):
        text += PARTY
    return after, [Event(text)]


def _draw(state: dict[str, Any], action: dict[str, Any], seat: int, rng: Any):
    """Step 2: draw as many tokens as the tracker space shows; a Guard wins, all Miss go back, the token flips to X."""
    capture = state["capture"]
    name = _name(state, seat)
    if capture is None:
        raise IllegalAction(f"{name} hasn't flipped an Event card: try to capture first, from Room 1 or 2.")
    bag, count = state["bag"], capture["count"]
    guards = action.get("guards")
    if count > bag[MISS] + bag[GUARD]:
        raise IllegalAction(f"The bag holds only {bag[MISS] + bag[GUARD]} tokens; {name} can't draw {count}.")
    if guards is None:
        pool = bag_tokens(bag)
        drawn = []
        try:
            for number in range(1, count + 1):
                drawn.append(pool.pop(rng.randbelow(len(pool), f"{name}'s capture: token {number} of {count}")))
        except DiceError as error:
            raise IllegalAction(str(error)) from None
        source = "app"
    else:
        guards = _whole(guards, "Say how many Guard tokens the real bag gave as a number, like 0 or 1.")
        if guards < 0:
            raise IllegalAction("The real bag can't give fewer than 0 Guard tokens.")
        if guards > bag[GUARD]:
            raise IllegalAction(f"The bag holds {_bag_text(bag)}: the real draw can't have {guards} Guards.")
        if guards > count:
            raise IllegalAction(f"{name} draws {_tokens(count)}, so at most {count} of them can be Guards.")
        if count - guards > bag[MISS]:
            raise IllegalAction(f"The bag holds only {bag[MISS]} Miss tokens; {count} drawn with {guards} Guards "
                                f"would need {count - guards}.")
        drawn = [MISS] * (count - guards) + [GUARD] * guards
        source = "physical"
    after = copy.deepcopy(state)
    after["capture"] = None
    after["attempts"] += 1
    captured = GUARD in drawn
    after["last_draw"] = {"seat": seat, "space": capture["space"], "count": count, "tokens": drawn,
                          "source": source, "captured": captured, "attempt": after["attempts"],
                          "bag": dict(bag)}
    shown = ", ".join(drawn)
    verb = "drew" if source == "app" else "drew from the real bag"
    if captured:
        after["winner"] = seat
        return after, [Event(f"{verb} {_tokens(count)}: {shown} — the Guard!")]
    text = f"{verb} {_tokens(count)}: {shown} — all Miss, back into the bag"
    token = after["scare_track"][str(seat)]
    if token["space"] < TRACK_TOP:
        token["scary"] = False
        text += "; the Character token flips to X"
    else:
        text += f"; at {TRACK_TOP} the token stays scary"
    text += _refill_hand(after, seat)
    if after["event_deck"] == 0:
        after["escaped"] = True
    return after, [Event(text + ".")]


def _refill_hand(state: dict[str, Any], seat: int) -> str:
    """Step 4: 'Draw Action cards from the deck until you have three.' An empty deck takes in the discard pile."""
    hand = state["hands"][str(seat)]
    need = max(0, HAND - hand)
    if need == 0:
        return f"; already holds {hand} Action cards"
    reshuffled = ""
    if state["action_deck"] < need:
        state["action_deck"] += state["action_discard"]
        state["action_discard"] = 0
        reshuffled = " (the discard pile shuffled into a new deck)"
    taken = min(need, state["action_deck"])
    state["action_deck"] -= taken
    state["hands"][str(seat)] += taken
    cards = "1 Action card" if taken == 1 else f"{taken} Action cards"
    return f"; draws {cards} back to {state['hands'][str(seat)]}{reshuffled}"


def _end_turn(state: dict[str, Any], action: dict[str, Any], seat: int):
    """The Action tokens pass to the left: the next player's turn starts with all of them.

    'whose' names the player really sitting on the left when that is not the next seat; the app remembers it by
    moving that player to just after this one in the order around the table.
    """
    following = _next_seat(state, seat)
    if action.get("whose") is not None:
        whose = _whole(action["whose"], "Say who sits on your left by seat number, like 2.")
        if whose not in state["seats"]:
            raise IllegalAction(f"There is no seat {whose} at this table.")
        if whose == seat:
            raise IllegalAction(f"{_name(state, seat)} can't pass the turn to themselves; pass it to the player "
                                "on the left.")
        following = whose
    after = copy.deepcopy(state)
    if following != _next_seat(state, seat):
        order = [number for number in after.get("order", after["seats"]) if number != following]
        order.insert(order.index(seat) + 1, following)
        after["order"] = order
    _start_turn(after, following)
    left = state["actions_left"]
    unused = f" with {left} Action token{'s' if left != 1 else ''} unused" if left else ""
    return after, [Event(f"passed the turn{unused}: {_name(state, following)} takes {after['actions_left']} "
                         "Action tokens and places two items.")]


def _party_time(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """'The first other player to shout "party time!" draws an Item token.'"""
    turn = state["turn"]
    if turn is None or not state["forgot_items"] or state["party_called"] is not None or state["items_placed"]:
        if state["party_called"] is not None:
            raise IllegalAction(f"{_name(state, state['party_called'])} already shouted party time this turn.")
        if state["items_placed"] and state["forgot_items"]:
            raise IllegalAction(f"Too late: nobody shouted party time before {_name(state, turn)} placed two items.")
        raise IllegalAction("Party time! works only when the player whose turn it is took an action before "
                            "placing two items.")
    whose = _named_seat(state, action, actor, "Say who shouted party time first.",
                        "Say who shouted party time by seat number, like 2.",
                        "You can shout party time only for yourself.")
    if whose == turn:
        raise IllegalAction("Only another player can shout party time on your turn.")
    after = copy.deepcopy(state)
    after["party_called"] = whose
    return after, [Event(f"{_name(state, whose)} shouted \"party time!\" first and draws an Item token; "
                         f"{_name(state, turn)} now places two items as normal.")]


def _draw_table(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """The host corrects the assumed draw table to what the real Scare Tracker prints."""
    if actor is not None:
        raise IllegalAction("Only the host can change the draw table.")
    if state["capture"] is not None:
        raise IllegalAction("Finish the draw from the bag before changing the draw table.")
    values = action["values"]
    if isinstance(values, (str, bytes)) or not isinstance(values, list) or len(values) != TRACK_TOP:
        raise IllegalAction(f"Give {TRACK_TOP} numbers: the tokens drawn from spaces 1 to {TRACK_TOP}.")
    for value in values:
        _whole(value, f"Each of the {TRACK_TOP} numbers must be a whole number of tokens.")
        if not 1 <= value <= DRAW_TABLE_MAX:
            raise IllegalAction(f"Each space draws from 1 to {DRAW_TABLE_MAX} tokens, not {value}.")
    if values == state["draw_table"]:
        raise IllegalAction("That is the draw table already.")
    after = copy.deepcopy(state)
    after["draw_table"] = list(values)
    return after, [Event("set the draw table for spaces 1-10 to " + ", ".join(str(v) for v in values) + ".")]


# ---- what the UI offers, the end, and what each screen sees ---------------------------------------------------------

def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """Templates of the moves this seat may make now (None: the host, who acts for the current player)."""
    if seat is not None and seat not in state["seats"]:
        return []
    if outcome(state) is not None:
        return []
    actions: list[dict[str, Any]] = []
    if seat is None and state["capture"] is None:  # a form: the host types the corrected numbers
        actions.append({"type": "draw-table", "values": list(state["draw_table"])})
    turn = state["turn"]
    if turn is None:
        return actions + [{"type": "first-player", "whose": number} for number in
                          (state["seats"] if seat is None else [seat])]
    if _party_open(state):
        shouters = [number for number in state["seats"] if number != turn] if seat is None else \
            ([seat] if seat != turn else [])
        actions.extend({"type": "party-time", "whose": number} for number in shouters)
    if seat is not None and seat != turn:
        return actions
    if state["capture"] is not None:
        return actions + [{"type": "draw"}, {"type": "draw", "guards": 0}]
    token = state["scare_track"][str(turn)]
    if not state["items_placed"]:
        actions.append({"type": "place-items"})
    if state["actions_left"] > 0:
        for what in ACTIONS:
            if what != "play-card" or state["hands"][str(turn)] > 0:
                actions.append({"type": "take-action", "what": what})
        if token["scary"]:
            actions.extend({"type": "capture", "room": room, "event": event}
                           for room in CAPTURE_ROOMS for event in _possible_effects(state))
    actions.extend({"type": "spend", "steps": steps} for steps in range(1, MAX_SCARE_STEP + 1)
                   if token["space"] + steps <= TRACK_TOP)
    actions.append({"type": "end-turn"})
    actions.extend({"type": "end-turn", "whose": number} for number in state["seats"]
                   if number not in (turn, _next_seat(state, turn)))
    return actions


def _party_open(state: dict[str, Any]) -> bool:
    """'The first other player to shout "party time!" draws an Item token. Then place two Item tokens ... as normal':
    the shout comes before the items, so placing them closes the chance."""
    return state["forgot_items"] and state["party_called"] is None and not state["items_placed"]


def _possible_effects(state: dict[str, Any]) -> list[str]:
    """The Event effects the bag and the set-aside tokens still allow."""
    effects = list(EFFECTS)
    if not state["guard_aside"]:
        effects.remove("guard")
    if state["bag"][MISS] < 2:
        effects.remove("miss")
    if not state["action_token_aside"]:
        effects.remove("action")
    return effects


def outcome(state: dict[str, Any]) -> Outcome | None:
    """'Ending the Game': a Guard drawn wins; an empty Event deck after a capture attempt means everyone loses."""
    if state["winner"] is not None:
        name = _name(state, state["winner"])
        return Outcome((state["winner"],), f"{name} drew the Guard token and captured the guard before dawn: "
                                           f"{name} wins!")
    if state["escaped"]:
        return Outcome((), "The Event deck is empty after a capture attempt: the guard escapes and all the "
                           "animatronics lose!")
    return None


def _odds(bag: dict[str, int], draws: int | None) -> dict[str, Any] | None:
    """A capture's chance from this bag, as a fraction and a percentage; None when it can't be drawn."""
    if draws is None or draws > bag[MISS] + bag[GUARD]:
        return None
    chance = capture_chance(bag[MISS], bag[GUARD], draws)
    return {"draws": draws, "fraction": f"{chance.numerator}/{chance.denominator}" if chance not in (0, 1)
            else str(chance), "percent": as_percent(chance)}


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything is public; plus the rows, odds and reminders the panel shows, so the template stays simple."""
    seat = viewer.seat if isinstance(viewer, Viewer) else viewer  # until this game declares its moves (issue 13)
    seen = copy.deepcopy(state)
    bag = state["bag"]
    turn = state["turn"]
    seen["bag_total"] = bag[MISS] + bag[GUARD]
    seen["bag_text"] = _bag_text(bag)
    seen["effects"] = [{"key": key, "label": label} for key, label in EFFECTS.items()]
    seen["possible_effects"] = _possible_effects(state)
    seen["actions"] = [{"key": key, "label": label} for key, label in ACTIONS.items()]
    seen["events_flipped_labels"] = [EFFECTS[key] for key in state["events_flipped"]]
    seen["turn_name"] = _name(state, turn) if turn is not None else None
    seen["next_name"] = _name(state, _next_seat(state, turn)) if turn is not None else None
    seen["party_open"] = _party_open(state)
    seen["pass_others"] = ([{"seat": number, "character": _name(state, number)} for number in state["seats"]
                            if number not in (turn, _next_seat(state, turn))] if turn is not None else [])
    # all 12 Event cards with four players is printed; a smaller deck is the host's count (assumed)
    seen["event_deck_assumed"] = len(state["seats"]) < 4
    seen["over"] = outcome(state) is not None
    seen["players"] = []
    for number in state["seats"]:
        token = state["scare_track"][str(number)]
        name = _name(state, number)
        seen["players"].append({
            "seat": number, "character": name, "initials": name[:2], "space": token["space"], "scary": token["scary"],
            "side": "scary" if token["scary"] else "X", "hand": state["hands"][str(number)],
            "turn": number == turn,
            "reminder": {"Freddy": "draws an extra Action card", "Chica": "has the Mr. Cupcake token"}.get(name, ""),
            "odds": _odds(bag, _draws_at(state, token["space"])),
        })
    seen["odds_table"] = [{"space": space, **(_odds(bag, _draws_at(state, space)) or
                                               {"draws": _draws_at(state, space), "fraction": "", "percent": "—"})}
                          for space in range(1, TRACK_TOP + 1)]
    capture = state["capture"]
    seen["capture_odds"] = _odds(bag, capture["count"]) if capture else None
    seen["capture_name"] = _name(state, capture["seat"]) if capture else None
    last = state["last_draw"]
    seen["last_draw_name"] = _name(state, last["seat"]) if last else None
    seen["me"] = None
    if seat is not None and seat in state["seats"]:
        token = state["scare_track"][str(seat)]
        higher = token["space"] + 1 if token["space"] < TRACK_TOP else None
        draws = _draws_at(state, token["space"])
        me = {"seat": seat, "character": _name(state, seat), "space": token["space"], "scary": token["scary"],
              "too_few": draws is not None and draws > seen["bag_total"],
              "my_turn": seat == turn, "odds": _odds(bag, _draws_at(state, token["space"])),
              "higher_space": higher, "higher_odds": _odds(bag, _draws_at(state, higher)) if higher else None,
              "can_capture": (seat == turn and token["scary"] and state["actions_left"] > 0
                              and capture is None and not seen["over"])}
        seen["me"] = me
    seen["steps_allowed"] = {}
    if turn is not None:
        space = state["scare_track"][str(turn)]["space"]
        seen["steps_allowed"] = {str(steps): space + steps <= TRACK_TOP for steps in range(1, MAX_SCARE_STEP + 1)}
        seen["turn_space"] = space
        seen["turn_scary"] = state["scare_track"][str(turn)]["scary"]
        seen["turn_hand"] = state["hands"][str(turn)]
    return seen
