"""Director's Cut with the app as the GM: the turn driver, each animatronic's procedure, attacks, revives and the end.

Pure: no Flask, no SQLAlchemy. The board stays on the table, so the app never guesses where pieces stand: it rolls,
applies tonight's modifiers, and asks exactly one question at a time (`state["ask"]`) of whoever can see the answer:
a guard's phone for its own movement and attack rolls, an animatronic's player for their piece, the host otherwise.
With the table's dice on `app` (the default), a roll that needs nobody's eyes (a guard's move, the GM's rolls for
Foxy, Golden Freddy and an animatronic no player runs) is made with the tap before it, so a quiet full turn is one tap
per question only eyes can answer: each guard's "Moved" (with where it ended, on nights Freddy listens) and the
questions about Bonnie and Chica. A question about one guard is asked on that guard's phone. On `tap`, each roll waits
for its tap (the app's roll, or the face a real die showed) and the host's `run-rolls` makes the GM's rolls at once.

Readings of loose sentences, each a setup option labelled assumed (__init__.py; docs/games/directors-cut.md):
- `freddy_enters` (default `now`): "If a Guard enters Freddy's line of sight to activate him, Freddy moves to the
  Guard that activated him and attacks." Read as an attack at once, before any other animatronic acts; only the
  leaving case says "On Freddy's next turn". `his-turn`: Freddy goes for that guard in his own slot of the turn order
  (and hunts the nearest guard if another animatronic got them first).
- `foxy_odd_roll` (default `full-turn`): "an odd roll resets all anamatronics to their starting location and the turn
  ends." Read as the full turn: Freddy and Golden Freddy don't act, the next full turn begins. `foxy`: only Foxy's.
- `golden_freddy_early` (default `rolls`): the First to Third Nights' cards say only "Foxy and Freddy aren't allowed
  to move." / "Foxy is allowed to move, Freddy isn't."; Golden Freddy is in the turn order and "Foxy and Golden Freddy
  rolls are done by the GM.", so he rolls. `rests`: he doesn't move until a card says "All animatronics".
- `foxy_inactive` (default `night`): "an even roll inactivates Foxy" says not for how long: the rest of the night,
  or (`next`) his next turn only.
- `dead_guards` (default `lose`): "If the guards survive 10 full turns they win." is all the text says. A guard who
  died didn't survive the full turns, so only the guards alive at the end win; `revivable`: a dead guard shares the
  win on a night with a Medical Office revive (they could still come back); `share`: every guard Golden Freddy didn't
  eliminate shares it.
The board's own rules ("Guards can move through other Guards, but not finish on the same tile ...", "Animatronics can
not move through other Animatronics ...") stay on the cardboard; the screens show them at the step where a guard or
an animatronic moves. The app keeps where the table last said each animatronic stands (its start, the tile Bonnie
rolled), and the host's `correct` move sets an animatronic's place or Freddy's state, for what only the board shows:
a revived guard or Foxy's reset putting a guard in Freddy's room (or leaving none in it) wakes him too, and an
animatronic that ends on another's tile "sits on a tile next to the other Animatronic".
Readings kept in the procedures, without an option:
- "If a Guard is in line of sight of Bonnie after she moves that Guard is attacked": every guard in her line of sight
  is attacked, one at a time; she is asked about the others after each attack.
- "Once Freddy attacks a Guard he goes inactive": a hunt that meets nobody is no attack, so Freddy stays awake.
- "they are eliminated from the game (and cannot be revived)": an eliminated guard is out and shares no win, whatever
  the `dead_guards` reading.
"""

from __future__ import annotations

from typing import Any

from ...dice import DiceError, check_physical, parse
from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Choice, Count, Move, Moves, MoveType, Numbers, SeatField, seat_text
from ..options import OptionError
from ..words import listing, plural
from . import SPEC, odds
from .medical_office import revive, revive_options
from .nights import Night, night_of
from .readings import in_force, reading
from .story import (
    CHOICE_LABELS,
    FOXY_PATH,
    FREDDY_ROOM,
    FREDDY_STATES,
    MOVED,
    NAMES,
    board,
    board_lines,
    board_rule,
    freddy_room_note,
    golden_freddy_moves,
    guard_name,
    me_of,
    odds_view,
    piece_name,
    place_of,
    place_words,
    question,
    seat_name,
    sight_rule,
    who_answers,
)

PLAYABLE = ("bonnie", "chica", "freddy")  # "Bonnie, Chica and Freddy can be controlled by another player."
ANIMATRONICS = ("bonnie", "chica", "foxy", "freddy", "golden_freddy")
ROLL_ASKS = ("move", "bonnie", "chica", "foxy", "foxy_blocked", "freddy", "golden_freddy", "attack")
GUARD_ROLLS = ("move", "attack")  # always a guard's own roll, on their phone
MISSES = ("foxy", "golden_freddy")  # rolls that do nothing unless they show a trigger number
CHOICE_ASKS = {"freddy_room": FREDDY_ROOM, "foxy_path": FOXY_PATH, "moved": MOVED}

MOVES = Moves("Director's Cut", example='{"type": "roll"}',
              offer="isn't a move in Director's Cut; you can roll, answer the question on screen, or revive a guard "
                    "in the Medical Office.",
              seat_name=seat_name)


