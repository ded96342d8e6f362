"""End to end in Chromium: the host drives one full turn of Director's Cut; a guard's phone answers Bonnie's attack;
the host's one tap runs Foxy's and Golden Freddy's rolls and every screen shows them."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, page_width, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser


def test_the_host_drives_a_full_turn_and_a_guards_phone_answers_an_attack(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "directors-cut", {"Guards": "2"}, select={"Night": "second"})
    expect(host.locator(".dc-card")).to_contain_text("Foxy is allowed to move, Freddy isn't.")
    expect(host.locator(".dc-readings")).to_contain_text("Golden Freddy on the First to Third Nights: rolls every "
                                                         "full turn")

    ann = screens(PHONE)
    join(ann, join_url, "Ann")
    for page in (host, ann):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)
    expect(ann.locator(".dc-me")).to_contain_text("You are Guard 1 (Ann)")

    # Guard 1 rolls on Ann's phone; the host rolls for the empty Guard 2 seat.
    ann.get_by_role("button", name="Roll my move (d8)").click()
    expect(host.locator(".dc-question")).to_have_text("Guard 2: roll your move (d8).")
    expect(host.locator(".log-entry").first).to_contain_text("Ann (Guard 1): Guard 1 rolled")
    host.get_by_role("button", name="Roll for Guard 2 (d8)").click()

    # Bonnie: the GM rolls a real d10 (a wrong face is refused), the host says Ann is in her line of sight.
    expect(host.get_by_role("button", name="Roll for Bonnie (d10)")).to_be_visible()
    host.get_by_text("Rolled a real d10? Enter it").click()
    host.get_by_label("The real d10 showed").fill("13")
    host.get_by_role("button", name="Enter", exact=True).click()
    expect(host.locator(".refusal")).to_contain_text("A d10 can't show 13")
    host.get_by_label("The real d10 showed").fill("5")
    host.get_by_role("button", name="Enter", exact=True).click()
    expect(host.locator(".dc-question")).to_contain_text("Bonnie is on tile 5. Is a guard in her line of sight?")
    expect(ann.locator(".dc-last")).to_contain_text("she moves to tile 5")  # the GM's roll shows on the phone too
    host.get_by_role("button", name="Guard 1 (Ann)").click()

    # Ann's phone is asked to roll against the attack, with her survival chance.
    expect(ann.locator(".dc-ask-mine")).to_contain_text("Bonnie attacks Guard 1: roll your die (d8); odd dies.")
    expect(ann.locator(".dc-survive")).to_contain_text("50%")
    expect(host.locator(".dc-ask-title")).to_have_text("Waiting for Guard 1 (Ann)")
    assert page_width(ann) <= 390  # nothing scrolls sideways on the phone
    shoot(ann, "directors-cut-phone-attacked")
    shoot(host, "directors-cut-host-attack")
    ann.get_by_role("button", name="Roll my die (d8)").click()
    fate = re.compile(r"against Bonnie, (odd|even): Guard 1 (dies|lives)")
    expect(host.locator(".log-entry").first).to_contain_text(fate)

    # If Ann lived Bonnie looks for anyone else; then Chica meets nobody.
    if host.get_by_role("button", name="Nobody").is_visible():
        host.get_by_role("button", name="Nobody").click()
    host.get_by_role("button", name="Roll for Chica (d6)").click()
    host.get_by_role("button", name="Nobody").click()

    # One tap for Foxy and Golden Freddy: each roll is in the log line and on the phone.
    host.get_by_role("button", name="Roll for Foxy (d20), then Golden Freddy (d12)").click()
    expect(host.locator(".log-entry").first).to_contain_text(re.compile(r"Host: Foxy rolled \d+ on d20"))
    expect(ann.locator(".dc-last")).to_contain_text("Foxy · d20")
    if "nothing happens" in host.locator(".log-entry").first.inner_text().split("Golden Freddy")[0]:
        expect(host.locator(".log-entry").first).to_contain_text(re.compile(r"Golden Freddy rolled \d+ on d12"))
        expect(ann.locator(".dc-last")).to_contain_text("Golden Freddy · d12")
        if "Full turn 1 of 10 is over." in host.locator(".log-entry").first.inner_text():
            for page in (host, ann):
                expect(page.locator(".dc-turn")).to_contain_text("Full turn 2 of 10")
    for page, name in ((host, "directors-cut-host"), (ann, "directors-cut-phone")):
        assert serious_violations(page) == [], name
        shoot(page, name)
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]  # the refused 13
    assert not unexpected, unexpected
