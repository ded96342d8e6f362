"""Survive 'Til 6AM's rules: the clock deck, both Power Dials, the cameras, the reaction order and its cost.

Pure: no Flask, no SQLAlchemy. The camera cards stay on the cardboard; the app keeps the clock pile, the dials and
the cards each guard tapped in as the table flipped them, says who reacts first, does the Power sums and says who
won. Everything is public.

A round: "Advance Time" (discard the top Clock card) -> Phase One (flip the cameras; each guard taps in what each
location revealed) -> Phase Two (each guard reacts once, most power first) -> Phase Three (resolve, Hallway first)
-> advance time again.

Readings of loose rules, each a setup option labelled assumed and shown on the screens that depend on it (the same
list is in docs/games/survive-6am.md):

- Equal power at 6:00 AM (`tie`): "If both players survive until 6:00 AM without an Animatronic moving into their
  Offices, the player with the most power remaining wins!" Nothing says what equal power means. Default `shared`:
  both win; `star`: the guard whose dial shows the star wins; `nobody`: nobody wins.
- Whose dial shows the star (`star_moves`): "If there is a tie, the player who has a star icon showing on their dial
  reacts first." Default `fixed`: the dial chosen at setup (`star`) keeps it all night; `dial`: the star follows the
  dials, so on a tie in Phase One the table says whose dial shows it, before Phase Two's order is fixed.
- Phase Three's order (`resolve`): "Resolve remaining face-up cards, using Phase Two's turn order, one at a time from
  the Hallway to the Show Stage." Turns pass in Phase Two's order (most power, the star on a tie), never in seat
  order. Default `guard`: guard by guard, each from the Hallway to the Show Stage; `location`: location by location,
  both Hallways first. It decides whose Office an unanswered Hallway Animatronic is known to reach first.

Readings the text settles, kept in the code:

- A reaction costs the dice plus 5 per face-up Power Depletion card, and nothing when no die is rolled: "If you
  didn't react to any cards during this phase, ignore this effect." A cost equal to the power left is paid; only
  "more power ... than you have power" reacts to NOTHING.
- "Continue until you have revealed cards at each location ... until you reveal a non-Animatronic card": a location
  shows at most one card that isn't an Animatronic, so at most 4 Power Depletion cards are face up, and a guard's 4
  Animatronics are all a camera can show.
- The app can't see which cards a guard reacted to, only how many: a Hallway Animatronic is known to be unanswered
  when the guard reacted to NOTHING or to fewer cards than the Hallway shows Animatronics (the warning before Phase
  Three). In Phase Three an Office is known to be reached first only when the first card on the reading's walk that
  can reach an Office surely does; a What Was That? or a card the guard may have answered leaves both Offices open
  ("If a card reaches your Office, reveal that card immediately. If the revealed card is an Animatronic, you LOSE
  THE GAME!"). A typed count of Power Depletion cards corrects the cameras' count, and the log says so.
"""

from __future__ import annotations

from typing import Any

from ...dice import DiceError
from ...reading import quoted
from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Choice, Count, Move, Moves, MoveType, Numbers, Whose
from ..options import reading_in_force, readings_shown
from ..words import listing, plural
from . import RESOLVE_ORDER, STAR_MOVES, TIE
from . import power as power_math

State = dict[str, Any]

SETUP, CAMERAS, REACT, RESOLVE, DAWN = "setup", "cameras", "react", "resolve", "dawn"
DAWN_CARD = "6:00 AM"  # the board space under the Clock pile, not a card
NAMES = {"orange": "Orange", "purple": "Purple"}
# The Camera Monitor cards a pile can reveal ("Follow these effects when you react to these card types").
ANIMATRONIC, DEPLETION, WHAT, EMPTY = "animatronic", "power-depletion", "what-was-that", "empty-room"
CARDS = {ANIMATRONIC: "Animatronic", DEPLETION: "Power Depletion", WHAT: "What Was That?", EMPTY: "Empty Room"}
REACTABLE = (ANIMATRONIC, WHAT)  # "React to zero, one, or two face-up Animatronic or What Was That? cards."
READINGS = {option.key: option for option in (TIE, STAR_MOVES, RESOLVE_ORDER)}
HALLWAY = "Hallway"  # "if you don't (or can't) react to an Animatronic in the Hallway, it will move into your Office"

PHASES = {
    SETUP: ("Before the night",
            ["Set up the board with the checklist below.",
             "Then advance time: START is discarded and the first round is 12:00 AM."]),
    CAMERAS: ("Phase One: Monitor Cameras",
              ["From the Hallway toward the Show Stage, flip the top card of each pile face up below it.",
               "Revealed an Animatronic? Keep flipping that pile until a non-Animatronic card.",
               "An empty pile flips nothing this round.",
               "Tap in each card as it is flipped: the app counts the Power Depletion cards and what you can react "
               "to."]),
    REACT: ("Phase Two: React",
            ["React to 0, 1 or 2 face-up Animatronic or What Was That? cards: one Power die per card.",
             "If you roll, each face-up Power Depletion card costs 5 more.",
             "Animatronic: shut the door, shuffle it back into its pile. What Was That?: lights on, discard it.",
             "An Animatronic in the Hallway you don't (or can't) react to moves into your Office in Phase Three: "
             "you lose!"]),
    RESOLVE: ("Phase Three: Resolve",
              ["Discard Power Depletion and Empty Rooms; then, in reaction order, Hallway first:",
               "an Animatronic moves one location closer (into your Office: you lose);",
               "What Was That? moves the top card 1 or 2 locations toward you, or reveals and resolves it.",
               "A location with an empty pile at the end of the round: slide the piles toward your Office."]),
    DAWN: ("6:00 AM", ["The last Clock card is discarded: the night shift is over."]),
}


# ---- setup -----------------------------------------------------------------------------------------------------------

def new_state(seats: list[int], options: State, profile: State) -> State:
    """Both dials at 100, the Clock pile with START on top, the star where the host put it, nobody reacting yet."""
    colours = ["orange", "purple"][: len(seats)]
    faces = [int(face) for face in options["power_die_faces"]]
    if max(faces) < 1:
        raise ValueError("a Power die needs at least one face above 0")
    star_colour = options["star"]
    star = next((seat for seat, colour in zip(seats, colours, strict=True) if colour == star_colour), seats[0])
    start = int(profile["power_dial_start"])
    return {
        "seats": list(seats),
        "guards": {str(seat): {"colour": colour, "name": NAMES[colour], "power": start} for seat, colour in
                   zip(seats, colours, strict=True)},
        "star": star,
        "dial_start": start,
        "clock_cards": list(profile["clock_cards"]),
        "clock_pile": list(profile["clock_cards"]),  # top card first; empty = the 6:00 AM space shows
        "round": 0,
        "phase": SETUP,
        "order": [],
        "order_powers": [],
        "reacted": [],
        "last_reactions": {str(seat): None for seat in seats},
        "caught": None,
        "caught_at": None,
        "power_dice": options["power_dice"],
        "faces": faces,
        "depletion_cost": int(profile["depletion_cost"]),
        "most_cards": int(profile["most_reaction_cards"]),
        "readings": {key: options[key] for key in READINGS},
        "piles": dict(profile["piles"]),
        "locations": list(profile["piles"]),  # Hallway first, toward the Show Stage: the order cards are flipped
        "cameras": {str(seat): {} for seat in seats},  # per guard, per location: the cards face up this round
        "animatronics": dict(profile["animatronics_per_pile"]),
    }


def rounds_total(state: State) -> int:
    """12: one round per Clock card under START (12:00 AM ... 5:30 AM)."""
    return len(state["clock_cards"]) - 1


def current_time(state: State) -> str:
    """The card on top of the Clock pile, or 6:00 AM once the pile is gone."""
    return state["clock_pile"][0] if state["clock_pile"] else DAWN_CARD


def most_depletion(state: State) -> int:
    """4: "Continue until you have revealed cards at each location" and keep flipping only past an Animatronic,
    so each location shows at most one non-Animatronic card, and Power Depletion cards are never Animatronics."""
    return len(state["piles"])


