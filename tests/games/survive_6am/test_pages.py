"""Survive 'Til 6AM through Flask: the host screen and the phones show the clock, the dials and the controls; moves
work from the API and from the forms; a refused move is a 4xx with a sentence and changes nothing."""

import re

import pytest

from tests.conftest import act_via_api, create_via_api, join_via_api, page_text, snapshot
from tests.tables.test_join import host_table, join_form


def flat(response) -> str:
    """The page as words: tags gone, spaces squeezed."""
    return " ".join(re.sub(r"<[^>]+>", " ", page_text(response)).split())


def seated_table(client, phone, other, **options):
    """A table the `client` browser hosts, with Ann at Orange on `phone` and Bo at Purple on `other`."""
    code, key = host_table(client, **{"players": "2", **options})
    assert join_form(phone, code, key, "Ann", seat=1).status_code == 303
    assert join_form(other, code, key, "Bo", seat=2).status_code == 303
    return code


def post_move(browser, code: str, page: str, htmx: bool = True, **fields):
    """A form post from `page` (its CSRF token), as htmx sends it or as a plain form."""
    text = browser.get(page).get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', text).group(1)  # every page carries it, with or without a form
    headers = {"HX-Request": "true"} if htmx else {}
    return browser.post(f"/t/{code}/act", data={"csrf_token": token, **fields}, headers=headers)


def test_the_host_screen_starts_with_the_clock_the_dials_and_the_setup_checklist(app, client, phone):
    code = seated_table(client, phone, app.test_client())
    host = client.get(f"/t/{code}")
    text = flat(host)
    assert "START" in text and "12 rounds until 6:00 AM" in text
    assert "Orange's Power Dial: 100" in page_text(host) and "Purple's Power Dial: 100" in page_text(host)
    assert "Hallway: 12 cards face down." in text and "Show Stage: 10 cards face down, then shuffle in 2" in text
    assert "Advance time: START → 12:00 AM" in text
    assert "css/app+survive_6am." in page_text(host)  # app.css with the game's own stylesheet, versioned
    assert 'style="' not in page_text(host) and "<script>" not in page_text(host)
    assert client.get("/survive-6am/static/survive_6am.css").status_code == 200


def test_a_round_from_the_forms_and_the_api_shows_on_every_screen(app, client, phone):
    bo = app.test_client()
    code = seated_table(client, phone, bo)
    # The host taps "Advance time" on the host screen (a plain form: back to the page).
    advanced = post_move(client, code, f"/t/{code}", htmx=False, type="advance-time")
    assert advanced.status_code == 303
    ann_page = flat(phone.get(f"/t/{code}/seats/1"))
    assert "12:00 AM" in ann_page and "Phase One: Monitor Cameras" in ann_page and "Cameras flipped" in ann_page
    # Ann finishes Phase One from her phone (htmx: the live region comes back).
    flipped = post_move(phone, code, f"/t/{code}/seats/1", type="cameras-flipped")
    assert flipped.status_code == 200 and "Phase Two: React" in flat(flipped)
    assert "Your reaction" in flat(flipped) and "Before you roll" in flat(flipped)
    bo_page = flat(bo.get(f"/t/{code}/seats/2"))
    assert "Wait: Orange (Ann) reacts now." in bo_page and "Your reaction" not in bo_page
    # Ann reacts with the real dice in the two die fields: the rulebook's example, 5 and 10 with one depletion.
    reacted = post_move(phone, code, f"/t/{code}/seats/1", type="react", cards="2", depletion="1", die1="5",
                        die2="10")
    assert reacted.status_code == 200, flat(reacted)
    assert "Orange's Power Dial: 80" in page_text(reacted)
    host_text = flat(client.get(f"/t/{code}"))
    assert "12:00 AM: 5 + 10 + 5 depletion = 20 → 80" in host_text
    assert "Ann (Orange): reacted to 2 cards: the real Power dice showed 5 + 10, + 5 for 1 Power Depletion card = 20" \
        in host_text
    assert "React for Purple" in host_text
    # Bo reacts with a plain form post (no htmx): back to his page; the round moves to Phase Three everywhere.
    plain = post_move(bo, code, f"/t/{code}/seats/2", htmx=False, type="react", cards="1", depletion="0", die1="15")
    assert plain.status_code == 303 and plain.headers["Location"].endswith(f"/t/{code}/seats/2")
    bo_page = page_text(bo.get(f"/t/{code}/seats/2"))
    assert "Orange's Power Dial: 80" in bo_page and "Purple's Power Dial: 85" in bo_page
    assert "Phase Three: Resolve" in flat(phone.get(f"/t/{code}/seats/1"))
    assert "Advance time → 12:30 AM" in flat(client.get(f"/t/{code}"))


