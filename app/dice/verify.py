"""Recompute a table's dice log from its revealed seed, so anyone can see that no roll was changed, added or hidden."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .fair import check_physical, commitment, roll_record, roll_with, shuffled_order, uniform
from .notation import DiceError, parse


@dataclass(frozen=True)
class Check:
    """One log record against what the seed gives: `expected` and `found` in words, `ok` when they agree."""

    record: Any
    ok: bool
    expected: str
    found: str


@dataclass
class Report:
    """The verdict on a whole log: one check per record, draw numbers nobody logged, draw numbers logged twice."""

    seed: str
    checks: list[Check] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    duplicates: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks) and not self.missing and not self.duplicates

    def commitment_ok(self, shown: str) -> bool:
        """True when the commitment shown at the start is the SHA-256 of this seed."""
        try:
            return isinstance(shown, str) and commitment(self.seed) == shown.strip().lower()
        except (UnicodeEncodeError, AttributeError):
            return False


class _Malformed(Exception):
    """A record that doesn't have the shape a dice record has."""


def verify(seed: str, records: list[dict], draws_made: int | None = None) -> Report:
    """Check every record the app drew against `seed`; physical entries are checked to add up on their own.

    `draws_made` is the table's draw counter: a draw after the last logged one that the log doesn't show is missing too.
    """
    report = Report(seed)
    numbers: list[int] = []
    for record in records:
        try:
            if not isinstance(record, dict):
                raise _Malformed("not a record")
            if record.get("source") == "app":
                n = record.get("n")
                if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                    raise _Malformed("no draw number")
                numbers.append(n)
            report.checks.append(_check(seed, record))
        except (_Malformed, DiceError, KeyError, TypeError, ValueError) as error:
            report.checks.append(Check(record, False, "a dice record", f"a malformed record ({error})"))
    counted = Counter(numbers)
    report.duplicates = sorted(n for n, times in counted.items() if times > 1)
    highest = max(counted) + 1 if counted else 0
    report.missing = [n for n in range(max(highest, draws_made or 0)) if n not in counted]
    return report


def _same(left: Any, right: Any) -> bool:
    return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


def _roll_text(fields: dict) -> str:
    """A roll as people read it: '2d6: 2, 1 = 3', or '4d6kh3: 6, 4, 3, 1, keeping 6, 4, 3 = 13'."""
    dice, values, kept, total = (fields.get(key) for key in ("dice", "values", "kept", "total"))
    try:
        shown = ", ".join(str(value) for group in values for value in group)
        kept_shown = ", ".join(str(value) for group in kept for value in group) if kept is not None else shown
    except TypeError:
        return f"{dice}: {values} = {total}"
    return f"{dice}: {shown}{'' if kept_shown == shown else f', keeping {kept_shown}'} = {total}"


def _check(seed: str, record: dict) -> Check:
    kind, source = record.get("kind"), record.get("source")
    if source == "physical":
        if kind != "roll":
            raise _Malformed(f"a physical {kind!r}")
        dice = parse(record["dice"])
        flat = [value for values in record["values"] for value in values]
        expected = roll_record(check_physical(dice, flat))
        if [len(values) for values in record["values"]] != [group.count for group in dice.groups]:
            return Check(record, False, _roll_text(expected), _roll_text(record))
        return Check(record, _same(expected, {key: record.get(key) for key in expected}), _roll_text(expected),
                     _roll_text(record))
    if source != "app":
        raise _Malformed(f"unknown source {source!r}")
    n = record["n"]
    if kind == "roll":
        expected = roll_record(roll_with(seed, n, parse(record["dice"])))
        found = {key: record.get(key) for key in expected}
        return Check(record, _same(expected, found), _roll_text(expected), _roll_text(found))
    if kind == "pick":
        bound = record["bound"]
        if isinstance(bound, bool) or not isinstance(bound, int) or bound < 1:
            raise _Malformed("a pick needs a whole-number bound")
        value = uniform(seed, n, 0, bound)
        return Check(record, _same(value, record.get("value")), f"pick {value} of 0..{bound - 1}",
                     f"pick {record.get('value')!r} of 0..{bound - 1}")
    if kind == "shuffle":
        size = record["size"]
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= 100_000:
            raise _Malformed("a shuffle needs a whole-number size")
        order = shuffled_order(seed, n, size)
        return Check(record, _same(order, record.get("order")), f"order {order}", f"order {record.get('order')!r}")
    raise _Malformed(f"unknown kind {kind!r}")
