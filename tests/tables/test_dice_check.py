"""The dice check: the seed's SHA-256 from the start, the seed at the end, every logged roll recomputed from it."""

import hashlib

from sqlalchemy import select

from app.dice import parse, roll_with
from app.extensions import db
from app.models import Action
from tests.conftest import act_via_api, bearer, create_via_api, join_via_api, page_text


def played_table(client, rolls=6):
    table = create_via_api(client, "tracker", {"players": 2})
    table["ann"] = join_via_api(client, table, "Ann")["seat_token"]
    for n in range(rolls):
        response = act_via_api(client, table, table["ann"], {"type": "roll", "dice": "4d6kh3" if n % 2 else "d20",
                                                            "why": f"test {n}"})
        assert response.status_code == 200
    act_via_api(client, table, table["ann"], {"type": "roll", "dice": "2d6", "values": [3, 4]})  # real dice
    return table


def test_the_seed_stays_secret_until_the_end_and_then_matches_its_fingerprint(client):
    table = played_table(client)
    shown = client.get(f"/api/tables/{table['code']}/dice", headers=bearer(table["ann"])).get_json()
    assert shown["seed"] is None and shown["commitment"] == table["dice"]["commitment"]
    assert shown["rolls"] == 6 and len(shown["draws"]) == 7  # six app rolls, one typed in from real dice
    page = page_text(client.get(f"/t/{table['code']}/verify", headers=bearer(table["ann"])))
    assert table["dice"]["commitment"] in page and "stays secret until the host ends the game" in page
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    revealed = client.get(f"/api/tables/{table['code']}/dice", headers=bearer(table["ann"])).get_json()
    assert hashlib.sha256(revealed["seed"].encode()).hexdigest() == table["dice"]["commitment"]
    for draw in revealed["draws"]:
        if draw["source"] == "app":  # anyone can recompute an app roll from the seed and its draw number
            again = roll_with(revealed["seed"], draw["n"], parse(draw["dice"]))
            assert [list(group) for group in again.values] == draw["values"] and again.total == draw["total"]


def test_the_verify_page_recomputes_every_roll_and_finds_none_missing(client):
    table = played_table(client)
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    page = page_text(client.get(f"/t/{table['code']}/verify", headers=bearer(table["ann"])))
    assert "All 7 logged draws match the seed, and none is missing." in page
    assert page.count("✓") >= 8 and "tampered" not in page


def test_tampering_with_a_logged_roll_is_detected(app, client):
    table = played_table(client)
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    with app.app_context():
        rolled = db.session.scalars(select(Action).where(Action.type == "roll").order_by(Action.seq)).first()
        draw = dict(rolled.dice[0])
        draw["values"] = [[(draw["values"][0][0] % 20) + 1]]  # a "better" d20
        draw["total"] = draw["values"][0][0]
        rolled.dice = [draw]
        db.session.commit()
    page = page_text(client.get(f"/t/{table['code']}/verify", headers=bearer(table["ann"])))
    assert "Something doesn't add up" in page and "1 logged draw don't match the seed" in page
    assert "✗ tampered" in page


def test_a_roll_deleted_from_the_log_is_detected(app, client):
    table = played_table(client)
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    with app.app_context():
        rolled = db.session.scalars(select(Action).where(Action.type == "roll").order_by(Action.seq)).all()[2]
        rolled.dice = []  # as if the server rolled, disliked the result and hid it
        db.session.commit()
    page = page_text(client.get(f"/t/{table['code']}/verify", headers=bearer(table["ann"])))
    assert "Draw 2 is missing from the log." in page


def test_physical_dice_outside_their_faces_are_refused(client):
    table = create_via_api(client, "tracker", {"players": 1})
    ann = join_via_api(client, table, "Ann")["seat_token"]
    for values, words in (([7], "can't show 7"), ([1, 2], "1 die"), ([0], "can't show 0")):
        refused = act_via_api(client, table, ann, {"type": "roll", "dice": "d6", "values": values})
        assert refused.status_code == 422 and words in refused.get_json()["error"], refused.get_json()
    custom = act_via_api(client, table, ann, {"type": "roll", "dice": "d{0,5,5,10,10,15}", "values": [3]})
    assert custom.status_code == 422 and "0, 5, 10, 15" in custom.get_json()["error"]
    ok = act_via_api(client, table, ann, {"type": "roll", "dice": "d{0,5,5,10,10,15}", "values": [10]})
    assert ok.status_code == 200 and ok.get_json()["view"]["last_roll"]["total"] == 10
    assert ok.get_json()["log"][0]["dice"][0]["source"] == "physical"


def test_a_last_roll_deleted_from_the_log_is_detected_by_the_draw_counter(app, client):
    table = played_table(client)
    client.post(f"/api/tables/{table['code']}/end", headers=bearer(table["host_token"]))
    with app.app_context():
        rolled = db.session.scalars(select(Action).where(Action.type == "roll").order_by(Action.seq)).all()[5]
        assert rolled.dice[0]["n"] == 5  # the last app roll
        rolled.dice = []
        db.session.commit()
    page = page_text(client.get(f"/t/{table['code']}/verify", headers=bearer(table["ann"])))
    assert "Draw 5 is missing from the log." in page
