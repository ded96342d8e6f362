"""Five Nights at Freddy's: Night of Frights!: the Scare Tracker, the Guard bag, the Event deck and whose turn it is.

Pure: no Flask, no SQLAlchemy. The cardboard keeps the board, the items and the cards' texts; Night Shift keeps what
decides the game: each character's tracker space and side, the bag's true contents, the Event cards left, the Action
tokens of the turn, and it draws from the bag fairly (or records what the real bag gave). Seats are the characters in
box order (Freddy, Bonnie, Chica, Foxy).

Readings of loose rules, each a setup option labelled assumed and shown on the screens that depend on it (the same
list is in docs/games/night-of-frights.md):

- A spend that would pass 10 (`past_ten`): "move it one, two, or three spaces up the Scare Tracker according to the
  scare symbols shown", and the tracker ends at 10 ("When you reach 10 on the Scare Tracker, you no longer flip your
  Character token to the X side"). Default `stop`: the token stops on 10 and the log says so; `refuse`: the spend is
  refused.
- The player on your left (`left`): "passing an Action token to the player on your left after each one". The app
  can't see who sits where. Default `seat-order`: the next character in seat order, until a player passes to someone
  else, who then stays on their left for the night; `ask`: every pass names who sits on the left.
- Tokens drawn per space (`draw_table`): "draw the same number of tokens shown on your current space of the Scare
  Tracker". The numbers are not in the text: 1 to 10 by default, and the host can correct them during the game.
- The Event deck with fewer players (`event_deck`): "2 Players: Remove 3+ and 4 cards ... 3 Players: Remove 4 cards".
  How many cards carry each mark is not printed: the host counts the deck.

Readings the text settles, kept in the code:

- "Action & Event Cards" lists +1 ACTION TOKEN, +1 GUARD TOKEN and -2 MISS TOKENS for both kinds of card, so a played
  Action card and a flipped Event card can each carry any of the three. THEN MOVE CAMERA belongs to Action cards only:
  "If you play an Action card with this symbol at the bottom".
- "+1 ACTION TOKEN ... players may take up to five actions per turn, including the current turn": the fifth token is
  used at once. An effect with nothing left to give (a third Guard, two Miss from a bag with fewer) is refused.
- "If you forget this step by going to Step 2, the first other player to shout "party time!" draws an Item token.
  Then place two Item tokens on the board as normal": the shout comes before the items, so placing them closes it;
  spending items ("Any time on your turn") is not Step 2.
- "After a player tries to capture the guard, if there are no more Event cards in the deck, the guard escapes": the
  empty deck is checked after the draw, so a Guard drawn on the last Event card still wins.
- When the bag on the table and the app disagree, the host corrects the Miss and Guard counts: 0 to the box's 19
  Miss tokens, and 1 or 2 Guard tokens, since the bag always holds one ("Place all 19 Miss tokens and one Guard token
  in the bag"; the game ends when "A player draws the Guard token"). The log says what changed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from ...dice import DiceError
from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Choice, Count, Move, Moves, MoveType, Numbers, SeatField, Whose
from ..options import reading_in_force, readings_shown
from ..words import listing, percent, plural
from . import DRAW_MOST, LEFT, PAST_TEN, PROFILE, SPEC
from .guard_bag import GUARD, MISS, bag_tokens, capture_chance

State = dict[str, Any]

BOTTOM, TOP = PROFILE["scare_track"].value  # "places their Character token on the "0"" ... "When you reach 10"
FEWEST_STEPS, MOST_STEPS = PROFILE["scare_steps"].value  # "move it one, two, or three spaces up"
ROOMS = tuple(range(PROFILE["capture_rooms"].value[0], PROFILE["capture_rooms"].value[-1] + 1))  # "Room 1 or 2"
HAND = PROFILE["hand"].value  # "Draw Action cards from the deck until you have three."
BOX = PROFILE["box"].value  # the Miss and Guard tokens the box holds: the most a corrected bag may hold

ACTIONS: dict[str, str] = {"move": "MOVE", "pick-up": "PICK UP", "play-card": "PLAY A CARD"}
# The three effects Night Shift tracks, printed on Action and Event cards alike ("Action & Event Cards").
TRACKED: dict[str, str] = {"action": "+1 ACTION TOKEN", "guard": "+1 GUARD TOKEN", "miss": "-2 MISS TOKENS"}
# What a flipped Event card may say; the effects after the tracked three happen on the board.
EVENT_EFFECTS: dict[str, str] = {**TRACKED, "item": "DRAW AN ITEM", "jump-room": "JUMP TO A ROOM",
                                 "jump-camera": "JUMP TO THE CAMERA", "swap": "SWAP PLACES", "steal": "STEAL AN ITEM",
                                 "other": "another effect"}
# What a played Action card may say, for Night Shift: one of the tracked three, or something done on the board.
CARD_EFFECTS: dict[str, str] = {key: EVENT_EFFECTS[key] for key in ("other", *TRACKED)}
CAMERA = "camera"  # THEN MOVE CAMERA: "If you play an Action card with this symbol at the bottom"
READINGS = {option.key: option for option in (PAST_TEN, LEFT)}
PARTY = " They forgot to place two items: the first other player to shout \"party time!\" draws an Item token."


# ---- setup ----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> State:
    """Setup steps 5-9: the bag with 19 Miss + 1 Guard, every token on 0 X side up, three cards each (Freddy four)."""
    characters = list(options["characters"])
    if len(characters) != len(seats):
        raise ValueError("one character per seat")
    hands = {str(seat): profile["hand"] + profile["extra_cards"].get(name, 0)
             for seat, name in zip(seats, characters, strict=True)}
    deck = int(options["event_deck"])
    return {
        "seats": list(seats),
        "order": list(seats),  # around the table to the left; corrected when a turn passes to someone else
        "characters": {str(seat): name for seat, name in zip(seats, characters, strict=True)},
        "readings": {key: options.get(key, option.default) for key, option in READINGS.items()},
        "scare_track": {str(seat): {"space": BOTTOM, "scary": False} for seat in seats},
        "hands": hands,
        "action_deck": profile["action_cards"] - sum(hands.values()),
        "action_discard": 0,
        "bag": {MISS: int(profile["bag"][MISS]), GUARD: int(profile["bag"][GUARD])},
        "action_token_aside": True,  # "Set the other Action token aside for now."
        "action_tokens": int(profile["action_tokens"]),
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


# ---- reading the table -----------------------------------------------------------------------------------------------

def _name(state: State, seat: int) -> str:
    return state["characters"][str(seat)]


def reading(state: State, key: str) -> str:
    """The reading in force at this table; a table stored before readings were options plays with the defaults."""
    return reading_in_force(state, READINGS, key)


def _order(state: State) -> list[int]:
    return state.get("order", state["seats"])  # tables stored before the order was kept go in seat order


def _next_seat(state: State, seat: int) -> int | None:
    """The player on this seat's left: seat order until the table has said otherwise; None when asked at each pass."""
    if reading(state, "left") == "ask":
        return None
    order = _order(state)
    return order[(order.index(seat) + 1) % len(order)]