def reading(state: State, key: str) -> str:
    """The reading in force at this table; a table stored before readings were options plays with the defaults."""
    return reading_in_force(state, READINGS, key)


def locations(state: State) -> list[str]:
    """The four locations from the Hallway to the Show Stage (a table stored before they were kept: the piles')."""
    return list(state.get("locations") or state["piles"])


def cameras(state: State, seat: int) -> dict[str, list[str]]:
    """The cards this guard's cameras show face up this round, per location (tapped in as the table flipped them)."""
    return state.get("cameras", {}).get(str(seat), {})


def tracked(state: State, seat: int) -> bool:
    """Whether this guard tapped in any camera this round: then the app counts their cards for them."""
    return any(cameras(state, seat).values())


def face_up(state: State, seat: int, kinds: tuple[str, ...]) -> int:
    """How many of these kinds of card this guard's cameras show face up."""
    return sum(card in kinds for cards in cameras(state, seat).values() for card in cards)


def depletion_shown(state: State, seat: int) -> int:
    """'each face-up Power Depletion card subtracts an additional 5 Power': counted from the tracked cameras."""
    return face_up(state, seat, (DEPLETION,))


def most_reactions(state: State, seat: int | None) -> int:
    """'React to zero, one, or two face-up Animatronic or What Was That? cards': no more than the cameras can show.

    A location not tapped in to the end (no card, or only Animatronics) may still hold one such card; the cap is exact
    once every location shows the card its flipping stopped at.
    """
    if seat is None or not tracked(state, seat):
        return state["most_cards"]
    return min(state["most_cards"], face_up(state, seat, REACTABLE) + len(_open_locations(state, seat)))


def _open_locations(state: State, seat: int) -> list[str]:
    """The locations still being flipped: nothing tapped in yet, or only Animatronics."""
    return [location for location in locations(state) if _location_open(state, seat, location)]


def hallway_animatronics(state: State, seat: int) -> int:
    """The Animatronics face up in this guard's Hallway, the ones that reach the Office."""
    return cameras(state, seat).get(HALLWAY, []).count(ANIMATRONIC)


def unanswered_hallway(state: State, seat: int) -> bool:
    """An Animatronic in this guard's Hallway that their reaction surely didn't answer: it reaches the Office in
    Phase Three.

    The app can't see which cards a guard reacted to, only how many: reacting to NOTHING, or to fewer cards than the
    Hallway shows Animatronics, leaves one unanswered whichever cards they were. A paid reaction to as many may have
    answered them or not (see `_reaches_office`).
    """
    waiting = hallway_animatronics(state, seat)
    if not waiting or seat not in state["reacted"]:
        return False
    last = state["last_reactions"][str(seat)]
    return not last["paid"] or last["cards"] < waiting


def _location_open(state: State, seat: int, location: str) -> bool:
    """'continue revealing cards ... until you reveal a non-Animatronic card': a pile is flipped until such a card."""
    return all(card == ANIMATRONIC for card in cameras(state, seat).get(location, []))


def physical_bound(state: State) -> int:
    """The highest value a real Power die may be entered as: the largest face listed at setup (assumed faces).

    The rulebook shows only a 5 and a 10 ("He rolls a 5 and a 10"), so the real faces are unknown; a value above
    every listed face is far more likely a typo than a face, and a host whose dice go higher edits the faces.
    """
    return max(state["faces"])


def physical_lowest(state: State) -> int:
    """The lowest value a real Power die may be entered as: 1, or 0 when the host listed a 0 (blank) face.

    "subtract the total amount of power you rolled": a die normally subtracts something, so a typed 0 is refused
    as a slip, unless the faces the host checked against the box include a 0, in which case a real die can show it.
    """
    return 0 if 0 in state["faces"] else 1


def reaction_order(state: State) -> list[int]:
    """'The player with the most power on their Power Dial will react first. If there is a tie, the player who has a
    star icon showing on their dial reacts first.'"""
    return sorted(state["seats"], key=lambda seat: (-state["guards"][str(seat)]["power"], seat != state["star"]))


def name_of(state: State, seat: int) -> str:
    """A guard by their colour, as the log and the screens say it."""
    return state["guards"][str(seat)]["name"]


# ---- the round's steps -----------------------------------------------------------------------------------------------

def _ended(state: State) -> str | None:
    """Why no move is possible any more, or None."""
    if state["caught"] is not None:
        return f"The night is over: an Animatronic reached {name_of(state, state['caught'])}'s Office."
    if not state["clock_pile"]:
        return "It is already 6:00 AM: the night is over and time can't advance past it."
    return None


def advance_time(state: State, move: Move, rng: Any):
    """'Advance Time. Discard the top card of the Clock cards pile. The first round will be at 12:00 AM.'"""
    if state["phase"] == CAMERAS:
        raise IllegalAction("Finish this round first: flip the cameras (Phase One), react (Phase Two) and resolve "
                            "(Phase Three); then advance time.")
    if state["phase"] == REACT:
        waiting = [name_of(state, seat) for seat in state["order"] if seat not in state["reacted"]]
        raise IllegalAction(f"Phase Two isn't over: {' and '.join(waiting)} still "
                            f"{'has' if len(waiting) == 1 else 'have'} to react before time advances.")
    after = copied(state)
    discarded = after["clock_pile"].pop(0)
    now = current_time(after)
    if not after["clock_pile"]:
        after["phase"] = DAWN
        # The outcome ("6:00 AM! ...") follows this line in the log, so the time is not announced twice.
        return after, [Event(f"advanced time: {discarded} discarded, the board's 6:00 AM space shows and the night "
                             "shift is over.")]
    after["round"] += 1
    after["phase"] = CAMERAS
    after["cameras"] = {str(seat): {} for seat in state["seats"]}  # Phase Three discarded or shuffled every card
    _fix_order(after)
    after["reacted"] = []
    total = rounds_total(after)
    rest = total - after["round"]
    more = "the last round before 6:00 AM" if rest == 0 else f"{rest} more round{'s' if rest != 1 else ''} after this"
    return after, [Event(f"advanced time: {discarded} discarded, it is {now}, round {after['round']} of {total} "
                         f"({more}). Phase One: flip the cameras.")]


def cameras_flipped(state: State, move: Move, rng: Any):
    """Phase One is done on the cardboard; Phase Two starts in the reaction order fixed by the dials now."""
    if state["phase"] != CAMERAS:
        raise IllegalAction(_not_now(state, "Flipping the cameras is Phase One"))
    after = copied(state)
    after["phase"] = REACT
    _fix_order(after)
    return after, [Event(f"finished flipping the cameras. Phase Two: {_order_text(after)}.")]


def _fix_order(state: State) -> None:
    """Phase Two's order and the dials it was decided on (Phase Three resolves 'using Phase Two's turn order')."""
    state["order"] = reaction_order(state)
    state["order_powers"] = [state["guards"][str(seat)]["power"] for seat in state["order"]]


def _order_text(state: State) -> str:
    """Phase Two's order in words, with why (more power, or the star on a tie)."""
    order = state["order"]
    if len(order) == 1:
        return f"{name_of(state, order[0])} reacts"
    first, second = order
    first_power, second_power = state["order_powers"]
    why = (f"more power, {first_power} to {second_power}" if first_power != second_power
           else f"tied at {first_power}, the star is on {name_of(state, state['star'])}'s dial")
    return f"{name_of(state, first)} reacts first ({why}), then {name_of(state, second)}"


def _resolve_text(state: State) -> str:
    """'Resolve remaining face-up cards, using Phase Two's turn order, one at a time from the Hallway to the Show
    Stage', in the order the table's reading walks it."""
    names = [name_of(state, seat) for seat in state["order"]]
    if len(names) == 1:
        return f"resolve from the Hallway to the Show Stage ({names[0]})"
    if reading(state, "resolve") == "location":
        return (f"resolve location by location from the Hallway to the Show Stage, at each one {', then '.join(names)}")
    return f"resolve guard by guard, each from the Hallway to the Show Stage ({', then '.join(names)})"


