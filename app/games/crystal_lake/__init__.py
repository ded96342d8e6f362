"""Friday the 13th: Horror at Camp Crystal Lake: five nights of searching, end-of-night scoring done for you."""

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

SPEC = GameSpec(
    slug="crystal-lake",
    shelf=50,
    name="Friday the 13th: Horror at Camp Crystal Lake",
    blurb="Supplies, Jason attacks, the Bravery Bonus and end-of-night scoring.",
    rulebook="crystal-lake.txt",
    min_players=2,
    max_players=PROFILE["player_boards"].value,
    players_note="3-6 players as on the box (6 Player Boards); 2 players for a practice game.",
    profile=PROFILE,
    # everything is public; a phone's own counselor and drop-off are its `each_phone` blocks (_panel.html)
    phones_alike=("mine", "acting", "drop_offs"),
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
    ),
)
