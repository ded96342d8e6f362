"""Night of Frights! through Flask: moves via the API and the phone's forms, the panel on host and phone, refusals."""

import re

import pytest

from tests.conftest import act_via_api, any_csrf_token, create_via_api, csrf_token, join_via_api, page_text, snapshot

SLUG = "night-of-frights"


@pytest.fixture
def table(client):
    """Freddy and Chica with an 8-card Event deck; Ann plays Freddy through the API."""
    table = create_via_api(client, SLUG, {"characters": ["Freddy", "Chica"], "event_deck": 8})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    return table


def host_page(client, table) -> str:
    """The host screen as the browser that created the table sees it (its signed cookie holds the host token)."""
    with client.session_transaction() as session:
        session["tables"] = {table["code"]: {"host": table["host_token"]}}
    response = client.get(f"/t/{table['code']}")
    assert response.status_code == 200
    return page_text(response)


def ok(client, table, token, action) -> dict:
    response = act_via_api(client, table, token, action)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def phone_joins(phone, table, name) -> str:
    """A phone takes the next free seat through the join form, as a person would; returns its seat page."""
    token = csrf_token(phone, f"/j/{table['code']}?k={table['join_key']}")
    joined = phone.post(f"/j/{table['code']}", data={"csrf_token": token, "k": table["join_key"], "name": name})
    assert joined.status_code in (302, 303)
    seat = phone.get(joined.headers["Location"])
    return seat.headers.get("Location", joined.headers["Location"]) if seat.status_code in (302, 303) \
        else joined.headers["Location"]


def test_the_host_screen_shows_the_tracker_the_bag_and_the_event_deck(client, table):
    page = host_page(client, table)
    assert "Who most recently ate pizza?" in page
    assert "Scare Tracker" in page and "Board check" in page
    assert "19 Miss + 1 Guard" in page and "second Guard set aside" in page
    assert re.search(r'nof-events-left">8<', page) and "of 8" in page and "assumed" in page
    assert "draws an extra Action card" in page and "has the Mr. Cupcake token" in page  # Freddy and Chica
    assert "Correct the draw table" in page


def test_a_turn_through_the_api_and_the_phone_form_ends_in_a_drawn_capture(client, phone, table):
    seat_page = phone_joins(phone, table, "Bo")
    ok(client, table, table["host_token"], {"type": "first-player", "whose": 2})
    page = page_text(phone.get(seat_page, follow_redirects=True))
    assert "Your turn" in page and "Your odds" in page and "get scarier first" in page
    form = {"csrf_token": csrf_token(phone, seat_page)}
    hx = {"HX-Request": "true"}
    for fields in ({"type": "place-items"}, {"type": "spend", "steps": "3"}):
        swapped = phone.post(f"/t/{table['code']}/act", data=form | fields, headers=hx)
        assert swapped.status_code == 200, page_text(swapped)
    page = page_text(swapped)
    assert "Bo (Chica): spent items: Scare Tracker 0 → 3, flipped to the scary side." in page
    assert "15%" in page  # 3 draws from 19 Miss + 1 Guard: 3/20
    assert "20%" in page  # one step higher: 4 of 20

    captured = phone.post(f"/t/{table['code']}/act", data=form | {"type": "capture", "room": "2", "event": "miss"},
                          headers=hx)
    page = page_text(captured)
    assert captured.status_code == 200, page
    assert "-2 MISS TOKENS" in page and "17 Miss + 1 Guard" in page and "17%" in page  # 3/18
    drawn = phone.post(f"/t/{table['code']}/act", data=form | {"type": "draw", "guards": "0"}, headers=hx)
    page = page_text(drawn)
    assert drawn.status_code == 200, page
    assert page.count('data-token="Miss"') == 3 and "nof-drawn reveal" in page
    assert "drew from the real bag 3 tokens: Miss, Miss, Miss" in page and "flips to X" in page
    host = host_page(client, table)
    assert host.count('data-token="Miss"') == 3 and re.search(r'nof-events-left">7<', host)


def test_a_refused_move_is_a_sentence_and_changes_nothing(app, client, table):
    ok(client, table, table["host_token"], {"type": "first-player", "whose": 1})
    before = snapshot(app)
    for action, words in (({"type": "capture", "room": 1, "event": "other"}, "X side"),
                          ({"type": "spend", "steps": 11}, "1, 2 or 3"),
                          ({"type": "spend", "steps": True}, "how many spaces"),
                          ({"type": "fly"}, "isn't a move")):
        response = act_via_api(client, table, table["ann"], action)
        assert response.status_code == 422 and words in response.get_json()["error"], response.get_json()
    assert snapshot(app) == before