def _not_now(state: State, what: str) -> str:
    """A refusal for a move out of its phase: what it needs, and what the table should do now."""
    phase = state["phase"]
    if phase == SETUP:
        return f"{what}; the night hasn't started. Advance time first: START is discarded and it becomes 12:00 AM."
    if phase == CAMERAS:
        return f"{what}; it is Phase One now. Flip the cameras, then tap 'Cameras flipped'."
    if phase == REACT:
        return f"{what}; it is Phase Two now: the guards are reacting."
    return f"{what}; it is Phase Three now: resolve your cards, then advance time."


def _roll(state: State, cards: int, values: list[int] | None, name: str, rng: Any) -> tuple[list[int], str]:
    """The dice: as entered (physical), or rolled with the table's seed on the faces in use (virtual)."""
    if cards == 0:
        return [], "none"
    if values is not None:
        return values, "physical"
    try:
        roll = rng.roll(power_math.power_dice(state["faces"], cards), f"Power dice for {name}")
    except DiceError as error:
        raise IllegalAction(str(error)) from None
    return [value for group in roll.values for value in group], "app"


def _reaction_text(state: State, cards: int, dice: list[int], depletion: int, cost: int, paid: bool,
                   before: int, source: str) -> str:
    """The log line of a reaction: the dice, the depletion, the sum and the dial, or NOTHING."""
    if cards == 0:
        ignored = (f" ({depletion} face-up Power Depletion card{'s' if depletion != 1 else ''} ignored: no dice "
                   "rolled)") if depletion else ""
        return f"reacted to no cards and kept {before} power{ignored}."
    die = "Power die" if len(dice) == 1 else "Power dice"
    sums = " + ".join(str(value) for value in dice)
    shown = f"the app rolled the {die} {sums}" if source == "app" else f"the real {die} showed {sums}"
    extra = (f", + {depletion * state['depletion_cost']} for {depletion} Power Depletion card"
             f"{'s' if depletion != 1 else ''}") if depletion else ""
    total = f"{extra} = {cost} power" if len(dice) > 1 or depletion else ""
    if paid:
        return (f"reacted to {cards} card{'s' if cards != 1 else ''}: {shown}{total}; "
                f"Power Dial {before} \u2192 {before - cost}.")
    return (f"tried to react to {cards} card{'s' if cards != 1 else ''}: {shown}{total}, more than the {before} "
            f"left. REACTS TO NOTHING! Yikes! No power subtracted; the Power Dial stays at {before}.")


# ---- the moves ------------------------------------------------------------------------------------------------------

MOVES = Moves("Survive 'Til 6AM", example='{"type": "advance-time"}',
              offer="isn't a move in Survive 'Til 6AM; you can advance time, finish flipping the cameras, react, or "
                    "say an animatronic reached an Office.",
              seat_name=name_of, no_seat="There is no guard at seat {seat} at this table.")


@MOVES.before_each
def _night_goes_on(state: State, move: Move, declared: MoveType) -> None:
    """Nothing happens after an Animatronic reached an Office or once 6:00 AM shows."""
    ended = _ended(state)
    if ended:
        raise IllegalAction(ended)


MOVES.move("advance-time", "Advancing time", label="Advance time")(advance_time)
MOVES.move("cameras-flipped", "Finishing Phase One", label="Cameras flipped: Phase Two")(cameras_flipped)


def _reacting(state: State, move: Any) -> int | None:
    """Whose reaction a move is: its actor, or on a form (no actor yet) the guard whose reaction it is."""
    seat = move.get("seat")
    return seat if seat is not None else reactor(state)


def _most_cards(state: State, move: Any) -> int:
    """The most cards the reacting guard may react to (the field's limit)."""
    return most_reactions(state, _reacting(state, move))


def _cards_refused(state: State, move: Any, value: Any) -> str:
    """Why a count of cards is refused: past the rulebook's two, or past what the cameras show."""
    seat, most = _reacting(state, move), state["most_cards"]
    if isinstance(value, int) and 0 <= value <= most and seat is not None:
        shown, most = face_up(state, seat, REACTABLE), most_reactions(state, seat)
        unknown = len(_open_locations(state, seat))
        still = f" and {plural(unknown, 'location')} not tapped in to the end" if unknown else ""
        return (f"{name_of(state, seat)}'s cameras show {plural(shown, 'card')} to react to (Animatronic or What Was "
                f"That?){still}, so react to {listing([str(count) for count in range(most + 1)], 'or')}, not "
                f"{value}. A camera tapped in wrong can be cleared and tapped again.")
    counts = listing([str(count) for count in range(most + 1)], "or")
    return (f"React to {counts} cards, not {value}: the rules allow 'zero, one, or two' face-up Animatronic or What "
            "Was That? cards.")


def _depletion_most(state: State, move: Any) -> int:
    """The most face-up Power Depletion cards (the field's limit)."""
    return most_depletion(state)


def _lowest_face(state: State, move: Any) -> int:
    """The lowest value a real Power die may be typed as (the field's limit)."""
    return physical_lowest(state)


def _highest_face(state: State, move: Any) -> int:
    """The highest value a real Power die may be typed as (the field's limit)."""
    return physical_bound(state)


def _die_too_low(state: State, move: Any, value: Any) -> str:
    """Why a die typed too low is refused: negative, or 0 where no face is blank."""
    if value < 0:
        return f"A Power die can't show a negative number like {value}."
    return ("A Power die subtracts power, so it can't show 0 (no 0 face was listed at setup); type the number on its "
            "face.")


def _die_too_high(state: State, move: Any, value: Any) -> str:
    """Why a die typed above the largest face listed at setup is refused."""
    return (f"A Power die can't show {value} at this table: its largest face is {physical_bound(state)} (the faces "
            "listed at setup). Check the die and type it again.")


def _dice_refused(state: State, move: Any, value: Any) -> str:
    """Why the dice typed are refused: not a list, an empty list, or a value that isn't a number."""
    values = move.get("values")
    if isinstance(values, list) and values:
        wrong = next((item for item in values if not isinstance(item, int) or isinstance(item, bool)), values[0])
        return f"Each Power die must be a whole number, not {quoted(wrong, 20)}."
    if isinstance(values, list):
        return "Leave the dice out when no die was rolled, or type what each die showed, like [5, 10]."
    return "Enter what the Power dice showed as a list of whole numbers, like [5, 10]."


def _die(name: str, label: str) -> Any:
    """One real die typed into its own box (die1, die2): the same limits as a die in `values`."""
    return Count(name, label, low=_lowest_face, high=_highest_face, optional=True, picked=False,
                 wrong="Each Power die must be a whole number, not {quoted}.", too_low=_die_too_low,
                 too_high=_die_too_high)


@MOVES.move("react", "Reacting",
            Count("cards", "the cards you react to", low=0, high=_most_cards,
                  ask="Say how many cards you react to: 0, 1 or 2.",
                  wrong="The number of cards to react to must be a whole number, not {quoted}.",
                  too_low=_cards_refused, too_high=_cards_refused),
            Count("depletion", "face-up Power Depletion cards", low=0, high=_depletion_most, optional=True,
                  wrong="The number of face-up Power Depletion cards must be a whole number, not {quoted}.",
                  too_low="The number of face-up Power Depletion cards can't be negative.",
                  too_high="At most {high} Power Depletion cards can be face up (one per location); you said "
                           "{value}.",
                  help="each adds 5 to the cost when a die is rolled"),
            Numbers("values", "what the real Power dice showed", length=10, low=_lowest_face, high=_highest_face,
                    optional=True, picked=True, wrong=_dice_refused, too_low=_die_too_low, too_high=_die_too_high,
                    help="physical dice only; leave out where the app rolls"),
            _die("die1", "the first Power die"), _die("die2", "the second Power die"),
            label="React")
