"""The host's "Change the join code": the old QR code and key stop working at once, players keep their seats, and
spectators (let in by the old key alone) must scan the new one."""

import pytest

from tests.conftest import act_via_api, bearer, create_via_api, csrf_token, join_via_api, page_text, snapshot
from tests.live.test_push import Stream


def test_a_changed_join_code_refuses_the_old_key_at_once_and_players_keep_their_seats(client, app):
    table = create_via_api(client, "tracker", {"players": 3})
    code, old = table["code"], table["join_key"]
    player = join_via_api(client, table, "Ann")["seat_token"]
    watcher = join_via_api(client, table, "Eve", spectator=True)
    app.config["LIVE_BEAT_SECONDS"] = 0.2
    watching = Stream(client, f"/t/{code}/events?region=1&v=1", watcher["seat_token"])
    watching.next_region()

    changed = client.post(f"/api/tables/{code}/join-key", headers=bearer(table["host_token"]))
    assert changed.status_code == 200
    new = changed.get_json()["join_key"]
    assert new != old and f"k={new}" in changed.get_json()["join_url"] and changed.get_json()["spectators"] == 0

    stale = client.post(f"/api/tables/{code}/join", json={"name": "Mallory", "key": old})
    assert stale.status_code == 403 and "join key doesn't match" in stale.get_json()["error"]
    assert client.get(f"/j/{code}?k={old}").status_code == 403  # the old QR code's link
    assert client.post(f"/api/tables/{code}/join", json={"name": "Bo", "key": new}).status_code == 201

    assert client.get(f"/api/tables/{code}", headers=bearer(player)).status_code == 200
    assert act_via_api(client, table, player, {"type": "next-round"}).status_code == 200
    assert client.get(f"/api/tables/{code}", headers=bearer(watcher["seat_token"])).status_code == 401
    events = []  # the spectator's screen, drawing the change, is told its place is gone, and its stream ends
    with pytest.raises(StopIteration):
        for _ in range(50):
            events.append(watching.next_event()[0])
    assert events[-1] == "gone"
    log = client.get(f"/api/tables/{code}/log", headers=bearer(player)).get_json()["log"]
    line = next(entry["text"] for entry in log if entry["type"] == "table.join-key")
    assert line == ("The host changed the join code: the old QR code and key no longer work. 1 spectator must scan "
                    "the new one to watch again.") and old not in str(log) and new not in str(log)


def test_the_host_screen_changes_the_join_code_and_shows_the_new_one(client, app):
    table = create_via_api(client, "tracker", {"players": 2})
    with client.session_transaction() as session:
        session["tables"] = {table["code"]: {"host": table["host_token"]}}
    host_page = f"/t/{table['code']}"
    changed = client.post(f"{host_page}/join-key", data={"csrf_token": csrf_token(client, host_page)})
    assert changed.status_code == 303 and changed.headers["Location"].endswith(host_page)
    shown = page_text(client.get(host_page))
    new = client.get(f"/api/tables/{table['code']}", headers=bearer(table["host_token"])).get_json()["join_key"]
    assert "the old QR code and key no longer work" in shown and f"k={new}" in shown
    assert f"k={table['join_key']}" not in shown


def test_only_the_host_may_change_the_join_code_and_a_refusal_changes_nothing(client, app):
    table = create_via_api(client, "tracker", {"players": 2})
    player = join_via_api(client, table, "Ann")["seat_token"]
    before = snapshot(app)
    for token, status in ((player, 403), (None, 401), ("forged", 401)):
        refused = client.post(f"/api/tables/{table['code']}/join-key", headers=bearer(token) if token else {})
        assert refused.status_code == status
    assert client.post(f"/t/{table['code']}/join-key").status_code == 400  # a form without its CSRF token
    assert snapshot(app) == before


def watcher_id(app, name: str) -> int:
    from app.extensions import db
    from app.models import Seat

    with app.app_context():
        found = db.session.scalar(db.select(Seat.id).where(Seat.player_name == name))
        db.session.remove()
    return found
