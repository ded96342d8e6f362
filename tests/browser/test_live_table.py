"""End to end in Chromium: two phones and a host screen on one tracker table; taps show everywhere, no reloads."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser


DOOM = "Doom, shared, 0, 50, 0"


def ann_and_bo(live_server, screens, counters=DOOM):
    """A tracker table on the host screen with Ann's and Bo's phones seated and hearing it live."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2", "Counters": counters})
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    expect(bo.locator(".live-status .live-on")).to_be_visible()
    return host, ann, bo


def hold_next_answer(page, tap):
    """Make `tap` on `page` and keep its answer: given by the server now, delivered when told."""
    held = []

    def hold(route):
        if held or route.request.method != "POST":
            route.continue_()
        else:
            held.append((route, route.fetch()))

    page.route("**/act*", hold)
    tap()
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the tap never left the phone"
    route, answer = held[0]
    return lambda: route.fulfill(response=answer)


def doom_on(page):
    return page.locator(".counter-card", has_text="Doom").locator(".counter-value")


def test_a_tap_on_one_phone_shows_on_the_other_and_on_the_host_screen(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {
        "Players": "2", "Counters": "Sanity, each, 0, 10, 10\nDoom, shared, 0, 20, 0", "Dice tray": "d20, 2d6"})
    code = host.url.rsplit("/", 1)[-1]

    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    for page in (host, ann, bo):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)
    expect(host.locator(".seat-list .presence.online")).to_have_count(2, timeout=5000)

    # Ann raises the shared Doom track; Bo's phone and the host screen follow on their own.
    ann.get_by_role("button", name="Add 1 to Doom").click()
    for page in (ann, bo, host):
        expect(page.locator(".counter-card", has_text="Doom").locator(".counter-value")).to_have_text("1")
    expect(bo.locator(".log-entry").first).to_contain_text("Ann (Player 1): Doom 0 → 1")

    # Bo loses sanity on his own counter; the host's per-seat table shows it.
    bo.get_by_role("button", name="Take 5 from Sanity").click()
    expect(host.locator("tr", has_text="Bo").locator(".counter-value")).to_have_text("5")

    # Ann rolls the tray's d20: the same roll on every screen.
    ann.get_by_role("button", name="Roll d20").click()
    total = ann.locator(".last-roll .roll-total")
    expect(total).to_have_text(re.compile(r"^\d+$"))
    rolled = total.inner_text()
    for page in (bo, host):
        expect(page.locator(".last-roll .roll-total")).to_have_text(rolled)

    # At 0 the screen offers no step below it; a typed value out of range is refused with a sentence, changing nothing.
    bo.get_by_role("button", name="Take 5 from Sanity").click()
    expect(bo.get_by_role("button", name="Take 1 from Sanity")).to_be_disabled()
    bo.get_by_label("Set Sanity to").fill("99")
    bo.get_by_role("button", name="Set", exact=True).click()
    expect(bo.locator("form.set-form + .refusal")).to_contain_text("Sanity")  # beside the control that sent it
    expect(host.locator("tr", has_text="Bo").locator(".counter-value")).to_have_text("0")

    # The host takes the last move back; both phones follow.
    host.get_by_role("button", name=re.compile(r"^Undo #")).click()
    for page in (ann, bo, host):
        expect(page.locator(".log-entry").first).to_contain_text("Host undid")
    expect(bo.locator(".counter-card", has_text="Sanity").locator(".counter-value")).to_have_text("5")

    for page, name in ((host, "live-host"), (ann, "live-phone-ann"), (bo, "live-phone-bo")):
        assert serious_violations(page) == [], name
        shoot(page, name)
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]  # the refused tap
    assert not unexpected, unexpected
    assert host.url.endswith(f"/t/{code}")  # nobody reloaded or navigated away


