"""Flipside through Flask: the counters on host and phone pages, moves by API and by form, the glossary, the checker."""

import re

import pytest

from tests.conftest import act_via_api, bearer, create_via_api, csrf_token, join_via_api, page_text, snapshot
from tests.tables.test_join import host_table, join_form

HX = {"HX-Request": "true"}


@pytest.fixture
def table(client):
    """A two-player table by API with Ann and Bo seated, Ann's turn 1 in the Action phase."""
    table = create_via_api(client, "flipside", {"players": 2})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    table["bo"] = join_via_api(client, table, "Bo")["seat_token"]
    for player in ("ann", "bo"):
        assert act_via_api(client, table, table[player], {"type": "redraw", "count": 0}).status_code == 200
    assert act_via_api(client, table, table["ann"], {"type": "start"}).status_code == 200
    for _ in range(3):
        act_via_api(client, table, table["ann"], {"type": "next-phase"})
    return table


def health(body: dict, seat: int) -> int:
    return body["view"]["players"][str(seat)]["health"]


def browser_table(client, phone):
    """A table the `client` browser hosts and the `phone` browser sits at as Ann (Player 1)."""
    code, key = host_table(client, "flipside", players="2", first_player="1", deck_size="40")
    assert join_form(phone, code, key, "Ann", seat=1).status_code == 303
    return code, csrf_token(phone, f"/t/{code}/seats/1")


def test_phone_and_host_pages_show_the_counters_and_the_opening(client, phone):
    code, _ = browser_table(client, phone)
    mine = page_text(phone.get(f"/t/{code}/seats/1"))
    for text in ("Opening hands", "Your opening hand", "Keep all 3", 'aria-label="Your Health: 20"', "Power",
                 "Remnant", 'aria-label="Cards left in your deck: 37"', "Keyword glossary", "Deck-list checker",
                 "You start the first turn once everyone has kept or redrawn", 'aria-label="Lose 5 Health"'):
        assert text in mine, text
    host = page_text(client.get(f"/t/{code}"))
    assert "fs-host" in host and "Ann's Health: 20" in host and "Player 2's Health: 20" in host
    assert "Your opening hand" not in host and "Start now: undecided hands are kept" in host


def test_an_attack_is_declared_by_the_attacker_and_blocked_by_the_defender_through_the_api(client, table):
    """COMBAT: 'Attacker declares target player. Defender assigns blockers.': two moves, two tokens."""
    declared = act_via_api(client, table, table["ann"], {"type": "attack", "target": 2, "atk": 4, "def": 2})
    assert declared.status_code == 200, declared.get_json()
    body = declared.get_json()
    assert health(body, 2) == 20 and body["view"]["fight"]["stage"] == "block"
    assert body["view"]["turn"] == {"seats": [2], "text": "Player 2 assigns blockers"}
    assert body["log"][0]["text"] == ("Ann (Player 1): declared an attack on Player 2 with a 4/2 character: "
                                      "Player 2 assigns blockers.")
    seen = client.get(f"/api/tables/{table['code']}", headers=bearer(table["bo"])).get_json()["view"]
    assert seen["moves"][0] == {"type": "block"}
    blocked = act_via_api(client, table, table["bo"], {"type": "block"})
    assert blocked.status_code == 200, blocked.get_json()
    body = blocked.get_json()
    assert health(body, 2) == 16 and body["view"]["fight"] is None
    assert body["log"][0]["text"] == ("Bo (Player 2): assigned no blockers to Player 1's attack: an unblocked 4/2 "
                                      "attacker deals 4 damage. Player 2's Health 20 \u2192 16 (\u22124).")
    seen = client.get(f"/api/tables/{table['code']}", headers=bearer(table["ann"])).get_json()
    assert seen["view"]["players"]["2"]["health"] == 16 and seen["view"]["last_combat"]["player_damage"] == 4


def test_a_blocked_fight_through_the_api_fills_both_graveyards(client, table):
    act_via_api(client, table, table["ann"], {"type": "attack", "target": 2, "atk": 3, "def": 2})
    body = act_via_api(client, table, table["bo"], {"type": "block", "blockers": [{"atk": 1, "def": 3},
                                                                                  {"atk": 1, "def": 5}]}).get_json()
    assert health(body, 2) == 20
    assert body["view"]["players"]["2"]["graveyard"] == 1 and body["view"]["players"]["1"]["graveyard"] == 1