def test_a_phone_cannot_act_on_another_players_turn(app, client, phone, table):
    seat_page = phone_joins(phone, table, "Bo")
    ok(client, table, table["ann"], {"type": "first-player"})
    before = snapshot(app)
    refused = phone.post(f"/t/{table['code']}/act", headers={"HX-Request": "true"},
                         data={"csrf_token": any_csrf_token(phone), "type": "spend", "steps": "1"})
    assert "Party time!" not in page_text(phone.get(seat_page))  # nothing to shout yet: Freddy hasn't acted
    assert refused.status_code == 422 and "It's Freddy's turn" in page_text(refused)
    assert snapshot(app) == before


def test_the_host_screen_plays_for_the_current_player_and_the_game_can_be_won(client, table):
    host = table["host_token"]
    ok(client, table, host, {"type": "first-player", "whose": 1})
    ok(client, table, host, {"type": "place-items"})
    ok(client, table, host, {"type": "spend", "steps": 2})
    body = ok(client, table, host, {"type": "capture", "room": 1, "event": "guard"})
    assert body["log"][0]["text"].startswith("Host: for Freddy, tried to capture from Room 1 at space 2")
    body = ok(client, table, host, {"type": "draw", "guards": 1})
    assert body["outcome"]["winners"] == [1] and "Freddy wins!" in body["outcome"]["text"]
    over = act_via_api(client, table, table["ann"], {"type": "end-turn"})
    assert over.status_code == 409 and "The game is over" in over.get_json()["error"]
    assert "The Guard! Freddy captures the guard." in host_page(client, table)


def test_the_host_corrects_the_draw_table_with_a_form(client):
    created = client.post(f"/new/{SLUG}", data={"csrf_token": csrf_token(client, f"/new/{SLUG}"),
                                                "characters": ["Freddy", "Bonnie", "Foxy"], "event_deck": "9",
                                                "draw_table": "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"})
    assert created.status_code in (302, 303), page_text(created)
    url = created.headers["Location"]
    assert "Foxy goes first" in page_text(client.get(url))
    response = client.post(f"{url}/act", headers={"HX-Request": "true"},
                           data={"csrf_token": csrf_token(client, url), "type": "draw-table",
                                 "values": "1, 2, 3, 4, 5, 6, 7, 8, 9, 9"})
    assert response.status_code == 200 and "set the draw table for spaces 1-10 to 1, 2, 3, 4, 5, 6, 7, 8, 9, 9" \
        in page_text(response)
    refused = client.post(f"{url}/act", headers={"HX-Request": "true"},
                          data={"csrf_token": csrf_token(client, url), "type": "draw-table", "values": "1, 2"})
    assert refused.status_code == 422 and "Give 10 numbers" in page_text(refused)


def test_the_event_deck_size_must_fit_the_player_count(client):
    two = client.post("/api/tables", json={"game": SLUG, "options": {"characters": ["Bonnie", "Foxy"]}})
    assert two.status_code in (400, 422) and "marked 3+ and 4" in two.get_json()["error"]
    four = client.post("/api/tables", json={"game": SLUG, "options": {"event_deck": 10}})
    assert four.status_code in (400, 422) and "With 4 players all 12" in four.get_json()["error"]


def test_the_host_passes_the_turn_to_whoever_really_sits_on_the_left(app, client):
    """'passing an Action token to the player on your left': the screen offers the other players too."""
    table = create_via_api(client, SLUG, {"characters": ["Freddy", "Chica", "Foxy"], "event_deck": 9})
    for name in ("Ann", "Bo", "Cy"):
        join_via_api(client, table, name)
    ok(client, table, table["host_token"], {"type": "first-player", "whose": 1})
    page = host_page(client, table)
    assert "Pass the turn to Chica" in page and "Someone else sits on Freddy's left?" in page
    assert "Pass to Foxy" in page and "Pass to Chica<" not in page
    url = f"/t/{table['code']}"
    passed = client.post(f"{url}/act", headers={"HX-Request": "true"},
                         data={"csrf_token": csrf_token(client, url), "type": "end-turn", "whose": "3"})
    page = page_text(passed)
    assert passed.status_code == 200 and "Foxy takes 4 Action tokens" in page
    assert "Then the tokens pass to the left: Chica" in page and "(seat order" in page
    before = snapshot(app)
    refused = client.post(f"{url}/act", headers={"HX-Request": "true"},
                          data={"csrf_token": csrf_token(client, url), "type": "end-turn", "whose": "3"})
    assert refused.status_code == 422 and "can't pass the turn to themselves" in page_text(refused)
    assert snapshot(app) == before


def test_a_four_player_event_deck_is_not_labelled_assumed(client):
    """All 12 Event cards with four players is printed in the rulebook; only a smaller deck is the host's count."""
    table = create_via_api(client, SLUG, {})
    page = host_page(client, table)
    assert re.search(r'nof-events-left">12<', page) and "the host counted the deck" not in page
    two = create_via_api(client, SLUG, {"characters": ["Bonnie", "Foxy"], "event_deck": 7})
    assert "the host counted the deck after removing the marked cards" in host_page(client, two)


