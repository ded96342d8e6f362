"""A player undoes their latest move from the first screenful, or asks the host once others moved (one host tap goes
back); once every seat is taken the join code leaves the host page; after Play again the TV board and a second host
page move to the new table by themselves, with the phones."""

import re

import pytest

from tests.browser.conftest import PHONE, join, new_table, shoot

pytestmark = pytest.mark.browser

CONSOLE = {"viewport": {"width": 1280, "height": 720}}
TV = {"width": 1920, "height": 1080}


def in_first_screenful(page, locator) -> bool:
    """Whether the element lies inside the page's first viewport, without scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_undo_beside_the_move_an_ask_the_host_grants_in_one_tap_and_every_screen_follows_play_again(
        live_server, screens):
    from playwright.sync_api import expect

    host = screens(CONSOLE)
    join_url = new_table(host, live_server, "tracker", {"Players": "2", "Counters": "Sanity, each, 0, 10, 10"})
    first = host.url.rsplit("/", 1)[-1]
    board = host.context.new_page()
    board.set_viewport_size(TV)
    board.goto(f"{live_server}/t/{first}/board")
    second_host = host.context.new_page()  # another host screen that never taps
    second_host.goto(host.url)
    expect(host.locator(".qr-frame")).to_be_visible()

    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    for page in (host, ann, bo, board, second_host):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)

    # Every seat is taken: the join code folds away on the host page, and "Show join code" brings it back.
    expect(host.locator(".qr-frame")).to_be_hidden(timeout=5000)
    show = host.get_by_text("Show join code")
    expect(show).to_be_visible()
    show.click()
    expect(host.locator(".qr-frame")).to_be_visible()
    host.get_by_text("Hide join code").click()
    expect(host.locator(".qr-frame")).to_be_hidden()

    # Ann's slip: its undo sits beside it in her first screenful.
    ann.get_by_role("button", name="Take 5 from Sanity").click()
    undo = ann.get_by_role("button", name="Undo my last move")
    expect(undo).to_be_visible()
    expect(ann.locator(".own-slip")).to_contain_text("Sanity 10 → 5")
    assert in_first_screenful(ann, undo)
    shoot(ann, "slip-undo-phone")
    undo.click()
    expect(ann.locator(".own-slip")).to_have_count(0)
    expect(host.locator(".log-entry").first).to_contain_text("Ann (Player 1) undid their move")

    # Once Bo moved after her, Ann asks the host, and the host's one tap goes back past both moves.
    ann.get_by_role("button", name="Take 5 from Sanity").click()
    expect(ann.get_by_role("button", name="Undo my last move")).to_be_visible()
    bo.get_by_role("button", name="Take 1 from Sanity").click()
    ask = ann.get_by_role("button", name="Ask the host to undo")
    expect(ask).to_be_visible(timeout=5000)
    assert in_first_screenful(ann, ask)
    ask.click()
    expect(ann.locator(".own-slip-asked")).to_have_text("Asked the host to undo it")
    request = host.locator(".undo-ask")
    expect(request).to_contain_text("Ann (Player 1) asks you to undo #")
    grant = request.get_by_role("button", name=re.compile(r"^Undo back to before #\d+$"))
    assert in_first_screenful(host, grant)
    shoot(host, "slip-ask-host")
    grant.click()
    expect(host.locator(".undo-ask")).to_have_count(0)
    log = host.locator(".log-entry")
    expect(log.first).to_contain_text(re.compile(r"Host went back to before #\d+, as Ann \(Player 1\) asked, "
                                                 r"undoing 2 moves\."))
    expect(log.nth(1)).to_contain_text("Ann (Player 1) asks the host to undo #")  # the log keeps both
    for page in (host, ann, bo):
        for gone in ("Sanity: 5", "Sanity: 9"):  # Ann's 5 and Bo's 1 are both taken back
            expect(page.locator(f'[aria-label="{gone}"]')).to_have_count(0)

    # The host ends the game: a decided table shows no join code. Play again: every screen moves on by itself.
    host.get_by_text("End the game…").click()
    host.get_by_role("button", name="Yes, end the game").click()
    expect(host.locator(".qr-frame")).to_have_count(0)
    expect(host.get_by_role("button", name="Play again")).to_be_visible()
    assert in_first_screenful(host, host.get_by_role("button", name="Play again"))
    host.get_by_role("button", name="Play again").click()
    # The host page is already at a /t/CODE address: wait for another table's, not for the one it shows.
    host.wait_for_url(lambda url: re.search(r"/t/[A-Z0-9]{5}$", url) is not None and f"/t/{first}" not in url)
    upcoming = host.url.rsplit("/", 1)[-1]
    board.wait_for_url(f"**/t/{upcoming}/board", timeout=10000)
    second_host.wait_for_url(f"**/t/{upcoming}", timeout=10000)
    for phone in (ann, bo):
        phone.wait_for_url(re.compile(rf"/t/{upcoming}/seats/\d$"), timeout=10000)
    expect(board.locator(".board-code")).to_contain_text(upcoming)
    expect(second_host.locator(".qr-frame")).to_be_hidden()  # the same seats, all taken: no join code
    unexpected = [problem for problem in screens.problems if "status of 4" not in problem]
    assert not unexpected, unexpected
