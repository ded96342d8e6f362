"""Camp Crystal Lake's rules: five nights of turns, Jason attacks, the Cabin's Bravery track and drop-off scoring.

Pure: no Flask, no SQLAlchemy. The cardboard stays on the table; the app records what each search drew, who returned
in which order, and does the end-of-night arithmetic (scoring.py). Cards the app can't see (the Critical Supply card,
Fear card texts, which Fear cards are Defense cards) are entered by the people who can.

Readings of loose rules, each a setup option labelled assumed and shown on the screens that depend on it (the same
list is in docs/games/crystal-lake.md):

- The Critical Supply set (`critical_set`): "If you are the first player to return with the Supplies shown on the
  Critical Supply Card, gain the points shown on the card." The Backpack saves Supplies "to be traded at the end of
  another day". Default `board`: the set is checked on what the counselor found tonight (the Player Board and a
  Hidden Stash); `backpack`: the Backpack's saved Supplies count too.
- The Hidden Stash Fear Card: "Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do
  not need to be returned to the bag." is the only sentence about it, so each limit the app puts on it is a reading:
  how many a counselor has in play (`stash_cards`: default `one` at a time; `any`), when Supplies go onto it
  (`stash_when`: default `any-time` during the night, as no action; `when-played`: only as the card is played,
  before the next counselor's turn), and what happens to it at the night's drop-off (`stash_end`: default
  `drop-off`, its Supplies dropped off with the board and the card discarded; `stays`, safe in play until the last
  drop-off).

Readings the text settles, or that no option would change, kept in the code:

- Return to the Cabin is always a turn's action ("Each turn a player may do one of three things: Search for Supplies
  ◊ Play a Fear Card ◊ Return to the Cabin"), even before the host has typed the night's Critical Supply card: the
  Cabin remembers what each counselor brought back, and the claim is checked when the card is entered (at once if it
  already was). The card can be entered until the first drop-off of the night.
- A Second Jason Attack claims no Critical Supply: "Drawing two Jason Tokens causes a Second Jason Attack, forcing you
  to flee to the Cabin without any Bonuses."
- The Hidden Stash keeps its Supplies through a Second Jason Attack (the sentence above), and they count as found
  tonight for the Critical Supply. A Jason token can't go on it.
- "An Escape Token may be discarded by its owner at any time and does not count as an action.": any time, even when it
  sends no Jason back ("This token may be discarded to remove a Jason Token on their Player Board on another night":
  it sends one back only on another night than it was gained, from a board that holds one).
- Turns go round the table, which the app can't see: "each Player taking turns". Until the host enters the seating
  (`seating`, shown as assumed on the screens), seat order stands for it.
- "The last player to Return to the Cabin also takes the first turn on the next night."
- A tie after the fifth night is shared: "The player with the most points is the winner!" names no tie-break.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from ...reading import quoted
from ..contract import Event, IllegalAction, Outcome, Viewer, broken, copied, seen
from ..moves import Choice, Count, Field, Move, Moves, MoveType, Numbers, SeatField, Whose
from ..options import reading_in_force, readings_shown
from ..words import listing, percent, plural
from . import CRITICAL_SET, PROFILE, STASH_CARDS, STASH_END, STASH_WHEN
from .scoring import (
    MAX_TOKENS,
    NAMES,
    SUPPLIES,
    ScoringError,
    bonuses,
    counted,
    keep_label,
    keep_options,
    name,
    score,
    values_from_profile,
    without,
)

State = dict[str, Any]
TOKENS = (*SUPPLIES, "jason")  # what a search can draw
MAX_FEAR_CARDS = int(PROFILE["fear_cards"].value)  # "64 Fear Cards" in the box
MAX_CRITICAL_POINTS = 99
MAX_BOX_COUNT = 99
BOX_TOKENS = MAX_TOKENS  # "67 Supply Tokens ... include the Jason Supply Tokens": never more out of the bag
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th")
READINGS = {option.key: option for option in (CRITICAL_SET, STASH_CARDS, STASH_WHEN, STASH_END)}
HIDDEN_STASH = "hidden-stash"
FEAR_CARDS = {"other": "a Fear Card", HIDDEN_STASH: "the Hidden Stash Fear Card"}
NOTHING = "nothing"  # the Backpack choice that saves no Supply


def seat_name(seat: int) -> str:
    """The seat as the setup names it ('Counselor 2'); the server adds the player's own name to log lines."""
    return f"Counselor {seat}"


def token_name(token: str, count: int = 2) -> str:
    """'Axes', 'Jason tokens', '1 Jason token' style names without the number."""
    if token == "jason":
        return "Jason token" if count == 1 else "Jason tokens"
    return name(token, count)


def empty_board() -> dict[str, int]:
    return dict.fromkeys(TOKENS, 0)


def empty_stash() -> dict[str, int]:
    return dict.fromkeys(SUPPLIES, 0)


def new_state(seats: list[int], options: dict[str, Any], profile: dict[str, Any]) -> State:
    """Night 1: Night Marker on Night 1, one Jason token on each later night, five Fear cards each, empty boards."""
    first = options.get("first_player", seats[0])
    dealt = profile["fear_cards_dealt"]
    return {
        "seats": list(seats),
        "order": list(seats),  # round the table: seat order until the host enters the seating
        "mode": options.get("mode", "advanced"),
        "readings": {key: options.get(key, option.default) for key, option in READINGS.items()},
        "nights": profile["nights"],
        "night": 1,
        "phase": "night",  # night -> drop-off -> night ... -> over
        "starter": first,
        "turn": first,
        "values": values_from_profile(profile["supply_values"]),
        "bravery_points": list(profile["bravery_points"]),
        "cabin": [],  # this night's Return to the Cabin spaces, in order
        "critical": None,  # {"set": {supply: n}, "points": n, "claimed_by": seat | None}
        "box": None,  # the Camp Bag's tokens as the host counted them from the box (all of them)
        "players": {str(seat): {"board": empty_board(), "backpack": [], "escape": False, "escape_night": None,
                                "fear_cards": dealt, "returned": False, "dropped": False, "nights": [],
                                "stash": empty_stash(), "stash_card": False, "stash_open": False}
                    for seat in seats},
        "last_drop_offs": [],  # the breakdowns of the night just scored, for every screen
    }


# ---- reading the state ---------------------------------------------------------------------------------------------

def reading(state: State, key: str) -> str:
    """The reading in force at this table; a table stored before readings were options plays with the defaults."""
    return reading_in_force(state, READINGS, key)


def stash_of(player: dict[str, Any]) -> dict[str, int]:
    """The Supplies on the counselor's Hidden Stash (none for a table stored before the Hidden Stash was kept)."""
    return player.get("stash") or empty_stash()


def jason_waiting(state: State) -> int:
    """Jason tokens still on the night track: one on each night after the current one."""
    return state["nights"] - state["night"]


def out_of_bag(state: State) -> dict[str, int]:
    """Tokens that are not in the Camp Bag now: on Player Boards, Hidden Stashes, Backpacks, the night track."""
    out = dict.fromkeys(TOKENS, 0)
    for player in state["players"].values():
        for token, count in player["board"].items():
            out[token] += count
        for supply, count in stash_of(player).items():
            out[supply] += count
        for supply in player["backpack"]:
            out[supply] += 1
    out["jason"] += jason_waiting(state)
    return out


def bag_now(state: State) -> dict[str, int] | None:
    """What the Camp Bag holds right now, if the host has counted the box; None until then."""
    if state["box"] is None:
        return None
    out = out_of_bag(state)
    return {token: state["box"][token] - out[token] for token in TOKENS}


def found_tonight(player: dict[str, Any]) -> dict[str, int]:
    """The Supplies found tonight: the Player Board (no Jason) and the Hidden Stash."""
    stash = stash_of(player)
    return {supply: player["board"][supply] + stash[supply] for supply in SUPPLIES}


def stash_dropped(state: State) -> bool:
    """Whether tonight's drop-off takes the Hidden Stash: by the `stash_end` reading, and always after the last night
    ('all Supplies (including those in Backpacks) are dropped off')."""
    return reading(state, "stash_end") == "drop-off" or state["night"] == state["nights"]


