"""Exact odds the GM never had time for: Foxy and Golden Freddy striking, a guard living through an attack.

Pure: built on the dice module's exact distributions, so every figure is a Fraction before it becomes text, and the
text is `words.percent`'s, the same in every game.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache

from ...dice import parse
from ..words import percent

FOXY_KILLS = (7, 8)  # "If the attacked Guard rolls a 7 or an 8 they die.": a guard's die needs at least 8 sides


def chance(sides: int, hits: Iterable[int]) -> Fraction:
    """The chance one d`sides` shows any of `hits` (faces it cannot show count for nothing)."""
    return _chance(sides, frozenset(hits))


@lru_cache(maxsize=1024, typed=True)  # every seat's view works out the same few chances, after every move
def _chance(sides: int, hits: frozenset[int]) -> Fraction:
    distribution = parse(f"d{sides}").distribution()
    return sum((distribution.get(face, Fraction(0)) for face in hits), Fraction(0))


def fatal_faces(attacker: str, sides: int) -> list[int]:
    """The faces of the attacked guard's die that end them, by who attacks.

    Bonnie, Chica, Freddy: "If the attacked Guard rolls an odd number they die."
    Foxy: "If the attacked Guard rolls a 7 or an 8 they die."
    Golden Freddy: "If the Guard being attacked rolls a 1 on their dice they are eliminated from the game."
    """
    if attacker == "foxy":
        return [face for face in FOXY_KILLS if face <= sides]
    if attacker == "golden_freddy":
        return [1]
    return [face for face in range(1, sides + 1) if face % 2 == 1]


def survival(attacker: str, sides: int) -> Fraction:
    """A guard's chance to come out of an attack alive (for Golden Freddy: not eliminated)."""
    return 1 - chance(sides, fatal_faces(attacker, sides))


def either(first: Fraction, second: Fraction) -> Fraction:
    """The chance that at least one of two independent rolls hits."""
    return 1 - (1 - first) * (1 - second)


def shown(probability: Fraction) -> dict[str, str]:
    """A chance as a table reads it: '1 in 20' and '5%', and the exact fraction for anyone who checks."""
    if probability == 0:
        ratio = "never"
    elif probability == 1:
        ratio = "certain"
    else:
        ratio = f"{probability.numerator} in {probability.denominator}"
    return {"ratio": ratio, "percent": percent(probability),
            "exact": f"{probability.numerator}/{probability.denominator}"}
