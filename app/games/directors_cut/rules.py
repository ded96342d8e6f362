"""Director's Cut with the app as the GM: the turn driver, each animatronic's procedure, attacks, revives and the end.

Pure: no Flask, no SQLAlchemy. The board stays on the table, so the app never guesses where pieces stand: it rolls,
applies tonight's modifiers, and asks exactly one question at a time (`state["ask"]`) of whoever can see the answer:
a guard's phone for its own movement and attack rolls, an animatronic's player for their piece, the host otherwise.
"""

from __future__ import annotations

import copy
from typing import Any

from ...dice import DiceError
from ..contract import Event, IllegalAction, Outcome, Viewer
from ..moves import check_move
from . import odds
from .medical_office import revive, revive_options
from .nights import Night, night_of
from .story import FOXY_PATH, FREDDY_ROOM, NAMES, guard_name, question, who_answers

FORM_NUMBERS = frozenset({"guard", "step"})
FORM_LISTS = frozenset({"office"})

PLAYABLE = ("bonnie", "chica", "freddy")  # "Bonnie, Chica and Freddy can be controlled by another player."
ANIMATRONICS = ("bonnie", "chica", "foxy", "freddy", "golden_freddy")
ROLL_ASKS = ("move", "bonnie", "chica", "foxy", "foxy_blocked", "freddy", "golden_freddy", "attack")
GUARD_ASKS = ("bonnie_sight", "chica_met", "freddy_met", "foxy_nearest", "golden_furthest")
CHOICE_ASKS = {"freddy_room": FREDDY_ROOM, "foxy_path": FOXY_PATH}
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "roll": ((), ("values", "step")),
    "answer": ((), ("choice", "guard", "step")),
    "revive": (("guard", "office"), ("step",)),
}
DOING = {"roll": "A roll", "answer": "An answer", "revive": "A revive"}
MIN_GUARD_DIE = 8  # Foxy's victim "rolls a 7 or an 8", so a guard's die must show 8


# ---- setup ----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Full turn 1 of the chosen night, Guard 1 to move; every guard alive, Freddy asleep, Foxy in Pirate Cove."""
    night = night_of(options.get("night"))
    if night is None:
        raise IllegalAction(f"There is no night called {str(options.get('night'))[:20]!r}; pick The First Night "
                            "to The Sixth Night, or One Final Night.")
    guards = options.get("guards")
    if isinstance(guards, bool) or not isinstance(guards, int) or not 1 <= guards <= 4:
        raise IllegalAction("Director's Cut has 1 to 4 guards.")
    players = [key for key in PLAYABLE if options.get(f"{key}_player")]
    if len(seats) != guards + len(players):
        raise IllegalAction(f"This setup needs {guards + len(players)} seats, not {len(seats)}.")
    if len(seats) > night.most_players:
        raise IllegalAction(f"{night.label} is for 1-{night.most_players} players, not {len(seats)}.")
    if "freddy" in players and not night.freddy_moves:
        raise IllegalAction(f"Freddy isn't allowed to move on {night.label}, so nobody can play him that night.")
    sides = {piece: options.get(f"{piece}_die", profile.get(f"{piece}_die")) for piece in ("guard", *PLAYABLE)}
    sides |= {"foxy": profile.get("foxy_die", 20), "golden_freddy": profile.get("golden_freddy_die", 12)}
    for piece, count in sides.items():
        if isinstance(count, bool) or not isinstance(count, int) or not 2 <= count <= 100:
            raise IllegalAction(f"{NAMES.get(piece, 'A guard')}'s die must have 2 to 100 sides.")
    if sides["guard"] < MIN_GUARD_DIE:
        raise IllegalAction(f"A guard's die needs at least {MIN_GUARD_DIE} sides: Foxy's victim dies on a 7 or an 8.")
    guard_seats = list(seats[:guards])
    controllers = {key: None for key in PLAYABLE}
    for key, seat in zip(players, seats[guards:], strict=True):
        controllers[key] = seat
    state = {
        "night": night.key, "seats": list(seats), "guards": {str(seat): "alive" for seat in guard_seats},
        "controllers": controllers, "dice": sides, "full_turns": int(profile.get("full_turns", 10)),
        "full_turn": 1, "turns_done": 0,
        "order": [f"guard-{seat}" for seat in guard_seats] + list(ANIMATRONICS),
        "turn": None, "ask": None, "step": 0,
        "freddy": "inactive" if night.freddy_moves else "resting", "freddy_target": None,
        "foxy": "ready" if night.foxy_moves else "resting", "foxy_back": None,
        "foxy_inactive": options.get("foxy_inactive", "night"),
        "revive_used": False, "last_roll": None, "deaths": [],
    }
    _start_from(state, 0, [])
    return state