def pool_of(state: State, player: dict[str, Any]) -> dict[str, int]:
    """The supplies a player drops off or saves tonight: the Player Board, the Backpack, and the Hidden Stash unless
    it stays in play."""
    pool = found_tonight(player) if stash_dropped(state) else {supply: player["board"][supply] for supply in SUPPLIES}
    for supply in player["backpack"]:
        pool[supply] += 1
    return pool


def carried(state: State, player: dict[str, Any]) -> dict[str, int]:
    """What the Critical Supply set is checked on, by the reading in force (`critical_set`)."""
    if reading(state, "critical_set") != "backpack":
        return found_tonight(player)
    held = found_tonight(player)
    for supply in player["backpack"]:
        held[supply] += 1
    return held


def holds_set(board: Mapping[str, int], wanted: Mapping[str, int]) -> bool:
    return all(board.get(supply, 0) >= count for supply, count in wanted.items())


def next_turn(state: State, after: int) -> int | None:
    """The next seat by seat number after `after` that is still searching; None if everyone returned.

    The rulebook says only "each Player taking turns": seat order stands for going round the table until the host
    enters the seating (`seating`).
    """
    seats = seating_of(state)
    start = seats.index(after)
    for step in range(1, len(seats) + 1):
        seat = seats[(start + step) % len(seats)]
        if not state["players"][str(seat)]["returned"]:
            return seat
    return None


def seating_of(state: State) -> list[int]:
    """The seats in the order they sit round the table (a table stored before the seating was kept: seat order)."""
    return state.get("order") or list(state["seats"])


def same_round(first: list[int], second: list[int]) -> bool:
    """Whether two seatings go round the table the same way, whoever is named first."""
    if sorted(first) != sorted(second) or not first:
        return False
    start = second.index(first[0])
    return second[start:] + second[:start] == first


def total_points(player: dict[str, Any]) -> int:
    return sum(night["total"] for night in player["nights"])


def escape_usable(state: State, player: dict[str, Any]) -> bool:
    """'This token may be discarded to remove a Jason Token on their Player Board on another night.'"""
    return player["escape"] and (player["escape_night"] is None or player["escape_night"] < state["night"])


def critical_open(state: State) -> bool:
    """The night's Critical Supply card may be entered or corrected: unclaimed, and no drop-off scored yet."""
    if state["critical"] is not None and state["critical"]["claimed_by"] is not None:
        return False
    if state["phase"] == "drop-off":
        return not any(player["dropped"] for player in state["players"].values())
    return state["phase"] == "night"


def final_count(state: State) -> bool:
    """After the fifth night of an advanced game the Defense Fear Cards left are counted (3 points each)."""
    return state["night"] == state["nights"] and state["mode"] == "advanced"


# ---- when a move may be made at all --------------------------------------------------------------------------------

MOVES = Moves("Camp Crystal Lake", example='{"type": "search", "supply": "axe"}',
              offer="isn't something you can do at Camp Crystal Lake; on your turn you can search, play a Fear Card "
                    "or return to the Cabin.",
              seat_name=lambda state, seat: seat_name(seat))


@MOVES.before_each
def _is_it_the_moment(state: State, move: Move, declared: MoveType) -> None:
    """The five nights go on; a move for a counselor names one (the host's), and a Backpack choice reads one way."""
    if state["phase"] == "over":
        raise IllegalAction("Help has arrived: the five nights are over.")
    if "whose" in declared.names and move.actor is None and move.get("whose") is None:
        raise IllegalAction("Say which counselor this is for (whose: their seat number).")
    if declared.type == "drop-off" and "keep" in move:
        move["keep"] = _keep_key(move["keep"])


def _for_counselor(handler: Callable[[State, Move, int], tuple[State, list[Event]]]):
    """A move for one counselor: the phone's own seat, or the seat the host names with `whose`."""
    @functools.wraps(handler)
    def run(state: State, move: Move, rng: Any) -> tuple[State, list[Event]]:
        return handler(state, move, move["whose"])
    return run


def _on_turn(state: State, seat: int, doing: str) -> dict[str, Any]:
    """The player may take a turn action now: it is night, they are still out searching and it is their turn."""
    player = _searching(state, seat, doing)
    if state["turn"] != seat:
        raise IllegalAction(f"It's {seat_name(state['turn'])}'s turn, not {seat_name(seat)}'s; wait for yours.")
    return player


def _searching(state: State, seat: int, doing: str) -> dict[str, Any]:
    if state["phase"] != "night":
        raise IllegalAction(f"Night {state['night']} is over: it's time to drop off supplies, not {doing.lower()}.")
    player = state["players"][str(seat)]
    if player["returned"]:
        raise IllegalAction(f"{seat_name(seat)} is back at the Cabin for the night and takes no more turns "
                            f"until the next night.")
    return player


# ---- the fields moves share ------------------------------------------------------------------------------------------

def _whose() -> Field:
    return Whose("the counselor", wrong="There is no Counselor {value} at this table.",
                 unknown="There is no Counselor {value} at this table.",
                 not_yours="You play for {mine}; only the host can act for {seat}.")


def _count(token: str, high: int, *, label: str = "") -> Field:
    """How many of one token a card or a count shows: a whole number from 0; left out means 0."""
    return Count(token, label or f"the number of {token_name(token)}", low=0, high=high, optional=True, default=0,
                 wrong="Say {label} as a whole number.", too_low="{Label} can't be negative ({value}).",
                 too_high="{Label} can be at most {high}, not {value}.")


def _counts(move: Mapping[str, Any], keys: tuple[str, ...]) -> dict[str, int]:
    return {key: move.get(key) or 0 for key in keys}


SUPPLY_LIST = listing([name(supply, 2) for supply in SUPPLIES])


# ---- turn actions ----------------------------------------------------------------------------------------------------

@MOVES.move("search", "Searching for Supplies", _whose(),
            Choice("supply", "the token drawn", TOKENS,
                   ask="Searching for Supplies needs 'supply': say which token came out of the Camp Bag.",
                   wrong=f"{{quoted}} isn't a token in the Camp Bag; it holds {SUPPLY_LIST} and Jason tokens."),
            Choice("escape", "the Escape Token", ("use", "keep"), optional=True,
                   wrong="Say 'use' to discard the Escape Token, or 'keep' to take the attack."),
            label="Search for Supplies")
@_for_counselor
def search(state: State, move: Move, seat: int):
    """'reach into the Camp Bag, draw one token out, and place it on your Player Board.'"""
    player = _on_turn(state, seat, "Searching for Supplies")
    token = move["supply"]
    bag = bag_now(state)
    if bag is not None and bag[token] <= 0:
        raise IllegalAction(f"By the host's count the Camp Bag holds no {token_name(token)} now; check the token "
                            "drawn, or correct the bag count or a Player Board.")
    _check_box_total(state, 1)
    second_jason = token == "jason" and player["board"]["jason"] >= 1
    can_dodge = second_jason and escape_usable(state, player)
    escape = move["escape"]
    if escape is not None and not can_dodge:
        raise IllegalAction("There is no Second Jason Attack to dodge with an Escape Token here; leave 'escape' out.")
    if can_dodge and escape is None:
        raise IllegalAction("That's a second Jason token and you hold an Escape Token: say 'use' to discard it "
                            "and send your first Jason back to the bag, or 'keep' to take the attack.")
    after = copied(state)
    mine = after["players"][str(seat)]
    if token != "jason":
        mine["board"][token] += 1
        text = f"searched and found {counted(token, 1)}."
    elif not second_jason:
        mine["board"]["jason"] = 1
        text = "searched and found a Jason token: a close call. A second one tonight means a Jason attack."
    elif escape == "use":
        mine["escape"], mine["escape_night"] = False, None  # the first Jason goes back, the new one stays
        text = ("searched and found a second Jason token, and discarded the Escape Token: the first Jason token "
                "goes back to the Camp Bag.")
    else:
        text = _jason_attack(after, seat)
    return _pass_turn(after, seat, [text])


