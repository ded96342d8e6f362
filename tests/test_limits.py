"""Rate limits per client address: a script gets a 429 sentence with Retry-After; a real game night never does."""

import os
import uuid

import pytest

from app import create_app
from tests.conftest import any_csrf_token, create_via_api, page_text, snapshot

PHONE = "192.168.1.77"  # a device on the Wi-Fi; the host machine itself (127.0.0.1) is never limited
REDIS_URL = os.environ.get("NIGHTSHIFT_TEST_REDIS_URL", "redis://127.0.0.1:6379/3")


def from_address(app, address=PHONE):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def create(client):
    return client.post("/api/tables", json={"game": "tracker", "options": {"players": 8}})


def assert_limited(response, words):
    assert response.status_code == 429, response.get_data(as_text=True)
    said = response.get_json()["error"] if response.is_json else page_text(response)
    assert words in said and "Wait " in said
    assert 1 <= int(response.headers["Retry-After"]) <= 3600


def test_creating_tables_past_the_limit_is_a_429_that_changes_nothing(app):
    phone = from_address(app)
    statuses = [create(phone).status_code for _ in range(10)]
    assert statuses == [201] * 10
    before = snapshot(app)
    assert_limited(create(phone), "too many tables")
    assert snapshot(app) == before
    form = phone.post("/new/tracker", data={"csrf_token": any_csrf_token(phone), "players": "2"})
    assert form.status_code == 429 and "too many tables" in form.get_data(as_text=True)
    assert create(from_address(app, "192.168.1.78")).status_code == 201  # another phone is not held back


def test_a_real_game_night_never_meets_a_limit(app):
    """A host on another machine starts a table and a rematch; 8 players and 2 spectators join from one address."""
    host, phones = from_address(app, "192.168.1.10"), from_address(app, "192.168.1.20")  # one NAT for all phones
    for _ in range(2):
        table = create(host).get_json()
        for n in range(8):
            joined = phones.post(f"/api/tables/{table['code']}/join", json={"name": f"P{n}", "key": table["join_key"]})
            assert joined.status_code == 201, joined.get_json()
        assert phones.post(f"/api/tables/{table['code']}/join", json={"name": "Watcher", "key": table["join_key"],
                                                                      "spectator": True}).status_code == 201
        for _ in range(5):  # phones rescanning the QR code
            assert phones.get(f"/j/{table['code']}?k={table['join_key']}").status_code in (200, 302)


def test_wrong_join_keys_are_limited_and_right_ones_are_not_counted(app, client):
    table = create_via_api(client, "tracker", {"players": 2})
    guesser = from_address(app)
    for _ in range(30):
        assert guesser.get(f"/j/{table['code']}?k={table['join_key']}").status_code == 200
    for n in range(20):
        assert guesser.get(f"/j/{table['code']}?k=AAAAAAA{n % 10}").status_code == 403
    assert_limited(guesser.post(f"/api/tables/{table['code']}/join", json={"name": "M", "key": "AAAAAAAA"}),
                   "wrong join keys")
    assert_limited(guesser.get("/j/ZZZZZ?k=AAAAAAAA"), "wrong join keys")  # probing codes is the same guessing
    assert client.get(f"/j/{table['code']}?k=AAAAAAAA").status_code == 403  # the host machine: refused, not limited


def test_the_host_machine_is_never_limited(app, client):
    for _ in range(15):
        assert create(client).status_code == 201


def test_joins_past_the_limit_are_a_429(app, client):
    tables = [create_via_api(client, "tracker", {"players": 8}) for _ in range(4)]
    phone = from_address(app)
    statuses = [phone.post(f"/api/tables/{table['code']}/join", json={"name": f"P{n}", "key": table["join_key"]})
                .status_code for table in tables for n in range(8)]
    assert statuses[:30] == [201] * 30 and statuses[30:] == [429, 429]


def redis_available() -> bool:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
        return True
    except Exception:  # noqa: BLE001 - any failure means no Redis here
        return False


@pytest.mark.skipif(not redis_available(), reason="no Redis at NIGHTSHIFT_TEST_REDIS_URL")
def test_workers_sharing_redis_share_one_count(tmp_path, database_url, app):
    """Two workers (two apps) with NIGHTSHIFT_REDIS_URL: a client's tables count once across both."""
    prefix = f"nightshift-test-{uuid.uuid4().hex}"
    workers = [create_app({"TESTING": True, "INSTANCE_PATH": tmp_path / "instance",
                           "SQLALCHEMY_DATABASE_URI": database_url, "REDIS_URL": REDIS_URL,
                           "RATELIMIT_KEY_PREFIX": prefix}) for _ in range(2)]
    statuses = [create(from_address(workers[n % 2])).status_code for n in range(11)]
    assert statuses == [201] * 10 + [429]
