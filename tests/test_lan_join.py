"""The QR code works from another device on the LAN: a host and a phone in network namespaces of our own.

The server runs in a namespace whose only network is a veth 'Wi-Fi' (10.99.0.1); it reads its LAN address from its
interfaces as it would on a laptop. A 'phone' namespace at 10.99.0.2 decodes the QR PNG and joins through it. No
packet leaves this machine: both ends are test hosts made here and deleted afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
from contextlib import contextmanager

import pytest

from tests.conftest import IN_CI
from tests.server import ROOT

HOST_IP, PHONE_IP, PORT = "10.99.0.1", "10.99.0.2", 8000


def sh(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def in_namespace(namespace: str, script: str, *args: str, timeout: float = 30) -> str:
    """Run a Python snippet inside a namespace and return what it printed."""
    result = subprocess.run(["ip", "netns", "exec", namespace, sys.executable, "-c", textwrap.dedent(script), *args],
                            capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    return result.stdout


@contextmanager
def lan():
    """Two namespaces joined by a veth pair: the host's 'wlan' and the phone's."""
    suffix = uuid.uuid4().hex[:6]
    host, phone = f"nshost{suffix}", f"nsphone{suffix}"
    try:
        sh("ip", "netns", "add", host)
        sh("ip", "netns", "add", phone)
        sh("ip", "link", "add", f"wlan{suffix}", "type", "veth", "peer", "name", f"wlp{suffix}")
        sh("ip", "link", "set", f"wlan{suffix}", "netns", host)
        sh("ip", "link", "set", f"wlp{suffix}", "netns", phone)
        for namespace, device, address in ((host, f"wlan{suffix}", HOST_IP), (phone, f"wlp{suffix}", PHONE_IP)):
            sh("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", device)
            sh("ip", "-n", namespace, "link", "set", device, "up")
            sh("ip", "-n", namespace, "link", "set", "lo", "up")
        yield host, phone
    finally:
        for namespace in (host, phone):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def can_make_namespaces() -> bool:
    if os.geteuid() != 0 or not shutil.which("ip"):
        return False
    probe = f"nsprobe{uuid.uuid4().hex[:6]}"
    made = subprocess.run(["ip", "netns", "add", probe], capture_output=True).returncode == 0
    subprocess.run(["ip", "netns", "del", probe], capture_output=True)
    return made


def test_a_phone_on_the_lan_joins_through_the_qr_code(tmp_path):
    if not can_make_namespaces():
        if IN_CI:
            pytest.fail("CI runs as root with iproute2: network namespaces must work there")
        pytest.skip("needs root and iproute2 to make network namespaces")
    env = {key: value for key, value in os.environ.items() if not key.startswith("NIGHTSHIFT_")}
    env["NIGHTSHIFT_INSTANCE_PATH"] = str(tmp_path / "instance")  # SQLite: the namespace can't see other services
    with lan() as (host, phone):
        server = subprocess.Popen(["ip", "netns", "exec", host, sys.executable, "-m", "app", "--port", str(PORT)],
                                  cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            created = in_namespace(host, """
                import json, sys, time, urllib.request
                for _ in range(150):
                    try:
                        urllib.request.urlopen("http://127.0.0.1:8000/", timeout=1); break
                    except OSError:
                        time.sleep(0.2)
                body = json.dumps({"game": "flipside", "options": {"players": 2}}).encode()
                request = urllib.request.Request("http://127.0.0.1:8000/api/tables", body,
                                                 {"Content-Type": "application/json"})
                table = json.loads(urllib.request.urlopen(request, timeout=10).read())
                qr = urllib.request.Request(f"http://127.0.0.1:8000/t/{table['code']}/qr.png",
                                            headers={"Authorization": "Bearer " + table["host_token"]})
                open(sys.argv[1], "wb").write(urllib.request.urlopen(qr, timeout=10).read())
                print(json.dumps(table))
            """, str(tmp_path / "qr.png"))
            table = json.loads(created)
            assert table["join_url"] == f"http://{HOST_IP}:{PORT}/j/{table['code']}?k={table['join_key']}"

            seat_page = in_namespace(phone, """
                import http.cookiejar, re, sys, urllib.parse, urllib.request
                import zxingcpp
                from PIL import Image
                url = zxingcpp.read_barcodes(Image.open(sys.argv[1]))[0].text
                phone = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
                page = phone.open(url, timeout=10).read().decode()
                token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
                key = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["k"][0]
                form = urllib.parse.urlencode({"csrf_token": token, "k": key, "name": "Lan Phone", "seat": "2"})
                answer = phone.open(url.split("?")[0], form.encode(), timeout=10)
                print(answer.geturl())
                print(answer.read().decode())
            """, str(tmp_path / "qr.png"))
            final_url, _, html = seat_page.partition("\n")
            assert final_url == f"http://{HOST_IP}:{PORT}/t/{table['code']}/seats/2"
            assert "Lan Phone" in html and "Player 2" in html
        finally:
            server.terminate()
            try:
                output, _ = server.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                output, _ = server.communicate()
            time.sleep(0.1)
        assert f"Phones on the same Wi-Fi:    http://{HOST_IP}:{PORT}/" in output, output