def _check_box_total(state: State, more: int) -> None:
    """'67 Supply Tokens' (Jason tokens included): refuse taking more out of the bag than the box holds."""
    out = sum(out_of_bag(state).values())
    if more > 0 and out + more > BOX_TOKENS:
        raise IllegalAction(f"{out} of the box's {BOX_TOKENS} tokens are already out of the Camp Bag (on boards, in "
                            "Backpacks and on the night track); check the boards before drawing more.")


def _jason_attack(state: State, seat: int, how: str = "searched and found a second Jason token") -> str:
    """A Second Jason Attack, on `state` (already a copy): board to the bag, forced return, an Escape token if none.

    "Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do not need to be returned to
    the bag": the Hidden Stash stays.
    """
    player = state["players"][str(seat)]
    lost = sum(player["board"][supply] for supply in SUPPLIES)
    player["board"] = empty_board()
    player["returned"] = True
    place = len(state["cabin"]) + 1
    state["cabin"].append({"seat": seat, "attacked": True, "bravery": 0, "card": False, "critical": 0,
                           "carried": {}})
    gained = not player["escape"]
    if gained:
        player["escape"], player["escape_night"] = True, state["night"]
    hidden = sum(stash_of(player).values())
    safe = f" The Hidden Stash keeps its {plural(hidden, 'Supply', 'Supplies')} safe." if hidden else ""
    text = (f"{how}: SECOND JASON ATTACK! {plural(lost, 'supply', 'supplies')} "
            f"and both Jason tokens go back to the Camp Bag; fled to the Cabin ({ORDINALS[place - 1]}, dark side up) "
            "with no Bravery Bonus")
    text += " and gains an Escape Token." if gained else "; already holds an Escape Token, so gains none."
    return text + safe


@MOVES.move("fear", "Playing a Fear Card", _whose(),
            SeatField("target", "the counselor targeted", optional=True, picked=True,
                      wrong="There is no Counselor {value} to target.",
                      unknown="There is no Counselor {value} to target."),
            Choice("card", "the Fear Card", tuple(FEAR_CARDS), optional=True, default="other", picked=True,
                   wrong="Say which Fear Card: 'other' for any card the app doesn't track, or 'hidden-stash'."),
            label="Play a Fear Card")
@_for_counselor
def fear(state: State, move: Move, seat: int):
    """'A player may choose to play a Fear Card for their turn.' Returned players 'may not be the target'."""
    player = _on_turn(state, seat, "Playing a Fear Card")
    if player["fear_cards"] < 1:
        raise IllegalAction(f"{seat_name(seat)} has no Fear Cards left to play.")
    target, card = move["target"], move["card"]
    if target is not None:
        if target == seat:
            raise IllegalAction("Name another counselor as the target, or leave the target out.")
        if state["players"][str(target)]["returned"]:
            raise IllegalAction(f"{seat_name(target)} is back at the Cabin and can't be the target of Fear Cards "
                                "tonight.")
    if card == HIDDEN_STASH:
        if target is not None:
            raise IllegalAction("The Hidden Stash keeps your own Supplies safe: leave the target out.")
        if player.get("stash_card") and reading(state, "stash_cards") == "one":
            raise IllegalAction(f"{seat_name(seat)} already has a Hidden Stash in play: at this table a counselor has "
                                "one at a time (the setup option 'Hidden Stash Fear Cards in play').")
    after = copied(state)
    mine = after["players"][str(seat)]
    mine["fear_cards"] -= 1
    if card == HIDDEN_STASH:
        another = "another" if mine.get("stash_card") else "the"
        mine["stash_card"] = True
        mine.setdefault("stash", empty_stash())
        when = (" (now, before the next counselor's turn)" if reading(state, "stash_when") == "when-played"
                else "")
        after, events = _pass_turn(after, seat, [f"played {another} Hidden Stash Fear Card: Supplies moved onto it"
                                                 f"{when} are safe from Jason."])
        after["players"][str(seat)]["stash_open"] = True  # until the next counselor's turn action
        return after, events
    on = f" on {seat_name(target)}" if target is not None else ""
    return _pass_turn(after, seat, [f"played a Fear Card{on}."])


def _stash_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    if move.get("supply") == "jason":
        return "A Jason token can't be hidden: only Supplies go on the Hidden Stash."
    return f"{quoted(value, 30)} isn't a Supply; the Supplies are {', '.join(SUPPLIES)}."


@MOVES.move("stash", "Hiding Supplies on the Hidden Stash", _whose(),
            Choice("supply", "the Supply hidden", SUPPLIES, ask="Say which Supply goes on the Hidden Stash.",
                   wrong=_stash_refused),
            Count("count", "how many", low=1, high=MAX_TOKENS, ask="Say how many go on the Hidden Stash.",
                  wrong="Say how many as a whole number.", too_low="Hide at least 1, not {value}.",
                  too_high="{Label} can be at most {high}, not {value}."),
            label="Hide on the Hidden Stash")
@_for_counselor
def stash(state: State, move: Move, seat: int):
    """Supplies moved from the Player Board onto a played Hidden Stash Fear Card, safe from a Second Jason Attack."""
    player = _searching(state, seat, "Hiding Supplies")
    if not player.get("stash_card"):
        raise IllegalAction(f"{seat_name(seat)} has no Hidden Stash in play: play the Hidden Stash Fear Card first "
                            "(Play a Fear Card, card: hidden-stash).")
    if not stash_open(state, player):
        raise IllegalAction("At this table Supplies go onto a Hidden Stash only as the card is played, before the next "
                            "counselor's turn (the setup option 'Supplies go onto a Hidden Stash').")
    supply, count = move["supply"], move["count"]
    if player["board"][supply] < count:
        raise IllegalAction(f"{seat_name(seat)}'s Player Board holds {counted(supply, player['board'][supply])}, "
                            f"not {count}.")
    after = copied(state)
    mine = after["players"][str(seat)]
    mine["board"][supply] -= count
    mine.setdefault("stash", empty_stash())[supply] += count
    return after, [Event(f"hid {counted(supply, count)} on the Hidden Stash: safe from Jason tonight.")]


@MOVES.move("defense", "Playing a Defense Fear Card", _whose(), label="Play a Defense Fear Card")
@_for_counselor
def defense(state: State, move: Move, seat: int):
    """'Using these defensive Fear Cards can only be done out of turn, and does not count as an action.'"""
    if state["mode"] != "advanced":
        raise IllegalAction("This is a basic game: the Defense Fear Cards were removed from the deck.")
    player = _searching(state, seat, "Playing a Defense Fear Card")
    if state["turn"] == seat:
        raise IllegalAction("Defense Fear Cards are played out of turn, to block a Fear Card played against you.")
    if player["fear_cards"] < 1:
        raise IllegalAction(f"{seat_name(seat)} has no Fear Cards in hand.")
    after = copied(state)
    after["players"][str(seat)]["fear_cards"] -= 1
    return after, [Event(f"played a Defense Fear Card against {seat_name(state['turn'])}'s Fear Card.")]


@MOVES.move("return", "Returning to the Cabin", _whose(), label="Return to the Cabin")
@_for_counselor
def return_to_cabin(state: State, move: Move, seat: int):
    """Return to the Cabin: the next Bravery space's bonus; the Critical Supply card's points to the first holder.

    Always allowed on a turn: "Each turn a player may do one of three things". What the counselor brings back is
    kept, so a Critical Supply card entered later is still claimed by the first to return with its set.
    """
    player = _on_turn(state, seat, "Returning to the Cabin")
    place = len(state["cabin"]) + 1
    points = state["bravery_points"][min(place, len(state["bravery_points"])) - 1]
    after = copied(state)
    mine = after["players"][str(seat)]
    mine["returned"] = True
    mine["fear_cards"] = min(mine["fear_cards"] + 1, MAX_FEAR_CARDS)
    after["cabin"].append({"seat": seat, "attacked": False, "bravery": points, "card": True, "critical": 0,
                           "carried": carried(state, player)})
    bonus = f"{plural(points, 'point')} and a Fear card" if points else "a Fear card"
    text = f"returned to the Cabin {ORDINALS[place - 1]}: Bravery Bonus, {bonus}."
    claimant = _claim_critical(after)
    if claimant is not None:
        text += f" First back with the Critical Supply set: +{after['critical']['points']} points."
    elif state["critical"] is None:
        text += " Tonight's Critical Supply card isn't entered yet: the claim is checked when it is."
    return _pass_turn(after, seat, [text])