def _token(state: State, seat: int) -> dict[str, Any]:
    return state["scare_track"][str(seat)]


def _draws_at(state: State, space: int | None) -> int | None:
    """How many tokens a capture from this space draws (draw table, assumed); None below space 1."""
    return state["draw_table"][space - 1] if space is not None and space >= 1 else None


def _guards_aside(state: State) -> int:
    """The Guard tokens out of the bag: "Set the other Guard token aside for now." (after a correction, maybe two)."""
    return BOX[GUARD] - state["bag"][GUARD]


def _bag_total(bag: Mapping[str, int]) -> int:
    return bag[MISS] + bag[GUARD]


def _bag_text(bag: Mapping[str, int]) -> str:
    return f"{bag[MISS]} Miss + {plural(bag[GUARD], 'Guard')}"


def _rooms_text() -> str:
    return listing([str(room) for room in ROOMS], "or")


def _steps_text() -> str:
    return listing([str(steps) for steps in range(FEWEST_STEPS, MOST_STEPS + 1)], "or")


# ---- when a move may be made at all, before its values are read ------------------------------------------------------

MOVES = Moves("Night of Frights", example='{"type": "end-turn"}',
              offer="isn't a move in Night of Frights; you can place items, take an action, spend items, try to "
                    "capture, draw from the bag or pass the turn.",
              seat_name=_name, host_only="{doing} is for the host screen only.")
TURN_MOVES = frozenset({"place-items", "take-action", "spend", "capture", "draw", "end-turn"})


@MOVES.before_each
def _is_it_the_moment(state: State, move: Move, declared: MoveType) -> None:
    """The night goes on, and it is this move's moment: someone's turn, no draw waiting (or one waiting to draw)."""
    if outcome(state) is not None:
        raise IllegalAction("The night is over; nothing more can happen at this table.")
    turn = state["turn"]
    if declared.type == "first-player":
        if turn is not None:
            raise IllegalAction(f"The first turn has been taken already; it is {_name(state, turn)}'s turn.")
    elif declared.type == "party-time":
        _party_time_open(state)
    elif declared.type not in TURN_MOVES:  # the host's corrections
        if state["capture"] is not None:
            raise IllegalAction(f"Finish the draw from the bag before {declared.doing.lower()}.")
    elif turn is None:
        raise IllegalAction("First say who most recently ate pizza: they take the first turn.")
    elif move.actor is not None and move.actor != turn:
        raise IllegalAction(f"It's {_name(state, turn)}'s turn; {declared.doing.lower()} waits for your own turn.")
    elif declared.type == "draw" and state["capture"] is None:
        raise IllegalAction(f"{_name(state, turn)} hasn't flipped an Event card: try to capture first, from Room "
                            f"{_rooms_text()}.")
    elif declared.type != "draw" and state["capture"] is not None:
        raise IllegalAction(f"{_name(state, turn)} flipped an Event card to try to capture: draw from the bag first.")


def _party_time_open(state: State) -> None:
    """'The first other player to shout "party time!" draws an Item token': only after an action before the items."""
    if _party_open(state):
        return
    if state["party_called"] is not None:
        raise IllegalAction(f"{_name(state, state['party_called'])} already shouted party time this turn.")
    if state["items_placed"] and state["forgot_items"]:
        raise IllegalAction(f"Too late: nobody shouted party time before {_name(state, state['turn'])} placed two "
                            "items.")
    raise IllegalAction("Party time! works only when the player whose turn it is took an action before placing two "
                        "items.")


def _party_open(state: State) -> bool:
    """'The first other player to shout "party time!" draws an Item token. Then place two Item tokens ... as normal':
    the shout comes before the items, so placing them closes the chance."""
    return (state["turn"] is not None and state["forgot_items"] and state["party_called"] is None
            and not state["items_placed"])


def _for_the_turn(handler: Callable[[State, Move, int, Any], tuple[State, list[Event]]]):
    """A move of the player whose turn it is; the host screen plays for them, and the log names them."""
    @functools.wraps(handler)
    def run(state: State, move: Move, rng: Any) -> tuple[State, list[Event]]:
        seat = state["turn"]
        after, events = handler(state, move, seat, rng)
        if move.actor is None:
            events = [Event(f"for {_name(state, seat)}, {event.text}", event.undoable) for event in events]
        return after, events
    return run


# ---- the cards' effects on the bag and the tokens --------------------------------------------------------------------

def _effect_problem(state: State, effect: str) -> str | None:
    """Why the bag or the set-aside tokens can't take this effect now, in words; None when they can."""
    if effect == "guard" and _guards_aside(state) < 1:
        return "The second Guard token is already in the bag; there is no other to add."
    if effect == "miss" and state["bag"][MISS] < 2:
        left = "no Miss tokens" if state["bag"][MISS] == 0 else "only 1 Miss token"
        return f"The bag holds {left}: -2 MISS TOKENS can't remove two."
    if effect == "action" and not state["action_token_aside"]:
        return "The fifth Action token is already in play; +1 ACTION TOKEN has nothing left to give."
    return None


def _event_choices(state: State, move: Mapping[str, Any]) -> list[str]:
    return [effect for effect in EVENT_EFFECTS if _effect_problem(state, effect) is None]


def _card_choices(state: State, move: Mapping[str, Any]) -> list[str]:
    """Only PLAY A CARD plays a card; what it says must still be possible."""
    if move.get("what") != "play-card":
        return []
    return [effect for effect in CARD_EFFECTS if _effect_problem(state, effect) is None]


