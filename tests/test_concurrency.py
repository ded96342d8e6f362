"""Phones joining at the same moment, against the real server: every seat goes to exactly one phone, no 5xx."""

import json
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

from tests.server import running_server


def post(url, body, token=None):
    headers = {"Content-Type": "application/json"} | ({"Authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_twelve_phones_race_for_four_seats(tmp_path, database_url):
    with running_server(tmp_path / "instance", database_url) as base:
        status, table = post(f"{base}/api/tables", {"game": "night-of-frights", "options": {}})
        assert status == 201
        url = f"{base}/api/tables/{table['code']}/join"
        with ThreadPoolExecutor(max_workers=12) as pool:
            results = list(pool.map(lambda n: post(url, {"name": f"Phone {n}", "key": table["join_key"]}), range(12)))
        statuses = sorted(status for status, _ in results)
        assert statuses == [201] * 4 + [409] * 8, results
        seated = sorted(body["seat"] for status, body in results if status == 201)
        assert seated == [1, 2, 3, 4]
        assert all("full" in body["error"] or "taken" in body["error"] for status, body in results if status == 409)
        _, after = post(f"{base}/api/tables/{table['code']}/end", {}, table["host_token"])
        assert after["version"] == 1 + 4 + 1  # created, four joins, ended: no lost or doubled update


def test_two_phones_race_for_the_same_seat(tmp_path, database_url):
    with running_server(tmp_path / "instance", database_url) as base:
        _, table = post(f"{base}/api/tables", {"game": "survive-6am", "options": {}})
        url = f"{base}/api/tables/{table['code']}/join"
        with ThreadPoolExecutor(max_workers=6) as pool:
            results = list(pool.map(lambda n: post(url, {"name": f"P{n}", "key": table["join_key"], "seat": "Purple"}),
                                    range(6)))
        assert sorted(status for status, _ in results) == [201] + [409] * 5, results


def test_eight_phones_hammering_one_counter_lose_no_update(tmp_path, database_url):
    """8 clients x 200 taps on the same shared counter at once: the final value is exact and nothing is a 5xx."""
    import http.client
    from urllib.parse import urlsplit

    with running_server(tmp_path / "instance", database_url) as base:
        counters = [{"name": "Hits", "scope": "shared", "min": 0, "max": None, "start": 0}]
        _, table = post(f"{base}/api/tables", {"game": "tracker", "options": {"players": 8, "counters": counters}})
        tokens = [post(f"{base}/api/tables/{table['code']}/join", {"name": f"P{n}", "key": table["join_key"]})[1]
                  ["seat_token"] for n in range(8)]
        address = urlsplit(base)

        def hammer(token):
            connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
            statuses = []
            body = json.dumps({"type": "adjust", "counter": "hits", "by": 1})
            for _ in range(200):
                connection.request("POST", f"/api/tables/{table['code']}/actions", body,
                                   {"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
                response = connection.getresponse()
                response.read()
                statuses.append(response.status)
            connection.close()
            return statuses

        with ThreadPoolExecutor(max_workers=8) as pool:
            statuses = [status for batch in pool.map(hammer, tokens) for status in batch]
        assert statuses.count(200) == 1600, sorted(set(statuses))
        request = urllib.request.Request(f"{base}/api/tables/{table['code']}",
                                         headers={"Authorization": f"Bearer {table['host_token']}"})
        with urllib.request.urlopen(request) as response:
            final = json.loads(response.read())
        hits = next(counter for counter in final["view"]["counters"] if counter["key"] == "hits")
        assert hits["values"]["shared"] == 1600
        assert final["version"] == 1 + 8 + 1600  # every tap is one version and one log entry
