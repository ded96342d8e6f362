"""The stream's framing: server-sent events and the gzip blocks shared by every stream (app/live/wire.py)."""

import zlib

from app.live import wire


def test_every_line_of_a_region_is_a_data_line_whichever_line_break_it_uses():
    region = '<section id="live">\n  <p>Doom 3</p>\r\n  <p>Round\r2</p>\n'
    sent = wire.event("live", region, 7)
    assert sent == ('event: live\nid: 7\ndata: <section id="live">\ndata:   <p>Doom 3</p>\ndata:   <p>Round\n'
                    "data: 2</p>\ndata: \n\n")
    assert wire.event("beat", "") == "event: beat\ndata: \n\n"


def test_regions_deflated_once_each_follow_one_another_in_one_gzip_stream():
    """Each region is deflated once for all its streams; a browser's inflater reads the blocks as one gzip stream."""
    stream = wire.GzipStream()
    events = [wire.event("live", f"<p>{'x' * n}</p>\n" * 40, n) for n in (3, 30, 300)]
    body = stream.text(": hello\n\n")
    for event in events:
        raw = event.encode()
        body += stream.shared(raw, wire.deflate(raw))
    body += stream.end()
    assert zlib.decompress(body, 16 + zlib.MAX_WBITS).decode() == ": hello\n\n" + "".join(events)
