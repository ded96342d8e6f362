"""Five Nights at Freddy's: Flipside: each player's Health, Power, Remnant and deck, the five phases, and the fight.

Pure: no Flask, no SQLAlchemy. The cards stay on the table; Night Shift keeps the numbers honest and fast.
Everything is public, and every move can be undone by the host.

A fight takes two phones, as COMBAT says: "Attacker declares target player. Defender assigns blockers." The
attacker's `attack` declares the target and the attacker's numbers; the defender's `block` assigns blockers (or
none) and the fight resolves. The host can make either move for anyone (pass-and-play).

Readings of loose sentences, each a setup option labelled assumed (docs/games/flipside.md lists them):
- `deck_out`: "Deck Out: If a player's deck is empty, the player with the most Health wins." Default `empty`: the game
  ends the moment a deck is empty (its last card drawn). `draw`: it ends when a player with an empty deck has to
  "Draw 1 card from your deck" at the start of their turn.
- `blocked_damage`: "Multiple characters can block a single attack." "All involved characters lose DEF equal to the
  other's ATK." Default `full`: each blocker loses the attacker's full ATK. `split`: the attacker's player splits
  its ATK among the blockers (a third move, `split`, once two or more blockers are assigned).
- `white_copies`: White: "No deck limit, can be added to any deck." Default `free`: White cards have no copy limit in
  the deck-list checker (deck_list.py); `four`: "Max 4 card duplicates" holds for White cards too.
- `redrawn_cards`: "You may discard and redraw each card once." Default: the swapped cards go to the Graveyard ("All
  discarded cards go to the Graveyard"); a house rule shuffles them back.
- "Starts at 1, increases by +1 per turn (max 10)": the first turn plays with 1, each later turn's Ready adds 1.
- "Disguise - Can only be blocked by other characters with Disguise." "Spot - Can block characters with Disguise.":
  a blocker of a Disguise attacker must be ticked for Spot or Disguise.
- "Multiple characters can block a single attack" names no number: `block` takes as many blocker rows as the defender
  fills in (at most the deck ceiling below, since each blocker is a card of their deck).
- "Backup X - Gains +X/+X if attacking alongside other characters named X": the attack records its Backup X apart
  from any other +X/+X (Leader's), and counts it only when the attacker says it attacks alongside them.
- No maximum Health, ATK, DEF or deck is printed: the ceilings only catch mistyped numbers (setup options and
  profile.toml, all assumed).
"""

from __future__ import annotations

from typing import Any

from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Count, Field, Flag, Move, Moves, Numbers, Rows, SeatField, Whose, is_whole
from ..words import listing, plural
from . import PROFILE, READING_TEXT, READINGS, SPEC, combat
from .keywords import combat_reminders

OPENING = "opening"
PHASES = ("draw", "ready", "play", "action", "cleanup")
PHASE_NAMES = {"draw": "Draw", "ready": "Ready", "play": "Play", "action": "Action", "cleanup": "Cleanup"}
PHASE_HINTS = {  # the rulebook's TURN STRUCTURE, word for word
    OPENING: "Draw 3 cards. You may discard and redraw each card once.",
    "draw": "Draw 1 card from your deck.",
    "ready": "Ready all exhausted cards in your control. Restore Power and increase by 1 (max 10).",
    "play": "Play cards from your hand (pay costs). Cards enter play Exhausted, unable to activate until next turn. "
            "Some cards are played Hidden (face down) and are revealed when ready at the start of your next turn.",
    "action": "Each ready character may perform one action: Attack, Ability or Move. After acting once, the "
              "character becomes Exhausted. Exhausted characters can no longer act or defend this turn.",
    "cleanup": "Declare the end of your turn. All damage is removed from surviving characters.",
}
# "Multiple characters can block a single attack", with no number: a blocker is a card of its player's deck, so a fight
# has no more blockers than the largest deck the table takes (profile.toml's deck_max, assumed: it catches mistyping).
MOST_BLOCKERS = PROFILE["deck_max"].value

MOVES = Moves("Flipside", example='{"type": "next-phase"}',
              offer="isn't a Flipside move here; you can change Health, Power, Remnant, the Graveyard or the deck, "
                    "step through the phases, attack, or assign blockers.",
              seat_name=lambda state, seat: _seat(seat))


# ---- setup -----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Everyone at 20 Health with Power 1 and an opening hand of 3 drawn; the first turn waits for the redraws."""
    hand, health, deck = profile["opening_hand"], profile["health"], options["deck_size"]
    power_start, power_max = profile["power"]
    return {
        "seats": list(seats),
        "players": {str(seat): {"health": health, "power": power_start, "power_max": power_start,
                                "deck": deck - hand, "graveyard": 0, "removed": 0, "redrawn": None, "turns": 0}
                    for seat in seats},
        "first_player": options["first_player"],
        "turn": {"seat": options["first_player"], "phase": OPENING, "number": 0},
        "redrawn_to": options["redrawn_cards"],
        # the Health, ATK/DEF and deck ceilings are assumed (no maximum is printed): the host's setup choice wins
        "limits": {"health": health, "health_max": options["health_limit"], "power": power_max,
                   "remnant": profile["remnant_max"], "hand": hand, "deck_size": deck, "deck_max": profile["deck_max"],
                   "stat": options["stat_limit"]},
        "readings": {key: options[key] for key in READINGS},
        "fight": None,  # an attack declared and waiting for its blockers (or for the attacker's split)
        "last_combat": None,
        "decked_out": [],  # players who had to draw from an empty deck (the `draw` reading of Deck Out)
    }


# ---- reading the state (a table stored before a key existed reads its default) -----------------------------------

def _seat(seat: int) -> str:
    """A seat as the spec's seat plan names it, in every sentence."""
    return f"Player {seat}"


def _player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    return state["players"][str(seat)]


def _out(state: dict[str, Any], seat: int) -> bool:
    return _player(state, seat)["health"] <= 0


def _alive(state: dict[str, Any]) -> list[int]:
    return [seat for seat in state["seats"] if not _out(state, seat)]


def _limit(state: dict[str, Any], key: str) -> int:
    return state["limits"].get(key, PROFILE[key].value if key in PROFILE else None)


def reading(state: dict[str, Any], key: str) -> str:
    """The reading of a loose rule this table plays with; tables from before the option play its default."""
    return state.get("readings", {}).get(key, SPEC.option(key).default)


def _fight(state: dict[str, Any]) -> dict[str, Any] | None:
    return state.get("fight")


def _names(seats: list[int] | tuple[int, ...]) -> str:
    return listing(_seat(seat) for seat in seats)