def api_table(client, **options):
    table = create_via_api(client, "survive-6am", {"players": 2, **options})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    table["bo"] = join_via_api(client, table, "Bo")["seat_token"]
    return table


def move(client, table, token, action):
    response = act_via_api(client, table, token, action)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_out_of_order_and_impossible_reactions_are_refused_and_change_nothing(app, client):
    table = api_table(client)
    move(client, table, table["host_token"], {"type": "advance-time"})
    move(client, table, table["bo"], {"type": "cameras-flipped"})
    cases = [
        (table["bo"], {"type": "react", "cards": 0}, "Wait: it's Orange's turn to react"),
        (table["ann"], {"type": "react", "cards": 3, "depletion": 0, "values": [5, 5, 5]}, "React to 0, 1 or 2"),
        (table["ann"], {"type": "react", "cards": 1, "depletion": 9, "values": [5]}, "At most 4 Power Depletion"),
        (table["ann"], {"type": "react", "cards": 1, "depletion": 0, "values": [-5]}, "negative"),
        (table["ann"], {"type": "react", "cards": 1, "depletion": 0, "values": [99]}, "can't show 99"),
        (table["ann"], {"type": "advance-time"}, "Phase Two isn't over"),
        (table["host_token"], {"type": "react", "cards": 0}, "Each guard reacts from their own seat"),
    ]
    for token, action, message in cases:
        before = snapshot(app)
        response = act_via_api(client, table, token, action)
        assert response.status_code == 422, response.get_json()
        assert message in response.get_json()["error"]
        assert snapshot(app) == before
    move(client, table, table["host_token"], {"type": "react", "cards": 0, "seat": 1})  # the host plays for Ann
    move(client, table, table["bo"], {"type": "react", "cards": 0})


def test_a_refused_form_move_shows_its_sentence_and_changes_nothing(app, client, phone):
    bo = app.test_client()
    code = seated_table(client, phone, bo)
    post_move(client, code, f"/t/{code}", type="advance-time")
    post_move(client, code, f"/t/{code}", type="cameras-flipped")
    before = snapshot(app)
    early = post_move(bo, code, f"/t/{code}/seats/2", type="react", cards="0")
    assert early.status_code == 422 and "Wait: it's Orange's turn to react" in page_text(early)
    junk = post_move(phone, code, f"/t/{code}/seats/1", type="react", cards="2", depletion="1", die1="5", die2="x")
    assert junk.status_code == 422 and "Each Power die must be a whole number" in page_text(junk)
    assert snapshot(app) == before


def in_phase_three(app, client, phone):
    """A seated two-guard table at 12:00 AM where both guards reacted to nothing: Phase Three, Offices in danger."""
    bo = app.test_client()
    code = seated_table(client, phone, bo)
    for fields in ({"type": "advance-time"}, {"type": "cameras-flipped"}):
        post_move(client, code, f"/t/{code}", **fields)
    post_move(phone, code, f"/t/{code}/seats/1", type="react", cards="0")
    post_move(bo, code, f"/t/{code}/seats/2", type="react", cards="0")
    return code, bo


