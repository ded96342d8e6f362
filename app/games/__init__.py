"""The game registry: slug -> GameSpec. Adding a game's rules never changes this file or the setup form."""

from __future__ import annotations

from .crystal_lake import SPEC as CRYSTAL_LAKE
from .directors_cut import SPEC as DIRECTORS_CUT
from .flipside import SPEC as FLIPSIDE
from .night_of_frights import SPEC as NIGHT_OF_FRIGHTS
from .options import OptionError
from .spec import GameSpec, SeatDef
from .survive_6am import SPEC as SURVIVE_6AM
from .tracker import SPEC as TRACKER

REGISTRY: dict[str, GameSpec] = {
    spec.slug: spec for spec in (SURVIVE_6AM, NIGHT_OF_FRIGHTS, DIRECTORS_CUT, FLIPSIDE, CRYSTAL_LAKE, TRACKER)
}


class UnknownGame(LookupError):
    """A slug that is not on the registry."""


def get_game(slug: object) -> GameSpec:
    """The registered game for `slug`, or UnknownGame with the list of games we have."""
    if isinstance(slug, str) and slug in REGISTRY:
        return REGISTRY[slug]
    raise UnknownGame(f"Unknown game {slug!r}; choose one of: {', '.join(REGISTRY)}.")


__all__ = ["REGISTRY", "GameSpec", "SeatDef", "OptionError", "UnknownGame", "get_game"]
