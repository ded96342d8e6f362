"""Five Nights at Freddy's: Flipside: each player's Health, Power, Remnant and deck, the five phases, and the fight.

Pure: no Flask, no SQLAlchemy. The cards stay on the table; Night Shift keeps the numbers honest and fast.
Everything is public, and every move can be undone by the host.
"""

from __future__ import annotations

import copy
from typing import Any

from ..contract import Event, IllegalAction, Outcome, Viewer
from ..moves import check_move
from . import combat
from .keywords import combat_reminders

OPENING = "opening"
PHASES = ("draw", "ready", "play", "action", "cleanup")
PHASE_NAMES = {"draw": "Draw", "ready": "Ready", "play": "Play", "action": "Action", "cleanup": "Cleanup"}
PHASE_HINTS = {  # the rulebook's TURN STRUCTURE, word for word
    "draw": "Draw 1 card from your deck.",
    "ready": "Ready all exhausted cards in your control. Restore Power and increase by 1 (max 10).",
    "play": "Play cards from your hand (pay costs). Cards enter play Exhausted, unable to activate until next turn. "
            "Some cards are played Hidden (face down) and are revealed when ready at the start of your next turn.",
    "action": "Each ready character may perform one action: Attack, Ability or Move. After acting once, the "
              "character becomes Exhausted. Exhausted characters can no longer act or defend this turn.",
    "cleanup": "Declare the end of your turn. All damage is removed from surviving characters.",
}
MAX_BLOCKERS = 4  # rows in the combat helper; "Multiple characters can block a single attack"
DECK_LIMIT = 400  # the most cards a deck may be set to (the setup form's maximum)
GRAVEYARD_LIMIT = 400
BLOCKER_FIELDS = tuple(f"b{slot}_{part}" for slot in range(1, MAX_BLOCKERS + 1) for part in ("atk", "def", "spot"))
FORM_NUMBERS = frozenset({"target", "atk", "def", "bonus"} | {name for name in BLOCKER_FIELDS
                                                              if not name.endswith("_spot")})

WHOSE = ("whose",)
# type -> (fields it needs, fields it may have), besides "type" and "seat"
FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "start": ((), ()),
    "redraw": (("count",), WHOSE),
    "next-phase": ((), ()),
    "lose-health": (("amount",), WHOSE),
    "gain-health": (("amount",), WHOSE),
    "set-health": (("value",), WHOSE),
    "spend-power": (("amount",), WHOSE),
    "gain-power": (("amount",), WHOSE),
    "spend-remnant": (("amount",), WHOSE),
    "discard": (("amount",), WHOSE),
    "set-graveyard": (("value",), WHOSE),
    "draw": (("amount",), WHOSE),
    "set-deck": (("value",), WHOSE),
    "attack": (("target", "atk", "def"), ("bonus", "disguise", *BLOCKER_FIELDS)),
}
DOING = {"start": "Starting the first turn", "redraw": "Redrawing your opening hand", "next-phase": "Stepping on",
         "lose-health": "Losing Health", "gain-health": "Gaining Health", "set-health": "Setting Health",
         "spend-power": "Spending Power", "gain-power": "Gaining Power", "spend-remnant": "Spending Remnant",
         "discard": "Discarding to the Graveyard", "set-graveyard": "Setting the Graveyard",
         "draw": "Drawing cards", "set-deck": "Setting the deck", "attack": "An attack"}
ASK = {"count": "Say how many opening cards to redraw (0 keeps them all).", "amount": "Say how many.",
       "value": "Say what number to set it to.", "target": "Say which player you attack, by seat number.",
       "atk": "Give the attacker's ATK.", "def": "Give the attacker's DEF."}
TRUE_WORDS = ("on", "yes", "true", "1")
FALSE_WORDS = ("off", "no", "false", "0", "")