def _label(move: Move, what: str) -> str:
    """'Health' on a player's own phone; "Player 2's Health" when the host (or another seat) names the player."""
    whose = move.get("whose")
    return what if whose is None or whose == move.actor else f"{_seat(whose)}'s {what}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _change(old: int, new: int) -> str:
    delta = f"+{new - old}" if new > old else f"\u2212{old - new}"
    return f"{old} \u2192 {new} ({delta})"


def remnant(player: dict[str, Any], limit: int) -> int:
    """'Equals the number of cards in your Graveyard (max 10)'."""
    return min(player["graveyard"], limit)


# ---- the fields moves share ------------------------------------------------------------------------------------------

@MOVES.before_each
def _still_in(state: dict[str, Any], move: Move, declared) -> None:
    """A player at 0 Health is out and makes no more moves."""
    if move.actor is not None and _out(state, move.actor):
        raise IllegalAction(f"{_seat(move.actor)} is out of the game (0 Health) and can't act any more; if that was "
                            "a mistake, the host can undo the move that put them out.")


def _whose(what: str) -> Field:
    """Whose counter a move changes: a phone's own; the host names the player."""
    return Whose(f"whose {what}", wrong=f"Say whose {what} by seat number, like 2.",
                 unknown=lambda state, move, value: f"There is no {_seat(value)} at this table.",
                 not_yours=f"You can change only your own {what}; " + "{seat}'s is theirs to change.")


def _owner(state: dict[str, Any], move: Move, what: str) -> int:
    """The seat whose counter changes, once the host has named one who is still in."""
    whose = move["whose"]
    if whose is None:
        raise IllegalAction(f"Say whose {what} to change: each player has their own.")
    if _out(state, whose):
        raise IllegalAction(f"{_seat(whose)} is out of the game (0 Health); their counters stay as they are.")
    return whose


def _named_player(state: dict[str, Any], move: Move) -> dict[str, Any] | None:
    whose = move.get("whose")
    if not is_whole(whose) or str(whose) not in state["players"] or _out(state, whose):
        return None
    return _player(state, whose)


def _room(ceiling, personal):
    """A limit from the named player's counter (what they have, or room left); the table's ceiling till then."""
    def bound(state: dict[str, Any], move: Move) -> int:
        player = _named_player(state, move)
        return ceiling(state) if player is None else min(ceiling(state), personal(state, player))
    return bound


def _too_high(ceiling, said: str, beyond):
    """The table's ceiling in its plain words; past what this player has, the sentence `beyond` gives."""
    def sentence(state: dict[str, Any], move: Move, value: int) -> str:
        top = ceiling(state)
        if value > top:
            return f"{said} can't be more than {top}; you gave {value}."
        return beyond(state, move, value)
    return sentence


def _stat(state: dict[str, Any], move: Move | None = None) -> int:
    return _limit(state, "stat")


def _health_max(state: dict[str, Any], move: Move | None = None) -> int:
    return _limit(state, "health_max")


def _deck_max(state: dict[str, Any], move: Move | None = None) -> int:
    return _limit(state, "deck_max")


def _power_max(state: dict[str, Any], move: Move | None = None) -> int:
    return _limit(state, "power")


def _remnant_max(state: dict[str, Any], move: Move | None = None) -> int:
    return _limit(state, "remnant")


# ---- Starting Hand ---------------------------------------------------------------------------------------------------

def _deciding(state: dict[str, Any]) -> list[int]:
    """Players still in who have neither kept nor redrawn their opening hand."""
    return [seat for seat in state["seats"] if _player(state, seat)["redrawn"] is None and not _out(state, seat)]


def _starter(state: dict[str, Any]) -> int:
    """The chosen first player, or the next one clockwise if they dropped out before the first turn."""
    first = state["first_player"]
    return first if not _out(state, first) else _next_seat(state, first)


def _redraw_deck_short(state: dict[str, Any], move: Move, value: int) -> str:
    return f"The deck has only {_named_player(state, move)['deck']} cards to redraw from."


@MOVES.move("redraw", "Redrawing your opening hand", _whose("opening hand"),
            Count("count", "the number of cards to redraw", low=0,
                  high=_room(lambda state: _limit(state, "hand"), lambda state, player: player["deck"]),
                  ask="Say how many opening cards to redraw (0 keeps them all).",
                  too_high=_too_high(lambda state: _limit(state, "hand"), "The number of cards to redraw",
                                     _redraw_deck_short)),
            label="Redraw")
def redraw(state: dict[str, Any], move: Move, rng: Any):
    """'Draw 3 cards. You may discard and redraw each card once.': once per player, before the first turn."""
    whose = _owner(state, move, "opening hand")
    if state["turn"]["phase"] != OPENING:
        raise IllegalAction("Opening hands can be redrawn only before the first turn starts.")
    label = "your opening hand" if whose == move.actor else f"{_seat(whose)}'s opening hand"
    if _player(state, whose)["redrawn"] is not None:
        raise IllegalAction(f"You already settled {label}; each card may be redrawn only once.")
    count = move["count"]
    after = copied(state)
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


@MOVES.move("start", "Starting the first turn", label="Start the first turn")
def start(state: dict[str, Any], move: Move, rng: Any):
    """'Choose a player to start.': the chosen player begins turn 1 once everyone has kept or redrawn.

    'You may discard and redraw each card once' is each player's own choice; the host may start anyway, and an
    opening hand nobody decided on is kept.
    """
    if state["turn"]["phase"] != OPENING:
        raise IllegalAction("The game has already started.")
    first = _starter(state)
    if move.actor is not None and move.actor != first:
        raise IllegalAction(f"{_seat(first)} starts; they (or the host) begin the first turn.")
    deciding = _deciding(state)
    if move.actor is not None and deciding:
        raise IllegalAction(f"{_names(deciding)} still {'has' if len(deciding) == 1 else 'have'} to keep or redraw "
                            "their opening hand; the host can start without them.")
    after = copied(state)
    events = [Event(f"started the game: {_seat(first)} goes first.")]
    _begin_turn(after, first, events)
    return after, events


# ---- TURN STRUCTURE ------------------------------------------------------------------------------------------------

def _next_seat(state: dict[str, Any], seat: int) -> int:
    """'Players take turns clockwise.': the next seat still in the game."""
    seats = state["seats"]
    start_at = seats.index(seat)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start_at + step) % len(seats)]
        if not _out(state, candidate):
            return candidate
    return seat


