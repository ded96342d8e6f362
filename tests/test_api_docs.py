"""docs/API.md keeps up with the games: its moves and views sections are generated from the declarations."""

from pathlib import Path

import pytest

from app.games import REGISTRY, docs

API = (Path(__file__).resolve().parent.parent / "docs" / "API.md").read_text(encoding="utf-8")


def test_is_the_generated_section_of_the_api_docs_current():
    assert docs.BEGIN in API and docs.END in API
    assert docs.rewritten(API) == API, "docs/API.md is stale: run `python -m app.games.docs`"


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_is_every_declared_move_and_field_in_the_api_docs(slug):
    section = API.split(f"### `{slug}`", 1)[1].split("###", 1)[0]
    for declared in REGISTRY[slug].rules.MOVES:
        assert f"| `{declared.type}` |" in section
        for field in declared.fields:
            assert f"`{field.name}`" in section


