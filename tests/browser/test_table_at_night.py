"""The table at night in Chromium: a refusal beside the finger, the board on the TV, a player's own undo, a freed phone,
Play again with every phone following, and a phone that buzzes when its turn comes."""

import json
import urllib.request

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser

TV = {"viewport": {"width": 1920, "height": 1080}}
SMALL_TV = {"viewport": {"width": 1280, "height": 720}}


def api(base: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers=headers, method="GET" if body is None else "POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def inside(page, locator) -> bool:
    box = locator.bounding_box()
    viewport = page.viewport_size
    return (box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            and box["y"] + box["height"] <= viewport["height"])


def test_a_refused_tap_answers_beside_the_control_that_sent_it(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2", "Counters": "Health, each, 0, 20, 20"})
    ann = screens(PHONE)
    join(ann, join_url, "Ann")
    ann.get_by_label("Set Health to").fill("20")  # what it already is: the rules refuse it
    form = ann.locator("form.set-form")
    form.get_by_role("button", name="Set").click()
    refusal = ann.locator(".refusal[role=alert]")
    expect(refusal).to_have_text("Health is already 20.")
    assert inside(ann, refusal)
    below = refusal.bounding_box()["y"] - (form.bounding_box()["y"] + form.bounding_box()["height"])
    assert 0 <= below <= 80, below  # right under the control, not at the top of the page
    expect(ann.locator("#flash")).to_be_empty()
    shoot(ann, "refusal-phone")
    ann.get_by_role("button", name="Take 1 from Health").click()  # acting again clears it
    expect(refusal).to_have_count(0)
    assert [problem for problem in screens.problems if "status of 422" not in problem] == []  # the refusal itself


@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
def test_the_board_fills_the_tv_with_no_control_and_nothing_to_scroll(live_server, screens, size):
    from playwright.sync_api import expect

    table = api(live_server, "/api/tables", {"game": "tracker", "options": {
        "players": 3, "counters": "Health, each, 0, 20, 20\nDoom, shared, 0, 20, 0"}})
    ann = api(live_server, f"/api/tables/{table['code']}/join", {"name": "Ann", "key": table["join_key"]})
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "roll", "dice": "2d6"}, ann["seat_token"])
    tv = screens(size | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}})
    tv.goto(f"{live_server}/t/{table['code']}/board")
    expect(tv.locator(".board .live-state")).to_be_attached()
    for part in (".whose-turn", ".board-figure", ".board-table", ".board-qr", ".board-log"):
        assert inside(tv, tv.locator(part).first), part
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight && "
                       "document.documentElement.scrollWidth <= innerWidth")
    assert tv.locator(".board form, .board button, .board input").count() == 0
    assert serious_violations(tv) == []
    shoot(tv, f"board-tracker-{size['viewport']['width']}")
    # A move on a phone reaches the TV on its own.
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "adjust", "counter": "doom", "by": 3},
        ann["seat_token"])
    expect(tv.locator(".board-figure", has_text="Doom").locator(".board-number")).to_have_text("3")
    assert screens.problems == [], screens.problems


def test_a_player_undoes_their_own_slip_from_the_phone(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2", "Counters": "Health, each, 0, 20, 20"})
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    ann.get_by_role("button", name="Take 5 from Health").click()
    expect(ann.locator(".counter-big .counter-value")).to_have_text("15")
    expect(bo.get_by_role("button", name="Undo my last move")).to_have_count(0)
    ann.get_by_role("button", name="Undo my last move").click()
    expect(ann.locator(".counter-big .counter-value")).to_have_text("20")
    expect(host.locator(".log-entry").first).to_contain_text("Ann (Player 1) undid their move")
    assert serious_violations(ann) == []
    assert screens.problems == [], screens.problems


def test_play_again_takes_every_phone_to_its_seat_at_the_next_game(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2"})
    code = host.url.rsplit("/", 1)[-1]
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    expect(bo.locator(".live-status .live-on")).to_be_visible()
    host.get_by_text("End the game…").click()
    host.get_by_role("button", name="Yes, end the game").click()
    host.get_by_role("button", name="Play again").click()
    host.wait_for_url(lambda url: f"/t/{code}" not in url)
    upcoming = host.url.rsplit("/", 1)[-1]
    for phone, number in ((ann, 1), (bo, 2)):
        phone.wait_for_url(f"**/t/{upcoming}/seats/{number}", timeout=30_000)
        expect(phone.locator(".seat-bar .seat-holder")).to_have_text("Ann" if number == 1 else "Bo")
    expect(host.locator(".seat-list .seat-player", has_text="Ann")).to_be_visible()
    ann.go_back()  # the finished table stays readable, pointing to the next game
    expect(ann.locator(".next-game")).to_contain_text(upcoming)
    assert screens.problems == [], screens.problems


def test_a_freed_phone_lands_on_a_page_that_says_so(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2"})
    ann = screens(PHONE)
    join(ann, join_url, "Ann")
    expect(ann.locator(".live-status .live-on")).to_be_visible()
    host.locator(".seat", has_text="Ann").get_by_text("Free seat…").click()
    host.get_by_role("button", name="Yes, free Player 1").click()
    expect(ann.get_by_role("heading", name="The host freed your seat")).to_be_visible(timeout=15_000)
    assert ann.locator("#live").count() == 0  # a page of its own, not an error inside the old one
    ann.get_by_role("link", name="Join again").click()
    expect(ann.get_by_role("button", name="Take my seat")).to_be_visible()
    assert serious_violations(ann) == []


def test_a_phone_buzzes_and_shows_what_to_do_when_its_turn_comes(live_server, screens):
    from playwright.sync_api import expect

    table = api(live_server, "/api/tables", {"game": "night-of-frights",
                                             "options": {"characters": ["Freddy", "Bonnie"], "event_deck": 8}})
    freddy = api(live_server, f"/api/tables/{table['code']}/join", {"name": "Fay", "key": table["join_key"]})
    bonnie = screens(PHONE)
    bonnie.add_init_script("window.buzzes = []; navigator.vibrate = function (p) { window.buzzes.push(p); "
                           "return true; };")
    join(bonnie, f"{live_server}/j/{table['code']}?k={table['join_key']}", "Bo")
    expect(bonnie.locator(".live-status .live-on")).to_be_visible()
    host = table["host_token"]
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "first-player", "whose": 1}, host)
    expect(bonnie.locator(".whose-turn")).to_contain_text("Fay")
    assert bonnie.evaluate("window.buzzes.length") == 0
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "end-turn"}, freddy["seat_token"])
    expect(bonnie.locator(".whose-turn.yours")).to_be_visible()
    bonnie.wait_for_function("window.buzzes.length === 1")
    prompt = bonnie.locator("[data-prompt], .whose-turn.yours").first
    expect(prompt).to_be_in_viewport(ratio=0.99)  # scrolled to (smoothly, unless the phone asks for reduced motion)
    shoot(bonnie, "your-turn-phone")
    vibrate = bonnie.get_by_label("Vibrate on my turn and when I'm attacked")
    bonnie.locator(".settings summary").click()
    vibrate.uncheck()  # remembered on this phone
    bonnie.reload()
    bonnie.locator(".settings summary").click()
    expect(vibrate).not_to_be_checked()
    assert screens.problems == [], screens.problems