def _effect_refused(card: str):
    """The sentence for an effect the card can't carry now: why, or what the card may say."""
    def sentence(state: State, move: Mapping[str, Any], value: Any) -> str:
        if card == "Action" and move.get("what") != "play-card":
            return f"{ACTIONS[move['what']]} plays no card: only PLAY A CARD says what an Action card does."
        problem = _effect_problem(state, value) if value in TRACKED else None
        if problem:
            return problem
        if value == CAMERA:
            if card == "Event":
                return ("THEN MOVE CAMERA is printed on Action cards only (\"If you play an Action card with this "
                        "symbol\"): say what the Event card itself says.")
            return "THEN MOVE CAMERA happens on the board: say what else the card does, or other."
        choices = _event_choices(state, move) if card == "Event" else _card_choices(state, move)
        return f"Say what the {card} card says: {', '.join(choices)}."
    return sentence


def _apply_effect(after: State, effect: str) -> str:
    """+1 GUARD TOKEN, -2 MISS TOKENS or +1 ACTION TOKEN on the bag and the tokens; the words for the log."""
    if effect == "guard":  # "Take the Guard token you set aside ... and add it to the bag."
        after["bag"][GUARD] += 1
        return " \u2014 the second Guard goes into the bag"
    if effect == "miss":  # "Remove two Miss tokens from the bag and return them to the game box."
        after["bag"][MISS] -= 2
        return " \u2014 two Miss tokens go back in the box"
    if effect == "action":  # "From now on, players may take up to five actions per turn, including the current turn."
        after["action_token_aside"] = False
        after["action_tokens"] += 1
        after["actions_left"] += 1
        return f" \u2014 from now on every turn has {after['action_tokens']} Action tokens"
    return " (done on the board)"


# ---- the moves ----------------------------------------------------------------------------------------------------

@MOVES.move("first-player", "Choosing the first player",
            Whose("who most recently ate pizza", wrong="Say who goes first by seat number, like 2.",
                  not_yours=lambda state, move, value: "You can say only that you ate pizza most recently; the "
                                                       f"host can pick {_name(state, value)}."),
            label="I ate pizza most recently")
def first_player(state: State, move: Move, rng: Any):
    """'The player who most recently ate pizza will take the first turn. Give them four Action tokens.'"""
    whose = move["whose"]
    if whose is None:  # the host names them; a phone's own seat is filled in
        raise IllegalAction("Say who most recently ate pizza: they take the first turn.")
    after = copied(state)
    _start_turn(after, whose)
    return after, [Event(f"{_name(state, whose)} most recently ate pizza and takes the first turn with "
                         f"{plural(after['actions_left'], 'Action token')}.")]


def _start_turn(state: State, seat: int) -> None:
    state["turn"] = seat
    state["turn_number"] += 1
    state["actions_left"] = state["action_tokens"]
    state["items_placed"] = False
    state["forgot_items"] = False
    state["party_called"] = None


@MOVES.move("place-items", "Placing two items", label="Placed two items")
@_for_the_turn
def place_items(state: State, move: Move, seat: int, rng: Any):
    """Step 1: 'Draw two Item tokens from the pool. Place each one face up in the room ... that matches the number.'"""
    if state["items_placed"]:
        raise IllegalAction(f"{_name(state, seat)} has already placed two items this turn.")
    after = copied(state)
    after["items_placed"] = True
    return after, [Event("placed two Item tokens on the board.")]


def _forgot(state: State) -> bool:
    """'If you forget this step by going to Step 2': the first action without placing items opens 'party time!'."""
    if state["items_placed"] or state["forgot_items"]:
        return False
    state["forgot_items"] = True
    return True


def _use_token(state: State, seat: int, doing: str) -> None:
    if state["actions_left"] < 1:
        following = _next_seat(state, seat)
        whom = _name(state, following) if following is not None else "the player on your left"
        raise IllegalAction(f"{_name(state, seat)} has no Action tokens left this turn, so can't {doing}; "
                            f"pass the turn to {whom}.")


@MOVES.move("take-action", "Taking an action",
            Choice("what", "the action", tuple(ACTIONS), ask="Say which action: move, pick-up or play-card.",
                   wrong="Say which action: move, pick-up or play-card (trying to capture has its own button)."),
            Choice("card", "what the Action card says", _card_choices, optional=True, picked=True,
                   wrong=_effect_refused("Action"), help="other, or +1 ACTION TOKEN, +1 GUARD TOKEN, -2 MISS TOKENS"),
            label="Take an action")
@_for_the_turn
def take_action(state: State, move: Move, seat: int, rng: Any):
    """Step 2: MOVE, PICK UP or PLAY A CARD, each for one Action token passed to the left; a card may change the bag."""
    what = move["what"]
    _use_token(state, seat, ACTIONS[what].lower())
    if what == "play-card" and state["hands"][str(seat)] < 1:
        raise IllegalAction(f"{_name(state, seat)} has no Action cards in hand to play.")
    after = copied(state)
    after["actions_left"] -= 1
    text = f"took an action: {ACTIONS[what]}"
    if what == "play-card":
        effect = move["card"] or "other"
        if effect in TRACKED:
            text += f", {TRACKED[effect]}{_apply_effect(after, effect)}"
        after["hands"][str(seat)] -= 1
        after["action_discard"] += 1
        text += f" ({after['hands'][str(seat)]} left in hand; \"Don't draw a card to replace the one you played!\")"
    text += f". Action tokens left: {after['actions_left']}."
    if _forgot(after):
        text += PARTY
    return after, [Event(text)]


def _spend_most(state: State, move: Mapping[str, Any]) -> int:
    """The most spaces a spend may say now: three below 10 (the move stops at 10), or no further than 10."""
    space = _token(state, state["turn"])["space"]
    if space >= TOP:
        return 0
    return min(MOST_STEPS, TOP - space) if reading(state, "past_ten") == "refuse" else MOST_STEPS


def _spend_too_far(state: State, move: Mapping[str, Any], value: Any) -> str:
    name, space = _name(state, state["turn"]), _token(state, state["turn"])["space"]
    if value > MOST_STEPS:
        return f"Spending items moves you {_steps_text()} spaces up the Scare Tracker, not {value}."
    if space >= TOP:
        return (f"{name} is on {TOP}, the top of the Scare Tracker: spending items can't move the token any "
                "higher.")
    return (f"{name} is on {space}: {value} more would move past {TOP}, the top of the Scare Tracker (this table "
            "refuses a spend past it).")


