"""A server restart mid-game keeps every table, every seat, and each phone's seat cookie."""

import http.cookiejar
import json
import re
import urllib.parse
import urllib.request

from tests.server import free_port, running_server


def browser():
    """A urllib 'browser' with its own cookie jar, like one phone."""
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def fetch(opener, url, data=None, headers=None):
    request = urllib.request.Request(url, data=data, headers=headers or {})
    with opener.open(request, timeout=10) as response:
        return response.geturl(), response.read().decode()


def test_tables_seats_and_a_phones_cookie_survive_a_restart(tmp_path, database_url):
    instance, port = tmp_path / "instance", free_port()
    phone = browser()
    with running_server(instance, database_url, port, public_url="http://127.0.0.1:{port}") as base:
        _, body = fetch(browser(), f"{base}/api/tables", json.dumps({"game": "crystal-lake", "options": {
            "players": 3}}).encode(), {"Content-Type": "application/json"})
        table = json.loads(body)
        _, join_page = fetch(phone, table["join_url"])
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', join_page).group(1)
        form = urllib.parse.urlencode({"csrf_token": csrf, "k": table["join_key"], "name": "Ginny", "seat": "2"})
        url, seat_page = fetch(phone, f"{base}/j/{table['code']}", form.encode())
        assert url.endswith(f"/t/{table['code']}/seats/2") and "Ginny" in seat_page

    assert (instance / "secret_key").exists()
    with running_server(instance, database_url, port, public_url="http://127.0.0.1:{port}") as base:
        url, seat_page = fetch(phone, f"{base}/t/{table['code']}/seat")
        assert url.endswith(f"/t/{table['code']}/seats/2"), url
        assert "Ginny" in seat_page and "Counselor 2" in seat_page
        _, body = fetch(browser(), f"{base}/api/tables/{table['code']}",
                        headers={"Authorization": f"Bearer {table['host_token']}"})
        after = json.loads(body)
        assert [seat["player"] for seat in after["seats"]] == [None, "Ginny", None]
        assert after["options"] == table["options"] and after["version"] == table["version"] + 1


def test_the_log_and_undo_survive_a_restart(tmp_path, database_url):
    """Moves, their dice and the undo history are in the database, not in the server's memory."""
    instance, port = tmp_path / "instance", free_port()
    json_headers = {"Content-Type": "application/json"}

    def call(base, path, body=None, token=None):
        headers = json_headers | ({"Authorization": f"Bearer {token}"} if token else {})
        _, text = fetch(browser(), base + path, json.dumps(body).encode() if body is not None else None, headers)
        return json.loads(text)

    with running_server(instance, database_url, port) as base:
        table = call(base, "/api/tables", {"game": "tracker", "options": {"players": 2}})
        seat = call(base, f"/api/tables/{table['code']}/join", {"name": "Ann", "key": table["join_key"]})
        host = table["host_token"]
        rolled = call(base, f"/api/tables/{table['code']}/actions", {"type": "roll", "dice": "3d6"}, seat["seat_token"])
        call(base, f"/api/tables/{table['code']}/actions", {"type": "next-round"}, seat["seat_token"])
        before = call(base, f"/api/tables/{table['code']}/log", token=host)["log"]

    with running_server(instance, database_url, port) as base:
        after = call(base, f"/api/tables/{table['code']}/log", token=host)["log"]
        assert after == before and "rolled 3d6" in after[1]["text"] and after[1]["dice"]
        undone = call(base, f"/api/tables/{table['code']}/undo", {}, host)
        assert undone["view"]["round"] == 1 and undone["view"]["last_roll"] == rolled["view"]["last_roll"]
        assert call(base, f"/api/tables/{table['code']}/undo", {}, host)["view"]["last_roll"] is None
