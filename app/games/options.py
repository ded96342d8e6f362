"""Setup options a host picks when creating a table: typed, validated, and labelled verified or assumed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


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
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str) and raw.strip().lstrip("-").isdigit() and len(raw.strip()) <= 6:
        return int(raw.strip())
    raise OptionError(f"{option.label} must be a whole number.")


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
            raise OptionError(f"{self.label}: {unknown[0]!r} is not one of {', '.join(values)}.")
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


def parse_options(options: Sequence[Option], raw: Mapping[str, Any], *, from_form: bool) -> dict[str, Any]:
    """Every option parsed from `raw`; unknown keys are refused so a typo never passes silently."""
    known = {option.key for option in options}
    unknown = sorted(key for key in raw if key not in known)
    if unknown:
        raise OptionError(f"Unknown option {unknown[0]!r}; this game's options are: {', '.join(sorted(known))}.")
    parsed = {}
    for option in options:
        parsed[option.key] = (option.parse(raw[option.key], from_form=from_form) if option.key in raw
                              else option.missing(from_form=from_form))
    return parsed