def test_only_the_defender_or_the_host_assigns_blockers_and_the_turn_waits_for_the_fight(app, client, table):
    act_via_api(client, table, table["ann"], {"type": "attack", "target": 2, "atk": 3, "def": 2})
    before = snapshot(app)
    for token, action, message in (
            (table["ann"], {"type": "block"}, "Player 2 assigns the blockers for this attack"),
            (table["ann"], {"type": "next-phase"}, "Player 2 is still assigning blockers"),
            (table["bo"], {"type": "block", "blockers": [{"atk": 1}]}, "Blocker 1 needs both its ATK and its DEF"),
            (table["bo"], {"type": "block", "blockers": [{"atk": 1, "def": 0}]}, "Blocker 1's DEF can't be less"),
            (table["bo"], {"type": "block", "blockers": [{"spot": "yes"}]}, "Spot or Disguise is a yes-or-no box"),
            (table["bo"], {"type": "block", "blockers": "1/3"}, "Give the blockers as a list of rows")):
        response = act_via_api(client, table, token, action)
        assert response.status_code == 422 and message in response.get_json()["error"], response.get_json()
    assert snapshot(app) == before
    host = act_via_api(client, table, table["host_token"], {"type": "block", "blockers": [{"atk": 0, "def": 9}]})
    assert host.status_code == 200 and host.get_json()["log"][0]["text"].startswith(
        "Host: assigned 1 blocker to Player 1's attack: the 3/2 attacker survives with DEF 2; blocker 1 (0/9)")


def test_the_phone_form_plays_and_the_typed_amount_takes_its_type_from_the_button(client, phone):
    code, token = browser_table(client, phone)
    typed = phone.post(f"/t/{code}/act", data={"csrf_token": token, "amount": "7", "type": "lose-health"},
                       headers=HX)
    assert typed.status_code == 200 and 'aria-label="Your Health: 13"' in page_text(typed)
    assert "Ann (Player 1): Health 20 \u2192 13 (\u22127)." in page_text(typed)
    spent = phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "spend-power", "amount": "1"},
                       headers=HX)
    assert "Power left: 0 of 1" in page_text(spent)
    assert "Ann's Health: 13" in page_text(client.get(f"/t/{code}"))  # the host screen shows the same


def test_the_fight_forms_post_empty_rows_and_checkboxes_as_a_browser_does(client, phone):
    """The attacker's phone declares; the defender's form (here the host, for an empty seat) assigns blockers."""
    code, token = browser_table(client, phone)
    seated = client.post(f"/t/{code}/seats/2/sit", data={"csrf_token": csrf_token(client, f"/t/{code}"),
                                                         "name": "Bo"})
    assert seated.status_code in (200, 303)
    host_token = csrf_token(client, f"/t/{code}")
    assert client.post(f"/t/{code}/act", data={"csrf_token": host_token, "type": "start"}, headers=HX).status_code \
        == 200  # the host starts without waiting for the opening redraws
    for kind in ("next-phase", "next-phase", "next-phase"):
        assert phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": kind}, headers=HX).status_code == 200
    page = page_text(phone.get(f"/t/{code}/seats/1"))
    assert "Declare the attack" in page and 'name="target" value="2"' in page
    declared = phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "attack", "target": "2", "atk": "5",
                                                  "def": "3", "bonus": "", "disguise": "yes"}, headers=HX)
    assert declared.status_code == 200
    text = page_text(declared)
    assert "Waiting for Bo to block." in text and "Declare the attack" not in text
    assert "Next: Cleanup" not in text  # the turn waits for the fight
    host = page_text(client.get(f"/t/{code}"))
    assert "Assign blockers for Bo" in host and "<details class=\"fs-host-fight\" open>" in host
    assert 'name="blockers-5-atk"' in host  # "Multiple characters can block a single attack": more than four rows
    blank = {f"blockers-{row}-{part}": "" for row in range(2, 25) for part in ("atk", "def")}  # as a browser posts
    form = {"csrf_token": host_token, "type": "block", "blockers-1-atk": "2", "blockers-1-def": "4",
            "blockers-1-spot": "yes", **blank}
    fought = client.post(f"/t/{code}/act", data=form, headers=HX)
    assert fought.status_code == 200, page_text(fought)
    for text in (page_text(fought), page_text(phone.get(f"/t/{code}/seats/1"))):
        assert "Last fight" in text and "Blocker 1 2/4 takes 5" in text and "killed, to the Graveyard" in text
        assert "Attacker 5/3 takes 2" in text and "survives, DEF 1" in text