# ---- setup -----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Everyone at 20 Health with Power 1 and an opening hand of 3 drawn; the first turn waits for the redraws."""
    hand = profile.get("opening_hand", 3)
    power_start, power_max = profile.get("power", [1, 10])
    deck = options.get("deck_size", profile.get("deck_min", 40))
    health = profile.get("health", 20)
    return {
        "seats": list(seats),
        "players": {str(seat): {"health": health, "power": power_start, "power_max": power_start,
                                "deck": deck - hand, "graveyard": 0, "removed": 0, "redrawn": None, "turns": 0}
                    for seat in seats},
        "first_player": options.get("first_player", seats[0]),
        "turn": {"seat": options.get("first_player", seats[0]), "phase": OPENING, "number": 0},
        "redrawn_to": options.get("redrawn_cards", "graveyard"),
        # the Health and ATK/DEF ceilings are assumed (no maximum is printed): the host's setup choice wins
        "limits": {"health": health, "health_max": options.get("health_limit", profile.get("health_limit", 99)),
                   "power": power_max, "remnant": profile.get("remnant_max", 10), "hand": hand, "deck_size": deck,
                   "stat": options.get("stat_limit", profile.get("stat_limit", 99))},
        "last_combat": None,
    }


# ---- checks ----------------------------------------------------------------------------------------------------------

def _player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return state["players"][str(seat)]


def _out(state: dict[str, Any], seat: int) -> bool:
    return _player(state, seat)["health"] <= 0


