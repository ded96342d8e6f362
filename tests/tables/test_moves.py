"""The one write path: moves through the API and the pages, stale versions, who may do what, undo/redo/jump."""

import json
import re

import pytest
from sqlalchemy import text

from app.extensions import db
from tests.conftest import act_via_api, bearer, create_via_api, csrf_token, join_via_api, page_text, snapshot

COUNTERS = [{"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 20},
            {"name": "Doom", "scope": "shared", "min": 0, "max": 20, "start": 0}]


@pytest.fixture
def table(client):
    table = create_via_api(client, "tracker", {"players": 3, "counters": COUNTERS, "dice": ["d6", "2d6"]})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    table["bo"] = join_via_api(client, table, "Bo")["seat_token"]
    return table


def counter(view: dict, key: str) -> dict:
    return next(entry for entry in view["counters"] if entry["key"] == key)


def stored_state(app, code: str) -> str:
    """The state column exactly as the database holds it."""
    with app.app_context():
        return db.session.execute(text("SELECT CAST(state AS TEXT) FROM tables WHERE code = :code"),
                                  {"code": code}).scalar_one()


def test_a_move_returns_the_new_version_the_view_and_its_log_line(client, table):
    response = act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -3})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["version"] == table["version"] + 3  # two joins, one move
    assert counter(body["view"], "health")["values"]["1"] == 17
    assert body["log"][0]["text"].startswith("Ann (Player 1): Health 20 → 17")
    assert body["log"][0]["seq"] == body["version"]


def test_a_stale_version_gets_409_with_the_current_version_and_changes_nothing(app, client, table):
    current = client.get(f"/api/tables/{table['code']}", headers=bearer(table["ann"])).get_json()["version"]
    before = snapshot(app)
    for headers, body in (({"If-Match": str(current - 1)}, {}), ({}, {"version": current - 1})):
        response = act_via_api(client, table, table["ann"], {"type": "next-round", **body}, **headers)
        assert response.status_code == 409
        assert response.get_json()["version"] == current and "changed" in response.get_json()["error"]
    assert snapshot(app) == before
    fresh = act_via_api(client, table, table["ann"], {"type": "next-round", "version": current})
    assert fresh.status_code == 200 and fresh.get_json()["version"] == current + 1


def test_a_phone_cannot_play_for_another_seat_but_the_host_can(app, client, table):
    before = snapshot(app)
    other = act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -1, "seat": 2})
    assert other.status_code == 403 and "only the host" in other.get_json()["error"]
    theirs = act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "health", "by": -1, "whose": 2})
    assert theirs.status_code == 422
    assert snapshot(app) == before
    host = act_via_api(client, table, table["host_token"], {"type": "adjust", "counter": "health", "by": -1, "seat": 2})
    assert host.status_code == 200
    assert counter(host.get_json()["view"], "health")["values"]["2"] == 19
    assert host.get_json()["log"][0]["actor"] == "Bo (Player 2)"


def test_spectators_strangers_and_empty_seats_are_refused(app, client, table):
    watcher = join_via_api(client, table, "Cy", spectator=True)["seat_token"]
    before = snapshot(app)
    assert act_via_api(client, table, watcher, {"type": "next-round"}).status_code == 403
    assert client.post(f"/api/tables/{table['code']}/actions", json={"type": "next-round"}).status_code == 401
    assert act_via_api(client, table, "forged-token", {"type": "next-round"}).status_code == 401
    empty = act_via_api(client, table, table["host_token"], {"type": "next-round", "seat": 3})
    assert empty.status_code == 409 and "Nobody sits" in empty.get_json()["error"]
    assert snapshot(app) == before


@pytest.mark.parametrize("body", [
    [], "next-round", {"type": ""}, {"type": 5}, {"type": "fly"}, {"type": "adjust", "counter": "health", "by": "x"},
    {"type": "adjust", "counter": "health", "by": True}, {"type": "adjust", "counter": "health", "by": 10**12},
    {"type": "adjust", "counter": "health", "by": -21}, {"type": "adjust", "counter": "nope", "by": 1},
    {"type": "roll", "dice": "d6", "values": [7]}, {"type": "roll", "dice": "2d"}, {"type": "roll", "dice": "d6",
                                                                                   "values": ["<b>"]},
    {"type": "next-round", "version": "soon"}, {"type": "next-round", **{f"f{n}": n for n in range(30)}},
])
def test_bad_moves_get_a_sentence_and_change_nothing(app, client, table, body):
    before = snapshot(app)
    response = client.post(f"/api/tables/{table['code']}/actions", data=json.dumps(body),
                           headers=bearer(table["ann"]) | {"Content-Type": "application/json"})
    assert 400 <= response.status_code < 500
    error = response.get_json()["error"]
    assert error.endswith((".", "!", "?", ")")) and len(error) > 15
    assert snapshot(app) == before


