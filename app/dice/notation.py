"""Dice notation (d20, 2d6+1, 4d6kh3, d{0,5,5,10,10,15}) parsed into checked, exact dice a table can trust."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import combinations_with_replacement
from math import factorial

from ..reading import quoted

MAX_TEXT = 100
MAX_DICE = 100
MAX_SIDES = 1000
MAX_FACES = 100
MAX_FACE = 1000
MAX_MODIFIER = 1000
MAX_KEEP_OUTCOMES = 2_000_000  # keep/drop groups are computed by enumerating outcomes up to this many
MAX_WORK = 10_000_000  # estimated steps of exact arithmetic one distribution() may take (about half a second)

EXAMPLES = "Write it like d20, 2d6+1, 4d6kh3 or d{0,5,5,10,10,15}."

# ASCII digits only: a bare \d also matches other scripts' digits ("٣d6"), which int() then reads as 3.
_TERM = re.compile(r"(?P<count>\d+)?d(?P<die>\d+|%|\{[^{}]*\})(?P<suffix>(?:kh|kl|k|dh|dl)\d*)?|(?P<number>\d+)",
                   re.ASCII)
_SUFFIX = re.compile(r"(kh|kl|k|dh|dl)(\d*)", re.ASCII)
_FACE = re.compile(r"[+-]?\d{1,7}", re.ASCII)


class DiceError(ValueError):
    """Dice that can't be rolled as written, or a roll the dice can't show; the message is a sentence for players."""


@dataclass(frozen=True)
class DiceGroup:
    """Some identical dice rolled together, e.g. 3d6 or 4d6kh3; `keep` says which ('h'ighest/'l'owest) and how many."""

    count: int
    faces: tuple[int, ...]
    keep: tuple[str, int] | None = None
    sign: int = 1

    @property
    def standard(self) -> bool:
        """True for an ordinary die numbered 1 to its number of sides."""
        return self.faces == tuple(range(1, len(self.faces) + 1))

    @property
    def die(self) -> str:
        """One die of the group as written: 'd6' or 'd{0,5,10}'."""
        if self.standard:
            return f"d{len(self.faces)}"
        return "d{" + ",".join(str(face) for face in self.faces) + "}"

    @property
    def label(self) -> str:
        """The group as written, without its sign: '3d6', 'd{0,5,10}', '4d6kh3'."""
        count = "" if self.count == 1 else str(self.count)
        keep = f"k{self.keep[0]}{self.keep[1]}" if self.keep else ""
        return f"{count}{self.die}{keep}"

    def kept_indexes(self, values: Sequence[int]) -> set[int]:
        """Which dice of a roll count (ties: the earlier die is kept)."""
        if self.keep is None:
            return set(range(len(values)))
        which, how_many = self.keep
        order = sorted(range(len(values)), key=lambda index: (-values[index] if which == "h" else values[index], index))
        return set(order[:how_many])

    def kept_of(self, values: Sequence[int]) -> tuple[int, ...]:
        """The values this group counts, in roll order."""
        chosen = self.kept_indexes(values)
        return tuple(value for index, value in enumerate(values) if index in chosen)

    def counts(self) -> dict[int, int]:
        """How many of the equally likely outcomes give each sum of this group (before its sign)."""
        weights: dict[int, int] = {}
        for face in self.faces:
            weights[face] = weights.get(face, 0) + 1
        if self.keep is None:
            return _power(weights, self.count)
        return _kept_counts(weights, self.count, self.keep)


@dataclass(frozen=True)
class Dice:
    """A parsed, checked dice expression; `text` is its canonical form, e.g. '2d6+1'."""

    text: str
    groups: tuple[DiceGroup, ...]
    modifier: int = 0

    def __str__(self) -> str:
        return self.text

    @property
    def dice_count(self) -> int:
        return sum(group.count for group in self.groups)

    @property
    def min_total(self) -> int:
        return self.modifier + sum(_group_extreme(group, low=group.sign > 0) * group.sign for group in self.groups)

    @property
    def max_total(self) -> int:
        return self.modifier + sum(_group_extreme(group, low=group.sign < 0) * group.sign for group in self.groups)

    def distribution(self) -> dict[int, Fraction]:
        """Every possible total and its exact probability, e.g. for 'the chance this costs more than your power'."""
        return dict(self._distribution)

    @cached_property
    def _distribution(self) -> dict[int, Fraction]:
        _check_work(self)
        totals = {self.modifier: 1}
        outcomes = 1
        for group in self.groups:
            counts = group.counts()
            totals = _convolve(totals, {group.sign * total: count for total, count in counts.items()})
            outcomes *= len(group.faces) ** group.count
        return {total: Fraction(count, outcomes) for total, count in sorted(totals.items())}

    def with_values(self, values: Sequence[Sequence[int]]) -> Roll:
        """The roll these dice make when they show `values` (one tuple per group, in roll order)."""
        values = tuple(tuple(group_values) for group_values in values)
        kept = tuple(group.kept_of(group_values) for group, group_values in zip(self.groups, values, strict=True))
        pairs = zip(self.groups, kept, strict=True)
        total = self.modifier + sum(group.sign * sum(group_kept) for group, group_kept in pairs)
        return Roll(self, values, kept, total)


@dataclass(frozen=True)
class Roll:
    """What a set of dice showed: `values` per group in roll order, `kept` the ones that count, and the total."""

    dice: Dice
    values: tuple[tuple[int, ...], ...]
    kept: tuple[tuple[int, ...], ...]
    total: int

    def describe(self) -> str:
        """The roll as a player reads it: '3 + 5 + 1 = 9', '4d6kh3: 6, 4, 3, (1) = 13' or just '20'."""
        parts: list[tuple[int, str]] = []
        for group, values in zip(self.dice.groups, self.values, strict=True):
            if group.keep is not None:
                chosen = group.kept_indexes(values)
                shown = [str(value) if index in chosen else f"({value})" for index, value in enumerate(values)]
                parts.append((group.sign, f"{group.label}: {', '.join(shown)}"))
            elif group.sign < 0 and len(values) > 1:
                parts.append((-1, "(" + " + ".join(str(value) for value in values) + ")"))
            else:
                parts.extend((group.sign, str(value)) for value in values)
        if self.dice.modifier:
            parts.append((1 if self.dice.modifier > 0 else -1, str(abs(self.dice.modifier))))
        text = ("-" if parts[0][0] < 0 else "") + parts[0][1]
        for sign, part in parts[1:]:
            text += f" {'+' if sign > 0 else '-'} {part}"
        if len(parts) == 1 and parts[0][0] > 0 and self.dice.groups[0].keep is None:
            return text
        return f"{text} = {self.total}"


def parse(text: object) -> Dice:
    """Read dice notation, case and spaces ignored; DiceError says what is wrong and how to write it."""
    if not isinstance(text, str):
        raise DiceError(f"Dice must be written as text. {EXAMPLES}")
    shown = text.strip()
    if not shown:
        raise DiceError(f"Say which dice to roll. {EXAMPLES}")
    if len(text) > MAX_TEXT:
        raise DiceError(f"That dice notation is {len(text)} characters long; keep it to {MAX_TEXT}.")
    source = "".join(text.split()).lower()
    groups: list[DiceGroup] = []
    modifier = 0
    position = 0
    while position < len(source):
        sign = 1
        if source[position] in "+-":
            sign = -1 if source[position] == "-" else 1
            position += 1
        elif position:
            raise DiceError(f"{quoted(shown, MAX_TEXT)} is not dice notation. {EXAMPLES}")
        match = _TERM.match(source, position)
        if match is None or (match.end() < len(source) and source[match.end()] not in "+-"):
            raise DiceError(f"{quoted(shown, MAX_TEXT)} is not dice notation. {EXAMPLES}")
        position = match.end()
        if match["number"] is not None:
            value = int(match["number"])
            if value > MAX_MODIFIER:
                raise DiceError(f"Add or subtract at most {MAX_MODIFIER}; '{match[0]}' is too much.")
            modifier += sign * value
        else:
            groups.append(_group(match, sign))
    if not groups:
        raise DiceError(f"{quoted(shown, MAX_TEXT)} has no dice in it. {EXAMPLES}")
    if not -MAX_MODIFIER <= modifier <= MAX_MODIFIER:
        raise DiceError(f"The numbers added come to {modifier}; keep them between -{MAX_MODIFIER} and {MAX_MODIFIER}.")
    total = sum(group.count for group in groups)
    if total > MAX_DICE:
        raise DiceError(f"That's {total} dice; one roll can have at most {MAX_DICE}.")
    return Dice(_canonical(groups, modifier), tuple(groups), modifier)


def _group(match: re.Match, sign: int) -> DiceGroup:
    written = match[0]
    count = int(match["count"]) if match["count"] is not None else 1
    if count < 1:
        raise DiceError(f"'{written}' rolls no dice; roll at least one.")
    if count > MAX_DICE:
        raise DiceError(f"That's {count} dice; one roll can have at most {MAX_DICE}.")
    die = match["die"]
    if die == "%":
        faces = tuple(range(1, 101))
    elif die.startswith("{"):
        faces = _custom_faces(die)
    else:
        sides = int(die)
        if sides < 2:
            raise DiceError(f"A die needs at least 2 sides; 'd{sides}' has {sides}.")
        if sides > MAX_SIDES:
            raise DiceError(f"A die can have at most {MAX_SIDES} sides; 'd{sides}' has {sides}.")
        faces = tuple(range(1, sides + 1))
    keep = _keep(match["suffix"], count, written) if match["suffix"] else None
    return DiceGroup(count, faces, keep, sign)


def _custom_faces(die: str) -> tuple[int, ...]:
    items = die[1:-1].split(",")
    if not all(_FACE.fullmatch(item) for item in items):
        raise DiceError(f"'d{die}' should list the die's faces as whole numbers separated by commas, "
                        "like d{0,5,5,10,10,15}.")
    faces = tuple(int(item) for item in items)
    if len(faces) < 2:
        raise DiceError(f"A die needs at least 2 faces; 'd{die}' has 1.")
    if len(faces) > MAX_FACES:
        raise DiceError(f"A die can have at most {MAX_FACES} faces; that one has {len(faces)}.")
    for face in faces:
        if not -MAX_FACE <= face <= MAX_FACE:
            raise DiceError(f"A face can show from -{MAX_FACE} to {MAX_FACE}; {face} is out of range.")
    return faces


def _keep(suffix: str, count: int, written: str) -> tuple[str, int] | None:
    kind, digits = _SUFFIX.fullmatch(suffix).groups()
    number = int(digits) if digits else 1
    if kind.startswith("k"):
        if number < 1:
            raise DiceError(f"'{written}' keeps no dice; keep at least 1.")
        if number > count:
            raise DiceError(f"'{written}' keeps {number} of {count} dice; keep at most {count}.")
        keep = ("l" if kind == "kl" else "h", number)
    else:
        if number > count - 1:
            raise DiceError(f"'{written}' drops {number} of {count} dice; drop at most {count - 1}.")
        keep = ("l" if kind == "dh" else "h", count - number)
    return None if keep[1] == count else keep  # keeping every die is an ordinary group


def _canonical(groups: list[DiceGroup], modifier: int) -> str:
    text = ""
    for group in groups:
        text += ("-" if group.sign < 0 else ("+" if text else "")) + group.label
    if modifier:
        text += f"{modifier:+d}"
    return text


def _group_extreme(group: DiceGroup, *, low: bool) -> int:
    """The smallest (low) or largest sum the group can count, before its sign."""
    counted = group.keep[1] if group.keep else group.count
    face = min(group.faces) if low else max(group.faces)
    return face * counted


def _convolve(left: dict[int, int], right: dict[int, int]) -> dict[int, int]:
    result: dict[int, int] = {}
    for a, weight_a in left.items():
        for b, weight_b in right.items():
            result[a + b] = result.get(a + b, 0) + weight_a * weight_b
    return result


def _power(weights: dict[int, int], count: int) -> dict[int, int]:
    """Outcome counts of the sum of `count` dice whose faces have these weights."""
    result = {0: 1}
    for _ in range(count):
        result = _convolve(result, weights)
    return result


def _kept_counts(weights: dict[int, int], count: int, keep: tuple[str, int]) -> dict[int, int]:
    """Outcome counts of a keep/drop group, one multiset of faces at a time (each weighs its arrangements)."""
    which, how_many = keep
    faces = sorted(weights, reverse=which == "h")
    result: dict[int, int] = {}
    for combo in combinations_with_replacement(faces, count):  # each combo is sorted best-first
        arrangements = factorial(count)
        weight = 1
        for face in set(combo):
            times = combo.count(face)
            arrangements //= factorial(times)
            weight *= weights[face] ** times
        total = sum(combo[:how_many])
        result[total] = result.get(total, 0) + arrangements * weight
    return result


def _check_work(dice: Dice) -> None:
    """Refuse a distribution that would take too long to compute exactly, before starting it."""
    work = 0
    span = 1
    for group in dice.groups:
        distinct = len(set(group.faces))
        width = max(group.faces) - min(group.faces)
        if group.keep is not None:
            if len(group.faces) ** group.count > MAX_KEEP_OUTCOMES:
                raise DiceError(f"'{group.label}' has too many outcomes to compute exactly.")
            group_span = width * group.keep[1] + 1
        else:
            work += distinct * width * group.count * (group.count + 1) // 2
            group_span = width * group.count + 1
        work += span * group_span
        span += group_span
    if work > MAX_WORK:
        raise DiceError(f"'{dice.text}' has too many outcomes to compute exactly.")
