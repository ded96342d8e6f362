"""Flipside in Chromium: two phones and a host screen; one phone declares an attack, the other blocks, all see it."""

import re

import pytest

from tests.browser.conftest import HOST, PHONE, join, new_table, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser
TV = {"viewport": {"width": 1920, "height": 1080}}
PHONE_HEIGHT = PHONE["viewport"]["height"]


def big_health(page):
    return page.locator(".fs-health .fs-big")


def players_health(page, name: str):
    return page.locator(".fs-player", has_text=name).locator(".fs-player-value")


def in_first_viewport(page, locator) -> bool:
    """Whether the control is fully inside the phone's first screen, without scrolling."""
    box = locator.bounding_box()
    return page.evaluate("window.scrollY") == 0 and 0 <= box["y"] and box["y"] + box["height"] <= PHONE_HEIGHT


def test_the_attacker_declares_on_one_phone_and_the_defender_blocks_on_another(live_server, screens):
    """COMBAT: 'Attacker declares target player. Defender assigns blockers.' Ann declares on her phone, Bo's phone
    asks him for blockers first thing, and both phones (and the TV) show the fight's result."""
    from playwright.sync_api import expect

    host = screens(TV)
    join_url = new_table(host, live_server, "flipside", {"Players": "2"})

    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    for page in (host, ann, bo):
        expect(page.locator(".live-status .live-on")).to_be_visible(timeout=5000)

    # Opening hands: Ann keeps, Bo swaps one card into his Graveyard; Ann starts and steps to her Action phase.
    ann.get_by_role("button", name="Keep all 3").click()
    bo.get_by_role("button", name="Redraw 1").click()
    expect(bo.locator(".fs-remnant .fs-mid")).to_have_text("1")
    shoot(bo, "flipside-phone-opening")
    ann.get_by_role("button", name="Start the first turn").click()
    for step in ("Next: Ready", "Next: Play", "Next: Action"):
        ann.get_by_role("button", name=step).click()
        expect(ann.locator(".fs-phase-now")).to_have_text(step.removeprefix("Next: "))
    expect(bo.locator(".fs-turn-line")).to_contain_text("Ann's turn")
    expect(bo.get_by_role("button", name="Declare the attack")).to_have_count(0)  # only the attacker declares

    # Ann declares a 4/2 attack: her phone waits, Bo's phone asks for his blockers before anything else.
    ann.get_by_label("ATK", exact=True).fill("4")
    ann.get_by_label("DEF", exact=True).fill("2")
    shoot(ann, "flipside-phone-combat")
    ann.get_by_role("button", name="Declare the attack").click()
    expect(ann.locator(".fs-waiting")).to_have_text("Waiting for Bo to block.")
    expect(ann.get_by_role("button", name="Next: Cleanup")).to_have_count(0)  # the turn waits for the fight
    expect(host.locator(".fs-waiting")).to_have_text("Waiting for Bo to block.")
    expect(bo.locator(".fs-asked")).to_contain_text("Ann attacks you with 4/2")
    take = bo.get_by_role("button", name="No blockers: take 4 damage")
    for control in (bo.get_by_label("Blocker 1 ATK"), bo.get_by_role("button", name="Block and fight"), take):
        assert in_first_viewport(bo, control), control.bounding_box()
    shoot(bo, "flipside-phone-block")
    take.click()
    expect(big_health(bo)).to_have_text("16")
    for page in (ann, host):
        expect(players_health(page, "Bo")).to_have_text("16")
    for page in (ann, bo):
        expect(page.locator(".fs-fight")).to_contain_text("Bo loses 4 Health")
    expect(bo.locator(".log-entry").first).to_contain_text("Bo (Player 2): assigned no blockers to Player 1's attack")

    # A second character attacks 3/2; Bo blocks with a 2/4 on his phone, and both phones show who died.
    ann.get_by_label("ATK", exact=True).fill("3")
    ann.get_by_label("DEF", exact=True).fill("2")
    ann.get_by_role("button", name="Declare the attack").click()
    bo.get_by_label("Blocker 1 ATK").fill("2")
    bo.get_by_label("Blocker 1 DEF").fill("4")
    bo.get_by_role("button", name="Block and fight").click()
    for page in (ann, bo, host):
        expect(page.locator(".fs-fight")).to_contain_text("Attacker 3/2 takes 2: killed, to the Graveyard")
        expect(page.locator(".fs-fight")).to_contain_text("Blocker 1 2/4 takes 3: survives, DEF 1")
    expect(players_health(host, "Bo")).to_have_text("16")
    expect(ann.get_by_role("button", name="Next: Cleanup")).to_be_visible()
    shoot(ann, "flipside-phone-after-fight")
    shoot(host, "flipside-tv-after-fight")

    # "Multiple characters can block a single attack": four rows show, and typing into the fourth opens a fifth.
    ann.get_by_label("ATK", exact=True).fill("9")
    ann.get_by_label("DEF", exact=True).fill("9")
    ann.get_by_role("button", name="Declare the attack").click()
    fifth = bo.get_by_label("Blocker 5 ATK")
    expect(fifth).to_be_hidden()
    for row in range(1, 5):
        bo.get_by_label(f"Blocker {row} ATK").fill("1")
        bo.get_by_label(f"Blocker {row} DEF").fill("9")
    expect(fifth).to_be_visible()
    expect(bo.get_by_label("Blocker 6 ATK")).to_be_hidden()
    fifth.fill("5")
    bo.get_by_label("Blocker 5 DEF").fill("1")
    shoot(bo, "flipside-phone-five-blockers")
    bo.get_by_role("button", name="Block and fight").click()
    for page in (ann, bo, host):
        expect(page.locator(".fs-fight")).to_contain_text("Attacker 9/9 takes 9: killed, to the Graveyard")
        expect(page.locator(".fs-fight")).to_contain_text("Blocker 5 5/1 takes 9: killed, to the Graveyard")

    # Bo types the damage of a card effect: the button he taps says which way it goes.
    bo.get_by_label("Amount").fill("3")
    bo.get_by_role("button", name="Lose", exact=True).click()
    expect(big_health(bo)).to_have_text("13")
    expect(players_health(host, "Bo")).to_have_text("13")
    expect(bo.get_by_label("Amount")).to_have_value("")

    # Too much is refused with a sentence, changing nothing.
    bo.get_by_label("Amount").fill("50")
    bo.get_by_role("button", name="Lose", exact=True).click()
    expect(bo.locator(".refusal")).to_contain_text("losing 50 would take it below 0")
    expect(players_health(host, "Bo")).to_have_text("13")

    # The host takes the typed damage back; both phones follow.
    host.get_by_role("button", name=re.compile(r"^Undo #")).click()
    expect(big_health(bo)).to_have_text("16")
    expect(players_health(ann, "Bo")).to_have_text("16")

    for page, name in ((host, "flipside-host"), (ann, "flipside-phone-ann"), (bo, "flipside-phone-bo")):
        assert serious_violations(page) == [], name
        shoot(page, name)
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]
    assert not unexpected, unexpected