def test_the_game_ends_when_an_animatronic_reaches_an_office(app, client, phone):
    code, bo = in_phase_three(app, client, phone)
    host = flat(client.get(f"/t/{code}"))
    assert "An animatronic reached an Office" in host and "Into Purple's Office" in host
    # 'using Phase Two's turn order, one at a time' + 'you immediately lose the game', in the reading in force
    assert ("Both in danger? Report the Office reached first: Resolve guard by guard, each from the Hallway to the "
            "Show Stage (Orange, then Purple) (guard by guard assumed )") in host
    assert "An animatronic reached my Office" in flat(bo.get(f"/t/{code}/seats/2"))
    ended = post_move(client, code, f"/t/{code}", type="office", whose="2")
    assert ended.status_code == 200
    text = "An Animatronic reached Purple's Office at 12:00 AM: Purple loses and Orange wins!"
    for page in (client.get(f"/t/{code}"), phone.get(f"/t/{code}/seats/1"), bo.get(f"/t/{code}/seats/2")):
        assert text in flat(page)
        assert "Winner: Ann (Orange)" in flat(page)  # the rules name seats; the screen names the player too
        assert "Advance time" not in flat(page)
    before = snapshot(app)
    late = post_move(client, code, f"/t/{code}", type="advance-time")
    assert late.status_code == 409 and "The game is over" in page_text(late)
    assert snapshot(app) == before


def test_a_virtual_table_rolls_on_the_phone_and_a_solo_night_reaches_6_00_am(client):
    table = create_via_api(client, "survive-6am", {"players": 1, "power_dice": "virtual"})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    for _ in range(12):
        move(client, table, ann, {"type": "advance-time"})
        move(client, table, ann, {"type": "cameras-flipped"})
        body = move(client, table, ann, {"type": "react", "cards": 1, "depletion": 0})
        assert "the app rolled the Power die" in body["log"][0]["text"] or "REACTS TO NOTHING" in body["log"][0]["text"]
    body = move(client, table, ann, {"type": "advance-time"})
    assert body["outcome"]["winners"] == [1] and body["outcome"]["text"].startswith("6:00 AM! Orange survived")
    dice = client.get(f"/api/tables/{table['code']}/log?limit=100", headers={"Authorization": f"Bearer {ann}"})
    rolled = [entry for entry in dice.get_json()["log"] if entry["type"] == "react"]
    assert len(rolled) == 12 and all(entry["dice"] for entry in rolled)


def test_the_host_reacts_for_a_guard_from_that_guards_page_and_a_spectator_only_watches(app, client, phone):
    code = seated_table(client, phone, app.test_client())
    post_move(client, code, f"/t/{code}", type="advance-time")
    post_move(client, code, f"/t/{code}", type="cameras-flipped")
    seat_page = flat(client.get(f"/t/{code}/seats/1"))
    assert "You are the host, playing for Orange" in seat_page and "Your reaction" in seat_page
    token = re.search(r'"X-CSRFToken": "([^"]+)"', client.get(f"/t/{code}").get_data(as_text=True)).group(1)
    reacted = client.post(f"/t/{code}/act?seat=1", data={"csrf_token": token, "type": "react", "cards": "1",
                                                         "depletion": "2", "die1": "20"},
                          headers={"HX-Request": "true"})
    assert reacted.status_code == 200 and "Orange's Power Dial: 70" in page_text(reacted)
    assert ("Ann (Orange): reacted to 1 card: the real Power die showed 20, + 10 for 2 Power Depletion cards = 30 "
            "power; Power Dial 100 → 70.") in flat(client.get(f"/t/{code}"))
    watcher = app.test_client()
    key = re.search(r'class="join-key">([A-Z0-9 ]+)<', page_text(client.get(f"/t/{code}"))).group(1).replace(" ", "")
    assert join_form(watcher, code, key, "Cy", watch=True).status_code == 303
    watching = watcher.get(f"/t/{code}/seat", follow_redirects=True)
    text = flat(watching)
    assert "12:00 AM" in text and "Orange's Power Dial: 70" in page_text(watching)
    assert "Advance time" not in text and "Your reaction" not in text and "Cameras flipped" not in text


# ---- review: bad input through the real HTTP surface, the end of the night, undo ------------------------------------

