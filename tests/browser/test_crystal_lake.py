"""In Chromium: a host and three phones play a night at Camp Crystal Lake to its drop-off and see the same scores."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, page_width, shoot
from tests.browser.test_join_by_qr import serious_violations
from tests.browser.test_table_at_night import SMALL_TV, TV, api, inside

pytestmark = pytest.mark.browser

BOX = {"Cast Iron Pans": "14", "Flashlights": "12", "Gasoline": "11", "Cleavers": "10", "Car Keys": "7", "Axes": "5",
       "Jason tokens": "8"}


def test_three_phones_and_a_host_play_a_night_to_its_drop_off(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "crystal-lake", {"Players": "3"})
    ann, bo, cy = screens(PHONE), screens(PHONE), screens(PHONE)
    for page, name in ((ann, "Ann"), (bo, "Bo"), (cy, "Cy")):
        join(page, join_url, name)
    for page in (host, ann, bo, cy):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)

    # The host enters tonight's Critical Supply card and counts the Camp Bag once.
    card = host.locator("form", has_text="Save the card")
    card.get_by_label("Cast Iron Pans").fill("1")
    card.get_by_label("Points").fill("5")
    card.get_by_role("button", name="Save the card").click()
    expect(ann.locator(".cl-critical")).to_contain_text("1 Cast Iron Pan: 5 points")
    host.get_by_text("Count the Camp Bag for Jason odds").click()
    bag = host.locator("form", has_text="Save the count")
    for label, count in BOX.items():
        bag.get_by_label(label, exact=True).fill(count)
    bag.get_by_role("button", name="Save the count").click()
    for page in (ann, bo, cy):
        expect(page.locator(".cl-odds")).to_contain_text("4 of the 63 tokens in the Camp Bag")
    expect(ann.locator(".cl-odds-big")).to_have_text("6%")  # 4 of 63: one percent() for every game
    shoot(ann, "crystal-lake-phone-turn")

    # A night: Ann finds a Pan, Bo a Cleaver, Cy an Axe; Ann and Bo return; Bo out of turn is refused.
    ann.get_by_role("button", name="Drew Cast Iron Pan").click()
    ann.get_by_text("Board check: what the table should show").click()  # stays open through the others' moves
    bo.get_by_role("button", name="Drew Cleaver").click()
    expect(bo.locator(".cl-me")).to_contain_text("1 Cleaver")
    cy.get_by_role("button", name="Drew Axe").click()
    expect(ann.locator(".whose-turn .turn-yours")).to_have_text("Your turn")
    expect(ann.locator("details.cl-check")).to_have_attribute("open", "")
    ann.get_by_role("button", name="Return to the Cabin").click()
    expect(host.locator(".cl-critical")).to_contain_text("Claimed by Ann")
    bo.get_by_role("button", name="Return to the Cabin").click()
    expect(cy.locator(".cl-hint", has_text="Back 3rd")).to_contain_text("1 point and a Fear card")
    shoot(host, "crystal-lake-host-night")
    cy.get_by_role("button", name="Return to the Cabin").click()

    # Drop-off: every phone sees what its Backpack choice costs, then drops off.
    for page in (ann, bo, cy):
        expect(page.get_by_role("heading", name="Your drop-off")).to_be_visible()
    expect(cy.locator(".cl-choice", has_text="Axe")).to_contain_text("costs 8")
    shoot(cy, "crystal-lake-phone-drop-off")
    for page in (ann, bo, cy):
        page.get_by_role("button", name="Drop off").click()
        expect(page.locator(".cl-breakdowns")).to_be_visible()

    # Everyone sees the same scores: Ann 1 + Critical 5, Bo 4, Cy 8 + Bravery 1.
    expected = {"Ann": "6", "Bo": "4", "Cy": "9"}
    for page in (host, ann, bo, cy):
        expect(page.locator(".cl-night strong")).to_have_text("2")
        for name, total in expected.items():
            expect(page.locator(".cl-scores tr", has_text=name).locator(".cl-total")).to_have_text(total)
    expect(host.locator(".cl-breakdown-card.seat-blue")).to_contain_text("1 Cleaver, 1 x 4 = 4")
    expect(cy.locator(".whose-turn .turn-yours")).to_have_text("Your turn")  # the last back to the Cabin starts Night 2

    for page, name in ((host, "crystal-lake-host"), (ann, "crystal-lake-phone")):
        assert serious_violations(page) == [], name
        assert page_width(page) <= page.viewport_size["width"]
        shoot(page, name)
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]
    assert not unexpected, unexpected
    assert re.search(r"/t/\w+$", host.url)


def test_the_calculator_works_on_a_phone(live_server, screens):
    from playwright.sync_api import expect

    phone = screens(PHONE)
    phone.goto(live_server + "/crystal-lake/score")
    phone.get_by_label("Gasoline").fill("4")
    phone.get_by_label("Cleavers").fill("2")
    phone.get_by_label("Cast Iron Pans").fill("1")
    phone.get_by_role("button", name="Score it").click()
    expect(phone.locator(".cl-result-total")).to_contain_text("30 points")
    expect(phone.locator(".cl-result")).to_contain_text("4 Gasoline: Cleavers doubled, 2 x 8 = 16")
    assert page_width(phone) <= 390
    assert serious_violations(phone) == []
    shoot(phone, "crystal-lake-calculator")


@pytest.mark.parametrize("size", [TV, SMALL_TV], ids=["1920x1080", "1280x720"])
def test_the_board_shows_the_night_the_cabin_and_the_scores_with_nothing_to_scroll(live_server, screens, size):
    """Issue 15: /t/CODE/board on the TV: night track, Cabin spaces and scoreboard inside the screen, no control."""
    from playwright.sync_api import expect

    table = api(live_server, "/api/tables", {"game": "crystal-lake", "options": {"players": 6}})
    code, host = table["code"], table["host_token"]
    tokens = [api(live_server, f"/api/tables/{code}/join", {"name": name, "key": table["join_key"]})["seat_token"]
              for name in ("Ann", "Bo", "Cy")]
    moves = [(tokens[0], {"type": "search", "supply": "pan"}), (tokens[1], {"type": "search", "supply": "jason"}),
             (tokens[2], {"type": "return"}), (host, {"type": "search", "supply": "axe", "whose": 4}),
             (host, {"type": "return", "whose": 5}), (host, {"type": "critical", "pan": 1, "points": 5})]
    for token, move in moves:
        api(live_server, f"/api/tables/{code}/actions", move, token)
    tv = screens(size | {"extra_http_headers": {"Authorization": f"Bearer {host}"}})
    tv.goto(f"{live_server}/t/{code}/board")
    expect(tv.locator(".cl-board")).to_be_visible()
    expect(tv.locator(".cl-board-cabin li").first).to_contain_text("Cy")
    shoot(tv, f"board-crystal-lake-{size['viewport']['width']}")
    for part in (".whose-turn", ".cl-board-track", ".cl-board-critical", ".cl-board-cabin", ".cl-board-scores",
                 ".board-qr"):
        assert inside(tv, tv.locator(part).first), part
    main = tv.locator(".board-main").bounding_box()
    for row in range(6):
        assert inside(tv, tv.locator(".cl-board-scores tbody tr").nth(row)), row
        total = tv.locator(".cl-board-scores .cl-total").nth(row).bounding_box()  # not clipped by the board's frame
        assert total["x"] + total["width"] <= main["x"] + main["width"] + 1, (row, total, main)
        assert inside(tv, tv.locator(".cl-board-cabin li").nth(row)), row
    assert tv.evaluate("document.scrollingElement.scrollHeight <= innerHeight && "
                       "document.scrollingElement.scrollWidth <= innerWidth")
    assert tv.locator(".board form, .board button, .board input, .board select").count() == 0
    assert serious_violations(tv) == []
    api(live_server, f"/api/tables/{code}/actions", {"type": "search", "supply": "cleaver", "whose": 6}, host)
    expect(tv.locator(".cl-board-scores tr", has_text="Ann")).to_have_class(re.compile("cl-turn-row"))
    assert screens.problems == [], screens.problems
