"""What a phone downloads: the QR link to its seat page in at most 8 requests and 60 KB; a reload sends the page."""

import pytest

from app.games import REGISTRY
from tests.browser.conftest import HOST, PHONE, join, new_table

pytestmark = pytest.mark.browser


class Wire:
    """Every request the phone's network sends (redirect hops included, cache hits not), and the bytes received."""

    def __init__(self, page):
        self.sent, self.cached, self.received = [], set(), {}
        cdp = page.context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", self._sent)
        cdp.on("Network.requestServedFromCache", lambda event: self.cached.add(event["requestId"]))
        cdp.on("Network.responseReceived", lambda event: self._add(event["requestId"],
                                                                   event["response"]["encodedDataLength"]))
        cdp.on("Network.dataReceived", lambda event: self._add(event["requestId"], event["encodedDataLength"]))
        self.cdp = cdp

    def _sent(self, event):
        if "redirectResponse" in event:
            self._add(event["requestId"] + "/redirect", event["redirectResponse"]["encodedDataLength"])
        self.sent.append((event["requestId"], event["request"]["url"]))

    def _add(self, key, size):
        self.received[key] = self.received.get(key, 0) + size

    def requests(self) -> list[str]:
        return [url for key, url in self.sent if key not in self.cached]

    def bytes(self) -> int:
        """Bytes that crossed the network: a file served from the browser's cache costs none."""
        return sum(size for key, size in self.received.items() if key.removesuffix("/redirect") not in self.cached)

    def sizes(self) -> list[tuple[str, int]]:
        """Bytes on the wire per request (its redirect hops together), for the failure message."""
        urls = {}
        for key, url in self.sent:
            urls.setdefault(key, url)
        return [(urls.get(key.removesuffix("/redirect"), key), size) for key, size in self.received.items()
                if key.removesuffix("/redirect") not in self.cached]

    def clear(self):
        self.sent.clear(), self.cached.clear(), self.received.clear()


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_a_phone_joins_in_8_requests_and_60_kb_and_a_reload_sends_only_the_page(live_server, screens, slug, capsys):
    """Every game's seat page (on SQLite: the bytes a phone gets don't depend on the database)."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, slug)
    phone = screens(PHONE)
    wire = Wire(phone)
    join(phone, join_url, "Ann")
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    phone.wait_for_load_state("networkidle")
    first = wire.requests()
    assert len(first) <= 8, first
    with capsys.disabled():
        print(f"\nfirst load, {slug}: {len(first)} requests, {wire.bytes()} bytes")
    listing = ", ".join(f"{url} {size}" for url, size in wire.sizes())
    assert wire.bytes() <= 60 * 1024, f"{wire.bytes()} bytes: {listing}"

    wire.clear()
    phone.reload()
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    again = [url for url in wire.requests() if "/events" not in url]  # the live stream reopens, as it must
    assert again == [phone.url], again
