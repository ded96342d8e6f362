"""The game registry: slug -> GameSpec, found by looking, so adding a game never changes this file or the setup form."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from ..reading import quoted
from .options import OptionError
from .spec import GameSpec, SeatDef


def discover() -> dict[str, GameSpec]:
    """Every package beside this file whose `__init__.py` defines SPEC, in shelf order (then by name)."""
    specs = []
    for found in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if found.ispkg:
            spec = getattr(importlib.import_module(f"{__name__}.{found.name}"), "SPEC", None)
            if isinstance(spec, GameSpec):
                if spec.package != found.name:
                    raise ValueError(f"app/games/{found.name}: its slug {spec.slug!r} must be the package's name "
                                     "with '-' for '_'.")
                specs.append(spec)
    return {spec.slug: spec for spec in sorted(specs, key=lambda spec: (spec.shelf, spec.name))}


REGISTRY: dict[str, GameSpec] = discover()


class UnknownGame(LookupError):
    """A slug that is not on the registry."""


def get_game(slug: object) -> GameSpec:
    """The registered game for `slug`, or UnknownGame with the list of games we have."""
    if isinstance(slug, str) and slug in REGISTRY:
        return REGISTRY[slug]
    if slug is None or slug == "":  # "Unknown game None" is Python talking, not a sentence
        raise UnknownGame(f"Say which game: one of {', '.join(REGISTRY)}.")
    raise UnknownGame(f"Unknown game {quoted(slug)}; choose one of: {', '.join(REGISTRY)}.")


__all__ = ["REGISTRY", "GameSpec", "SeatDef", "OptionError", "UnknownGame", "get_game"]