def test_a_fifth_blocker_is_entered_from_the_form_and_the_api(client, phone):
    """Issue 46: 'Assigning blockers doesn't take 'b5_atk''. Six rows typed into the defender's form (the host's here,
    for an empty seat) all fight."""
    code, token = browser_table(client, phone)
    host_token = csrf_token(client, f"/t/{code}")
    client.post(f"/t/{code}/act", data={"csrf_token": host_token, "type": "start"}, headers=HX)
    for kind in ("next-phase", "next-phase", "next-phase"):
        phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": kind}, headers=HX)
    phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "attack", "target": "2", "atk": "6",
                                       "def": "9", "backup": "2", "alongside": "yes"}, headers=HX)
    rows = {f"blockers-{row}-{part}": value for row in range(1, 7) for part, value in (("atk", "1"), ("def", "2"))}
    fought = client.post(f"/t/{code}/act", data={"csrf_token": host_token, "type": "block", **rows}, headers=HX)
    text = page_text(fought)
    assert fought.status_code == 200, text
    assert "Blocker 6 1/2 takes 8" in text and "Attacker 8/11 takes 6" in text


def test_the_defenders_phone_shows_the_blocker_form_first_and_the_attackers_phone_waits(client, phone):
    code, token = browser_table(client, phone)
    bo = client.application.test_client()
    key = page_text(client.get(f"/t/{code}")).split('class="join-key">')[1].split("<")[0].replace(" ", "")
    assert join_form(bo, code, key, "Bo", seat=2).status_code == 303
    host_token = csrf_token(client, f"/t/{code}")
    client.post(f"/t/{code}/act", data={"csrf_token": host_token, "type": "start"}, headers=HX)
    for _ in range(3):
        phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "next-phase"}, headers=HX)
    phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "attack", "target": "2", "atk": "4",
                                       "def": "2"}, headers=HX)
    mine = page_text(bo.get(f"/t/{code}/seats/2"))
    assert "Assign your blockers" in mine and "Ann attacks you" in mine
    assert mine.index("Assign your blockers") < mine.index("Your Health: 20")  # the thing to do comes first
    assert "No blockers: take 4 damage" in mine and "Each blocker takes the attacker's full ATK." in mine
    waiting = page_text(phone.get(f"/t/{code}/seats/1"))
    assert "You attack Bo" in waiting and "Waiting for Bo to block." in waiting
    taken = bo.post(f"/t/{code}/act", data={"csrf_token": csrf_token(bo, f"/t/{code}/seats/2"), "type": "block"},
                    headers=HX)
    assert taken.status_code == 200 and 'aria-label="Your Health: 16"' in page_text(taken)
    assert "Bo loses 4 Health" in page_text(phone.get(f"/t/{code}/seats/1"))


def test_a_refused_tap_shows_its_sentence_and_changes_nothing(app, client, phone):
    code, token = browser_table(client, phone)
    before = snapshot(app)
    refused = phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "lose-health", "amount": "25"},
                         headers=HX)
    assert refused.status_code == 422 and refused.headers["HX-Retarget"] == "#flash"
    assert "Health is 20; losing 25 would take it below 0" in page_text(refused)
    plain = phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "lose-health", "amount": "-3"})
    assert plain.status_code == 422 and "can't be less than 1" in page_text(plain)
    assert snapshot(app) == before


