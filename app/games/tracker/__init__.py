"""Any game: named counters, a round counter and a dice tray the host sets up, for boxes Night Shift doesn't know."""

import re

from ..cues import Cues
from ..options import CounterListOption, DiceListOption, IntOption
from ..spec import GameSpec, load_profile, numbered_seats

PROFILE = load_profile("tracker")

COLOURS = ("red", "blue", "yellow", "green", "orange", "purple", "cyan", "lightblue")

DEFAULT_COUNTERS = [
    {"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 20},
    {"name": "Doom", "scope": "shared", "min": 0, "max": 20, "start": 0},
]

CUES = Cues(spoken=re.compile(r": rolled "))  # the dice tray's rolls, read out on the board

SPEC = GameSpec(
    slug="tracker",
    shelf=90,
    cues=CUES,
    name="Any game: counters and dice",
    blurb="Counters per player or shared, a round counter and a dice tray, set up by the host for any game.",
    rulebook="",
    min_players=1,
    max_players=8,
    profile=PROFILE,
    seat_plan=lambda options: numbered_seats("Player", options["players"], COLOURS),
    options=(
        IntOption("players", "Players", 4, minimum=1, maximum=8, source="choice"),
        CounterListOption("counters", "Counters", DEFAULT_COUNTERS, source="choice",
                          max_count=PROFILE["max_counters"].value,
                          help="One counter per line: name, each (one per player) or shared, minimum, maximum, "
                               "start. Leave the minimum or maximum blank for none, e.g. 'Doom, shared, 0, , 0'."),
        DiceListOption("dice", "Dice tray", ["d6", "2d6", "d20"], source="choice",
                       max_count=PROFILE["max_tray"].value,
                       help="One per line or separated by commas, e.g. d20, 2d6+1, 4d6kh3 or d{0,5,5,10,10,15}. "
                            "Anyone can still type other dice or enter what real dice showed."),
    ),
)
