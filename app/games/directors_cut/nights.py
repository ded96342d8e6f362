"""The seven nights of Director's Cut as data: one row per night, copied from the rulebook's 'Individual NIGHT Rules'.

Pure: no Flask. `card` holds the night's sentences exactly as printed, so the host screen shows the real rule card
and the tests can hold each flag against the sentence it comes from.
"""

from __future__ import annotations

from dataclasses import dataclass

GOAL = "If the guards survive 10 full turns they win."


@dataclass(frozen=True)
class Night:
    """One night's rule card: who moves, what is doubled, what triggers Foxy and Golden Freddy, what a revive needs."""

    key: str
    label: str
    most_players: int
    foxy_moves: bool
    freddy_moves: bool
    bonnie_rolls: int  # "Bonnie rolls twice." from The Third Night on
    chica_doubled: bool
    freddy_doubled: bool
    foxy_triggers: tuple[int, ...]  # "when he rolls a 20 he charges" unless the night names more numbers
    golden_freddy_triggers: tuple[int, ...]  # "when he rolls a 12 he attacks" unless the night names more
    revive_needs: int  # guards in the Medical Office for the once-a-night revive; 0 = no revive tonight
    card: tuple[str, ...]

    @property
    def card_moves_golden_freddy(self) -> bool:
        """Whether tonight's card lets Golden Freddy move: 'All animatronics are allowed to move' or his own line.

        The First to Third Nights' cards name only Foxy and Freddy, so whether he rolls then is a reading (rules.py).
        """
        return any((line.startswith("All") and "allowed to move" in line) or "Golden Freddy" in line
                   for line in self.card)


NIGHTS: tuple[Night, ...] = (
    Night("first", "The First Night", 6, foxy_moves=False, freddy_moves=False, bonnie_rolls=1, chica_doubled=False,
          freddy_doubled=False, foxy_triggers=(20,), golden_freddy_triggers=(12,), revive_needs=0,
          card=("Foxy and Freddy aren't allowed to move.",
                "If the guards survive 10 full turns (a full turn is having every guard/animatronic moved once) "
                "they win.")),
    Night("second", "The Second Night", 6, foxy_moves=True, freddy_moves=False, bonnie_rolls=1, chica_doubled=False,
          freddy_doubled=False, foxy_triggers=(20,), golden_freddy_triggers=(12,), revive_needs=0,
          card=("Foxy is allowed to move, Freddy isn't.", GOAL)),
    Night("third", "The Third Night", 6, foxy_moves=True, freddy_moves=False, bonnie_rolls=2, chica_doubled=True,
          freddy_doubled=False, foxy_triggers=(20,), golden_freddy_triggers=(12,), revive_needs=0,
          card=("Bonnie rolls twice.", "Chica's rolls are doubled.", "Foxy is allowed to move, Freddy isn't.", GOAL)),
    Night("fourth", "The Fourth Night", 7, foxy_moves=True, freddy_moves=True, bonnie_rolls=2, chica_doubled=False,
          freddy_doubled=False, foxy_triggers=(20,), golden_freddy_triggers=(12,), revive_needs=1,
          card=("All animatronics are allowed to move.", "Bonnie rolls twice.", "Chica's rolls aren't doubled.",
                "If ONE player enters the Medical Office, a dead player can be revived and moved to default "
                "location. (Only usable once)", GOAL)),
    Night("fifth", "The Fifth Night", 7, foxy_moves=True, freddy_moves=True, bonnie_rolls=2, chica_doubled=True,
          freddy_doubled=True, foxy_triggers=(10, 20), golden_freddy_triggers=(12,), revive_needs=2,
          card=("All animatronics are allowed to move.", "Bonnie rolls twice.",
                "Chica, and Freddy's rolls are doubled.", "Foxy can be triggered when he rolls 10 or 20.",
                "If TWO player enters the Medical Office, a dead player can be revived and moved to default "
                "location. (Only usable once)", GOAL)),
    Night("sixth", "The Sixth Night", 7, foxy_moves=True, freddy_moves=True, bonnie_rolls=2, chica_doubled=True,
          freddy_doubled=True, foxy_triggers=(10, 15, 20), golden_freddy_triggers=(6, 12), revive_needs=2,
          card=("All animtronics are allowed to move.", "Bonnie rolls twice.",
                "Chica, and Freddy's rolls are doubled.", "Foxy can be triggered when he rolls 10, 15, or 20.",
                "Golden Freddy can be triggered when he rolls 6 or 12.",
                "If TWO player enters the Medical Office, a dead player can be revived and moved to default "
                "location. (Only usable once)", GOAL)),
    Night("final", "One Final Night", 7, foxy_moves=True, freddy_moves=True, bonnie_rolls=2, chica_doubled=True,
          freddy_doubled=True, foxy_triggers=(5, 10, 15, 20), golden_freddy_triggers=(3, 6, 9, 12), revive_needs=3,
          card=("All animatronics are allowed to move.", "Bonnie rolls twice.",
                "Chica, and Freddy's rolls are doubled.", "Foxy can be triggered when he rolls 5, 10, 15, or 20.",
                "Golden Freddy can be triggered when he rolls 3, 6, 9, or 12.",
                "If THREE player enters the Medical Office, a dead player can be revived and moved to default "
                "location. (Only usable once)", GOAL)),
)

BY_KEY: dict[str, Night] = {night.key: night for night in NIGHTS}


def night_of(key: object) -> Night | None:
    """The night for a setup key ('first' .. 'final'), or None for anything else."""
    return BY_KEY.get(key) if isinstance(key, str) else None
