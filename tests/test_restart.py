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
