"""Five Nights at Freddy's Director's Cut: the app is the GM for up to four guards over seven nights."""

import re

from ..cues import Cues, moment
from ..options import BoolOption, ChoiceOption, IntOption, OptionError
from ..spec import GameSpec, SeatDef, load_profile
from .nights import NIGHTS as NIGHT_TABLE
from .odds import FOXY_KILLS

PROFILE = load_profile("directors_cut")

# (value, label, most players, Freddy may move), from nights.py's rule cards ("Individual NIGHT Rules").
NIGHTS = tuple((night.key, night.label, night.most_players, night.freddy_moves) for night in NIGHT_TABLE)
GUARDS = (("Guard 1", "black"), ("Guard 2", "darkblue"), ("Guard 3", "cyan"), ("Guard 4", "lightblue"))
PLAYABLE = (("bonnie_player", "Bonnie", "purple"), ("chica_player", "Chica", "yellow"),
            ("freddy_player", "Freddy", "brown"))


def seat_plan(options):
    """Guards in turn order, then any animatronic a player runs: 'Bonnie, Chica and Freddy can be controlled'."""
    seats = [SeatDef(name, colour) for name, colour in GUARDS[: options["guards"]]]
    seats += [SeatDef(name, colour) for key, name, colour in PLAYABLE if options[key]]
    return seats


def check(options):
    """A night's player limit, and Freddy only in a player's hands on a night he is allowed to move."""
    label, most, freddy_moves = next((label, most, moves) for value, label, most, moves in NIGHTS
                                     if value == options["night"])
    if options["freddy_player"] and not freddy_moves:
        raise OptionError(f"Freddy isn't allowed to move on {label}, so nobody can play him that night.")
    players = len(seat_plan(options))
    if players > most:
        raise OptionError(f"{label} is for 1-{most} players, not {players}.")


def die(key, label, minimum=2):
    entry = PROFILE[key]
    return IntOption(key, label, entry.value, minimum=minimum, maximum=100, source=entry.source, help=entry.note)


# Readings of loose sentences (rules.py's docstring lists each with its quote); each is "assumed": our reading.
READINGS = (
    ChoiceOption("freddy_enters", "A guard who enters Freddy's line of sight is attacked", "now", source="assumed",
                 choices=(("now", "at once, before any other animatronic acts"),
                          ("his-turn", "on Freddy's own turn in the turn order")),
                 help="'If a Guard enters Freddy's line of sight to activate him, Freddy moves to the Guard that "
                      "activated him and attacks.' Only the leaving case says 'On Freddy's next turn', so the "
                      "entering case reads as an attack at once."),
    ChoiceOption("foxy_odd_roll", "Foxy's odd roll when every guard is blocked ends", "full-turn", source="assumed",
                 choices=(("full-turn", "the whole full turn (Freddy and Golden Freddy don't act)"),
                          ("foxy", "only Foxy's turn (Freddy and Golden Freddy still act)")),
                 help="'If all Guards are blocked by anamatronics Foxy rolls, an even roll inactivates Foxy, an odd "
                      "roll resets all anamatronics to their starting location and the turn ends.' It doesn't say "
                      "whose turn; every animatronic going back to its start reads as the end of the full turn."),
    ChoiceOption("golden_freddy_early", "Golden Freddy on the First to Third Nights", "rolls", source="assumed",
                 choices=(("rolls", "rolls every full turn, as on the later nights"),
                          ("rests", "doesn't move: those nights' cards don't name him")),
                 help="The cards of those nights say only 'Foxy and Freddy aren't allowed to move.' or 'Foxy is "
                      "allowed to move, Freddy isn't.'; the turn order lists '(9) Golden Freddy' and 'Foxy and "
                      "Golden Freddy rolls are done by the GM.', so he rolls unless a card stops him."),
    ChoiceOption("foxy_inactive", "Foxy inactive for", "night", source="assumed",
                 choices=(("night", "the rest of the night"), ("next", "his next turn only")),
                 help="'If all Guards are blocked by anamatronics Foxy rolls, an even roll inactivates Foxy': the "
                      "rulebook doesn't say for how long."),
    ChoiceOption("dead_guards", "When the guards survive the night, a dead guard", "lose", source="assumed",
                 choices=(("lose", "doesn't win: only the guards alive at the end survived"),
                          ("revivable", "shares the win on a night with a Medical Office revive, where they could "
                                        "still come back"),
                          ("share", "shares the win with the guards (only Golden Freddy's eliminated don't)")),
                 help="'If the guards survive 10 full turns they win.' is all the rulebook says. A guard who died "
                      "did not survive the 10 full turns, so we read the win as belonging to the guards alive at the "
                      "end; a guard Golden Freddy eliminated 'cannot be revived' and never shares it."),
)

