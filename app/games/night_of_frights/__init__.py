"""Five Nights at Freddy's: Night of Frights!: animatronics climb the Scare Tracker and draw for the Guard."""

import re

from ..cues import Cues, moment
from ..options import ChoiceOption, IntOption, MultiChoiceOption, NumberListOption, OptionError
from ..spec import GameSpec, SeatDef, load_profile

PROFILE = load_profile("night_of_frights")
CHARACTERS = (("Freddy", "brown"), ("Bonnie", "purple"), ("Chica", "yellow"), ("Foxy", "red"))
DRAW_MOST = sum(PROFILE["bag"].value.values())  # a space can't draw more tokens than the bag holds at setup

# The readings of loose rules, each a setup option that quotes its sentence (listed in docs/games/night-of-frights.md).
PAST_TEN = ChoiceOption(
    "past_ten", "A spend that would pass 10", "stop", source="assumed",
    choices=(("stop", "Stops at 10, and the log says so"), ("refuse", "Is refused")),
    help="'Then flip your Character token to the scary side and move it one, two, or three spaces up the Scare "
         "Tracker according to the scare symbols shown.' The tracker ends at 10 ('When you reach 10 on the Scare "
         "Tracker, you no longer flip your Character token to the X side') and the rulebook doesn't say what a spend "
         "past it does: we read it as stopping on 10.")
LEFT = ChoiceOption(
    "left", "The player on your left", "seat-order", source="assumed",
    choices=(("seat-order", "The next character in seat order, until a pass says otherwise"),
             ("ask", "Asked at every pass")),
    help="'Take actions one at a time, passing an Action token to the player on your left after each one.' The app "
         "can't see who sits where: it assumes seat order (Freddy, Bonnie, Chica, Foxy) and remembers whoever a turn "
         "is passed to instead, or it asks at every pass.")


def seat_plan(options):
    """'Each player chooses a character': one seat per character in play."""
    colours = dict(CHARACTERS)
    return [SeatDef(name, colours[name]) for name in options["characters"]]


def check(options):
    """'2 Players: Remove 3+ and 4 cards. 3 Players: Remove 4 cards.': fewer players mean a smaller Event deck.

    How many cards carry each mark is not printed, so the host counts the deck after removing them (assumed size).
    """
    players = len(options["characters"])
    full = PROFILE["event_cards"].value
    if players == 4 and options["event_deck"] != full:
        raise OptionError(f"With 4 players all {full} Event cards are shuffled into the deck, "
                          f"not {options['event_deck']}.")
    if players < 4 and options["event_deck"] >= full:
        marks = "3+ and 4" if players == 2 else "4"
        raise OptionError(f"With {players} players the Event cards marked {marks} come out of the deck: "
                          f"count the Event cards left and enter that number.")


# What the table hears, in rules.py's log words: a capture attempt (the win is the game's end).
CUES = Cues(moments=(
    moment("attack", r"(?:for (?P<seat>\w+), )?tried to capture", mover=True),
), spoken=re.compile(r"\bdrew\b"))  # the bag

SPEC = GameSpec(
    slug="night-of-frights",
    shelf=20,
    cues=CUES,
    name="Five Nights at Freddy's: Night of Frights!",
    blurb="Scare Tracker, the Guard bag and the Event deck, with live capture odds.",
    rulebook="night-of-frights.txt",
    min_players=2,
    max_players=4,
    profile=PROFILE,
    seat_plan=seat_plan,
    check=check,
    options=(
        MultiChoiceOption("characters", "Characters in play", [name for name, _ in CHARACTERS],
                          choices=tuple((name, name) for name, _ in CHARACTERS), min_count=2, max_count=4,
                          help="One per player. Freddy draws an extra Action card; Chica takes Mr. Cupcake."),
        IntOption("event_deck", "Event cards in the deck", PROFILE["event_cards"].value, minimum=1,
                  maximum=PROFILE["event_cards"].value, source="assumed",
                  help=f"All {PROFILE['event_cards'].value} with four players. With fewer, remove the marked cards "
                       "and enter how many are left: the rulebook does not say how many carry each mark."),
        NumberListOption("draw_table", "Tokens drawn from tracker spaces 1-10", PROFILE["draw_table"].value,
                         length=PROFILE["scare_track"].value[1], minimum=1, maximum=DRAW_MOST, source="assumed",
                         help=PROFILE["draw_table"].note),
        PAST_TEN,
        LEFT,
    ),
)
