"""The README's two commands are the ones people and CI run."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_the_readme_has_two_commands_run_then_test():
    run, test = readme_commands()[:2]  # the first two; later blocks (the benchmark) are not "the two commands"
    assert run.endswith(".venv/bin/nightshift") and "pip install -e ." in run
    assert "'.[test]'" in test and test.endswith("python -m pytest")


def test_ci_calls_the_readmes_test_command_verbatim_on_sqlite_and_postgres():
    ci = (ROOT / ".ci" / "run").read_text()
    assert f'RUN_COMMAND="{readme_commands()[0]}"' in ci  # and starts the server first, on runtime deps only
    assert f'TEST_COMMAND="{readme_commands()[1]}"' in ci
    assert ci.count('bash -c "$TEST_COMMAND"') == 2 and "NIGHTSHIFT_TEST_DATABASE_URL=postgresql://" in ci
    assert "apt-get install" in ci and "chromium" in ci


def test_the_readme_is_written_for_players_and_hosts_short_with_its_figures_in_bench():
    """At most 150 lines, no commit hash, and the benchmark's tables live in bench/README.md, which it links."""
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 150
    assert not re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text), "a commit hash"
    assert "](bench/README.md)" in text and text.count("\n|") < 20  # one settings table, no figures' tables
    for setting in ("NIGHTSHIFT_HOST", "NIGHTSHIFT_PORT", "NIGHTSHIFT_DATABASE_URL"):
        assert f"`{setting}`" in text
