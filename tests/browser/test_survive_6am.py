"""End to end in Chromium: a host screen and two phones play two rounds of Survive 'Til 6AM; every screen shows the
same clock and the same two Power Dials, with no reloads."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_table_at_night import SMALL_TV, TV, api, inside

pytestmark = pytest.mark.browser


def dial_value(page, colour: str):
    return page.locator(f".s6-guard.seat-{colour} .s6-dial-value")


def react(page, cards: int, depletion: int, dice: list[int]) -> None:
    """Fill the phone's reaction form the way a player does: two rows of big choices and the dice fields."""
    page.locator("fieldset", has_text="Cards to react to").get_by_label(str(cards), exact=True).check()
    fold = page.locator("details#s6-depletion:not([open]) > summary")  # counted from the cameras: one tap to correct
    if fold.count():
        fold.click()
    page.locator("fieldset", has_text="Power Depletion cards face up").get_by_label(str(depletion), exact=True).check()
    for number, value in enumerate(dice, start=1):
        page.get_by_label(f"Die {number}", exact=True).fill(str(value))
    page.get_by_role("button", name="React with these dice").click()


def test_a_host_and_two_phones_play_two_rounds_and_every_screen_shows_the_same_dials(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "survive-6am")
    code = host.url.rsplit("/", 1)[-1]
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    everyone = (host, ann, bo)
    for page in everyone:
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)
        expect(page.locator(".s6-time")).to_have_text("START")
    expect(host.locator(".s6-checklist")).to_contain_text("Show Stage: 10 cards face down, then shuffle in 2")
    shoot(host, "survive-6am-host-setup")

    # Round 1 (12:00 AM): the host advances time, Ann ends Phase One, Ann then Bo react on their phones.
    host.get_by_role("button", name="Advance time: START → 12:00 AM").click()
    for page in everyone:
        expect(page.locator(".s6-time")).to_have_text("12:00 AM")
        expect(page.locator(".s6-phase-title")).to_have_text("Phase One: Monitor Cameras")
    # Ann taps in what her Hallway showed; every screen's board check counts it.
    ann.get_by_role("button", name="Orange Hallway: Power Depletion").click()
    expect(ann.locator(".s6-cameras .s6-location").first).to_contain_text("Hallway Power Depletion")
    expect(host.locator(".s6-board")).to_contain_text("Orange's cameras face up: 1 Power Depletion card (Hallway")
    shoot(ann, "survive-6am-phone-cameras")
    ann.get_by_role("button", name="Cameras flipped: Phase Two").click()
    expect(ann.locator("input[name=depletion][value='1']")).to_be_checked()
    expect(bo.locator(".s6-wait")).to_have_text("Wait: Orange (Ann) reacts now.")
    expect(host.get_by_role("link", name="React for Orange")).to_be_visible()
    expect(ann.locator(".s6-forecast caption")).to_contain_text("your 100 power")
    shoot(ann, "survive-6am-phone-react")

    # A die the table's dice can't show is refused with a sentence; nothing changes.
    react(ann, 1, 0, [99])
    expect(ann.locator(".refusal")).to_contain_text("A Power die can't show 99")
    expect(dial_value(host, "orange")).to_have_text("100")

    react(ann, 2, 1, [5, 10])  # the rulebook's example turn: 20 power
    for page in everyone:
        expect(dial_value(page, "orange")).to_have_text("80")
    expect(host.locator(".s6-guard.seat-orange .s6-last")).to_have_text("12:00 AM: 5 + 10 + 5 depletion = 20 → 80")
    react(bo, 1, 0, [15])
    for page in everyone:
        expect(dial_value(page, "purple")).to_have_text("85")
        expect(page.locator(".s6-phase-title")).to_have_text("Phase Three: Resolve")

    # Round 2 (12:30 AM): Purple has more power, so Bo reacts first; Ann saves her power.
    bo.get_by_role("button", name="Advance time → 12:30 AM").click()
    for page in everyone:
        expect(page.locator(".s6-time")).to_have_text("12:30 AM")
    host.get_by_role("button", name="Cameras flipped: Phase Two").click()
    expect(ann.locator(".s6-wait")).to_have_text("Wait: Purple (Bo) reacts now.")
    expect(host.locator(".s6-order")).to_contain_text("Purple reacts first (more power, 85 to 80)")
    react(bo, 2, 2, [20, 20])
    ann.get_by_role("button", name="React to no cards (save power)").click()
    for page in everyone:
        expect(dial_value(page, "purple")).to_have_text("35")
        expect(dial_value(page, "orange")).to_have_text("80")
        expect(page.locator(".s6-phase-title")).to_have_text("Phase Three: Resolve")
        expect(page.get_by_role("img", name="Orange's Power Dial: 80")).to_be_visible()
        expect(page.get_by_role("img", name="Purple's Power Dial: 35")).to_be_visible()
    expect(host.locator(".s6-board")).to_contain_text("Clock pile: 12:30 AM on top, 11 cards on the pile")
    expect(host.locator(".log-entry").first).to_contain_text("Ann (Orange): reacted to no cards and kept 80 power")

    for page, name in ((host, "survive-6am-host"), (ann, "survive-6am-phone-ann"), (bo, "survive-6am-phone-bo")):
        shoot(page, name)
        assert serious_violations(page) == [], name
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]  # the refused die
    assert not unexpected, unexpected
    assert host.url.endswith(f"/t/{code}") and re.search(r"/seats/1$", ann.url)