def react(state: State, move: Move, rng: Any):
    """'React to zero, one, or two ... cards', roll one Power die per card, pay or react to NOTHING."""
    actor = move.actor
    if actor is None:
        raise IllegalAction("Each guard reacts from their own seat: open that guard's page (Play for ...) to react "
                            "for them.")
    if state["phase"] != REACT:
        raise IllegalAction(_not_now(state, "Reacting is Phase Two"))
    name = name_of(state, actor)
    if actor in state["reacted"]:
        raise IllegalAction(f"{name} has already reacted this round; each guard reacts once per round.")
    turn = reactor(state)
    if actor != turn:
        raise IllegalAction(f"Wait: it's {name_of(state, turn)}'s turn to react. {_order_text(state)}.")
    cards, depletion, note = move["cards"], move["depletion"], ""
    if tracked(state, actor):
        counted = depletion_shown(state, actor)
        if depletion is None:
            depletion = counted
        elif depletion != counted:
            note = (f" (typed {plural(depletion, 'Power Depletion card')} where the cameras show {counted}: the typed "
                    "count is used)")
    if depletion is None:
        if cards:
            raise IllegalAction(f"Say how many Power Depletion cards are face up in front of you (0 to "
                                f"{most_depletion(state)}): each adds 5 to the cost when you roll.")
        depletion = 0
    values = _entered_dice(state, move, cards)
    roll_values, source = _roll(state, cards, values, name, rng)
    dice_total = sum(roll_values)
    cost = power_math.reaction_cost(dice_total, cards, depletion, state["depletion_cost"])
    before = state["guards"][str(actor)]["power"]
    paid = cost <= before
    after = copied(state)
    guard = after["guards"][str(actor)]
    if paid:
        guard["power"] = before - cost
    after["reacted"].append(actor)
    after["last_reactions"][str(actor)] = {
        "round": state["round"], "time": current_time(state), "cards": cards, "dice": roll_values,
        "dice_total": dice_total, "depletion": depletion, "depletion_total": depletion * state["depletion_cost"]
        if cards else 0, "cost": cost, "paid": paid, "before": before, "after": guard["power"], "source": source}
    events = [Event(_reaction_text(state, cards, roll_values, depletion, cost, paid, before, source)[:-1] + note
                    + ".")]
    if unanswered_hallway(after, actor):
        events.append(Event(_hallway_warning(after, actor)))
    if len(after["reacted"]) == len(after["seats"]):
        after["phase"] = RESOLVE
        events.append(Event(f"Phase Three: {_resolve_text(after)}."))
    return after, events


def _hallway_warning(state: State, seat: int) -> str:
    """'if you don't (or can't) react to an Animatronic in the Hallway, it will move into your Office in Phase Three
    and you will LOSE THE GAME!'"""
    name = name_of(state, seat)
    if seat in state["reacted"]:
        return (f"Watch out: the Animatronic in {name}'s Hallway went unanswered. In Phase Three it moves into "
                f"{name}'s Office, and {name} loses.")
    return (f"An Animatronic is face up in {name}'s Hallway: react to it, or in Phase Three it moves into the Office "
            f"and {name} loses.")


def _entered_dice(state: State, move: Move, cards: int) -> list[int] | None:
    """What the real Power dice showed (physical tables), checked against the cards; None when the app rolls."""
    listed = move["values"]
    singles = [move[key] for key in ("die1", "die2") if move[key] is not None]
    if listed is not None and singles:
        raise IllegalAction("Give the dice either as a list of values or as die1 and die2, not both.")
    if state["power_dice"] == "virtual":
        if listed is not None or singles:
            raise IllegalAction("At this table the app rolls the Power dice; leave the dice values out.")
        return None
    if move["die2"] is not None and move["die1"] is None:
        raise IllegalAction("Enter the first die before the second.")
    values = singles or list(listed or [])
    if cards == 0:
        if values:
            raise IllegalAction("Reacting to no cards rolls no dice; leave the dice empty.")
        return []
    if len(values) != cards:
        dice = "1 Power die" if cards == 1 else f"{cards} Power dice"
        entered = "nothing" if not values else plural(len(values), "value")
        raise IllegalAction(f"Reacting to {plural(cards, 'card')} rolls {dice}; you entered {entered}. Type what "
                            f"{'it' if cards == 1 else 'each die'} showed.")
    return values


def _location_choices(state: State, move: Any) -> list[str]:
    """The locations a camera card can be tapped in at."""
    return locations(state)


def _no_location(state: State, move: Any, value: Any) -> str:
    """The sentence for a location that doesn't exist."""
    return (f"There is no {quoted(move.get('location'), 30)} camera: the locations are "
            f"{listing(locations(state))}.")


def _no_card(state: State, move: Any, value: Any) -> str:
    """The sentence for a Camera Monitor card that doesn't exist."""
    return (f"There is no {quoted(move.get('card'), 30)} Camera Monitor card: tap "
            f"{listing([f'{label} ({key})' for key, label in CARDS.items()], 'or')}.")


def _cameras_open(state: State, whose: int) -> None:
    """Cameras are tapped in during Phase One, or in Phase Two by a guard who hasn't reacted yet (a late entry)."""
    if state["phase"] == REACT and whose in state["reacted"]:
        raise IllegalAction(f"{name_of(state, whose)} has reacted already: the cameras counted for that reaction "
                            "stay as they were this round.")
    if state["phase"] not in (CAMERAS, REACT):
        raise IllegalAction(_not_now(state, "The cameras are flipped in Phase One"))


def _whose_cameras(state: State, move: Move) -> int:
    """The guard whose cameras a move names; the host must name one."""
    whose = move["whose"]
    if whose is None:
        raise IllegalAction("Say whose cameras: each guard flips their own piles.")
    return whose


@MOVES.move("flip", "Tapping in a camera",
            Whose("whose cameras", wrong="Say whose cameras by seat number, like 1.",
                  unknown="There is no guard at seat {value} at this table.",
                  not_yours="Each guard taps in their own cameras; the host can tap for either."),
            Choice("location", "the location", _location_choices, ask="Say which location the card was flipped at.",
                   wrong=_no_location),
            Choice("card", "the card revealed", tuple(CARDS), ask="Say which card was revealed there.",
                   wrong=_no_card),
            label="Flipped")
def flip(state: State, move: Move, rng: Any):
    """Phase One 'Flip Cards': the card a guard revealed at a location, as the table flipped it."""
    whose = _whose_cameras(state, move)
    _cameras_open(state, whose)
    location, card, name = move["location"], move["card"], name_of(state, whose)
    shown = cameras(state, whose).get(location, [])
    if not _location_open(state, whose, location):
        raise IllegalAction(f"{name}'s {location} already shows {_card_words(shown[-1])} card: a pile is flipped "
                            "only until a card that isn't an Animatronic.")
    total = sum(state["animatronics"].values())
    if card == ANIMATRONIC and face_up(state, whose, (ANIMATRONIC,)) >= total:
        raise IllegalAction(f"{name} has only {total} Animatronics, and all of them are face up already.")
    after = copied(state)
    after.setdefault("cameras", {str(seat): {} for seat in state["seats"]})
    after["cameras"][str(whose)].setdefault(location, []).append(card)
    more = " (keep flipping this pile until a card that isn't an Animatronic)" if card == ANIMATRONIC else ""
    return after, [Event(f"{name}'s cameras: {CARDS[card]} at the {location}{more}.")]


def _card_words(card: str) -> str:
    """A card with its article, as a sentence says it: 'an Empty Room'."""
    label = CARDS[card]
    return f"an {label}" if label[0] in "AEIOU" else f"a {label}"


@MOVES.move("clear-camera", "Clearing a camera",
            Whose("whose cameras", wrong="Say whose cameras by seat number, like 1.",
                  unknown="There is no guard at seat {value} at this table.",
                  not_yours="Each guard corrects their own cameras; the host can correct either."),
            Choice("location", "the location", _location_choices, ask="Say which location to clear.",
                   wrong=_no_location),
            label="Clear", correction=True)
def clear_camera(state: State, move: Move, rng: Any):
    """A slip in the cards tapped in at one location: clear them and tap again what the table shows."""
    whose = _whose_cameras(state, move)
    _cameras_open(state, whose)
    location, name = move["location"], name_of(state, whose)
    if not cameras(state, whose).get(location):
        raise IllegalAction(f"Nothing is tapped in at {name}'s {location} yet.")
    after = copied(state)
    after["cameras"][str(whose)].pop(location)
    return after, [Event(f"cleared {name}'s {location} camera to tap it in again.")]


