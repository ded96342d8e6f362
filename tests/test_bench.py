"""The games benchmark still runs: a tiny run prints a line per game with its figures."""

import subprocess
import sys
from pathlib import Path

from app.games import REGISTRY

ROOT = Path(__file__).resolve().parent.parent


def test_the_games_benchmark_runs_and_prints_every_game():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "games.py"), "--repeat", "10", "--moves", "2"],
                         capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    for slug in REGISTRY:
        row = next(line for line in lines if line.startswith(slug + " "))
        assert "x)" in row  # p50/p95 and the ratio to the tracker's