def test_a_solo_phone_with_app_rolls_sees_its_forecast_and_the_loss(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    host.goto(live_server + "/new/survive-6am")
    host.get_by_label("Players", exact=True).fill("1")
    host.get_by_label("Power dice", exact=True).select_option("virtual")
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/t/*")
    ann = screens(PHONE)
    join(ann, host.locator(".join-url code").inner_text(), "Ann")
    ann.get_by_role("button", name="Advance time: START → 12:00 AM").click()
    ann.get_by_role("button", name="Cameras flipped: Phase Two").click()
    expect(ann.locator(".s6-forecast tbody tr")).to_have_count(5)
    ann.locator("fieldset", has_text="Cards to react to").get_by_label("1", exact=True).check()
    ann.get_by_role("button", name="React and roll").click()
    expect(host.locator(".s6-guard.seat-orange .s6-last")).to_contain_text("(app roll)")
    expect(dial_value(ann, "orange")).not_to_have_text("100")  # Ann's own screen has its answer too
    shown = int(dial_value(ann, "orange").text_content())
    expect(dial_value(host, "orange")).to_have_text(str(shown))
    assert shown in (80, 85, 90, 95)
    ann.get_by_text("An animatronic reached my Office…").click()
    ann.get_by_role("button", name="Yes: an Animatronic reached Orange's Office").click()
    for page in (host, ann):
        expect(page.locator(".outcome")).to_have_text(re.compile(r"Orange's Office at 12:00 AM: the night is lost"))
        expect(page.locator(".outcome")).to_contain_text("Nobody wins this one.")
    shoot(ann, "survive-6am-phone-solo-lost")
    shoot(host, "survive-6am-host-solo-lost")
    assert not screens.problems, screens.problems


@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
def test_the_board_shows_the_clock_both_dials_and_the_cameras_with_nothing_to_scroll(live_server, screens, size):
    """The TV: the clock, both Power Dials and the cards each guard tapped in, inside the screen at both sizes, with
    no control and no scrollbar; a phone's move reaches it on its own."""
    from playwright.sync_api import expect

    table = api(live_server, "/api/tables", {"game": "survive-6am", "options": {"players": 2}})
    ann = api(live_server, f"/api/tables/{table['code']}/join", {"name": "Ann", "key": table["join_key"]})
    bo = api(live_server, f"/api/tables/{table['code']}/join", {"name": "Bo", "key": table["join_key"]})
    moves = [(ann, {"type": "advance-time"}),
             *((ann, {"type": "flip", "location": location, "card": card}) for location, card in (
                 ("Hallway", "animatronic"), ("Hallway", "what-was-that"), ("Pirate Cove", "power-depletion"),
                 ("Dining Area", "empty-room"), ("Show Stage", "animatronic"), ("Show Stage", "what-was-that"))),
             *((bo, {"type": "flip", "location": location, "card": card}) for location, card in (
                 ("Hallway", "animatronic"), ("Hallway", "empty-room"), ("Pirate Cove", "what-was-that"),
                 ("Dining Area", "power-depletion"), ("Show Stage", "empty-room"))),
             (bo, {"type": "cameras-flipped"})]
    for who, move in moves:
        api(live_server, f"/api/tables/{table['code']}/actions", move, who["seat_token"])
    tv = screens(size | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}})
    tv.goto(f"{live_server}/t/{table['code']}/board")
    expect(tv.locator(".board .live-state")).to_be_attached()
    expect(tv.locator(".s6-tv-time")).to_have_text("12:00 AM")
    expect(tv.locator(".s6-tv-warning").first).to_contain_text("An Animatronic is face up in Orange's Hallway")
    shoot(tv, f"board-survive-6am-{size['viewport']['width']}")
    expect(tv.locator(".s6-tv-warning")).to_have_count(2)  # both Hallways: the tallest the board gets
    for part in (".whose-turn", ".s6-tv-time", ".s6-tv-round", ".s6-tv-phase", ".board-log"):
        assert inside(tv, tv.locator(part).first), part
    assert inside(tv, tv.locator(".s6-tv-warning").last)
    for colour in ("orange", "purple"):
        guard = tv.locator(f".s6-tv-guard.seat-{colour}")
        for part in (".s6-tv-dial", ".s6-tv-name", ".s6-tv-status", ".s6-tv-cameras"):
            assert inside(tv, guard.locator(part)), (colour, part)
        assert inside(tv, guard.locator(".s6-tv-camera").last), colour
        card, cameras = guard.bounding_box(), guard.locator(".s6-tv-cameras").bounding_box()
        assert cameras["y"] + cameras["height"] <= card["y"] + card["height"], (colour, "cameras cut off")
    expect(tv.locator(".s6-tv-guard.seat-orange .s6-tv-camera").last).to_contain_text("Animatronic, What Was That?")
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight && "
                       "document.documentElement.scrollWidth <= innerWidth")
    assert tv.locator(".board form, .board button, .board input, .board select, .board a").count() == 0
    assert serious_violations(tv) == []
    shoot(tv, f"board-survive-6am-{size['viewport']['width']}")
    # Orange reacts on the phone (the rulebook's example: 5 and 10 with one Power Depletion card face up is 20).
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "react", "cards": 2, "values": [5, 10]},
        ann["seat_token"])
    expect(tv.get_by_role("img", name="Orange's Power Dial: 80")).to_be_visible()
    expect(tv.locator(".s6-tv-guard.seat-orange .s6-tv-last")).to_have_text("12:00 AM: 5 + 10 + 5 depletion = 20 → 80")
    assert inside(tv, tv.locator(".s6-tv-guard.seat-orange .s6-tv-last"))
    assert screens.problems == [], screens.problems


def test_a_solo_board_at_the_end_shows_the_result_and_the_dial_with_nothing_to_scroll(live_server, screens):
    """One guard on the small TV: the single dial, the clock at 6:00 AM and the result, inside 1280x720."""
    from playwright.sync_api import expect

    table = api(live_server, "/api/tables", {"game": "survive-6am", "options": {"players": 1, "power_dice": "virtual"}})
    ann = api(live_server, f"/api/tables/{table['code']}/join", {"name": "Ann", "key": table["join_key"]})
    for _ in range(12):
        for move in ({"type": "advance-time"}, {"type": "cameras-flipped"}, {"type": "react", "cards": 0}):
            api(live_server, f"/api/tables/{table['code']}/actions", move, ann["seat_token"])
    api(live_server, f"/api/tables/{table['code']}/actions", {"type": "advance-time"}, ann["seat_token"])
    tv = screens(SMALL_TV | {"extra_http_headers": {"Authorization": f"Bearer {table['host_token']}"}})
    tv.goto(f"{live_server}/t/{table['code']}/board")
    expect(tv.locator(".s6-tv-time")).to_have_text("6:00 AM")
    expect(tv.locator(".board-result")).to_contain_text("Orange survived the night with 100 power left")
    for part in (".board-result", ".s6-tv-time", ".s6-tv-round", ".s6-tv-dial", ".s6-tv-name", ".s6-tv-last"):
        assert inside(tv, tv.locator(part).first), part
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight && "
                       "document.documentElement.scrollWidth <= innerWidth")
    assert tv.locator(".board-qr").count() == 0  # a finished game shows the result, not the QR
    shoot(tv, "board-survive-6am-solo-1280")
    assert serious_violations(tv) == []
    assert screens.problems == [], screens.problems