def night(state: dict[str, Any]) -> Night:
    found = night_of(state["night"])
    assert found is not None
    return found


# ---- the turn driver ------------------------------------------------------------------------------------------------

def _alive(state: dict[str, Any]) -> list[int]:
    return [int(seat) for seat, status in state["guards"].items() if status == "alive"]


def _ask(state: dict[str, Any], kind: str, who: int | None, **extra: Any) -> None:
    """Put exactly one question to the table; `step` numbers it so a stale or doubled tap is refused."""
    state["step"] += 1
    state["ask"] = {"kind": kind, "who": who, "step": state["step"], **extra}


def _end_full_turn(state: dict[str, Any], events: list[Event]) -> bool:
    """Count a finished full turn; True when that was the last one ("If the guards survive 10 full turns they win")."""
    state["turns_done"] += 1
    events.append(Event(f"Full turn {state['full_turn']} of {state['full_turns']} is over."))
    if state["turns_done"] >= state["full_turns"]:
        state["ask"], state["turn"] = None, None
        return True
    state["full_turn"] += 1
    return False


def _start_from(state: dict[str, Any], index: int, events: list[Event]) -> None:
    """Walk the turn order from `index` to the first piece that acts, ending full turns on the way."""
    order = state["order"]
    while True:
        if not _alive(state):
            state["ask"], state["turn"] = None, None
            return
        if index >= len(order):
            if _end_full_turn(state, events):
                return
            index = 0
        state["turn"] = order[index]
        if _start(state, order[index], events):
            return
        index += 1


def _advance(state: dict[str, Any], events: list[Event]) -> None:
    """The current piece is done: hand the turn to the next one that may act."""
    _start_from(state, state["order"].index(state["turn"]) + 1, events)


def _start(state: dict[str, Any], piece: str, events: list[Event]) -> bool:
    """Begin `piece`'s turn with its first question; False to skip it (dead guard, resting or inactive piece)."""
    tonight = night(state)
    if piece.startswith("guard-"):
        seat = int(piece.removeprefix("guard-"))
        if state["guards"][str(seat)] != "alive":
            return False
        _ask(state, "move", seat)
        return True
    if piece == "bonnie":
        _ask(state, "bonnie", state["controllers"]["bonnie"], roll=1, rolls=tonight.bonnie_rolls)
        return True
    if piece == "chica":
        _ask(state, "chica", state["controllers"]["chica"])
        return True
    if piece == "foxy":
        return _start_foxy(state, events)
    if piece == "freddy":
        return _start_freddy(state, events)
    _ask(state, "golden_freddy", None)
    return True


def _start_foxy(state: dict[str, Any], events: list[Event]) -> bool:
    if state["foxy"] == "resting":
        return False
    if state["foxy"] == "inactive":
        back = state["foxy_back"]
        if back is None or state["full_turn"] < back:
            events.append(Event("Foxy is inactive."))
            return False
        state["foxy"], state["foxy_back"] = "ready", None
        events.append(Event("Foxy is active again."))
    _ask(state, "foxy", None)
    return True