# What the table hears, strongest first, in rules.py's log words: a guard's death, Golden Freddy, Foxy, an attack.
CUES = Cues(moments=(
    moment("loss", r"(?P<seat>Guard \d+) dies\b"),
    moment("loss", r"(?P<seat>Guard \d+) rolled [^:]*: eliminated by Golden Freddy"),
    moment("golden-freddy", r"Golden Freddy rolled [^:]*: he attacks (?:(?P<seat>Guard \d+)|the guard)"),
    moment("golden-freddy", r"(?P<seat>Guard \d+) is furthest: Golden Freddy attacks"),
    moment("foxy", r"Foxy charges (?P<seat>Guard \d+) and attacks"),
    moment("foxy", r"Foxy rolled [^:]*: he charges"),
    moment("attack", r"(?P<seat>Guard \d+) is in Bonnie's line of sight: Bonnie attacks"),
    moment("attack", r"meets (?P<seat>Guard \d+) and attacks"),
    moment("attack", r"(?P<seat>Guard \d+) entered Freddy's room: Freddy wakes, moves to them and attacks"),
), spoken=re.compile(r"\b(?:Bonnie|Chica|Freddy|Foxy)\b"))  # the GM's pieces, not a guard's own move

SPEC = GameSpec(
    slug="directors-cut",
    shelf=30,
    cues=CUES,
    name="Five Nights at Freddy's Director's Cut",
    blurb="The app is the GM: animatronic dice, line-of-sight questions and seven nights.",
    rulebook="directors-cut.txt",
    min_players=1,
    max_players=7,
    players_note="Nights 1-3: 1-6 players; Nights 4-7: 1-7 players (up to 4 guards, plus Bonnie, Chica, Freddy).",
    profile=PROFILE,
    seat_plan=seat_plan,
    check=check,
    options=(
        ChoiceOption("night", "Night", "first", choices=tuple((value, label) for value, label, _, _ in NIGHTS),
                     help="Each night has its own rule card: who moves, doubled rolls, trigger numbers."),
        IntOption("guards", "Guards", 2, minimum=1, maximum=4, help="Players each choose a night guard piece."),
        BoolOption("bonnie_player", "A player runs Bonnie", False, help="Otherwise the app rolls for her."),
        BoolOption("chica_player", "A player runs Chica", False, help="Otherwise the app rolls for her."),
        BoolOption("freddy_player", "A player runs Freddy", False,
                   help="Only from The Fourth Night on: Freddy doesn't move on Nights 1-3."),
        # Not a reading: how this table rolls. The app's dice come from the table's committed seed either way.
        ChoiceOption("rolling", "Dice", "app", source="choice",
                     choices=(("app", "the app rolls each die as soon as it is due: one tap per question"),
                              ("tap", "each roll waits for a tap: the app's roll, or what a real die showed")),
                     help="With the app rolling, a roll that needs nobody's eyes (a guard's move, the GM's rolls) "
                          "comes with the tap before it; an attacked guard still rolls their own die."),
        die("guard_die", "Guard die sides", minimum=max(FOXY_KILLS)),
        die("bonnie_die", "Bonnie die sides"),
        die("chica_die", "Chica die sides"),
        die("freddy_die", "Freddy die sides"),
        *READINGS,
    ),
)
