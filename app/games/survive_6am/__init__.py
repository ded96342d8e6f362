"""Five Nights at Freddy's: Survive 'Til 6AM: one or two guards, a clock deck and a Power Dial each."""

import re

from ..cues import Cues, moment
from ..options import ChoiceOption, IntOption, NumberListOption, OptionError
from ..spec import GameSpec, SeatDef, load_profile

PROFILE = load_profile("survive_6am")
ATTESTED_FACES = (5, 10)  # "He rolls a 5 and a 10." (Example Turn): the only Power die faces the rulebook shows


# The readings of loose rules, each a setup option that quotes its sentence (listed in docs/games/survive-6am.md).
TIE = ChoiceOption(
    "tie", "Equal power at 6:00 AM", "shared", source="assumed",
    choices=(("shared", "A shared win"), ("star", "The star breaks the tie"), ("nobody", "Nobody wins")),
    help="'If both players survive until 6:00 AM without an Animatronic moving into their Offices, the player with "
         "the most power remaining wins!' The rulebook doesn't say what equal power means; we read it as a shared "
         "win.")
STAR_MOVES = ChoiceOption(
    "star_moves", "Whose dial shows the star", "fixed", source="assumed",
    choices=(("fixed", "The dial picked at setup, all night"),
             ("dial", "Whoever's dial shows it: the table says so on a tie")),
    help="'If there is a tie, the player who has a star icon showing on their dial reacts first.' Which dial shows "
         "the star isn't said; 'showing on their dial' suggests it follows the dial as it turns. We keep it where "
         "the setup put it; or, on a tie in Phase One, the table says whose dial shows it.")
RESOLVE_ORDER = ChoiceOption(
    "resolve", "Phase Three's order", "guard", source="assumed",
    choices=(("guard", "Guard by guard: the first guard's cards Hallway to Show Stage, then the other's"),
             ("location", "Location by location: both Hallways in Phase Two's order, then Pirate Cove, ...")),
    help="'Resolve remaining face-up cards, using Phase Two's turn order, one at a time from the Hallway to the Show "
         "Stage.' Turns pass in Phase Two's order (most power first), never in seat order; whether that order runs "
         "guard by guard or location by location isn't said. We read it guard by guard.")


def seat_plan(options):
    """Solo play uses 'the Player 1 (orange) Camera Monitor cards'; two players are orange and purple."""
    seats = [SeatDef("Orange", "orange"), SeatDef("Purple", "purple")]
    return seats[: options["players"]]


def check(options):
    """The Power die faces a host types must still be able to roll the rulebook's example turn (a 5 and a 10)."""
    faces = options["power_die_faces"]
    missing = [str(face) for face in ATTESTED_FACES if face not in faces]
    if missing:
        raise OptionError(f"Power die faces must include a {' and a '.join(missing)}: the rulebook's example turn "
                          "rolls a 5 and a 10 on the Power dice.")


# What the table hears, in rules.py's log words: the clock reaching 6:00 AM, a guard's Office reached.
CUES = Cues(moments=(
    moment("dawn", r"the board's 6:00 AM space shows"),
    moment("loss", r"an Animatronic reached (?P<seat>\w+)'s Office"),
), spoken=re.compile(r": advanced time"))  # the clock

SPEC = GameSpec(
    slug="survive-6am",
    shelf=10,
    cues=CUES,
    name="Five Nights at Freddy's: Survive 'Til 6AM",
    blurb="Clock deck, Power Dials and Power dice for one or two guards.",
    rulebook="survive-til-6am.txt",
    min_players=1,
    max_players=2,
    players_note="1 player uses the solo side of the board and the orange cards.",
    profile=PROFILE,
    seat_plan=seat_plan,
    check=check,
    options=(
        IntOption("players", "Players", 2, minimum=1, maximum=2,
                  help="1 = solo (1-player side, orange cards); 2 = orange and purple."),
        ChoiceOption("star", "Star on the Power Dial", "orange",
                     choices=(("orange", "Orange's dial"), ("purple", "Purple's dial")), source="assumed",
                     help="Who reacts first when power is tied. The rulebook does not say who holds the star."),
        ChoiceOption("power_dice", "Power dice", "physical",
                     choices=(("physical", "Roll the real dice and enter them"), ("virtual", "The app rolls")),
                     source="choice",
                     help="The real dice's faces are not printed in the rulebook, so entering them is the default."),
        NumberListOption("power_die_faces", "Power die faces (app rolls and odds)", PROFILE["power_die_faces"].value,
                         length=6, minimum=0, maximum=100, source="assumed",
                         help=PROFILE["power_die_faces"].note + " The phones' odds use these faces; a real die's "
                              "entered value may be 1 up to the largest face listed here."),
        TIE,
        STAR_MOVES,
        RESOLVE_ORDER,
    ),
)
