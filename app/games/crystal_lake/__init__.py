"""Friday the 13th: Horror at Camp Crystal Lake: five nights of searching, end-of-night scoring done for you."""

import re

from ..cues import Cues, moment
from ..options import ChoiceOption, IntOption
from ..spec import GameSpec, first_player_fits, load_profile, numbered_seats

PROFILE = load_profile("crystal_lake")

# The readings of loose rules, each a setup option that quotes its sentence (listed in docs/games/crystal-lake.md).
CRITICAL_SET = ChoiceOption(
    "critical_set", "The Critical Supply set is checked on", "board", source="assumed",
    choices=(("board", "What you found tonight: your Player Board (and Hidden Stash)"),
             ("backpack", "Those and the Supplies saved in your Backpack")),
    help="'If you are the first player to return with the Supplies shown on the Critical Supply Card, gain the points "
         "shown on the card.' The Backpack saves Supplies 'to be traded at the end of another day', so we read the "
         "set as what you bring back tonight; switch to count the Backpack too.")

# The Hidden Stash Fear Card's own text isn't printed; the rulebook's one sentence about it is quoted in each help.
STASH_SENTENCE = ("'Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do not need to "
                  "be returned to the bag.' is all the rulebook says of the card.")
STASH_CARDS = ChoiceOption(
    "stash_cards", "Hidden Stash Fear Cards in play", "one", source="assumed",
    choices=(("one", "One per counselor at a time"), ("any", "As many as a counselor plays")),
    help=f"{STASH_SENTENCE} Nothing limits how many a counselor plays; we read one card on the table as one Hidden "
         "Stash, so a second is refused while the first is in play.")
STASH_WHEN = ChoiceOption(
    "stash_when", "Supplies go onto a Hidden Stash", "any-time", source="assumed",
    choices=(("any-time", "Any time during the night, as no action"),
             ("when-played", "Only as the card is played, before the next counselor's turn")),
    help=f"{STASH_SENTENCE} When Supplies may be moved onto it isn't said; we let a counselor out searching move them "
         "any time that night, like the Escape Token, which 'does not count as an action'.")
STASH_END = ChoiceOption(
    "stash_end", "A Hidden Stash at the end of the night", "drop-off", source="assumed",
    choices=(("drop-off", "Is dropped off with the board, and the card discarded"),
             ("stays", "Stays in play, its Supplies safe until the last drop-off")),
    help=f"{STASH_SENTENCE} How long the card stays isn't said; we read it as a Fear Card for the night, its Supplies "
         "dropped off with the board ('At the end of each night, Supplies are dropped off at the Cabin for points').")

# What the table hears, in rules.py's log words: a Second Jason Attack, then a Jason token drawn.
CUES = Cues(moments=(
    moment("jason-attack", r"(?:on (?P<seat>Counselor \d+)'s Player Board)?: SECOND JASON ATTACK", mover=True),
    moment("jason", r"found a (?:second )?Jason token", mover=True),
), spoken=re.compile(r": searched and found"))  # the Camp Bag

SPEC = GameSpec(
    slug="crystal-lake",
    shelf=50,
    cues=CUES,
    name="Friday the 13th: Horror at Camp Crystal Lake",
    blurb="Supplies, Jason attacks, the Bravery Bonus and end-of-night scoring.",
    rulebook="crystal-lake.txt",
    min_players=2,
    max_players=PROFILE["player_boards"].value,
    players_note="3-6 players as on the box (6 Player Boards); 2 players for a practice game.",
    profile=PROFILE,
    seat_plan=lambda options: numbered_seats("Counselor", options["players"],
                                             ("red", "blue", "yellow", "green", "purple", "orange")),
    check=lambda options: first_player_fits(options, options["players"]),
    options=(
        IntOption("players", "Players", 4, minimum=2, maximum=PROFILE["player_boards"].value,
                  help="3-6 on the box; 2 plays as a practice game."),
        ChoiceOption("mode", "Game", "advanced",
                     choices=(("basic", "Basic: Defense Fear Cards removed"),
                              ("advanced", "Advanced: the whole Fear deck")),
                     help="'For a basic game simply remove the Defense Fear Cards from the game.'"),
        IntOption("first_player", "First player (seat number)", 1, minimum=1, maximum=6,
                  help="The player who most recently watched a horror movie goes first."),
        CRITICAL_SET,
        STASH_CARDS,
        STASH_WHEN,
        STASH_END,
    ),
)
