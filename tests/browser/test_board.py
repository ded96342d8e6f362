"""Every game's TV board in Chromium at 1920x1080 and 1280x720, at the start, mid-game and once the game is over: each
part the board names (data-board) fully on screen, nothing to scroll, nothing cut (mid-game every player has a long
name), no control, the result instead of the QR at the end, axe clean.

A game joins by having app/games/<pkg>/templates/<pkg>/_board.html and naming its parts with data-board attributes;
a game without a script in tests/boards.py is set up with its default options and a few of the moves its view offers."""

from __future__ import annotations

import urllib.error

import pytest

from app.games import REGISTRY
from tests.boards import NAMED, Call, has_board, offered_moves, set_up
from tests.browser.conftest import shoot
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_table_at_night import SMALL_TV, TV, api

pytestmark = pytest.mark.browser

BOARDS = [pytest.param(slug, marks=() if has_board(slug) else pytest.mark.skip(
    reason=f"{REGISTRY[slug].name} has no _board.html in its package's templates yet: the TV shows "
           "the generic board")) for slug in REGISTRY]


def call(base: str) -> Call:
    """The JSON API of the server under test; a refusal fails the test with its sentence."""
    def request(path: str, body: dict | None = None, token: str | None = None) -> dict:
        try:
            return api(base, path, body, token)
        except urllib.error.HTTPError as refused:
            raise AssertionError(f"{path} {body} was refused: {refused.read().decode()}") from None
    return request


def off_screen(page, selector: str) -> list[str]:
    """Each element matching `selector` not fully shown: outside the viewport, cut by a box that hides its overflow
    (a card, a column), or with something of its own spilling out of it (a token off its space), as 'what: where'."""
    return page.evaluate("""selector => [...document.querySelectorAll(selector)].flatMap(element => {
        const box = element.getBoundingClientRect();
        const within = (inner, outer) => inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5
            && inner.right <= outer.right + 0.5 && inner.bottom <= outer.bottom + 0.5;
        let shown = box.width > 0 && box.height > 0
            && within(box, {left: 0, top: 0, right: innerWidth, bottom: innerHeight});
        for (let outer = element.parentElement; shown && outer; outer = outer.parentElement) {
            if (getComputedStyle(outer).overflow !== "visible") shown = within(box, outer.getBoundingClientRect());
        }
        const spilt = [...element.querySelectorAll("*")].filter(inner => !inner.closest(".visually-hidden")
            && inner.getBoundingClientRect().width > 0 && !within(inner.getBoundingClientRect(), box));
        return shown && !spilt.length ? [] : [`${element.dataset.board || element.className}: ${JSON.stringify(box)}`
                                              + spilt.map(inner => ` spills ${inner.className}`).join("")];
    })""", selector)


def cut_off(page) -> list[str]:
    """Boxes on the board that hide part of what they hold (only the log may lose its oldest lines; words for screen
    readers only are hidden on purpose), as 'what: content in box'."""
    return page.evaluate("""() => [...document.querySelectorAll("#live *")].flatMap(element => {
        if (element.closest(".board-side, .visually-hidden") || getComputedStyle(element).overflow === "visible") {
            return [];
        }
        const cut = element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1;
        const what = element.dataset.board || element.className || element.tagName.toLowerCase();
        const size = (width, height) => `${width}x${height}`;
        return cut ? [`${what}: ${size(element.scrollWidth, element.scrollHeight)} in `
                      + size(element.clientWidth, element.clientHeight)] : [];
    })""")


@pytest.mark.parametrize("phase", ["start", "mid", "finished"])
@pytest.mark.parametrize("slug", BOARDS)
def test_the_board_shows_the_game_on_one_tv_screen(live_server, screens, slug, phase):
    from playwright.sync_api import expect

    table = set_up(call(live_server), slug, phase, surname="Featherstonehaugh" if phase == "mid" else "")
    finished = phase == "finished"
    named_parts = set()
    for size in (TV, SMALL_TV):
        tv = screens(size | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}})
        tv.emulate_media(reduced_motion="reduce")  # a fresh draw's tokens flip in; measure them at rest
        tv.goto(f"{live_server}/t/{table['code']}/board")
        expect(tv.locator(".board .live-state")).to_be_attached()
        tv.wait_for_load_state("load")
        where = f"{slug} at {size['viewport']['width']}x{size['viewport']['height']}"
        shoot(tv, f"board-{slug}-{phase}-{size['viewport']['width']}")  # before the checks: a failure's picture
        parts = tv.locator("#live [data-board]")
        named_parts = {parts.nth(index).get_attribute("data-board") for index in range(parts.count())}
        assert named_parts, f"{where}: the board names no part: give each a data-board attribute"
        if phase == "mid":  # at the start nothing was rolled yet; at the end the result may replace the turn
            assert NAMED.get(slug, set()) <= named_parts, f"{where}: missing {NAMED[slug] - named_parts}"
        assert off_screen(tv, "#live [data-board]") == [], where
        assert cut_off(tv) == [], where
        if finished:
            expect(tv.locator(".board-result")).to_be_visible()
            assert tv.locator(".board-qr").count() == 0, f"{where}: a finished game shows the result, not the QR"
            assert off_screen(tv, ".board-result") == [], where
        else:
            assert off_screen(tv, ".whose-turn-board, .board-qr") == [], where
            assert tv.locator(".board-qr").count() == 1, f"{where}: a seat is free, so the QR code is on the board"
        assert off_screen(tv, ".board-log .log-entry:first-child") == [], where
        assert tv.evaluate("document.scrollingElement.scrollHeight <= innerHeight && "
                           "document.scrollingElement.scrollWidth <= innerWidth"), f"{where}: the board scrolls"
        controls = tv.locator("#live :is(button, input, select, textarea, form, a[href], details)")
        assert controls.count() == 0, f"{where}: a control on the board"
        assert serious_violations(tv) == [], where
        if phase == "mid" and size is TV:  # the next move reaches the TV on its own; the smaller TV then shows it
            version = tv.locator(".board .live-state").get_attribute("data-version")
            if offered_moves(call(live_server), table, 1):
                expect(tv.locator(".board .live-state")).not_to_have_attribute("data-version", version)
    assert screens.problems == [], screens.problems
