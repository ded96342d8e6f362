"""Director's Cut through Flask: the host screen and the phones show the one question, the odds and the board check."""

import re

import pytest

from tests.conftest import (
    act_via_api,
    any_csrf_token,
    bearer,
    create_via_api,
    csrf_token,
    join_via_api,
    page_text,
    snapshot,
)

SETUP = {"night": "fourth", "guards": 2, "rolling": "tap"}  # each roll on its tap: the tests enter faces


@pytest.fixture
def table(client):
    table = create_via_api(client, "directors-cut", SETUP)
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    table["bo"] = join_via_api(client, table, "Bo")["seat_token"]
    return table


def hosted(client, phone, **options) -> tuple[str, str]:
    """A table made on the setup form (the host's browser keeps its cookie); Ann's phone sits at Guard 1."""
    form = {"night": "fourth", "guards": "2", "guard_die": "8", "bonnie_die": "10", "chica_die": "6",
            "freddy_die": "6", "foxy_inactive": "night", "rolling": "tap", **options}
    created = client.post("/new/directors-cut", data={"csrf_token": csrf_token(client, "/new/directors-cut"), **form})
    assert created.status_code == 303, page_text(created)
    host = created.headers["Location"]
    code = host.rsplit("/", 1)[-1]
    key = re.search(r'class="join-key">([^<]+)<', client.get(host).get_data(as_text=True)).group(1).replace(" ", "")
    phone.post(f"/j/{code}", data={"csrf_token": csrf_token(phone, f"/j/{code}?k={key}"), "k": key, "name": "Ann"})
    return host, code


