"""The project documents itself: README and docs/ link only to files inside the project, and every one exists."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_does_every_local_link_point_to_a_file_in_the_project(page):
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address, not a file
        path = (page.parent / target).resolve()
        assert path.is_relative_to(ROOT), f"{page.name} links outside the project: {target}"
        assert path.exists(), f"{page.name} links to a file that doesn't exist: {target}"


def test_does_the_architecture_page_name_only_files_that_exist():
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:app|templates|static|tests|bench)/[\w./]+\.(?:py|html|css|js|toml))`", text))
    assert named, "the architecture page names the files it describes"
    missing = sorted(name for name in named if "<pkg>" not in name and not (ROOT / name).exists())
    assert not missing, f"docs/ARCHITECTURE.md names files that don't exist: {missing}"
