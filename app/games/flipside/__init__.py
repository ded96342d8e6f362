"""Five Nights at Freddy's: Flipside: a fan-made card game; each phone is its player's life counter."""

import re

from ..cues import Cues, moment
from ..options import ChoiceOption, IntOption
from ..spec import GameSpec, first_player_fits, load_profile, numbered_seats

PROFILE = load_profile("flipside")
DECK_MIN, DECK_MAX = PROFILE["deck_min"].value, PROFILE["deck_max"].value

# What the table hears, in rules.py's log words: a player out of Health, then an attack declared on a player.
CUES = Cues(moments=(
    moment("loss", r"(?P<seat>Player \d+) drops to 0 Health and is out"),
    moment("attack", r"declared an attack on (?P<seat>Player \d+)"),
), spoken=re.compile(r": assigned .* blockers?\b"))  # a fight's result

SPEC = GameSpec(
    slug="flipside",
    shelf=40,
    cues=CUES,
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
        IntOption("deck_size", "Cards in each deck", DECK_MIN, minimum=DECK_MIN, maximum=DECK_MAX,
                  help=f"A deck needs at least {DECK_MIN} cards; each player can correct theirs later."),
        ChoiceOption("redrawn_cards", "Opening redraw: the cards you swap go to", "graveyard", source="choice",
                     choices=(("graveyard", "your Graveyard (the rulebook: 'discard and redraw')"),
                              ("deck", "back into your deck (house rule)")),
                     help="'You may discard and redraw each card once.' Discarded cards go to the Graveyard, "
                          "where they count as Remnant; some tables shuffle them back instead."),
        # Readings of loose sentences (issue 17): the default is the most natural reading, the other one selectable.
        ChoiceOption("deck_out", "Deck Out ends the game", "empty", source="assumed",
                     choices=(("empty", "the moment a player's deck is empty"),
                              ("draw", "when a player with an empty deck has to draw at the start of a turn")),
                     help="'Deck Out: If a player's deck is empty, the player with the most Health wins.' Read "
                          "literally, the game ends as the last card leaves a deck; some tables play on until that "
                          "player has to 'Draw 1 card from your deck' and can't, as in Magic."),
        ChoiceOption("blocked_damage", "Several blockers: the attacker's ATK", "full", source="assumed",
                     choices=(("full", "hits each blocker in full"),
                              ("split", "is split among the blockers by the attacker")),
                     help="'Multiple characters can block a single attack.' 'All involved characters lose DEF "
                          "equal to the other's ATK.' Read as each blocker losing the attacker's full ATK; some "
                          "tables have the attacker split its ATK among its blockers instead."),
        ChoiceOption("white_copies", "White cards in the deck-list checker", "free", source="assumed",
                     choices=(("free", "no copy limit"),
                              ("four", f"at most {PROFILE['deck_copies'].value} copies, like every card")),
                     help="White: 'No deck limit, can be added to any deck.' Read as no copy limit for White "
                          "cards; the other reading frees White only of the colour limit and keeps 'Max 4 card "
                          "duplicates'."),
        # The rulebook prints no ceiling for Health, ATK or DEF; these only catch mistyped numbers (GAMES.md: assumed).
        IntOption("health_limit", "Highest Health a player can reach", PROFILE["health_limit"].value,
                  minimum=PROFILE["health"].value, maximum=999, source="assumed", help=PROFILE["health_limit"].note),
        IntOption("stat_limit", "Highest ATK or DEF in the combat helper", PROFILE["stat_limit"].value,
                  minimum=10, maximum=999, source="assumed", help=PROFILE["stat_limit"].note),
    ),
)

READINGS = ("deck_out", "blocked_damage", "white_copies")  # the setup options that choose a reading of the rulebook
READING_TEXT = {  # what a screen says about the reading in force
    ("deck_out", "empty"): "Deck Out ends the game the moment any player's deck is empty.",
    ("deck_out", "draw"): "Deck Out ends the game when a player with an empty deck has to draw at the start of "
                          "their turn.",
    ("blocked_damage", "full"): "Each blocker takes the attacker's full ATK.",
    ("blocked_damage", "split"): "The attacker splits its ATK among the blockers.",
    ("white_copies", "free"): "White cards have no copy limit.",
    ("white_copies", "four"): f"White cards hold to {PROFILE['deck_copies'].value} copies, like every card.",
}