BAD_REACTIONS = [
    ({"type": "react", "cards": 10**30, "depletion": 0}, 422, "React to 0, 1 or 2 cards"),
    ({"type": "react", "cards": 1, "depletion": 10**30, "values": [5]}, 422, "At most 4 Power Depletion cards"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [10**30]}, 422, "A Power die can't show"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [[5]]}, 422, "Each Power die must be a whole number"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": {"a": 1}}, 422, "as a list of whole numbers"),
    ({"type": "react", "cards": 1, "depletion": None, "values": [5]}, 422, "Say how many Power Depletion cards"),
    ({"type": "react", "cards": None}, 422, "must be a whole number"),
    ({"type": "react", "cards": {"x": 1}}, 422, "must be a whole number"),
    ({"type": "react", "cards": 1.5}, 422, "must be a whole number"),
    ({"type": "react", "cards": 2, "depletion": 0, "values": [5.0, 10]}, 422, "Each Power die must be a whole number"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [5] * 100_000}, 413, "far too much data"),
    ({"type": "<script>alert(1)</script>"}, 422, "isn't a move in Survive 'Til 6AM"),
    ({"type": "react", "cards": 0, "<b>": 1}, 422, "Reacting doesn't take '<b>'"),
    ({"type": ["react"]}, 400, "an action needs a 'type'"),
    ({"type": "office", "whose": True}, 422, "Whose Office must be a whole number"),
    ({"type": "office", "whose": 1}, 422, "only in Phase Three"),
    ({"type": "react", "cards": 0, "seat": 2}, 403, "only the host can play for another seat"),
    ({"type": "react", "cards": 0, "version": 1}, 409, ""),
    ({"type": "react", "cards": 0, "version": "seven"}, 400, "The version must be a whole number"),
]


@pytest.mark.parametrize("action,status,message", BAD_REACTIONS)
def test_junk_from_a_phone_is_a_clear_4xx_and_changes_nothing(app, client, action, status, message):
    """Wrong types, huge numbers, unknown keys, another seat, a stale version: a sentence, never a 500."""
    table = api_table(client)
    move(client, table, table["host_token"], {"type": "advance-time"})
    move(client, table, table["bo"], {"type": "cameras-flipped"})
    before = snapshot(app)
    response = act_via_api(client, table, table["ann"], action)
    assert response.status_code == status, response.get_data(as_text=True)[:300]
    assert message in response.get_json()["error"]
    assert snapshot(app) == before


def test_script_typed_into_a_form_comes_back_escaped(app, client, phone):
    code = seated_table(client, phone, app.test_client())
    before = snapshot(app)
    for fields in ({"type": "<script>alert(1)</script>"}, {"type": "office", "whose": "<script>x</script>"},
                   {"type": "advance-time", "<script>y</script>": "1"}):
        refused = post_move(phone, code, f"/t/{code}/seats/1", **fields)
        assert refused.status_code == 422
        body = refused.get_data(as_text=True)
        assert "<script>alert" not in body and "<script>x" not in body and "<script>y" not in body
        assert "&lt;script&gt;" in body
    assert snapshot(app) == before


def test_the_last_round_button_says_it_ends_the_night_and_6_00_am_is_logged_once(client, phone):
    code, key = host_table(client, players="1")
    assert join_form(phone, code, key, "Ann", seat=1).status_code == 303
    token = re.search(r'"X-CSRFToken": "([^"]+)"', phone.get(f"/t/{code}/seats/1").get_data(as_text=True)).group(1)
    for _ in range(12):
        for fields in ({"type": "advance-time"}, {"type": "cameras-flipped"}, {"type": "react", "cards": "0"}):
            response = phone.post(f"/t/{code}/act", data={"csrf_token": token, **fields},
                                  headers={"HX-Request": "true"})
            assert response.status_code == 200, flat(response)[:300]
    for text in (flat(client.get(f"/t/{code}")), flat(phone.get(f"/t/{code}/seats/1"))):
        assert "5:30 AM" in text and "Advance time → 6:00 AM: end the night" in text
        assert "Last round. Resolve every card first" in text
    post_move(phone, code, f"/t/{code}/seats/1", type="advance-time")
    host = flat(client.get(f"/t/{code}"))
    assert "6:00 AM! Orange survived the night with 100 power left and wins." in host
    assert "6:00 AM! 6:00 AM!" not in host and "night shift is over. 6:00 AM! Orange survived" in host