@MOVES.move("spend", "Spending items",
            Count("steps", "the spaces the items move you up", low=FEWEST_STEPS, high=_spend_most,
                  ask=f"Say how many spaces the items move you up the Scare Tracker: {_steps_text()}.",
                  wrong=f"Say how many spaces the items move you up: {_steps_text()}.",
                  too_low=lambda state, move, value: f"Spending items moves you {_steps_text()} spaces up the "
                                                     f"Scare Tracker, not {value}.",
                  too_high=_spend_too_far),
            label="Spend items")
@_for_the_turn
def spend(state: State, move: Move, seat: int, rng: Any):
    """'Flip your Character token to the scary side and move it one, two, or three spaces up': no Action token."""
    steps, token = move["steps"], _token(state, seat)
    after = copied(state)
    mine = _token(after, seat)
    mine["space"] = min(TOP, token["space"] + steps)
    mine["scary"] = True
    flipped = "" if token["scary"] else ", flipped to the scary side"
    stopped = ""
    if token["space"] + steps > TOP:
        stopped = (f" (stops at {TOP}, the top of the Scare Tracker: {plural(steps, 'space')} would have passed "
                   "it)")
    return after, [Event(f"spent items: Scare Tracker {token['space']} \u2192 {mine['space']}{flipped}{stopped}.")]


def _room_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    return f"You can try to capture only from Room {_rooms_text()}, not Room {value}."


@MOVES.move("capture", "Trying to capture",
            Count("room", "the room you are in", low=ROOMS[0], high=ROOMS[-1],
                  ask=f"Say which room you are in: {_rooms_text()}.",
                  wrong=f"Say which room you are in as a number: {_rooms_text()}.",
                  too_low=_room_refused, too_high=_room_refused),
            Choice("event", "what the Event card says", _event_choices, picked=True,
                   ask="Say what the Event card you flipped says, like guard, miss, action or other.",
                   wrong=_effect_refused("Event")),
            label="Flip the Event and try to capture")
@_for_the_turn
def capture(state: State, move: Move, seat: int, rng: Any):
    """'Trying to Capture' step 1: in Room 1 or 2, scary side up, one Action token: flip the top Event card."""
    room, event, token = move["room"], move["event"], _token(state, seat)
    if not token["scary"]:
        raise IllegalAction(f"{_name(state, seat)}'s Character token shows the X side: spend items to get scarier "
                            "before trying to capture again.")
    _use_token(state, seat, "try to capture")
    after = copied(state)
    after["actions_left"] -= 1
    after["event_deck"] -= 1
    after["events_flipped"].append(event)
    text = (f"tried to capture from Room {room} at space {token['space']} and flipped an Event card: "
            f"{EVENT_EFFECTS[event]}{_apply_effect(after, event)}")
    bag, count = after["bag"], _draws_at(state, token["space"])
    if count > _bag_total(bag):
        raise IllegalAction(f"Space {token['space']} draws {plural(count, 'token')}, but the bag would hold only "
                            f"{_bag_total(bag)} ({_bag_text(bag)}): the host can fix the draw table.")
    after["capture"] = {"seat": seat, "room": room, "space": token["space"], "count": count, "event": event}
    chance = capture_chance(bag[MISS], bag[GUARD], count)
    text += (f". Event cards left: {after['event_deck']}. Next: draw {plural(count, 'token')} from {_bag_text(bag)} "
             f"({percent(chance)} to find a Guard).")
    if _forgot(after):
        text += PARTY
    return after, [Event(text)]


def _fewest_guards(state: State, move: Mapping[str, Any]) -> int:
    """A real draw of more tokens than the bag's Miss tokens must have held Guards."""
    return max(0, state["capture"]["count"] - state["bag"][MISS])


def _most_guards(state: State, move: Mapping[str, Any]) -> int:
    return min(state["bag"][GUARD], state["capture"]["count"])


def _too_few_guards(state: State, move: Mapping[str, Any], value: Any) -> str:
    if value < 0:
        return "The real bag can't give fewer than 0 Guard tokens."
    count, miss = state["capture"]["count"], state["bag"][MISS]
    return (f"The bag holds only {miss} Miss tokens; {count} drawn with {plural(value, 'Guard')} would need "
            f"{count - value}.")


def _too_many_guards(state: State, move: Mapping[str, Any], value: Any) -> str:
    if value > state["bag"][GUARD]:
        return f"The bag holds {_bag_text(state['bag'])}: the real draw can't have {plural(value, 'Guard')}."
    count = state["capture"]["count"]
    return f"{_name(state, state['turn'])} draws {plural(count, 'token')}, so at most {count} of them can be Guards."


@MOVES.move("draw", "Drawing from the bag",
            Count("guards", "the Guard tokens the real bag gave", low=_fewest_guards, high=_most_guards, optional=True,
                  wrong="Say how many Guard tokens the real bag gave as a number, like 0 or 1.",
                  too_low=_too_few_guards, too_high=_too_many_guards,
                  help="leave out to let the app draw"),
            label="Draw from the bag")
@_for_the_turn
def draw(state: State, move: Move, seat: int, rng: Any):
    """Step 2: draw as many tokens as the tracker space shows; a Guard wins, all Miss go back, the token flips to X."""
    capture, bag, guards = state["capture"], state["bag"], move["guards"]
    name, count = _name(state, seat), state["capture"]["count"]
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
        drawn = [MISS] * (count - guards) + [GUARD] * guards
        source = "physical"
    after = copied(state)
    after["capture"] = None
    after["attempts"] += 1
    captured = GUARD in drawn
    after["last_draw"] = {"seat": seat, "space": capture["space"], "count": count, "tokens": drawn,
                          "source": source, "captured": captured, "attempt": after["attempts"], "bag": dict(bag)}
    verb = "drew" if source == "app" else "drew from the real bag"
    shown = f"{verb} {plural(count, 'token')}: {', '.join(drawn)}"
    if captured:
        after["winner"] = seat
        return after, [Event(f"{shown} \u2014 the Guard!")]
    text = f"{shown} \u2014 all Miss, back into the bag"
    token = _token(after, seat)
    if token["space"] < TOP:  # "When you reach 10 ... you no longer flip your Character token to the X side."
        token["scary"] = False
        text += "; the Character token flips to X"
    else:
        text += f"; at {TOP} the token stays scary"
    text += _refill_hand(after, seat)
    if after["event_deck"] == 0:
        after["escaped"] = True
    return after, [Event(text + ".")]


