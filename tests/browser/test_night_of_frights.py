"""Night of Frights! in Chromium: a host screen and two phones; a capture attempt shows the same tokens everywhere."""

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser


def test_a_capture_attempt_shows_the_same_drawn_tokens_on_all_three_screens(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "night-of-frights", {"Event cards in the deck": "8"},
                         untick=("Chica", "Foxy"))

    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")  # Freddy
    join(bo, join_url, "Bo")  # Bonnie
    for page in (host, ann, bo):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)
    expect(host.locator(".nof-events-left")).to_have_text("8")

    ann.get_by_role("button", name="I ate pizza most recently").click()
    expect(bo.locator(".nof-turn")).to_contain_text("Freddy's turn")
    expect(ann.locator(".nof-odds")).to_contain_text("get scarier first")

    # Freddy forgets to place items and moves: Bo's phone may shout party time.
    ann.get_by_role("button", name="MOVE", exact=True).click()
    bo.get_by_role("button", name="Party time!").click()
    expect(host.locator(".log-entry").first).to_contain_text("Bo (Bonnie): Bonnie shouted \"party time!\" first")
    ann.get_by_role("button", name="Placed two items").click()

    # Spending items moves the token up three spaces and flips it to scary; the odds follow on the phone.
    ann.get_by_role("button", name="Spend items: up 3 spaces").click()
    expect(ann.locator(".nof-odds-card").first).to_contain_text("15%")
    expect(ann.locator(".nof-odds-card").nth(1)).to_contain_text("20%")
    expect(host.locator(".nof-players tr", has_text="Freddy").locator(".nof-space-cell")).to_have_text("3")

    # Bo's phone has no turn controls; Freddy flips an Event card from Room 2.
    expect(bo.get_by_role("button", name="Flip the Event and try to capture")).to_have_count(0)
    ann.get_by_label("I am in").select_option("2")
    ann.get_by_label("The Event card I flipped says").select_option("guard")
    ann.get_by_role("button", name="Flip the Event and try to capture").click()
    for page in (ann, bo, host):
        expect(page.locator(".nof-capture")).to_contain_text("+1 GUARD TOKEN")
    expect(host.locator(".nof-events-left")).to_have_text("7")
    expect(ann.locator(".nof-chance")).to_have_text("27%")  # 3 from 19 Miss + 2 Guards
    shoot(ann, "nof-phone-capture")

    ann.get_by_role("button", name="Draw 3 from the bag").click()
    drawn = ann.locator(".nof-drawn .nof-token")
    expect(drawn).to_have_count(3)
    tokens = [drawn.nth(index).get_attribute("data-token") for index in range(3)]
    assert set(tokens) <= {"Miss", "Guard"}
    for page in (bo, host):
        expect(page.locator(".nof-drawn .nof-token")).to_have_count(3)
        assert [page.locator(".nof-drawn .nof-token").nth(index).get_attribute("data-token")
                for index in range(3)] == tokens
    expect(host.locator(".nof-drawn")).to_have_class("nof-drawn reveal")
    if "Guard" in tokens:
        expect(bo.locator(".outcome")).to_contain_text("Freddy wins!")
    else:
        expect(bo.locator(".nof-players tr", has_text="Freddy").locator(".nof-side-cell")).to_have_text("X")

    for page in (ann, bo, host):  # the tokens flip in one by one; the last one ends fully shown
        expect(page.locator(".nof-drawn .nof-token").last).to_have_css("opacity", "1")
    for page, name in ((host, "nof-host"), (ann, "nof-phone-ann"), (bo, "nof-phone-bo")):
        assert serious_violations(page) == [], name
        shoot(page, name)
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]
    assert not unexpected, unexpected