def test_the_host_can_undo_an_office_reported_by_mistake(app, client, phone):
    """A mistaken 'Into Purple's Office' tap is not final: the host's undo brings back Phase Three."""
    code, bo = in_phase_three(app, client, phone)
    assert post_move(client, code, f"/t/{code}", type="office", whose="2").status_code == 200
    assert "Purple loses and Orange wins" in flat(client.get(f"/t/{code}"))
    page = client.get(f"/t/{code}").get_data(as_text=True)
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    undone = client.post(f"/t/{code}/undo", data={"csrf_token": token, "version": version},
                         headers={"HX-Request": "true"})
    assert undone.status_code == 200
    host = flat(client.get(f"/t/{code}"))
    assert "Purple loses" not in host.split("Log")[0] and "Phase Three: Resolve" in host
    assert "Advance time → 12:30 AM" in host


def test_a_react_to_nothing_is_shouted_on_every_screen(app, client, phone):
    bo = app.test_client()
    code = seated_table(client, phone, bo)
    ann_page, bo_page = f"/t/{code}/seats/1", f"/t/{code}/seats/2"
    spend = {"type": "react", "cards": "2", "depletion": "4", "die1": "20", "die2": "20"}  # 20 + 20 + 4 x 5 = 60
    # 12:00 AM: tied at 100, the star (Orange) reacts first and pays 60; 12:30 AM: Purple (100) first, Orange can't.
    for first, second in (((phone, ann_page), (bo, bo_page)), ((bo, bo_page), (phone, ann_page))):
        post_move(client, code, f"/t/{code}", type="advance-time")
        post_move(client, code, f"/t/{code}", type="cameras-flipped")
        for browser, page in (first, second):
            fields = spend if browser is phone else {"type": "react", "cards": "0"}
            assert post_move(browser, code, page, **fields).status_code == 200
    shout = "Orange reacts to NOTHING! Yikes! 60 power is more than the 40 left: no power subtracted, and Orange's " \
            "cards go unanswered into Phase Three."
    for page in (client.get(f"/t/{code}"), phone.get(f"/t/{code}/seats/1"), bo.get(f"/t/{code}/seats/2")):
        assert shout in flat(page)
        assert "Orange's Power Dial: 40" in page_text(page)


def test_a_phone_taps_in_its_cameras_and_the_reaction_counts_the_depletion(app, client, phone):
    """Phase One on the phone: a tap per card flipped; the board check counts them and the reaction form starts from
    the face-up Power Depletion cards."""
    code = seated_table(client, phone, app.test_client())
    post_move(client, code, f"/t/{code}", type="advance-time")
    page = flat(phone.get(f"/t/{code}/seats/1"))
    assert "Tap what your cameras flipped" in page and "Hallway nothing yet" in page
    for location, card in (("Hallway", "power-depletion"), ("Show Stage", "animatronic"),
                           ("Show Stage", "what-was-that")):
        tapped = post_move(phone, code, f"/t/{code}/seats/1", type="flip", location=location, card=card)
        assert tapped.status_code == 200, flat(tapped)[:300]
    before = snapshot(app)
    wrong = post_move(phone, code, f"/t/{code}/seats/1", type="flip", location="Kitchen", card="animatronic")
    assert wrong.status_code == 422 and "There is no 'Kitchen' camera" in page_text(wrong)
    assert snapshot(app) == before
    host = flat(client.get(f"/t/{code}"))
    assert ("Orange's cameras face up: 1 Animatronic card, 1 Power Depletion card and 1 What Was That? card (Hallway "
            "Power Depletion; Show Stage Animatronic, What Was That?).") in host
    post_move(client, code, f"/t/{code}", type="cameras-flipped")
    form = page_text(phone.get(f"/t/{code}/seats/1"))
    assert re.search(r'name="depletion" value="1" checked', form)
    assert "counted from your cameras: 1" in flat(phone.get(f"/t/{code}/seats/1"))
    reacted = post_move(phone, code, f"/t/{code}/seats/1", type="react", cards="2", die1="5", die2="10")
    assert reacted.status_code == 200 and "Orange's Power Dial: 80" in page_text(reacted)