def _refill_hand(state: State, seat: int) -> str:
    """Step 4: 'Draw Action cards from the deck until you have three.' An empty deck takes in the discard pile."""
    hand = state["hands"][str(seat)]
    need = max(0, HAND - hand)
    if need == 0:
        return f"; already holds {plural(hand, 'Action card')}"
    reshuffled = ""
    if state["action_deck"] < need:
        state["action_deck"] += state["action_discard"]
        state["action_discard"] = 0
        reshuffled = " (the discard pile shuffled into a new deck)"
    taken = min(need, state["action_deck"])
    state["action_deck"] -= taken
    state["hands"][str(seat)] += taken
    return f"; draws {plural(taken, 'Action card')} back to {state['hands'][str(seat)]}{reshuffled}"


@MOVES.move("end-turn", "Passing the turn",
            SeatField("whose", "who sits on your left", optional=True,
                      wrong="Say who sits on your left by seat number, like 2."),
            label="Pass the turn")
@_for_the_turn
def end_turn(state: State, move: Move, seat: int, rng: Any):
    """The Action tokens pass to the left: the next player's turn starts with all of them.

    'whose' names the player really sitting on the left when that is not the next seat; the app remembers it by
    moving that player to just after this one in the order around the table.
    """
    following, whose = _next_seat(state, seat), move["whose"]
    if whose == seat:
        raise IllegalAction(f"{_name(state, seat)} can't pass the turn to themselves; pass it to the player on the "
                            "left.")
    if whose is None and following is None:
        raise IllegalAction("Say who sits on your left: this table names them at every pass.")
    after = copied(state)
    if whose is not None and following is not None and whose != following:
        order = [number for number in _order(after) if number != whose]
        order.insert(order.index(seat) + 1, whose)
        after["order"] = order
    following = whose if whose is not None else following
    _start_turn(after, following)
    left = state["actions_left"]
    unused = f" with {plural(left, 'Action token')} unused" if left else ""
    return after, [Event(f"passed the turn{unused}: {_name(state, following)} takes {after['actions_left']} "
                         "Action tokens and places two items.")]


@MOVES.move("party-time", "Shouting party time",
            Whose("who shouted party time first", wrong="Say who shouted party time by seat number, like 2.",
                  not_yours="You can shout party time only for yourself."),
            label="Party time!")
def party_time(state: State, move: Move, rng: Any):
    """'The first other player to shout "party time!" draws an Item token.'"""
    whose, turn = move["whose"], state["turn"]
    if whose is None:
        raise IllegalAction("Say who shouted party time first.")
    if whose == turn:
        raise IllegalAction("Only another player can shout party time on your turn.")
    after = copied(state)
    after["party_called"] = whose
    return after, [Event(f"{_name(state, whose)} shouted \"party time!\" first and draws an Item token; "
                         f"{_name(state, turn)} now places two items as normal.")]


def _draw_table_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    values = move.get("values")
    if isinstance(values, list) and len(values) == TOP:
        return f"Each of the {TOP} numbers must be a whole number of tokens."
    return f"Give {TOP} numbers: the tokens drawn from spaces 1 to {TOP}."


@MOVES.move("draw-table", "Changing the draw table",
            Numbers("values", f"tokens drawn from spaces 1 to {TOP}", length=TOP, low=1, high=DRAW_MOST, picked=True,
                    ask=f"Give {TOP} numbers: the tokens drawn from spaces 1 to {TOP}.", wrong=_draw_table_refused,
                    too_low=f"Each space draws from 1 to {DRAW_MOST} tokens, not {{value}}.",
                    too_high=f"Each space draws from 1 to {DRAW_MOST} tokens, not {{value}}."),
            by="host", correction=True, label="Save the draw table")
def draw_table(state: State, move: Move, rng: Any):
    """The host corrects the assumed draw table to what the real Scare Tracker prints."""
    values = move["values"]
    if len(values) != TOP:
        raise IllegalAction(f"Give {TOP} numbers: the tokens drawn from spaces 1 to {TOP}.")
    if values == state["draw_table"]:
        raise IllegalAction("That is the draw table already.")
    after = copied(state)
    after["draw_table"] = list(values)
    return after, [Event(f"set the draw table for spaces 1-{TOP} to " + ", ".join(str(v) for v in values) + ".")]


FEWEST_IN_BAG = {MISS: 0, GUARD: 1}  # the bag always holds a Guard: one goes in at setup, and drawing one ends the game
NO_GUARDLESS_BAG = ("The bag always holds a Guard: setup puts one in (\"Place all 19 Miss tokens and one Guard token "
                    "in the bag\") and drawing it ends the game, so it holds 1 or 2 Guard tokens, not {value}.")


def _bag_count(token: str) -> Count:
    """How many of one kind of token the corrected bag holds: what the box has at most, and never no Guard."""
    word = plural(BOX[token], f"{token} token")
    fewest = FEWEST_IN_BAG[token]
    return Count(token.lower() if token == MISS else "guards", f"{token} tokens in the bag", low=fewest,
                 high=BOX[token], ask=f"Say how many {token} tokens the bag holds now.",
                 wrong=f"Say how many {token} tokens the bag holds as a whole number, like 1.",
                 too_low=NO_GUARDLESS_BAG if fewest else f"The bag can't hold fewer than 0 {token} tokens; you gave "
                                                         "{value}.",
                 too_high=f"The box has only {word}, so the bag can't hold {{value}}.")


@MOVES.move("bag", "Correcting the bag", _bag_count(MISS), _bag_count(GUARD), by="host", correction=True,
            label="Correct the bag")
def correct_bag(state: State, move: Move, rng: Any):
    """The host sets the bag's Miss and Guard tokens to what the real bag holds, when the two disagree."""
    old, new = state["bag"], {MISS: move["miss"], GUARD: move["guards"]}
    if new == old:
        raise IllegalAction(f"The bag holds {_bag_text(old)} already.")
    after = copied(state)
    after["bag"] = new
    aside = _guards_aside(after)
    return after, [Event(f"corrected the bag: {_bag_text(old)} \u2192 {_bag_text(new)} "
                         f"({plural(aside, 'Guard token')} set aside, "
                         f"{plural(BOX[MISS] - new[MISS], 'Miss token')} in the box).")]


