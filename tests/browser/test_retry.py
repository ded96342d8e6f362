"""A tap during a Wi-Fi blip: the phone says it is retrying, then 'Sent', and the move counts exactly once."""

import html
import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot

pytestmark = pytest.mark.browser


def test_a_tap_whose_answer_is_lost_and_a_tap_sent_offline_each_count_once(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "1", "Counters": "Doom, shared, 0, 50, 0"})
    code = host.url.rsplit("/", 1)[-1]
    phone = screens(PHONE)
    join(phone, join_url, "Ann")
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    doom = phone.locator(".counter-card", has_text="Doom").locator(".counter-value")
    plus = phone.get_by_role("button", name="Add 1 to Doom")

    # 1. The server applies the tap but its answer never reaches the phone (the Wi-Fi dropped on the way back).
    lost = []

    def lose_first_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.fetch().status)  # the server has it...
            route.abort("connectionreset")  # ...the phone doesn't hear back
        else:
            route.continue_()

    phone.route("**/act*", lose_first_answer)
    plus.click()
    expect(phone.locator(".tap-status")).to_have_text("Sent", timeout=10_000)
    assert lost == [200]
    expect(doom).to_have_text("1")
    expect(phone.locator(".tap-status")).to_have_count(0)  # "Sent" goes away on its own
    phone.unroute("**/act*")

    # 2. The phone is offline when the player taps: nothing leaves until the network is back.
    phone.context.set_offline(True)
    plus.click()
    status = phone.locator(".tap-status")
    expect(status).to_have_text("Not sent yet, retrying…")
    box, button = status.bounding_box(), plus.bounding_box()
    assert abs(box["y"] - button["y"]) < 120  # beside the finger, not somewhere else on the page
    shoot(phone, "retry-not-sent-yet")
    phone.wait_for_timeout(1500)  # a few backoffs pass while offline
    expect(doom).to_have_text("1")
    phone.context.set_offline(False)
    expect(status).to_have_text("Sent", timeout=15_000)
    expect(doom).to_have_text("2")
    expect(host.locator(".counter-card", has_text="Doom").locator(".counter-value")).to_have_text("2")

    expect(status).to_have_count(0)

    # 3. The network stays down past the retry budget (shortened here from a minute): the phone says so and keeps
    # the tap, which goes when the player asks.
    phone.add_init_script("window.nightshiftRetryForMs = 1500;")
    phone.reload()
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    phone.context.set_offline(True)
    phone.get_by_role("button", name="Add 1 to Doom").click()
    expect(status).to_contain_text("Not sent: Night Shift can't be reached", timeout=10_000)
    shoot(phone, "retry-not-sent")
    phone.route("**/events*", lambda route: route.abort())  # no stream back to send it on its own: the button does
    phone.context.set_offline(False)
    status.get_by_role("button", name="Send again").click()
    expect(status).to_have_text("Sent", timeout=15_000)
    expect(doom).to_have_text("3")

    log = html.unescape(host.context.request.get(f"{live_server}/t/{code}/log").text())  # the host's cookie
    assert re.findall(r"Doom \d+ → \d+", log) == ["Doom 2 → 3", "Doom 1 → 2", "Doom 0 → 1"]  # once each


def test_a_tap_a_proxy_answers_502_503_or_504_is_sent_again_and_counts_once(live_server, screens):
    """A proxy or a busy database saying "not now" applied nothing: the phone says so, sends the same tap again with
    the same key, and the move lands once."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "tracker", {"Players": "1", "Counters": "Doom, shared, 0, 50, 0"})
    phone = screens(PHONE)
    join(phone, join_url, "Ann")
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    doom = phone.locator(".counter-card", has_text="Doom").locator(".counter-value")
    statuses, answered, keys = iter([502, 503, 504]), [], []

    def not_now_first(route):
        """Each tap's first send gets the next status, without reaching the server; its second goes through."""
        if route.request.method != "POST":
            return route.continue_()
        keys.append(re.search(r"idempotency_key=([^&]+)", route.request.post_data or "").group(1))
        if len(keys) % 2:
            answered.append(next(statuses))
            return route.fulfill(status=answered[-1], body="Not now", content_type="text/plain")
        return route.continue_()

    phone.route("**/act*", not_now_first)
    for taps in (1, 2, 3):
        phone.get_by_role("button", name="Add 1 to Doom").click()
        expect(phone.locator(".tap-status")).to_have_text("Sent", timeout=10_000)
        expect(doom).to_have_text(str(taps))
    assert answered == [502, 503, 504]
    assert keys[0::2] == keys[1::2]  # each resend carried its tap's own key
    assert len(set(keys)) == 3
    assert screens.problems == [] or all("50" in problem for problem in screens.problems), screens.problems
