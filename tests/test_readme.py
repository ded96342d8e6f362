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
