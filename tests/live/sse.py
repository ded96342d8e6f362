"""A tiny server-sent events reader for tests: connect, then wait for the next event with a deadline."""

from __future__ import annotations

import http.client
import time
from urllib.parse import urlsplit


class EventStream:
    """An open `text/event-stream`; `next_event` returns (event, id, data) or raises TimeoutError."""

    def __init__(self, url: str, token: str | None = None, last_event_id: str | None = None, timeout: float = 10,
                 source: str | None = None):
        """`source` is the local address to connect from (127.0.0.2 plays a phone on the Wi-Fi, not the host)."""
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout,
                                                     source_address=(source, 0) if source else None)
        headers = {"Accept": "text/event-stream"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        if last_event_id:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""), headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.comments: list[str] = []

    def next_event(self, timeout: float = 10) -> tuple[str, str, str]:
        """The next named event (comments and pings are kept in `comments`), within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        event, ident, data = "message", "", []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no event in time")
            self.connection.sock.settimeout(remaining)
            try:
                line = self.response.readline()
            except TimeoutError:
                raise TimeoutError("no event in time") from None
            if not line:
                raise ConnectionError("the stream closed")
            line = line.decode().rstrip("\r\n")
            if line.startswith(":"):
                self.comments.append(line[1:].strip())
            elif line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("id:"):
                ident = line[3:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
            elif line == "" and (data or ident):
                return event, ident, "\n".join(data)

    def wait_for(self, name: str, timeout: float = 10) -> tuple[str, str]:
        """Skip other events until `name` arrives; return its (id, data)."""
        deadline = time.monotonic() + timeout
        while True:
            event, ident, data = self.next_event(max(0.01, deadline - time.monotonic()))
            if event == name:
                return ident, data

    def close(self) -> None:
        self.connection.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
