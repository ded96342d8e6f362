"""The moments a table hears: which log lines make a scare cue, whose phone it concerns, which the TV board reads out.

A game declares them once, beside its rules (`GameSpec.cues`), in the rules' own log words, so the sound, the spoken
sentence and the line every screen shows come from the same entry. static/js/cues.js makes each sound in the browser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Every sound static/js/cues.js makes; a game's moments name one of these (tests/games/test_cues.py checks both sides).
SOUNDS = frozenset({"turn", "roll", "attack", "foxy", "golden-freddy", "jason", "jason-attack", "dawn", "loss",
                    "win"})


@dataclass(frozen=True)
class Moment:
    """A log line that matters: its sound, the words that mark it (a group `seat` may name the seat concerned, as the
    box names it), and whether the seat that made the move is concerned when the words name nobody."""

    sound: str
    words: re.Pattern[str]
    mover: bool = False

    def __post_init__(self):
        if self.sound not in SOUNDS:
            raise ValueError(f"{self.sound!r} is not a sound static/js/cues.js makes: {sorted(SOUNDS)}")


def moment(sound: str, words: str, *, mover: bool = False) -> Moment:
    return Moment(sound, re.compile(words), mover)


@dataclass(frozen=True)
class Heard:
    """What one log entry sounds like: the sound and the seat it concerns (by name, or the mover's)."""

    sound: str
    seat: str | None = None
    mover: bool = False


NOTHING = re.compile(r"(?!)")


@dataclass(frozen=True)
class Cues:
    """A game's moments, strongest first (one entry makes the first sound it matches), and the words of the log lines
    the board reads out even without a cue: the GM's rolls and events."""

    moments: tuple[Moment, ...] = ()
    spoken: re.Pattern[str] = NOTHING

    def heard(self, text: str, rolled: bool) -> Heard | None:
        """The cue of a log line; the app's dice with no moment of their own rattle on the board."""
        for each in self.moments:
            found = each.words.search(text)
            if found:
                named = found.groupdict().get("seat")
                return Heard(each.sound, named, each.mover and named is None)
        return Heard("roll") if rolled else None

    def speaks(self, text: str, heard: Heard | None) -> bool:
        """Whether the board reads this line out: a GM roll or event, or a moment (a rattle alone is no moment)."""
        return (heard is not None and heard.sound != "roll") or self.spoken.search(text) is not None


__all__ = ["SOUNDS", "Moment", "moment", "Heard", "Cues"]