def _begin_turn(after: dict[str, Any], seat: int, events: list[Event]) -> None:
    """A player's turn opens in the Draw phase: 'Draw 1 card from your deck.' With the `draw` reading of Deck Out,
    a player whose deck is empty can't, and the game ends."""
    player = _player(after, seat)
    player["turns"] += 1
    after["turn"] = {"seat": seat, "phase": "draw", "number": after["turn"]["number"] + 1}
    after["fight"] = None
    if player["deck"] == 0:
        after["decked_out"] = [*after.get("decked_out", []), seat]
        events.append(Event(f"Turn {after['turn']['number']}: {_seat(seat)} has to draw from an empty deck."))
        return
    player["deck"] -= 1
    events.append(Event(f"Turn {after['turn']['number']}: {_seat(seat)} draws 1 card (deck {player['deck']})."))


def _ready(player: dict[str, Any], top: int, events: list[Event]) -> None:
    """'Ready all exhausted cards in your control. Restore Power and increase by 1 (max 10).' The first turn plays
    with the starting 1 ('Starts at 1, increases by +1 per turn')."""
    before = player["power_max"]
    if player["turns"] > 1:
        player["power_max"] = min(top, before + 1)
    player["power"] = player["power_max"]
    grown = f" (up from {before})" if player["power_max"] > before else ""
    events.append(Event(f"Ready: all exhausted cards ready; Power restored to {player['power']}{grown}."))


def _fight_first(state: dict[str, Any]) -> str | None:
    """Why the turn can't move on while a fight waits, or None."""
    fight = _fight(state)
    if fight is None:
        return None
    if fight.get("blockers") is None:
        return f"{_seat(fight['target'])} is still assigning blockers to the attack; the fight comes first."
    return f"{_seat(fight['attacker_seat'])} still has to split the attacker's ATK among the blockers."


@MOVES.move("next-phase", "Stepping on", label="Next phase")
def next_phase(state: dict[str, Any], move: Move, rng: Any):
    """Draw, Ready, Play, Action, Cleanup, then the next player's Draw; Ready restores and grows Power."""
    turn = state["turn"]
    if turn["phase"] == OPENING:
        raise IllegalAction(f"The first turn hasn't started yet: {_seat(_starter(state))} (or the host) "
                            "starts it once everyone has kept or redrawn their opening hand.")
    if move.actor is not None and move.actor != turn["seat"]:
        raise IllegalAction(f"It is {_seat(turn['seat'])}'s turn; only they (or the host) step through its phases.")
    waiting = _fight_first(state)
    if waiting:
        raise IllegalAction(waiting)
    after = copied(state)
    seat = turn["seat"]
    events: list[Event] = []
    if turn["phase"] == "cleanup":
        events.append(Event(f"ended {_seat(seat)}'s turn."))
        _begin_turn(after, _next_seat(state, seat), events)
        return after, events
    phase = PHASES[PHASES.index(turn["phase"]) + 1]
    after["turn"]["phase"] = phase
    if phase == "ready":
        _ready(_player(after, seat), _power_max(state), events)
    elif phase == "cleanup":
        events.append(Event("Cleanup: all damage is removed from surviving characters."))
    else:
        events.append(Event(f"{PHASE_NAMES[phase]} phase."))
    return after, events


# ---- Health ----------------------------------------------------------------------------------------------------------

def _losing_too_much(state: dict[str, Any], move: Move, value: int) -> str:
    old = _named_player(state, move)["health"]
    return f"{_label(move, 'Health')} is {old}; losing {value} would take it below 0. Lose {old} to drop to 0."


def _gaining_too_much(state: dict[str, Any], move: Move, value: int) -> str:
    old = _named_player(state, move)["health"]
    return (f"{_label(move, 'Health')} is {old}; gaining {value} would pass {_health_max(state)}, far above the "
            f"{_limit(state, 'health')} you start with. Check the number.")


@MOVES.move("lose-health", "Losing Health", _whose("Health"),
            Count("amount", "Health lost", low=1, high=_room(_health_max, lambda state, player: player["health"]),
                  ask="Say how many.", too_high=_too_high(_health_max, "Health lost", _losing_too_much)),
            label="Lose Health")
def lose_health(state: dict[str, Any], move: Move, rng: Any):
    """Health goes down, never below 0; a player at 0 is out."""
    whose = _owner(state, move, "Health")
    return _set_health(state, move, whose, _player(state, whose)["health"] - move["amount"])


@MOVES.move("gain-health", "Gaining Health", _whose("Health"),
            Count("amount", "Health gained", low=1,
                  high=_room(_health_max, lambda state, player: _health_max(state) - player["health"]),
                  ask="Say how many.", too_high=_too_high(_health_max, "Health gained", _gaining_too_much)),
            label="Gain Health")
def gain_health(state: dict[str, Any], move: Move, rng: Any):
    """Health goes up, never past the ceiling set at table setup."""
    whose = _owner(state, move, "Health")
    return _set_health(state, move, whose, _player(state, whose)["health"] + move["amount"])


@MOVES.move("set-health", "Setting Health", _whose("Health"),
            Count("value", "Health", low=0, high=_health_max, ask="Say what number to set it to."),
            label="Set Health", correction=True)
def set_health(state: dict[str, Any], move: Move, rng: Any):
    """Health set to what the table agrees it is."""
    whose = _owner(state, move, "Health")
    if move["value"] == _player(state, whose)["health"]:
        raise IllegalAction(f"{_label(move, 'Health')} is already {move['value']}.")
    return _set_health(state, move, whose, move["value"])


def _set_health(state: dict[str, Any], move: Move, whose: int, new: int):
    """'Health: 20 per player', never below 0; a player at 0 is out."""
    old = _player(state, whose)["health"]
    after = copied(state)
    _player(after, whose)["health"] = new
    events = [Event(f"{_label(move, 'Health')} {_change(old, new)}.")]
    _after_health(after, whose, events)
    return after, events


def _after_health(after: dict[str, Any], seat: int, events: list[Event]) -> None:
    """'Survive: All players except one drop to 0 Health': a player at 0 is out; a fight they were in is called off,
    and if it was their turn while two or more remain, the next player's turn begins."""
    if not _out(after, seat):
        return
    events.append(Event(f"{_seat(seat)} drops to 0 Health and is out."))
    fight = _fight(after)
    if fight is not None and seat in (fight["target"], fight["attacker_seat"]):
        after["fight"] = None
        events.append(Event(f"{_seat(fight['attacker_seat'])}'s attack on {_seat(fight['target'])} is called off."))
    turn = after["turn"]
    if len(_alive(after)) >= 2 and turn["phase"] != OPENING and turn["seat"] == seat:
        _begin_turn(after, _next_seat(after, seat), events)


# ---- Power -----------------------------------------------------------------------------------------------------------

def _spending_too_much(state: dict[str, Any], move: Move, value: int) -> str:
    left = _named_player(state, move)["power"]
    return f"{_label(move, 'Power')} has {left} left; you can't spend {value}."