@pytest.mark.parametrize("action,message", [
    ({"type": "set-health", "value": 1000}, "can't be more than 99"),
    ({"type": "set-health", "value": -4}, "can't be less than 0"),
    ({"type": "spend-power", "amount": 2}, "has 1 left; you can't spend 2"),
    ({"type": "spend-remnant", "amount": 11}, "Remnant is at most 10"),
    ({"type": "spend-remnant", "amount": 1}, "only 0 cards in the Graveyard"),
    ({"type": "attack", "target": 2, "atk": 1, "def": 1, "b1_atk": 1}, "An attack doesn't take 'b1_atk'"),
    ({"type": "block"}, "There is no attack waiting for blockers"),
    ({"type": "attack", "target": 2, "atk": "lots", "def": 1}, "must be a whole number"),
    ({"type": "next-phase", "seat": 2}, "only the host can play for another seat"),
])
def test_bad_moves_by_api_get_a_sentence_and_change_nothing(app, client, table, action, message):
    before = snapshot(app)
    response = act_via_api(client, table, table["ann"], action)
    assert 400 <= response.status_code < 500
    assert message in response.get_json()["error"]
    assert snapshot(app) == before


def test_a_player_who_is_out_is_refused_and_the_last_one_standing_ends_the_game(app, client, table):
    host = table["host_token"]
    three = create_via_api(client, "flipside", {"players": 3})
    cy = join_via_api(client, three, "Cy")["seat_token"]
    assert act_via_api(client, three, three["host_token"], {"type": "set-health", "value": 0, "whose": 1}).status_code \
        == 200
    out = act_via_api(client, three, cy, {"type": "gain-health", "amount": 1})
    assert out.status_code == 422 and "Player 1 is out of the game" in out.get_json()["error"]

    won = act_via_api(client, table, host, {"type": "lose-health", "amount": 20, "whose": 2})
    assert won.get_json()["outcome"]["winners"] == [1]
    assert "Player 1 is the last one standing and wins!" in won.get_json()["log"][0]["text"]
    before = snapshot(app)
    over = act_via_api(client, table, table["ann"], {"type": "next-phase"})
    assert over.status_code == 409 and "The game is over" in over.get_json()["error"]
    assert snapshot(app) == before
    undone = client.post(f"/api/tables/{table['code']}/undo", headers=bearer(host))
    assert undone.status_code == 200 and undone.get_json()["view"]["players"]["2"]["health"] == 20


def test_every_move_can_be_undone_by_the_host(client, table):
    act_via_api(client, table, table["bo"], {"type": "discard", "amount": 3})
    act_via_api(client, table, table["bo"], {"type": "spend-remnant", "amount": 2})
    host = bearer(table["host_token"])
    view = client.post(f"/api/tables/{table['code']}/undo", headers=host).get_json()["view"]
    assert view["players"]["2"]["graveyard"] == 3 and view["players"]["2"]["removed"] == 0


# ---- the glossary ------------------------------------------------------------------------------------------------

def test_the_glossary_lists_every_keyword_and_filters_on_the_server(client):
    page = page_text(client.get("/flipside/keywords"))
    for name in ("Jumpscare", "Rush", "Stealth", "Disguise", "Spot", "Guard", "Crawl", "Haywire", "Illusion",
                 "Upgrade", "Salvage", "Leader", "Partner X", "Backup X", "Domain"):
        assert f"<dt>{name}" in page, name
    assert "Can only be blocked by other characters with Disguise." in page
    found = page_text(client.get("/flipside/keywords?q=block"))
    assert "<dt>Disguise" in found and "<dt>Guard" in found and "<dt>Rush" not in found
    assert "3 of 15 keywords match “block”" in found
    none = client.get("/flipside/keywords?q=%3Cscript%3Ealert(1)%3C/script%3E")
    assert none.status_code == 200 and "<script>alert" not in none.get_data(as_text=True)
    assert "No keyword mentions" in page_text(none)


def test_the_glossary_and_checker_link_back_only_to_a_table_on_this_site(client):
    assert 'href="/t/ABCDE/seat">Back to the table' in page_text(client.get("/flipside/keywords?from=/t/ABCDE/seat"))
    for bad in ("https://evil.example/", "//evil.example", "/t/ABCDE/seat?x=<b>", "javascript:alert(1)"):
        assert "Back to the table" not in page_text(client.get("/flipside/keywords", query_string={"from": bad}))