@MOVES.move("star", "Moving the star",
            Whose("whose dial shows the star", wrong="Say whose dial shows the star by seat number, like 1.",
                  unknown="There is no guard at seat {value} at this table.",
                  not_yours="Say only that your own dial shows the star; the host can say it for either."),
            label="The star shows on this dial")
def star(state: State, move: Move, rng: Any):
    """'the player who has a star icon showing on their dial reacts first': at a table reading the star as following
    the dials, the table says in Phase One whose dial shows it, before the reaction order is fixed."""
    whose = move["whose"]
    if whose is None:
        raise IllegalAction("Say whose dial shows the star.")
    if len(state["seats"]) == 1:
        raise IllegalAction("With one guard there is no tie for the star to break.")
    if reading(state, "star_moves") == "fixed":
        raise IllegalAction(f"At this table the star stays on {name_of(state, state['star'])}'s dial all night, as "
                            "set up (the setup option 'Whose dial shows the star').")
    if state["phase"] != CAMERAS:
        raise IllegalAction(_not_now(state, "The star is checked in Phase One, before Phase Two's order is fixed"))
    if whose == state["star"]:
        raise IllegalAction(f"The star is on {name_of(state, whose)}'s dial already.")
    after = copied(state)
    after["star"] = whose
    _fix_order(after)
    return after, [Event(f"the star shows on {name_of(state, whose)}'s dial: {_order_text(after)}.")]


def _first_to_reach(state: State) -> int | None:
    """The guard whose Office the table already knows is reached first in Phase Three, or None when it can't tell.

    Phase Three resolves "using Phase Two's turn order, one at a time from the Hallway to the Show Stage", in the
    order the table's reading walks it. The first card on that walk that may reach an Office decides: when it surely
    does (an unanswered Hallway Animatronic "will move into your Office in Phase Three"), that guard's Office is
    reached first; when it only may (a What Was That? can carry a card into the Office: "If a card reaches your
    Office, reveal that card immediately"), nobody's is known. Which cards a guard answered is known only as far as
    the phones entered it.
    """
    for seat, location in _resolve_walk(state):
        reach = _reaches_office(state, seat, location)
        if reach != "never":
            return seat if reach == "surely" else None
    return None


def _resolve_walk(state: State) -> list[tuple[int, str]]:
    """Phase Three's (guard, location) in the order the `resolve` reading walks them."""
    if reading(state, "resolve") == "location":
        return [(seat, location) for location in locations(state) for seat in state["order"]]
    return [(seat, location) for seat in state["order"] for location in locations(state)]


def _reaches_office(state: State, seat: int, location: str) -> str:
    """Whether the cards at one of this guard's locations reach the Office this Phase Three: surely, maybe or never.

    An Animatronic moves one location closer, so only from the Hallway; a What Was That? moves the top card "one or
    two locations" or reveals one, so from the Hallway or the next location on. Power Depletion and Empty Rooms are
    discarded first. A location the phone didn't tap in to the end may hold anything.
    """
    steps = locations(state).index(location) + 1  # locations from here to the Office
    if location == HALLWAY and unanswered_hallway(state, seat):
        return "surely"
    if steps > 2 or _answered_all(state, seat):
        return "never"
    if not cameras(state, seat).get(location) or _location_open(state, seat, location):
        return "maybe"
    cards = cameras(state, seat)[location]
    carried = WHAT in cards or (steps == 1 and ANIMATRONIC in cards)
    return "maybe" if carried else "never"


def _answered_all(state: State, seat: int) -> bool:
    """Whether this guard surely answered every card that can move: a paid reaction to as many cards as the cameras,
    tapped in to the end, show to react to."""
    last = state["last_reactions"][str(seat)]
    if last is None or seat not in state["reacted"] or not tracked(state, seat) or _open_locations(state, seat):
        return False
    return last["paid"] and last["cards"] >= face_up(state, seat, REACTABLE)


@MOVES.move("office", "An animatronic in the Office",
            Whose("whose Office", wrong="Whose Office must be a whole number, not {quoted}.",
                  unknown="There is no guard at seat {value} at this table.",
                  not_yours="You can only report your own Office; the other guard reports theirs."),
            label="An Animatronic reached an Office")
def office(state: State, move: Move, rng: Any):
    """'If a single Animatronic moves into your Office, you immediately lose the game and the other player wins.'

    Only in Phase Three: 'if you don't (or can't) react to an Animatronic in the Hallway, it will move into your
    Office in Phase Three'. Phase Three resolves 'using Phase Two's turn order, one at a time', so if both Offices
    would be reached, the first one reached in that order is reported and ends the night ('immediately').
    """
    whose = move["whose"]
    if whose is None:
        raise IllegalAction("Say whose Office the animatronic reached.")
    if state["phase"] != RESOLVE:
        raise IllegalAction(_not_now(state, "Animatronics move into an Office only in Phase Three (Resolve)"))
    first = _first_to_reach(state)
    if first is not None and whose != first:
        raise IllegalAction(f"{name_of(state, first)}'s unanswered Hallway Animatronic is resolved first "
                            f"({_resolve_text(state)}) and no card resolved before it can reach an Office: it "
                            f"reaches {name_of(state, first)}'s Office before anything reaches "
                            f"{name_of(state, whose)}'s.")
    after = copied(state)
    after["caught"] = whose
    after["caught_at"] = current_time(state)
    return after, [Event(f"an Animatronic reached {name_of(state, whose)}'s Office!")]


apply = MOVES.apply


# ---- what each screen may do now: the steps of a round ---------------------------------------------------------------

def legal_actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """The complete moves this seat (None: the host) may make now, each accepted by `apply` as it is."""
    if (seat is not None and seat not in state["seats"]) or _ended(state):
        return []
    phase = state["phase"]
    if phase == CAMERAS:
        return _offer_flip_cards(state, seat) + _offer_star(state, seat)
    if phase == REACT:
        return _offer_react(state, seat)
    offers = _offer_advance_time(state)
    if phase == RESOLVE:
        offers += _offer_resolve(state, seat)
    return offers


def _offer_advance_time(state: State) -> list[dict[str, Any]]:
    """Phase One, step 1 'Advance Time': before the night and after Phase Three, anyone discards the Clock card."""
    return [{"type": "advance-time"}]


