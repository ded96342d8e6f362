"""How the GM speaks: the question on screen, who answers it, the board check and the odds, in the game's words.

Pure: reads a Director's Cut state, never changes one.
"""

from __future__ import annotations

from typing import Any

from ..words import listing, plural
from . import odds
from .nights import night_of
from .readings import reading

NAMES = {"bonnie": "Bonnie", "chica": "Chica", "foxy": "Foxy", "freddy": "Freddy", "golden_freddy": "Golden Freddy"}
FREDDY_ROOM = ("entered", "left", "neither")
FOXY_PATH = ("reaches", "cinema", "blocked")
MOVED = ("moved",)  # a guard's "I moved", when nothing else is asked about where they ended
CHOICE_LABELS = {
    "entered": "Moved into Freddy's room", "left": "Moved out, the last guard in it", "neither": "Moved, neither",
    "moved": "Moved",
    "reaches": "Foxy reaches them", "cinema": "In the cinema: safe", "blocked": "Blocked by an animatronic",
    "nobody": "Nobody",
}
BONNIE_SIGHT = ("In any room other than the cafeteria, the entire room is in Bonnie's line of sight. In the cafeteria "
                "only players directly inline with or adjacent to Bonnie and not blocked by an object are in her "
                "line of sight.")
FREDDY_SIGHT = "Any player in the same room as Freddy is in his line of sight, including the cafeteria."
SIGHT_RULES = {"bonnie_sight": ("Bonnie's line of sight", BONNIE_SIGHT),
               "freddy_room": ("Freddy's line of sight", FREDDY_SIGHT)}
# The board's own rules, from "Basic Rules", as printed: shown at the step where a piece moves.
GUARDS_MOVE = ("Guards can move through other Guards, but not finish on the same tile as another Guard. If there is "
               "no open tile for the Guard to move to then he does not move. Guards can not move through "
               "Animatronics.")
ANIMATRONICS_MOVE = ("Animatronics can not move through other Animatronics. If two Animatronics end on the same "
                     "tile, the last Animatronic to move sits on a tile next to the other Animatronic.")
MOVING = {**{kind: ("How guards move", GUARDS_MOVE) for kind in ("move", "moved", "freddy_room")},
          **{kind: ("How animatronics move", ANIMATRONICS_MOVE)
             for kind in ("bonnie", "bonnie_sight", "chica", "chica_met", "freddy", "freddy_met", "foxy_path",
                          "golden_furthest")}}
PLACE_WORDS = {"start": "at the start", None: "where the board shows"}  # an animatronic's place, besides a tile
REVIVE_COUNTS = {1: "ONE guard", 2: "TWO guards", 3: "THREE guards"}  # the rule card's own capitals


def guard_name(seat: int | None) -> str:
    return f"Guard {seat}"


def piece_name(piece: str) -> str:
    """A piece of the turn order ('guard-2', 'golden_freddy') as the table calls it."""
    return guard_name(int(piece.removeprefix("guard-"))) if piece.startswith("guard-") else NAMES[piece]


def seat_name(state: dict[str, Any], seat: int) -> str:
    """A seat as the seat plan names it: 'Guard 2', or the animatronic a player runs."""
    if str(seat) in state["guards"]:
        return guard_name(seat)
    return next(NAMES[piece] for piece, player in state["controllers"].items() if player == seat)


def _moves(ask: dict[str, Any]) -> str:
    """The roll a guard moves by, said before the question about where they ended (a stored table's has none)."""
    return f"{guard_name(ask['guard'])} moves up to {plural(ask['moves'], 'tile')}. " if "moves" in ask else ""


def _numbers(values: tuple[int, ...]) -> str:
    return listing((str(value) for value in values), "or")


def who_answers(state: dict[str, Any], ask: dict[str, Any]) -> str:
    """'Guard 2', "Bonnie's player" or 'the host': whoever the question is put to."""
    who = ask["who"]
    if who is None:
        return "the host"
    if str(who) in state["guards"]:
        return guard_name(who)
    return f"{seat_name(state, who)}'s player"