def test_a_moves_on_an_unknown_or_ended_table_are_refused(app, client, table):
    assert act_via_api(client, {"code": "ZZZZZ"}, table["ann"], {"type": "next-round"}).status_code == 404
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    before = snapshot(app)
    assert act_via_api(client, table, table["ann"], {"type": "next-round"}).status_code == 410
    assert client.post(f"/api/tables/{table['code']}/undo", headers=bearer(table["host_token"])).status_code == 410
    assert snapshot(app) == before


def test_undo_and_redo_round_trip_to_byte_identical_state(app, client, table):
    states = [stored_state(app, table["code"])]
    moves = [{"type": "adjust", "counter": "health", "by": -4}, {"type": "roll", "dice": "2d6", "why": "fear"},
             {"type": "adjust", "counter": "doom", "by": 2}, {"type": "next-round"}]
    for move in moves:
        assert act_via_api(client, table, table["ann"], move).status_code == 200
        states.append(stored_state(app, table["code"]))
    host = bearer(table["host_token"])
    for expected in reversed(states[:-1]):
        assert client.post(f"/api/tables/{table['code']}/undo", headers=host).status_code == 200
        assert stored_state(app, table["code"]) == expected
    nothing = client.post(f"/api/tables/{table['code']}/undo", headers=host)
    assert nothing.status_code == 409 and "nothing to undo" in nothing.get_json()["error"]
    for expected in states[1:]:
        assert client.post(f"/api/tables/{table['code']}/redo", headers=host).status_code == 200
        assert stored_state(app, table["code"]) == expected
    assert client.post(f"/api/tables/{table['code']}/redo", headers=host).status_code == 409


def test_redo_brings_back_the_same_dice_not_a_new_roll(app, client, table):
    rolled = act_via_api(client, table, table["ann"], {"type": "roll", "dice": "2d6"}).get_json()
    host = bearer(table["host_token"])
    client.post(f"/api/tables/{table['code']}/undo", headers=host)
    redone = client.post(f"/api/tables/{table['code']}/redo", headers=host).get_json()
    assert redone["view"]["last_roll"] == rolled["view"]["last_roll"]
    log = client.get(f"/api/tables/{table['code']}/log", headers=host).get_json()["log"]
    assert [entry["type"] for entry in log[:3]] == ["redo", "undo", "roll"]
    assert log[2]["undone"] is False and len(log[2]["dice"]) == 1


def test_a_new_move_after_undo_ends_the_redo_chain(client, table):
    host = bearer(table["host_token"])
    act_via_api(client, table, table["ann"], {"type": "next-round"})
    client.post(f"/api/tables/{table['code']}/undo", headers=host)
    act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "doom", "by": 1})
    refused = client.post(f"/api/tables/{table['code']}/redo", headers=host)
    assert refused.status_code == 409 and "nothing to redo" in refused.get_json()["error"]


def test_only_the_host_undoes_another_players_move_or_redoes(app, client, table):
    act_via_api(client, table, table["ann"], {"type": "next-round"})
    before = snapshot(app)
    for token, path in ((table["bo"], "undo"), (table["ann"], "redo"), (table["bo"], "redo")):
        response = client.post(f"/api/tables/{table['code']}/{path}", headers=bearer(token))
        assert response.status_code == 403
    assert snapshot(app) == before


def test_jump_back_undoes_every_later_move_in_one_step(app, client, table):
    host = bearer(table["host_token"])
    first = act_via_api(client, table, table["ann"], {"type": "adjust", "counter": "doom", "by": 1}).get_json()
    after_first = stored_state(app, table["code"])
    for _ in range(3):
        act_via_api(client, table, table["bo"], {"type": "adjust", "counter": "doom", "by": 1})
    jumped = client.post(f"/api/tables/{table['code']}/jump", json={"seq": first["version"]}, headers=host)
    assert jumped.status_code == 200 and "undoing 3 moves" in jumped.get_json()["log"][0]["text"]
    assert stored_state(app, table["code"]) == after_first
    again = client.post(f"/api/tables/{table['code']}/jump", json={"seq": first["version"]}, headers=host)
    assert again.status_code == 409
    assert client.post(f"/api/tables/{table['code']}/jump", json={"seq": 999}, headers=host).status_code == 404
    assert client.post(f"/api/tables/{table['code']}/jump", json={"seq": "x"}, headers=host).status_code == 400
    for _ in range(3):
        assert client.post(f"/api/tables/{table['code']}/redo", headers=host).status_code == 200
    assert counter(client.get(f"/api/tables/{table['code']}", headers=host).get_json()["view"],
                   "doom")["values"]["shared"] == 4