def test_the_host_screen_prefills_its_corrections_with_the_table_as_it_is(client, table):
    """The bag and draw-table forms start from what the app holds, so the host changes only the number that's off."""
    page = host_page(client, table)
    assert "Correct the bag" in page and "Correct the draw table" in page
    assert 'name="miss"' in page and 'value="19"' in page and 'name="guards"' in page
    assert 'name="values"' in page and 'value="1, 2, 3, 4, 5, 6, 7, 8, 9, 10"' in page
    assert "Miss tokens (the box has 19)" in page and "Guard tokens (the box has 2)" in page


def test_the_host_corrects_the_bag_and_a_count_outside_the_box_changes_nothing(app, client):
    created = client.post(f"/new/{SLUG}", data={"csrf_token": csrf_token(client, f"/new/{SLUG}"),
                                                "characters": ["Freddy", "Bonnie"], "event_deck": "8",
                                                "draw_table": "1, 2, 3, 4, 5, 6, 7, 8, 9, 10"})
    url = created.headers["Location"]
    form = {"csrf_token": csrf_token(client, url), "type": "bag"}
    fixed = client.post(f"{url}/act", headers={"HX-Request": "true"}, data=form | {"miss": "17", "guards": "2"})
    page = page_text(fixed)
    assert fixed.status_code == 200, page
    assert "Host: corrected the bag: 19 Miss + 1 Guard → 17 Miss + 2 Guards" in page
    assert "both Guard tokens in the bag" in page
    before = snapshot(app)
    for fields, words in (({"miss": "20", "guards": "1"}, "The box has only 19 Miss tokens"),
                          ({"miss": "-1", "guards": "1"}, "can't hold fewer than 0 Miss tokens"),
                          ({"miss": "17", "guards": "3"}, "The box has only 2 Guard tokens"),
                          ({"miss": "0", "guards": "0"}, "The bag always holds a Guard"),
                          ({"miss": "١٧", "guards": "1"}, "as a whole number")):
        refused = client.post(f"{url}/act", headers={"HX-Request": "true"}, data=form | fields)
        assert refused.status_code == 422 and words in page_text(refused), page_text(refused)
    assert snapshot(app) == before


def test_a_phone_plays_an_action_card_that_adds_the_second_guard(client, phone, table):
    """'+1 GUARD TOKEN' on an Action card: played from the phone, the bag and the odds change at once."""
    seat_page = phone_joins(phone, table, "Bo")
    ok(client, table, table["host_token"], {"type": "first-player", "whose": 2})
    page = page_text(phone.get(seat_page, follow_redirects=True))
    assert "The card says +1 ACTION TOKEN, +1 GUARD TOKEN or -2 MISS TOKENS?" in page
    played = phone.post(f"/t/{table['code']}/act", headers={"HX-Request": "true"},
                        data={"csrf_token": csrf_token(phone, seat_page), "type": "take-action", "what": "play-card",
                              "card": "guard"})
    page = page_text(played)
    assert played.status_code == 200, page
    assert "took an action: PLAY A CARD, +1 GUARD TOKEN — the second Guard goes into the bag" in page
    assert "both Guard tokens in the bag" in page and "Bag: 19 Miss + 2 Guards" in page
    wrong = phone.post(f"/t/{table['code']}/act", headers={"HX-Request": "true"},
                       data={"csrf_token": csrf_token(phone, seat_page), "type": "take-action", "what": "move",
                             "card": "guard"})
    assert wrong.status_code == 422 and "MOVE plays no card" in page_text(wrong)


def test_the_screens_say_which_reading_is_in_force(client):
    """The spend buttons and the turn banner name the reading the table was set up with."""
    table = create_via_api(client, SLUG, {"characters": ["Freddy", "Chica"], "event_deck": 8})
    ok(client, table, table["host_token"], {"type": "first-player", "whose": 1})
    page = host_page(client, table)
    assert "past 10: stops at 10" in page and "seat order" in page and "A spend that would pass 10" in page
    asked = create_via_api(client, SLUG, {"characters": ["Freddy", "Chica", "Foxy"], "event_deck": 9,
                                          "past_ten": "refuse", "left": "ask"})
    ok(client, asked, asked["host_token"], {"type": "first-player", "whose": 1})
    page = host_page(client, asked)
    assert "never past 10" in page and "Who sits on Freddy's left?" in page
    assert "Pass to Chica" in page and "Pass to Foxy" in page and "Pass the turn to" not in page
    refused = client.post("/api/tables", json={"game": SLUG, "options": {"left": "right"}})
    assert refused.status_code in (400, 422) and "The player on your left must be one of" in refused.get_json()["error"]