def _gaining_past_max(state: dict[str, Any], move: Move, value: int) -> str:
    now = _named_player(state, move)["power"]
    return f"{_label(move, 'Power')} is {now}; it can't go past {_power_max(state)}."


@MOVES.move("spend-power", "Spending Power", _whose("Power"),
            Count("amount", "Power spent", low=1, high=_room(_power_max, lambda state, player: player["power"]),
                  ask="Say how many.", too_high=_too_high(_power_max, "Power spent", _spending_too_much)),
            label="Spend Power")
def spend_power(state: dict[str, Any], move: Move, rng: Any):
    """Power is 'spent when playing cards'."""
    return _set_power(state, move, -move["amount"])


@MOVES.move("gain-power", "Gaining Power", _whose("Power"),
            Count("amount", "Power gained", low=1,
                  high=_room(_power_max, lambda state, player: _power_max(state) - player["power"]),
                  ask="Say how many.", too_high=_too_high(_power_max, "Power gained", _gaining_past_max)),
            label="Gain Power")
def gain_power(state: dict[str, Any], move: Move, rng: Any):
    """Salvage ('gain 1 Power') adds some back, never past 10."""
    return _set_power(state, move, move["amount"])


def _set_power(state: dict[str, Any], move: Move, change: int):
    whose = _owner(state, move, "Power")
    old = _player(state, whose)["power"]
    after = copied(state)
    _player(after, whose)["power"] = old + change
    verb = "spent" if change < 0 else "gained"
    return after, [Event(f"{verb} {abs(change)} Power: {_label(move, 'Power')} {_change(old, old + change)}.")]


# ---- Remnant, Graveyard, deck -----------------------------------------------------------------------------------

def _remnant_short(state: dict[str, Any], move: Move, value: int) -> str:
    player = _named_player(state, move)
    return (f"{_label(move, 'Remnant')} is {remnant(player, _remnant_max(state))}: only "
            f"{plural(player['graveyard'], 'card')} in the Graveyard, not {value}.")


def _remnant_over(state: dict[str, Any], move: Move, value: int) -> str:
    if value > _remnant_max(state):
        return f"Remnant is at most {_remnant_max(state)}; you can't spend {value}."
    return _remnant_short(state, move, value)


@MOVES.move("spend-remnant", "Spending Remnant", _whose("Remnant"),
            Count("amount", "Remnant spent", low=1,
                  high=_room(_remnant_max, lambda state, player: player["graveyard"]),
                  ask="Say how many.", too_high=_remnant_over),
            label="Spend Remnant")
def spend_remnant(state: dict[str, Any], move: Move, rng: Any):
    """'Remove used Remnant cards from the game': spent Remnant leaves the Graveyard for good."""
    whose = _owner(state, move, "Remnant")
    amount, limit = move["amount"], _remnant_max(state)
    before = _player(state, whose)["graveyard"]
    after = copied(state)
    mine = _player(after, whose)
    mine["graveyard"] -= amount
    mine["removed"] += amount
    return after, [Event(f"spent {amount} Remnant: {plural(amount, 'card')} removed from the game "
                         f"(Graveyard {before} \u2192 {mine['graveyard']}, {_label(move, 'Remnant')} now "
                         f"{remnant(mine, limit)}).")]


def _graveyard_full(state: dict[str, Any], move: Move, value: int) -> str:
    held = _named_player(state, move)["graveyard"]
    return f"{_label(move, 'Graveyard')} holds {held}; it can't hold more than {_deck_max(state)} cards."


@MOVES.move("discard", "Discarding to the Graveyard", _whose("Graveyard"),
            Count("amount", "cards discarded", low=1,
                  high=_room(_deck_max, lambda state, player: _deck_max(state) - player["graveyard"]),
                  ask="Say how many.", too_high=_too_high(_deck_max, "Cards discarded", _graveyard_full)),
            label="Discard")
def discard(state: dict[str, Any], move: Move, rng: Any):
    """'All discarded cards go to the Graveyard (discard pile)'."""
    whose = _owner(state, move, "Graveyard")
    return _set_graveyard(state, move, whose, _player(state, whose)["graveyard"] + move["amount"])


@MOVES.move("set-graveyard", "Setting the Graveyard", _whose("Graveyard"),
            Count("value", "the Graveyard", low=0, high=_deck_max, ask="Say what number to set it to."),
            label="Set Graveyard", correction=True)
def set_graveyard(state: dict[str, Any], move: Move, rng: Any):
    """The Graveyard's count set to what the table shows."""
    whose = _owner(state, move, "Graveyard")
    if move["value"] == _player(state, whose)["graveyard"]:
        raise IllegalAction(f"{_label(move, 'Graveyard')} already holds {move['value']}.")
    return _set_graveyard(state, move, whose, move["value"])


def _set_graveyard(state: dict[str, Any], move: Move, whose: int, new: int):
    old = _player(state, whose)["graveyard"]
    after = copied(state)
    _player(after, whose)["graveyard"] = new
    text = (f"{_label(move, 'Graveyard')} {_change(old, new)}; Remnant "
            f"{remnant(_player(after, whose), _remnant_max(state))}.")
    return after, [Event(("discarded to the Graveyard: " if move.type == "discard" else "set ") + text)]


def _deck_short(state: dict[str, Any], move: Move, value: int) -> str:
    left = _named_player(state, move)["deck"]
    label = _capital(_label(move, "deck"))
    return f"{label} is empty." if left == 0 else f"{label} has only {left} cards; you can't draw {value}."


@MOVES.move("draw", "Drawing cards", _whose("deck"),
            Count("amount", "cards drawn", low=1, high=_room(_deck_max, lambda state, player: player["deck"]),
                  ask="Say how many.", too_high=_too_high(_deck_max, "Cards drawn", _deck_short)),
            label="Draw")
def draw(state: dict[str, Any], move: Move, rng: Any):
    """Card effects draw more than the Draw phase's one card."""
    whose = _owner(state, move, "deck")
    old = _player(state, whose)["deck"]
    after = copied(state)
    _player(after, whose)["deck"] = old - move["amount"]
    return after, [Event(f"drew {plural(move['amount'], 'card')}: {_label(move, 'deck')} "
                         f"{_change(old, old - move['amount'])}.")]


@MOVES.move("set-deck", "Setting the deck", _whose("deck"),
            Count("value", "the deck", low=0, high=_deck_max, ask="Say what number to set it to."),
            label="Set deck", correction=True)
def set_deck(state: dict[str, Any], move: Move, rng: Any):
    """A deck count corrected to what the table shows."""
    whose = _owner(state, move, "deck")
    old = _player(state, whose)["deck"]
    if move["value"] == old:
        raise IllegalAction(f"{_capital(_label(move, 'deck'))} already has {old} cards.")
    after = copied(state)
    _player(after, whose)["deck"] = move["value"]
    return after, [Event(f"set {_label(move, 'deck')} to {move['value']} cards (was {old}).")]


