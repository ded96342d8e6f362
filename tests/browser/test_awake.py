"""A phone's screen stays awake over plain LAN http (no Wake Lock there: NoSleep.js's looping video, from the first
tap), and `nightshift --https` serves a secure page whose QR code carries https://."""

import re

import pytest

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import decode_qr
from tests.server import free_port, running_server

pytestmark = pytest.mark.browser

LAN_NAME = "nightshift.test"  # a name the browser maps to this machine: an origin that is neither https nor loopback


@pytest.fixture
def lan_browser(browser):
    """Chromium that resolves LAN_NAME to 127.0.0.1, as a phone resolves the host's LAN address."""
    lan = browser.browser_type.launch(executable_path=CHROMIUM,
                                      args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1"])
    yield lan
    lan.close()


def test_on_a_lan_address_over_http_the_first_tap_starts_the_looping_video_and_the_switch_is_remembered(
        tmp_path, database_url, lan_browser):
    from playwright.sync_api import expect

    port = free_port()
    with running_server(tmp_path / "instance", database_url, port, public_url=f"http://{LAN_NAME}:{{port}}"):
        base = f"http://{LAN_NAME}:{port}"
        host = lan_browser.new_context(**HOST).new_page()
        join_url = new_table(host, base, "tracker", {"Players": "2"})
        assert join_url.startswith(f"{base}/j/")
        phone = lan_browser.new_context(**PHONE).new_page()
        problems = []
        phone.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
        join(phone, join_url, "Ann")
        assert phone.evaluate("[isSecureContext, 'wakeLock' in navigator]") == [False, False]
        expect(phone.locator(".live-status .live-on")).to_be_visible(timeout=5000)
        assert phone.evaluate("document.body.getAttribute('data-awake')") in (None, "")  # no tap yet
        phone.locator(".seat-title").click()  # the first tap, anywhere
        expect(phone.locator("body")).to_have_attribute("data-awake", "video", timeout=5000)
        assert phone.evaluate("document.querySelectorAll('video').length") == 0  # never in the page: nothing to see
        phone.locator(".settings summary").click()
        switch = phone.get_by_label("Keep screen on")
        expect(switch).to_be_checked()
        switch.uncheck()
        expect(phone.locator("body")).to_have_attribute("data-awake", "")
        phone.reload()
        expect(phone.get_by_label("Keep screen on")).not_to_be_checked()  # remembered on this phone
        phone.locator(".seat-title").click()
        assert phone.evaluate("document.body.getAttribute('data-awake')") in (None, "")
        assert not [problem for problem in problems if "Content Security Policy" in problem or "video" in problem]


def test_nightshift_https_serves_a_secure_page_whose_qr_code_carries_https(tmp_path, database_url, browser):
    port = free_port()
    with running_server(tmp_path / "instance", database_url, port, https=True) as base:
        assert base.startswith("https://")
        context = browser.new_context(**HOST, ignore_https_errors=True)  # the warning a phone clicks through once
        host = context.new_page()
        join_url = new_table(host, base, "tracker", {"Players": "2"})
        assert host.evaluate("isSecureContext") is True
        assert re.match(rf"https://[^/]+:{port}/j/[A-Z0-9]{{5}}\?k=", join_url)
        qr = host.locator(".qr-frame").screenshot()
        assert decode_qr(qr) == join_url
        shoot(host, "https-host")
        phone = browser.new_context(**PHONE, ignore_https_errors=True).new_page()
        join(phone, f"{base}/j/{join_url.split('/j/')[1]}", "Ann")  # by loopback: no test reaches the LAN address
        assert phone.evaluate("[isSecureContext, 'wakeLock' in navigator]") == [True, True]
        context.close()
