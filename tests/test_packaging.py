"""A built wheel (what `pip install .` installs) carries the templates and static files, and runs from anywhere."""

import json
import os
import shutil
import subprocess
import sys
import zipfile

from tests.server import ROOT

IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc")
CHECK = """
import json, sys
import app
from app import create_app
site = sys.argv[1]
made = create_app({"TESTING": True})
client = made.test_client()
home = client.get("/").get_data(as_text=True)
print(json.dumps({
    "code": app.__file__, "templates": made.jinja_loader.searchpath, "static": made.static_folder,
    "instance": made.instance_path, "home": "/static/css/app" in home and "Night Shift" in home,
    "files": [client.get(url).status_code for url in ("/static/css/app.css", "/static/js/live.js",
              "/static/vendor/htmx-2.0.11/htmx.min.js", "/static/css/app+flipside.css", "/flipside/keywords",
              "/survive-6am/static/survive_6am.css")],
}))
"""


def shipped(folder: str) -> set[str]:
    return {f"app/{folder}/{path.relative_to(ROOT / folder)}" for path in (ROOT / folder).rglob("*") if path.is_file()}


def test_a_wheel_ships_templates_and_static_files_and_its_app_finds_them_installed(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT / "app", source / "app", symlinks=True, ignore=IGNORE)
    for folder in ("templates", "static"):
        shutil.copytree(ROOT / folder, source / folder, ignore=IGNORE)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run(pip + ["wheel", "--no-deps", "--no-build-isolation", "-w", str(tmp_path / "dist"), str(source)],
                   check=True, capture_output=True, timeout=120)
    wheel = next((tmp_path / "dist").glob("nightshift-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert shipped("templates") <= names and shipped("static") <= names
    games = {path.relative_to(ROOT).as_posix() for folder in ("templates", "static")
             for path in (ROOT / "app" / "games").glob(f"*/{folder}/**/*") if path.is_file()}
    assert games and games <= names  # each game's own templates and stylesheet, inside its package
    assert not any(name.startswith(("instance", "app/instance", "tests/")) for name in names)

    site, work = tmp_path / "site", tmp_path / "elsewhere"
    zipfile.ZipFile(wheel).extractall(site)  # what installing a pure-Python wheel does, minus pip's bookkeeping
    work.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("NIGHTSHIFT_")}
    env["PYTHONPATH"] = str(site)
    result = subprocess.run([sys.executable, "-c", CHECK, str(site)], cwd=work, env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["code"].startswith(str(site)), found  # the installed copy, not this checkout
    assert all(path.startswith(str(site)) for path in found["templates"] + [found["static"]]), found
    assert found["instance"] == str(work / "instance")  # the working directory, never site-packages
    assert found["home"] and found["files"] == [200] * 6, found