def _claim_critical(state: State) -> int | None:
    """'Only the first Player to Return to the Cabin with the requisite combination ... earns the bonus points'.

    On `state` (a copy): the first counselor back (not fleeing Jason) whose Supplies hold the card's set claims it.
    """
    critical = state["critical"]
    if critical is None or critical["claimed_by"] is not None:
        return None
    for entry in state["cabin"]:
        if not entry["attacked"] and holds_set(entry.get("carried", {}), critical["set"]):
            critical["claimed_by"] = entry["seat"]
            entry["critical"] = critical["points"]
            return entry["seat"]
    return None


def stash_open(state: State, player: dict[str, Any]) -> bool:
    """Whether Supplies may go onto this counselor's Hidden Stash now, by the `stash_when` reading."""
    return reading(state, "stash_when") == "any-time" or bool(player.get("stash_open"))


def _pass_turn(state: State, seat: int, texts: list[str]) -> tuple[State, list[Event]]:
    """Hand the turn on clockwise; when nobody is left searching, the night ends and drop-off begins."""
    events = [Event(text) for text in texts]
    if state["turn"] != seat:  # a correction on someone else's turn: the turn stays where it is
        return state, events
    for player in state["players"].values():  # a turn action ends the moment a Hidden Stash was played in
        player["stash_open"] = False
    following = next_turn(state, seat)
    if following is None:
        state["turn"] = None
        state["phase"] = "drop-off"
        state["starter"] = state["cabin"][-1]["seat"]  # "The last player to Return ... takes the first turn"
        last = "the five nights end" if state["night"] == state["nights"] else "drop off your supplies"
        events.append(Event(f"Everyone is back at the Cabin: Night {state['night']} is over; {last}."))
    else:
        state["turn"] = following
    return state, events


def escape_sends_jason_back(state: State, player: dict[str, Any]) -> bool:
    """'This token may be discarded to remove a Jason Token on their Player Board on another night': a discard now
    sends a Jason token back to the Camp Bag."""
    return escape_usable(state, player) and player["board"]["jason"] >= 1


@MOVES.move("escape", "Discarding an Escape Token", _whose(), label="Discard the Escape Token")
@_for_counselor
def escape(state: State, move: Move, seat: int):
    """'An Escape Token may be discarded by its owner at any time and does not count as an action.'"""
    player = state["players"][str(seat)]
    if not player["escape"]:
        raise IllegalAction(f"{seat_name(seat)} holds no Escape Token.")
    after = copied(state)
    mine = after["players"][str(seat)]
    mine["escape"], mine["escape_night"] = False, None
    if escape_sends_jason_back(state, player):
        mine["board"]["jason"] -= 1
        return after, [Event("discarded an Escape Token: a Jason token goes from the Player Board back to the Camp "
                             "Bag.")]
    why = ("it was gained tonight, and removes a Jason token only on another night"
           if player["board"]["jason"] and not escape_usable(state, player)
           else "there is no Jason token on the Player Board")
    return after, [Event(f"discarded an Escape Token: no Jason token goes back ({why}).")]


# ---- drop-off and the next night -----------------------------------------------------------------------------------

def _keep_key(raw: Any) -> Any:
    """A Backpack choice as one word: 'nothing', 'axe' or 'pan,axe' in the Backpack Card's order; else as sent."""
    if raw is None or raw == NOTHING or raw == []:
        return NOTHING if raw is not None else raw
    items = [part.strip() for part in raw.split(",") if part.strip()] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(item, str) and item in SUPPLIES for item in items):
        return raw
    return ",".join(sorted(items, key=SUPPLIES.index)) or NOTHING


def keep_key(keep: tuple[str, ...] | list[str]) -> str:
    return ",".join(keep) or NOTHING


def _drop_seat(move: Mapping[str, Any]) -> int | None:
    whose = move.get("whose")
    return whose if whose is not None else move.get("seat")


def _keep_choices(state: State, move: Mapping[str, Any]) -> list[str]:
    """Every Backpack choice this counselor has tonight; after the fifth night, nothing."""
    seat = _drop_seat(move)
    if seat is None or str(seat) not in state["players"] or state["night"] == state["nights"]:
        return [NOTHING]
    return [keep_key(keep) for keep in keep_options(pool_of(state, state["players"][str(seat)]))]


def _keep_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    """Why this Backpack choice can't be saved, in the counselor's words."""
    raw, seat = move.get("keep"), _drop_seat(move)
    items = [part.strip() for part in raw.split(",") if part.strip()] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        return "Say what goes in the Backpack as a list of supplies, like [\"axe\", \"pan\"], or 'nothing'."
    for item in items:
        if item == "jason":
            return "A Jason token can't be saved in the Backpack: it goes back to the Camp Bag."
        if item not in SUPPLIES:
            return f"{quoted(item, 30)} isn't a Supply; the Supplies are {', '.join(SUPPLIES)}."
    if len(items) > 2:
        return f"The Backpack saves up to two Supplies, not {len(items)}."
    if state["night"] == state["nights"]:
        return "After the fifth night everything is dropped off, Backpacks included; keep nothing."
    if seat is not None and str(seat) in state["players"]:
        pool = pool_of(state, state["players"][str(seat)])
        for supply in items:
            if items.count(supply) > pool[supply]:
                return f"{seat_name(seat)} has {counted(supply, pool[supply])} to save, not {items.count(supply)}."
    return "Choose up to two of the Supplies you drop off tonight for the Backpack, or 'nothing'."


def _kept(move: Mapping[str, Any]) -> list[str]:
    keep = move.get("keep") or NOTHING
    return [] if keep == NOTHING else keep.split(",")


def _bonus_choices(state: State, move: Mapping[str, Any]) -> list[str]:
    """'best', 'none' or a bonus the dropped-off Supplies allow (after the Backpack choice)."""
    seat = _drop_seat(move)
    if seat is None or str(seat) not in state["players"] or not isinstance(move.get("keep", NOTHING), str):
        return ["best", "none"]
    try:
        rest = without(pool_of(state, state["players"][str(seat)]), _kept(move))
    except (KeyError, ValueError):
        return ["best", "none"]
    return ["best", *(option["key"] for option in bonuses(rest, state["values"]))]


def _bonus_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    others = [choice for choice in _bonus_choices(state, move) if choice not in ("best", "none")]
    if not others:
        return "These supplies allow no bonus: say 'best' or 'none'."
    return f"That bonus isn't possible with these supplies; say 'best', 'none' or one of: {', '.join(others)}."


def _defense_most(state: State, move: Mapping[str, Any]) -> int | None:
    seat = _drop_seat(move)
    return state["players"][str(seat)]["fear_cards"] if seat is not None and str(seat) in state["players"] else None


@MOVES.move("drop-off", "Dropping off", _whose(),
            Choice("keep", "what goes in the Backpack", _keep_choices, optional=True, default=NOTHING, picked=True,
                   wrong=_keep_refused, help="'nothing', or up to two supplies like 'axe,pan'"),
            Choice("bonus", "the bonus", _bonus_choices, optional=True, default="best", picked=True,
                   wrong=_bonus_refused, help="'best', 'none' or a bonus key from the view"),
            Count("defense", "the number of Defense Fear Cards", low=0, high=_defense_most, optional=True,
                  wrong="Say the number of Defense Fear Cards as a whole number.",
                  too_low="{Label} can't be negative ({value}).",
                  too_high="{Label} can be at most {high}, not {value}."),
            label="Drop off")
