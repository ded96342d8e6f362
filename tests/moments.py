"""Each game's moments that make a cue, as moves through the JSON API: what the TV board plays after each step and
what each phone concerned plays. Shared by the Flask tests (tests/tables/test_cues.py: the cue on the log line) and
the browser's (tests/browser/test_night_mood.py: the sound, the buzz and the spoken sentence).

A step's moves go from the host token, for a seated player when they name `seat`. Real dice everywhere but where a
step says so, so each game plays the same every time."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.boards import Call


@dataclass(frozen=True)
class Step:
    """Moves, then the cue the board plays (None: none) and the cue each phone concerned plays (seat -> sound)."""

    moves: list[dict]
    board: str | None = None
    phones: dict[int, str] = field(default_factory=dict)
    why: str = ""


@dataclass(frozen=True)
class Finish:
    """The host plays on to the game's end, each time the first offered move of the first of these types."""

    prefer: tuple[str, ...]


@dataclass(frozen=True)
class Script:
    options: dict
    players: list[str]
    steps: list[Step]


SCRIPTS = {
    "directors-cut": Script({"guards": 2, "night": "second", "rolling": "tap"}, ["Ann", "Bo"], [  # each roll entered
        Step([{"type": "roll", "values": [4], "seat": 1}], phones={2: "turn"}, why="Guard 2's turn arrives"),
        Step([{"type": "roll", "values": [6], "seat": 2}, {"type": "roll", "values": [5]}]),
        Step([{"type": "answer", "guard": 1}], board="attack", phones={1: "attack"}, why="Bonnie attacks Guard 1"),
        Step([{"type": "roll", "values": [2], "seat": 1}, {"type": "answer", "choice": "nobody"},
              {"type": "roll", "values": [2]}, {"type": "answer", "choice": "nobody"}]),
        Step([{"type": "roll", "values": [20]}], board="foxy", why="Foxy runs"),
        Step([{"type": "answer", "guard": 2}, {"type": "answer", "choice": "reaches"}], board="foxy",
             phones={2: "foxy"}, why="Foxy reaches Guard 2"),
        Step([{"type": "roll", "values": [7], "seat": 2}], board="loss", phones={2: "loss"}, why="Guard 2 dies"),
        Step([{"type": "roll", "values": [12]}], board="golden-freddy", phones={1: "golden-freddy"},
             why="Golden Freddy appears"),
        Step([{"type": "roll", "values": [1], "seat": 1}], board="loss", phones={1: "loss"},
             why="the last guard is eliminated: the animatronics win"),
    ]),
}
SCRIPTS |= {
    "survive-6am": Script({"players": 2}, ["Ann", "Bo"], [
        Step([{"type": "advance-time"}, {"type": "cameras-flipped"}], phones={1: "turn"}, why="Orange reacts first"),
        Step([{"type": "react", "cards": 0, "seat": 1}], phones={2: "turn"}, why="then Purple"),
        Step([{"type": "react", "cards": 0, "seat": 2}, {"type": "office", "whose": 1}], board="win",
             phones={1: "loss", 2: "win"}, why="an Animatronic reaches Orange's Office: Purple wins"),
        Step(["undo"]),
        Step([move for _ in range(11) for move in ({"type": "advance-time"}, {"type": "cameras-flipped"},
                                                   {"type": "react", "cards": 0, "seat": 1},
                                                   {"type": "react", "cards": 0, "seat": 2})]),
        Step([{"type": "advance-time"}], board="dawn", phones={1: "win", 2: "win"},
             why="the clock reaches 6:00 AM: both survive with equal power, a shared win"),
    ]),
    "night-of-frights": Script({"characters": ["Freddy", "Bonnie"], "event_deck": 8}, ["Ann", "Bo"], [
        Step([{"type": "first-player", "whose": 1}], phones={1: "turn"}, why="Freddy takes the first turn"),
        Step([{"type": "place-items", "seat": 1}, {"type": "spend", "steps": 3, "seat": 1}]),
        Step([{"type": "capture", "room": 2, "event": "guard", "seat": 1}], board="attack", phones={1: "attack"},
             why="Freddy tries to capture"),
        Step([{"type": "draw", "guards": 0, "seat": 1}, {"type": "end-turn", "seat": 1}], phones={2: "turn"},
             why="all Miss; Bonnie's turn"),
        Step([{"type": "place-items", "seat": 2}, {"type": "take-action", "what": "move", "seat": 2},
              {"type": "spend", "steps": 2, "seat": 2}]),
        Step([{"type": "capture", "room": 1, "event": "miss", "seat": 2}], board="attack", phones={2: "attack"},
             why="Bonnie tries to capture"),
        Step([{"type": "draw", "guards": 1, "seat": 2}], board="win", phones={1: "loss", 2: "win"},
             why="the real bag gives the Guard: Bonnie wins"),
    ]),
}
SCRIPTS |= {
    "crystal-lake": Script({"players": 2}, ["Ann", "Bo"], [
        Step([{"type": "search", "supply": "jason", "seat": 1}], board="jason", phones={1: "jason", 2: "turn"},
             why="Counselor 1 draws Jason; Counselor 2's turn"),
        Step([{"type": "search", "supply": "pan", "seat": 2}], phones={1: "turn"}),
        Step([{"type": "search", "supply": "jason", "seat": 1}], board="jason-attack", phones={1: "jason-attack"},
             why="a Second Jason Attack on Counselor 1"),
        Step([Finish(("return", "drop-off"))], board="win", phones={1: "win", 2: "loss"},
             why="five nights later, help arrives: Counselor 1's Bravery Bonus wins it"),
    ]),
    "flipside": Script({"players": 2}, ["Ann", "Bo"], [
        Step([{"type": "redraw", "whose": 1, "count": 0}, {"type": "redraw", "whose": 2, "count": 0},
              {"type": "start"}, {"type": "next-phase"}, {"type": "next-phase"}, {"type": "next-phase"}]),
        Step([{"type": "attack", "target": 2, "atk": 3, "def": 2, "seat": 1}], board="attack", phones={2: "attack"},
             why="Player 1 attacks Player 2"),
        Step([{"type": "block", "blockers": [], "seat": 2}]),
        Step([{"type": "next-phase"}, {"type": "next-phase"}], phones={2: "turn"}, why="Player 2's turn"),
        Step([{"type": "lose-health", "whose": 2, "amount": 17}], board="win", phones={1: "win", 2: "loss"},
             why="Player 2 is out: Player 1 is the last one standing"),
    ]),
    "tracker": Script({"players": 2}, ["Ann", "Bo"], [
        Step([{"type": "roll", "dice": "2d6"}], board="roll", why="the dice tray rolls"),
    ]),
}


def seated(call: Call, slug: str) -> dict:
    """A table of `slug` set up as its script says, every player seated (seat number -> token in "tokens")."""
    script = SCRIPTS[slug]
    table = call("/api/tables", {"game": slug, "options": script.options})
    table["tokens"] = {}
    for name in script.players:
        joined = call(f"/api/tables/{table['code']}/join", {"name": name, "key": table["join_key"]})
        table["tokens"][joined["seat"]] = joined["seat_token"]
    return table


def play(call: Call, table: dict, step: Step) -> None:
    """A step's moves, from the host token; "undo" takes the last move back."""
    code, host = table["code"], table["host_token"]
    for move in step.moves:
        if move == "undo":
            call(f"/api/tables/{code}/undo", {}, host)
        elif isinstance(move, Finish):
            while call(f"/api/tables/{code}", token=host)["outcome"] is None:
                offers = call(f"/api/tables/{code}", token=host)["view"]["moves"]
                call(f"/api/tables/{code}/actions", next(offer for kind in move.prefer for offer in offers
                                                        if offer["type"] == kind), host)
        else:
            call(f"/api/tables/{code}/actions", move, host)
