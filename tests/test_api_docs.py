"""docs/API.md keeps up with the games: every move type a rules module accepts is documented under its game."""

import re
from pathlib import Path

import pytest

from app.games import REGISTRY

API = (Path(__file__).resolve().parent.parent / "docs" / "API.md").read_text(encoding="utf-8")


def game_paragraph(slug: str) -> str:
    """The paragraph of 'Each game's moves' that starts with the game's slug in bold."""
    match = re.search(rf"^\*\*`{re.escape(slug)}`\*\*:(.*?)(?:\n\n|\Z)", API, re.M | re.S)
    assert match, f"docs/API.md has no paragraph for {slug}"
    return match.group(1)


@pytest.mark.parametrize("slug", [slug for slug, spec in REGISTRY.items() if spec.rules and slug != "tracker"])
def test_every_move_type_and_field_of_a_game_is_in_the_api_docs(slug):
    paragraph = game_paragraph(slug)
    fields = REGISTRY[slug].rules.FIELDS
    missing = [kind for kind in fields if f"`{kind}`" not in paragraph]
    assert not missing, f"{slug}: document the move types {missing}"
    named = {name for needed, allowed in fields.values() for name in (*needed, *allowed)
             if not re.fullmatch(r"b\d_\w+", name)  # the blockers are documented as b1_atk ... b4_spot
             and name != "whose"}  # explained once, above the games
    assert "`whose`" in API
    undocumented = sorted(name for name in named if f"`{name}`" not in paragraph)
    assert not undocumented, f"{slug}: document the fields {undocumented}"
