"""The Guard bag's arithmetic, pure: the exact chance that a capture attempt draws a Guard, for the phones' odds."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from ..moves import is_whole

MISS = "Miss"
GUARD = "Guard"


@lru_cache(maxsize=1024, typed=True)  # every seat's view shows the same ten spaces' odds from the same bag
def capture_chance(miss: int, guards: int, draws: int) -> Fraction:
    """P(at least one Guard among `draws` tokens drawn without replacement from `miss` Miss and `guards` Guards).

    One minus the chance that every token drawn is a Miss: C(miss, draws) / C(miss + guards, draws).
    """
    for name, number in (("miss", miss), ("guards", guards), ("draws", draws)):
        if not is_whole(number) or number < 0:
            raise ValueError(f"{name} must be a whole number of tokens, not {number!r}")
    if draws > miss + guards:
        raise ValueError(f"cannot draw {draws} tokens from a bag of {miss + guards}")
    if guards == 0 or draws == 0:
        return Fraction(0)
    return 1 - Fraction(comb(miss, draws), comb(miss + guards, draws))


def bag_tokens(bag: dict[str, int]) -> list[str]:
    """The bag's true contents as a list of tokens, Guards first, for drawing one at a time."""
    return [GUARD] * bag[GUARD] + [MISS] * bag[MISS]