# ---- COMBAT: Attacking, Defending, Fight, Damage ------------------------------------------------------------------

def _backup_refused(state: dict[str, Any], move: Move) -> str | None:
    """'Backup X - Gains +X/+X if attacking alongside other characters named X': no Backup bonus attacking alone."""
    if move["backup"] and not move["alongside"]:
        return ("Backup X 'Gains +X/+X if attacking alongside other characters named X': tick that it attacks "
                "alongside them, or leave Backup at 0.")
    return None


@MOVES.move("attack", "An attack",
            SeatField("target", "the player you attack", ask="Say which player you attack, by seat number.",
                      wrong="Choose the player you attack by seat number.",
                      unknown=lambda state, move, value: f"There is no {_seat(value)} at this table; choose the "
                                                         "player you attack by seat number."),
            Count("atk", "the attacker's ATK", low=0, high=_stat, ask="Give the attacker's ATK."),
            Count("def", "the attacker's DEF", low=1, high=_stat, ask="Give the attacker's DEF.",
                  help="what it has left this turn"),
            Count("bonus", "the attacker's +X/+X (Leader, or another card)", low=0, high=_stat, optional=True,
                  default=0),
            Count("backup", "the attacker's Backup X (+X/+X)", low=0, high=_stat, optional=True, default=0,
                  help="counts only attacking alongside other characters named X"),
            Flag("alongside", "attacking alongside other characters named X", picked=True),
            Flag("disguise", "Disguise", picked=True), label="Declare the attack")
def attack(state: dict[str, Any], move: Move, rng: Any):
    """'Attacker declares target player': the attacker's numbers go to the defender, who assigns blockers."""
    turn = state["turn"]
    attacker_seat, target = turn["seat"], move["target"]
    if turn["phase"] != "action":
        when = "before the first turn" if turn["phase"] == OPENING else f"in the {PHASE_NAMES[turn['phase']]} phase"
        raise IllegalAction(f"Attacks happen in the Action phase of your turn, not {when}.")
    if move.actor is not None and move.actor != attacker_seat:
        raise IllegalAction(f"It is {_seat(attacker_seat)}'s turn; only they (or the host) declare attacks.")
    waiting = _fight_first(state)
    if waiting:
        raise IllegalAction(waiting)
    if target == attacker_seat:
        raise IllegalAction("Choose an opponent to attack, not yourself.")
    if _out(state, target):
        raise IllegalAction(f"{_seat(target)} is already out of the game.")
    backup = _backup_refused(state, move)
    if backup:
        raise IllegalAction(backup)
    bonus = move["bonus"] + move["backup"]
    attacker = combat.fighter(move["atk"], move["def"], bonus)
    after = copied(state)
    after["fight"] = {"attacker_seat": attacker_seat, "target": target, "bonus": bonus, "backup": move["backup"],
                      "alongside": move["alongside"], "disguise": move["disguise"], "attacker": attacker,
                      "blockers": None, "turn": turn["number"]}
    extras = [f"+{bonus}/+{bonus} included"] if bonus else []
    extras += [f"Backup +{move['backup']}/+{move['backup']}, attacking alongside other characters named X"] \
        if move["backup"] else ["attacking alongside other characters"] if move["alongside"] else []
    extras += ["Disguise"] if move["disguise"] else []
    shown = f" ({', '.join(extras)})" if extras else ""
    return after, [Event(f"declared an attack on {_seat(target)} with a {attacker['atk']}/{attacker['def']} "
                         f"character{shown}: {_seat(target)} assigns blockers.")]


BLOCKERS = Rows("blockers", "the blockers",
                Count("atk", "ATK", low=0, high=_stat, optional=True),
                Count("def", "DEF", low=1, high=_stat, optional=True, help="what it has left this turn"),
                Flag("spot", "has Spot or Disguise", picked=True,
                     wrong="A blocker's Spot or Disguise is a yes-or-no box: send true or false."),
                item="blocker", length=MOST_BLOCKERS, optional=True, picked=True,
                help="one row per blocker: its ATK, its DEF and whether it has Spot or Disguise")


