"""Five Nights at Freddy's: Survive 'Til 6AM: one or two guards, a clock deck and a Power Dial each."""

from ..options import ChoiceOption, IntOption, NumberListOption, OptionError
from ..spec import GameSpec, SeatDef, load_profile

PROFILE = load_profile("survive_6am")
ATTESTED_FACES = (5, 10)  # "He rolls a 5 and a 10." (Example Turn): the only Power die faces the rulebook shows


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


SPEC = GameSpec(
    slug="survive-6am",
    shelf=10,
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
    ),
)