def test_a_phone_whose_stream_is_blocked_falls_back_to_polling(live_server, screens):
    """Some networks kill long-lived responses: the page says so and still shows every change within seconds."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2"})

    phone = screens(PHONE)
    phone.route("**/events*", lambda route: route.abort())
    join(phone, join_url, "Ann")
    expect(phone.locator(".live-status .live-off")).to_be_visible(timeout=10_000)
    host.get_by_role("button", name="Next round").click()
    expect(phone.locator(".round strong")).to_have_text("2", timeout=12_000)
    # htmx logs each failed reconnect as an error event; anything else would be a real problem
    unexpected = [problem for problem in screens.problems
                  if "/events" not in problem and "[object Event]" not in problem]
    assert not unexpected, unexpected


def test_someone_elses_move_keeps_what_a_player_is_typing_and_quick_taps_all_count(live_server, screens):
    from playwright.sync_api import expect

    host, ann, bo = ann_and_bo(live_server, screens, DOOM + "\nHealth, each, 0, 20, 20")
    expect(ann.locator(".live-status .live-on")).to_be_visible()

    ann.get_by_text("Other dice, or enter a real roll").click()
    ann.get_by_label("Dice", exact=True).fill("3d6")
    ann.get_by_label("Set Health to").fill("12")  # typed, focused, not sent
    bo.get_by_role("button", name="Add 1 to Doom").click()
    expect(ann.locator(".counter-card", has_text="Doom").locator(".counter-value")).to_have_text("1")
    expect(ann.get_by_label("Set Health to")).to_have_value("12")
    expect(ann.get_by_label("Dice", exact=True)).to_have_value("3d6")
    expect(ann.locator("details.dice-more")).to_have_attribute("open", "")
    ann.get_by_role("button", name="Set", exact=True).click()
    expect(ann.locator(".counter-card", has_text="Health").locator(".counter-value")).to_have_text("12")
    expect(ann.get_by_label("Set Health to")).to_have_value("")  # sent: the field starts empty again

    taps = []
    bo.on("request", lambda request: taps.append(request.url) if request.method == "POST" else None)
    plus = bo.get_by_role("button", name="Add 1 to Doom")
    for _ in range(5):
        plus.click(delay=0, no_wait_after=True)
    for _ in range(150):  # queued taps leave one after another; a busy machine may take seconds
        if len(taps) >= 5:
            break
        bo.wait_for_timeout(100)
    assert len(taps) == 5, taps  # every tap left the phone
    for page in (ann, bo, host):
        expect(page.locator(".counter-card", has_text="Doom").locator(".counter-value")).to_have_text("6")
    unexpected = [problem for problem in screens.problems if "status of 4" not in problem]
    assert not unexpected, unexpected


def test_taps_queued_on_a_slow_network_all_count_while_another_players_move_refreshes_the_screen(live_server, screens):
    """htmx forgets an element's queued requests when a swap re-initialises it; the tapped form must never be."""
    from playwright.sync_api import expect

    host, ann, bo = ann_and_bo(live_server, screens, DOOM + "\nHealth, each, 0, 20, 20")
    network = bo.context.new_cdp_session(bo)  # a phone at the far end of the house's Wi-Fi
    network.send("Network.enable")
    network.send("Network.emulateNetworkConditions",
                 {"offline": False, "latency": 300, "downloadThroughput": -1, "uploadThroughput": -1})

    taps = []
    bo.on("request", lambda request: taps.append(request.url) if request.method == "POST" else None)
    plus = bo.get_by_role("button", name="Add 1 to Doom")
    for tap in range(5):
        plus.click(delay=0, no_wait_after=True)
        if tap == 1:  # Ann moves while Bo's taps wait their turn: Bo's screen refreshes under them
            ann.get_by_role("button", name="Take 1 from Health").click()
    expect(bo.locator("#sending")).to_have_class(re.compile(r"htmx-request"))
    expect(bo.locator("#sending")).to_be_visible()
    shoot(bo, "live-phone-sending")
    for page in (bo, ann, host):
        expect(doom_on(page)).to_have_text("5", timeout=20_000)
    assert len(taps) == 5, taps
    expect(bo.locator("#sending")).not_to_have_class(re.compile(r"htmx-request"))
    unexpected = [problem for problem in screens.problems if "status of 4" not in problem]
    assert not unexpected, unexpected


def test_an_older_answer_arriving_late_never_turns_the_screen_back(live_server, screens):
    """My tap's answer, delivered after a newer picture was pushed, must not undo the newer move on my screen."""
    from playwright.sync_api import expect

    _, ann, bo = ann_and_bo(live_server, screens)
    bo.evaluate("() => { window.lateAnswers = 0; document.addEventListener('htmx:afterRequest', () => lateAnswers++) }")
    deliver = hold_next_answer(bo, bo.get_by_role("button", name="Add 1 to Doom").click)  # answer: Doom 1
    ann.get_by_role("button", name="Add 1 to Doom").click()  # pushed to Bo: Doom 2
    expect(doom_on(bo)).to_have_text("2")
    deliver()  # the picture with Doom at 1 arrives last
    bo.wait_for_function("() => window.lateAnswers > 0")
    bo.wait_for_timeout(300)  # a swap would have happened by now
    expect(doom_on(bo)).to_have_text("2")
    ann.get_by_role("button", name="Add 1 to Doom").click()  # and the screen still follows the table
    expect(doom_on(bo)).to_have_text("3")


