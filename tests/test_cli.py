"""The `nightshift` command: migrate on its own, and serving on the LAN by default."""

import subprocess
import sys

from sqlalchemy import create_engine, inspect

from app.cli import main
from app.database import normalise_url
from tests.server import ROOT


def test_migrate_creates_the_database_and_says_so(tmp_path, database_url, monkeypatch, capsys):
    monkeypatch.setenv("NIGHTSHIFT_INSTANCE_PATH", str(tmp_path))
    monkeypatch.setenv("NIGHTSHIFT_DATABASE_URL", database_url)
    main(["migrate"])
    assert "Database is up to date." in capsys.readouterr().out
    engine = create_engine(normalise_url(database_url))
    assert {"tables", "seats", "actions", "alembic_version"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_help_names_the_lan_default():
    result = subprocess.run([sys.executable, "-m", "app", "serve", "--help"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 0
    assert "0.0.0.0" in result.stdout and "--port" in result.stdout


def test_an_in_memory_database_refuses_more_than_one_worker_because_its_updates_stay_in_one_process(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "NIGHTSHIFT_INSTANCE_PATH": str(tmp_path), "NIGHTSHIFT_DATABASE_URL": "sqlite://"}
    result = subprocess.run([sys.executable, "-m", "app", "--workers", "2", "--port", "0"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "live updates can't reach other workers" in result.stderr
    assert "PostgreSQL" in result.stderr