@_for_counselor
def drop_off(state: State, move: Move, seat: int):
    """Save up to two Supplies in the Backpack, score the rest with one bonus; after Night 5 everything counts."""
    player = _may_drop_off(state, seat)
    keep = _kept(move)
    defense_cards = _defense_cards(state, move, player)
    try:
        result = score(without(pool_of(state, player), keep), state["values"], move["bonus"],
                       jason=player["board"]["jason"])
    except ScoringError as error:
        raise IllegalAction(str(error)) from None
    after = copied(state)
    tonight = _cabin_rewards(state, seat)
    extras, lines = _final_trade_in(state, player, defense_cards, result)
    night = _score_night(after, seat, tonight, result, extras, lines, keep)
    saved = f", saved {keep_label(keep)} in the Backpack" if keep else ""
    scored = result["points"] + extras
    events = [Event(f"dropped off for {plural(scored, 'point')} ({result['bonus']['label']}){saved}; "
                    f"{night['total']} for Night {state['night']} in all.")]
    if all(other["dropped"] for other in after["players"].values()):
        events += _end_of_night(after)
    return after, events


def _may_drop_off(state: State, seat: int) -> dict[str, Any]:
    """'At the end of each night, Supplies are dropped off at the Cabin for points': once, after the last return."""
    if state["phase"] != "drop-off":
        raise IllegalAction(f"Drop-off comes when everyone is back at the Cabin; Night {state['night']} is still on.")
    player = state["players"][str(seat)]
    if player["dropped"]:
        raise IllegalAction(f"{seat_name(seat)} has already dropped off tonight.")
    return player


def _defense_cards(state: State, move: Move, player: dict[str, Any]) -> int:
    """'Remaining Defense Fear Cards ... are traded for 3 points each': asked after Night 5 of an advanced game."""
    given = move["defense"]
    if final_count(state):
        if given is None:
            raise IllegalAction(f"Say how many of your {player['fear_cards']} Fear Cards are Defense Fear Cards "
                                "(0 if none): they score 3 points each.")
        return given
    if given not in (0, None):
        raise IllegalAction("Defense Fear Cards are counted after the fifth night of an advanced game only.")
    return 0


def _cabin_rewards(state: State, seat: int) -> dict[str, Any]:
    """The counselor's Cabin space tonight: its Bravery Bonus, the Critical Supply points, whether Jason chased them."""
    entry = next((entry for entry in state["cabin"] if entry["seat"] == seat), None) or {}
    return {"bravery": entry.get("bravery", 0), "critical": entry.get("critical", 0),
            "attacked": bool(entry.get("attacked"))}


def _final_trade_in(state: State, player: dict[str, Any], defense_cards: int,
                    result: dict[str, Any]) -> tuple[int, list[str]]:
    """'Fear Cards remaining after the 5th night are traded for an additional 1 point each. Remaining Defense Fear
    Cards and Escape Tokens are traded for 3 points each.' Before then, the drop-off's own lines."""
    lines = list(result["breakdown"])
    if state["night"] != state["nights"]:
        return 0, lines
    plain = player["fear_cards"] - defense_cards
    extras = plain + 3 * defense_cards + (3 if player["escape"] else 0)
    lines.insert(-1, f"{plural(plain, 'Fear Card')} left, {plain} x 1 = {plain}")
    if state["mode"] == "advanced":
        lines.insert(-1, f"{plural(defense_cards, 'Defense Fear Card')}, {defense_cards} x 3 = {3 * defense_cards}")
    if player["escape"]:
        lines.insert(-1, "1 Escape Token, 1 x 3 = 3")
    lines[-1] = f"Total {result['points'] + extras}"
    return extras, lines


def _score_night(after: State, seat: int, tonight: dict[str, Any], result: dict[str, Any], extras: int,
                 lines: list[str], keep: list[str]) -> dict[str, Any]:
    """'Once scored, all tokens on Player Boards are returned to the Camp Bag': the night's points, on `after`."""
    mine = after["players"][str(seat)]
    total = tonight["bravery"] + tonight["critical"] + result["points"] + extras
    night = {"night": after["night"], "bravery": tonight["bravery"], "critical": tonight["critical"],
             "drop_off": result["points"], "extras": extras, "total": total, "kept": keep,
             "bonus": result["bonus"], "breakdown": lines}
    mine["nights"].append(night)
    if after["night"] == after["nights"]:
        mine["fear_cards"], mine["escape"], mine["escape_night"] = 0, False, None
    mine["board"] = empty_board()
    if stash_dropped(after):  # the Hidden Stash is dropped off and discarded (or stays in play: `stash_end`)
        mine["stash"], mine["stash_card"] = empty_stash(), False
    mine["stash_open"] = False
    mine["backpack"] = keep
    mine["dropped"] = True
    after["last_drop_offs"] = [entry for entry in after["last_drop_offs"]  # tonight's only: last night's go
                               if entry["night"] == after["night"] and entry["seat"] != seat]
    after["last_drop_offs"].append({"seat": seat, "night": after["night"], "breakdown": lines,
                                    "points": result["points"] + extras, "kept": keep, "night_total": total,
                                    "bravery": tonight["bravery"], "critical": tonight["critical"],
                                    "attacked": tonight["attacked"]})
    return night


def _end_of_night(state: State) -> list[Event]:
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

@MOVES.move("critical", "Entering the Critical Supply card",
            *(_count(supply, MAX_TOKENS) for supply in SUPPLIES),
            Count("points", "the card's points", low=1, high=MAX_CRITICAL_POINTS,
                  ask="Entering the Critical Supply card needs 'points': the points the card shows.",
                  wrong="Say the card's points as a whole number.", too_low="{Label} can't be below 1 ({value}).",
                  too_high="{Label} can be at most {high}, not {value}."),
            by="host", label="Save the card")
def critical(state: State, move: Move, rng: Any):
    """'Each Critical Supply Card shows a set of Supplies and the number of points the first player to return ...'

    Checked at once against everyone already back at the Cabin, in the order they returned.
    """
    if not critical_open(state):
        if state["critical"] is not None and state["critical"]["claimed_by"] is not None:
            raise IllegalAction(f"{seat_name(state['critical']['claimed_by'])} already claimed tonight's Critical "
                                "Supply card; undo that to change the card.")
        raise IllegalAction("The drop-off has begun: enter the Critical Supply card during the night it is revealed, "
                            "or before the first drop-off.")
    wanted = _counts(move, SUPPLIES)
    if not any(wanted.values()):
        raise IllegalAction("A Critical Supply card shows at least one Supply; enter how many of each it shows.")
    points = move["points"]
    after = copied(state)
    after["critical"] = {"set": {supply: count for supply, count in wanted.items() if count}, "points": points,
                         "claimed_by": None}
    shown = listing(counted(supply, count) for supply, count in wanted.items() if count)
    text = (f"revealed Night {state['night']}'s Critical Supply card: {shown}, worth {points} points to the first "
            "counselor back at the Cabin with it.")
    claimant = _claim_critical(after)
    if claimant is not None:
        text += f" {seat_name(claimant)} was first back with it: +{points} points."
    return after, [Event(text)]


@MOVES.move("bag", "Counting the Camp Bag", *(_count(token, MAX_BOX_COUNT) for token in TOKENS), by="host",
            correction=True, label="Save the count")
def count_bag(state: State, move: Move, rng: Any):
    """The box's Supply and Jason tokens, counted once, so the app knows what the Camp Bag holds."""
    box = _counts(move, TOKENS)
    if not any(box.values()):
        raise IllegalAction("Enter how many tokens of each kind the box holds.")
    if sum(box.values()) > BOX_TOKENS:
        raise IllegalAction(f"That is {sum(box.values())} tokens; the box holds {BOX_TOKENS} Supply Tokens, "
                            "Jason tokens included. Count again.")
    out = out_of_bag(state)
    for token in TOKENS:
        if box[token] < out[token]:
            where = ("on boards, in Backpacks and on the night track" if token == "jason"
                     else "on boards, Hidden Stashes and in Backpacks")
            raise IllegalAction(f"You counted {box[token]} {token_name(token)}, but {out[token]} are {where} "
                                "right now.")
    after = copied(state)
    after["box"] = box
    total = sum(box.values())
    return after, [Event(f"counted the Camp Bag's tokens: {total} in the box, {box['jason']} of them Jason tokens.")]


