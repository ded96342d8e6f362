"""Pages, live regions, streams and static files leave compressed; static files carry versioned names cached a year."""

import gzip
import re
import zlib

import brotli

from tests.conftest import bearer, create_via_api, join_via_api

STATIC = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def test_pages_regions_and_json_are_compressed_for_browsers_that_accept_it(client):
    table = create_via_api(client, "tracker", {"players": 2})
    seat = join_via_api(client, table, "Ann")
    page = client.get("/", headers={"Accept-Encoding": "br, gzip"})
    assert page.headers["Content-Encoding"] == "br" and "Accept-Encoding" in page.headers["Vary"]
    assert b"Night Shift" in brotli.decompress(page.data)
    region = client.get(f"/t/{table['code']}/live", headers={"Accept-Encoding": "gzip"} | bearer(seat["seat_token"]))
    assert region.headers["Content-Encoding"] == "gzip"
    assert b'id="live"' in gzip.decompress(region.data)
    api = client.get(f"/api/tables/{table['code']}", headers={"Accept-Encoding": "gzip"} | bearer(table["host_token"]))
    assert api.headers["Content-Encoding"] == "gzip"
    plain = client.get("/")
    assert "Content-Encoding" not in plain.headers and b"Night Shift" in plain.data


def test_static_files_have_versioned_names_cached_for_a_year_and_are_compressed(client):
    page = client.get("/").get_data(as_text=True)
    linked = STATIC.findall(page)
    assert linked and all(re.search(r"\.[0-9a-f]{10}\.(css|js)$", url) for url in linked), linked
    for url in linked:
        answer = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
        assert answer.status_code == 200
        assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert answer.headers["Content-Encoding"] == "br"
        plain = client.get(url)
        assert brotli.decompress(answer.data) == plain.data
        again = client.get(url, headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304
    js = next(url for url in linked if url.endswith(".js"))
    assert client.get(js, headers={"Accept-Encoding": "gzip"}).headers["Content-Encoding"] == "gzip"
    # An unversioned or outdated name still works, but is checked again every time.
    for url in ("/static/css/app.css", "/static/css/app.0123456789.css"):
        answer = client.get(url)
        assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-cache"
    assert client.get("/static/css/nothing.css").status_code == 404
    assert client.get("/static/../app/__init__.py").status_code == 404


def test_the_stream_and_morph_extensions_load_only_on_pages_with_a_live_region(client):
    table = create_via_api(client, "tracker", {"players": 1})
    assert "live-extensions" not in client.get("/").get_data(as_text=True)
    host = client.get(f"/t/{table['code']}", headers=bearer(table["host_token"])).get_data(as_text=True)
    assert re.search(r'<script src="/static/js/live-extensions\.[0-9a-f]{10}\.js" defer>', host)
    bundle = client.get(re.search(r'/static/js/live-extensions\.[0-9a-f]{10}\.js', host).group(0)).data
    assert b"defineExtension('sse'" in bundle and b"Idiomorph" in bundle


def test_a_pages_stream_is_gzipped_once_per_change_and_reads_back_as_events(app, client):
    app.config["LIVE_BEAT_SECONDS"] = 0.2
    table = create_via_api(client, "tracker", {"players": 1})
    seat = join_via_api(client, table, "Ann")
    stream = client.get(f"/t/{table['code']}/events?region=1&v=1", buffered=False,
                        headers={"Accept-Encoding": "gzip"} | bearer(seat["seat_token"]))
    assert stream.headers["Content-Encoding"] == "gzip"
    reader, text = zlib.decompressobj(wbits=31), ""
    chunks = iter(stream.response)
    try:
        while "event: beat" not in text:
            text += reader.decompress(next(chunks)).decode()
    finally:
        stream.close()
    assert text.startswith("retry: 2000\n: connected to table")
    assert "event: live\nid: 2\ndata: <section id=\"live\"" in text and 'data-version="2"' in text


def test_an_encoding_the_client_refuses_with_q_0_is_not_used(app, client):
    """`gzip;q=0` says "not gzip": the static server and the stream looked for the word and gzipped anyway."""
    url = STATIC.findall(client.get("/").get_data(as_text=True))[0]
    assert "Content-Encoding" not in client.get(url, headers={"Accept-Encoding": "gzip;q=0"}).headers
    assert client.get(url, headers={"Accept-Encoding": "br;q=0, gzip"}).headers["Content-Encoding"] == "gzip"
    table = create_via_api(client, "tracker", {"players": 1})
    seat = join_via_api(client, table, "Ann")
    stream = client.get(f"/t/{table['code']}/events?region=1&v=1", buffered=False,
                        headers={"Accept-Encoding": "gzip;q=0"} | bearer(seat["seat_token"]))
    try:
        assert "Content-Encoding" not in stream.headers
        assert next(iter(stream.response)).startswith(b"retry: 2000")
    finally:
        stream.close()


def test_pages_and_json_honour_an_encoding_refused_with_q_0(client):
    """Flask-Compress's own parser kept `gzip;q=0` as a choice: pages and JSON went out in the refused coding."""
    table = create_via_api(client, "tracker", {"players": 1})
    api_url, token = f"/api/tables/{table['code']}", bearer(table["host_token"])
    for url, headers in (("/", {}), (api_url, token)):
        def get(accept, url=url, headers=headers):
            return client.get(url, headers={"Accept-Encoding": accept} | headers)

        for refused in ("gzip;q=0", "br;q=0, gzip;q=0", "*;q=0", "identity, *;q=0", "*, br;q=0, gzip;q=0"):
            answer = get(refused)
            assert answer.status_code == 200 and "Content-Encoding" not in answer.headers, (url, refused)
            assert "Accept-Encoding" in answer.headers["Vary"]
        assert get("br;q=0, gzip").headers["Content-Encoding"] == "gzip"
        assert get("gzip, br;q=0").headers["Content-Encoding"] == "gzip"
        assert get("BR;Q=0, gzip").headers["Content-Encoding"] == "gzip"
        assert get("*, br;q=0").headers["Content-Encoding"] == "gzip"
        # Among what the client accepts, Flask-Compress's order of preference still holds: br before gzip.
        assert get("gzip, br").headers["Content-Encoding"] == "br"
        assert get("*").headers["Content-Encoding"] == "br"
        answer = get("gzip;q=0.5, br;q=0")
        assert answer.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in answer.headers["Vary"]
        assert gzip.decompress(answer.data) == client.get(url, headers=headers).data