def question(state: dict[str, Any], ask: dict[str, Any]) -> str:
    """The one question on screen, in the GM's words."""
    tonight = night_of(state["night"])
    dice = state["dice"]
    kind = ask["kind"]
    if kind == "move":
        return f"{guard_name(ask['who'])}: roll your move (d{dice['guard']})."
    if kind == "freddy_room":
        return (f"{_moves(ask)}Did {guard_name(ask['guard'])} enter Freddy's room, or leave it as the last guard "
                "in it? (Either wakes him.)")
    if kind == "moved":
        return f"{_moves(ask)}Tap Moved once the piece stands."
    if kind == "bonnie":
        which = f", roll {ask['roll']} of {ask['rolls']}" if ask["rolls"] > 1 else ""
        return f"Roll for Bonnie: the tile she moves to (d{dice['bonnie']}{which})."
    if kind == "bonnie_sight":
        other = "another guard" if ask["seen"] else "a guard"
        return f"Bonnie is on tile {ask['tile']}. Is {other} in her line of sight?"
    if kind in ("chica", "freddy"):
        doubled = tonight.chica_doubled if kind == "chica" else tonight.freddy_doubled
        return (f"Roll for {NAMES[kind]}: {'she' if kind == 'chica' else 'he'} moves toward the nearest guard "
                f"(d{dice[kind]}{', doubled tonight' if doubled else ''}).")
    if kind in ("chica_met", "freddy_met"):
        piece = kind.removesuffix("_met")
        return (f"{NAMES[piece]} moves {plural(ask['steps'], 'tile')} toward the nearest guard. "
                f"Does {'she' if piece == 'chica' else 'he'} meet a guard on the way?")
    if kind == "foxy":
        return f"Roll for Foxy (d{dice['foxy']}): he charges on {_numbers(tonight.foxy_triggers)}."
    if kind == "foxy_nearest":
        return "Foxy charges! Which guard is nearest to him?"
    if kind == "foxy_path":
        name = guard_name(ask["guard"])
        return f"Foxy charges {name}. Is {name} in the cinema, or is Foxy's way blocked by another animatronic?"
    if kind == "foxy_blocked":
        ends = "the full turn ends" if reading(state, "foxy_odd_roll") == "full-turn" else "Foxy's turn ends"
        return ("Every guard is blocked: roll for Foxy again. Even: Foxy goes inactive. Odd: every animatronic "
                f"goes back to its start and {ends}.")
    if kind == "golden_freddy":
        return (f"Roll for Golden Freddy (d{dice['golden_freddy']}): he attacks on "
                f"{_numbers(tonight.golden_freddy_triggers)}.")
    if kind == "golden_furthest":
        return "Golden Freddy attacks! Which guard is furthest from him?"
    attacker = ask["attacker"]
    rule = {"foxy": "a 7 or an 8 dies", "golden_freddy": "a 1 is eliminated for good"}.get(attacker, "odd dies")
    return f"{NAMES[attacker]} attacks {guard_name(ask['who'])}: roll your die (d{dice['guard']}); {rule}."


def sight_rule(ask: dict[str, Any] | None) -> dict[str, str] | None:
    """The rulebook's line-of-sight sentence beside the question that needs it, as printed."""
    if ask is None or ask["kind"] not in SIGHT_RULES:
        return None
    label, text = SIGHT_RULES[ask["kind"]]
    return {"label": label, "text": text}


def freddy_room_note(state: dict[str, Any]) -> str:
    """'Freddy is activated when a Guard enters/leaves his line of sight': a guard put back at the start by a revive,
    or Freddy put back by Foxy's reset, can do that too, which only the board shows; the log says how to tell the
    app."""
    if state["freddy"] == "resting":
        return ""
    return " A guard now in Freddy's room, or none left in it, wakes him: the host corrects Freddy."


def board_rule(ask: dict[str, Any] | None) -> dict[str, str] | None:
    """The board's rule for the step where a piece moves (a guard's roll, an animatronic's move), as printed."""
    if ask is None or ask["kind"] not in MOVING:
        return None
    label, text = MOVING[ask["kind"]]
    return {"label": label, "text": text}


def place_of(state: dict[str, Any], piece: str) -> str | int | None:
    """Where the table last said an animatronic stands: 'start', a tile number, or None (only the board knows)."""
    return state.get("places", {}).get(piece)


def place_words(place: str | int | None) -> str:
    """An animatronic's place as the board check says it: 'on tile 7', 'at the start', 'where the board shows'."""
    return f"on tile {place}" if isinstance(place, int) else PLACE_WORDS[place]