@MOVES.move("set-board", "Correcting a Player Board", _whose(),
            *(_count(supply, MAX_TOKENS) for supply in SUPPLIES),
            Count("jason", "the number of Jason tokens", low=0, high=2, optional=True, default=0,
                  wrong="Say the number of Jason tokens as a whole number.",
                  too_low="{Label} can't be negative ({value}).",
                  too_high="A Player Board never holds more than two Jason tokens: the second one is a Second Jason "
                           "Attack."),
            Choice("escape", "the Escape Token", ("use", "keep"), optional=True,
                   wrong="Say 'use' to discard the Escape Token, or 'keep' to take the attack."),
            correction=True, label="Correct the board")
@_for_counselor
def set_board(state: State, move: Move, seat: int):
    """After a Fear Card moves tokens: what the Player Board shows now. Returned players can't be targeted.

    "A Second Jason Attack occurs when a player has two Jason Tokens on their Player Board" -- on anyone's turn, so a
    Fear Card that puts a second Jason on a board is recorded here as the attack (or dodged with an Escape Token).
    """
    player = _searching(state, seat, "Correcting a Player Board")
    board = _counts(move, TOKENS)
    if board == player["board"]:
        raise IllegalAction(f"{seat_name(seat)}'s Player Board already shows that.")
    _board_fits_the_bag(state, player, board)
    attack = board["jason"] == 2
    can_dodge = attack and escape_usable(state, player)
    escape_choice = move["escape"]
    if escape_choice is not None and not can_dodge:
        raise IllegalAction("There is no Second Jason Attack to dodge with an Escape Token here; leave 'escape' out.")
    if can_dodge and escape_choice is None:
        raise IllegalAction(f"Two Jason tokens and {seat_name(seat)} holds an Escape Token: say 'use' to discard it "
                            "and send one Jason back to the bag, or 'keep' to take the attack.")
    after = copied(state)
    mine = after["players"][str(seat)]
    if attack and escape_choice != "use":
        mine["board"] = board
        text = _jason_attack(after, seat, f"recorded a second Jason token on {seat_name(seat)}'s Player Board")
        return _pass_turn(after, seat, [text])
    if attack:  # dodged: the Escape Token sends one Jason back to the bag
        board = {**board, "jason": 1}
        mine["escape"], mine["escape_night"] = False, None
    mine["board"] = board
    shown = ", ".join(counted(token, count) if token != "jason" else f"{count} Jason" for token, count
                      in board.items() if count) or "nothing"
    dodged = " The Escape Token is discarded: the second Jason goes back to the Camp Bag." if attack else ""
    return after, [Event(f"corrected {seat_name(seat)}'s Player Board to: {shown}.{dodged}")]


def _board_fits_the_bag(state: State, player: dict[str, Any], board: dict[str, int]) -> None:
    """A corrected board takes its extra tokens from the Camp Bag: no more than it holds, nor than the box has."""
    bag = bag_now(state)
    if bag is not None:
        for token in TOKENS:
            more = board[token] - player["board"][token]
            if more > bag[token]:
                raise IllegalAction(f"That takes {more} more {token_name(token, more)} than the Camp Bag holds by the "
                                    f"count ({bag[token]}).")
    _check_box_total(state, sum(board.values()) - sum(player["board"].values()))


@MOVES.move("set-hand", "Correcting a hand of Fear Cards", _whose(),
            Count("count", "the number of Fear Cards", low=0, high=MAX_FEAR_CARDS,
                  ask="Correcting a hand of Fear Cards needs 'count': how many Fear Cards the counselor holds.",
                  wrong="Say the number of Fear Cards as a whole number.",
                  too_low="{Label} can't be negative ({value}).",
                  too_high="{Label} can be at most {high}, not {value}."),
            correction=True, label="Set")
@_for_counselor
def set_hand(state: State, move: Move, seat: int):
    """After a Fear Card draws or discards cards: how many Fear Cards the player holds now."""
    count = move["count"]
    player = state["players"][str(seat)]
    if count == player["fear_cards"]:
        raise IllegalAction(f"{seat_name(seat)} already holds {plural(count, 'Fear Card')}.")
    after = copied(state)
    after["players"][str(seat)]["fear_cards"] = count
    return after, [Event(f"corrected {seat_name(seat)}'s hand to {plural(count, 'Fear Card')} "
                         f"(was {player['fear_cards']}).")]


def _seating_refused(state: State, move: Mapping[str, Any], value: Any) -> str:
    count = len(state["seats"])
    return (f"Name each of the {count} seats once, in the order you sit round the table, like "
            f"{', '.join(str(seat) for seat in seating_of(state))}.")


@MOVES.move("seating", "Entering the seating",
            Numbers("order", "the seats in the order you sit round the table", length=6, low=1,
                    high=lambda state, move: max(state["seats"]), picked=True,
                    ask="Say the seats in the order you sit round the table, like 1, 3, 2.",
                    wrong=_seating_refused, too_low=_seating_refused, too_high=_seating_refused),
            by="host", correction=True, label="Save the seating")
def seating(state: State, move: Move, rng: Any):
    """'Each Player taking turns': round the table, which the app can't see; seat order until the host enters it."""
    order = move["order"]
    if sorted(order) != sorted(state["seats"]):
        raise IllegalAction(_seating_refused(state, move, order))
    if same_round(order, seating_of(state)):
        raise IllegalAction("Turns already go round in that order.")
    after = copied(state)
    after["order"] = list(order)
    return after, [Event(f"entered the seating round the table: {', '.join(seat_name(seat) for seat in order)}; "
                         "turns go round in that order.")]


apply = MOVES.apply


# ---- what each screen may do now -----------------------------------------------------------------------------------

def legal_actions(state: State, seat: int | None) -> list[dict[str, Any]]:
    """Complete moves this seat may make now (None: the host, for any counselor), each accepted as it is."""
    if state["phase"] == "over" or (seat is not None and seat not in state["seats"]):
        return []
    actions: list[dict[str, Any]] = []
    for number in ([seat] if seat is not None else state["seats"]):
        actions += _offer_night(state, number) + _offer_drop_off(state, number) + _offer_escape(state, number)
    if seat is None:
        actions += _offer_host(state)
    return actions


def _offer_night(state: State, seat: int) -> list[dict[str, Any]]:
    """'Search for Supplies ◊ Play a Fear Card ◊ Return to the Cabin' on a turn; Defense cards out of it."""
    player = state["players"][str(seat)]
    if state["phase"] != "night" or player["returned"]:
        return []
    mark = {"whose": seat}
    offers: list[dict[str, Any]] = []
    if state["turn"] == seat:
        offers += _offer_searches(state, seat)
        if player["fear_cards"]:
            offers.append({"type": "fear", **mark})
            if not player.get("stash_card") or reading(state, "stash_cards") == "any":
                offers.append({"type": "fear", **mark, "card": HIDDEN_STASH})
        offers.append({"type": "return", **mark})
    elif state["mode"] == "advanced" and player["fear_cards"]:
        offers.append({"type": "defense", **mark})
    if player.get("stash_card") and stash_open(state, player):
        offers += [{"type": "stash", **mark, "supply": supply, "count": 1} for supply in SUPPLIES
                   if player["board"][supply]]
    return offers


def _offer_escape(state: State, seat: int) -> list[dict[str, Any]]:
    """'An Escape Token may be discarded by its owner at any time and does not count as an action.'"""
    return [{"type": "escape", "whose": seat}] if state["players"][str(seat)]["escape"] else []


