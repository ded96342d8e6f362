"""A tap sent twice counts once: a repeated Idempotency-Key gets the first answer back and applies nothing."""

import re

import pytest

from tests.conftest import act_via_api, bearer, create_via_api, csrf_token, join_via_api, snapshot


@pytest.fixture
def table(client):
    counters = [{"name": "Doom", "scope": "shared", "min": 0, "max": None, "start": 0}]
    table = create_via_api(client, "tracker", {"players": 2, "counters": counters})
    table["seat"] = join_via_api(client, table, "Ann")["seat_token"]
    return table


def doom(client, table) -> int:
    view = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()["view"]
    return next(counter for counter in view["counters"] if counter["key"] == "doom")["values"]["shared"]


def test_a_move_resent_with_its_key_is_applied_once_and_answered_as_the_first_time(client, app, table):
    move = {"type": "adjust", "counter": "doom", "by": 1}
    first = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "tap-1"})
    after_first = snapshot(app)
    again = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "tap-1"})
    assert first.status_code == again.status_code == 200
    assert again.get_json() == first.get_json()  # nothing happened in between: the very same answer
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert snapshot(app) == after_first and doom(client, table) == 1
    fresh = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "tap-2"})
    assert fresh.get_json()["version"] == first.get_json()["version"] + 1 and doom(client, table) == 2


def test_a_repeat_after_other_moves_names_its_own_entry_and_the_table_as_it_is_now(client, table):
    move = {"type": "adjust", "counter": "doom", "by": 1}
    first = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "tap-1"}).get_json()
    act_via_api(client, table, table["host_token"], {"type": "next-round"})
    again = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "tap-1"}).get_json()
    assert again["log"] == first["log"] and again["version"] == first["version"] + 1
    assert doom(client, table) == 1


def test_a_stale_version_on_a_repeat_still_gets_the_first_answer(client, table):
    """The retry carries the version the phone saw before its first try; the key wins over the stale check."""
    move = {"type": "next-round", "version": table["version"] + 1}
    first = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "k"})
    again = act_via_api(client, table, table["seat"], move, **{"Idempotency-Key": "k"})
    assert first.status_code == again.status_code == 200 and again.get_json()["log"] == first.get_json()["log"]


def test_a_key_reused_for_another_move_is_refused(client, app, table):
    act_via_api(client, table, table["seat"], {"type": "next-round"}, **{"Idempotency-Key": "same"})
    before = snapshot(app)
    other = act_via_api(client, table, table["seat"], {"type": "adjust", "counter": "doom", "by": 1},
                        **{"Idempotency-Key": "same"})
    assert other.status_code == 422 and "already used for a different move" in other.get_json()["error"]
    assert snapshot(app) == before


def test_a_key_reused_for_the_same_move_with_a_field_left_out_or_added_is_refused(client, app, table):
    """A repeat sends exactly what the first request sent; a key that wrote "roll d20 for Foxy" is not a roll of d20."""
    first = act_via_api(client, table, table["seat"], {"type": "roll", "dice": "d20", "why": "Foxy"},
                        **{"Idempotency-Key": "roll-1"})
    assert first.status_code == 200
    before = snapshot(app)
    for other in ({"type": "roll", "dice": "d20"}, {"type": "roll", "dice": "d20", "why": "Foxy", "values": [3]}):
        refused = act_via_api(client, table, table["seat"], other, **{"Idempotency-Key": "roll-1"})
        assert refused.status_code == 422 and "already used for a different move" in refused.get_json()["error"]
        assert snapshot(app) == before
    again = act_via_api(client, table, table["seat"], {"why": "Foxy", "dice": "d20", "type": "roll"},
                        **{"Idempotency-Key": "roll-1"})
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json()["log"] == first.get_json()["log"] and snapshot(app) == before


def test_keys_are_per_table(client, table):
    other = create_via_api(client, "tracker", {"players": 1})
    first = act_via_api(client, table, table["host_token"], {"type": "next-round"}, **{"Idempotency-Key": "k"})
    second = act_via_api(client, other, other["host_token"], {"type": "next-round"}, **{"Idempotency-Key": "k"})
    assert first.status_code == second.status_code == 200 and "Idempotent-Replayed" not in second.headers


@pytest.mark.parametrize("key", ["has space", "x" * 65, "ünï", "a/b"])
def test_a_malformed_key_is_a_400(client, app, table, key):
    before = snapshot(app)
    response = act_via_api(client, table, table["seat"], {"type": "next-round"}, **{"Idempotency-Key": key})
    assert response.status_code == 400 and "Idempotency-Key" in response.get_json()["error"]
    assert snapshot(app) == before


def test_undo_redo_and_jump_count_once_per_key(client, table):
    host = bearer(table["host_token"])
    for _ in range(3):
        act_via_api(client, table, table["seat"], {"type": "adjust", "counter": "doom", "by": 1})
    code = table["code"]
    for step, body in (("undo", {}), ("redo", {}), ("jump", {"seq": 2})):
        first = client.post(f"/api/tables/{code}/{step}", json=body, headers=host | {"Idempotency-Key": step})
        again = client.post(f"/api/tables/{code}/{step}", json=body, headers=host | {"Idempotency-Key": step})
        assert first.status_code == again.status_code == 200, (step, again.get_json())
        assert again.get_json() == first.get_json() and again.headers["Idempotent-Replayed"] == "true"
    assert doom(client, table) == 0  # 3, undo -> 2, redo -> 3, back to #2 (Ann sat down, before any move) -> 0


def test_a_form_tap_resent_with_its_hidden_key_counts_once(client, app, table):
    phone = app.test_client()
    with phone.session_transaction() as session:
        session["tables"] = {table["code"]: {"seat": table["seat"]}}
    page = phone.get(f"/t/{table['code']}/seats/1").get_data(as_text=True)
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', page)
    assert len(keys) == len(set(keys)) > 3  # one fresh key per form
    form = {"csrf_token": csrf_token(phone, f"/t/{table['code']}/seats/1"), "type": "adjust", "counter": "doom",
            "by": "1", "idempotency_key": keys[0]}
    for _ in range(2):
        assert phone.post(f"/t/{table['code']}/act", data=form, headers={"HX-Request": "true"}).status_code == 200
    assert doom(client, table) == 1
    form["idempotency_key"] = "next-tap"
    assert phone.post(f"/t/{table['code']}/act", data=form).status_code == 303
    assert doom(client, table) == 2