def _offer_flip_cards(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Phase One, step 2 'Flip Cards': 'Both players complete these steps simultaneously', then anyone ends it."""
    return [{"type": "cameras-flipped"}, *_offer_cameras(state, seat)]


def _offer_cameras(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Each card a guard may tap in at each location still being flipped, and a clear for each location tapped in.

    A phone taps its own cameras; the host either guard's. In Phase Two a guard who hasn't reacted may still tap in.
    """
    offers: list[dict[str, Any]] = []
    total = sum(state["animatronics"].values())
    for whose in state["seats"] if seat is None else [seat]:
        if state["phase"] == REACT and whose in state["reacted"]:
            continue
        more_animatronics = face_up(state, whose, (ANIMATRONIC,)) < total
        for location in locations(state):
            if _location_open(state, whose, location):
                offers += [{"type": "flip", "whose": whose, "location": location, "card": card} for card in CARDS
                           if card != ANIMATRONIC or more_animatronics]
            if cameras(state, whose).get(location):
                offers.append({"type": "clear-camera", "whose": whose, "location": location})
    return offers


def _offer_star(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Phase Two's 'If there is a tie, the player who has a star icon showing on their dial reacts first': where the
    star follows the dials, on a tie the table may say it shows on the other dial before the order is fixed."""
    powers = {state["guards"][str(number)]["power"] for number in state["seats"]}
    if len(state["seats"]) == 1 or len(powers) != 1 or reading(state, "star_moves") != "dial":
        return []
    return [{"type": "star", "whose": number} for number in (state["seats"] if seat is None else [seat])
            if number != state["star"]]


def _offer_react(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Phase Two 'React', for the guard whose reaction it is: save power, or react to 1 or 2 cards with a die each.

    A reaction offers a valid default for what the player picks: the Power Depletion cards the cameras show (none
    when nothing was tapped in) and, on a physical table, the lowest face each die can show; no more cards than the
    cameras show to react to. A guard who hasn't reacted may still tap in a camera.
    """
    late = _offer_cameras(state, seat)
    if seat is None or seat != reactor(state):
        return late
    offers: list[dict[str, Any]] = [{"type": "react", "cards": 0}]
    lowest = min(face for face in state["faces"] if face >= physical_lowest(state))
    depletion = depletion_shown(state, seat) if tracked(state, seat) else 0
    for cards in range(1, most_reactions(state, seat) + 1):
        offer = {"type": "react", "cards": cards, "depletion": depletion}
        if state["power_dice"] == "physical":
            offer["values"] = [lowest] * cards
        offers.append(offer)
    return offers + late


def _offer_resolve(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Phase Three 'Resolve': an Animatronic may reach an Office; a phone reports its own, the host names the guard.

    When an unanswered Hallway Animatronic is known to arrive before any other card can reach an Office, only that
    guard's Office is offered; otherwise each guard's, in whatever order the cards really reach them.
    """
    first = _first_to_reach(state)
    return [{"type": "office", "whose": number} for number in (state["seats"] if seat is None else [seat])
            if first is None or number == first]


def reactor(state: State) -> int | None:
    """Whose reaction it is (Phase Two only)."""
    if state["phase"] != REACT or _ended(state):
        return None
    return next((seat for seat in state["order"] if seat not in state["reacted"]), None)


# ---- the end, the view -----------------------------------------------------------------------------------------------

def outcome(state: State) -> Outcome | None:
    """An Animatronic in an Office ends the night at once; at 6:00 AM the survivors' power decides."""
    seats = state["seats"]
    if state["caught"] is not None:
        loser = state["caught"]
        name = name_of(state, loser)
        if len(seats) == 1:
            return Outcome((), f"An Animatronic reached {name}'s Office at {state['caught_at']}: the night is lost.")
        winner = next(seat for seat in seats if seat != loser)
        return Outcome((winner,), f"An Animatronic reached {name}'s Office at {state['caught_at']}: {name} loses "
                                  f"and {name_of(state, winner)} wins!")
    if state["clock_pile"]:
        return None
    powers = {seat: state["guards"][str(seat)]["power"] for seat in seats}
    if len(seats) == 1:
        seat = seats[0]
        return Outcome((seat,), f"6:00 AM! {name_of(state, seat)} survived the night with {powers[seat]} power "
                                "left and wins.")
    best = max(powers.values())
    winners = tuple(seat for seat in seats if powers[seat] == best)
    if len(winners) == 2:
        return _tie(state, best)
    winner = winners[0]
    other = next(seat for seat in seats if seat != winner)
    return Outcome(winners, f"6:00 AM! Both guards survived; {name_of(state, winner)} wins with {best} power left "
                            f"to {name_of(state, other)}'s {powers[other]}.")


def _tie(state: State, best: int) -> Outcome:
    """'the player with the most power remaining wins!' says nothing of equal power: the table's reading decides."""
    seats, how = state["seats"], reading(state, "tie")
    both = f"6:00 AM! Both guards survived with {best} power each"
    if how == "star":
        star = state["star"]
        return Outcome((star,), f"{both}; the star on {name_of(state, star)}'s dial breaks the tie: "
                                f"{name_of(state, star)} wins.")
    if how == "nobody":
        return Outcome((), f"{both}: neither has the most power remaining, so nobody wins.")
    return Outcome(tuple(seats), f"{both}: a shared win for {name_of(state, seats[0])} and "
                                 f"{name_of(state, seats[1])}.", shared=True)


def invariants(state: State) -> list[str]:
    """What the box guarantees at every step: each Power Dial between 0 and where it started ('If you ever have to
    subtract more power from your Power Dial than you have power, you don't subtract power'), the Clock pile a tail of
    its cards, at most one card that isn't an Animatronic per location, and no more Animatronics than a guard has."""
    checks = []
    for seat in state["seats"]:
        name, power = name_of(state, seat), state["guards"][str(seat)]["power"]
        checks.append((0 <= power <= state["dial_start"],
                       f"{name}'s Power Dial shows {power}, outside 0 to {state['dial_start']}."))
        shown = cameras(state, seat)
        checks.append((all(card == ANIMATRONIC for cards in shown.values() for card in cards[:-1]),
                       f"{name}'s cameras show a card after the one that isn't an Animatronic."))
        checks.append((face_up(state, seat, (ANIMATRONIC,)) <= sum(state["animatronics"].values()),
                       f"{name}'s cameras show more Animatronics than the guard has."))
    cards, pile = state["clock_cards"], state["clock_pile"]
    checks.append((pile == cards[len(cards) - len(pile):], "The Clock pile isn't the bottom of the Clock cards."))
    checks.append((state["round"] == min(len(cards) - len(pile), rounds_total(state)),
                   f"Round {state['round']} doesn't match the {len(cards) - len(pile)} Clock cards discarded."))
    checks.append((state["caught"] is None or state["phase"] == RESOLVE,
                   "An Animatronic reached an Office outside Phase Three."))
    return broken(checks)


def forecast(state: State, seat: int) -> list[dict[str, Any]]:
    """Before rolling: per count of face-up Power Depletion cards, the chance 1 or 2 dice cost more than the power
    left (react to NOTHING) and how many such reactions the dial pays for on average (faces in use: assumed)."""
    left = state["guards"][str(seat)]["power"]
    faces = tuple(state["faces"])
    rows = []
    for depletion in range(most_depletion(state) + 1):
        cells = []
        for cards in range(1, state["most_cards"] + 1):
            over = power_math.chance_over(faces, cards, depletion, state["depletion_cost"], left)
            lasts = power_math.expected_affordable(faces, cards, depletion, state["depletion_cost"], left)
            cells.append({"cards": cards, "over": power_math.percent(over), "over_exact": str(over),
                          "lasts": f"{float(lasts):.1f}", "lasts_exact": str(lasts)})
        rows.append({"depletion": depletion, "cells": cells})
    return rows


def board_check(state: State) -> list[str]:
    """What the cardboard should show right now, to compare at a glance."""
    pile = state["clock_pile"]
    if pile:
        lines = [f"Clock pile: {pile[0]} on top, {plural(len(pile), 'card')} on the pile, "
                 f"{len(state['clock_cards']) - len(pile)} discarded."]
    else:
        lines = ["Clock pile: every card discarded, the board's 6:00 AM space shows."]
    for seat in state["seats"]:
        guard = state["guards"][str(seat)]
        lines.append(f"{guard['name']}'s Power Dial: {guard['power']}.")
    if len(state["seats"]) == 2:
        how = "chosen at setup" if reading(state, "star_moves") == "fixed" else "follows the dials"
        lines.append(f"The star: on {name_of(state, state['star'])}'s dial (reacts first on a tie; {how}).")
    for seat in state["seats"]:
        if tracked(state, seat):
            lines.append(_cameras_line(state, seat))
    return lines


def _cameras_line(state: State, seat: int) -> str:
    """One guard's face-up cards per location and in all, as tapped in this round."""
    shown = cameras(state, seat)
    places = "; ".join(f"{location} {', '.join(CARDS[card] for card in shown[location])}"
                       for location in locations(state) if shown.get(location))
    counts = listing(plural(face_up(state, seat, (card,)), f"{CARDS[card]} card")
                     for card in CARDS if face_up(state, seat, (card,)))
    return f"{name_of(state, seat)}'s cameras face up: {counts} ({places})."


def _camera_rows(state: State, seat: int) -> dict[str, Any]:
    """A guard's four locations for the screens: the cards face up there, and whether the pile is still flipped."""
    shown = cameras(state, seat)
    rows = [{"location": location, "cards": [CARDS[card] for card in shown.get(location, [])],
             "keys": list(shown.get(location, [])), "open": _location_open(state, seat, location)}
            for location in locations(state)]
    return {"locations": rows, "tracked": tracked(state, seat), "reactable": face_up(state, seat, REACTABLE),
            "depletion": depletion_shown(state, seat), "most_reactions": most_reactions(state, seat),
            "counts": {card: face_up(state, seat, (card,)) for card in CARDS}}


def _status(state: State, seat: int) -> str:
    """A few words under a guard's dial: their part in the round now."""
    if _ended(state):
        return f"{state['guards'][str(seat)]['power']} power left"
    if seat == reactor(state):
        return "Reacting now"
    if seat in state["reacted"]:
        return "Reacted"
    if state["phase"] == REACT:
        return "Waiting to react"
    if len(state["seats"]) == 2 and seat == state["star"]:
        return "Star: first on a tie"
    return ""


def _nothing(state: State, seat: int) -> str | None:
    """'react to NOTHING. Yikes!': shouted on every screen for the rest of the round in which it happened."""
    last = state["last_reactions"][str(seat)]
    if _ended(state) or last is None or last["paid"] or last["round"] != state["round"]:
        return None
    name = name_of(state, seat)
    return (f"{name} reacts to NOTHING! Yikes! {last['cost']} power is more than the {last['before']} left: no power "
            f"subtracted, and {name}'s cards go unanswered into Phase Three.")


def _last_text(last: dict[str, Any] | None) -> str:
    """A guard's latest reaction in short: '1:00 AM: 5 + 10 + 5 depletion = 20 → 80'."""
    if last is None:
        return ""
    if last["cards"] == 0:
        ignored = f" ({last['depletion']} Power Depletion ignored)" if last["depletion"] else ""
        return f"{last['time']}: no cards, no dice{ignored}"
    text = f"{last['time']}: {' + '.join(str(value) for value in last['dice'])}"
    if last["depletion"]:
        text += f" + {last['depletion_total']} depletion"
    if len(last["dice"]) > 1 or last["depletion"]:
        text += f" = {last['cost']}"
    text += f" → {last['after']}" if last["paid"] else f", more than {last['before']}: NOTHING"
    return text + (" (app roll)" if last["source"] == "app" else "")


def _warning(state: State, seat: int) -> str | None:
    """Before Phase Three: an Animatronic in this guard's Hallway still to answer, or left unanswered."""
    if state["phase"] not in (CAMERAS, REACT, RESOLVE) or _ended(state) or not hallway_animatronics(state, seat):
        return None
    if seat in state["reacted"] and not unanswered_hallway(state, seat):
        return None
    return _hallway_warning(state, seat)


def _turn_text(state: State) -> str:
    """Whom the table waits for, in words: the phase's job, or the guard whose reaction it is."""
    over = outcome(state)
    if over is not None:
        return over.text
    phase = state["phase"]
    if phase == SETUP:
        return "Set up the board, then advance time: START is discarded and it becomes 12:00 AM."
    if phase == CAMERAS:
        return f"{current_time(state)}, Phase One: flip the cameras, then tap 'Cameras flipped'."
    if phase == REACT:
        return f"{name_of(state, reactor(state))} reacts now."
    return "Phase Three: resolve the cards from the Hallway to the Show Stage, then advance time."


READING_WORDS = {  # (the reading, its value): a sentence for the screens and docs, and a few words beside a control
    ("tie", "shared"): ("Equal power at 6:00 AM is a shared win.", "a tie at 6:00 AM: shared win"),
    ("tie", "star"): ("Equal power at 6:00 AM: the guard whose dial shows the star wins.",
                      "a tie at 6:00 AM: the star wins"),
    ("tie", "nobody"): ("Equal power at 6:00 AM: nobody wins.", "a tie at 6:00 AM: nobody wins"),
    ("star_moves", "fixed"): ("The star stays on the dial chosen at setup all night.", "star fixed for the night"),
    ("star_moves", "dial"): ("The star follows the dials: on a tie in Phase One the table says whose dial shows it.",
                             "star follows the dials"),
    ("resolve", "guard"): ("Phase Three goes guard by guard in Phase Two's order, each from the Hallway to the Show "
                           "Stage.", "guard by guard"),
    ("resolve", "location"): ("Phase Three goes location by location from the Hallway, at each one in Phase Two's "
                              "order.", "location by location"),
}




def _advance_label(state: State) -> str:
    """The words on the Advance time button: what the next Clock card shows, or that it ends the night."""
    if state["phase"] == SETUP:
        return f"Advance time: START \u2192 {_next_time(state)}"
    if len(state["clock_pile"]) == 1:
        return f"Advance time \u2192 {DAWN_CARD}: end the night"
    return f"Advance time \u2192 {_next_time(state)}"


def _capital(text: str) -> str:
    """A sentence's first letter in capitals, the rest as it is (names keep theirs)."""
    return text[:1].upper() + text[1:]


def _next_time(state: State) -> str:
    """What the Clock pile shows after the next advance."""
    return state["clock_pile"][1] if len(state["clock_pile"]) > 1 else DAWN_CARD


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Everything (nothing is hidden), plus what the screens show: the time, the guards, the phase, the odds."""
    seat = viewer.seat
    shown = copied(state)
    total = rounds_total(state)
    now = reactor(state)
    over = _ended(state) is not None
    fixed = copied(state)
    if not state["order"]:
        _fix_order(fixed)
    title, reminder = PHASES[state["phase"]]
    guards = [
        {"seat": number, **state["guards"][str(number)], "star": len(state["seats"]) == 2 and number == state["star"],
         "reacted": number in state["reacted"], "reacting": number == now,
         "last": state["last_reactions"][str(number)],
         "dial": _dial(state["guards"][str(number)]["power"], state["dial_start"]),
         "cameras": _camera_rows(state, number), "warning": _warning(state, number),
         "status": _status(state, number), "last_text": _last_text(state["last_reactions"][str(number)]),
         "nothing": _nothing(state, number)}
        for number in state["seats"]]
    moves = legal_actions(state, seat) if viewer.moves else []
    shown |= {
        "time": current_time(state),
        "rounds_total": total,
        "rounds_after": total - state["round"] if state["round"] else total,
        "dawn": not state["clock_pile"],
        "next_time": _next_time(state),
        "last_round": len(state["clock_pile"]) == 1,  # the 5:30 AM card is on top: the next advance ends the night
        "advance_label": _advance_label(state),
        "over": over,
        "reactor": now,
        "reactor_name": name_of(state, now) if now is not None else None,
        "upcoming_order": fixed["order"],
        "order_names": [name_of(state, number) for number in fixed["order"]],
        "order_text": _order_text(fixed),
        "phase_title": title,
        "phase_reminder": reminder,
        "guard_list": guards,
        "mine": next((guard for guard in guards if guard["seat"] == seat), None),
        "can_react": any(move["type"] == "react" for move in moves),
        "forecast": forecast(state, seat) if seat in state["seats"] and not over else [],
        "most_depletion": most_depletion(state),
        "physical_bound": physical_bound(state),
        "physical_lowest": physical_lowest(state),
        "setup_checklist": setup_checklist(state),
        "card_labels": dict(CARDS),
        "readings": readings_shown(state, READINGS, READING_WORDS),
        "resolve_text": _capital(_resolve_text(fixed)),
        "warnings": [guard["warning"] for guard in guards if guard["warning"]],
    }
    return shown | seen(viewer, moves=moves, turn=[now] if now is not None else [], turn_text=_turn_text(state),
                        board_check=board_check(state))


def setup_checklist(state: State) -> list[str]:
    """The piles and dials of 'Setup', per guard, for the host screen before the first round."""
    solo = len(state["seats"]) == 1
    lines = [f"Board: the {'1-player' if solo else '2-player'} side up; the two Power dice nearby."]
    colours = "the orange" if solo else "each guard's own (orange, purple)"
    lines.append(f"Camera Monitor cards: {colours}; take out the 4 Animatronics, shuffle the rest.")
    for location, count in state["piles"].items():
        animatronics = state["animatronics"].get(location, 0)
        extra = f", then shuffle in {animatronics} Animatronic{'s' if animatronics != 1 else ''}" if animatronics \
            else ""
        lines.append(f"{location}: {count} cards face down{extra}.")
    lines.append(f"Power Dial{'s' if not solo else ''} at {state['dial_start']}.")
    lines.append("Clock cards: 12:00 AM to 5:30 AM counting down on the 6:00 AM space, START on top.")
    return lines


def _dial(power: int, start: int) -> dict[str, Any]:
    """The numbers an SVG dial needs: the filled share of a circle with pathLength 100."""
    share = max(0, min(100, round(100 * power / start))) if start else 0
    return {"share": share, "rest": 100 - share, "low": share <= 25}


def figures(state: State) -> dict[str, Any]:
    """For the history: each guard's power left, who was caught and when, and the power at 6:00 AM of a night
    survived (the contract's optional `figures`; reads only the state)."""
    dawn = not state["clock_pile"] and state["caught"] is None
    seats = {}
    for seat in state["seats"]:
        guard = state["guards"][str(seat)]
        status = ("caught: an Animatronic reached the Office" if state["caught"] == seat
                  else "survived to 6:00 AM" if dawn else None)
        seats[str(seat)] = {"score": guard["power"], "status": status,
                            "details": [["Power Dial", f"{guard['power']} of {state['dial_start']}"]],
                            "records": {"Power at 6:00 AM": guard["power"]} if dawn else {}}
    side = None
    if state["caught"] is not None:
        others = [state["guards"][str(seat)]["name"] for seat in state["seats"] if seat != state["caught"]]
        side = others[0] if others else "The Animatronics"
    elif dawn:
        winners = outcome(state).winners
        side = (name_of(state, winners[0]) if len(winners) == 1 else "Both guards" if winners
                else "Nobody (a tie)")
    ended = state["caught_at"] or ("6:00 AM" if not state["clock_pile"] else state["clock_pile"][0])
    # Power decides only between survivors at 6:00 AM: a guard whose Office was entered loses whatever power is left.
    decides = True if dawn else False if state["caught"] is not None else None
    return {"score": "power left", "side": side, "scenario": None, "seats": seats, "score_decides": decides,
            "facts": [["The night ended at", ended], ["Rounds played", state["round"]]]}


_SEAT_OR_NULL = {"type": ["integer", "null"]}
_REACTION = {"oneOf": [{"type": "null"}, {
    "type": "object",
    "required": ["round", "time", "cards", "dice", "dice_total", "depletion", "depletion_total", "cost", "paid",
                 "before", "after", "source"],
    "properties": {"cards": {"type": "integer", "minimum": 0}, "dice": {"type": "array", "items": {"type": "integer"}},
                   "cost": {"type": "integer", "minimum": 0}, "paid": {"type": "boolean"},
                   "source": {"enum": ["none", "physical", "app"]}}}]}
_CAMERAS = {"type": "object", "required": ["locations", "tracked", "reactable", "depletion", "most_reactions",
                                            "counts"],
            "properties": {"locations": {"type": "array", "items": {
                "type": "object", "required": ["location", "cards", "keys", "open"],
                "properties": {"location": {"type": "string"}, "cards": {"type": "array", "items": {"type": "string"}},
                               "keys": {"type": "array", "items": {"enum": list(CARDS)}},
                               "open": {"type": "boolean"}}}},
                           "tracked": {"type": "boolean"}, "reactable": {"type": "integer", "minimum": 0},
                           "depletion": {"type": "integer", "minimum": 0},
                           "most_reactions": {"type": "integer", "minimum": 0},
                           "counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}}}
_GUARD = {"type": "object", "required": ["seat", "colour", "name", "power", "star", "reacted", "reacting", "last",
                                         "dial", "cameras", "warning", "status", "last_text", "nothing"],
          "properties": {"seat": {"type": "integer", "minimum": 1}, "colour": {"enum": list(NAMES)},
                         "name": {"type": "string"}, "power": {"type": "integer", "minimum": 0},
                         "star": {"type": "boolean"}, "reacted": {"type": "boolean"}, "reacting": {"type": "boolean"},
                         "last": _REACTION,
                         "dial": {"type": "object", "required": ["share", "rest", "low"],
                                  "properties": {"share": {"type": "integer", "minimum": 0, "maximum": 100},
                                                 "rest": {"type": "integer", "minimum": 0, "maximum": 100},
                                                 "low": {"type": "boolean"}}},
                         "cameras": _CAMERAS, "warning": {"type": ["string", "null"]},
                         "status": {"type": "string"}, "last_text": {"type": "string"},
                         "nothing": {"type": ["string", "null"]}}}
_STRINGS = {"type": "array", "items": {"type": "string"}}
VIEW_SCHEMA = {
    "type": "object",
    "required": ["seats", "guards", "star", "dial_start", "clock_cards", "clock_pile", "round", "phase", "order",
                 "reacted", "last_reactions", "caught", "caught_at", "power_dice", "faces", "time", "rounds_total",
                 "rounds_after", "dawn", "next_time", "last_round", "advance_label", "over", "reactor",
                 "reactor_name", "upcoming_order", "order_names", "order_text", "phase_title", "phase_reminder",
                 "guard_list", "mine", "can_react", "forecast", "most_depletion", "physical_bound",
                 "physical_lowest", "setup_checklist", "card_labels", "warnings", "readings", "resolve_text"],
    "properties": {
        "seats": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        "guards": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["colour", "name", "power"],
            "properties": {"colour": {"enum": list(NAMES)}, "name": {"type": "string"},
                           "power": {"type": "integer", "minimum": 0}}}},
        "star": {"type": "integer", "minimum": 1},
        "dial_start": {"type": "integer", "minimum": 1},
        "clock_cards": _STRINGS,
        "clock_pile": _STRINGS,
        "round": {"type": "integer", "minimum": 0},
        "phase": {"enum": [SETUP, CAMERAS, REACT, RESOLVE, DAWN]},
        "order": {"type": "array", "items": {"type": "integer"}},
        "order_powers": {"type": "array", "items": {"type": "integer"}},
        "reacted": {"type": "array", "items": {"type": "integer"}},
        "last_reactions": {"type": "object", "additionalProperties": _REACTION},
        "caught": _SEAT_OR_NULL,
        "caught_at": {"type": ["string", "null"]},
        "power_dice": {"enum": ["physical", "virtual"]},
        "faces": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "depletion_cost": {"type": "integer", "minimum": 0},
        "most_cards": {"type": "integer", "minimum": 1},
        "piles": {"type": "object", "additionalProperties": {"type": "integer"}},
        "animatronics": {"type": "object", "additionalProperties": {"type": "integer"}},
        "time": {"type": "string"},
        "rounds_total": {"type": "integer"},
        "rounds_after": {"type": "integer", "minimum": 0},
        "dawn": {"type": "boolean"},
        "next_time": {"type": "string"},
        "last_round": {"type": "boolean"},
        "advance_label": {"type": "string"},
        "over": {"type": "boolean"},
        "reactor": _SEAT_OR_NULL,
        "reactor_name": {"type": ["string", "null"]},
        "upcoming_order": {"type": "array", "items": {"type": "integer"}},
        "order_names": _STRINGS,
        "order_text": {"type": "string"},
        "phase_title": {"type": "string"},
        "phase_reminder": _STRINGS,
        "guard_list": {"type": "array", "items": _GUARD},
        "mine": {"oneOf": [{"type": "null"}, _GUARD]},
        "can_react": {"type": "boolean"},
        "forecast": {"type": "array", "items": {
            "type": "object", "required": ["depletion", "cells"],
            "properties": {"depletion": {"type": "integer", "minimum": 0},
                           "cells": {"type": "array", "items": {
                               "type": "object", "required": ["cards", "over", "over_exact", "lasts", "lasts_exact"],
                               "properties": {"over": {"type": "string"}, "lasts": {"type": "string"}}}}}}},
        "most_depletion": {"type": "integer", "minimum": 0},
        "physical_bound": {"type": "integer", "minimum": 1},
        "physical_lowest": {"type": "integer", "minimum": 0},
        "setup_checklist": _STRINGS,
        "locations": _STRINGS,
        "cameras": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": {"type": "array", "items": {"enum": list(CARDS)}}}},
        "card_labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "warnings": _STRINGS,
        "readings": {"type": "object", "additionalProperties": {
            "type": "object", "required": ["value", "text", "short", "label", "source"],
            "properties": {"value": {"type": "string"}, "text": {"type": "string"}, "short": {"type": "string"},
                           "label": {"type": "string"}, "source": {"enum": ["verified", "assumed"]}}}},
        "resolve_text": {"type": "string"},
    },
}
