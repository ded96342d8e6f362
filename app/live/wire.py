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

LEVEL = 1  # about a quarter bigger than level 6 would make it, for a quarter of the CPU

GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # deflate, no name, no time, unknown OS


def event(name: str, data: str, ident: int | None = None) -> str:
    """One server-sent event; every line of a multi-line HTML region gets its own `data:` (a carriage return ends a
    line too, for the browser), and the browser joins them again with line breaks."""
    return event_bytes(name, data.encode(), ident).decode()


def event_bytes(name: str, data: bytes, ident: int | None = None) -> bytes:
    """`event`, on UTF-8: a region holds a minus sign or an ellipsis, which makes its text twice as wide as its bytes,
    so its line breaks are found faster in its bytes."""
    head = f"event: {name}\n".encode() + (b"id: %d\n" % ident if ident is not None else b"")
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return b"%sdata: %s\n\n" % (head, data.replace(b"\n", b"\ndata: "))


def deflate(raw: bytes) -> bytes:
    """Raw deflate blocks for `raw`, byte-aligned and not final, that may follow any earlier blocks."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(raw) + compressor.flush(zlib.Z_SYNC_FLUSH)


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
