"""A player fixes their own slip; a freed phone gets a clean page; Play again keeps every seat and every phone."""

import re

import pytest

from tests.conftest import act_via_api, bearer, create_via_api, csrf_token, join_via_api, page_text, snapshot

COUNTERS = [{"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 20},
            {"name": "Doom", "scope": "shared", "min": 0, "max": 20, "start": 0}]


@pytest.fixture
def table(client):
    table = create_via_api(client, "tracker", {"players": 3, "counters": COUNTERS, "dice": ["d6"]})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    table["bo"] = join_via_api(client, table, "Bo")["seat_token"]
    return table


def health(client, table, token, seat):
    view = client.get(f"/api/tables/{table['code']}", headers=bearer(token)).get_json()["view"]
    return next(entry for entry in view["counters"] if entry["key"] == "health")["values"][str(seat)]


def undo(client, table, token):
    return client.post(f"/api/tables/{table['code']}/undo", headers=bearer(token))


# ---- a player's own slip ----------------------------------------------------------------------------------------

def test_a_player_undoes_their_own_latest_move_and_the_log_says_who(client, table):
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    response = undo(client, table, table["ann"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["log"][0]["text"].startswith("Ann (Player 1) undid their move #")
    assert health(client, table, table["ann"], 1) == 20


def test_a_player_cannot_undo_someone_elses_move(app, client, table):
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    before = snapshot(app)
    response = undo(client, table, table["bo"])
    assert response.status_code == 403
    assert "only whoever made it, or the host, can take it back" in response.get_json()["error"]
    assert snapshot(app) == before


def test_a_player_cannot_undo_once_a_later_move_is_in_effect(app, client, table):
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    act_via_api(client, table, table["bo"], {"type": "adjust", "counter": "doom", "by": 1})
    before = snapshot(app)
    assert undo(client, table, table["ann"]).status_code == 403
    assert snapshot(app) == before
    assert undo(client, table, table["host_token"]).status_code == 200  # the host undoes Bo's move...
    assert undo(client, table, table["ann"]).status_code == 200  # ...and Ann's is the newest in effect again
    assert health(client, table, table["ann"], 1) == 20


def test_a_spectator_or_an_empty_table_has_nothing_to_undo(client, table):
    watcher = join_via_api(client, table, "Cy", spectator=True)["seat_token"]
    assert undo(client, table, watcher).status_code == 403
    assert undo(client, table, table["ann"]).status_code == 409


def test_the_phone_offers_undo_only_for_its_own_slip(client, phone, table):
    code = table["code"]
    token = csrf_token(phone, f"/j/{code}?k={table['join_key']}")
    phone.post(f"/j/{code}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"})
    page = page_text(phone.get(f"/t/{code}/seats/3"))
    assert "Undo my last move" not in page
    form = {"csrf_token": csrf_token(phone, f"/t/{code}/seats/3"), "type": "adjust", "counter": "health", "by": "-2"}
    moved = page_text(phone.post(f"/t/{code}/act", data=form, headers={"HX-Request": "true"}))
    assert "Undo my last move" in moved and re.search(r"Your last move</span> #\d+: Di \(Player 3\): Health 20 → 18",
                                                      moved)
    undone = phone.post(f"/t/{code}/undo", data={"csrf_token": form["csrf_token"]}, headers={"HX-Request": "true"})
    assert undone.status_code == 200 and "Di (Player 3) undid their move" in page_text(undone)
    assert "Undo my last move" not in page_text(undone)


# ---- asking the host to undo, once others moved -------------------------------------------------------------------

def step(client, table, token, name, **body):
    return client.post(f"/api/tables/{table['code']}/{name}", json=body, headers=bearer(token))


def test_after_another_players_move_the_phone_asks_and_one_host_tap_goes_back_with_the_log_keeping_both(
        client, table):
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    act_via_api(client, table, table["bo"], {"type": "adjust", "counter": "doom", "by": 1})
    asked = step(client, table, table["ann"], "undo-ask")
    assert asked.status_code == 200, asked.get_json()
    ask = asked.get_json()["log"][0]
    assert re.fullmatch(r"Ann \(Player 1\) asks the host to undo #\d+: Ann \(Player 1\): Health 20 → 15.*", ask["text"])
    again = step(client, table, table["ann"], "undo-ask")
    assert again.status_code == 409 and "asked the host to undo" in again.get_json()["error"]
    assert step(client, table, table["bo"], "undo-grant", seq=ask["seq"]).status_code == 403  # only the host grants
    granted = step(client, table, table["host_token"], "undo-grant", seq=ask["seq"])
    assert granted.status_code == 200, granted.get_json()
    log = client.get(f"/api/tables/{table['code']}/log", headers=bearer(table["host_token"])).get_json()
    texts = [entry["text"] for entry in log["log"][:2]]
    assert re.fullmatch(r"Host went back to before #\d+, as Ann \(Player 1\) asked, undoing 2 moves\.", texts[0])
    assert texts[1] == ask["text"]  # the log keeps the ask and the answer
    assert health(client, table, table["ann"], 1) == 20
    assert step(client, table, table["host_token"], "undo-grant", seq=ask["seq"]).status_code == 409


def test_an_ask_is_refused_while_the_player_can_undo_it_themselves_or_for_anyone_elses_move(app, client, table):
    assert step(client, table, table["ann"], "undo-ask").status_code == 409  # no move yet
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    before = snapshot(app)
    refused = step(client, table, table["ann"], "undo-ask")
    assert refused.status_code == 409 and "take it back yourself" in refused.get_json()["error"]
    assert step(client, table, table["host_token"], "undo-ask").status_code == 403
    assert step(client, table, table["bo"], "undo-ask").status_code == 409  # Bo has no move to ask about
    assert snapshot(app) == before


def test_the_host_keeps_the_move_and_the_phone_cannot_ask_again(client, table):
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -5})
    act_via_api(client, table, table["bo"], {"type": "adjust", "counter": "doom", "by": 1})
    ask = step(client, table, table["ann"], "undo-ask").get_json()["log"][0]
    kept = step(client, table, table["host_token"], "undo-keep", seq=ask["seq"])
    assert kept.status_code == 200 and "Host kept #" in kept.get_json()["log"][0]["text"]
    assert health(client, table, table["ann"], 1) == 15
    assert step(client, table, table["ann"], "undo-ask").status_code == 409
    assert step(client, table, table["host_token"], "undo-grant", seq=ask["seq"]).status_code == 409


