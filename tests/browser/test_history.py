"""End to end in Chromium: after three game nights, a phone at 390x844 reads the history, a play, and a player's
stats with their charts; every page passes axe with no serious or critical finding."""

import pytest

from tests.browser.conftest import HOST, PHONE, join, page_width, shoot
from tests.browser.test_join_by_qr import serious_violations

pytestmark = pytest.mark.browser

NIGHT_OF_FRIGHTS = [
    {"type": "first-player", "whose": 1}, {"type": "place-items", "seat": 1}, {"type": "spend", "steps": 3, "seat": 1},
    {"type": "capture", "room": 1, "event": "other", "seat": 1}, {"type": "draw", "guards": 1, "seat": 1}]


def flipside(winner_health: int) -> list[dict]:
    return [{"type": "start"}, {"type": "set-health", "value": winner_health, "whose": 1},
            {"type": "set-health", "value": 0, "whose": 2}]


def played(request, base: str, game: str, options: dict, names: list[str], moves: list[dict]) -> str:
    """A table played to its end through the API, as a script would; returns its code."""
    table = request.post(f"{base}/api/tables", data={"game": game, "options": options}).json()
    for name in names:
        joined = request.post(f"{base}/api/tables/{table['code']}/join", data={"name": name, "key": table["join_key"]})
        assert joined.ok, joined.text()
    for move in moves:
        answer = request.post(f"{base}/api/tables/{table['code']}/actions", data=move,
                              headers={"Authorization": f"Bearer {table['host_token']}"})
        assert answer.ok, answer.text()
    return table["code"]


def test_a_phone_reads_the_history_a_play_and_a_players_stats_with_charts(live_server, screens):
    from playwright.sync_api import expect

    host = screens(HOST)
    host.goto(live_server + "/")
    played(host.request, live_server, "flipside", {"players": 2}, ["Ann", "Bo"], flipside(14))
    played(host.request, live_server, "night-of-frights", {"characters": ["Bonnie", "Chica"], "event_deck": 7},
           ["Bo", "Ann"], NIGHT_OF_FRIGHTS)
    played(host.request, live_server, "flipside", {"players": 2}, ["ann", "Cy"], flipside(9))

    # The phone sat at a fourth table (scanning its QR link) that the host ended early.
    table = host.request.post(f"{live_server}/api/tables", data={"game": "flipside", "options": {"players": 2}}).json()
    phone = screens(PHONE)
    join(phone, table["join_url"], "Dee")  # the live server's QR links carry its own loopback address
    auth = {"Authorization": f"Bearer {table['host_token']}"}
    host.request.post(f"{live_server}/api/tables/{table['code']}/actions", data={"type": "start"}, headers=auth)
    host.request.post(f"{live_server}/api/tables/{table['code']}/end", headers=auth)

    phone.goto(live_server + "/")
    phone.get_by_role("link", name="Game history and stats").click()
    phone.wait_for_url("**/history")
    cards = phone.locator(".play-card")
    expect(cards).to_have_count(4)  # this browser is on the machine Night Shift runs on: the host machine
    expect(cards.first).to_contain_text("ended early")
    expect(cards.nth(1)).to_contain_text("ann (won) 9")  # each play shows the name as typed at its table
    expect(phone.get_by_role("heading", name="Game history")).to_be_in_viewport()
    expect(cards.first).to_be_in_viewport()
    assert page_width(phone) <= 390
    assert serious_violations(phone) == []
    shoot(phone, "history-phone")

    phone.get_by_label("Player").fill("ANN")
    phone.get_by_role("button", name="Show").click()
    expect(cards).to_have_count(3)

    cards.nth(2).click()  # the oldest: Ann won Flipside with 14 Health
    phone.wait_for_url("**/history/plays/*")
    expect(phone.locator(".play-outcome")).to_contain_text("Winner: Ann (Player 1)")
    expect(phone.locator(".play-seat.won .play-seat-score")).to_have_text("14")
    assert page_width(phone) <= 390
    assert serious_violations(phone) == []
    shoot(phone, "history-play-phone")

    phone.locator(".play-seat.won").get_by_role("link", name="Ann").click()
    phone.wait_for_url("**/history/stats?player=Ann")
    expect(phone.get_by_role("heading", level=1)).to_have_text("ann")  # the spelling of their newest play
    expect(phone.locator("svg.chart")).to_have_count(2)  # wins by game; Flipside's Health play by play
    expect(phone.get_by_role("img", name="Wins out of plays, by game")).to_be_visible()
    expect(phone.locator(".stat-card", has_text="Flipside")).to_contain_text("2 (100%)")
    assert page_width(phone) <= 390
    assert serious_violations(phone) == []
    shoot(phone, "history-stats-player-phone")

    phone.goto(f"{live_server}/history/stats?game=flipside")
    expect(phone.get_by_role("img", name="Flipside: wins by player")).to_be_visible()
    assert page_width(phone) <= 390
    assert serious_violations(phone) == []
    shoot(phone, "history-stats-game-phone")

    host.goto(f"{live_server}/history/stats")
    expect(host.get_by_role("img", name="Plays by game")).to_be_visible()
    assert serious_violations(host) == []
    shoot(host, "history-stats-host")
    host.goto(f"{live_server}/history/people")
    assert serious_violations(host) == []
    shoot(host, "history-people-host")
    assert screens.problems == []