def test_the_pages_have_no_inline_script_or_style(client):
    for url in ("/flipside/keywords", "/flipside/deck"):
        page = client.get(url).get_data(as_text=True)
        assert "<script>" not in page and "style=" not in page and "onclick" not in page
        assert "/static/css/app+flipside." in page  # app.css with the game's own stylesheet, versioned


# ---- the deck-list checker -----------------------------------------------------------------------------------

LEGAL = "\n".join(f"4 Card {n} [{'Red' if n < 5 else 'White'}]" for n in range(10))


def test_the_checker_page_checks_a_pasted_list(client):
    token = csrf_token(client, "/flipside/deck")
    good = client.post("/flipside/deck", data={"csrf_token": token, "list": LEGAL})
    assert good.status_code == 200 and "This deck is legal: 40 cards." in page_text(good)
    bad = client.post("/flipside/deck", data={"csrf_token": token, "list": "3 Toy Chica\n5 Foxy [Red]"})
    text = page_text(bad)
    assert bad.status_code == 422
    assert "Line 1: put the card's colour in square brackets" in text
    assert "Line 2: Foxy has 5 copies" in text and "The deck has 5 cards" in text
    assert "3 Toy Chica\n5 Foxy [Red]</textarea>" in text  # the list stays for fixing


def test_the_checker_page_needs_its_csrf_token(client):
    refused = client.post("/flipside/deck", data={"list": LEGAL})
    assert refused.status_code == 400 and "expired or didn't come from Night Shift" in page_text(refused)


def test_the_checker_api_answers_json(client):
    response = client.post("/api/flipside/deck", json={"list": LEGAL.replace("4 Card 9", "2 Card 9")})
    assert response.status_code == 200
    body = response.get_json()
    assert body["ok"] is False and body["cards"] == 38 and body["colours"] == {"Red": 20, "White": 18}
    assert body["problems"] == [{"line": None, "message": "The deck has 38 cards; a deck needs at least 40 "
                                                          "(2 more)."}]
    wrong = client.post("/api/flipside/deck", json={"list": "x\n\n4 Foxy [Orange]"}).get_json()
    assert [problem["line"] for problem in wrong["problems"]] == [1, 3, None]


def test_the_checker_says_which_white_reading_is_in_force_and_lets_it_be_switched(client):
    """White: 'No deck limit': by default five copies of a White card pass; a table's link can ask for the limit."""
    five = LEGAL.replace("4 Card 9 [White]", "5 Card 9 [White]").replace("4 Card 8 [White]", "3 Card 8 [White]")
    page = page_text(client.get("/flipside/deck"))
    assert "White cards have no copy limit." in page and '<option value="free" selected>' in page
    assert "No deck limit, can be added to any deck." in page  # the rulebook sentence the reading rests on
    token = csrf_token(client, "/flipside/deck")
    assert client.post("/flipside/deck", data={"csrf_token": token, "list": five}).status_code == 200
    limited = client.post("/flipside/deck", data={"csrf_token": token, "list": five, "white": "four"})
    assert limited.status_code == 422 and "White ones too (the reading in force)" in page_text(limited)
    assert '<option value="four" selected>' in page_text(limited)
    linked = page_text(client.get("/flipside/deck?white=four&from=/t/ABCDE/seat"))
    assert '<option value="four" selected>' in linked and "White cards hold to 4 copies" in linked
    assert client.get("/flipside/deck?white=lots").status_code == 400
    body = client.post("/api/flipside/deck", json={"list": five, "white": "four"}).get_json()
    assert not body["ok"] and body["white"] == "four" and body["reading"].startswith("White cards hold to 4")
    assert client.post("/api/flipside/deck", json={"list": five}).get_json()["ok"]
    wrong = client.post("/api/flipside/deck", json={"list": five, "white": ["four"]})
    assert wrong.status_code == 400 and "must be 'free' for no copy limit" in wrong.get_json()["error"]


def test_a_tables_link_to_the_checker_carries_its_white_reading(client, phone):
    code, key = host_table(client, "flipside", players="2", first_player="1", deck_size="40", white_copies="four")
    assert join_form(phone, code, key, "Ann", seat=1).status_code == 303
    page = page_text(phone.get(f"/t/{code}/seats/1"))
    assert re.search(r'href="/flipside/deck\?from=[^"]*white=four"', page), page


