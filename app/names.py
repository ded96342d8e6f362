"""The rules of a person's name, shared by the tables (a seat's name) and the play history (a filter, a merge).
Pure: no Flask; each caller turns a refusal into its own error with its own words."""

from __future__ import annotations

import unicodedata

FORBIDDEN_IN_NAMES = frozenset("<>{}[]\\`$")
FORBIDDEN_TEXT = "< > { } [ ] \\ ` $"


def folded(raw: str) -> str:
    """A name as typed, in one Unicode form with its runs of white space made single spaces."""
    return " ".join(unicodedata.normalize("NFC", raw).split())


def shows_nothing(name: str) -> bool:
    """Only accents, joiners or spaces: a blank on every screen."""
    return all(unicodedata.category(char)[0] in "MZC" for char in name)


def has_forbidden(name: str) -> bool:
    """Markup characters or control characters: never shown as typed, so never taken."""
    return any(char in FORBIDDEN_IN_NAMES or unicodedata.category(char).startswith("C") for char in name)