def _whole(action: dict[str, Any], key: str, what: str, low: int, high: int) -> int:
    """A whole number from the action within [low, high], or a sentence saying what fits."""
    value = action[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{what} must be a whole number, like {max(low, 1)}.")
    if value < low:
        raise IllegalAction(f"{what} can't be less than {low}; you gave {value}.")
    if value > high:
        raise IllegalAction(f"{what} can't be more than {high}; you gave {value}.")
    return value


def _flag(action: dict[str, Any], key: str, what: str) -> bool:
    """A tick box: true/false from JSON, 'on'/'yes' from a form; absent means no."""
    value = action.get(key, False)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE_WORDS + FALSE_WORDS:
        return value.strip().lower() in TRUE_WORDS
    raise IllegalAction(f"{what} is a yes-or-no box: send true or false.")


def _check_shape(state: dict[str, Any], action: Any) -> tuple[str, int | None]:
    """The action's type and acting seat, after refusing anything malformed or from a player who is out."""
    kind, actor = check_move(action, FIELDS, DOING, state["seats"], example='{"type": "next-phase"}',
                             offer="isn't a Flipside move here; you can change Health, Power, Remnant, the "
                                   "Graveyard or the deck, step through the phases, or resolve an attack.",
                             missing=ASK)
    if actor is not None and _out(state, actor):
        raise IllegalAction(f"Player {actor} is out of the game (0 Health) and can't act any more; if that was a "
                            "mistake, the host can undo the move that put them out.")
    return kind, actor


def _whose(state: dict[str, Any], action: dict[str, Any], actor: int | None, what: str) -> int:
    """The seat whose counter changes: your own on a phone; the host names it (or plays for that seat)."""
    whose = action.get("whose")
    if whose is None:
        if actor is None:
            raise IllegalAction(f"Say whose {what} to change: each player has their own.")
        return actor
    if isinstance(whose, bool) or not isinstance(whose, int):
        raise IllegalAction(f"Say whose {what} by seat number, like 2.")
    if whose not in state["seats"]:
        raise IllegalAction(f"There is no Player {whose} at this table.")
    if actor is not None and whose != actor:
        raise IllegalAction(f"You can change only your own {what}; Player {whose}'s is theirs to change.")
    if _out(state, whose):
        raise IllegalAction(f"Player {whose} is out of the game (0 Health); their counters stay as they are.")
    return whose


def _label(whose: int, actor: int | None, what: str) -> str:
    return what if whose == actor else f"Player {whose}'s {what}"


def _change(old: int, new: int) -> str:
    delta = f"+{new - old}" if new > old else f"\u2212{old - new}"
    return f"{old} \u2192 {new} ({delta})"


# ---- moves -----------------------------------------------------------------------------------------------------------

def apply(state: dict[str, Any], action: dict[str, Any], rng: Any) -> tuple[dict[str, Any], list[Event]]:
    """Check the move completely, then return a changed copy of the state and the log lines (Flipside rolls no dice)."""
    kind, actor = _check_shape(state, action)
    if kind == "start":
        return _start(state, actor)
    if kind == "redraw":
        return _redraw(state, action, actor)
    if kind == "next-phase":
        return _next_phase(state, actor)
    if kind == "attack":
        return _attack(state, action, actor)
    if kind in ("lose-health", "gain-health", "set-health"):
        return _health(state, action, actor, kind)
    if kind in ("spend-power", "gain-power"):
        return _power(state, action, actor, kind)
    if kind == "spend-remnant":
        return _spend_remnant(state, action, actor)
    if kind in ("discard", "set-graveyard"):
        return _graveyard(state, action, actor, kind)
    return _deck(state, action, actor, kind)


def _start(state: dict[str, Any], actor: int | None):
    """'Choose a player to start.': the chosen player begins turn 1 once everyone has kept or redrawn ('You may
    discard and redraw each card once' is each player's own choice); the host may start anyway, and an opening
    hand nobody decided on is kept."""
    if state["turn"]["phase"] != OPENING:
        raise IllegalAction("The game has already started.")
    first = _starter(state)
    if actor is not None and actor != first:
        raise IllegalAction(f"Player {first} starts; they (or the host) begin the first turn.")
    deciding = _deciding(state)
    if actor is not None and deciding:
        raise IllegalAction(f"{_names(deciding)} still {'has' if len(deciding) == 1 else 'have'} to keep or redraw "
                            "their opening hand; the host can start without them.")
    after = copy.deepcopy(state)
    events = [Event(f"started the game: Player {first} goes first.")]
    _begin_turn(after, first, events)
    return after, events


def _deciding(state: dict[str, Any]) -> list[int]:
    """Players still in who have neither kept nor redrawn their opening hand."""
    return [seat for seat in state["seats"] if _player(state, seat)["redrawn"] is None and not _out(state, seat)]


def _starter(state: dict[str, Any]) -> int:
    """The chosen first player, or the next one clockwise if they dropped out before the first turn."""
    first = state["first_player"]
    return first if not _out(state, first) else _next_seat(state, first)


def _redraw(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """'Draw 3 cards. You may discard and redraw each card once.': once per player, before the first turn."""
    whose = _whose(state, action, actor, "opening hand")
    if state["turn"]["phase"] != OPENING:
        raise IllegalAction("Opening hands can be redrawn only before the first turn starts.")
    player = _player(state, whose)
    label = "your opening hand" if whose == actor else f"Player {whose}'s opening hand"
    if player["redrawn"] is not None:
        raise IllegalAction(f"You already settled {label}; each card may be redrawn only once.")
    hand = state["limits"]["hand"]
    count = _whole(action, "count", "The number of cards to redraw", 0, hand)
    if count > player["deck"]:
        raise IllegalAction(f"The deck has only {player['deck']} cards to redraw from.")
    after = copy.deepcopy(state)
    mine = _player(after, whose)
    mine["redrawn"] = count
    if count == 0:
        return after, [Event(f"kept {label}.")]
    if state["redrawn_to"] == "graveyard":
        mine["deck"] -= count
        mine["graveyard"] += count
        where = f"to the Graveyard (deck {mine['deck']}, Graveyard {mine['graveyard']})"
    else:
        where = "back into the deck"
    cards = "card" if count == 1 else "cards"
    return after, [Event(f"redrew {count} {cards} of {label}, the swapped {cards} going {where}.")]


def _begin_turn(after: dict[str, Any], seat: int, events: list[Event]) -> None:
    """A player's turn opens in the Draw phase: 'Draw 1 card from your deck.'"""
    player = _player(after, seat)
    player["turns"] += 1
    after["turn"] = {"seat": seat, "phase": "draw", "number": after["turn"]["number"] + 1}
    player["deck"] = max(0, player["deck"] - 1)
    events.append(Event(f"Turn {after['turn']['number']}: Player {seat} draws 1 card (deck {player['deck']})."))


def _next_seat(state: dict[str, Any], seat: int) -> int:
    """'Players take turns clockwise.': the next seat still in the game."""
    seats = state["seats"]
    start = seats.index(seat)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if not _out(state, candidate):
            return candidate
    return seat


def _next_phase(state: dict[str, Any], actor: int | None):
    """Draw, Ready, Play, Action, Cleanup, then the next player's Draw; Ready restores and grows Power."""
    turn = state["turn"]
    if turn["phase"] == OPENING:
        raise IllegalAction(f"The first turn hasn't started yet: Player {_starter(state)} (or the host) "
                            "starts it once everyone has kept or redrawn their opening hand.")
    if actor is not None and actor != turn["seat"]:
        raise IllegalAction(f"It is Player {turn['seat']}'s turn; only they (or the host) step through its phases.")
    after = copy.deepcopy(state)
    seat = turn["seat"]
    events: list[Event] = []
    if turn["phase"] == "cleanup":
        upcoming = _next_seat(state, seat)
        events.append(Event(f"ended Player {seat}'s turn."))
        _begin_turn(after, upcoming, events)
        return after, events
    phase = PHASES[PHASES.index(turn["phase"]) + 1]
    after["turn"]["phase"] = phase
    player = _player(after, seat)
    if phase == "ready":
        before = player["power_max"]
        # "Starts at 1, increases by +1 per turn (max 10)": the first turn plays with the starting 1.
        if player["turns"] > 1:
            player["power_max"] = min(state["limits"]["power"], before + 1)
        player["power"] = player["power_max"]
        grown = f" (up from {before})" if player["power_max"] > before else ""
        events.append(Event(f"Ready: all exhausted cards ready; Power restored to {player['power']}{grown}."))
    elif phase == "cleanup":
        events.append(Event("Cleanup: all damage is removed from surviving characters."))
    else:
        events.append(Event(f"{PHASE_NAMES[phase]} phase."))
    return after, events


def _health(state: dict[str, Any], action: dict[str, Any], actor: int | None, kind: str):
    """Health: 20 per player, never below 0; a player at 0 is out."""
    whose = _whose(state, action, actor, "Health")
    old = _player(state, whose)["health"]
    top = state["limits"]["health_max"]
    label = _label(whose, actor, "Health")
    if kind == "set-health":
        new = _whole(action, "value", "Health", 0, top)
        if new == old:
            raise IllegalAction(f"{label} is already {old}.")
    elif kind == "lose-health":
        amount = _whole(action, "amount", "Health lost", 1, top)
        if amount > old:
            raise IllegalAction(f"{label} is {old}; losing {amount} would take it below 0. Lose {old} to drop to 0.")
        new = old - amount
    else:
        amount = _whole(action, "amount", "Health gained", 1, top)
        if old + amount > top:
            raise IllegalAction(f"{label} is {old}; gaining {amount} would pass {top}, far above the "
                                f"{state['limits']['health']} you start with. Check the number.")
        new = old + amount
    after = copy.deepcopy(state)
    _player(after, whose)["health"] = new
    events = [Event(f"{label} {_change(old, new)}.")]
    _after_health(after, whose, events)
    return after, events


def _after_health(after: dict[str, Any], seat: int, events: list[Event]) -> None:
    """A player at 0 is out; if it was their turn and two or more remain, the next player's turn begins."""
    if not _out(after, seat):
        return
    events.append(Event(f"Player {seat} drops to 0 Health and is out."))
    alive = [other for other in after["seats"] if not _out(after, other)]
    turn = after["turn"]
    if len(alive) >= 2 and turn["phase"] != OPENING and turn["seat"] == seat:
        _begin_turn(after, _next_seat(after, seat), events)


def _power(state: dict[str, Any], action: dict[str, Any], actor: int | None, kind: str):
    """Power is 'spent when playing cards'; Salvage ('gain 1 Power') adds some back, never past 10."""
    whose = _whose(state, action, actor, "Power")
    player = _player(state, whose)
    old, top = player["power"], state["limits"]["power"]
    label = _label(whose, actor, "Power")
    if kind == "spend-power":
        amount = _whole(action, "amount", "Power spent", 1, top)
        if amount > old:
            raise IllegalAction(f"{label} has {old} left; you can't spend {amount}.")
        new = old - amount
    else:
        amount = _whole(action, "amount", "Power gained", 1, top)
        if old + amount > top:
            raise IllegalAction(f"{label} is {old}; it can't go past {top}.")
        new = old + amount
    after = copy.deepcopy(state)
    _player(after, whose)["power"] = new
    verb = "spent" if kind == "spend-power" else "gained"
    return after, [Event(f"{verb} {amount} Power: {label} {_change(old, new)}.")]


def remnant(player: dict[str, Any], limit: int) -> int:
    """'Equals the number of cards in your Graveyard (max 10)'."""
    return min(player["graveyard"], limit)


def _spend_remnant(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """'Remove used Remnant cards from the game': spent Remnant leaves the Graveyard for good."""
    whose = _whose(state, action, actor, "Remnant")
    player = _player(state, whose)
    limit = state["limits"]["remnant"]
    label = _label(whose, actor, "Remnant")
    amount = action["amount"]
    if not isinstance(amount, bool) and isinstance(amount, int) and amount > limit:
        raise IllegalAction(f"Remnant is at most {limit}; you can't spend {amount}.")
    amount = _whole(action, "amount", "Remnant spent", 1, limit)
    if amount > player["graveyard"]:
        raise IllegalAction(f"{label} is {remnant(player, limit)}: only {player['graveyard']} "
                            f"card{'s' if player['graveyard'] != 1 else ''} in the Graveyard, not {amount}.")
    after = copy.deepcopy(state)
    mine = _player(after, whose)
    mine["graveyard"] -= amount
    mine["removed"] += amount
    return after, [Event(f"spent {amount} Remnant: {amount} card{'s' if amount != 1 else ''} removed from the game "
                         f"(Graveyard {player['graveyard']} \u2192 {mine['graveyard']}, {label} now "
                         f"{remnant(mine, limit)}).")]


def _graveyard(state: dict[str, Any], action: dict[str, Any], actor: int | None, kind: str):
    """'All discarded cards go to the Graveyard (discard pile)': cards in, or a count corrected."""
    whose = _whose(state, action, actor, "Graveyard")
    player = _player(state, whose)
    old = player["graveyard"]
    label = _label(whose, actor, "Graveyard")
    if kind == "discard":
        amount = _whole(action, "amount", "Cards discarded", 1, GRAVEYARD_LIMIT)
        if old + amount > GRAVEYARD_LIMIT:
            raise IllegalAction(f"{label} holds {old}; it can't hold more than {GRAVEYARD_LIMIT} cards.")
        new = old + amount
    else:
        new = _whole(action, "value", "The Graveyard", 0, GRAVEYARD_LIMIT)
        if new == old:
            raise IllegalAction(f"{label} already holds {old}.")
    after = copy.deepcopy(state)
    _player(after, whose)["graveyard"] = new
    limit = state["limits"]["remnant"]
    text = f"{label} {_change(old, new)}; Remnant {remnant(_player(after, whose), limit)}."
    return after, [Event(("discarded to the Graveyard: " if kind == "discard" else "set ") + text)]


def _deck(state: dict[str, Any], action: dict[str, Any], actor: int | None, kind: str):
    """Cards left in the deck: card effects draw more; a wrong count can be corrected. An empty deck ends the game."""
    whose = _whose(state, action, actor, "deck")
    old = _player(state, whose)["deck"]
    label = _label(whose, actor, "deck")
    if kind == "draw":
        amount = _whole(action, "amount", "Cards drawn", 1, DECK_LIMIT)
        if old == 0:
            raise IllegalAction(f"{label[0].upper() + label[1:]} is empty.")
        if amount > old:
            raise IllegalAction(f"{label[0].upper() + label[1:]} has only {old} cards; you can't draw {amount}.")
        new = old - amount
    else:
        new = _whole(action, "value", "The deck", 0, DECK_LIMIT)
        if new == old:
            raise IllegalAction(f"{label[0].upper() + label[1:]} already has {old} cards.")
    after = copy.deepcopy(state)
    _player(after, whose)["deck"] = new
    if kind == "draw":
        return after, [Event(f"drew {amount} card{'s' if amount != 1 else ''}: {label} {_change(old, new)}.")]
    return after, [Event(f"set {label} to {new} cards (was {old}).")]


def _attack(state: dict[str, Any], action: dict[str, Any], actor: int | None):
    """COMBAT: the attacker names a target player, the blockers fight all at once, unblocked damage hits Health."""
    turn = state["turn"]
    attacker_seat = turn["seat"]
    if turn["phase"] != "action":
        when = "before the first turn" if turn["phase"] == OPENING else f"in the {PHASE_NAMES[turn['phase']]} phase"
        raise IllegalAction(f"Attacks happen in the Action phase of your turn, not {when}.")
    if actor is not None and actor != attacker_seat:
        raise IllegalAction(f"It is Player {attacker_seat}'s turn; only they (or the host) declare attacks.")
    target = action["target"]
    if isinstance(target, bool) or not isinstance(target, int) or target not in state["seats"]:
        raise IllegalAction("Choose the player you attack by seat number.")
    if target == attacker_seat:
        raise IllegalAction("Choose an opponent to attack, not yourself.")
    if _out(state, target):
        raise IllegalAction(f"Player {target} is already out of the game.")
    stat = state["limits"]["stat"]
    atk = _whole(action, "atk", "The attacker's ATK", 0, stat)
    defence = _whole(action, "def", "The attacker's DEF", 1, stat)
    bonus = _whole(action, "bonus", "The attacker's +X/+X (Backup or Leader)", 0, stat) if "bonus" in action else 0
    disguise = _flag(action, "disguise", "Disguise")
    blockers = []
    for slot in range(1, MAX_BLOCKERS + 1):
        keys = (f"b{slot}_atk", f"b{slot}_def")
        spot = _flag(action, f"b{slot}_spot", f"Blocker {slot}'s Spot or Disguise")
        given = [key in action for key in keys]
        if not any(given):
            if spot:
                raise IllegalAction(f"Blocker {slot} is ticked for Spot or Disguise but has no ATK and DEF; "
                                    "fill in its numbers or untick it.")
            continue
        if not all(given):
            raise IllegalAction(f"Blocker {slot} needs both its ATK and its DEF (or leave its row empty).")
        b_atk = _whole(action, keys[0], f"Blocker {slot}'s ATK", 0, stat)
        b_def = _whole(action, keys[1], f"Blocker {slot}'s DEF", 1, stat)
        if disguise and not spot:
            raise IllegalAction(f"Blocker {slot} can't block: a Disguise attacker 'can only be blocked by other "
                                "characters with Disguise', or by Spot. Tick Spot or Disguise if it has one.")
        blockers.append(combat.fighter(b_atk, b_def) | {"slot": slot})
    attacker = combat.fighter(atk, defence, bonus)
    result = combat.resolve(attacker, blockers)
    for fought, entered in zip(result["blockers"], blockers, strict=True):
        fought["slot"] = entered["slot"]
    after = copy.deepcopy(state)
    defender, owner = _player(after, target), _player(after, attacker_seat)
    health_before = defender["health"]
    defender["health"] = max(0, health_before - result["player_damage"])
    dead_blockers = sum(blocker["dies"] for blocker in result["blockers"])
    defender["graveyard"] += dead_blockers
    owner["graveyard"] += int(result["attacker"]["dies"])
    after["last_combat"] = {"attacker_seat": attacker_seat, "target": target, "bonus": bonus, "disguise": disguise,
                            "attacker": result["attacker"], "blockers": result["blockers"],
                            "unblocked": result["unblocked"], "player_damage": result["player_damage"],
                            "health_before": health_before, "health_after": defender["health"],
                            "turn": after["turn"]["number"]}
    boost = f" (+{bonus}/+{bonus} included)" if bonus else ""
    text = f"attacked Player {target}{boost}: {combat.describe(result)}."
    if result["unblocked"]:
        text += f" Player {target}'s Health {_change(health_before, defender['health'])}."
    graves = []
    if dead_blockers:
        graves.append(f"Player {target}'s Graveyard +{dead_blockers}")
    if result["attacker"]["dies"]:
        graves.append(f"Player {attacker_seat}'s Graveyard +1")
    if graves:
        text += " " + "; ".join(graves) + "."
    events = [Event(text)]
    _after_health(after, target, events)
    return after, events


# ---- the end, what the UI offers, what a screen shows ----------------------------------------------------------------

def outcome(state: dict[str, Any]) -> Outcome | None:
    """'Survive: All players except one drop to 0 Health'; 'Deck Out: If a player's deck is empty, the player with
    the most Health wins' (players still in; a tie shares the win)."""
    alive = [seat for seat in state["seats"] if not _out(state, seat)]
    if not alive:
        return Outcome((), "Everyone dropped to 0 Health: nobody survives the night.")
    if len(alive) == 1:
        return Outcome((alive[0],), f"Player {alive[0]} is the last one standing and wins!")
    empty = [seat for seat in alive if _player(state, seat)["deck"] == 0]
    if not empty:
        return None
    best = max(_player(state, seat)["health"] for seat in alive)
    winners = tuple(seat for seat in alive if _player(state, seat)["health"] == best)
    decks = _names(empty)
    whose = f"{decks}'s deck is" if len(empty) == 1 else f"{decks}'s decks are"
    if len(winners) == 1:
        return Outcome(winners, f"Deck out: {whose} empty. Player {winners[0]} has the most Health ({best}) and wins!")
    return Outcome(winners, f"Deck out: {whose} empty. {_names(winners)} tie with the most Health ({best}) and "
                            "share the win!", shared=True)


def _names(seats: list[int] | tuple[int, ...]) -> str:
    names = [f"Player {seat}" for seat in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The moves this seat (or the host, for every seat) may make now; the panel never offers what would be refused."""
    if outcome(state) is not None or (seat is not None and (seat not in state["seats"] or _out(state, seat))):
        return []
    turn = state["turn"]
    actions: list[dict[str, Any]] = []
    if turn["phase"] == OPENING and (seat is None or (seat == _starter(state) and not _deciding(state))):
        actions.append({"type": "start"})
    if turn["phase"] != OPENING and seat in (None, turn["seat"]):
        actions.append({"type": "next-phase"})
    if turn["phase"] == "action" and seat in (None, turn["seat"]):
        for target in state["seats"]:
            if target != turn["seat"] and not _out(state, target):
                actions.append({"type": "attack", "target": target})
    owners = [seat] if seat is not None else [other for other in state["seats"] if not _out(state, other)]
    limits = state["limits"]
    for owner in owners:
        player = _player(state, owner)
        mine = {"whose": owner} if seat is None else {}
        if turn["phase"] == OPENING and player["redrawn"] is None:
            actions.append({"type": "redraw", **mine})
        actions.append({"type": "set-health", **mine})
        if player["health"] > 0:
            actions.append({"type": "lose-health", **mine})
        if player["health"] < limits["health_max"]:
            actions.append({"type": "gain-health", **mine})
        if player["power"] > 0:
            actions.append({"type": "spend-power", **mine})
        if player["power"] < limits["power"]:
            actions.append({"type": "gain-power", **mine})
        if player["graveyard"] > 0:
            actions.append({"type": "spend-remnant", **mine})
        actions += [{"type": "discard", **mine}, {"type": "set-graveyard", **mine}, {"type": "set-deck", **mine}]
        if player["deck"] > 0:
            actions.append({"type": "draw", **mine})
    return actions


def _seen_player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    player = _player(state, seat)
    limits = state["limits"]
    return {**player, "seat": seat, "remnant": remnant(player, limits["remnant"]), "out": _out(state, seat),
            "turn": state["turn"]["phase"] != OPENING and state["turn"]["seat"] == seat,
            # Salvage can lift Power above this turn's dial, so the buttons reach whatever is left
            "power_buttons": list(range(1, max(player["power_max"], player["power"]) + 1)),
            "remnant_buttons": list(range(1, min(limits["remnant"], max(3, remnant(player, limits["remnant"]))) + 1))}


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything (Flipside hides nothing here), plus what the panel shows without arithmetic of its own."""
    seat = viewer.seat if isinstance(viewer, Viewer) else viewer  # until this game declares its moves (issue 13)
    seen = copy.deepcopy(state)
    turn = state["turn"]
    seen["players_list"] = [_seen_player(state, other) for other in state["seats"]]
    seen["me"] = _seen_player(state, seat) if seat is not None and seat in state["seats"] else None
    seen["opening"] = turn["phase"] == OPENING
    seen["phases"] = [{"key": key, "name": PHASE_NAMES[key], "current": key == turn["phase"],
                       "done": turn["phase"] != OPENING and PHASES.index(key) < PHASES.index(turn["phase"])}
                      for key in PHASES]
    seen["phase_name"] = PHASE_NAMES.get(turn["phase"], "Opening hands")
    seen["phase_hint"] = PHASE_HINTS.get(turn["phase"], "Draw 3 cards. You may discard and redraw each card once.")
    offered = legal_actions(state, seat)
    types = {action["type"] for action in offered}
    seen["may_start"] = "start" in types
    seen["may_step"] = "next-phase" in types
    seen["may_attack"] = "attack" in types
    seen["attack_targets"] = [action["target"] for action in offered if action["type"] == "attack"]
    if turn["phase"] == "cleanup":
        seen["next_label"] = f"End turn: Player {_next_seat(state, turn['seat'])} draws"
    elif turn["phase"] in PHASES:
        seen["next_label"] = f"Next: {PHASE_NAMES[PHASES[PHASES.index(turn['phase']) + 1]]}"
    else:
        seen["next_label"] = ""
    seen["waiting_redraw"] = _deciding(state)
    seen["starter"] = _starter(state) if turn["phase"] == OPENING else None
    seen["alive"] = [other for other in state["seats"] if not _out(state, other)]
    seen["reminders"] = combat_reminders()
    seen["max_blockers"] = MAX_BLOCKERS
    return seen