def me_of(state: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
    """What this seat plays: a guard and how they are, or the animatronic a player runs; None off a seat."""
    if seat is None or seat not in state["seats"]:
        return None
    if str(seat) in state["guards"]:
        return {"kind": "guard", "guard": seat, "status": state["guards"][str(seat)]}
    piece = next(piece for piece, player in state["controllers"].items() if player == seat)
    return {"kind": piece, "name": NAMES[piece]}


def golden_freddy_moves(state: dict[str, Any]) -> bool:
    """Tonight's card lets him move, or the table reads the First to Third Nights' silence as letting him roll."""
    return night_of(state["night"]).card_moves_golden_freddy or reading(state, "golden_freddy_early") == "rolls"


def _foxy_state(state: dict[str, Any]) -> str:
    if state["foxy"] == "resting":
        return "Not allowed to move tonight"
    if state["foxy"] == "inactive":
        back = state["foxy_back"]
        return "Inactive for the rest of the night" if back is None else f"Inactive until full turn {back}"
    return f"Ready: charges on {_numbers(night_of(state['night']).foxy_triggers)}"


def _freddy_state(state: dict[str, Any]) -> str:
    mode = state["freddy"]
    if mode == "resting":
        return "Not allowed to move tonight"
    if mode == "inactive":
        when = "at once" if reading(state, "freddy_enters") == "now" else "on his turn"
        return f"Inactive: a guard entering (attacked {when}) or leaving his room wakes him"
    if mode == "strike":
        return f"Awake: going for {guard_name(state['freddy_target'])}"
    return "Awake: hunting the nearest guard"


FREDDY_STATES = {"inactive": "inactive", "strike": "awake, going for a guard", "hunt": "awake, hunting the nearest "
                                                                                     "guard"}


def _golden_freddy_state(state: dict[str, Any]) -> str:
    if not golden_freddy_moves(state):
        return "Doesn't move tonight: this night's card doesn't name him"
    return f"Rolls every full turn: attacks on {_numbers(night_of(state['night']).golden_freddy_triggers)}"


def _revive_state(state: dict[str, Any]) -> str:
    tonight = night_of(state["night"])
    if not tonight.revive_needs:
        return "None tonight (from The Fourth Night on)"
    if state["revive_used"]:
        return "Used tonight"
    return f"Not used: needs {REVIVE_COUNTS[tonight.revive_needs]} in the Medical Office, once"


def board(state: dict[str, Any]) -> dict[str, Any]:
    """The board check: who is alive, each animatronic's state, the full-turn count, the revive."""
    return {
        "guards": [{"seat": int(seat), "name": guard_name(int(seat)), "status": status}
                   for seat, status in state["guards"].items()],
        "alive": sum(status == "alive" for status in state["guards"].values()),
        "freddy": _freddy_state(state), "foxy": _foxy_state(state), "golden_freddy": _golden_freddy_state(state),
        "revive": _revive_state(state),
        "places": [{"piece": piece, "name": name, "place": place_of(state, piece),
                    "text": place_words(place_of(state, piece))} for piece, name in NAMES.items()],
        "current": piece_name(state["turn"]) if state["turn"] is not None else "The night is over",
        "full_turn": min(state["full_turn"], state["full_turns"]), "full_turns": state["full_turns"],
        "turns_done": state["turns_done"],
    }


def board_lines(state: dict[str, Any]) -> list[str]:
    """The board check as lines to hold against the cardboard, in the order the table looks."""
    shown = board(state)
    return [*(f"{guard['name']}: {guard['status']}" for guard in shown["guards"]),
            f"Freddy: {shown['freddy']}", f"Foxy: {shown['foxy']}", f"Golden Freddy: {shown['golden_freddy']}",
            f"Full turns survived: {shown['turns_done']} of {shown['full_turns']}",
            f"Medical Office: {shown['revive']}",
            *(f"{place['name']}: {place['text']}" for place in shown["places"] if isinstance(place["place"], int))]


def odds_view(state: dict[str, Any]) -> dict[str, Any]:
    """Foxy's and Golden Freddy's chance to strike this full turn, and a guard's chance to live through each attack."""
    tonight = night_of(state["night"])
    dice = state["dice"]
    order = state["order"]
    at = order.index(state["turn"]) if state["turn"] in order else len(order)
    ask = state["ask"]

    def still_to_roll(piece: str) -> bool:
        """True until the piece has rolled this full turn."""
        here = order.index(piece)
        return at < here or (at == here and ask is not None and ask["kind"] == piece)

    foxy = odds.chance(dice["foxy"], tonight.foxy_triggers) if state["foxy"] != "resting" else 0
    golden_moves = golden_freddy_moves(state)
    golden = odds.chance(dice["golden_freddy"], tonight.golden_freddy_triggers) if golden_moves else 0
    back = state["foxy_back"]
    foxy_rolls = state["foxy"] == "ready" or (state["foxy"] == "inactive" and back is not None
                                             and state["full_turn"] >= back)  # he wakes when his turn comes
    foxy_now = foxy if foxy_rolls and still_to_roll("foxy") else 0
    golden_now = golden if still_to_roll("golden_freddy") else 0
    attackers = [piece for piece in NAMES if not (piece == "foxy" and not tonight.foxy_moves)
                 and not (piece == "freddy" and not tonight.freddy_moves)
                 and not (piece == "golden_freddy" and not golden_moves)]
    survival = [{"attacker": piece, "name": NAMES[piece], "rule": _rule(piece),
                 **odds.shown(odds.survival(piece, dice["guard"]))} for piece in attackers]
    attack = None
    if ask is not None and ask["kind"] == "attack":
        attack = {"guard": ask["who"], "attacker": ask["attacker"], "name": NAMES[ask["attacker"]],
                  **odds.shown(odds.survival(ask["attacker"], dice["guard"]))}
    return {
        "foxy": odds.shown(foxy) | {"moves": tonight.foxy_moves, "triggers": list(tonight.foxy_triggers)},
        "golden_freddy": odds.shown(golden) | {"moves": golden_moves,
                                               "triggers": list(tonight.golden_freddy_triggers)},
        "foxy_now": odds.shown(foxy_now), "golden_freddy_now": odds.shown(golden_now),
        "either_now": odds.shown(odds.either(foxy_now, golden_now)),
        "survival": survival, "attack": attack,
    }


def _rule(piece: str) -> str:
    return {"foxy": "dies on a 7 or an 8", "golden_freddy": "eliminated on a 1"}.get(piece, "dies on an odd roll")