def test_the_phone_shows_its_last_move_with_ask_and_the_host_console_one_tap(client, phone, table):
    code = table["code"]
    token = csrf_token(phone, f"/j/{code}?k={table['join_key']}")
    phone.post(f"/j/{code}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"})
    form = {"csrf_token": csrf_token(phone, f"/t/{code}/seats/3"), "type": "adjust", "counter": "health", "by": "-2"}
    phone.post(f"/t/{code}/act", data=form, headers={"HX-Request": "true"})
    act_via_api(client, table, table["bo"], {"type": "adjust", "counter": "doom", "by": 1})
    page = page_text(phone.get(f"/t/{code}/seats/3"))
    assert "Ask the host to undo" in page and "Undo my last move" not in page
    asked = phone.post(f"/t/{code}/undo-ask", data={"csrf_token": form["csrf_token"]}, headers={"HX-Request": "true"})
    assert asked.status_code == 200 and "Asked the host to undo it" in page_text(asked)
    host = client.get(f"/t/{code}", headers=bearer(table["host_token"]))
    console = page_text(host)
    assert "Di (Player 3)</strong> asks you to undo #" in console and "Undo back to before #" in console


# ---- freeing a seat ---------------------------------------------------------------------------------------------

def test_a_freed_phone_gets_a_clean_page_that_offers_to_rejoin_or_watch(client, phone, table):
    code = table["code"]
    token = csrf_token(phone, f"/j/{code}?k={table['join_key']}")
    phone.post(f"/j/{code}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"})
    assert client.post(f"/api/tables/{code}/seats/3/free", headers=bearer(table["host_token"])).status_code == 200
    region = phone.get(f"/t/{code}/live", headers={"HX-Request": "true"})
    assert region.status_code == 204 and region.headers["HX-Redirect"] == f"/t/{code}/seat"
    page = phone.get(f"/t/{code}/seat")
    text = page_text(page)
    assert page.status_code == 200 and "The host freed your seat" in text
    assert f"/j/{code}?k={table['join_key']}" in text and "Watch instead" in text
    assert "<html" in page.get_data(as_text=True).lower() and text.count("The host freed your seat") == 1


