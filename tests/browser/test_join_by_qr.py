"""End to end in Chromium: the host creates a table, a phone joins from the decoded QR code, the host sees it."""

import io

import pytest
from PIL import Image

from tests.browser.conftest import HOST, PHONE, page_width, shoot

pytestmark = pytest.mark.browser


def decode_qr(png: bytes) -> str:
    import zxingcpp

    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert len(results) == 1, "expected exactly one QR code"
    assert results[0].format == zxingcpp.BarcodeFormat.QRCode
    return results[0].text


def serious_violations(page) -> list[str]:
    """axe-core's serious and critical findings for the page's current address.

    The scan runs in a fresh page of the same browser context (same cookies), so axe's own changes to the DOM
    never meet the live page's htmx swaps under test.
    """
    from axe_playwright_python.sync_playwright import Axe

    scan = page.context.new_page()
    scan.emulate_media(reduced_motion="reduce")  # judge the colours at rest, not halfway through an animation
    try:
        scan.goto(page.url)
        results = Axe().run(scan)
    finally:
        scan.close()
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[node['target'] for node in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


def test_a_phone_joins_by_scanning_the_qr_and_the_host_screen_shows_it(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    host.goto(live_server + "/")
    assert serious_violations(host) == []
    shoot(host, "home-host")
    host.get_by_role("link", name="Five Nights at Freddy's: Survive 'Til 6AM").click()
    host.get_by_role("button", name="Create table").click()
    host.wait_for_url("**/t/*")
    code = host.url.rsplit("/", 1)[-1]
    expect(host.locator(".table-code")).to_have_text(code)
    expect(host.locator(".qr-frame svg")).to_be_visible()
    assert serious_violations(host) == []
    shoot(host, "host-screen")

    png = host.request.get(f"{live_server}/t/{code}/qr.png")
    assert png.ok and png.headers["content-type"] == "image/png"
    join_url = decode_qr(png.body())
    assert join_url.startswith(f"{live_server}/j/{code}?k=")
    assert join_url in host.content()  # the address printed under the QR is the one it carries

    phone = screens(PHONE)
    phone.goto(join_url)
    expect(phone.get_by_role("heading", name=f"Join table {code}")).to_be_visible()
    assert serious_violations(phone) == []
    shoot(phone, "join-phone")
    phone.get_by_label("Your name").fill("Alice")
    phone.get_by_label("Purple").check()
    phone.get_by_role("button", name="Take my seat").click()
    phone.wait_for_url(f"**/t/{code}/seats/2")
    expect(phone.locator(".seat-holder")).to_have_text("Alice")
    assert serious_violations(phone) == []
    shoot(phone, "seat-phone")

    # The host screen updates on its own: no reload.
    expect(host.locator(".seat-purple .seat-player")).to_have_text("Alice", timeout=10_000)
    shoot(host, "host-screen-seated")

    # Rescanning on the same phone returns to the same seat.
    phone.goto(join_url)
    phone.wait_for_url(f"**/t/{code}/seats/2")

    # Pass-and-play: the host seats a player who has no phone, then ends the game (after confirming).
    host.locator(".seat-orange").get_by_text("No phone? Seat a player here").click()
    host.get_by_label("Name of the player at Orange").fill("Grandpa")
    host.locator(".seat-orange").get_by_role("button", name="Seat").click()
    expect(host.locator(".seat-orange .seat-player")).to_have_text("Grandpa")
    expect(phone.locator(".seat-orange .seat-player")).to_have_text("Grandpa", timeout=10_000)
    host.get_by_text("End the game…").click()
    host.get_by_role("button", name="Yes, end the game").click()
    expect(host.get_by_role("heading", name="This game has ended")).to_be_visible()
    phone.goto(join_url)
    expect(phone.locator(".notice")).to_contain_text("This game has ended.")
    assert screens.problems == [], screens.problems


def test_the_home_setup_and_error_pages_work_at_phone_size(live_server, screens):
    from playwright.sync_api import expect

    phone = screens(PHONE)
    phone.goto(live_server + "/new/directors-cut")
    expect(phone.get_by_label("Night", exact=True)).to_be_visible()
    assert serious_violations(phone) == []
    width = page_width(phone)
    assert width <= 390, f"the setup page scrolls sideways on a phone ({width}px)"
    shoot(phone, "setup-phone")
    phone.goto(live_server + "/j/ZZZZZ?k=AAAAAAAA")
    expect(phone.get_by_text("There is no table with the code ZZZZZ")).to_be_visible()
    assert serious_violations(phone) == []
    shoot(phone, "error-phone")
    assert [problem for problem in screens.problems if "404" not in problem] == []


@pytest.mark.parametrize("width,height", [(360, 740), (1920, 1080)])
def test_host_and_join_pages_fit_from_a_small_phone_to_a_tv(live_server, screens, width, height):
    """Nothing scrolls sideways at 360px, and on a TV the QR code fills most of the screen's height."""
    from playwright.sync_api import expect

    page = screens({"viewport": {"width": width, "height": height}})
    page.goto(live_server + "/new/crystal-lake")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url("**/t/*")
    key = page.locator(".join-key").inner_text().replace(" ", "")
    code = page.url.rsplit("/", 1)[-1]
    assert page_width(page) <= width
    qr = page.locator(".qr-frame").bounding_box()
    if width >= 1920:
        assert qr["height"] >= 0.6 * height, qr
    else:
        assert qr["width"] >= 0.8 * width, qr
    shoot(page, f"host-{width}")
    page.goto(f"{live_server}/j/{code}?k={key}")
    expect(page.get_by_role("button", name="Take my seat")).to_be_visible()
    assert page_width(page) <= width
    button = page.get_by_role("button", name="Take my seat").bounding_box()
    assert button["height"] >= 44  # a fingertip
    shoot(page, f"join-{width}")
