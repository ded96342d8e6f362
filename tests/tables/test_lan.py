"""The QR code's address: NIGHTSHIFT_PUBLIC_URL, else a LAN address read from the interfaces, never loopback."""

import socket
from types import SimpleNamespace

from app.tables import lan


def addr(ip):
    return SimpleNamespace(family=socket.AF_INET, address=ip)


def up(is_up=True):
    return SimpleNamespace(isup=is_up)


INTERFACES = {
    "lo": [addr("127.0.0.1")],
    "docker0": [addr("172.17.0.1")],
    "eth0": [addr("10.0.0.12"), SimpleNamespace(family=socket.AF_INET6, address="fe80::1")],
    "wlan0": [addr("192.168.1.23")],
    "eth1": [addr("169.254.3.3")],
    "wlan1": [addr("192.168.7.7")],
}
STATS = {"lo": up(), "docker0": up(), "eth0": up(), "wlan0": up(), "eth1": up(), "wlan1": up(False)}


def test_candidates_skip_loopback_link_local_down_and_rank_home_networks_first():
    found = lan.candidates(INTERFACES, STATS)
    assert [(a.interface, a.ip) for a in found] == [("wlan0", "192.168.1.23"), ("eth0", "10.0.0.12"),
                                                    ("docker0", "172.17.0.1")]


def test_the_best_lan_address_and_the_server_port_make_the_join_base():
    base = lan.base_url("", 8000, "localhost:8000", lan.candidates(INTERFACES, STATS))
    assert base.url == "http://192.168.1.23:8000" and base.reachable
    assert base.source == "the LAN address of interface wlan0"


def test_public_url_wins_over_everything():
    base = lan.base_url("https://nightshift.example.org/", 8000, "localhost", lan.candidates(INTERFACES, STATS))
    assert base.url == "https://nightshift.example.org" and base.source == "NIGHTSHIFT_PUBLIC_URL"


def test_a_machine_with_no_lan_says_phones_cannot_reach_it():
    base = lan.base_url("", 8000, "127.0.0.1:8000", lan.candidates({"lo": [addr("127.0.0.1")]}, {"lo": up()}))
    assert not base.reachable and base.url == "http://127.0.0.1:8000"


def test_virtual_bridges_alone_are_not_offered_to_phones():
    base = lan.base_url("", 8000, "127.0.0.1:8000", [lan.Address("docker0", "172.17.0.1")])
    assert not base.reachable


def test_this_machine_offers_no_loopback_candidate():
    assert all(not a.ip.startswith("127.") for a in lan.candidates())


def test_host_screen_without_public_url_uses_the_lan_address(tmp_path, database_url):
    from app import create_app
    from app.database import upgrade_database

    app = create_app({"INSTANCE_PATH": tmp_path, "SQLALCHEMY_DATABASE_URI": database_url, "PORT": 8765})
    upgrade_database(app)
    client = app.test_client()
    table = client.post("/api/tables", json={"game": "flipside"}).get_json()
    best = lan.base_url("", 8765, "x", lan.candidates())
    assert table["join_url"] == f"{best.url}/j/{table['code']}?k={table['join_key']}"
    if best.reachable:
        assert not table["join_url"].startswith(("http://127.", "http://localhost"))


def test_the_machine_s_addresses_are_read_once_a_minute_not_on_every_host_reply(monkeypatch):
    reads = []
    monkeypatch.setattr(lan, "_read", None)
    monkeypatch.setattr(lan.psutil, "net_if_addrs", lambda: reads.append(1) or INTERFACES)
    monkeypatch.setattr(lan.psutil, "net_if_stats", lambda: STATS)
    first = lan.candidates()
    assert lan.candidates() == first and len(reads) == 1
    first.clear()  # a caller changing its list doesn't change the next caller's
    assert lan.candidates() and len(reads) == 1
    monkeypatch.setattr(lan, "READ_EVERY", -1.0)  # a minute later: read again (a laptop may have changed Wi-Fi)
    lan.candidates()
    assert len(reads) == 2
