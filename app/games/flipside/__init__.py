"""Five Nights at Freddy's: Flipside: a fan-made card game; each phone is its player's life counter."""

from ..options import ChoiceOption, IntOption
from ..spec import GameSpec, first_player_fits, load_profile, numbered_seats

PROFILE = load_profile("flipside")

SPEC = GameSpec(
    slug="flipside",
    name="Five Nights at Freddy's: Flipside",
    blurb="Health, Power, Remnant and deck counters, turn phases and a combat helper.",
    rulebook="flipside.txt",
    min_players=2,
    max_players=4,
    profile=PROFILE,
    seat_plan=lambda options: numbered_seats("Player", options["players"], ("red", "blue", "yellow", "green")),
    check=lambda options: first_player_fits(options, options["players"]),
    options=(
        IntOption("players", "Players", 2, minimum=2, maximum=4, help="Players take turns clockwise."),
        IntOption("first_player", "Starting player (seat number)", 1, minimum=1, maximum=4,
                  help="'Choose a player to start.'"),
        IntOption("deck_size", "Cards in each deck", PROFILE["deck_min"].value, minimum=PROFILE["deck_min"].value,
                  maximum=400, help="A deck needs at least 40 cards; each player can correct theirs later."),
        ChoiceOption("redrawn_cards", "Opening redraw: the cards you swap go to", "graveyard", source="choice",
                     choices=(("graveyard", "your Graveyard (the rulebook: 'discard and redraw')"),
                              ("deck", "back into your deck (house rule)")),
                     help="'You may discard and redraw each card once.' Discarded cards go to the Graveyard, "
                          "where they count as Remnant; some tables shuffle them back instead."),
        # The rulebook prints no ceiling for Health, ATK or DEF; these only catch mistyped numbers (GAMES.md: assumed).
        IntOption("health_limit", "Highest Health a player can reach", PROFILE["health_limit"].value,
                  minimum=PROFILE["health"].value, maximum=999, source="assumed", help=PROFILE["health_limit"].note),
        IntOption("stat_limit", "Highest ATK or DEF in the combat helper", PROFILE["stat_limit"].value,
                  minimum=10, maximum=999, source="assumed", help=PROFILE["stat_limit"].note),
    ),
)
