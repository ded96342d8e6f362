"""Browser fixtures: Debian's Chromium driven by Playwright, against a real Night Shift server process."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from tests.conftest import IN_CI, POSTGRES_URL
from tests.server import running_server

CHROMIUM = os.environ.get("NIGHTSHIFT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
HOST = {"viewport": {"width": 1280, "height": 800}}


# What a browser sees depends on the database only where a page waits on it live: these files run on PostgreSQL too
# (CI runs every file on SQLite). The other pages and boards render the same rows either way, and running them twice
# would double the suite's longest part.
ON_BOTH_DATABASES = {"test_live_table.py", "test_retry.py", "test_join_by_qr.py", "test_table_at_night.py"}


def pytest_collection_modifyitems(config, items):
    if not POSTGRES_URL:
        return
    same = pytest.mark.skip(reason="the same page on either database: CI runs it on SQLite")
    for item in items:
        path = Path(str(item.fspath))
        if path.parent.name == "browser" and path.name not in ON_BOTH_DATABASES:
            item.add_marker(same)


def _missing(reason: str):
    """On a laptop without a browser the tests skip; in CI a missing browser is a failure."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed: pip install -e '.[test]'")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _missing(f"No Chromium at {CHROMIUM}: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def live_server(tmp_path, database_url):
    """The server the README starts; its QR code carries a loopback address, the only one tests may reach."""
    with running_server(tmp_path / "instance", database_url, public_url="http://127.0.0.1:{port}") as base:
        yield base


@pytest.fixture
def screens(browser):
    """Open browser contexts (host and phones) and record every CSP violation or page error they see."""
    contexts, problems = [], []

    def open_screen(kind: dict):
        context = browser.new_context(**kind)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda message: problems.append(f"{page.url}: {message.text} at {message.location}")
                if message.type == "error" else None)
        page.on("pageerror", lambda error: problems.append(str(error)))
        return page

    open_screen.problems = problems
    yield open_screen
    for context in contexts:
        context.close()


def shoot(page, name: str) -> None:
    """Keep a screenshot for people to look at (test-artifacts/ is git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def page_width(page) -> int:
    """How wide the page lays out once its stylesheets are in (measured earlier, an unstyled form can be wider)."""
    page.wait_for_load_state("load")
    return page.evaluate("document.documentElement.scrollWidth")


def field(page, label: str):
    """The form field labelled exactly `label`, or else the one whose label starts with it (a badge may follow)."""
    exact = page.get_by_label(label, exact=True)
    return exact if exact.count() else page.get_by_label(re.compile("^" + re.escape(label)))


def new_table(host, live_server: str, slug: str, fill: dict[str, str] | None = None, *,
              select: dict[str, str] | None = None, untick: tuple[str, ...] = ()) -> str:
    """The host sets a table up through its /new form (fields by the start of their label) and lands on the host
    screen; returns the join link. A label matches exactly, or by its start when nothing matches exactly."""
    host.goto(f"{live_server}/new/{slug}")
    for label, value in (select or {}).items():
        host.get_by_label(label, exact=True).select_option(value)
    for label in untick:
        field(host, label).uncheck()
    for label, value in (fill or {}).items():
        field(host, label).fill(value)
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/t/*")
    return host.locator(".join-url code").inner_text()


def join(page, url: str, name: str) -> None:
    """A phone opens the join link (as the QR code would), types a name and takes the first free seat."""
    page.goto(url)
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Take my seat").click()
    page.wait_for_url("**/seats/*")
