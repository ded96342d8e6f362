"""Where a worker's CPU went under bench/live.py's load, from py-spy's raw profiles: the README's shares.

    .venv/bin/pip install py-spy        # not a dependency of the app or its tests
    .venv/bin/python bench/live.py --tables 143 --phones 6 --actions 700 --rate 10 \
        --no-bare --paced-writes 0 --burst 0 &
    # once its streams are open: the worker is the child of `python -m app --host 127.0.0.1 ...`
    .venv/bin/py-spy record --pid WORKER --duration 40 --rate 250 --format raw --nonblocking -o one.raw
    .venv/bin/python bench/profile_shares.py one.raw [two.raw ...]

Each sample (a stack, as py-spy's raw format writes it: frames joined by ";", then the count) goes to the first of:
- drawing: the stack passes through `screens.draw`, or through a template outside any request (py-spy sometimes
  loses a greenlet's outer frames; only drawings render outside a request);
- events: the stream's generator, `app/live/wire.py`, or gunicorn writing a response body (pushed regions and
  heartbeats alike: their writes share one stack);
- request: any other Flask request but a stream's opening, which under this load is the move (`act`) with Flask and
  its extensions around it;
- rest: gevent's loop, gunicorn reading requests, timers, and streams opening (when the profile starts early).
It prints each profile's shares and, for several, the range of each.
"""

from __future__ import annotations

import sys
from collections import Counter

SHARES = ("drawing", "events", "request", "rest")


def classify(stack: str) -> str:
    """The share a sampled stack counts towards."""
    if "draw (app/tables/screens.py" in stack:
        return "drawing"
    in_request = "Flask.wsgi_app" in stack or "Flask.__call__" in stack
    if not in_request and ("(templates/" in stack or "jinja2/" in stack):
        return "drawing"
    if any(mark in stack for mark in ("events.<locals>.stream", "region_stream", "app/live/wire.py",
                                      "Response.write", "_emit_body", "__send_chunk", "_sendall")):
        return "events"
    return "request" if in_request and "events (app/live/routes.py" not in stack else "rest"


def shares(path: str) -> tuple[int, dict[str, float]]:
    """Samples in a raw profile, and each share's percentage of them."""
    counted: Counter[str] = Counter()
    with open(path, encoding="utf-8", errors="replace") as profile:
        for line in profile:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if count.isdigit():  # py-spy leaves a line it could not finish without a count
                counted[classify(stack)] += int(count)
    total = sum(counted.values()) or 1
    return total, {share: 100 * counted[share] / total for share in SHARES}


def main(paths: list[str]) -> None:
    if not paths:
        sys.exit(__doc__)
    seen: dict[str, list[float]] = {share: [] for share in SHARES}
    for path in paths:
        total, found = shares(path)
        print(f"{path}: {total} samples, " + ", ".join(f"{share} {found[share]:.1f}%" for share in SHARES))
        for share in SHARES:
            seen[share].append(found[share])
    if len(paths) > 1:
        print("range: " + ", ".join(f"{share} {min(values):.0f}-{max(values):.0f}%" for share, values in seen.items()))


if __name__ == "__main__":
    main(sys.argv[1:])