def test_a_guard_whose_cameras_show_nothing_to_react_to_can_still_save_power_from_the_phone(app, client, phone):
    """Every camera stopped at an Empty Room or a Power Depletion: no card to react to, and the phone still offers its
    one move (the whole reaction area was drawn only when a card could be reacted to: the guard was stuck)."""
    code = seated_table(client, phone, app.test_client())
    post_move(client, code, f"/t/{code}", type="advance-time")
    for location, card in (("Hallway", "empty-room"), ("Pirate Cove", "power-depletion"),
                           ("Dining Area", "power-depletion"), ("Show Stage", "power-depletion")):
        tapped = post_move(phone, code, f"/t/{code}/seats/1", type="flip", location=location, card=card)
        assert tapped.status_code == 200
    post_move(client, code, f"/t/{code}", type="cameras-flipped")
    page = page_text(phone.get(f"/t/{code}/seats/1"))
    assert "React to no cards (save power)" in page and 'name="cards" value="1"' not in page
    saved = post_move(phone, code, f"/t/{code}/seats/1", type="react", cards="0")
    assert saved.status_code == 200 and "Orange's Power Dial: 100" in page_text(saved)


@pytest.mark.parametrize("options,shown", [
    ({}, ["Equal power at 6:00 AM is a shared win. assumed", "Star: first on a tie (star fixed for the night"]),
    ({"tie": "nobody", "star_moves": "dial"}, ["Equal power at 6:00 AM: nobody wins. assumed",
                                               "Star: first on a tie (star follows the dials"]),
])
def test_the_screens_say_which_reading_is_in_force(client, options, shown):
    table = api_table(client, **options)
    page = flat(client.get(f"/t/{table['code']}", headers={"Authorization": f"Bearer {table['host_token']}"}))
    for text in shown:
        assert text in page


def test_where_the_star_follows_the_dials_the_host_says_whose_dial_shows_it_on_a_tie(app, client, phone):
    """'the player who has a star icon showing on their dial reacts first', read as following the dials."""
    code = seated_table(client, phone, app.test_client(), star_moves="dial")
    post_move(client, code, f"/t/{code}", type="advance-time")
    host = flat(client.get(f"/t/{code}"))
    assert "The star shows on Purple's dial" in host and "The dials are tied: The star follows the dials" in host
    assert "The star shows on my dial" not in flat(phone.get(f"/t/{code}/seats/1"))  # it is on Orange's already
    moved = post_move(client, code, f"/t/{code}", type="star", whose="2")
    assert moved.status_code == 200
    assert "Purple reacts first (tied at 100, the star is on Purple's dial), then Orange" in flat(moved)
    assert "The star: on Purple's dial (reacts first on a tie; follows the dials)." in page_text(moved)


def test_issue_46_the_office_a_card_reaches_is_recorded_over_http_under_the_location_reading(app, client):
    """Orange's Hallway What Was That? resolves before Purple's Hallway Animatronic: reporting Orange's Office was a
    422 ("Purple's unanswered Hallway Animatronic is resolved first ..."); now it ends the night, from Ann's phone."""
    table = api_table(client, resolve="location")
    move(client, table, table["host_token"], {"type": "advance-time"})
    for whose, location, card in ((1, "Hallway", "what-was-that"), (2, "Hallway", "animatronic"),
                                  (2, "Hallway", "empty-room")):
        move(client, table, table["host_token"], {"type": "flip", "whose": whose, "location": location, "card": card})
    move(client, table, table["host_token"], {"type": "cameras-flipped"})
    move(client, table, table["ann"], {"type": "react", "cards": 0})
    move(client, table, table["bo"], {"type": "react", "cards": 0})
    body = move(client, table, table["ann"], {"type": "office"})
    assert body["outcome"]["winners"] == [2]
    assert body["outcome"]["text"] == ("An Animatronic reached Orange's Office at 12:00 AM: Orange loses and Purple "
                                       "wins!")