def _offer_searches(state: State, seat: int) -> list[dict[str, Any]]:
    """One search per token the Camp Bag can still give (by the host's count, and the box's 67 tokens)."""
    player = state["players"][str(seat)]
    bag = bag_now(state)
    if sum(out_of_bag(state).values()) >= BOX_TOKENS:
        return []
    offers = []
    for token in TOKENS:
        if bag is not None and bag[token] <= 0:
            continue  # the bag holds none of it: the search would be refused
        if token == "jason" and player["board"]["jason"] and escape_usable(state, player):
            offers += [{"type": "search", "whose": seat, "supply": "jason", "escape": choice}
                       for choice in ("use", "keep")]
        else:
            offers.append({"type": "search", "whose": seat, "supply": token})
    return offers


def _offer_drop_off(state: State, seat: int) -> list[dict[str, Any]]:
    """Keeping nothing, with the best bonus; after the fifth night of an advanced game, no Defense card by default."""
    if state["phase"] != "drop-off" or state["players"][str(seat)]["dropped"]:
        return []
    offer = {"type": "drop-off", "whose": seat, "keep": NOTHING, "bonus": "best"}
    return [offer | {"defense": 0}] if final_count(state) else [offer]


def _offer_host(state: State) -> list[dict[str, Any]]:
    """The Critical Supply card (as entered, or one Cast Iron Pan for 1 point), the bag count and the corrections."""
    offers: list[dict[str, Any]] = []
    if critical_open(state):
        card = state["critical"] or {"set": {SUPPLIES[0]: 1}, "points": 1}
        offers.append({"type": "critical", **card["set"], "points": card["points"]})
    out = out_of_bag(state)
    if sum(out.values()) < BOX_TOKENS:
        offers.append({"type": "bag", **{token: count for token, count in out.items() if count},
                       SUPPLIES[0]: out[SUPPLIES[0]] + 1})
    order = seating_of(state)
    if len(order) > 2:  # the other way round the table (two seats go round only one way)
        offers.append({"type": "seating", "order": [order[0], *reversed(order[1:])]})
    for seat in state["seats"]:
        offers += _offer_corrections(state, seat)
    return offers


def _offer_corrections(state: State, seat: int) -> list[dict[str, Any]]:
    """A board one Supply lighter (or heavier, from the bag) while the counselor searches; a hand one card different."""
    player = state["players"][str(seat)]
    hand = player["fear_cards"]
    offers: list[dict[str, Any]] = [{"type": "set-hand", "whose": seat,
                                     "count": hand + 1 if hand < MAX_FEAR_CARDS else hand - 1}]
    if state["phase"] != "night" or player["returned"]:
        return offers
    board = dict(player["board"])
    present = [supply for supply in SUPPLIES if board[supply]]
    bag = bag_now(state)
    room = sum(out_of_bag(state).values()) < BOX_TOKENS
    takeable = [supply for supply in SUPPLIES if room and (bag is None or bag[supply] > 0)]
    if present:
        board[present[-1]] -= 1
    elif takeable:
        board[takeable[0]] += 1
    else:
        return offers
    return [{"type": "set-board", "whose": seat, **{token: count for token, count in board.items() if count}},
            *offers]


# ---- the end -------------------------------------------------------------------------------------------------------

def standings(state: State) -> list[tuple[int, int]]:
    """(seat, points) from most points down; seat order breaks nothing, it only keeps the list steady."""
    return sorted(((seat, total_points(state["players"][str(seat)])) for seat in state["seats"]),
                  key=lambda row: -row[1])


def outcome(state: State) -> Outcome | None:
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


def invariants(state: State) -> list[str]:
    """What the box guarantees at every step: no more tokens out of the Camp Bag than the box's 67 (nor than the
    host counted), at most one Jason token on a Player Board (the second is a Second Jason Attack), at most two
    Supplies in a Backpack, at most one Escape Token each, and the Cabin holding exactly the counselors back."""
    out = out_of_bag(state)
    bag = bag_now(state)
    checks = [(sum(out.values()) <= BOX_TOKENS, f"{sum(out.values())} tokens are out of the box's {BOX_TOKENS}."),
              (bag is None or all(count >= 0 for count in bag.values()), "The Camp Bag holds fewer than 0 of a token."),
              (1 <= state["night"] <= state["nights"], f"Night {state['night']} of {state['nights']}.")]
    for seat in state["seats"]:
        player, name = state["players"][str(seat)], seat_name(seat)
        checks += [(0 <= player["board"]["jason"] <= 1, f"{name}'s Player Board holds {player['board']['jason']} "
                                                        "Jason tokens."),
                   (len(player["backpack"]) <= 2, f"{name}'s Backpack holds more than two Supplies."),
                   (all(count >= 0 for count in (*player["board"].values(), *stash_of(player).values())),
                    f"{name}'s board or Hidden Stash holds fewer than 0 of a token."),
                   (0 <= player["fear_cards"] <= MAX_FEAR_CARDS, f"{name} holds {player['fear_cards']} Fear Cards."),
                   (isinstance(player["escape"], bool), f"{name} holds more than one Escape Token.")]
    if state["phase"] == "night":
        back = [entry["seat"] for entry in state["cabin"]]
        returned = [seat for seat in state["seats"] if state["players"][str(seat)]["returned"]]
        checks.append((sorted(back) == returned, "The Cabin's Return spaces and the counselors back at the Cabin "
                                                 "disagree."))
    return broken(checks)


def turn_seats(state: State) -> list[int]:
    """Whom the table waits for: the counselor whose turn it is, or everyone still to drop off."""
    if state["phase"] == "night":
        return [state["turn"]]
    if state["phase"] == "drop-off":
        return [seat for seat in state["seats"] if not state["players"][str(seat)]["dropped"]]
    return []


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    """Everything is public on the table; add the derived numbers the screens show (odds, choices, the board check)."""
    moves = legal_actions(state, viewer.seat) if viewer.moves else []
    return derive(state, viewer.seat) | seen(viewer, moves=moves, turn=turn_seats(state), turn_text=turn_text(state),
                                             board_check=board_check(state))


def figures(state: State) -> dict[str, Any]:
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


# ---- what the screens show, derived from the state -----------------------------------------------------------------
# Odds, turn order, drop-off choices, the board check. Everything at this table is public, so every seat sees the same
# facts; `mine` adds the seat's own choices (what the Backpack costs tonight, whether an Escape Token can dodge) to the
# top of their phone. Each part of the view is built by a function named after what the Cabin Board or the rulebook
# calls it.