apply = MOVES.apply


# ---- what each screen may do now -------------------------------------------------------------------------------------

def legal_actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Complete moves this seat may make now (None: the host, who plays for whoever has the turn), each accepted."""
    if (seat is not None and seat not in state["seats"]) or outcome(state) is not None:
        return []
    offers = _host_corrections(state) if seat is None else []
    if state["turn"] is None:
        return offers + _offer_first_player(state, seat)
    offers += _offer_party_time(state, seat)
    if seat is None or seat == state["turn"]:
        offers += _offer_draw(state) if state["capture"] is not None else _offer_turn(state)
    return offers


def _host_corrections(state: State) -> list[dict[str, Any]]:
    """The draw table and the bag, each with a changed value that passes (the forms show the table's own)."""
    if state["capture"] is not None:
        return []
    table = list(state["draw_table"])
    table[-1] += 1 if table[-1] < DRAW_MOST else -1
    miss = state["bag"][MISS]
    return [{"type": "draw-table", "values": table},
            {"type": "bag", "miss": miss + 1 if miss < BOX[MISS] else miss - 1, "guards": state["bag"][GUARD]}]


def _offer_first_player(state: State, seat: int | None) -> list[dict[str, Any]]:
    """'The player who most recently ate pizza will take the first turn': a phone offers itself, the host anyone."""
    return [{"type": "first-player", "whose": number} for number in (state["seats"] if seat is None else [seat])]


def _offer_party_time(state: State, seat: int | None) -> list[dict[str, Any]]:
    if not _party_open(state):
        return []
    shouters = [number for number in state["seats"] if number != state["turn"]] if seat is None else [seat]
    return [{"type": "party-time", "whose": number} for number in shouters if number != state["turn"]]


def _offer_draw(state: State) -> list[dict[str, Any]]:
    """'Give the bag a shake and draw': the app draws, or the table says how many Guards the real bag gave."""
    return [{"type": "draw"}, {"type": "draw", "guards": _fewest_guards(state, {})}]


def _offer_turn(state: State) -> list[dict[str, Any]]:
    """On Your Turn: place two items, take actions, spend items, try to capture, then pass the tokens on."""
    return (_offer_place_items(state) + _offer_actions(state) + _offer_spend(state) + _offer_capture(state)
            + _offer_pass(state))


def _offer_place_items(state: State) -> list[dict[str, Any]]:
    return [] if state["items_placed"] else [{"type": "place-items"}]


def _offer_actions(state: State) -> list[dict[str, Any]]:
    """MOVE, PICK UP and PLAY A CARD while Action tokens are left (a card only from a hand that holds one)."""
    if state["actions_left"] < 1:
        return []
    offers: list[dict[str, Any]] = [{"type": "take-action", "what": "move"}, {"type": "take-action", "what": "pick-up"}]
    if state["hands"][str(state["turn"])] > 0:
        offers.append({"type": "take-action", "what": "play-card", "card": "other"})
    return offers


def _offer_spend(state: State) -> list[dict[str, Any]]:
    return [{"type": "spend", "steps": FEWEST_STEPS}] if _spend_most(state, {}) >= FEWEST_STEPS else []


def _offer_capture(state: State) -> list[dict[str, Any]]:
    """From the scary side with an Action token left, and an Event card the bag can still be drawn after."""
    token = _token(state, state["turn"])
    if state["actions_left"] < 1 or not token["scary"]:
        return []
    count = _draws_at(state, token["space"])
    for event in ("other", *_event_choices(state, {})):
        after = copied(state)
        _apply_effect(after, event)
        if count <= _bag_total(after["bag"]):
            return [{"type": "capture", "room": ROOMS[0], "event": event}]
    return []


def _offer_pass(state: State) -> list[dict[str, Any]]:
    """To the player on the left: the next in order, or whoever really sits there."""
    turn = state["turn"]
    following = _next_seat(state, turn)
    offers = [{"type": "end-turn"}] if following is not None else []
    return offers + [{"type": "end-turn", "whose": number} for number in state["seats"]
                     if number not in (turn, following)]


def outcome(state: State) -> Outcome | None:
    """'Ending the Game': a Guard drawn wins; an empty Event deck after a capture attempt means everyone loses."""
    if state["winner"] is not None:
        name = _name(state, state["winner"])
        return Outcome((state["winner"],), f"{name} drew the Guard token and captured the guard before dawn: "
                                           f"{name} wins!")
    if state["escaped"]:
        return Outcome((), "The Event deck is empty after a capture attempt: the guard escapes and all the "
                           "animatronics lose!")
    return None


def invariants(state: State) -> list[str]:
    """What the box guarantees at every step: the bag always holds a Guard ('Place all 19 Miss tokens and one Guard
    token in the bag'; the game ends when 'A player draws the Guard token') and never more tokens than the box has;
    every Character token on the Scare Tracker's 0 to 10; the turn's Action tokens and the decks never below 0."""
    bag = state["bag"]
    checks = [(1 <= bag[GUARD] <= BOX[GUARD], f"The bag holds {plural(bag[GUARD], 'Guard')}, not 1 or {BOX[GUARD]}."),
              (0 <= bag[MISS] <= BOX[MISS], f"The bag holds {bag[MISS]} Miss tokens, not 0 to {BOX[MISS]}."),
              (0 <= state["actions_left"] <= state["action_tokens"],
               f"{state['actions_left']} Action tokens are left of the turn's {state['action_tokens']}."),
              (0 <= state["event_deck"] <= state["event_deck_size"],
               f"The Event deck holds {state['event_deck']} of {state['event_deck_size']} cards."),
              (state["action_deck"] >= 0 and state["action_discard"] >= 0
               and all(hand >= 0 for hand in state["hands"].values()), "An Action card count is below 0.")]
    checks += [(BOTTOM <= _token(state, seat)["space"] <= TOP,
                f"{_name(state, seat)} is on space {_token(state, seat)['space']}, off the Scare Tracker.")
               for seat in state["seats"]]
    return broken(checks)


# ---- what each screen sees ------------------------------------------------------------------------------------------

def _odds(bag: Mapping[str, int], draws: int | None) -> dict[str, Any] | None:
    """A capture's chance from this bag, as a fraction and a percentage; None when it can't be drawn."""
    if draws is None or draws > _bag_total(bag):
        return None
    chance = capture_chance(bag[MISS], bag[GUARD], draws)
    return {"draws": draws, "fraction": f"{chance.numerator}/{chance.denominator}" if chance not in (0, 1)
            else str(chance), "percent": percent(chance)}


READING_WORDS = {  # (the reading, its value): a sentence for the log and docs, and a few words for a button's side
    ("past_ten", "stop"): (f"A spend that would pass {TOP} stops at {TOP}.", f"past {TOP}: stops at {TOP}"),
    ("past_ten", "refuse"): (f"A spend that would pass {TOP} is refused.", f"never past {TOP}"),
    ("left", "seat-order"): ("The turn passes in seat order until a pass names whoever really sits on the left.",
                             "seat order"),
    ("left", "ask"): ("Every pass names whoever sits on the left.", "asked at every pass"),
}




def _bag_note(state: State) -> str:
    aside = _guards_aside(state)
    if aside == 0:
        return "both Guard tokens in the bag"
    if aside == 1 and state["bag"][GUARD] == 1:
        return "second Guard set aside"
    return f"{plural(aside, 'Guard token')} set aside"


def _player_row(state: State, seat: int) -> dict[str, Any]:
    token, name = _token(state, seat), _name(state, seat)
    return {"seat": seat, "character": name, "initials": name[:2], "space": token["space"], "scary": token["scary"],
            "side": "scary" if token["scary"] else "X", "hand": state["hands"][str(seat)],
            "turn": seat == state["turn"],
            "reminder": {"Freddy": "draws an extra Action card", "Chica": "has the Mr. Cupcake token"}.get(name, ""),
            "odds": _odds(state["bag"], _draws_at(state, token["space"]))}


def _me(state: State, seat: int) -> dict[str, Any]:
    """A phone's own character: its space, side and capture chance now and one step higher."""
    token, bag = _token(state, seat), state["bag"]
    higher = token["space"] + 1 if token["space"] < TOP else None
    draws = _draws_at(state, token["space"])
    return {"seat": seat, "character": _name(state, seat), "space": token["space"], "scary": token["scary"],
            "draws": draws, "too_few": draws is not None and draws > _bag_total(bag), "my_turn": seat == state["turn"],
            "odds": _odds(bag, draws), "higher_space": higher, "higher_odds": _odds(bag, _draws_at(state, higher))}


def _turn_text(state: State) -> str:
    over = outcome(state)
    if over is not None:
        return over.text
    if state["turn"] is None:
        return "Who most recently ate pizza? They take the first turn."
    name = _name(state, state["turn"])
    if state["capture"] is not None:
        return f"{name} draws {plural(state['capture']['count'], 'token')} from the bag."
    return f"{name}'s turn: {plural(state['actions_left'], 'Action token')} left."


def _board_check(state: State) -> list[str]:
    """What the cardboard should show: the bag, the decks, the tokens per turn and the Scare Tracker."""
    aside = _guards_aside(state)
    return [f"Guard bag: {_bag_text(state['bag'])}; {plural(aside, 'Guard token')} set aside.",
            f"Event cards left: {state['event_deck']} of {state['event_deck_size']}.",
            f"Action tokens per turn: {state['action_tokens']}"
            + ("; the fifth is set aside." if state["action_token_aside"] else "."),
            f"Action deck: {plural(state['action_deck'], 'card')}; {state['action_discard']} in the discard pile.",
            "Scare Tracker: " + listing(f"{_name(state, seat)} {_token(state, seat)['space']} "
                                        f"({'scary' if _token(state, seat)['scary'] else 'X'} side)"
                                        for seat in state["seats"]) + "."]


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Everything is public; plus the rows, odds, readings and reminders the panel shows, so templates stay simple."""
    shown = {key: copied(value) for key, value in state.items() if key not in ("turn", "guard_aside")}
    bag, turn, capture, last = state["bag"], state["turn"], state["capture"], state["last_draw"]
    following = _next_seat(state, turn) if turn is not None else None
    over = outcome(state) is not None
    shown |= {
        "order": list(_order(state)),
        "readings": readings_shown(state, READINGS, READING_WORDS),
        "turn_seat": turn,
        "turn_name": _name(state, turn) if turn is not None else None,
        "next_name": _name(state, following) if following is not None else None,
        "current": _player_row(state, turn) if turn is not None else None,
        "bag_total": _bag_total(bag),
        "bag_text": _bag_text(bag),
        "guards_aside": _guards_aside(state),
        "bag_note": _bag_note(state),
        "bag_parts": [{"count": bag[MISS], "word": MISS},
                      {"count": bag[GUARD], "word": plural(bag[GUARD], GUARD).split(" ", 1)[1]}],
        "box": dict(BOX),
        "action_labels": dict(ACTIONS),
        "effect_labels": dict(EVENT_EFFECTS),
        "tracked_effects": list(TRACKED),
        "tracked_text": listing(TRACKED.values(), "or"),
        "events_flipped_labels": [EVENT_EFFECTS[key] for key in state["events_flipped"]],
        "spend_buttons": [{"steps": steps, "label": f"+{steps}", "aria": f"Spend items: up {plural(steps, 'space')}"}
                          for steps in range(FEWEST_STEPS, MOST_STEPS + 1)],
        "top": TOP,
        "party_open": _party_open(state),
        # all 12 Event cards with four players is printed; a smaller deck is the host's count (assumed)
        "event_deck_assumed": len(state["seats"]) < SPEC.max_players,
        "over": over,
        "players": [_player_row(state, number) for number in state["seats"]],
        "odds_table": [{"space": space, **(_odds(bag, _draws_at(state, space))
                                           or {"draws": _draws_at(state, space), "fraction": "", "percent": "\u2014"})}
                       for space in range(1, TOP + 1)],
        "capture_odds": _odds(bag, capture["count"]) if capture else None,
        "capture_name": _name(state, capture["seat"]) if capture else None,
        "last_draw_name": _name(state, last["seat"]) if last else None,
        "me": _me(state, viewer.seat) if viewer.seat in state["seats"] else None,
    }
    moves = legal_actions(state, viewer.seat) if viewer.moves else []
    return shown | seen(viewer, moves=moves, turn=[turn] if turn is not None and not over else [],
                        turn_text=_turn_text(state), board_check=_board_check(state))


_ODDS = {"oneOf": [{"type": "null"}, {"type": "object", "required": ["draws", "fraction", "percent"],
                                      "properties": {"draws": {"type": "integer", "minimum": 1},
                                                     "fraction": {"type": "string"},
                                                     "percent": {"type": "string"}}}]}
_SEAT_OR_NULL = {"type": ["integer", "null"]}
_BAG = {"type": "object", "required": [MISS, GUARD], "additionalProperties": False,
        "properties": {MISS: {"type": "integer", "minimum": 0}, GUARD: {"type": "integer", "minimum": 0}}}
_ROW = {"type": "object", "required": ["seat", "character", "initials", "space", "scary", "side", "hand", "turn",
                                       "reminder", "odds"],
        "properties": {"seat": {"type": "integer"}, "character": {"type": "string"}, "initials": {"type": "string"},
                       "space": {"type": "integer", "minimum": BOTTOM, "maximum": TOP}, "scary": {"type": "boolean"},
                       "side": {"enum": ["scary", "X"]}, "hand": {"type": "integer", "minimum": 0},
                       "turn": {"type": "boolean"}, "reminder": {"type": "string"}, "odds": _ODDS}}
VIEW_SCHEMA = {
    "type": "object",
    "required": ["seats", "order", "characters", "readings", "scare_track", "hands", "bag", "turn_seat", "turn_name",
                 "next_name", "current", "bag_total", "bag_text", "guards_aside", "event_deck", "event_deck_size",
                 "action_tokens", "actions_left", "draw_table", "capture", "last_draw", "players", "odds_table",
                 "capture_odds", "me", "party_open", "over"],
    "properties": {
        "seats": {"type": "array", "items": {"type": "integer"}},
        "order": {"type": "array", "items": {"type": "integer"}},
        "characters": {"type": "object", "additionalProperties": {"enum": ["Freddy", "Bonnie", "Chica", "Foxy"]}},
        "readings": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["value", "text", "short", "label", "source"],
            "properties": {"value": {"type": "string"}, "text": {"type": "string"}, "short": {"type": "string"},
                           "label": {"type": "string"}, "source": {"enum": ["verified", "assumed"]}}}},
        "scare_track": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["space", "scary"],
            "properties": {"space": {"type": "integer", "minimum": BOTTOM, "maximum": TOP},
                           "scary": {"type": "boolean"}}}},
        "hands": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
        "bag": _BAG,
        "box": _BAG,
        "turn_seat": _SEAT_OR_NULL,
        "turn_name": {"type": ["string", "null"]},
        "next_name": {"type": ["string", "null"]},
        "current": {"oneOf": [{"type": "null"}, _ROW]},
        "bag_total": {"type": "integer", "minimum": 0},
        "bag_text": {"type": "string"},
        "guards_aside": {"type": "integer", "minimum": 0},
        "action_token_aside": {"type": "boolean"},
        "action_tokens": {"type": "integer", "minimum": 1},
        "actions_left": {"type": "integer", "minimum": 0},
        "action_deck": {"type": "integer", "minimum": 0},
        "action_discard": {"type": "integer", "minimum": 0},
        "event_deck": {"type": "integer", "minimum": 0},
        "event_deck_size": {"type": "integer", "minimum": 1},
        "events_flipped": {"type": "array", "items": {"type": "string"}},
        "events_flipped_labels": {"type": "array", "items": {"type": "string"}},
        "draw_table": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "turn_number": {"type": "integer", "minimum": 0},
        "items_placed": {"type": "boolean"},
        "forgot_items": {"type": "boolean"},
        "party_called": _SEAT_OR_NULL,
        "party_open": {"type": "boolean"},
        "capture": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["seat", "room", "space", "count",
                                                                                 "event"]}]},
        "capture_odds": _ODDS,
        "capture_name": {"type": ["string", "null"]},
        "last_draw": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["seat", "space", "count", "tokens",
                                                                                   "source", "captured", "attempt"],
                                                   "properties": {"tokens": {"type": "array",
                                                                             "items": {"enum": [MISS, GUARD]}},
                                                                  "source": {"enum": ["app", "physical"]}}}]},
        "last_draw_name": {"type": ["string", "null"]},
        "attempts": {"type": "integer", "minimum": 0},
        "winner": _SEAT_OR_NULL,
        "escaped": {"type": "boolean"},
        "over": {"type": "boolean"},
        "action_labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "effect_labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "tracked_effects": {"type": "array", "items": {"type": "string"}},
        "tracked_text": {"type": "string"},
        "spend_buttons": {"type": "array", "items": {"type": "object", "required": ["steps", "label", "aria"]}},
        "bag_note": {"type": "string"},
        "bag_parts": {"type": "array", "items": {"type": "object", "required": ["count", "word"]}},
        "top": {"type": "integer"},
        "event_deck_assumed": {"type": "boolean"},
        "players": {"type": "array", "items": _ROW},
        "odds_table": {"type": "array", "items": {"type": "object", "required": ["space", "draws", "percent"]}},
        "me": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["seat", "character", "space", "scary", "too_few", "my_turn", "odds",
                                           "higher_space", "higher_odds"],
            "properties": {"seat": {"type": "integer"}, "odds": _ODDS, "higher_odds": _ODDS,
                           "higher_space": _SEAT_OR_NULL}}]},
    },
}


def figures(state: dict[str, Any]) -> dict[str, Any]:
    """For the history: which animatronic captured the guard, and where each stood on the Scare Tracker (the
    contract's optional `figures`; reads only the state)."""
    seats = {str(seat): {"score": None,
                         "status": "captured the guard" if state["winner"] == seat else None,
                         "details": [["Character", state["characters"][str(seat)]],
                                     ["Scare Tracker", state["scare_track"][str(seat)]["space"]]],
                         "records": {}}
             for seat in state["seats"]}
    side = (state["characters"][str(state["winner"])] if state["winner"] is not None
            else "The guard (escaped)" if state["escaped"] else None)
    facts = [["Capture attempts", state["attempts"]], ["Event cards left", state["event_deck"]]]
    if state["winner"] is not None:
        facts.insert(0, ["Captured by", state["characters"][str(state["winner"])]])
    return {"score": None, "side": side, "scenario": None, "seats": seats, "facts": facts}