def _blockers(fight: dict[str, Any], rows: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """'Multiple characters can block a single attack', as many as the defender assigns: each row filled in is a
    blocker, numbered by its row; a Disguise attacker can be blocked only by Spot or Disguise."""
    blockers = []
    for slot, row in enumerate(rows or [], start=1):
        atk, defence, spot = row["atk"], row["def"], row["spot"]
        if atk is None and defence is None:
            if spot:
                raise IllegalAction(f"Blocker {slot} is ticked for Spot or Disguise but has no ATK and DEF; fill in "
                                    "its numbers or untick it.")
            continue
        if atk is None or defence is None:
            raise IllegalAction(f"Blocker {slot} needs both its ATK and its DEF (or leave its row empty).")
        if fight["disguise"] and not spot:
            raise IllegalAction(f"Blocker {slot} can't block: a Disguise attacker 'can only be blocked by other "
                                "characters with Disguise', or by Spot. Tick Spot or Disguise if it has one.")
        blockers.append(combat.fighter(atk, defence) | {"slot": slot, "spot": spot})
    return blockers


@MOVES.move("block", "Assigning blockers", BLOCKERS, label="Block")
def block(state: dict[str, Any], move: Move, rng: Any):
    """'Defender assigns blockers': the defender's ready characters (or none), then the fight resolves at once."""
    fight = _fight(state)
    if fight is None or fight.get("blockers") is not None:
        raise IllegalAction("There is no attack waiting for blockers; the attacker declares one first.")
    if move.actor is not None and move.actor != fight["target"]:
        raise IllegalAction(f"{_seat(fight['target'])} assigns the blockers for this attack (or the host does for "
                            "them).")
    blockers = _blockers(fight, move["blockers"])
    who = f"{_seat(fight['attacker_seat'])}'s attack"
    if len(blockers) > 1 and fight["attacker"]["atk"] > 0 and reading(state, "blocked_damage") == "split":
        after = copied(state)
        after["fight"]["blockers"] = blockers
        return after, [Event(f"assigned {plural(len(blockers), 'blocker')} to {who}: Player "
                             f"{fight['attacker_seat']} splits the attacker's {fight['attacker']['atk']} ATK "
                             "among them.")]
    damage = None
    if reading(state, "blocked_damage") == "split":  # one blocker takes the whole ATK; 0 ATK has nothing to split
        damage = [fight["attacker"]["atk"]] * len(blockers)
    doing = f"assigned {plural(len(blockers), 'blocker')} to {who}" if blockers else f"assigned no blockers to {who}"
    return _fight_resolves(state, fight, blockers, damage, doing)


def _split_atk(state: dict[str, Any], move: Move | None = None) -> int:
    fight = _fight(state)
    return fight["attacker"]["atk"] if fight is not None else 0


@MOVES.move("split", "Splitting the attacker's ATK",
            Numbers("damage", "the damage to each blocker, in order", length=MOST_BLOCKERS, low=0, high=_split_atk,
                    picked=True, ask="Give the damage each blocker takes, in order, like [3, 2].",
                    too_high="A blocker can't take more than the attacker's {high} ATK; you gave {value}."),
            label="Split the ATK")
def split(state: dict[str, Any], move: Move, rng: Any):
    """The `split` reading: the attacker's player shares its ATK among the blockers, then the fight resolves."""
    fight = _fight(state)
    if fight is None or fight.get("blockers") is None:
        raise IllegalAction("There is no fight waiting for the attacker's ATK to be split.")
    if move.actor is not None and move.actor != fight["attacker_seat"]:
        raise IllegalAction(f"{_seat(fight['attacker_seat'])} splits the attacker's ATK (or the host does for "
                            "them).")
    damage, blockers = move["damage"], fight["blockers"]
    if len(damage) != len(blockers):
        slots = listing(str(blocker["slot"]) for blocker in blockers)
        raise IllegalAction(f"Give one share for each of the {len(blockers)} blockers ({slots}), in order; you gave "
                            f"{len(damage)}.")
    atk = fight["attacker"]["atk"]
    if sum(damage) != atk:
        raise IllegalAction(f"Split all of the attacker's {atk} ATK: these add up to {sum(damage)}.")
    shares = " + ".join(str(share) for share in damage)
    return _fight_resolves(state, fight, blockers, damage, f"split the attacker's {atk} ATK {shares}")


def _fight_resolves(state: dict[str, Any], fight: dict[str, Any], blockers: list[dict[str, Any]],
                    damage: list[int] | None, doing: str):
    """'Apply damage simultaneously': the dead go to their owners' Graveyards, unblocked damage comes off Health."""
    attacker_seat, target = fight["attacker_seat"], fight["target"]
    result = combat.resolve(fight["attacker"], [{"atk": b["atk"], "def": b["def"]} for b in blockers], damage)
    for fought, entered in zip(result["blockers"], blockers, strict=True):
        fought["slot"] = entered["slot"]
    after = copied(state)
    after["fight"] = None
    defender, owner = _player(after, target), _player(after, attacker_seat)
    health_before = defender["health"]
    defender["health"] = max(0, health_before - result["player_damage"])
    dead_blockers = sum(blocker["dies"] for blocker in result["blockers"])
    defender["graveyard"] += dead_blockers
    owner["graveyard"] += int(result["attacker"]["dies"])
    after["last_combat"] = {"attacker_seat": attacker_seat, "target": target, "bonus": fight["bonus"],
                            "backup": fight.get("backup", 0), "alongside": fight.get("alongside", False),
                            "disguise": fight["disguise"], "attacker": result["attacker"],
                            "blockers": result["blockers"],
                            "unblocked": result["unblocked"], "player_damage": result["player_damage"],
                            "health_before": health_before, "health_after": defender["health"],
                            "turn": after["turn"]["number"]}
    text = f"{doing}: {combat.describe(result)}."
    if result["unblocked"]:
        text += f" {_seat(target)}'s Health {_change(health_before, defender['health'])}."
    graves = []
    if dead_blockers:
        graves.append(f"{_seat(target)}'s Graveyard +{dead_blockers}")
    if result["attacker"]["dies"]:
        graves.append(f"{_seat(attacker_seat)}'s Graveyard +1")
    if graves:
        text += " " + "; ".join(graves) + "."
    events = [Event(text)]
    _after_health(after, target, events)
    return after, events


apply = MOVES.apply


# ---- Victory ---------------------------------------------------------------------------------------------------------

def _decked(state: dict[str, Any], alive: list[int]) -> list[int]:
    """The players whose deck ran out, by the table's reading of 'Deck Out: If a player's deck is empty'."""
    if reading(state, "deck_out") == "draw":
        return [seat for seat in state.get("decked_out", []) if seat in alive]
    return [seat for seat in alive if _player(state, seat)["deck"] == 0]


def outcome(state: dict[str, Any]) -> Outcome | None:
    """'Survive: All players except one drop to 0 Health'; 'Deck Out: If a player's deck is empty, the player with
    the most Health wins' (players still in; a tie shares the win)."""
    alive = _alive(state)
    if not alive:
        return Outcome((), "Everyone dropped to 0 Health: nobody survives the night.")
    if len(alive) == 1:
        return Outcome((alive[0],), f"{_seat(alive[0])} is the last one standing and wins!")
    empty = _decked(state, alive)
    if not empty:
        return None
    best = max(_player(state, seat)["health"] for seat in alive)
    winners = tuple(seat for seat in alive if _player(state, seat)["health"] == best)
    decks = _names(empty)
    if reading(state, "deck_out") == "draw":
        why = f"{decks} had to draw from an empty deck."
    else:
        why = f"{decks}'s deck is empty." if len(empty) == 1 else f"{decks}'s decks are empty."
    if len(winners) == 1:
        return Outcome(winners, f"Deck out: {why} {_seat(winners[0])} has the most Health ({best}) and wins!")
    return Outcome(winners, f"Deck out: {why} {_names(winners)} tie with the most Health ({best}) and share the "
                            "win!", shared=True)


def invariants(state: dict[str, Any]) -> list[str]:
    """What the rulebook guarantees at every step: Health from 0 up, Power within its dial ('Starts at 1, increases
    by +1 per turn (max 10)'), no count of cards below 0, and every character in a fight with DEF left."""
    checks = []
    for seat in state["seats"]:
        player, name = _player(state, seat), _seat(seat)
        checks += [(0 <= player["health"] <= _health_max(state), f"{name}'s Health is {player['health']}."),
                   (0 <= player["power"] <= _power_max(state), f"{name}'s Power is {player['power']}, outside 0 to "
                                                                f"{_power_max(state)}."),
                   (1 <= player["power_max"] <= _power_max(state), f"{name}'s Power dial is at {player['power_max']}."),
                   (0 <= player["deck"] <= _deck_max(state) and 0 <= player["graveyard"] <= _deck_max(state),
                    f"{name}'s deck or Graveyard holds fewer than 0 or more than {_deck_max(state)} cards.")]
    fight = _fight(state)
    if fight is not None:
        fighters = [fight["attacker"], *(fight.get("blockers") or [])]
        checks.append((all(fighter["def"] >= 1 for fighter in fighters), "A character fights with no DEF left."))
        checks.append((fight["target"] != fight["attacker_seat"], "A player attacks themselves."))
    return broken(checks)


# ---- what each seat may do now ---------------------------------------------------------------------------------------

def _opening_moves(state: dict[str, Any], seat: int | None, owners: list[int]) -> list[dict[str, Any]]:
    """Starting Hand: each player keeps or redraws once; the first player (or the host) starts turn 1."""
    if state["turn"]["phase"] != OPENING:
        return []
    moves = [{"type": "redraw", "whose": owner, "count": 0} for owner in owners
             if _player(state, owner)["redrawn"] is None]
    if seat is None or (seat == _starter(state) and not _deciding(state)):
        moves.insert(0, {"type": "start"})
    return moves


def _turn_moves(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """TURN STRUCTURE: the player whose turn it is (or the host) steps on, once any fight is over."""
    turn = state["turn"]
    if turn["phase"] == OPENING or seat not in (None, turn["seat"]) or _fight(state) is not None:
        return []
    return [{"type": "next-phase"}]


def _combat_moves(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """COMBAT: the attacker declares, the defender assigns blockers, the attacker splits its ATK if the table says."""
    turn, fight = state["turn"], _fight(state)
    if fight is None:
        if turn["phase"] != "action" or seat not in (None, turn["seat"]):
            return []
        return [{"type": "attack", "target": target, "atk": 1, "def": 1} for target in _alive(state)
                if target != turn["seat"]]
    if fight.get("blockers") is None:
        return [{"type": "block"}] if seat in (None, fight["target"]) else []  # the defender fills in the rows
    if seat not in (None, fight["attacker_seat"]):
        return []
    return [{"type": "split", "damage": combat.lethal_first(fight["attacker"]["atk"], fight["blockers"])}]


def _other_value(now: int, low: int, high: int) -> int:
    """A correction's default: the next number up (down at the ceiling), never the count it already holds."""
    return now + 1 if now < high else max(low, now - 1)


def _counter_moves(state: dict[str, Any], owner: int) -> list[dict[str, Any]]:
    """Each player's own counters: Health, Power, Remnant, the Graveyard and the deck."""
    player, mine = _player(state, owner), {"whose": owner}
    moves = [{"type": "set-health", **mine, "value": _other_value(player["health"], 0, _health_max(state))},
             {"type": "lose-health", **mine, "amount": 1}]
    if player["health"] < _health_max(state):
        moves.append({"type": "gain-health", **mine, "amount": 1})
    if player["power"] > 0:
        moves.append({"type": "spend-power", **mine, "amount": 1})
    if player["power"] < _power_max(state):
        moves.append({"type": "gain-power", **mine, "amount": 1})
    if player["graveyard"] > 0:
        moves.append({"type": "spend-remnant", **mine, "amount": 1})
    if player["graveyard"] < _deck_max(state):
        moves.append({"type": "discard", **mine, "amount": 1})
    moves += [{"type": "set-graveyard", **mine, "value": _other_value(player["graveyard"], 0, _deck_max(state))},
              {"type": "set-deck", **mine, "value": _other_value(player["deck"], 0, _deck_max(state))}]
    if player["deck"] > 0:
        moves.append({"type": "draw", **mine, "amount": 1})
    return moves


def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The complete moves this seat (or the host, for every seat) may make now; nothing once the game is over."""
    if outcome(state) is not None or (seat is not None and (seat not in state["seats"] or _out(state, seat))):
        return []
    owners = [seat] if seat is not None else _alive(state)
    return [*_opening_moves(state, seat, owners), *_turn_moves(state, seat), *_combat_moves(state, seat),
            *(move for owner in owners for move in _counter_moves(state, owner))]


# ---- what a screen shows ---------------------------------------------------------------------------------------------

def _seen_player(state: dict[str, Any], seat: int) -> dict[str, Any]:
    player = _player(state, seat)
    limit = _remnant_max(state)
    shown = remnant(player, limit)
    return {**player, "seat": seat, "remnant": shown, "out": _out(state, seat),
            "turn": state["turn"]["phase"] != OPENING and state["turn"]["seat"] == seat,
            # Salvage can lift Power above this turn's dial, so the buttons reach whatever is left
            "power_buttons": list(range(1, max(player["power_max"], player["power"]) + 1)),
            "remnant_buttons": list(range(1, min(limit, max(3, shown)) + 1))}


def _seen_readings(state: dict[str, Any]) -> dict[str, dict[str, str]]:
    """Each reading in force, in the words the screens use, with its source (assumed) for the badge."""
    return {key: {"value": reading(state, key), "text": READING_TEXT[key, reading(state, key)],
                  "source": SPEC.option(key).source} for key in READINGS}


def _seen_fight(state: dict[str, Any]) -> dict[str, Any] | None:
    """The fight waiting for blockers (stage `block`) or for the attacker's split (stage `split`)."""
    fight = _fight(state)
    if fight is None:
        return None
    stage = "block" if fight.get("blockers") is None else "split"
    waiting = fight["target"] if stage == "block" else fight["attacker_seat"]
    return {**fight, "stage": stage, "waiting": waiting}


def _now(state: dict[str, Any]) -> dict[str, Any]:
    """Whose turn, which phase and what the step button says."""
    turn = state["turn"]
    phase = turn["phase"]
    if phase == "cleanup":
        step = f"End turn: {_seat(_next_seat(state, turn['seat']))} draws"
    elif phase in PHASES:
        step = f"Next: {PHASE_NAMES[PHASES[PHASES.index(phase) + 1]]}"
    else:
        step = ""
    return {"seat": turn["seat"], "phase": phase, "number": turn["number"],
            "phase_name": PHASE_NAMES.get(phase, "Opening hands"), "hint": PHASE_HINTS[phase], "step": step}


def _waiting_for(state: dict[str, Any]) -> tuple[list[int], str]:
    """The seats the table waits for, and the same in words."""
    over = outcome(state)
    if over is not None:
        return [], over.text
    turn, fight = state["turn"], _fight(state)
    if turn["phase"] == OPENING:
        deciding = _deciding(state)
        if deciding:
            return deciding, f"Opening hands: {_names(deciding)} still deciding"
        return [_starter(state)], f"{_seat(_starter(state))} starts the first turn"
    if fight is not None and fight.get("blockers") is None:
        return [fight["target"]], f"{_seat(fight['target'])} assigns blockers"
    if fight is not None:
        return [fight["attacker_seat"]], f"{_seat(fight['attacker_seat'])} splits the attacker's ATK"
    return [turn["seat"]], f"{_seat(turn['seat'])}'s turn: {PHASE_NAMES[turn['phase']]} phase"


def _board_lines(state: dict[str, Any]) -> list[str]:
    limit = _remnant_max(state)
    return [f"{_seat(seat)}: Health {player['health']}, Power {player['power']}/{player['power_max']}, Remnant "
            f"{remnant(player, limit)} (Graveyard {player['graveyard']}), deck {player['deck']}"
            for seat in _alive(state) for player in (_player(state, seat),)]


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything (Flipside hides nothing), shaped for the panel so it does no arithmetic of its own."""
    seats = state["seats"]
    waiting, waiting_text = _waiting_for(state)
    opening = state["turn"]["phase"] == OPENING
    shown = {
        "seats": list(seats),
        "players": {str(seat): _seen_player(state, seat) for seat in seats},
        "me": _seen_player(state, viewer.seat) if viewer.seat in seats else None,
        "first_player": state["first_player"],
        "now": _now(state),
        "phases": [{"key": key, "name": PHASE_NAMES[key], "current": key == state["turn"]["phase"],
                    "done": not opening and PHASES.index(key) < PHASES.index(state["turn"]["phase"])}
                   for key in PHASES],
        "opening": opening,
        "starter": _starter(state) if opening else None,
        "deciding": _deciding(state) if opening else [],
        "redrawn_to": state["redrawn_to"],
        "limits": {key: _limit(state, key) for key in ("health", "health_max", "power", "remnant", "hand",
                                                       "deck_size", "deck_max", "stat")},
        "readings": _seen_readings(state),
        "fight": _seen_fight(state),
        "last_combat": state["last_combat"],
        "alive": _alive(state),
        "reminders": combat_reminders(),
    }
    moves = legal_actions(state, viewer.seat) if viewer.moves else []
    return shown | seen(viewer, moves=moves, turn=waiting, turn_text=waiting_text, board_check=_board_lines(state))


_SEAT = {"type": "integer", "minimum": 1}
_FIGHTER = {"type": "object", "required": ["atk", "def"],
            "properties": {"atk": {"type": "integer", "minimum": 0}, "def": {"type": "integer"}}}
_PLAYER = {"type": "object", "required": ["health", "power", "power_max", "deck", "graveyard", "removed", "redrawn",
                                          "turns", "seat", "remnant", "out", "turn"],
           "properties": {"health": {"type": "integer", "minimum": 0}, "power": {"type": "integer", "minimum": 0},
                          "power_max": {"type": "integer", "minimum": 1}, "deck": {"type": "integer", "minimum": 0},
                          "graveyard": {"type": "integer", "minimum": 0},
                          "removed": {"type": "integer", "minimum": 0},
                          "redrawn": {"type": ["integer", "null"]}, "turns": {"type": "integer", "minimum": 0},
                          "seat": _SEAT, "remnant": {"type": "integer", "minimum": 0}, "out": {"type": "boolean"},
                          "turn": {"type": "boolean"},
                          "power_buttons": {"type": "array", "items": {"type": "integer"}},
                          "remnant_buttons": {"type": "array", "items": {"type": "integer"}}}}
VIEW_SCHEMA = {
    "type": "object",
    "required": ["seats", "players", "me", "first_player", "now", "phases", "opening", "starter", "deciding",
                 "redrawn_to", "limits", "readings", "fight", "last_combat", "alive", "reminders"],
    "properties": {
        "seats": {"type": "array", "items": _SEAT},
        "players": {"type": "object", "additionalProperties": _PLAYER},
        "me": {"oneOf": [{"type": "null"}, _PLAYER]},
        "first_player": _SEAT,
        "now": {"type": "object", "required": ["seat", "phase", "number", "phase_name", "hint", "step"],
                "properties": {"seat": _SEAT, "phase": {"enum": [OPENING, *PHASES]},
                               "number": {"type": "integer", "minimum": 0}, "phase_name": {"type": "string"},
                               "hint": {"type": "string"}, "step": {"type": "string"}}},
        "phases": {"type": "array", "items": {"type": "object", "required": ["key", "name", "current", "done"]}},
        "opening": {"type": "boolean"},
        "starter": {"oneOf": [{"type": "null"}, _SEAT]},
        "deciding": {"type": "array", "items": _SEAT},
        "redrawn_to": {"enum": ["graveyard", "deck"]},
        "limits": {"type": "object", "additionalProperties": {"type": "integer"}},
        "readings": {"type": "object", "required": list(READINGS), "additionalProperties": {
            "type": "object", "required": ["value", "text", "source"],
            "properties": {"value": {"type": "string"}, "text": {"type": "string"},
                           "source": {"enum": ["verified", "assumed"]}}}},
        "fight": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["attacker_seat", "target", "attacker", "disguise", "bonus", "blockers",
                                           "stage", "waiting"],
            "properties": {"attacker_seat": _SEAT, "target": _SEAT, "attacker": _FIGHTER,
                           "disguise": {"type": "boolean"}, "bonus": {"type": "integer", "minimum": 0},
                           "blockers": {"oneOf": [{"type": "null"}, {"type": "array", "items": _FIGHTER}]},
                           "backup": {"type": "integer", "minimum": 0}, "alongside": {"type": "boolean"},
                           "stage": {"enum": ["block", "split"]}, "waiting": _SEAT}}]},
        "last_combat": {"oneOf": [{"type": "null"}, {
            "type": "object", "required": ["attacker_seat", "target", "attacker", "blockers", "unblocked",
                                           "player_damage", "health_before", "health_after", "turn"],
            "properties": {"attacker_seat": _SEAT, "target": _SEAT, "attacker": _FIGHTER,
                           "blockers": {"type": "array", "items": _FIGHTER}, "unblocked": {"type": "boolean"},
                           "player_damage": {"type": "integer", "minimum": 0}}}]},
        "alive": {"type": "array", "items": _SEAT},
        "reminders": {"type": "array", "items": {"type": "object", "required": ["name", "text"]}},
    },
}


def figures(state: dict[str, Any]) -> dict[str, Any]:
    """For the history: each player's Health at the end, who dropped out, and the deck left (the contract's optional
    `figures`; reads only the state)."""
    seats = {}
    for seat in state["seats"]:
        player = state["players"][str(seat)]
        seats[str(seat)] = {"score": player["health"], "status": "out at 0 Health" if player["health"] <= 0 else None,
                            "details": [["Cards left in the deck", player["deck"]],
                                        ["Highest Power", player["power_max"]], ["Turns taken", player["turns"]]],
                            "records": {}}
    return {"score": "health", "side": None, "scenario": None, "seats": seats,
            "facts": [["Turns", state["turn"]["number"]]]}
