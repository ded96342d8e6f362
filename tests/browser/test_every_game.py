"""Every registered game on a phone at 390x844 and on the host's console, with no per-game code: what this seat can do
now is inside the first viewport, a panel the player opened and a value half typed survive a change pushed by someone
else, and axe finds nothing serious on either page."""

from pathlib import Path

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface

from app.games import REGISTRY
from tests.browser.conftest import HOST, PHONE, shoot
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_table_at_night import api, inside

pytestmark = pytest.mark.browser
STEPS = 30  # host moves to play, at most, before some phone has a move of its own


def seated_table(base: str, slug: str, options: dict | None = None) -> tuple[dict, dict[int, str]]:
    """A table of this game with its default setup (or `options`) and every seat taken (seat number -> its token)."""
    table = api(base, "/api/tables", {"game": slug, "options": options or {}})
    tokens = {}
    for number, seat in enumerate(api(base, f"/api/tables/{table['code']}", token=table["host_token"])["seats"], 1):
        if seat.get("role", "player") == "player":
            joined = api(base, f"/api/tables/{table['code']}/join",
                         {"name": f"P{number}", "key": table["join_key"], "seat": number})
            tokens[number] = joined["seat_token"]
    return table, tokens


def a_seat_with_a_move(base: str, table: dict, tokens: dict[int, str]) -> tuple[int, list[dict]]:
    """The seat the table waits for (else any seat) that has a move now; the host plays its first offer until then."""
    code = table["code"]
    for _ in range(STEPS):
        views = {number: api(base, f"/api/tables/{code}", token=token)["view"] for number, token in tokens.items()}
        waiting = [number for number, view in views.items() if view["moves"] and number in view["turn"]["seats"]]
        ready = waiting or [number for number, view in views.items() if view["moves"]]
        if ready:
            return ready[0], views[ready[0]]["moves"]
        offered = api(base, f"/api/tables/{code}", token=table["host_token"])["view"]["moves"]
        assert offered, f"{code}: nobody, the host included, has a move"
        api(base, f"/api/tables/{code}/actions", offered[0], table["host_token"])
    raise AssertionError(f"no phone had a move after {STEPS} host moves")


def signed_in(screens, kind: dict, base: str, instance: Path, code: str, role: str, token: str):
    """A browser that remembers a token for this table, as if it had joined or created it there: the server's own
    signed session cookie (its secret is in the instance folder), so any seat can be opened on a phone."""
    signer = Flask(__name__)
    signer.secret_key = (instance / "secret_key").read_text().strip()
    value = SecureCookieSessionInterface().get_signing_serializer(signer).dumps({"tables": {code: {role: token}}})
    page = screens(kind)
    page.context.add_cookies([{"name": "nightshift", "value": value, "url": base}])
    return page


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_a_phone_sees_what_it_can_do_now_in_its_first_viewport(live_server, screens, slug, tmp_path):
    from playwright.sync_api import expect

    table, tokens = seated_table(live_server, slug)
    number, moves = a_seat_with_a_move(live_server, table, tokens)
    phone = signed_in(screens, PHONE, live_server, tmp_path / "instance", table["code"], "seat", tokens[number])
    phone.goto(f"{live_server}/t/{table['code']}/seats/{number}")
    expect(phone.locator(".live-status .live-on")).to_be_visible()
    types = {move["type"] for move in moves}
    controls = phone.locator("#live form").filter(
        has=phone.locator(", ".join(f'input[name="type"][value="{kind}"]' for kind in sorted(types))))
    assert controls.count(), f"seat {number} may {sorted(types)} but its page has no form for it"
    button = controls.first.locator("button[type=submit], button:not([type])").first
    shoot(phone, f"phone-first-{slug}")
    assert inside(phone, button), (sorted(types), button.bounding_box())
    assert serious_violations(phone) == []

    console = signed_in(screens, HOST, live_server, tmp_path / "instance", table["code"], "host", table["host_token"])
    console.goto(f"{live_server}/t/{table['code']}")
    expect(console.locator(".live-status .live-on").first).to_be_visible()
    assert serious_violations(console) == []

    # Nothing closes under a finger: the player opens a panel and starts typing, then the host changes the table.
    closed = phone.evaluate('[...document.querySelectorAll("#live details")].findIndex(panel => !panel.open)')
    panel = phone.locator("#live details").nth(closed) if closed >= 0 else None
    if panel is not None:
        panel.locator("summary").click()
    typing = phone.locator("#live input[type=number]:visible, #live input[type=text]:visible").first
    if typing.count():
        typing.fill("7")
    version = int(phone.locator("#live .live-state").get_attribute("data-version"))
    console.locator(".board-qr-switch button").click()
    expect(phone.locator(f'#live .live-state[data-version="{version + 1}"]')).to_be_attached()
    if panel is not None:
        assert panel.get_attribute("open") is not None, "an opened panel closed when the table changed"
    if typing.count():
        assert typing.input_value() == "7", "a half-typed value was lost when the table changed"
    assert screens.problems == [], screens.problems