def words(response) -> str:
    """The page as read aloud: tags dropped, spaces collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page_text(response)).split())


def tap(browser, page: str, code: str, **fields):
    """A one-tap form as the panel on `page` renders it, sent the way htmx sends it."""
    data = {"csrf_token": any_csrf_token(browser), **{key: str(value) for key, value in fields.items()}}
    return browser.post(f"/t/{code}/act", data=data, headers={"HX-Request": "true"})


def test_a_guards_phone_rolls_through_the_api_and_the_log_tells_the_story(client, table):
    response = act_via_api(client, table, table["ann"], {"type": "roll", "values": [5]})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["log"][0]["text"] == "Ann (Guard 1): Guard 1 rolled 5 on d8 (real die) and moves up to 5 tiles."
    assert body["view"]["ask"]["kind"] == "freddy_room" and body["view"]["answerer"] == "Guard 1"  # on Ann's phone
    answered = act_via_api(client, table, table["host_token"], {"type": "answer", "choice": "entered"})
    assert answered.status_code == 200
    assert answered.get_json()["log"][0]["text"] == ("Host: Guard 1 entered Freddy's room: Freddy wakes, moves to "
                                                     "them and attacks!")
    assert answered.get_json()["view"]["turn"] == {"seats": [1], "text": "Waiting for Guard 1"}
    attacked = act_via_api(client, table, table["ann"], {"type": "roll", "values": [2]})
    assert attacked.get_json()["log"][0]["text"] == ("Ann (Guard 1): Guard 1 rolled 2 on d8 (real die) against "
                                                     "Freddy, even: Guard 1 lives. Freddy goes inactive.")
    app_roll = act_via_api(client, table, table["bo"], {"type": "roll"})
    assert re.fullmatch(r"Bo \(Guard 2\): Guard 2 rolled \d on d8 and moves up to \d tiles?\.",
                        app_roll.get_json()["log"][0]["text"])


@pytest.mark.parametrize("who,action,status,message", [
    ("bo", {"type": "roll"}, 422, "It's Guard 1's turn, not yours"),
    ("ann", {"type": "roll", "values": [9]}, 422, "A d8 can't show 9: its faces are 1 to 8."),
    ("ann", {"type": "answer", "choice": "entered"}, 422, "No question is waiting for an answer"),
    ("host_token", {"type": "revive", "guard": 2, "office": [1]}, 422, "Guard 2 is alive"),
    ("ann", {"type": "roll", "seat": 2}, 403, "only the host can play for another seat"),
    ("host_token", {"type": "revive"}, 422, "A revive needs 'guard'"),  # was a KeyError: a 500
    ("host_token", {"type": "revive", "guard": 2}, 422, "A revive needs 'office'"),
    ("host_token", {"type": "answer", "choice": "<script>alert(1)</script>"}, 422, "No question is waiting"),
])
def test_a_refused_move_says_why_and_changes_nothing(app, client, table, who, action, status, message):
    before = snapshot(app)
    response = act_via_api(client, table, table[who], action)
    assert response.status_code == status and message in response.get_json()["error"]
    assert snapshot(app) == before


@pytest.mark.parametrize("options,message", [
    ({"night": "eighth"}, "Night must be one of: first, second, third, fourth, fifth, sixth, final."),
    ({"night": "second", "guards": 2, "freddy_player": True}, "Freddy isn't allowed to move on The Second Night"),
    ({"guards": 4, "guard_die": 6}, "Guard die sides must be from 8 to 100, not 6."),
    ({"freddy_enters": "whenever"}, "A guard who enters Freddy's line of sight is attacked must be one of: now, "
                                    "his-turn."),
    ({"golden_freddy_early": True}, "Golden Freddy on the First to Third Nights must be one of: rolls, rests."),
])
def test_a_setup_the_rulebook_forbids_is_refused_with_a_sentence(app, client, options, message):
    before = snapshot(app)
    response = client.post("/api/tables", json={"game": "directors-cut", "options": options})
    assert response.status_code == 422 and message in response.get_json()["error"]
    assert snapshot(app) == before


def test_the_host_screen_shows_the_question_the_odds_the_board_check_and_the_rule_card(client, phone):
    host, code = hosted(client, phone, night="sixth")
    shown = client.get(host)
    text = page_text(shown)
    for expected in ("The Sixth Night", "Full turn", "Guard 1: roll your move (d8).", "Waiting for Guard 1 (Ann)",
                     "Roll for Guard 1 (Ann) (d8)", "Odds this full turn", "15%", "Foxy charges",
                     "17%", "Golden Freddy attacks", "Board check", "Inactive: a guard entering (attacked at once)",
                     "Foxy can be triggered when he rolls 10, 15, or 20.", "Golden Freddy can be triggered when he "
                     "rolls 6 or 12.", "Not used: needs TWO guards in the Medical Office, once", "assumed",
                     "How this table reads the loose sentences:",
                     "A guard who enters Freddy's line of sight is attacked: at once, before any other animatronic "
                     "acts", "Foxy's odd roll when every guard is blocked ends: the whole full turn",
                     "How guards move: Guards can move through other Guards, but not finish on the same tile as "
                     "another Guard.", "When the guards survive the night, a dead guard: doesn't win"):
        assert expected in words(shown), expected
    readings = text[text.index('class="dc-readings"'):]
    readings = readings[:readings.index("</div>")]
    assert "Golden Freddy on the First to Third Nights" not in readings  # the Sixth Night's card names him


def test_the_hosts_one_tap_runs_foxys_and_golden_freddys_rolls_and_the_log_lists_each(client, phone):
    host, code = hosted(client, phone, night="second", guards="1")
    for fields in ({"type": "roll", "values": "2"}, {"type": "roll", "values": "4"},
                   {"type": "answer", "choice": "nobody"}, {"type": "roll", "values": "3"},
                   {"type": "answer", "choice": "nobody"}):  # Guard 1, Bonnie and her sight, Chica and whom she meets
        assert tap(client, host, code, **fields).status_code == 200
    page = page_text(client.get(host))
    assert "Roll for Foxy (d20), then Golden Freddy (d12)" in page and "Rolled a real d20? Enter it" in page
    ran = tap(client, host, code, type="run-rolls", step=6)
    assert ran.status_code == 200, page_text(ran)
    line = words(ran)
    assert re.search(r"Host: Foxy rolled \d+ on d20: (nothing happens\.|he charges)", line)
    if "he charges" not in line:
        assert re.search(r"Golden Freddy rolled \d+ on d12", line) and "Last rolls" in page_text(ran)
    seat = page_text(phone.get(f"/t/{code}/seats/1"))
    assert "Foxy · d20" in seat  # the run's rolls show on the phones too
    assert "Roll for Foxy" not in seat
    refused = tap(phone, f"/t/{code}/seats/1", code, type="run-rolls")
    assert refused.status_code == 422 and "Running the GM's rolls is for the host screen." in page_text(refused)


def test_the_real_die_form_still_enters_the_gms_roll_by_hand(client, phone):
    host, code = hosted(client, phone, night="first", guards="1")
    assert tap(client, host, code, type="roll", values="2").status_code == 200  # Guard 1
    page = page_text(client.get(host))
    assert "Roll for Bonnie (d10)" in page and 'name="values"' in page
    typed = tap(client, host, code, type="roll", step=2, values="7")
    assert typed.status_code == 200 and "Bonnie rolled 7 on d10 (real die): she moves to tile 7." in page_text(typed)


def test_a_phone_plays_its_move_from_the_page_and_says_where_it_moved_on_its_own_phone(client, phone):
    host, code = hosted(client, phone)
    seat_page = f"/t/{code}/seats/1"
    mine = page_text(phone.get(seat_page))
    assert "You are Guard 1 (Ann)" in mine and "Your move" in mine and "Roll my move (d8)" in mine
    assert mine.index("Roll my move (d8)") < mine.index("You are Guard 1 (Ann)")  # the move first
    assert "if you are attacked You roll your d8 assumed" in words(phone.get(seat_page))  # not in the rulebook
    assert "you live through Foxy (dies on a 7 or an 8)" in mine
    rolled = tap(phone, seat_page, code, type="roll", step=1)
    assert rolled.status_code == 200 and 'id="live"' in rolled.get_data(as_text=True)
    assert re.search(r"Ann \(Guard 1\): Guard 1 rolled \d on d8", page_text(rolled))
    again = tap(phone, seat_page, code, type="roll", step=1)  # a doubled tap
    assert again.status_code == 422 and "That question was already answered" in page_text(again)
    waiting = page_text(phone.get(seat_page))
    assert "Did Guard 1 enter Freddy's room" in waiting and "Moved out, the last guard in it" in waiting
    assert "Undo my last move" in waiting  # beside it, the roll can be taken back
    host_page = page_text(client.get(host))
    assert "Waiting for Guard 1 (Ann)" in host_page and "Moved out, the last guard in it" in host_page  # host helps
    refused = tap(client, host, code, type="answer", choice="left", step=1)
    assert refused.status_code == 422
    answered = tap(phone, seat_page, code, type="answer", choice="left", step=2)
    assert answered.status_code == 200 and "Awake: hunting the nearest guard" in page_text(answered)


def test_with_the_app_rolling_the_next_guards_roll_comes_with_the_tap_before_it(client, phone):
    host, code = hosted(client, phone, rolling="app")
    seat_page = f"/t/{code}/seats/1"
    rolled = page_text(tap(phone, seat_page, code, type="roll", step=1))
    assert "Moved, neither" in rolled and "Undo my last move" in rolled
    moved = page_text(tap(phone, seat_page, code, type="answer", choice="neither", step=2))
    assert re.search(r"Guard 1 neither entered nor left Freddy's room: Freddy stays inactive\. "
                     r"Guard 2 rolled \d on d8 and moves up to \d tiles?\.", moved)
    assert "Waiting for Guard 2" in moved and "Roll for Guard 2" not in moved


def test_the_real_die_form_enters_what_the_table_rolled(client, phone):
    host, code = hosted(client, phone)
    seat_page = f"/t/{code}/seats/1"
    assert "Rolled a real d8? Enter it" in page_text(phone.get(seat_page))
    typed = tap(phone, seat_page, code, type="roll", step=1, values="6")
    assert typed.status_code == 200 and "Guard 1 rolled 6 on d8 (real die)" in page_text(typed)
    neither = tap(client, host, code, type="answer", choice="neither", step=2)
    assert neither.status_code == 200 and "Freddy stays inactive" in page_text(neither)
    junk = tap(client, host, code, type="roll", values="13")  # Guard 2's d8 can't show 13
    assert junk.status_code == 422 and "A d8 can't show 13" in page_text(junk)
    assert "Guard 2: roll your move (d8)." in page_text(client.get(host))


def test_the_medical_office_revive_button_works_from_the_host_screen(app, client, phone):
    host, code = hosted(client, phone, guards="3")
    quiet_until_chica_kills_guard_3 = [
        {"type": "roll", "values": "2"}, {"type": "answer", "choice": "neither"},  # Guard 1, Freddy's room
        {"type": "roll", "values": "2"}, {"type": "answer", "choice": "neither"},  # Guard 2
        {"type": "roll", "values": "2"}, {"type": "answer", "choice": "neither"},  # Guard 3
        {"type": "roll", "values": "4"}, {"type": "answer", "choice": "nobody"},  # Bonnie, roll 1 of 2
        {"type": "roll", "values": "5"}, {"type": "answer", "choice": "nobody"},  # Bonnie, roll 2 of 2
        {"type": "roll", "values": "3"}, {"type": "answer", "guard": "3"},  # Chica meets Guard 3
        {"type": "roll", "values": "1"},  # Guard 3 rolls odd
    ]
    for fields in quiet_until_chica_kills_guard_3:
        assert tap(client, host, code, **fields).status_code == 200
    text = page_text(client.get(host))
    assert "Medical Office: revive a dead guard" in text
    assert "Guard 1 (Ann) in the office: revive Guard 3" in text
    before = snapshot(app)
    blank = tap(client, host, code, type="revive", guard=3, office="")  # the form sends an empty office
    assert blank.status_code == 422 and "A revive needs 'office'" in page_text(blank)
    assert snapshot(app) == before
    revived = tap(client, host, code, type="revive", guard=3, office="1")
    assert revived.status_code == 200, page_text(revived)
    assert "Guard 1 in the Medical Office revive Guard 3, who goes back to the start." in page_text(revived)
    assert "Used tonight" in page_text(revived)
    before = snapshot(app)
    twice = tap(client, host, code, type="revive", guard=3, office="1")
    assert twice.status_code == 422 and "already been used tonight" in page_text(twice)
    assert snapshot(app) == before
    # Issue 46: the revived Guard 3 stands in Freddy's room; only the host's correction can wake him.
    assert "Correct the board" in page_text(client.get(host))
    wrong = tap(client, host, code, type="correct", freddy="strike", target="")
    assert wrong.status_code == 422 and "Say which living guard Freddy goes for" in page_text(wrong)
    assert snapshot(app) == before
    woken = tap(client, host, code, type="correct", freddy="strike", target="3")
    assert woken.status_code == 200, page_text(woken)
    assert "Host: corrected the board: Freddy is awake, going for Guard 3 (was inactive)." in words(woken)
    assert "Awake: going for Guard 3" in words(woken)
    moved = tap(client, host, code, type="correct", piece="chica", tile="9")
    assert "corrected the board: Chica stands on tile 9 (was where the board shows)." in words(moved)
    assert "Correct the board" not in page_text(phone.get(f"/t/{code}/seats/1"))  # the host's, not a phone's


def test_a_spectator_sees_the_night_but_cannot_act(app, client, table):
    watcher = join_via_api(client, table, "Cy", spectator=True)["seat_token"]
    state = client.get(f"/api/tables/{table['code']}", headers=bearer(watcher)).get_json()
    assert state["view"]["question"] == "Guard 1: roll your move (d8)."
    before = snapshot(app)
    assert act_via_api(client, table, watcher, {"type": "roll"}).status_code == 403
    assert snapshot(app) == before


def test_a_player_running_bonnie_rolls_her_tile_and_answers_her_line_of_sight(client, phone):
    host, code = hosted(client, phone, night="first", guards="1", bonnie_player="on")
    client.post(f"/t/{code}/seats/2/sit", data={"csrf_token": csrf_token(client, host), "name": "Gus"})
    bonnie_page = f"/t/{code}/seats/2"
    assert "You run Bonnie ." in words(client.get(bonnie_page))
    assert "Foxy isn't allowed to move tonight." in page_text(client.get(host))
    assert tap(phone, f"/t/{code}/seats/1", code, type="roll", values="3").status_code == 200
    mine = page_text(client.get(bonnie_page))
    assert "Your move" in mine and "Roll for Bonnie (d10)" in mine
    rolled = client.post(f"/t/{code}/act?seat=2", headers={"HX-Request": "true"},
                         data={"csrf_token": any_csrf_token(client), "type": "roll", "values": "4"})
    assert rolled.status_code == 200
    assert "Gus (Bonnie): Bonnie rolled 4 on d10 (real die): she moves to tile 4." in page_text(rolled)
    assert "Bonnie's line of sight:" in page_text(rolled) and "Guard 1 (Ann)" in page_text(rolled)


def test_does_script_typed_into_a_form_field_come_back_escaped(app, client, phone):
    """A refused move's sentence may quote what was sent; it must come back as text, never as markup."""
    host, code = hosted(client, phone)
    before = snapshot(app)
    for fields, echoed in (({"type": "<script>alert(1)</script>"}, True),
                           ({"type": "answer", "choice": "<script>alert(1)</script>"}, False),
                           ({"type": "roll", "<script>x</script>": "1"}, True)):
        refused = tap(client, host, code, **fields)
        assert refused.status_code == 422
        body = refused.get_data(as_text=True)
        assert "<script>" not in body and ("&lt;script&gt;" in body) == echoed
    assert snapshot(app) == before
