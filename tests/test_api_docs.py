"""docs/API.md keeps up with the games: its moves and views sections are generated from the declarations."""

import re
from pathlib import Path

import pytest

from app.games import REGISTRY, docs

API = (Path(__file__).resolve().parent.parent / "docs" / "API.md").read_text(encoding="utf-8")


def test_is_the_generated_section_of_the_api_docs_current():
    assert docs.BEGIN in API and docs.END in API
    assert docs.rewritten(API) == API, "docs/API.md is stale: run `python -m app.games.docs`"


@pytest.mark.parametrize("slug", [slug for slug, spec in REGISTRY.items() if hasattr(spec.rules, "MOVES")])
def test_is_every_declared_move_and_field_in_the_api_docs(slug):
    section = API.split(f"### `{slug}`", 1)[1].split("###", 1)[0]
    for declared in REGISTRY[slug].rules.MOVES:
        assert f"| `{declared.type}` |" in section
        for field in declared.fields:
            assert f"`{field.name}`" in section


def game_paragraph(slug: str) -> str:
    """The paragraph of the hand-written moves section that starts with the game's slug in bold."""
    match = re.search(rf"^\*\*`{re.escape(slug)}`\*\*:(.*?)(?:\n\n|\Z)", API, re.M | re.S)
    assert match, f"docs/API.md has no paragraph for {slug}"
    return match.group(1)


@pytest.mark.parametrize("slug", [slug for slug, spec in REGISTRY.items() if not hasattr(spec.rules, "MOVES")])
def test_every_move_type_and_field_of_an_undeclared_game_is_in_the_api_docs(slug):
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