@pytest.mark.parametrize("body,status,message", [
    ({"data": "3 Foxy [Red]"}, 400, "Unknown field 'data'"),
    ({"list": ["3 Foxy [Red]"]}, 400, "'list' must be the deck list as text"),
    ({}, 400, "'list' must be the deck list as text"),
    ([], 400, "Send a JSON object"),
    ({"list": "1 A [Red]\n" * 2500}, 413, "at most 20,000 characters"),
])
def test_the_checker_api_refuses_bad_bodies_with_a_sentence(client, body, status, message):
    response = client.post("/api/flipside/deck", json=body)
    assert response.status_code == status
    assert message in response.get_json()["error"]


def test_a_huge_body_is_refused_before_it_is_read(client):
    huge = '{"list": "' + "4 Foxy [Red]\\n" * 5000 + '"}'
    response = client.post("/api/flipside/deck", data=huge, content_type="application/json")
    assert response.status_code == 413 and "Paste one deck at a time" in response.get_json()["error"]
    token = csrf_token(client, "/flipside/deck")
    form = client.post("/flipside/deck", data={"csrf_token": token, "list": "4 Foxy [Red]\n" * 3000})
    assert form.status_code == 413 and "Paste one deck at a time" in page_text(form)
    assert re.search(r"Error 413", page_text(form))


# ---- review: questions a close reader asks ------------------------------------------------------------------

def test_are_the_assumed_ceilings_labelled_and_chosen_on_the_setup_form(client, phone):
    """GAMES.md: 'Never present an assumed number as fact': the Health and ATK/DEF ceilings are setup options."""
    form = page_text(client.get("/new/flipside"))
    for label in ("Highest Health a player can reach", "Highest ATK or DEF in the combat helper"):
        assert re.search(re.escape(label) + r'\s*<span class="badge">assumed</span>', form), label
    code, key = host_table(client, "flipside", players="2", first_player="1", deck_size="40", health_limit="30",
                           stat_limit="12")
    assert join_form(phone, code, key, "Ann", seat=1).status_code == 303
    assert "Health goes up to 30" in page_text(phone.get(f"/t/{code}/seats/1"))
    token = csrf_token(phone, f"/t/{code}/seats/1")
    too_much = phone.post(f"/t/{code}/act", data={"csrf_token": token, "type": "gain-health", "amount": "11"},
                          headers=HX)
    assert too_much.status_code == 422 and "would pass 30" in page_text(too_much)
    low = client.post("/api/tables", json={"game": "flipside", "options": {"players": 2, "health_limit": 19}})
    assert 400 <= low.status_code < 500 and "from 20 to 999" in low.get_json()["error"]


def test_does_the_power_gain_button_say_gain_not_a_bare_plus_one_beside_the_spend_buttons(client, phone):
    """A '+1' in the row labelled 'Spend' reads as spending; the Salvage button says what it does."""
    code, _ = browser_table(client, phone)
    page = page_text(phone.get(f"/t/{code}/seats/1"))
    assert re.search(r'aria-label="Gain 1 Power \(Salvage\)"[^>]*>Gain 1</button>', page)


def test_a_kept_opening_hand_card_goes_when_its_player_has_decided(app, client):
    """Keeping the opening hand changes none of a player's counters but takes away the redraw buttons: the next
    drawing no longer shows them on that phone, and still shows them on the other."""
    from tests.live.drawing import alone
    from tests.live.drawing import drawn as _drawing

    table = create_via_api(client, "flipside", {"players": 2})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    join_via_api(client, table, "Bo")
    every = {("host", None), ("seat", 1), ("seat", 2)}
    assert "Your opening hand" in _drawing(app, table["code"], every)[("seat", 1)]
    assert act_via_api(client, table, ann, {"type": "redraw", "count": 0}).status_code == 200
    regions = _drawing(app, table["code"], every)
    assert "Your opening hand" not in regions[("seat", 1)] and "Your opening hand" in regions[("seat", 2)]
    assert regions == alone(app, table["code"], every)
