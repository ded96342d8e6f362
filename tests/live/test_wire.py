"""The stream's framing: server-sent events and the gzip blocks shared by every stream (app/live/wire.py)."""

import zlib

import pytest

from app.live import wire


def test_every_line_of_a_region_is_a_data_line_whichever_line_break_it_uses():
    region = '<section id="live">\n  <p>Doom 3</p>\r\n  <p>Round\r2</p>\n'
    sent = wire.event("live", region, 7)
    assert sent == ('event: live\nid: 7\ndata: <section id="live">\ndata:   <p>Doom 3</p>\ndata:   <p>Round\n'
                    "data: 2</p>\ndata: \n\n")
    assert wire.event("beat", "") == "event: beat\ndata: \n\n"


def test_a_pushed_region_is_one_data_line_its_line_breaks_spaces():
    """HTML shows a line break between tags or words as any other white space: the region goes as one line."""
    region = '<section id="live">\n<p>Doom \u2212 3</p>\r\n<p>Round\r2</p>\n'.encode()
    flat = wire.one_line(region)
    assert flat == '<section id="live"> <p>Doom \u2212 3</p>  <p>Round 2</p> '.encode()
    assert wire.live_event(flat, 7) == b"event: live\nid: 7\ndata: " + flat + b"\n\n"
    assert wire.live_event(flat, 7).decode() == wire.event("live", flat.decode(), 7)


@pytest.mark.parametrize("deflater", ["isal", "zlib"])
def test_regions_deflated_once_each_follow_one_another_in_one_gzip_stream(monkeypatch, deflater):
    """Whichever deflater made them (ISA-L where it is installed, zlib elsewhere), a browser's inflater reads them."""
    if deflater == "zlib":
        monkeypatch.setattr(wire, "_deflater", zlib)
        monkeypatch.setattr(wire, "LEVEL", 3)
    else:
        assert wire._deflater.__name__ == "isal.isal_zlib"  # installed with the app wherever it has a wheel
    stream = wire.GzipStream()
    events = [wire.event("live", f"<p>{'x' * n}</p>\n" * 40, n) for n in (3, 30, 300)]
    body = stream.text(": hello\n\n")
    for event in events:
        raw = event.encode()
        body += stream.shared(raw, wire.deflate(raw))
    body += stream.end()
    assert zlib.decompress(body, 16 + zlib.MAX_WBITS).decode() == ": hello\n\n" + "".join(events)


@pytest.mark.parametrize("deflater", ["isal", "zlib"])
def test_a_picture_for_another_process_is_squeezed_into_zlib_s_format_by_either_deflater(monkeypatch, deflater):
    """Pictures sent by NOTIFY are inflated by zlib at the other end, whichever deflater packed them."""
    if deflater == "zlib":
        monkeypatch.setattr(wire, "_deflater", zlib)
        monkeypatch.setattr(wire, "LEVEL", 3)
    regions = b"".join(b'<li class="seat seat-%d">Player %d <form action="/t/ABCDE/act">...</form></li>' % (n, n)
                       for n in range(200))
    squeezed = wire.squeezed(regions)
    assert zlib.decompressobj().decompress(squeezed, len(regions)) == regions
    assert len(squeezed) < len(regions) / 5
