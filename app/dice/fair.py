"""The table's dice: one secret seed, committed to up front, turned into draws anyone can recompute once it is revealed.

How to check a table yourself, once the host ends it and the seed is shown:

1. The commitment shown from the start is the SHA-256 of the seed text: `printf %s SEED | sha256sum`.
2. Every draw has a number n (the table's roll counter: 0, 1, 2, ...) and, inside it, sub-draws i = 0, 1, ...
   (die i of a roll, counting across its groups; step i of a shuffle).
3. A sub-draw that needs a number from 0 to bound-1 computes, for j = 0, 1, 2, ...:
       block = HMAC-SHA256(key = seed as ASCII, message = f"{n}:{i}:{j}" as ASCII)
       x = the first 8 bytes of block as a big-endian unsigned number
   and takes the first x below (2**64 // bound) * bound, answering x % bound. (Rejecting the few x above
   that line is what keeps every answer exactly equally likely.)
4. A die with faces F (1..S for an ordinary dS, as listed for d{...}) shows F[uniform(seed, n, i, len(F))].
5. A pick from `bound` things is uniform(seed, n, 0, bound).
6. A shuffle of `size` things starts from order = [0, 1, ..., size-1] and, for step = 0, 1, ... with
   k = size-1-step going down to 1, swaps order[k] with order[uniform(seed, n, step, k + 1)] (Fisher-Yates).
   Position p of the shuffled list holds the thing that was at position order[p].
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

from ..reading import quoted
from .notation import Dice, DiceError, Roll, parse

MAX_PICK = 10**9


def new_seed() -> str:
    """A fresh secret seed for a table: 64 hex characters (256 bits) from the operating system."""
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    """The seed's SHA-256, shown from the start so nobody can swap the seed later."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


def uniform(seed: str, n: int, i: int, bound: int) -> int:
    """A number from 0 to bound-1 for draw n, sub-draw i; every value equally likely (see the module docstring)."""
    if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
        raise ValueError(f"bound must be a positive whole number, not {bound!r}")
    key = seed.encode("ascii")
    limit = (2**64 // bound) * bound
    j = 0
    while True:
        block = hmac.new(key, f"{n}:{i}:{j}".encode(), hashlib.sha256).digest()
        x = int.from_bytes(block[:8], "big")
        if x < limit:
            return x % bound
        j += 1


def roll_with(seed: str, n: int, dice: Dice) -> Roll:
    """The roll the seed gives `dice` as draw n: die k (across groups) shows faces[uniform(seed, n, k, len(faces))]."""
    values = []
    k = 0
    for group in dice.groups:
        shown = []
        for _ in range(group.count):
            shown.append(group.faces[uniform(seed, n, k, len(group.faces))])
            k += 1
        values.append(tuple(shown))
    return dice.with_values(values)


def shuffled_order(seed: str, n: int, size: int) -> list[int]:
    """The Fisher-Yates order draw n gives `size` things: position p of the result holds item order[p]."""
    order = list(range(size))
    for step, k in enumerate(range(size - 1, 0, -1)):
        j = uniform(seed, n, step, k + 1)
        order[k], order[j] = order[j], order[k]
    return order


def roll_record(roll: Roll) -> dict[str, Any]:
    """The JSON fields a roll adds to the table's dice log."""
    return {"dice": roll.dice.text, "values": [list(values) for values in roll.values],
            "kept": [list(kept) for kept in roll.kept], "total": roll.total}


def check_physical(dice: Dice, values: object) -> Roll:
    """What real dice showed, typed in by a player: one whole number per die, each a face that die has."""
    if isinstance(values, (str, bytes, bytearray)) or not isinstance(values, Sequence):
        raise DiceError(f"Enter what the dice showed as a list of whole numbers, one per die of {dice.text}.")
    expected = dice.dice_count
    if len(values) != expected:
        count = "1 die" if expected == 1 else f"{expected} dice"
        entered = "1 value" if len(values) == 1 else f"{len(values)} values"
        raise DiceError(f"{dice.text} is {count}; you entered {entered}.")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int):
            raise DiceError(f"Enter each die as a whole number; {quoted(value, 20)} isn't one.")
    grouped = []
    position = 0
    for group in dice.groups:
        shown = tuple(values[position:position + group.count])
        position += group.count
        for value in shown:
            if value not in group.faces:
                if group.standard:
                    raise DiceError(f"A {group.die} can't show {value}: its faces are 1 to {len(group.faces)}.")
                faces = ", ".join(str(face) for face in sorted(set(group.faces)))
                raise DiceError(f"That die's faces are {faces}; it can't show {value}.")
        grouped.append(shown)
    return dice.with_values(grouped)


def _dice(dice: str | Dice) -> Dice:
    return dice if isinstance(dice, Dice) else parse(dice)


def _why(why: object) -> str:
    if not isinstance(why, str):
        raise DiceError("The reason for a roll must be text.")
    return why


class TableDice:
    """The `rng` a game's rules get: every draw uses the next counter value and leaves a record to verify later."""

    def __init__(self, seed: str, counter: int, who: str):
        self.seed = seed
        self.counter = counter  # the next unused draw number
        self.who = who
        self.records: list[dict[str, Any]] = []

    def _next(self) -> int:
        n = self.counter
        self.counter += 1
        return n

    def roll(self, dice: str | Dice, why: str = "") -> Roll:
        """Roll with the table's seed, e.g. rng.roll('2d6+1', 'initiative')."""
        dice, why = _dice(dice), _why(why)
        n = self._next()
        roll = roll_with(self.seed, n, dice)
        self.records.append({"n": n, "kind": "roll", **roll_record(roll), "who": self.who, "why": why,
                             "source": "app"})
        return roll

    def physical(self, dice: str | Dice, values: object, why: str = "") -> Roll:
        """What the table's real dice showed; checked against the dice, and no counter value is used."""
        dice, why = _dice(dice), _why(why)
        roll = check_physical(dice, values)
        self.records.append({"kind": "roll", **roll_record(roll), "who": self.who, "why": why, "source": "physical"})
        return roll

    def randbelow(self, bound: int, why: str = "") -> int:
        """A number from 0 to bound-1, e.g. which of several tokens is drawn."""
        if isinstance(bound, bool) or not isinstance(bound, int) or not 1 <= bound <= MAX_PICK:
            raise DiceError(f"A pick is from 1 to {MAX_PICK:,} things, not {bound!r}.")
        why = _why(why)
        n = self._next()
        value = uniform(self.seed, n, 0, bound)
        self.records.append({"n": n, "kind": "pick", "bound": bound, "value": value, "who": self.who, "why": why,
                             "source": "app"})
        return value

    def choice(self, seq: Sequence[Any], why: str = "") -> Any:
        """One item of `seq`, each equally likely."""
        if len(seq) == 0:
            raise DiceError("There is nothing to choose from.")
        return seq[self.randbelow(len(seq), why)]

    def shuffle(self, items: Sequence[Any], why: str = "") -> list[Any]:
        """A new list with `items` in a random order; the input is left as it was."""
        why = _why(why)
        items = list(items)
        n = self._next()
        order = shuffled_order(self.seed, n, len(items))
        self.records.append({"n": n, "kind": "shuffle", "size": len(items), "order": order, "who": self.who,
                             "why": why, "source": "app"})
        return [items[index] for index in order]