def test_three_phones_and_the_host_see_a_move_without_fetching_anything(live_server, screens):
    """The server pushes each screen its own picture down the stream it holds: no screen asks, and no screen is
    sent another seat's picture."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "3", "Counters": DOOM + "\nSanity, each, 0, 9, 9"})
    phones = [screens(PHONE) for _ in range(3)]
    for phone, name in zip(phones, ("Ann", "Bo", "Cy"), strict=True):
        join(phone, join_url, name)
    for page in (host, *phones):
        expect(page.locator(".live-status .live-on")).to_be_visible()
    expect(host.locator(".seat-list .presence.online")).to_have_count(3)
    ann, bo, cy = phones
    asked = {page: [] for page in (host, bo, cy)}
    for page, log in asked.items():
        page.on("request", lambda request, log=log: log.append(request.url))
    for doom in (1, 2):
        ann.get_by_role("button", name="Add 1 to Doom").click()
        for page in (host, *phones):
            expect(doom_on(page)).to_have_text(str(doom))
    ann.get_by_role("button", name="Take 1 from Sanity").click()
    expect(host.locator("tr", has_text="Ann").locator(".counter-value")).to_have_text("8")
    for page in (bo, cy):  # each phone sees its own Sanity only, still 9
        expect(page.locator(".counter-card", has_text="Sanity").locator(".counter-value")).to_have_text("9")
    # Ann's phone, pushed from the one render every phone shares: her own Sanity, her own undo, her own row.
    expect(ann.locator(".counter-card", has_text="Sanity").locator(".counter-value")).to_have_text("8")
    expect(ann.get_by_role("button", name="Undo my last move")).to_be_visible()
    expect(bo.get_by_role("button", name="Undo my last move")).to_have_count(0)
    expect(ann.locator("tr.mine")).to_have_text(re.compile("Ann"))
    shoot(ann, "tracker-phone-pushed-ann")
    assert all(log == [] for log in asked.values()), asked
    assert not screens.problems, screens.problems


@pytest.fixture
def quick_beat_server(tmp_path, database_url):
    """A server whose streams beat every second, so a silent stream shows within seconds."""
    from tests.server import running_server

    with running_server(tmp_path / "instance", database_url, public_url="http://127.0.0.1:{port}",
                        env={"NIGHTSHIFT_LIVE_BEAT_SECONDS": "1"}) as base:
        yield base


def phone_behind_relay(live_server, screens, relay_port):
    """Ann's phone reaches the server through a relay the test can stall or cut; Bo's directly."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "2", "Counters": DOOM})
    port = live_server.rsplit(":", 1)[1]
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url.replace(f":{port}/", f":{relay_port}/"), "Ann")
    join(bo, join_url, "Bo")
    for page in (ann, bo):
        expect(page.locator(".live-status .live-on")).to_be_visible()
    return host, ann, bo


def test_a_silent_stream_says_reconnecting_within_two_heartbeats_and_catches_up(quick_beat_server, screens):
    """A dropped Wi-Fi leaves the stream open but silent: the phone must not keep claiming 'Live' with an old table."""
    from playwright.sync_api import expect

    from tests.proxy import Relay

    relay = Relay(int(quick_beat_server.rsplit(":", 1)[1]))
    try:
        _, phone, bo = phone_behind_relay(quick_beat_server, screens, relay.port)
        live_top = phone.locator("#live").bounding_box()["y"]
        relay.stall()
        expect(phone.locator(".live-status .live-off")).to_be_visible(timeout=10_000)
        shoot(phone, "live-phone-reconnecting")
        assert phone.locator("#live").bounding_box()["y"] == live_top  # the word changes; the page doesn't move
        for _ in range(2):
            bo.get_by_role("button", name="Add 1 to Doom").click()
        expect(doom_on(bo)).to_have_text("2")
        relay.resume()
        expect(doom_on(phone)).to_have_text("2", timeout=15_000)
        expect(phone.locator(".live-status .live-on")).to_be_visible(timeout=15_000)
        bo.get_by_role("button", name="Add 1 to Doom").click()  # and it hears the table live again
        expect(doom_on(phone)).to_have_text("3")
    finally:
        relay.close()


def test_a_phone_whose_stream_broke_catches_up_on_the_moves_it_missed(quick_beat_server, screens):
    from playwright.sync_api import expect

    from tests.proxy import Relay

    relay = Relay(int(quick_beat_server.rsplit(":", 1)[1]))
    try:
        _, phone, bo = phone_behind_relay(quick_beat_server, screens, relay.port)
        relay.cut()  # the connection closes and the phone can't reconnect for now
        for _ in range(3):
            bo.get_by_role("button", name="Add 1 to Doom").click()
        expect(doom_on(bo)).to_have_text("3")
        expect(doom_on(phone)).to_have_text("0")
        relay.resume()
        expect(doom_on(phone)).to_have_text("3", timeout=15_000)
        expect(phone.locator(".live-status .live-on")).to_be_visible()
    finally:
        relay.close()
