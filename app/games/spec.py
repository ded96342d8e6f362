"""What the registry knows about a game before its rules exist: name, seats, setup options, component profile."""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from .cues import Cues
from .options import ChoiceOption, Option, OptionError, parse_options


@dataclass(frozen=True)
class SeatDef:
    """A seat at the table, named the way the box names it (a colour, a character, a guard)."""

    name: str
    colour: str  # a CSS token from static/css/app.css, e.g. "orange"


@dataclass(frozen=True)
class ProfileValue:
    """A component number with its provenance: printed in the rulebook (verified) or our default (assumed)."""

    value: Any
    source: str
    note: str = ""


def load_profile(package: str) -> dict[str, ProfileValue]:
    """Read `app/games/<package>/profile.toml`: each entry is a table with value, source and note."""
    path = Path(__file__).parent / package / "profile.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    profile = {}
    for key, entry in data.items():
        if entry.get("source") not in ("verified", "assumed"):
            raise ValueError(f"{path}: {key} needs source = 'verified' or 'assumed'")
        profile[key] = ProfileValue(entry["value"], entry["source"], entry.get("note", ""))
    return profile


@dataclass(frozen=True)
class GameSpec:
    """A game on the registry; `configure` turns a host's raw choices into checked options and seats."""

    slug: str
    name: str
    blurb: str
    rulebook: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    seat_plan: Callable[[dict[str, Any]], list[SeatDef]]
    check: Callable[[dict[str, Any]], None] = lambda options: None
    players_note: str = ""
    profile: Mapping[str, ProfileValue] = field(default_factory=dict)
    shelf: int = 50  # where the game sits on the setup page, lowest first (the generic tracker last, at 90)
    cues: Cues = field(default_factory=Cues)  # the moments its screens sound, and the lines the board reads out

    @property
    def package(self) -> str:
        return self.slug.replace("-", "_")

    @cached_property
    def rules(self) -> ModuleType:
        """The game's pure rules module (app/games/<pkg>/rules.py): every game on the registry has one."""
        return importlib.import_module(f"app.games.{self.package}.rules")

    def option(self, key: str) -> Option:
        return next(option for option in self.options if option.key == key)

    def configure(self, raw: Mapping[str, Any], *, from_form: bool = False) -> tuple[dict[str, Any], list[SeatDef]]:
        """Check the host's choices against the rulebook; raise OptionError with a sentence if they don't fit."""
        if not isinstance(raw, Mapping):
            raise OptionError("Options must be an object of option names and values.")
        options = parse_options(self.options, raw, from_form=from_form)
        self.check(options)
        seats = self.seat_plan(options)
        if not self.min_players <= len(seats) <= self.max_players:
            raise OptionError(f"{self.name} is for {self.players_text}, not {len(seats)}.")
        return options, seats

    @property
    def players_text(self) -> str:
        if self.min_players == self.max_players:
            return f"{self.min_players} player" + ("s" if self.min_players != 1 else "")
        return f"{self.min_players}-{self.max_players} players"

    def summary(self, options: Mapping[str, Any]) -> list[tuple[str, str, str]]:
        """(label, value, source) for each chosen option, as the host screen lists them."""
        rows = []
        for option in self.options:
            value = options.get(option.key, option.default)
            text = option.label_of(value) if isinstance(option, ChoiceOption) else option.as_text(value)
            if isinstance(value, bool):
                text = "yes" if value else "no"
            rows.append((option.label, text, option.source))
        return rows

    def describe(self) -> dict:
        """The registry entry as the API documents it."""
        return {"slug": self.slug, "name": self.name, "players": {"min": self.min_players, "max": self.max_players},
                "options": [option.describe() for option in self.options]}


def numbered_seats(prefix: str, count: int, colours: tuple[str, ...]) -> list[SeatDef]:
    """Seats called 'Player 1', 'Player 2', ... when the box gives them no other name."""
    return [SeatDef(f"{prefix} {number}", colours[(number - 1) % len(colours)]) for number in range(1, count + 1)]


def first_player_fits(options: dict[str, Any], players: int) -> None:
    """The first player must be one of the seats at the table."""
    if options["first_player"] > players:
        raise OptionError(f"The first player must be seat 1 to {players}, not {options['first_player']}.")


__all__ = ["GameSpec", "SeatDef", "ProfileValue", "load_profile", "numbered_seats", "first_player_fits", "OptionError"]