def test_a_player_put_out_and_a_deck_out_tie_end_the_night_on_every_screen(live_server, screens):
    """'Survive: All players except one drop to 0 Health'; 'Deck Out: ... the player with the most Health wins' with
    a tie shared. The host starts without waiting for an empty seat's redraw."""
    from playwright.sync_api import expect

    host = screens(HOST)
    join_url = new_table(host, live_server, "flipside", {"Players": "3"})
    ann, bo = screens(PHONE), screens(PHONE)
    join(ann, join_url, "Ann")
    join(bo, join_url, "Bo")
    expect(ann.locator(".fs-turn")).to_contain_text("once everyone has kept or redrawn")
    host.get_by_role("button", name="Start now: undecided hands are kept").click()
    expect(ann.locator(".fs-phase-now")).to_have_text("Draw")

    bo.get_by_text("Correct a count").click()
    bo.get_by_label("Set Health to").fill("0")
    bo.locator(".fs-typed", has=bo.get_by_label("Set Health to")).get_by_role("button", name="Set").click()
    expect(bo.locator(".fs-out")).to_contain_text("You are out")
    expect(players_health(host, "Bo")).to_have_text("0")
    shoot(bo, "flipside-phone-out")

    ann.get_by_text("Correct a count").click()
    ann.get_by_label("Set Deck to").fill("0")
    ann.locator(".fs-typed", has=ann.get_by_label("Set Deck to")).get_by_role("button", name="Set").click()
    for page in (host, ann, bo):
        expect(page.locator("#live")).to_contain_text("Player 1 and Player 3 tie with the most Health (20)")
    expect(ann.get_by_role("button", name="Next: Ready")).to_have_count(0)
    expect(ann.locator(".fs-turn-line")).to_contain_text("The night is over · it ended on your turn 1")
    shoot(host, "flipside-host-deck-out")
    shoot(ann, "flipside-phone-deck-out")
    assert serious_violations(host) == [] and serious_violations(ann) == []
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]
    assert not unexpected, unexpected


def test_the_glossary_and_the_deck_checker_work_on_a_phone(live_server, screens):
    from playwright.sync_api import expect

    phone = screens(PHONE)
    phone.goto(live_server + "/flipside/keywords")
    expect(phone.locator(".fs-keyword")).to_have_count(15)
    phone.get_by_label("Search keywords").fill("disguise")
    phone.get_by_role("button", name="Search").click()
    expect(phone.locator(".fs-keyword dt")).to_have_text(["Disguise combat", "Spot combat"])
    shoot(phone, "flipside-glossary")
    assert serious_violations(phone) == []

    phone.goto(live_server + "/flipside/deck")
    phone.get_by_label("Deck list").fill("4 Toy Chica [Yellow]\n5 Foxy [Red]\nBonnie [Blue]\n1 Mangle [Green]\n"
                                         "5 Balloon Boy [White]")
    phone.get_by_role("button", name="Check deck").click()
    problems = phone.locator(".fs-problems li")
    expect(problems).to_have_count(4)  # White: 'No deck limit': five Balloon Boys are fine by default
    expect(problems.nth(0)).to_contain_text("Line 2: Foxy has 5 copies")
    expect(problems.nth(1)).to_contain_text("Line 3: start with how many copies")
    expect(phone.locator(".fs-deck-sum")).to_contain_text("White cards have no copy limit.")
    shoot(phone, "flipside-deck-check")
    phone.get_by_label("White cards in the deck-list checker").select_option("four")
    phone.get_by_role("button", name="Check deck").click()
    expect(problems).to_have_count(5)
    expect(problems.nth(2)).to_contain_text("Line 5: Balloon Boy has 5 copies; a deck may hold at most 4 of a card, "
                                            "White ones too")
    assert serious_violations(phone) == []
    unexpected = [problem for problem in screens.problems if "status of 422" not in problem]
    assert not unexpected, unexpected
