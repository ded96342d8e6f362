"""Power arithmetic for Survive 'Til 6AM, pure and exact: what a reaction costs and how long a Power Dial lasts.

"Roll Power dice equal to the number of cards you are reacting to" and "If you roll Power dice this phase, each
face-up Power Depletion card subtracts an additional 5 Power. If you didn't react to any cards during this phase,
ignore this effect." So a reaction to n cards with d face-up Power Depletion cards costs the n dice + 5d, and
nothing at all when n is 0.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from ...dice import parse
from ..words import percent  # noqa: F401  (one way to say a chance in every game; the phones' odds use it)


def power_dice(faces: list[int] | tuple[int, ...], count: int) -> str:
    """Dice notation for `count` Power dice with these faces, e.g. '2d{5,5,10,10,15,20}'."""
    return f"{count}d{{{','.join(str(face) for face in faces)}}}"


def reaction_cost(dice_total: int, dice_rolled: int, depletion: int, depletion_cost: int) -> int:
    """The power a reaction subtracts: the dice plus 5 per face-up Power Depletion card, only if a die was rolled."""
    if dice_rolled == 0:
        return 0
    return dice_total + depletion * depletion_cost


@lru_cache(maxsize=256)
def cost_distribution(faces: tuple[int, ...], count: int, depletion: int, depletion_cost: int) -> dict[int, Fraction]:
    """Every cost a reaction to `count` cards can have, with its exact chance."""
    if count == 0:
        return {0: Fraction(1)}
    extra = depletion * depletion_cost
    return {total + extra: chance for total, chance in parse(power_dice(faces, count)).distribution().items()}


def chance_over(faces: tuple[int, ...], count: int, depletion: int, depletion_cost: int, power: int) -> Fraction:
    """The chance this reaction costs more than the power left, i.e. that you react to NOTHING."""
    return sum((chance for cost, chance in cost_distribution(faces, count, depletion, depletion_cost).items()
                if cost > power), Fraction(0))


@lru_cache(maxsize=256)
def _affordable_table(faces: tuple[int, ...], count: int, depletion: int, depletion_cost: int,
                      power: int) -> tuple[Fraction, ...]:
    """m[p] = expected number of such reactions paid in a row, starting from p power, before one costs too much.

    Each reaction either is paid (cost c <= p, leaving p - c) or ends the run, so
    m[p] = sum over c <= p of P(c) * (1 + m[p - c]); a cost of 0 (possible only with a 0 face and no depletion)
    leaves p unchanged, so that term moves to the left side:
    m[p] * (1 - P(0)) = P(c <= p) + sum over 0 < c <= p of P(c) * m[p - c].
    """
    distribution = cost_distribution(faces, count, depletion, depletion_cost)
    free = distribution.get(0, Fraction(0))
    paid = [(cost, chance) for cost, chance in distribution.items() if cost > 0]
    table: list[Fraction] = []
    for left in range(power + 1):
        within = free + sum((chance for cost, chance in paid if cost <= left), Fraction(0))
        carried = sum((chance * table[left - cost] for cost, chance in paid if cost <= left), Fraction(0))
        table.append((within + carried) / (1 - free))
    return tuple(table)


def expected_affordable(faces: tuple[int, ...], count: int, depletion: int, depletion_cost: int,
                        power: int) -> Fraction:
    """How many reactions like this one the dial pays for on average before one costs more than is left."""
    if count == 0:
        raise ValueError("a reaction to no cards costs nothing; every one of them is affordable")
    if power < 0:
        return Fraction(0)
    upto = max(power, 100)  # one table per kind of reaction covers every dial value up to 100
    return _affordable_table(tuple(faces), count, depletion, depletion_cost, upto)[power]
