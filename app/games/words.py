"""The words every game's screens share: one way to say a chance, a count and a list of names.

Pure: no Flask. A chance reads the same in every game ('67%', never '66.7%' here and '67%' there), and a chance that
exists is never rounded to '0%' or '100%'.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from math import floor


@lru_cache(maxsize=4096, typed=True)  # a table's views say the same few chances for every seat, after every move
def percent(chance: Fraction | int | float) -> str:
    """'0%', '<1%', '5%', '67%', '>99%', '100%': whole percent, rounded half up, never a possibility rounded away."""
    chance = Fraction(chance)
    if chance <= 0:
        return "0%"
    if chance >= 1:
        return "100%"
    shown = floor(chance * 100 + Fraction(1, 2))
    if shown == 0:
        return "<1%"
    if shown == 100:
        return ">99%"
    return f"{shown}%"


def plural(count: int, word: str, many: str | None = None) -> str:
    """'1 tile', '2 tiles', '0 tiles'; `many` for a word that doesn't just take an s ('1 Jason token')."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def listing(items: Iterable[str], last: str = "and") -> str:
    """'Ann', 'Ann and Bo', 'Ann, Bo and Cy'."""
    names = [str(item) for item in items]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {last} {names[-1]}"


__all__ = ["percent", "plural", "listing"]
