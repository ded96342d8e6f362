"""Security by default: a strict CSP on every page, no inline script or style anywhere, escaped output."""

import re
from pathlib import Path

from app.security import CONTENT_SECURITY_POLICY
from tests.conftest import bearer, create_via_api, csrf_token, snapshot
from tests.history.history import export_file, upload

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


def test_every_page_sends_a_strict_content_security_policy(client):
    for url in ("/", "/new/directors-cut", "/no-such-page"):
        headers = client.get(url).headers
        assert headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"  # the join key never leaks in a Referer
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "'unsafe-eval'" not in CONTENT_SECURITY_POLICY
    assert "script-src 'self'" in CONTENT_SECURITY_POLICY and "frame-ancestors 'none'" in CONTENT_SECURITY_POLICY


def test_templates_have_no_inline_scripts_styles_or_event_handlers():
    for path in TEMPLATES.rglob("*.html"):
        source = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", source):
            assert "src=" in tag, f"inline script in {path.name}"
        assert "<style" not in source, path.name
        assert not re.search(r"\sstyle=", source), path.name
        assert not re.search(r"\son[a-z]+=", source), path.name
        assert "|safe" not in source or path.name in ("host.html", "_board_live.html"), path.name  # the QR's SVG


def test_htmx_is_served_locally_and_configured_for_the_csp(client):
    page = client.get("/").get_data(as_text=True)
    bundle = re.search(r'<script src="(/static/js/app\.[0-9a-f]{10}\.js)" defer></script>', page)
    assert bundle, "htmx comes in the app.js bundle (static_files.BUNDLES)"
    vendored = client.get("/static/vendor/htmx-2.0.11/htmx.min.js").get_data()
    assert client.get(bundle.group(1)).get_data().startswith(vendored)  # as released, first in the bundle
    assert '"includeIndicatorStyles": false' in page and '"allowEval": false' in page
    assert "http://" not in page.split("<main")[0] and "https://" not in page.split("<main")[0]
    assert client.get("/static/vendor/htmx-2.0.11/htmx.min.js").status_code == 200


def test_pages_post_a_csrf_token_with_every_htmx_request(client):
    assert re.search(r"hx-headers='\{\"X-CSRFToken\": \"[^\"]+\"\}'", client.get("/").get_data(as_text=True))


def test_the_seat_cookie_is_signed_and_http_only(client):
    table = create_via_api(client, "flipside")
    phone_page = client.get(f"/j/{table['code']}?k={table['join_key']}")
    token = phone_page.get_data(as_text=True).split('name="csrf_token" value="')[1].split('"')[0]
    response = client.post(f"/j/{table['code']}", data={"csrf_token": token, "k": table["join_key"], "name": "Ann"})
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("nightshift=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    client.set_cookie("nightshift", "forged.value.here")
    assert client.get(f"/t/{table['code']}/seat").status_code == 403


def test_tokens_are_stored_only_as_hashes(client, app):
    from app.extensions import db
    from app.models import Seat, Table

    table = create_via_api(client, "flipside")
    seat = client.post(f"/api/tables/{table['code']}/join", json={"name": "Ann", "key": table["join_key"]}).get_json()
    with app.app_context():
        stored = db.session.scalar(db.select(Table))
        assert table["host_token"] not in repr(stored.__dict__)
        assert stored.host_token_hash != table["host_token"] and len(stored.host_token_hash) == 64
        seat_row = db.session.scalar(db.select(Seat).where(Seat.player_name == "Ann"))
        assert seat_row.token_hash != seat["seat_token"] and len(seat_row.token_hash) == 64


def test_nothing_but_static_files_may_be_kept_by_a_cache(client, app):
    """qr.svg and qr.png carry the join key; a table's JSON, the plays and the exports are private too."""
    table = create_via_api(client, "tracker", {"players": 2})
    assert upload(client, export_file()).status_code == 303
    host = bearer(table["host_token"])
    code = table["code"]
    uid = client.get("/api/plays").get_json()["plays"][0]["id"]
    for url in (f"/t/{code}/qr.svg", f"/t/{code}/qr.png", f"/api/tables/{code}", f"/api/tables/{code}/log",
                "/api/plays", f"/api/plays/{uid}", "/api/stats", "/history/export.csv", "/history/export.json",
                "/history/export.bgstats.json", f"/history/plays/{uid}/play.csv", f"/history/plays/{uid}/play.json",
                f"/history/plays/{uid}/bgstats.json", "/", "/healthz"):
        response = client.get(url, headers=host)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "no-store", url
    page = client.get("/").get_data(as_text=True)
    script = re.search(r'src="(/static/js/app\.[^"]+)"', page).group(1)
    assert "immutable" in client.get(script).headers["Cache-Control"]


def test_a_post_from_another_sites_page_is_refused_even_with_a_valid_csrf_token(client, app):
    table = create_via_api(client, "tracker", {"players": 2})
    url = f"/j/{table['code']}"
    before = snapshot(app)
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null", "Referer": "http://evil.example/page"},
                    {"Referer": "https://localhost.evil.example/"}):
        token = csrf_token(client, f"{url}?k={table['join_key']}")
        refused = client.post(url, data={"csrf_token": token, "k": table["join_key"], "name": "Mallory"},
                              headers=headers)
        assert refused.status_code == 403, headers
        assert "sent from another website" in refused.get_data(as_text=True)
        assert snapshot(app) == before
    assert client.post(f"/api/tables/{table['code']}/end", headers={"Origin": "http://evil.example",
                                                                     "Authorization": "Bearer x"}).status_code == 403
    # Night Shift's own pages: the same origin, or "null" and no Referer (what no-referrer makes browsers send)
    for n, headers in enumerate(({"Origin": "http://localhost"}, {"Origin": "null"}, {},
                                 {"Referer": "http://localhost/j/x"}, {"Origin": "http://192.168.1.50:8000"})):
        phone = app.test_client()
        token = csrf_token(phone, f"{url}?k={table['join_key']}")
        joined = phone.post(url, data={"csrf_token": token, "k": table["join_key"], "name": f"Ann {n}",
                                       "watch": "1"}, headers=headers)
        assert joined.status_code == 303, headers
