"""Fixtures: an app on a fresh database (SQLite by default, PostgreSQL when NIGHTSHIFT_TEST_DATABASE_URL is set)."""

from __future__ import annotations

import gc
import html
import os
import re

import pytest
from sqlalchemy import create_engine, make_url, text

from app import create_app
from app.database import normalise_url, upgrade_database
from app.extensions import db
from app.models import Action, Seat, Table

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def database_of_this_worker(url: str) -> str:
    """pytest-xdist runs the suite in several processes, and each test drops and recreates the public schema: each
    worker gets a database of its own next to the one named (`test` -> `test_gw0`), made on first use."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not url or not worker:
        return url
    named = make_url(normalise_url(url))
    own = f"{named.database}_{worker}"
    engine = create_engine(named, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own}) is None:
            connection.execute(text(f'CREATE DATABASE "{own}"'))
    engine.dispose()
    return make_url(url).set(database=own).render_as_string(hide_password=False)


POSTGRES_URL = database_of_this_worker(os.environ.get("NIGHTSHIFT_TEST_DATABASE_URL", ""))


def pytest_collection_modifyitems(config, items):
    """On PostgreSQL, run what touches a database: a test that never asks for one (pure rules, dice, docs) ran
    already on SQLite and would only repeat itself."""
    if not POSTGRES_URL:
        return
    same = pytest.mark.skip(reason="touches no database: CI runs it on SQLite")
    for item in items:
        if "database_url" not in getattr(item, "fixturenames", ()) and "postgres" not in item.keywords:
            item.add_marker(same)


def reset_postgres(url: str) -> None:
    """An empty public schema, so every test starts from the first migration."""
    engine = create_engine(normalise_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture
def database_url(tmp_path) -> str:
    if POSTGRES_URL:
        reset_postgres(POSTGRES_URL)
        return POSTGRES_URL
    return f"sqlite:///{tmp_path / 'nightshift-test.sqlite3'}"


def test_app(tmp_path, database_url, **config):
    """An app on the test database, migrated; yields it and closes its connections after (a generator for fixtures)."""
    app = create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance", "SQLALCHEMY_DATABASE_URI": database_url,
                      "PUBLIC_URL": "http://192.168.1.50:8000", **config})
    upgrade_database(app)
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


test_app.__test__ = False  # a helper, not a test


@pytest.fixture
def app(tmp_path, database_url):
    yield from test_app(tmp_path, database_url)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def phone(app):
    """A second browser: its own cookie jar."""
    return app.test_client()


def csrf_token(client, url: str) -> str:
    """The CSRF token of the form on `url`, as a browser would submit it."""
    page = client.get(url)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    assert match, f"no CSRF token on {url} ({page.status_code})"
    return match.group(1)


def page_text(response) -> str:
    """A response body as a person reads it (entities such as &#39; unescaped)."""
    return html.unescape(response.get_data(as_text=True))


def any_csrf_token(client) -> str:
    """A valid CSRF token for this browser, from a page that has a form."""
    return csrf_token(client, "/new/flipside")


def snapshot(app) -> dict:
    """Every stored row, to prove a refused request changed nothing."""
    with app.app_context():
        db.session.expire_all()
        return {
            "tables": sorted((t.code, t.game, repr(t.options), repr(t.state), t.version, t.status, t.join_key,
                              t.host_token_hash, t.finished_at, t.dice_seed, t.dice_counter)
                             for t in db.session.scalars(db.select(Table))),
            "seats": sorted((s.table_id, s.role, s.number or 0, s.name, s.player_name or "", s.token_hash or "")
                            for s in db.session.scalars(db.select(Seat))),
            "actions": sorted((a.table_id, a.seq, a.type, a.text, a.undone, repr(a.dice))
                              for a in db.session.scalars(db.select(Action))),
        }


def create_via_api(client, game: str, options: dict | None = None) -> dict:
    response = client.post("/api/tables", json={"game": game, "options": options or {}})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def join_via_api(client, table: dict, name: str, **extra) -> dict:
    response = client.post(f"/api/tables/{table['code']}/join", json={"name": name, "key": table["join_key"], **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def act_via_api(client, table: dict, token: str, action: dict, **headers):
    """POST a move; returns the response (callers assert on status and body)."""
    return client.post(f"/api/tables/{table['code']}/actions", json=action, headers=bearer(token) | headers)


def cyclic_garbage(function) -> list:
    """What `function` leaves for the garbage collector: objects only a reference cycle keeps alive."""
    gc.disable()
    for _ in range(10):  # what earlier tests left, and what collecting it let go of in turn
        if not gc.collect():
            break
    try:
        gc.set_debug(gc.DEBUG_SAVEALL)
        function()
        gc.collect()
        return [type(found).__name__ for found in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