def _start_freddy(state: dict[str, Any], events: list[Event]) -> bool:
    """Freddy's turn follows his activation: asleep, going for the guard who woke him, or hunting the nearest."""
    mode = state["freddy"]
    if mode == "resting":
        return False
    if mode == "inactive":
        events.append(Event("Freddy is inactive and stays put."))
        return False
    target = state["freddy_target"]
    if mode == "strike" and target is not None and state["guards"][str(target)] == "alive":
        events.append(Event(f"Freddy moves to {guard_name(target)}, who woke him, and attacks!"))
        _ask(state, "attack", target, attacker="freddy")
        return True
    if mode == "strike":
        events.append(Event(f"{guard_name(target)}, who woke Freddy, is gone: Freddy hunts the nearest guard."))
        state["freddy"], state["freddy_target"] = "hunt", None
    _ask(state, "freddy", state["controllers"]["freddy"])
    return True


# ---- apply ----------------------------------------------------------------------------------------------------------

def _needs(kind: str, key: str) -> str:
    """What a revive sent without its guard or office is missing (the only move with needed fields)."""
    return (f"{DOING[kind]} needs '{key}': name the dead guard and the guards in the Medical Office, "
            'like {"guard": 2, "office": [1]}.')


def apply(state: dict[str, Any], action: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
    """Check the action completely against the question asked, then return a changed copy and the night's story."""
    kind, actor = check_move(action, FIELDS, DOING, state["seats"], example='{"type": "roll"}',
                             offer="isn't a move in Director's Cut; you can roll, answer the question on screen, "
                                   "or revive a guard in the Medical Office.",
                             missing=_needs)
    ask = state["ask"]
    if ask is None:
        raise IllegalAction("The night is over; nothing more can be done.")
    if "step" in action:
        step = action["step"]
        if isinstance(step, bool) or not isinstance(step, int):
            raise IllegalAction("The question number must be a whole number.")
        if step != ask["step"]:
            raise IllegalAction(f"That question was already answered. Now: {question(state, ask)}")
    if kind == "revive":
        return revive(state, action, actor)
    _check_turn(state, ask, actor)
    if kind == "roll":
        return _roll(state, ask, action, rng)
    return _answer(state, ask, action)


def _check_turn(state: dict[str, Any], ask: dict[str, Any], actor: int | None) -> None:
    """The host may answer anything; a phone only the question put to its own seat."""
    if actor is None or ask["who"] == actor:
        return
    if ask["who"] is None:
        raise IllegalAction(f"That's for the host to answer: {question(state, ask)}")
    raise IllegalAction(f"It's {who_answers(state, ask)}'s turn, not yours: {question(state, ask)}")


def _roll(state: dict[str, Any], ask: dict[str, Any], action: dict[str, Any], rng: Any):
    if ask["kind"] not in ROLL_ASKS:
        raise IllegalAction(f"Nothing is to be rolled now. {question(state, ask)}")
    if "choice" in action or "guard" in action:
        raise IllegalAction("A roll doesn't take an answer.")
    die = _die_of(state, ask)
    why = _why(ask)
    values = action.get("values")
    try:
        if values is None:
            result = rng.roll(f"d{die}", why)
        else:
            result = rng.physical(f"d{die}", values, why)
    except DiceError as error:
        raise IllegalAction(str(error)) from None
    value = result.total
    after = copy.deepcopy(state)
    events: list[Event] = []
    real = "" if values is None else " (real die)"
    after["last_roll"] = {"who": _roller(ask), "die": die, "value": value, "real": values is not None,
                          "full_turn": state["full_turn"]}
    ROLLS[ask["kind"]](after, ask, value, f"{value} on d{die}{real}", events)
    after["last_roll"]["text"] = events[0].text if events else ""
    return after, events


def _die_of(state: dict[str, Any], ask: dict[str, Any]) -> int:
    kind = ask["kind"]
    if kind in ("move", "attack"):
        return state["dice"]["guard"]
    if kind == "foxy_blocked":
        return state["dice"]["foxy"]
    return state["dice"][kind]


def _roller(ask: dict[str, Any]) -> str:
    kind = ask["kind"]
    if kind in ("move", "attack"):
        return guard_name(ask["who"])
    return NAMES["foxy" if kind == "foxy_blocked" else kind]


def _why(ask: dict[str, Any]) -> str:
    kind = ask["kind"]
    if kind == "move":
        return f"{guard_name(ask['who'])} moves"
    if kind == "attack":
        return f"{guard_name(ask['who'])} attacked by {NAMES[ask['attacker']]}"
    if kind == "foxy_blocked":
        return "Foxy, every guard blocked"
    return NAMES[kind]


def _answer(state: dict[str, Any], ask: dict[str, Any], action: dict[str, Any]):
    kind = ask["kind"]
    if kind in ROLL_ASKS:
        raise IllegalAction(f"No question is waiting for an answer: {question(state, ask)}")
    choice, guard = action.get("choice"), action.get("guard")
    if (choice is None) == (guard is None):
        raise IllegalAction("Answer with one choice, or name one guard.")
    if kind in CHOICE_ASKS:
        choices = CHOICE_ASKS[kind]
        if guard is not None or not isinstance(choice, str) or choice not in choices:
            raise IllegalAction(f"Answer with one of: {', '.join(choices)}.")
    else:
        if choice is not None:
            if choice != "nobody" or not ask.get("nobody"):
                allowed = "a guard's seat number" + (" or 'nobody'" if ask.get("nobody") else "")
                raise IllegalAction(f"Answer with {allowed}.")
        elif isinstance(guard, bool) or not isinstance(guard, int):
            raise IllegalAction("Name the guard by seat number, like 2.")
        elif guard not in ask["guards"]:
            listed = ", ".join(guard_name(seat) for seat in ask["guards"])
            raise IllegalAction(f"{guard_name(guard) if str(guard) in state['guards'] else f'Seat {guard}'} "
                                f"isn't one of the answers here; pick {listed}.")
    after = copy.deepcopy(state)
    events: list[Event] = []
    ANSWERS[kind](after, ask, guard if choice is None else choice, events)
    return after, events


# ---- guards ---------------------------------------------------------------------------------------------------------

def _rolled_move(state, ask, value, said, events):
    """'You roll the dice on your turn and move accordingly'; then, on nights Freddy moves, ask about his room."""
    seat = ask["who"]
    events.append(Event(f"{guard_name(seat)} rolled {said} and moves up to {value} tile{'s' if value != 1 else ''}."))
    if state["freddy"] == "inactive":
        _ask(state, "freddy_room", None, guard=seat)
        return
    _advance(state, events)


def _answered_freddy_room(state, ask, choice, events):
    """'Freddy is activated when a Guard enters/leaves his line of sight' (his whole room, the cafeteria too)."""
    seat = ask["guard"]
    if choice == "entered":
        state["freddy"], state["freddy_target"] = "strike", seat
        events.append(Event(f"{guard_name(seat)} entered Freddy's room: Freddy wakes and will go for them."))
    elif choice == "left":
        state["freddy"], state["freddy_target"] = "hunt", None
        events.append(Event(f"{guard_name(seat)} was the last to leave Freddy's room: Freddy wakes and will hunt."))
    else:
        events.append(Event(f"{guard_name(seat)} neither entered nor left Freddy's room: Freddy stays inactive."))
    _advance(state, events)


def _rolled_attack(state, ask, value, said, events):
    """The attacked guard's own roll decides: odd dies (Bonnie, Chica, Freddy), 7 or 8 (Foxy), 1 (Golden Freddy)."""
    seat, attacker = ask["who"], ask["attacker"]
    name = guard_name(seat)
    fatal = value in odds.fatal_faces(attacker, state["dice"]["guard"])
    if attacker == "golden_freddy":
        if fatal:
            state["guards"][str(seat)] = "eliminated"
            events.append(Event(f"{name} rolled {said}: eliminated by Golden Freddy, for good."))
        else:
            events.append(Event(f"{name} rolled {said}: Golden Freddy merely sits beside them."))
    else:
        why = "a 7 or an 8" if attacker == "foxy" else ("odd" if value % 2 else "even")
        if fatal:
            state["guards"][str(seat)] = "dead"
            events.append(Event(f"{name} rolled {said} against {NAMES[attacker]}, {why}: {name} dies."))
        else:
            events.append(Event(f"{name} rolled {said} against {NAMES[attacker]}, {why}: {name} lives."))
    if fatal:
        state["deaths"].append({"guard": seat, "by": attacker, "full_turn": state["full_turn"],
                                "status": state["guards"][str(seat)]})
    if not _alive(state):
        state["ask"], state["turn"] = None, None
        return
    if attacker == "freddy":
        # "Once Freddy attacks a Guard he goes inactive until another Guard activates him"
        state["freddy"], state["freddy_target"] = "inactive", None
        events.append(Event("Freddy goes inactive."))
    if attacker == "bonnie":
        _bonnie_looks_again(state, ask["sight"], events)
        return
    _advance(state, events)


# ---- Bonnie ---------------------------------------------------------------------------------------------------------

def _rolled_bonnie(state, ask, value, said, events):
    """'Moves to the tile number that is rolled on her dice', then looks for guards in her line of sight."""
    which = f", roll {ask['roll']} of {ask['rolls']}" if ask["rolls"] > 1 else ""
    events.append(Event(f"Bonnie rolled {said}{which}: she moves to tile {value}."))
    _ask(state, "bonnie_sight", state["controllers"]["bonnie"], tile=value, roll=ask["roll"], rolls=ask["rolls"],
         seen=[], guards=_alive(state), nobody=True)


def _answered_bonnie_sight(state, ask, answer, events):
    if answer == "nobody":
        events.append(Event(f"No {'other ' if ask['seen'] else ''}guard in Bonnie's line of sight."))
        _bonnie_moves_on(state, ask, events)
        return
    events.append(Event(f"{guard_name(answer)} is in Bonnie's line of sight: Bonnie attacks!"))
    sight = {key: ask[key] for key in ("tile", "roll", "rolls")} | {"seen": [*ask["seen"], answer]}
    _ask(state, "attack", answer, attacker="bonnie", sight=sight)


def _bonnie_looks_again(state, sight, events):
    """Every guard in her line of sight is attacked, one at a time; she asks about the others after each attack."""
    others = [seat for seat in _alive(state) if seat not in sight["seen"]]
    if others:
        _ask(state, "bonnie_sight", state["controllers"]["bonnie"], guards=others, nobody=True, **sight)
        return
    _bonnie_moves_on(state, sight, events)


def _bonnie_moves_on(state, sight, events):
    """'Bonnie rolls twice' from The Third Night: her second roll comes after the first move's attacks."""
    if sight["roll"] < sight["rolls"]:
        _ask(state, "bonnie", state["controllers"]["bonnie"], roll=sight["roll"] + 1, rolls=sight["rolls"])
        return
    _advance(state, events)


# ---- Chica and a hunting Freddy: move toward the nearest guard, attack the first one met ----------------------------

def _rolled_chica(state, ask, value, said, events):
    _toward_nearest(state, "chica", night(state).chica_doubled, value, said, events)


def _rolled_freddy(state, ask, value, said, events):
    _toward_nearest(state, "freddy", night(state).freddy_doubled, value, said, events)


def _toward_nearest(state, piece, doubled, value, said, events):
    """'Moves the number rolled on her dice towards the nearest Guard' (doubled on the nights that say so)."""
    steps = value * 2 if doubled else value
    how = f", doubled to {steps}" if doubled else ""
    events.append(Event(f"{NAMES[piece]} rolled {said}{how}: {steps} tiles toward the nearest guard."))
    _ask(state, f"{piece}_met", state["controllers"][piece], steps=steps, guards=_alive(state), nobody=True)


def _answered_met(state, ask, answer, events):
    """'If Chica encounters any Guard before moving the full number that Guard is attacked and Chica's turn ends.'"""
    piece = ask["kind"].removesuffix("_met")
    if answer == "nobody":
        # Freddy stays awake and hunts again next turn: "Once Freddy attacks a Guard he goes inactive" is the only
        # sentence that puts him back to sleep, and a hunt that meets nobody is no attack.
        awake = " and stays awake" if piece == "freddy" else ""
        events.append(Event(f"{NAMES[piece]} meets no guard{awake}."))
        _advance(state, events)
        return
    events.append(Event(f"{NAMES[piece]} meets {guard_name(answer)} and attacks!"))
    _ask(state, "attack", answer, attacker=piece)


# ---- Foxy -----------------------------------------------------------------------------------------------------------

def _rolled_foxy(state, ask, value, said, events):
    """'When his dice rolls anything from 1-19 he does nothing, but when he rolls a 20 he charges the nearest Guard.'"""
    if value not in night(state).foxy_triggers:
        events.append(Event(f"Foxy rolled {said}: nothing happens."))
        _advance(state, events)
        return
    events.append(Event(f"Foxy rolled {said}: he charges the nearest guard!"))
    _foxy_next(state, _alive(state))


def _foxy_next(state, candidates):
    if len(candidates) == 1:
        _ask(state, "foxy_path", None, guard=candidates[0], left=[])
    else:
        _ask(state, "foxy_nearest", None, guards=candidates, nobody=False)


def _answered_foxy_nearest(state, ask, answer, events):
    events.append(Event(f"{guard_name(answer)} is nearest to Foxy."))
    _ask(state, "foxy_path", None, guard=answer, left=[seat for seat in ask["guards"] if seat != answer])


def _answered_foxy_path(state, ask, choice, events):
    """Cinema: safe. Blocked: the next nearest guard. All blocked: Foxy rolls again (see _rolled_foxy_blocked)."""
    name = guard_name(ask["guard"])
    if choice == "reaches":
        events.append(Event(f"Foxy charges {name} and attacks!"))
        _ask(state, "attack", ask["guard"], attacker="foxy")
        return
    if choice == "cinema":
        events.append(Event(f"{name} is in the cinema: safe from Foxy."))
        _advance(state, events)
        return
    left = [seat for seat in ask["left"] if state["guards"][str(seat)] == "alive"]
    if left:
        events.append(Event(f"An animatronic blocks Foxy's way to {name}: he goes for the next nearest guard."))
        _foxy_next(state, left)
        return
    events.append(Event(f"An animatronic blocks Foxy's way to {name}; every guard is blocked, so Foxy rolls again."))
    _ask(state, "foxy_blocked", None)


def _rolled_foxy_blocked(state, ask, value, said, events):
    """'An even roll inactivates Foxy, an odd roll resets all anamatronics to their starting location and the turn
    ends.'

    "The turn" is read as the full turn: Freddy and Golden Freddy don't act, and the next full turn begins.
    """
    if value % 2 == 0:
        state["foxy"] = "inactive"
        if state["foxy_inactive"] == "night":
            state["foxy_back"] = None
            events.append(Event(f"Foxy rolled {said}, even: Foxy is inactive for the rest of the night."))
        else:
            state["foxy_back"] = state["full_turn"] + 2
            events.append(Event(f"Foxy rolled {said}, even: Foxy is inactive and sits out his next turn."))
        _advance(state, events)
        return
    events.append(Event(f"Foxy rolled {said}, odd: every animatronic goes back to its start and the turn ends."))
    if _end_full_turn(state, events):
        return
    _start_from(state, 0, events)


# ---- Golden Freddy --------------------------------------------------------------------------------------------------

def _rolled_golden_freddy(state, ask, value, said, events):
    """'When he rolls a 12 he attacks the Guard furthest from him' (or another of tonight's trigger numbers)."""
    if value not in night(state).golden_freddy_triggers:
        events.append(Event(f"Golden Freddy rolled {said}: nothing happens."))
        _advance(state, events)
        return
    alive = _alive(state)
    if len(alive) == 1:
        events.append(Event(f"Golden Freddy rolled {said}: he attacks {guard_name(alive[0])}, the only guard left!"))
        _ask(state, "attack", alive[0], attacker="golden_freddy")
        return
    events.append(Event(f"Golden Freddy rolled {said}: he attacks the guard furthest from him!"))
    _ask(state, "golden_furthest", None, guards=alive, nobody=False)


def _answered_golden_furthest(state, ask, answer, events):
    events.append(Event(f"{guard_name(answer)} is furthest: Golden Freddy attacks them."))
    _ask(state, "attack", answer, attacker="golden_freddy")


ROLLS = {"move": _rolled_move, "attack": _rolled_attack, "bonnie": _rolled_bonnie, "chica": _rolled_chica,
         "freddy": _rolled_freddy, "foxy": _rolled_foxy, "foxy_blocked": _rolled_foxy_blocked,
         "golden_freddy": _rolled_golden_freddy}
ANSWERS = {"freddy_room": _answered_freddy_room, "bonnie_sight": _answered_bonnie_sight, "chica_met": _answered_met,
           "freddy_met": _answered_met, "foxy_nearest": _answered_foxy_nearest, "foxy_path": _answered_foxy_path,
           "golden_furthest": _answered_golden_furthest}


# ---- what the screens offer and see ---------------------------------------------------------------------------------

def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The one question's answers for whoever may give them, and the revive while it is on offer."""
    ask = state["ask"]
    if ask is None or (seat is not None and seat not in state["seats"]):
        return []
    actions: list[dict[str, Any]] = []
    if seat is None or ask["who"] == seat:
        step = ask["step"]
        if ask["kind"] in ROLL_ASKS:
            actions.append({"type": "roll", "step": step})
        elif ask["kind"] in CHOICE_ASKS:
            actions += [{"type": "answer", "choice": choice, "step": step} for choice in CHOICE_ASKS[ask["kind"]]]
        else:
            actions += [{"type": "answer", "guard": guard, "step": step} for guard in ask["guards"]]
            if ask.get("nobody"):
                actions.append({"type": "answer", "choice": "nobody", "step": step})
    for option in revive_options(state):
        if seat is None or seat in option["office"]:
            actions.append({"type": "revive", "guard": option["guard"], "office": option["office"]})
    return actions


def outcome(state: dict[str, Any]) -> Outcome | None:
    """Animatronics win when no guard is left alive; the guards win by surviving the night's full turns."""
    tonight = night(state)
    # "they are eliminated from the game (and cannot be revived)": an eliminated guard is out, so not a winner;
    # a dead guard is still in the night (a revive can bring them back) and shares the guards' win.
    guards = tuple(int(seat) for seat, status in state["guards"].items() if status != "eliminated")
    if not _alive(state):
        players = tuple(seat for seat in state["controllers"].values() if seat is not None)
        return Outcome(players, f"The animatronics win {tonight.label}: no guard is left alive.",
                       shared=len(players) > 1)
    if state["turns_done"] >= state["full_turns"]:
        return Outcome(guards, f"The guards survive {state['full_turns']} full turns and win {tonight.label}!",
                       shared=len(guards) > 1)
    return None


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything (Director's Cut hides nothing), plus the question, the board check and the odds, ready to show."""
    seat = viewer.seat if isinstance(viewer, Viewer) else viewer  # until this game declares its moves (issue 13)
    from .story import board, odds_view, role_of

    seen = copy.deepcopy(state)
    tonight = night(state)
    ask = state["ask"]
    seen["night_card"] = {"label": tonight.label, "card": list(tonight.card), "players": tonight.most_players}
    seen["question"] = question(state, ask) if ask else None
    seen["answerer"] = who_answers(state, ask) if ask else None
    seen["mine"] = ask is not None and (seat is None or ask["who"] == seat)
    seen["actions"] = legal_actions(state, seat) if ask else []
    seen["die"] = _die_of(state, ask) if ask and ask["kind"] in ROLL_ASKS else None
    seen["revive_options"] = revive_options(state) if seat is None or seat in state["seats"] else []
    seen["board"] = board(state)
    seen["odds"] = odds_view(state)
    seen["role"] = role_of(state, seat)
    return seen