def test_freeing_a_seat_asks_for_confirmation_on_the_host_screen(client, table):
    created = client.post("/new/tracker", data={"csrf_token": csrf_token(client, "/new/tracker"), "players": "2"})
    host_page = client.get(created.headers["Location"])
    html = host_page.get_data(as_text=True)
    assert html.count("Free seat…") == 0  # nobody sits yet
    code = re.search(r"/t/([A-Z0-9]{5})", created.headers["Location"]).group(1)
    key = re.search(r'class="join-key">([^<]+)<', html).group(1).replace(" ", "")
    join_via_api(client, {"code": code, "join_key": key}, "Ann")
    html = client.get(f"/t/{code}").get_data(as_text=True)
    assert "<summary>Free seat…</summary>" in html and "Yes, free Player 1" in html


# ---- play again -------------------------------------------------------------------------------------------------

def test_play_again_is_refused_while_the_game_is_still_going(app, client, table):
    before = snapshot(app)
    response = client.post(f"/api/tables/{table['code']}/again", headers=bearer(table["host_token"]))
    assert response.status_code == 409 and "still going" in response.get_json()["error"]
    assert snapshot(app) == before
    assert client.post(f"/api/tables/{table['code']}/again", headers=bearer(table["ann"])).status_code == 403


def test_play_again_keeps_options_and_seats_and_every_token_follows(client, table):
    code = table["code"]
    client.post(f"/api/tables/{code}/end", headers=bearer(table["host_token"]))
    response = client.post(f"/api/tables/{code}/again", headers=bearer(table["host_token"]))
    assert response.status_code == 201, response.get_json()
    upcoming = response.get_json()
    assert upcoming["code"] != code and upcoming["game"] == "tracker" and upcoming["status"] == "open"
    assert [seat["player"] for seat in upcoming["seats"]] == ["Ann", "Bo", None]
    old = client.get(f"/api/tables/{code}", headers=bearer(table["ann"])).get_json()
    assert old["status"] == "finished" and old["next"]["code"] == upcoming["code"]
    ann_next = old["next"]["token"]
    mine = client.get(f"/api/tables/{upcoming['code']}", headers=bearer(ann_next)).get_json()
    assert mine["you"]["number"] == 1 and mine["you"]["player"] == "Ann" and mine["version"] == 1
    host = client.get(f"/api/tables/{upcoming['code']}", headers=bearer(upcoming["host_token"])).get_json()
    assert host["you"]["role"] == "host"
    moved = act_via_api(client, upcoming, ann_next, {"type": "adjust", "counter": "health", "by": -1})
    assert moved.status_code == 200
    again = client.post(f"/api/tables/{code}/again", headers=bearer(table["host_token"]))
    assert again.status_code == 409 and upcoming["code"] in again.get_json()["error"]
    assert client.get(f"/api/tables/{upcoming['code']}", headers=bearer(table["ann"])).status_code == 401


def test_a_phone_follows_its_seat_to_the_next_game_without_rescanning(client, phone):
    created = client.post("/new/tracker", data={"csrf_token": csrf_token(client, "/new/tracker"), "players": "2"})
    code = re.search(r"/t/([A-Z0-9]{5})", created.headers["Location"]).group(1)
    key = re.search(r'class="join-key">([^<]+)<', client.get(f"/t/{code}").get_data(as_text=True)).group(1)
    key = key.replace(" ", "")
    phone.post(f"/j/{code}", data={"csrf_token": csrf_token(phone, f"/j/{code}?k={key}"), "k": key, "name": "Ann",
                                   "seat": "2"})
    client.post(f"/t/{code}/end", data={"csrf_token": csrf_token(client, f"/t/{code}")})
    finished = page_text(client.get(f"/t/{code}"))
    assert "Play again" in finished
    again = client.post(f"/t/{code}/again", data={"csrf_token": csrf_token(client, f"/t/{code}")})
    followed = client.get(again.headers["Location"])
    upcoming = re.search(r"/t/([A-Z0-9]{5})", followed.headers["Location"]).group(1)
    assert upcoming != code and client.get(f"/t/{upcoming}").status_code == 200  # the host's cookie moved over
    old_page = phone.get(f"/t/{code}/seats/2")
    assert "The next game is at table " + upcoming in page_text(old_page)  # the old table stays readable
    hop = phone.get(f"/t/{code}/next")
    assert hop.headers["Location"] == f"/t/{upcoming}/seat"
    seat = phone.get(f"/t/{upcoming}/seat")
    assert seat.status_code == 302 and seat.headers["Location"] == f"/t/{upcoming}/seats/2"
    assert "Ann" in page_text(phone.get(f"/t/{upcoming}/seats/2"))