READING_WORDS = {  # (the reading, its value): a sentence for screens and docs, and a few words beside a button
    ("critical_set", "board"): ("The Critical Supply set counts what you found tonight: the Player Board and a "
                                "Hidden Stash, not the Backpack.", "Backpack not counted"),
    ("critical_set", "backpack"): ("The Critical Supply set counts what you found tonight and the Supplies saved in "
                                   "your Backpack.", "Backpack counted"),
    ("stash_cards", "one"): ("A counselor has one Hidden Stash in play at a time.", "one Hidden Stash at a time"),
    ("stash_cards", "any"): ("A counselor may play as many Hidden Stash cards as they hold.", "any number in play"),
    ("stash_when", "any-time"): ("Supplies go onto a Hidden Stash any time during the night, as no action.",
                                 "any time, no action"),
    ("stash_when", "when-played"): ("Supplies go onto a Hidden Stash only as the card is played, before the next "
                                    "counselor's turn.", "only as it is played"),
    ("stash_end", "drop-off"): ("A Hidden Stash is dropped off with the board at the end of the night, and the card "
                                "discarded.", "dropped off tonight"),
    ("stash_end", "stays"): ("A Hidden Stash stays in play, its Supplies safe until the last drop-off.",
                             "stays until the last night"),
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
    return readings_shown(state, READINGS, READING_WORDS)


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
    for index, place in enumerate(ORDINALS):
        entry = state["cabin"][index] if index < len(state["cabin"]) else None
        spaces.append({"place": place, "reward": reward_text(state["bravery_points"][index]),
                       "seat": entry["seat"] if entry else None, "attacked": bool(entry and entry["attacked"]),
                       "critical": entry["critical"] if entry else 0})
    return spaces


def critical_objective(state: State) -> dict[str, Any]:
    """The Critical Supply Objective space: the card as entered, who claimed it, and whether the host must enter it."""
    card = state["critical"]
    open_now = critical_open(state)
    waiting = [entry["seat"] for entry in state["cabin"] if not entry["attacked"]] if card is None else []
    return {"text": listing(counted(supply, count) for supply, count in card["set"].items()) if card else None,
            "points": card["points"] if card else None, "claimed_by": card["claimed_by"] if card else None,
            "needed": card is None and open_now, "correctable": card is not None and open_now,
            "waiting": waiting}


def bag_view(state: State) -> dict[str, Any] | None:
    """The Camp Bag now, and the chance that the next search draws Jason, with the counts it comes from."""
    bag = bag_now(state)
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
    seats = seating_of(state)
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
        return f"fled from Jason, Cabin {ORDINALS[place[0] - 1]}"
    if place:
        return f"Cabin {ORDINALS[place[0] - 1]}"
    return "their turn" if state["turn"] == seat else "searching"


def counselor_row(state: State, seat: int) -> dict[str, Any]:
    """One counselor on the scoreboard and in the board check."""
    player = state["players"][str(seat)]
    place = cabin_place(state, seat)
    tonight = place[1]["bravery"] + place[1]["critical"] if place else 0
    return {"seat": seat, "name": seat_name(seat), "status": status(state, seat),
            "turn": state["turn"] == seat, "returned": player["returned"],
            "attacked": bool(place and place[1]["attacked"]), "board": tokens_text(player["board"]),
            "stash": tokens_text(stash_of(player)), "stash_card": bool(player.get("stash_card")),
            "backpack": keep_label(player["backpack"]) if player["backpack"] else "empty",
            "escape": player["escape"], "fear_cards": player["fear_cards"], "tonight": tonight,
            "escape_usable": escape_usable(state, player),
            "jason": player["board"]["jason"], "dropped": player["dropped"],
            "nights": {str(entry["night"]): entry["total"] for entry in player["nights"]},
            "pending": 0 if player["dropped"] or state["phase"] == "over" else tonight,
            "cells": night_cells(state, player, tonight), "total": total_points(player)}


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
    pool = pool_of(state, player)
    final = state["night"] == state["nights"]
    scored = []
    for keep in [()] if final else keep_options(pool):
        result = score(without(pool, keep), state["values"], jason=player["board"]["jason"])
        scored.append({"value": keep_key(keep), "label": keep_label(keep), "points": result["points"],
                       "bonus": result["bonus"]["label"], "breakdown": result["breakdown"]})
    for choice in scored:
        choice["cost"] = scored[0]["points"] - choice["points"]
    rewards = _cabin_rewards(state, seat)
    return {"seat": seat, "pool": tokens_text({**pool, "jason": player["board"]["jason"]}), "final": final,
            "bravery": rewards["bravery"], "critical": rewards["critical"], "attacked": rewards["attacked"],
            "choices": scored, "bonuses": [option for option in bonuses(pool, state["values"])
                                           if option["key"] != "none"],
            "fear_cards": player["fear_cards"], "escape": player["escape"], "defense_asked": final_count(state),
            "advanced": state["mode"] == "advanced"}


def mine(state: State, seat: int) -> dict[str, Any]:
    """One counselor's situation: their turn options, what a return earns now, the risk of the next search."""
    player = state["players"][str(seat)]
    card = state["critical"]
    place = len(state["cabin"]) + 1
    bravery = state["bravery_points"][min(place, len(state["bravery_points"])) - 1]
    holds = holds_set(carried(state, player), card["set"]) if card else False
    worth = score({supply: player["board"][supply] for supply in SUPPLIES}, state["values"])
    bag = bag_now(state)
    searching = state["phase"] == "night" and not player["returned"]
    return {"seat": seat, "name": seat_name(seat), "my_turn": state["phase"] == "night" and state["turn"] == seat,
            "searching": searching, "second": player["board"]["jason"] >= 1,
            "dodge": player["board"]["jason"] >= 1 and escape_usable(state, player),
            "attacked": any(entry["seat"] == seat and entry["attacked"] for entry in state["cabin"]),
            "risk": percent(Fraction(bag["jason"], sum(bag.values()))) if bag and sum(bag.values()) else None,
            "return_place": ORDINALS[min(place, 6) - 1],
            "return_reward": f"{plural(bravery, 'point')} and a Fear card" if bravery else "a Fear card",
            "claims_critical": bool(card and card["claimed_by"] is None and holds),
            "critical_points": card["points"] if card else 0, "critical_entered": card is not None,
            "board_worth": worth["points"], "board_bonus": worth["bonus"]["label"],
            "fear_cards": player["fear_cards"], "escape": player["escape"],
            "escape_usable": escape_sends_jason_back(state, player),
            "board": tokens_text(player["board"]), "stash": tokens_text(stash_of(player)),
            "stash_card": bool(player.get("stash_card")),
            "backpack": keep_label(player["backpack"]) if player["backpack"] else "empty",
            "counts": dict(player["board"])}


def seating_shown(state: State) -> dict[str, Any]:
    """Round the table: the order turns go in, and whether it is only assumed (seat order) or the host's entry."""
    order = seating_of(state)
    assumed = same_round(order, list(state["seats"]))
    return {"order": order, "text": ", ".join(str(seat) for seat in order), "assumed": assumed,
            "source": "assumed" if assumed else "entered"}


# ---- the shared keys' words ----------------------------------------------------------------------------------------

def turn_text(state: State) -> str:
    """Whose move the table waits for, in the rulebook's words."""
    if state["phase"] == "over":
        over = outcome(state)
        return over.text if over else "Help has arrived."
    if state["phase"] == "drop-off":
        waiting = turn_seats(state)
        if len(waiting) > 2:  # the seats' chips beside it say who; a phone's banner stays two lines
            return f"Drop off supplies: {len(waiting)} counselors to go."
        return f"Drop off supplies: waiting for {listing(seat_name(seat) for seat in waiting)}."
    return f"{seat_name(state['turn'])}'s turn on Night {state['night']}."


def board_check(state: State) -> list[str]:
    """What the cardboard should show now: the night track, the card, the Cabin, the bag, every board."""
    waiting = jason_waiting(state)
    card = critical_objective(state)
    lines = [f"Night Marker on Night {state['night']}; {plural(waiting, 'Jason token')} waiting on the night track.",
             "Critical Supply: " + (f"{card['text']}, {card['points']} points"
                                     + (f", claimed by {seat_name(card['claimed_by'])}" if card["claimed_by"]
                                        else "") if card["text"] else "not entered") + ".",
             "Cabin: " + (", ".join(f"{space['place']} {seat_name(space['seat'])}"
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
        "box_tokens": BOX_TOKENS,
        "seating": seating_shown(state),
        "seat_names": {str(number): seat_name(number) for number in state["seats"]},
        "turn_name": seat_name(state["turn"]) if state["turn"] else None,
        "final_night": state["night"] == state["nights"],
        "jason_waiting": jason_waiting(state),
        "night_track": night_track(state),
        "cabin_spaces": cabin_spaces(state),
        "critical_card": critical_objective(state),
        "critical_text": critical_objective(state)["text"],
        "bag": bag_view(state),
        "order": rows,
        "scoreboard": sorted(rows, key=lambda row: row["seat"]),
        "standings": [{"seat": number, "name": seat_name(number), "points": points}
                      for number, points in standings(state)],
        "nights_list": list(range(1, state["nights"] + 1)),
        "drop_offs": {str(number): drop_off_choices(state, number)
                      for number in ([seat] if seat is not None else state["seats"])
                      if state["phase"] == "drop-off" and not state["players"][str(number)]["dropped"]},
        "last_scored": [dict(entry, name=seat_name(entry["seat"])) for entry in state["last_drop_offs"]],
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


__all__ = ["MOVES", "READINGS", "VIEW_SCHEMA", "new_state", "legal_actions", "apply", "outcome", "view", "figures",
           "bag_now", "out_of_bag", "pool_of", "keep_options", "reading"]