# ---- setup ----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> dict[str, Any]:
    """Full turn 1 of the chosen night, Guard 1 to move; every guard alive, Freddy asleep, Foxy in Pirate Cove."""
    try:
        options, plan = SPEC.configure(options)  # the setup's own checks, also for a caller that skipped the form
    except OptionError as error:
        raise IllegalAction(str(error)) from None
    if len(seats) != len(plan):
        raise IllegalAction(f"This setup needs {len(plan)} seats, not {len(seats)}.")
    tonight = night_of(options["night"])
    guards = options["guards"]
    players = [key for key in PLAYABLE if options[f"{key}_player"]]
    sides = {piece: options[f"{piece}_die"] for piece in ("guard", *PLAYABLE)}
    sides |= {"foxy": profile["foxy_die"], "golden_freddy": profile["golden_freddy_die"]}
    guard_seats = list(seats[:guards])
    controllers = {key: None for key in PLAYABLE}
    for key, seat in zip(players, seats[guards:], strict=True):
        controllers[key] = seat
    state = {
        "night": tonight.key, "seats": list(seats), "guards": {str(seat): "alive" for seat in guard_seats},
        "controllers": controllers, "dice": sides, "full_turns": profile["full_turns"],
        "full_turn": 1, "turns_done": 0,
        "order": [f"guard-{seat}" for seat in guard_seats] + list(ANIMATRONICS),
        "turn": None, "ask": None, "step": 0,
        "freddy": "inactive" if tonight.freddy_moves else "resting", "freddy_target": None,
        "foxy": "ready" if tonight.foxy_moves else "resting", "foxy_back": None,
        "freddy_enters": options["freddy_enters"], "foxy_odd_roll": options["foxy_odd_roll"],
        "golden_freddy_early": options["golden_freddy_early"], "foxy_inactive": options["foxy_inactive"],
        "dead_guards": options["dead_guards"], "rolling": options["rolling"],
        "places": dict.fromkeys(ANIMATRONICS, "start"),
        "revive_used": False, "last_roll": None, "last_rolls": [], "deaths": [],
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


def _placed(state: dict[str, Any], piece: str, place: str | int | None) -> None:
    """Where an animatronic stands now, as far as the app can tell: its start, a tile, or None (the board knows)."""
    state.setdefault("places", dict.fromkeys(ANIMATRONICS))[piece] = place


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
    if piece.startswith("guard-"):
        seat = int(piece.removeprefix("guard-"))
        if state["guards"][str(seat)] != "alive":
            return False
        _ask(state, "move", seat)
        return True
    if piece == "bonnie":
        _ask(state, "bonnie", state["controllers"]["bonnie"], roll=1, rolls=night(state).bonnie_rolls)
        return True
    if piece == "chica":
        _ask(state, "chica", state["controllers"]["chica"])
        return True
    if piece == "foxy":
        return _start_foxy(state, events)
    if piece == "freddy":
        return _start_freddy(state, events)
    if not golden_freddy_moves(state):
        return False
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
        _placed(state, "freddy", None)
        _ask(state, "attack", target, attacker="freddy")
        return True
    if mode == "strike":
        events.append(Event(f"{guard_name(target)}, who woke Freddy, is gone: Freddy hunts the nearest guard."))
        state["freddy"], state["freddy_target"] = "hunt", None
    _ask(state, "freddy", state["controllers"]["freddy"])
    return True


# ---- the fields a move carries --------------------------------------------------------------------------------------

def _asked(state: dict[str, Any], move: Move) -> int:
    return state["ask"]["step"]


def _answered_already(state: dict[str, Any], move: Move, value: Any) -> str:
    return f"That question was already answered. Now: {question(state, state['ask'])}"


def _die_now(state: dict[str, Any], move: Move) -> int | None:
    """The sides of the die the question asks for, or None when nothing is to be rolled."""
    ask = state["ask"]
    return _die_of(state, ask) if ask["kind"] in ROLL_ASKS else None


def _not_a_face(state: dict[str, Any], move: Move, value: Any) -> str:
    """The dice module's own sentence for what was typed as the real die ('A d8 can't show 9: ...')."""
    die = _die_now(state, move)
    if die is None:
        return f"Nothing is to be rolled now. {question(state, state['ask'])}"
    try:
        check_physical(parse(f"d{die}"), move["values"])
    except DiceError as error:
        return str(error)
    return f"Enter the one number the real d{die} showed."


def _choices(state: dict[str, Any], move: Move) -> list[str]:
    ask = state["ask"]
    if ask["kind"] in CHOICE_ASKS:
        return list(CHOICE_ASKS[ask["kind"]])
    return ["nobody"] if ask.get("nobody") else []


def _wrong_answer(state: dict[str, Any], move: Move, guard: int | None = None) -> str:
    """Why this isn't an answer to the question on screen, and what is."""
    ask = state["ask"]
    kind = ask["kind"]
    if kind in ROLL_ASKS:
        return f"No question is waiting for an answer: {question(state, ask)}"
    if kind in CHOICE_ASKS:
        return f"Answer with one of: {', '.join(CHOICE_ASKS[kind])}."
    if guard is None:
        return "Answer with a guard's seat number" + (" or 'nobody'" if ask.get("nobody") else "") + "."
    name = guard_name(guard) if str(guard) in state["guards"] else f"Seat {seat_text(guard)}"
    return f"{name} isn't one of the answers here; pick {listing((guard_name(seat) for seat in ask['guards']), 'or')}."


def _revive_needs(key: str) -> str:
    return (f"A revive needs '{key}': name the dead guard and the guards in the Medical Office, "
            'like {{"guard": 2, "office": [1]}}.')


STEP = Count("step", "the question number", low=_asked, high=_asked, picked=False, optional=True,
             wrong="The question number must be a whole number.", too_low=_answered_already,
             too_high=_answered_already,
             help="the number of the question on screen (the view's ask.step): a late or doubled tap is refused")
REAL_DIE = Numbers("values", "what the real die showed", low=1, high=_die_now, length=1, optional=True,
                   picked=True, wrong=_not_a_face, too_low=_not_a_face, too_high=_not_a_face)  # left out: the app rolls
CHOICE = Choice("choice", "the answer", _choices, optional=True,
                wrong=lambda state, move, value: _wrong_answer(state, move))
GUARD = SeatField("guard", "the guard", optional=True, wrong="Name the guard by seat number, like 2.",
                  unknown=lambda state, move, value: _wrong_answer(state, move, move["guard"]))
DEAD_GUARD = SeatField("guard", "the dead guard", ask=_revive_needs("guard"),
                       wrong="Name the dead guard to revive by seat number, like 2.",
                       unknown="Name the dead guard to revive by seat number, like 2.")
OFFICE = Numbers("office", "the guards in the Medical Office", length=4, ask=_revive_needs("office"),
                 wrong="Name the guards in the Medical Office by seat number, like [1, 3].")


@MOVES.before_each
def _night_goes_on(state: dict[str, Any], move: Move, declared: MoveType) -> None:
    if state["ask"] is None:
        raise IllegalAction("The night is over; nothing more can be done.")


def _check_turn(state: dict[str, Any], ask: dict[str, Any], actor: int | None) -> None:
    """The host may answer anything; a phone only the question put to its own seat."""
    if actor is None or ask["who"] == actor:
        return
    if ask["who"] is None:
        raise IllegalAction(f"That's for the host to answer: {question(state, ask)}")
    raise IllegalAction(f"It's {who_answers(state, ask)}'s turn, not yours: {question(state, ask)}")


# ---- the moves ------------------------------------------------------------------------------------------------------

@MOVES.move("roll", "A roll", STEP, REAL_DIE, label="Roll")
def roll(state: dict[str, Any], move: Move, rng: Any):
    """The die the question asks for: the app rolls it, or checks and logs what the real die showed."""
    ask = state["ask"]
    _check_turn(state, ask, move.actor)
    if ask["kind"] not in ROLL_ASKS:
        raise IllegalAction(f"Nothing is to be rolled now. {question(state, ask)}")
    die, values = _die_of(state, ask), move["values"]
    try:
        if values is None:
            rolled = rng.roll(f"d{die}", _why(ask))
        else:
            rolled = rng.physical(f"d{die}", values, _why(ask))
    except DiceError as error:
        raise IllegalAction(str(error)) from None
    after = copied(state)
    after["last_rolls"] = []
    events: list[Event] = []
    _rolled(after, ask, rolled.total, values is not None, events)
    _roll_while(after, rng, events, _rolls_itself)
    return after, events


@MOVES.move("run-rolls", "Running the GM's rolls", STEP, by="host", label="Run the GM's rolls")
def run_rolls(state: dict[str, Any], move: Move, rng: Any):
    """In one tap, the GM's rolls that need no eyes on the board (misses, unplayed animatronics) to the next question.

    Stops at a question for the table or a phone; each roll is drawn and logged as if it were tapped on its own.
    """
    if not _gm_roll(state["ask"]):
        raise IllegalAction(f"The GM has no roll to make now. {question(state, state['ask'])}")
    after = copied(state)
    after["last_rolls"] = []
    events: list[Event] = []
    _roll_while(after, rng, events, lambda state: _gm_roll(state["ask"]))
    return after, events


@MOVES.move("answer", "An answer", STEP, CHOICE, GUARD, label="Answer")
def answer(state: dict[str, Any], move: Move, rng: Any):
    """One of the choices the question lists, or the guard it asks about."""
    ask = state["ask"]
    _check_turn(state, ask, move.actor)
    if ask["kind"] in ROLL_ASKS:
        raise IllegalAction(f"No question is waiting for an answer: {question(state, ask)}")
    choice, guard = move["choice"], move["guard"]
    if (choice is None) == (guard is None):
        raise IllegalAction("Answer with one choice, or name one guard.")
    if guard is not None and (ask["kind"] in CHOICE_ASKS or guard not in ask["guards"]):
        raise IllegalAction(_wrong_answer(state, move, guard))
    after = copied(state)
    events: list[Event] = []
    ANSWERS[ask["kind"]](after, ask, guard if choice is None else choice, events)
    if _rolls_itself(after):
        after["last_rolls"] = []  # the rolls this tap made replace the last tap's on every screen
    _roll_while(after, rng, events, _rolls_itself)
    return after, events


@MOVES.move("revive", "A revive", STEP, DEAD_GUARD, OFFICE, label="Revive")
def revive_guard(state: dict[str, Any], move: Move, rng: Any):
    """The Medical Office revive: a dead guard back to the start, once a night from The Fourth Night."""
    return revive(state, move["guard"], move["office"], move.actor)


# ---- the host's corrections: what only the board shows ---------------------------------------------------------------

def _freddy_choices(state: dict[str, Any], move: Move) -> list[str]:
    return list(FREDDY_STATES) if night(state).freddy_moves else []


def _freddy_refused(state: dict[str, Any], move: Move, value: Any) -> str:
    if not night(state).freddy_moves:
        return f"Freddy isn't allowed to move on {night(state).label}: he has no state to correct."
    return f"Say Freddy's state as one of: {', '.join(FREDDY_STATES)}."


def _highest_tile(state: dict[str, Any], move: Move) -> int:
    """A tile number the table can name: Bonnie 'Moves to the tile number that is rolled on her dice', so the tiles
    are numbered at least as far as the table's largest die."""
    return max(state["dice"].values())


def _freddy_acting(state: dict[str, Any]) -> bool:
    """Whether Freddy is in the middle of his own move (rolled, meeting a guard, or attacking one)."""
    ask = state["ask"]
    return ask["kind"] in ("freddy", "freddy_met") or (ask["kind"] == "attack" and ask.get("attacker") == "freddy")


def _freddy_words(mode: str, target: int | None) -> str:
    return f"awake, going for {guard_name(target)}" if mode == "strike" else FREDDY_STATES[mode]


@MOVES.move("correct", "Correcting the board",
            Choice("freddy", "Freddy's state", _freddy_choices, optional=True, picked=True, wrong=_freddy_refused,
                   help="inactive, strike (awake, going for the target guard) or hunt (awake, hunting the nearest)"),
            SeatField("target", "the guard Freddy goes for", optional=True, picked=True,
                      wrong="Name the guard Freddy goes for by seat number, like 2.",
                      unknown="There is no Guard {value} for Freddy to go for."),
            Choice("piece", "the animatronic", ANIMATRONICS, optional=True, picked=True,
                   wrong=f"Say which animatronic: {', '.join(ANIMATRONICS)}."),
            Count("tile", "the tile it stands on", low=1, high=_highest_tile, optional=True,
                  help="leave out when it is back at its start"),
            by="host", correction=True, label="Correct")
def correct(state: dict[str, Any], move: Move, rng: Any):
    """What only the board shows, set by the host: Freddy's state (a revive or Foxy's reset can wake him too), and
    where an animatronic stands ('the last Animatronic to move sits on a tile next to the other Animatronic')."""
    freddy, target, piece, tile = move["freddy"], move["target"], move["piece"], move["tile"]
    if tile is not None and piece is None:
        raise IllegalAction(f"Say which animatronic stands on tile {tile}.")
    if target is not None and freddy != "strike":
        raise IllegalAction("Only Freddy going for a guard names one: say freddy 'strike' with the target, or leave "
                            "the target out.")
    if freddy is None and piece is None:
        raise IllegalAction("Say what to correct: Freddy's state (freddy), or an animatronic's place (piece, and the "
                            "tile it stands on).")
    after = copied(state)
    changes = []
    if freddy is not None:
        if _freddy_acting(state):
            raise IllegalAction("Freddy is in the middle of his move: finish it first. "
                                f"{question(state, state['ask'])}")
        if freddy == "strike" and (target is None or state["guards"].get(str(target)) != "alive"):
            raise IllegalAction("Say which living guard Freddy goes for (target, their seat number).")
        old = _freddy_words(state["freddy"], state["freddy_target"])
        if (freddy, target) == (state["freddy"], state["freddy_target"]):
            raise IllegalAction(f"Freddy is {old} already.")
        after["freddy"], after["freddy_target"] = freddy, target
        changes.append(f"Freddy is {_freddy_words(freddy, target)} (was {old})")
    if piece is not None:
        place = "start" if tile is None else tile
        old = place_words(place_of(state, piece))
        if place == place_of(state, piece):
            raise IllegalAction(f"{NAMES[piece]} is {old} already.")
        _placed(after, piece, place)
        ask = after["ask"]
        if piece == "bonnie" and ask["kind"] == "bonnie_sight" and tile is not None:
            ask["tile"] = tile  # her line of sight is asked from where she really sits
        changes.append(f"{NAMES[piece]} stands {place_words(place)} (was {old})")
    return after, [Event(f"corrected the board: {'; '.join(changes)}.")]


apply = MOVES.apply


# ---- rolling --------------------------------------------------------------------------------------------------------

def _gm_roll(ask: dict[str, Any] | None) -> bool:
    """A roll nobody at the table makes: Foxy's, Golden Freddy's, or an animatronic no player runs."""
    return ask is not None and ask["who"] is None and ask["kind"] in ROLL_ASKS and ask["kind"] not in GUARD_ROLLS


def _app_rolls(state: dict[str, Any]) -> bool:
    """The table lets the app roll each die as it comes due (a table stored before the choice rolled on a tap)."""
    return state.get("rolling", "tap") == "app"


def _rolls_itself(state: dict[str, Any]) -> bool:
    """A roll due now that needs nobody's eyes and nobody's tap: a guard's move or a GM roll, when the app rolls.
    An attacked guard still rolls their own die, and a player rolls for the animatronic they run."""
    ask = state["ask"]
    return _app_rolls(state) and ask is not None and (ask["kind"] == "move" or _gm_roll(ask))


def _roll_while(state: dict[str, Any], rng: Any, events: list[Event], due) -> None:
    """Make each roll `due` says is due, in turn order, up to the next question; each is drawn from the table's dice
    (its committed seed) and logged with the tap that made it."""
    while due(state):
        ask = state["ask"]
        _rolled(state, ask, rng.roll(f"d{_die_of(state, ask)}", _why(ask)).total, False, events)


def _rolled(state: dict[str, Any], ask: dict[str, Any], value: int, real: bool, events: list[Event]) -> None:
    """One roll: shown on every screen as the latest, then the procedure of the piece that rolled it."""
    die = _die_of(state, ask)
    record = {"who": _roller(ask), "die": die, "value": value, "real": real, "full_turn": state["full_turn"]}
    first = len(events)
    ROLLS[ask["kind"]](state, ask, value, f"{value} on d{die}{' (real die)' if real else ''}", events)
    record["text"] = events[first].text if len(events) > first else ""
    state["last_roll"] = record
    state["last_rolls"] = [*state.get("last_rolls", []), record]


def _die_of(state: dict[str, Any], ask: dict[str, Any]) -> int:
    kind = ask["kind"]
    if kind in GUARD_ROLLS:
        return state["dice"]["guard"]
    if kind == "foxy_blocked":
        return state["dice"]["foxy"]
    return state["dice"][kind]


def _roller(ask: dict[str, Any]) -> str:
    kind = ask["kind"]
    if kind in GUARD_ROLLS:
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


def _gm_rolls_ahead(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The rolls one `run-rolls` tap makes if Foxy and Golden Freddy miss: the one due now, then each next GM roll
    until a piece moves and the table is asked about it (played out on a copy with a missing face)."""
    ahead: list[dict[str, Any]] = []
    future = copied(state)
    while _gm_roll(future["ask"]):
        ask = future["ask"]
        die = _die_of(future, ask)
        ahead.append({"who": _roller(ask), "die": die, "again": ask["kind"] == "foxy_blocked"})
        if ask["kind"] not in MISSES:
            break  # the piece moves (or Foxy's all-blocked roll decides), and the table looks at the board
        triggers = night(future).foxy_triggers if ask["kind"] == "foxy" else night(future).golden_freddy_triggers
        miss = next((face for face in range(1, die + 1) if face not in triggers), None)
        if miss is None:
            break
        ROLLS[ask["kind"]](future, ask, miss, "", [])
    return ahead


# ---- guards ---------------------------------------------------------------------------------------------------------

def _rolled_move(state, ask, value, said, events):
    """'You roll the dice on your turn and move accordingly'; then the guard says they moved, and where they ended
    when Freddy listens ('activated when a Guard enters/leaves his line of sight'): one tap on their own phone.
    With the app rolling, the next piece's roll waits for that tap, so nothing moves before the guard has."""
    seat = ask["who"]
    events.append(Event(f"{guard_name(seat)} rolled {said} and moves up to {plural(value, 'tile')}."))
    if state["freddy"] == "inactive":
        _ask(state, "freddy_room", seat, guard=seat, moves=value)
        return
    if _app_rolls(state):
        _ask(state, "moved", seat, guard=seat, moves=value)
        return
    _advance(state, events)


def _answered_moved(state, ask, choice, events):
    events.append(Event(f"{guard_name(ask['guard'])} has moved."))
    _advance(state, events)


def _answered_freddy_room(state, ask, choice, events):
    """'Freddy is activated when a Guard enters/leaves his line of sight' (his whole room, the cafeteria too)."""
    seat = ask["guard"]
    if choice == "entered" and reading(state, "freddy_enters") == "now":
        # "Freddy moves to the Guard that activated him and attacks": before any other animatronic acts.
        events.append(Event(f"{guard_name(seat)} entered Freddy's room: Freddy wakes, moves to them and attacks!"))
        _placed(state, "freddy", None)
        _ask(state, "attack", seat, attacker="freddy")
        return
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
        fate = "dies" if fatal else "lives"
        if fatal:
            state["guards"][str(seat)] = "dead"
        events.append(Event(f"{name} rolled {said} against {NAMES[attacker]}, {why}: {name} {fate}."))
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
    _placed(state, "bonnie", value)
    _ask(state, "bonnie_sight", _eyes(state, "bonnie", _alive(state)), tile=value, roll=ask["roll"],
         rolls=ask["rolls"], seen=[], guards=_alive(state), nobody=True)


def _eyes(state: dict[str, Any], piece: str, guards: list[int]) -> int | None:
    """Who answers where `piece` stands against `guards`: the animatronic's player; else the one guard the question
    can be about, on their own phone; else the host."""
    player = state["controllers"].get(piece)
    if player is not None:
        return player
    return guards[0] if len(guards) == 1 else None


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
        _ask(state, "bonnie_sight", _eyes(state, "bonnie", others), guards=others, nobody=True, **sight)
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
    events.append(Event(f"{NAMES[piece]} rolled {said}{how}: {plural(steps, 'tile')} toward the nearest guard."))
    _placed(state, piece, None)
    _ask(state, f"{piece}_met", _eyes(state, piece, _alive(state)), steps=steps, guards=_alive(state),
         nobody=True)


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
        _ask(state, "foxy_path", candidates[0], guard=candidates[0], left=[])
    else:
        _ask(state, "foxy_nearest", None, guards=candidates, nobody=False)


def _answered_foxy_nearest(state, ask, answer, events):
    events.append(Event(f"{guard_name(answer)} is nearest to Foxy."))
    _ask(state, "foxy_path", answer, guard=answer, left=[seat for seat in ask["guards"] if seat != answer])


def _answered_foxy_path(state, ask, choice, events):
    """Cinema: safe. Blocked: the next nearest guard. All blocked: Foxy rolls again (see _rolled_foxy_blocked)."""
    name = guard_name(ask["guard"])
    if choice == "reaches":
        events.append(Event(f"Foxy charges {name} and attacks!"))
        _placed(state, "foxy", None)
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
    ends.' How long Foxy stays inactive, and whose turn ends, are the table's readings (foxy_inactive, foxy_odd_roll).
    """
    if value % 2 == 0:
        state["foxy"] = "inactive"
        if reading(state, "foxy_inactive") == "night":
            state["foxy_back"] = None
            events.append(Event(f"Foxy rolled {said}, even: Foxy is inactive for the rest of the night."))
        else:
            state["foxy_back"] = state["full_turn"] + 2
            events.append(Event(f"Foxy rolled {said}, even: Foxy is inactive and sits out his next turn."))
        _advance(state, events)
        return
    state["places"] = dict.fromkeys(ANIMATRONICS, "start")
    if reading(state, "foxy_odd_roll") == "foxy":
        events.append(Event(f"Foxy rolled {said}, odd: every animatronic goes back to its start and Foxy's turn "
                            f"ends.{freddy_room_note(state)}"))
        _advance(state, events)
        return
    events.append(Event(f"Foxy rolled {said}, odd: every animatronic goes back to its start and the turn ends."
                        f"{freddy_room_note(state)}"))
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
        _placed(state, "golden_freddy", None)
        _ask(state, "attack", alive[0], attacker="golden_freddy")
        return
    events.append(Event(f"Golden Freddy rolled {said}: he attacks the guard furthest from him!"))
    _ask(state, "golden_furthest", None, guards=alive, nobody=False)


def _answered_golden_furthest(state, ask, answer, events):
    events.append(Event(f"{guard_name(answer)} is furthest: Golden Freddy attacks them."))
    _placed(state, "golden_freddy", None)
    _ask(state, "attack", answer, attacker="golden_freddy")


ROLLS = {"move": _rolled_move, "attack": _rolled_attack, "bonnie": _rolled_bonnie, "chica": _rolled_chica,
         "freddy": _rolled_freddy, "foxy": _rolled_foxy, "foxy_blocked": _rolled_foxy_blocked,
         "golden_freddy": _rolled_golden_freddy}
ANSWERS = {"freddy_room": _answered_freddy_room, "moved": _answered_moved, "bonnie_sight": _answered_bonnie_sight,
           "chica_met": _answered_met, "freddy_met": _answered_met, "foxy_nearest": _answered_foxy_nearest,
           "foxy_path": _answered_foxy_path, "golden_furthest": _answered_golden_furthest}


# ---- what the screens offer and see ---------------------------------------------------------------------------------

def _what_answers(state: dict[str, Any], ask: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The complete moves that answer the question: its roll (and the host's run of GM rolls), or each answer."""
    step = ask["step"]
    if ask["kind"] in ROLL_ASKS:
        run = [{"type": "run-rolls", "step": step}] if seat is None and _gm_roll(ask) else []
        return [*run, {"type": "roll", "step": step}]
    if ask["kind"] in CHOICE_ASKS:
        return [{"type": "answer", "choice": choice, "step": step} for choice in CHOICE_ASKS[ask["kind"]]]
    guards = [{"type": "answer", "guard": guard, "step": step} for guard in ask["guards"]]
    return guards + ([{"type": "answer", "choice": "nobody", "step": step}] if ask.get("nobody") else [])


def _revives(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The Medical Office revives this screen may call: the host any, a guard those with them in the office."""
    return [{"type": "revive", **option} for option in revive_options(state)
            if seat is None or seat in option["office"]]


def _corrections(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The host's corrections, each with a value that changes something: Freddy's state, Bonnie's tile."""
    offers = []
    if night(state).freddy_moves and not _freddy_acting(state):
        offers.append({"type": "correct", "freddy": "hunt" if state["freddy"] == "inactive" else "inactive"})
    place, highest = place_of(state, "bonnie"), max(state["dice"].values())
    tile = 1 if not isinstance(place, int) else place + 1 if place < highest else place - 1
    return offers + [{"type": "correct", "piece": "bonnie", "tile": tile}]


def legal_actions(state: dict[str, Any], seat: int | None) -> list[dict[str, Any]]:
    """The one question's answers for whoever may give them (the host may give any), the revive while on offer, and
    the host's corrections."""
    ask = state["ask"]
    if ask is None or (seat is not None and seat not in state["seats"]):
        return []
    mine = _what_answers(state, ask, seat) if seat is None or ask["who"] == seat else []
    return mine + _revives(state, seat) + (_corrections(state) if seat is None else [])


def outcome(state: dict[str, Any]) -> Outcome | None:
    """Animatronics win when no guard is left alive; the guards win by surviving the night's full turns."""
    tonight = night(state)
    if not _alive(state):
        players = tuple(seat for seat in state["controllers"].values() if seat is not None)
        return Outcome(players, f"The animatronics win {tonight.label}: no guard is left alive.",
                       shared=len(players) > 1)
    if state["turns_done"] >= state["full_turns"]:
        guards = _winning_guards(state)
        dead = [int(seat) for seat, status in state["guards"].items() if status == "dead" and int(seat) not in guards]
        why = f" {listing(guard_name(seat) for seat in dead)} died and {'doesn' if len(dead) == 1 else 'don'}'t " \
              "share it." if dead else ""
        return Outcome(guards, f"The guards survive {state['full_turns']} full turns and win {tonight.label}!{why}",
                       shared=len(guards) > 1)
    return None


def _winning_guards(state: dict[str, Any]) -> tuple[int, ...]:
    """'If the guards survive 10 full turns they win', by the `dead_guards` reading; 'they are eliminated from the
    game (and cannot be revived)' never shares it."""
    how = reading(state, "dead_guards")
    if how == "revivable":
        how = "share" if night(state).revive_needs else "lose"
    sharing = ("alive", "dead") if how == "share" else ("alive",)
    return tuple(int(seat) for seat, status in state["guards"].items() if status in sharing)


def invariants(state: dict[str, Any]) -> list[str]:
    """What the rulebook guarantees at every step: the night ends after its full turns or when no guard is left, and
    not before; Freddy and Foxy stay put on the nights they "aren't allowed to move"; Freddy goes for a guard only
    while awake to strike; the Medical Office revive only from The Fourth Night, once; with the app rolling, no roll
    that needs nobody waits for a tap but the night's first (no tap comes before it)."""
    tonight = night(state)
    over = not _alive(state) or state["turns_done"] >= state["full_turns"]
    target = state["freddy_target"]
    return broken([
        (0 <= state["turns_done"] <= state["full_turns"] and 1 <= state["full_turn"] <= state["full_turns"],
         f"Full turn {state['full_turn']} with {state['turns_done']} done is outside the night's "
         f"{state['full_turns']}."),
        ((state["ask"] is None) == over, "The night's end and the question on screen disagree."),
        ((state["freddy"] == "resting") == (not tonight.freddy_moves),
         f"Freddy is {state['freddy']} on {tonight.label}."),
        ((state["foxy"] == "resting") == (not tonight.foxy_moves), f"Foxy is {state['foxy']} on {tonight.label}."),
        ((target is not None) == (state["freddy"] == "strike") and (target is None or str(target) in state["guards"]),
         "Freddy goes for a guard while not awake to strike, or for nobody while he is."),
        (not state["revive_used"] or bool(tonight.revive_needs), f"A revive was used on {tonight.label}."),
        (all(status in ("alive", "dead", "eliminated") for status in state["guards"].values()),
         "A guard is neither alive, dead nor eliminated."),
        (not _rolls_itself(state) or state["step"] == 1,
         "A roll the app makes by itself waits for a tap after the night's first."),
    ])


def _roll_label(state: dict[str, Any], ask: dict[str, Any] | None) -> str | None:
    """The roll button's words for whoever the question asks to roll: 'Roll my move (d8)', 'Roll for Chica (d6)'."""
    if ask is None or ask["kind"] not in ROLL_ASKS:
        return None
    words = {"move": "Roll my move", "attack": "Roll my die", "foxy_blocked": "Roll for Foxy again"}
    return f"{words.get(ask['kind'], 'Roll for ' + _roller(ask))} (d{_die_of(state, ask)})"


def _run_view(state: dict[str, Any]) -> dict[str, Any] | None:
    """What the host's one tap would roll: 'Roll for Foxy (d20), then Golden Freddy (d12)'."""
    if not _gm_roll(state["ask"]):
        return None
    rolls = _gm_rolls_ahead(state)
    parts = [f"{roll['who']}{' again' if roll['again'] else ''} (d{roll['die']})" for roll in rolls]
    return {"rolls": rolls, "label": "Roll for " + ", then ".join(parts)}


def _turn(state: dict[str, Any]) -> tuple[list[int], str]:
    ask = state["ask"]
    if ask is None:
        over = outcome(state)
        return [], over.text if over is not None else "The night is over."
    return ([ask["who"]] if ask["who"] is not None else []), f"Waiting for {who_answers(state, ask)}"


def view(state: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
    """Everything (Director's Cut hides nothing), plus the question, the board check and the odds, ready to show."""
    tonight = night(state)
    ask = state["ask"]
    last_roll = state["last_roll"]
    seats, text = _turn(state)
    if viewer.seat is not None and viewer.seat in seats:
        text = "Your move is below."  # not "Waiting for Guard 1" on Guard 1's own phone
    shown = {
        "night": state["night"],
        "night_card": {"label": tonight.label, "card": list(tonight.card), "players": tonight.most_players},
        "seats": list(state["seats"]), "guards": dict(state["guards"]), "controllers": dict(state["controllers"]),
        "dice": dict(state["dice"]), "order": list(state["order"]),
        "turn_order": [piece_name(piece) for piece in state["order"]], "piece": state["turn"],
        "full_turn": state["full_turn"], "full_turns": state["full_turns"], "turns_done": state["turns_done"],
        "ask": copied(ask),
        "question": question(state, ask) if ask else None,
        "answerer": who_answers(state, ask) if ask else None,
        "die": _die_of(state, ask) if ask and ask["kind"] in ROLL_ASKS else None,
        "roll_label": _roll_label(state, ask),
        "run": _run_view(state),
        "rule": sight_rule(ask),
        "board_rule": board_rule(ask),
        "labels": dict(CHOICE_LABELS),
        "last_roll": copied(last_roll),
        "last_rolls": copied(state.get("last_rolls", [last_roll] if last_roll else [])),
        "revive_used": state["revive_used"], "deaths": copied(state["deaths"]),
        "board": board(state), "odds": odds_view(state), "readings": in_force(state),
        "me": me_of(state, viewer.seat),
    }
    moves = legal_actions(state, viewer.seat) if viewer.moves else []
    return shown | seen(viewer, moves=moves, turn=seats, turn_text=text, board_check=board_lines(state))


_ROLL = {"type": "object", "required": ["who", "die", "value", "real", "full_turn", "text"],
         "properties": {"who": {"type": "string"}, "die": {"type": "integer", "minimum": 2},
                        "value": {"type": "integer", "minimum": 1}, "real": {"type": "boolean"},
                        "full_turn": {"type": "integer", "minimum": 1}, "text": {"type": "string"}}}
_STATUS = {"enum": ["alive", "dead", "eliminated"]}
_PIECES = {"enum": ["bonnie", "chica", "foxy", "freddy", "golden_freddy"]}
_CHANCE = {"type": "object", "required": ["ratio", "percent", "exact"],
           "properties": {"ratio": {"type": "string"}, "percent": {"type": "string"}, "exact": {"type": "string"}}}
VIEW_SCHEMA = {
    "type": "object",
    "required": ["night", "night_card", "seats", "guards", "controllers", "dice", "order", "turn_order", "piece",
                 "full_turn",
                 "full_turns", "turns_done", "ask", "question", "answerer", "die", "roll_label", "run", "rule",
                 "board_rule",
                 "labels", "last_roll", "last_rolls", "revive_used", "deaths", "board", "odds", "readings", "me"],
    "properties": {
        "night": {"enum": ["first", "second", "third", "fourth", "fifth", "sixth", "final"]},
        "night_card": {"type": "object", "required": ["label", "card", "players"],
                       "properties": {"label": {"type": "string"}, "card": {"type": "array",
                                                                            "items": {"type": "string"}},
                                      "players": {"type": "integer"}}},
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "guards": {"type": "object", "additionalProperties": _STATUS},
        "controllers": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}},
        "dice": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 2}},
        "order": {"type": "array", "items": {"type": "string"}},
        "turn_order": {"type": "array", "items": {"type": "string"}},
        "piece": {"type": ["string", "null"]},
        "full_turn": {"type": "integer", "minimum": 1},
        "full_turns": {"type": "integer", "minimum": 1},
        "turns_done": {"type": "integer", "minimum": 0},
        "ask": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["kind", "who", "step"], "properties": {
            "kind": {"type": "string"}, "who": {"type": ["integer", "null"]}, "step": {"type": "integer"}}}]},
        "question": {"type": ["string", "null"]},
        "answerer": {"type": ["string", "null"]},
        "die": {"type": ["integer", "null"]},
        "roll_label": {"type": ["string", "null"]},
        "run": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["rolls", "label"], "properties": {
            "rolls": {"type": "array", "minItems": 1, "items": {"type": "object", "required": ["who", "die"]}},
            "label": {"type": "string"}}}]},
        "rule": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["label", "text"]}]},
        "board_rule": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["label", "text"]}]},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "last_roll": {"oneOf": [{"type": "null"}, _ROLL]},
        "last_rolls": {"type": "array", "items": _ROLL},
        "revive_used": {"type": "boolean"},
        "deaths": {"type": "array", "items": {"type": "object", "required": ["guard", "by", "full_turn", "status"],
                                              "properties": {"by": _PIECES, "status": _STATUS}}},
        "board": {"type": "object", "required": ["guards", "alive", "freddy", "foxy", "golden_freddy", "revive",
                                                 "places", "current", "full_turn", "full_turns", "turns_done"],
                  "properties": {"places": {"type": "array", "items": {
                      "type": "object", "required": ["piece", "name", "place", "text"],
                      "properties": {"piece": _PIECES, "place": {"type": ["string", "integer", "null"]}}}}}},
        "odds": {"type": "object", "required": ["foxy", "golden_freddy", "foxy_now", "golden_freddy_now",
                                                "either_now", "survival", "attack"],
                 "properties": {"foxy_now": _CHANCE, "golden_freddy_now": _CHANCE, "either_now": _CHANCE}},
        "readings": {"type": "array", "items": {"type": "object",
                                                "required": ["key", "label", "value", "choice", "source", "why",
                                                             "asks"],
                                                "properties": {"source": {"enum": ["verified", "assumed"]}}}},
        "me": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["kind"], "properties": {
            "kind": {"enum": ["guard", "bonnie", "chica", "freddy"]}}}]},
    },
}


