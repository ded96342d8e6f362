"""Server-sent events on the wire, gzipped without a compressor per stream.

A pushed region is 5-16 KB and gzips to about a fifth. Keeping a zlib compressor open per stream would cost about
256 KB each (a quarter of a gigabyte at 1,000 phones), and compressing the same region once per phone would cost CPU.
Instead each region is deflated once per kind of screen by a fresh compressor and sync-flushed: such a run of deflate
blocks refers only to itself, so it can follow whatever the stream sent before. Every stream then sends the shared
bytes; small events (heartbeats) go as stored blocks. Each stream keeps only a running CRC-32 and length, for the
gzip trailer sent if the server ends the stream.
"""

from __future__ import annotations

import struct
import zlib

try:  # ISA-L's deflate: blocks any inflater reads, as small as zlib's at level 3 in about half its time
    from isal import isal_zlib as _deflater
    LEVEL = 1
except ImportError:  # a platform without its wheel (pyproject.toml installs it where one exists)
    _deflater = zlib  # type: ignore[assignment]
    LEVEL = 3  # a third bigger than level 6 would make it, for half the CPU

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown OS


def event(name: str, data: str, ident: int | None = None) -> str:
    """One server-sent event; every line of a multi-line HTML region gets its own `data:` (a carriage return ends a
    line too, for the browser). String replaces, not a list of lines: a region has hundreds of them."""
    head = f"event: {name}\n" + (f"id: {ident}\n" if ident is not None else "")
    body = data.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\ndata: ")
    return f"{head}data: {body}\n\n"


def one_line(html: bytes) -> bytes:
    """A region's HTML (UTF-8) on one line, so its event is one `data:` line: a line break between tags or words is
    white space like any other, and no screen has text whose line breaks show (no <pre>, <textarea> text, inline
    script or style, or `white-space: pre`, which tests/live/test_render_cost.py checks). A region's event is about a
    fifth shorter to encode and deflate. Bytes, not text: a region holds a few characters beyond Latin-1 (a minus
    sign, an ellipsis), which make every pass over its text twice as wide."""
    if b"\r" in html:
        html = html.replace(b"\r", b" ")
    return html.replace(b"\n", b" ")


def live_event(region: bytes, version: int) -> bytes:
    """A pushed region's `live` event: `region` is one line (`one_line`), so it is one `data:` line, framed as is."""
    return b"event: live\nid: %d\ndata: %s\n\n" % (version, region)


def deflate(raw: bytes) -> bytes:
    """Raw deflate blocks for `raw`, byte-aligned and not final, that may follow any earlier blocks."""
    compressor = _deflater.compressobj(LEVEL, _deflater.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(raw) + compressor.flush(_deflater.Z_SYNC_FLUSH)


def squeezed(data: bytes) -> bytes:
    """`data` in zlib's format (any inflater reads it), as fast as this platform deflates: ISA-L at level 1 takes a
    quarter of zlib's time at level 1 for a table's regions, and makes them no bigger."""
    return _deflater.compress(data, LEVEL)


def stored(raw: bytes) -> bytes:
    """`raw` as stored (uncompressed) deflate blocks: cheaper than compressing a few bytes."""
    out = bytearray()
    for start in range(0, len(raw), 65535):
        piece = raw[start:start + 65535]
        out += b"\x00" + struct.pack("<HH", len(piece), len(piece) ^ 0xFFFF) + piece
    return bytes(out)


class GzipStream:
    """One stream's gzip framing: the header first, then blocks, and the trailer if the server ends the stream."""

    def __init__(self) -> None:
        self.crc = 0
        self.size = 0
        self.started = False

    def _track(self, raw: bytes) -> bytes:
        self.crc = zlib.crc32(raw, self.crc)
        self.size += len(raw)
        if self.started:
            return b""
        self.started = True
        return GZIP_HEADER

    def text(self, raw: str) -> bytes:
        data = raw.encode()
        return self._track(data) + stored(data)

    def shared(self, raw: bytes, deflated: bytes) -> bytes:
        """An event deflated once for every stream that sends it (`deflated` = deflate(raw))."""
        return self._track(raw) + deflated

    def end(self) -> bytes:
        head = b"" if self.started else GZIP_HEADER
        self.started = True
        return head + b"\x01\x00\x00\xff\xff" + struct.pack("<II", self.crc, self.size & 0xFFFFFFFF)


class PlainStream:
    """The same interface without compression, for clients that don't accept gzip."""

    def text(self, raw: str) -> bytes:
        return raw.encode()

    def shared(self, raw: bytes, deflated: bytes) -> bytes:
        return raw

    def end(self) -> bytes:
        return b""
