"""Setup options a host picks when creating a table: typed, validated, and labelled verified or assumed."""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..dice import DiceError
from ..dice import parse as parse_dice
from ..reading import NotAWholeNumber, quoted, whole_number


class OptionError(ValueError):
    """A setup choice the game cannot be played with; the message is shown to the host as is."""


@dataclass(frozen=True)
class Option:
    """One setup choice; `source` says whether its default is printed in the rulebook or assumed by us."""

    key: str
    label: str
    default: Any
    help: str = ""
    # "verified": printed in the rulebook; "assumed": our default, check your box; "choice": how this table plays
    source: str = "verified"
    kind: str = field(default="", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def missing(self, *, from_form: bool) -> Any:
        """The value of an option left out of the request: the default (forms override for checkboxes)."""
        return self.default

    def as_text(self, value: Any) -> str:
        """The value as it goes back into a form field."""
        return str(value)

    def describe(self) -> dict:
        """What the API documents about this option."""
        return {"key": self.key, "label": self.label, "kind": self.kind, "default": self.default,
                "source": self.source, "help": self.help}


def _as_int(option: Option, raw: Any) -> int:
    if isinstance(raw, bool):
        raise OptionError(f"{option.label} must be a whole number.")
    try:
        return whole_number(raw, minimum=None, maximum=None)
    except NotAWholeNumber:
        raise OptionError(f"{option.label} must be a whole number.") from None


@dataclass(frozen=True)
class IntOption(Option):
    """A whole number within a printed range."""

    minimum: int = 0
    maximum: int = 0
    kind: str = field(default="int", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> int:
        value = _as_int(self, raw)
        if not self.minimum <= value <= self.maximum:
            raise OptionError(f"{self.label} must be from {self.minimum} to {self.maximum}, not {value}.")
        return value

    def describe(self) -> dict:
        return super().describe() | {"min": self.minimum, "max": self.maximum}


@dataclass(frozen=True)
class ChoiceOption(Option):
    """One value out of a short list, e.g. the night."""

    choices: tuple[tuple[str, str], ...] = ()
    kind: str = field(default="choice", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> str:
        values = [value for value, _ in self.choices]
        if not isinstance(raw, str) or raw not in values:
            raise OptionError(f"{self.label} must be one of: {', '.join(values)}.")
        return raw

    def label_of(self, value: str) -> str:
        return dict(self.choices).get(value, value)

    def describe(self) -> dict:
        return super().describe() | {"choices": [value for value, _ in self.choices]}


@dataclass(frozen=True)
class BoolOption(Option):
    """A yes/no switch; an unticked checkbox is simply absent from a form."""

    kind: str = field(default="bool", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> bool:
        if isinstance(raw, bool):
            return raw
        if from_form and raw in ("on", "true", "1", "yes"):
            return True
        if from_form and raw in ("off", "false", "0", "no", ""):
            return False
        raise OptionError(f"{self.label} must be true or false.")

    def missing(self, *, from_form: bool) -> bool:
        return False if from_form else self.default


@dataclass(frozen=True)
class MultiChoiceOption(Option):
    """Several values out of a list, e.g. which characters are in play."""

    choices: tuple[tuple[str, str], ...] = ()
    min_count: int = 0
    max_count: int = 0
    kind: str = field(default="multi", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> list[str]:
        values = [value for value, _ in self.choices]
        if isinstance(raw, str):
            raw = [raw]
        if not isinstance(raw, Sequence) or not all(isinstance(item, str) for item in raw):
            raise OptionError(f"{self.label} must be a list of: {', '.join(values)}.")
        unknown = [item for item in raw if item not in values]
        if unknown:
            raise OptionError(f"{self.label}: {quoted(unknown[0])} is not one of {', '.join(values)}.")
        if len(set(raw)) != len(raw):
            raise OptionError(f"{self.label}: each one can be picked only once.")
        if not self.min_count <= len(raw) <= self.max_count:
            raise OptionError(f"{self.label}: pick from {self.min_count} to {self.max_count}, not {len(raw)}.")
        return [value for value in values if value in raw]  # the printed order, whatever order they came in

    def missing(self, *, from_form: bool) -> Any:
        return self.parse([]) if from_form else self.default  # no box ticked: still checked against min_count

    def as_text(self, value: Any) -> str:
        return ", ".join(value)

    def describe(self) -> dict:
        return super().describe() | {"choices": [value for value, _ in self.choices],
                                     "min_count": self.min_count, "max_count": self.max_count}


@dataclass(frozen=True)
class NumberListOption(Option):
    """A fixed-length list of whole numbers, e.g. the faces of a die or a draw table."""

    length: int = 0
    minimum: int = 0
    maximum: int = 0
    kind: str = field(default="numbers", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> list[int]:
        if isinstance(raw, str):
            parts = [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]
            raw = parts
        if not isinstance(raw, Sequence) or isinstance(raw, (bytes, bytearray)):
            raise OptionError(f"{self.label} must be {self.length} whole numbers separated by commas.")
        if len(raw) != self.length:
            raise OptionError(f"{self.label} must have exactly {self.length} numbers, not {len(raw)}.")
        values = [_as_int(self, item) for item in raw]
        for value in values:
            if not self.minimum <= value <= self.maximum:
                raise OptionError(f"{self.label}: each number must be from {self.minimum} to {self.maximum}.")
        return values

    def as_text(self, value: Any) -> str:
        return ", ".join(str(item) for item in value)

    def describe(self) -> dict:
        return super().describe() | {"length": self.length, "min": self.minimum, "max": self.maximum}


MARKUP = set("<>{}[]\\`$")
COUNTER_LIMIT = 10**9  # how far any counter may go, bounded or not


def _split_top_level(text: str, separators: str) -> list[str]:
    """Split at separators that are not inside {...}, so d{0,5,10} stays one piece."""
    parts, current, depth = [], "", 0
    for char in text:
        depth += (char == "{") - (char == "}")
        if char in separators and depth <= 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return parts + [current]


@dataclass(frozen=True)
class CounterListOption(Option):
    """Named counters a host defines: one line 'Name, each|shared, min, max, start' or a JSON object each."""

    min_count: int = 1
    max_count: int = 12
    name_length: int = 24
    kind: str = field(default="counters", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> list[dict[str, Any]]:
        if isinstance(raw, str):
            if len(raw) > 100 * self.max_count:
                raise OptionError(f"{self.label}: that is too much text for {self.max_count} counters.")
            lines = [(f"Line {number}", line) for number, line in
                     enumerate(raw.replace("\r\n", "\n").replace(";", "\n").split("\n"), start=1) if line.strip()]
            entries = [(where, self._from_line(where, line)) for where, line in lines]
        elif isinstance(raw, Sequence) and not isinstance(raw, (bytes, bytearray)):
            entries = [(f"Counter {number}", self._from_object(f"Counter {number}", item))
                       for number, item in enumerate(raw, start=1)]
        else:
            raise OptionError(f"{self.label} must be a list of counters, like 'Health, each, 0, 20, 20'.")
        if not entries:
            raise OptionError(f"{self.label}: list at least one counter, like 'Health, each, 0, 20, 20'.")
        if not self.min_count <= len(entries) <= self.max_count:
            raise OptionError(f"{self.label}: list {self.min_count} to {self.max_count} counters, not {len(entries)}.")
        seen: dict[str, str] = {}
        for where, counter in entries:
            folded = counter["name"].casefold()
            if folded in seen:
                raise OptionError(f"{where}: there is already a counter called {seen[folded]}; "
                                  "give each counter its own name.")
            seen[folded] = counter["name"]
        return [counter for _, counter in entries]

    def _from_line(self, where: str, line: str) -> dict[str, Any]:
        fields = [part.strip() for part in line.split(",")]
        if len(fields) > 5:
            raise OptionError(f"{where}: write at most 5 parts, 'Name, each|shared, min, max, start' "
                              "(a name can't contain a comma).")
        fields += [""] * (5 - len(fields))
        name, scope, low, high, start = fields
        numbers = [self._number(where, label, text) for label, text in
                   (("minimum", low), ("maximum", high), ("start value", start))]
        return self._checked(where, name, scope.lower(), *numbers)

    def _number(self, where: str, label: str, text: str) -> int | None:
        if text == "":
            return None
        if re.fullmatch(r"[+-]?[0-9]{1,10}", text):
            return int(text)
        raise OptionError(f"{where}: the {label} must be a whole number or left blank, not '{text}'.")

    def _from_object(self, where: str, item: Any) -> dict[str, Any]:
        if not isinstance(item, Mapping):
            raise OptionError(f"{where} must be an object like "
                              '{"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 20}.')
        unknown = sorted(str(key) for key in item if key not in ("name", "scope", "min", "max", "start"))
        if unknown:
            raise OptionError(f"{where}: '{unknown[0]}' isn't part of a counter; use name, scope, min, max and start.")
        numbers = []
        for key, label in (("min", "minimum"), ("max", "maximum"), ("start", "start value")):
            value = item.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise OptionError(f"{where}: the {label} must be a whole number or null.")
            numbers.append(value)
        name, scope = item.get("name", ""), item.get("scope", "")
        if not isinstance(name, str) or not isinstance(scope, str):
            raise OptionError(f"{where}: the name and the scope must be text.")
        return self._checked(where, name.strip(), scope.strip().lower(), *numbers)

    def _checked(self, where: str, name: str, scope: str, low: int | None, high: int | None,
                 start: int | None) -> dict[str, Any]:
        if not name:
            raise OptionError(f"{where}: give the counter a name, like 'Health, each, 0, 20, 20'.")
        if len(name) > self.name_length:
            raise OptionError(f"{where}: '{name[:self.name_length]}...' is too long; a name has at most "
                              f"{self.name_length} characters.")
        bad = sorted({char for char in name if char in MARKUP or char == "," or not char.isprintable()})
        if bad:
            raise OptionError(f"{where}: a counter's name can't contain {' '.join(quoted(char) for char in bad)}.")
        if scope not in ("each", "shared"):
            shown = quoted(scope) if scope else "nothing"
            raise OptionError(f"{where}: say 'each' (one per player) or 'shared' (one for the table) "
                              f"after {name}, not {shown}.")
        for label, value in (("minimum", low), ("maximum", high), ("start value", start)):
            if value is not None and not -COUNTER_LIMIT <= value <= COUNTER_LIMIT:
                raise OptionError(f"{where}: the {label} must be from -{COUNTER_LIMIT:,} to {COUNTER_LIMIT:,}.")
        if low is not None and high is not None and low > high:
            raise OptionError(f"{where}: the minimum {low} is above the maximum {high}.")
        if start is None:
            start = low if low is not None else (0 if high is None else min(0, high))
        if low is not None and start < low:
            raise OptionError(f"{where}: the start value {start} is below the minimum {low}.")
        if high is not None and start > high:
            raise OptionError(f"{where}: the start value {start} is above the maximum {high}.")
        return {"name": name, "scope": scope, "min": low, "max": high, "start": start}

    def missing(self, *, from_form: bool) -> Any:
        return copy.deepcopy(self.default)  # each table gets its own list

    def as_text(self, value: Any) -> str:
        def blank(number: int | None) -> str:
            return "" if number is None else str(number)

        return "\n".join(f"{counter['name']}, {counter['scope']}, {blank(counter['min'])}, {blank(counter['max'])}, "
                         f"{counter['start']}" for counter in value)

    def describe(self) -> dict:
        return super().describe() | {"min_count": self.min_count, "max_count": self.max_count,
                                     "name_length": self.name_length}


@dataclass(frozen=True)
class DiceListOption(Option):
    """A list of dice in notation (d20, 2d6+1, d{0,5,10}), one per line or separated by commas."""

    min_count: int = 1
    max_count: int = 8
    kind: str = field(default="dice", init=False)

    def parse(self, raw: Any, *, from_form: bool = False) -> list[str]:
        if isinstance(raw, str):
            if len(raw) > 110 * self.max_count:
                raise OptionError(f"{self.label}: that is too much text for {self.max_count} dice.")
            raw = [part.strip() for part in _split_top_level(raw, ",;\n") if part.strip()]
        if not isinstance(raw, Sequence) or isinstance(raw, (bytes, bytearray)):
            raise OptionError(f"{self.label} must be a list of dice, like d6, 2d6, d20.")
        if not self.min_count <= len(raw) <= self.max_count:
            raise OptionError(f"{self.label}: list {self.min_count} to {self.max_count} dice, not {len(raw)}.")
        texts = []
        for item in raw:
            try:
                text = parse_dice(item).text
            except DiceError as error:
                raise OptionError(f"{self.label}: {error}") from None
            if text in texts:
                raise OptionError(f"{self.label}: {text} is listed twice.")
            texts.append(text)
        return texts

    def missing(self, *, from_form: bool) -> Any:
        return list(self.default)

    def as_text(self, value: Any) -> str:
        return ", ".join(value)

    def describe(self) -> dict:
        return super().describe() | {"min_count": self.min_count, "max_count": self.max_count}


def parse_options(options: Sequence[Option], raw: Mapping[str, Any], *, from_form: bool) -> dict[str, Any]:
    """Every option parsed from `raw`; unknown keys are refused so a typo never passes silently."""
    known = {option.key for option in options}
    unknown = sorted(key for key in raw if key not in known)
    if unknown:
        raise OptionError(f"Unknown option {quoted(unknown[0])}; this game's options are: {', '.join(sorted(known))}.")
    parsed = {}
    for option in options:
        parsed[option.key] = (option.parse(raw[option.key], from_form=from_form) if option.key in raw
                              else option.missing(from_form=from_form))
    return parsed


# ---- readings: setup options that choose how to read a loose rulebook sentence ------------------------------------

def reading_in_force(state: Mapping[str, Any], readings: Mapping[str, Option], key: str) -> Any:
    """The reading a table plays with (kept in its state's "readings"); a table stored before the option existed
    plays with the option's default."""
    return state.get("readings", {}).get(key, readings[key].default)


def readings_shown(state: Mapping[str, Any], readings: Mapping[str, Option],
                   words: Mapping[tuple[str, Any], tuple[str, str]]) -> dict[str, dict[str, Any]]:
    """Each reading in force with its words (a sentence, and a few words beside a control), so every screen that
    depends on one can say which it is."""
    shown = {}
    for key, option in readings.items():
        value = reading_in_force(state, readings, key)
        text, short = words[key, value]
        shown[key] = {"value": value, "text": text, "short": short, "label": option.label, "source": option.source}
    return shown