def figures(state: dict[str, Any]) -> dict[str, Any]:
    """For the history: the night, each guard alive, dead or eliminated, who played which animatronic, and which
    side won (the contract's optional `figures`; reads only the state)."""
    from .nights import night_of

    names = {"bonnie": "Bonnie", "chica": "Chica", "freddy": "Freddy"}
    words = {"alive": "survived", "dead": "dead", "eliminated": "eliminated"}
    seats = {str(seat): {"score": None, "status": None, "details": [], "records": {}} for seat in state["seats"]}
    for seat, status in state["guards"].items():
        seats[seat]["status"] = words.get(status, status)
    for piece, seat in state["controllers"].items():
        if seat is not None:
            seats[str(seat)]["status"] = f"played {names.get(piece, piece)}"
    alive = [seat for seat, status in state["guards"].items() if status == "alive"]
    side = "Animatronics" if not alive else "Guards" if state["turns_done"] >= state["full_turns"] else None
    found = night_of(state["night"])
    players = [seat for seat in state["controllers"].values() if seat is not None]
    teams = {"Guards": [int(seat) for seat in state["guards"]], **({"Animatronics": players} if players else {})}
    # The guards play together against the GM ("If the guards survive 10 full turns they win"): a cooperative game
    # for the history, with any animatronic a player runs as the other side.
    return {"score": None, "side": side, "scenario": found.label if found else str(state["night"]), "seats": seats,
            "cooperative": True, "teams": teams,
            "facts": [["Guards alive at the end", f"{len(alive)} of {len(state['guards'])}"],
                      ["Full turns survived", f"{state['turns_done']} of {state['full_turns']}"]]}