def test_a_move_that_revealed_hidden_information_cannot_be_undone(app, client, table, monkeypatch):
    from app.games import get_game
    from app.games.contract import Event

    rules = get_game("tracker").rules
    real_apply = rules.apply

    def revealing(state, action, rng):
        state, events = real_apply(state, action, rng)
        return state, [Event(event.text, undoable=action["type"] != "roll") for event in events]

    monkeypatch.setattr(rules, "apply", revealing)
    act_via_api(client, table, table["ann"], {"type": "next-round"})
    act_via_api(client, table, table["ann"], {"type": "roll", "dice": "d6"})
    before = snapshot(app)
    refused = client.post(f"/api/tables/{table['code']}/undo", headers=bearer(table["host_token"]))
    assert refused.status_code == 409 and "can't be undone" in refused.get_json()["error"]
    jump = client.post(f"/api/tables/{table['code']}/jump", json={"seq": 2}, headers=bearer(table["host_token"]))
    assert jump.status_code == 409
    assert snapshot(app) == before


def test_the_log_reads_like_the_story_and_pages_back(client, table):
    for _ in range(5):
        act_via_api(client, table, table["ann"], {"type": "next-round"})
    url = f"/api/tables/{table['code']}/log"
    page = client.get(url + "?limit=3", headers=bearer(table["bo"])).get_json()
    assert [entry["seq"] for entry in page["log"]] == [page["version"], page["version"] - 1, page["version"] - 2]
    older = client.get(url + f"?limit=3&before={page['log'][-1]['seq']}", headers=bearer(table["bo"])).get_json()
    assert older["log"][0]["seq"] == page["log"][-1]["seq"] - 1
    assert "Round 6 begins" in page["log"][0]["text"]
    assert client.get(url + "?limit=0", headers=bearer(table["bo"])).status_code == 400
    assert client.get(url + "?before=" + "9" * 30, headers=bearer(table["bo"])).status_code == 400
    assert client.get(url).status_code == 401


def test_a_tap_on_the_phone_page_swaps_in_the_new_live_region(client, phone, table):
    join = client.get(f"/j/{table['code']}?k={table['join_key']}")
    assert join.status_code == 200
    token = csrf_token(phone, f"/j/{table['code']}?k={table['join_key']}")
    phone.post(f"/j/{table['code']}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"})
    page = phone.get(f"/t/{table['code']}/seats/3")
    assert page.status_code == 200
    form = {"csrf_token": csrf_token(phone, f"/t/{table['code']}/seats/3"), "type": "adjust", "counter": "health",
            "by": "-2"}
    swapped = phone.post(f"/t/{table['code']}/act", data=form, headers={"HX-Request": "true"})
    assert swapped.status_code == 200 and 'id="live"' in swapped.get_data(as_text=True)
    assert "Di (Player 3): Health 20 → 18" in page_text(swapped)
    refused = phone.post(f"/t/{table['code']}/act", headers={"HX-Request": "true"},
                         data=form | {"by": "-50"})
    assert refused.status_code == 422 and refused.headers["HX-Retarget"] == "#flash"
    assert "Health" in page_text(refused) and 'id="live"' not in refused.get_data(as_text=True)


def test_a_tap_without_javascript_lands_back_on_the_page(client):
    created = client.post("/new/tracker", data={"csrf_token": csrf_token(client, "/new/tracker"), "players": "2",
                                                "counters": "Health, each, 0, 20, 20", "dice": "d6"})
    host_screen = created.headers["Location"]
    token = csrf_token(client, host_screen)
    response = client.post(f"{host_screen}/act", data={"csrf_token": token, "type": "next-round"})
    assert response.status_code == 303 and response.headers["Location"] == host_screen
    assert "Round 2 begins" in page_text(client.get(host_screen))
    missing_csrf = client.post(f"{host_screen}/act", data={"type": "next-round"})
    assert missing_csrf.status_code == 400


