"""End to end in Chromium: the host drives one full turn of Director's Cut; a guard's phone answers Bonnie's attack;
the host's one tap runs Foxy's and Golden Freddy's rolls and every screen shows them."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, page_width, shoot
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_slips_and_next_game import CONSOLE, TV, in_first_screenful

pytestmark = pytest.mark.browser


def test_the_host_drives_a_full_turn_and_a_guards_phone_answers_an_attack(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "directors-cut", {"Guards": "2"}, select={"Night": "second", "Dice": "tap"})
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
    expect(ann.locator(".dc-phone .dc-survive")).to_contain_text("50%")
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


def test_with_the_app_rolling_each_guard_moves_in_one_tap_on_their_phone_and_every_screen_shows_it(
        live_server, screens):
    """Issue 43: the Fourth Night with two guards on their phones; the app rolls what needs nobody's eyes with the tap
    before it. Each tap is counted on whichever screen it is made (host or phone); a full turn without a charge or
    an attack costs at most 6. The phone's move, the console's whose-turn and next tap, and the board are looked at."""
    from playwright.sync_api import expect

    host = screens(CONSOLE)
    join_url = new_table(host, live_server, "directors-cut", {"Guards": "2"}, select={"Night": "fourth"})
    code = host.url.rsplit("/", 1)[-1]
    board = host.context.new_page()
    board.set_viewport_size(TV)
    board.goto(f"{live_server}/t/{code}/board")
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    for page in (host, ann, bo, board):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)

    roll = ann.get_by_role("button", name="Roll my move (d8)")
    assert in_first_screenful(ann, roll)
    roll.click()
    neither = ann.get_by_role("button", name="Moved, neither")
    expect(neither).to_be_visible()
    shoot(ann, "directors-cut-phone-your-turn")
    assert in_first_screenful(ann, neither)
    assert in_first_screenful(ann, ann.get_by_role("button", name="Undo my last move"))
    expect(ann.locator(".dc-phone .dc-question")).to_contain_text(re.compile(r"Guard 1 moves up to \d tiles?\."))
    expect(host.locator(".dc-ask-title")).to_have_text("Waiting for Guard 1 (Ann)")
    assert in_first_screenful(host, host.locator(".whose-turn").first)
    shoot(host, "directors-cut-host-waiting")

    rolled = ann.locator("#live .live-state").get_attribute("data-version")
    expect(host.locator("#live .live-state")).to_have_attribute("data-version", rolled, timeout=5000)
    taps, turn, quiet = {1: 1}, 1, {1: True}  # the night's first roll was the first tap
    quiet_answers = ("Moved, neither", "Moved", "Nobody", "In the cinema: safe")
    for _ in range(40):
        turn_text = host.locator(".dc-turn strong").inner_text()
        turn = int(turn_text)
        if turn > 2:
            break
        asked = host.locator(".dc-ask-title").text_content().strip()  # "The GM asks", or "Waiting for Guard 2 (Bo)"
        page = host if asked == "The GM asks" else ann if "Guard 1" in asked else bo
        mine = page.locator(".dc-ask-mine .dc-answers button")
        expect(mine.first, f"{asked}: {page.url}").to_be_visible()
        labels = [mine.nth(index).inner_text() for index in range(mine.count())]
        pick = next((label for label in quiet_answers if label in labels), labels[0])
        quiet[turn] = quiet.get(turn, True) and pick in quiet_answers
        if page is host:
            assert in_first_screenful(host, host.get_by_role("button", name=pick, exact=True).first)
            shoot(host, "directors-cut-host")
        version = page.locator("#live .live-state").get_attribute("data-version")
        page.get_by_role("button", name=pick, exact=True).first.click()
        expect(page.locator("#live .live-state")).not_to_have_attribute("data-version", version, timeout=5000)
        # The host's next question is read only once the console has caught up with the screen that was tapped:
        # a version change alone may be an earlier move arriving late.
        done = page.locator("#live .live-state").get_attribute("data-version")
        expect(host.locator("#live .live-state")).to_have_attribute("data-version", done, timeout=5000)
        taps[turn] = taps.get(turn, 0) + 1
    print(f"taps per full turn: {taps}, quiet: {quiet}")
    assert turn > 1
    assert all(count <= 6 for number, count in taps.items() if quiet.get(number) and number < turn)
    for size, name in ((TV, "directors-cut-board-1920"), ({"width": 1280, "height": 720}, "directors-cut-board-1280")):
        board.set_viewport_size(size)
        expect(board.locator(".board-code")).to_contain_text(code)
        assert board.evaluate("document.documentElement.scrollHeight") <= size["height"]
        shoot(board, name)
    shoot(bo, "directors-cut-phone-waiting")
    assert not screens.problems, screens.problems