def test_the_host_plays_for_a_seat_from_its_page_and_a_spectator_sees_no_buttons(client, phone):
    created = client.post("/new/tracker", data={"csrf_token": csrf_token(client, "/new/tracker"), "players": "2",
                                                "counters": "Health, each, 0, 20, 20", "dice": "d6"})
    code = created.headers["Location"].rsplit("/", 1)[-1]
    client.post(f"/t/{code}/seats/2/sit", data={"csrf_token": csrf_token(client, f"/t/{code}"), "name": "Gran"})
    seat_page = client.get(f"/t/{code}/seats/2")
    assert "playing for Player 2" in page_text(seat_page)
    assert f"/t/{code}/act?seat=2" in seat_page.get_data(as_text=True)
    tapped = client.post(f"/t/{code}/act?seat=2", headers={"HX-Request": "true"},
                         data={"csrf_token": csrf_token(client, f"/t/{code}/seats/2"), "type": "adjust",
                               "counter": "health", "by": "-3"})
    assert tapped.status_code == 200 and "Gran (Player 2): Health 20 → 17" in page_text(tapped)
    assert f'hx-get="/t/{code}/live?seat=2"' in tapped.get_data(as_text=True)  # the host keeps seeing seat 2's view

    key = re.search(r'class="join-key">([^<]+)<', client.get(f"/t/{code}").get_data(as_text=True)).group(1)
    key = key.replace(" ", "")
    phone.post(f"/j/{code}", data={"csrf_token": csrf_token(phone, f"/j/{code}?k={key}"), "k": key,
                                   "name": "Cy", "watch": "1"})
    watching = phone.get(f"/t/{code}/seat")
    assert watching.status_code == 200 and "Gran (Player 2): Health 20 → 17" in page_text(watching)
    assert "/act" not in watching.get_data(as_text=True)


def test_the_phones_dice_form_rolls_with_the_app_when_no_real_values_are_typed(client, phone, table):
    token = csrf_token(phone, f"/j/{table['code']}?k={table['join_key']}")
    phone.post(f"/j/{table['code']}", data={"csrf_token": token, "k": table["join_key"], "name": "Di"})
    form = {"csrf_token": csrf_token(phone, f"/t/{table['code']}/seats/3"), "type": "roll", "dice": "4d6kh3",
            "why": "stats", "values": ""}
    rolled = phone.post(f"/t/{table['code']}/act", data=form, headers={"HX-Request": "true"})
    assert rolled.status_code == 200 and "rolled 4d6kh3 for stats" in page_text(rolled)
    typed = phone.post(f"/t/{table['code']}/act", data=form | {"values": "6, 5 4;1"}, headers={"HX-Request": "true"})
    assert typed.status_code == 200 and "6, 5, 4" in page_text(typed) and "15" in page_text(typed)
    junk = phone.post(f"/t/{table['code']}/act", data=form | {"values": "six"}, headers={"HX-Request": "true"})
    assert junk.status_code == 422 and "as whole numbers, like 3, 5" in page_text(junk)


def test_a_thousand_random_junk_moves_never_get_a_5xx_or_break_the_state(app, client, table):
    import random

    chooser = random.Random(7)
    values = [None, True, 0, -1, 10**20, 1.5, "", "<script>", "health", "doom", "2d6", [], [7], ["a"], {}, {"a": 1},
              "1", 2, 99, "next-round", "adjust", "set", "roll"]
    fields = ["type", "counter", "by", "value", "whose", "dice", "values", "why", "seat", "version", "extra"]
    for _ in range(1000):
        body = {key: chooser.choice(values) for key in chooser.sample(fields, chooser.randint(0, 6))}
        token = chooser.choice([table["ann"], table["host_token"]])
        response = act_via_api(client, table, token, body)
        assert response.status_code < 500, body
        if response.status_code == 200:
            for entry in response.get_json()["view"]["counters"]:
                assert all(entry["min"] <= value <= entry["max"] for value in entry["values"].values())


def test_undo_and_redo_targets_read_from_the_newest_entries_are_the_ones_the_log_gives(app, client):
    """A drawing finds the host's undo and redo targets among the log entries it shows; over random moves, undos and
    redos (the log soon longer than any page) they are exactly the ones the full queries find."""
    import random

    from app.models import Table
    from app.tables import service

    table = create_via_api(client, "tracker", {"players": 2})
    host = bearer(table["host_token"])
    chance = random.Random(16)
    for _ in range(40):
        step = chance.choice(["move", "move", "undo", "undo", "redo"])
        if step == "move":
            act_via_api(client, table, table["host_token"], {"type": "adjust", "counter": "doom", "by": 1})
        else:
            client.post(f"/api/tables/{table['code']}/{step}", headers=host)
        with app.app_context():
            fresh = db.session.scalar(db.select(Table).where(Table.code == table["code"]))
            queried = service.history_controls(fresh)
            for limit in (1, 2, 3, 12):
                page = service.log_page(fresh, limit=limit)
                seen = service.Newest(page, whole=len(page) < limit)
                assert service.history_controls(fresh, seen=seen) == queried, (limit, [e.seq for e in page])
            db.session.remove()
