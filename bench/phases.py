"""Where a move's propagation goes: Night Shift served as the README serves it, noting when each drawing is made and
when each region is handed to its stream, for `bench/live.py --phases`.

    python bench/phases.py NOTES_FILE [nightshift's own arguments]

Each worker appends one line per event to NOTES_FILE: `<unix time> <pid> drawn <code> <version> <table key>
<began>` when a drawing (begun at unix time `<began>`) is handed to the table's streams, and `<unix time> <pid> push
<table key> <version>` when a stream takes its region to send (the bytes follow at once). `<table key>` is the
table's lowest seat id: a stream's picture names its seats, not its code. Nothing in app/ changes: the
two functions are wrapped as each worker builds the app, after gunicorn's gevent worker has patched the standard
library. The notes cost a write each (about 15 a move), so a run with --phases measures where the time goes, not
the CPU a move costs.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def table_key(picture) -> int:
    """The lowest seat id of a drawing's table: what a stream's picture names it by (it holds no code)."""
    return min(picture.seats, default=0)


ORIGINAL: dict[str, object] = {}  # the unwrapped push: the parent builds the app too, before it forks


def install(notes: Path, app) -> None:
    """Wrap the drawing and the push of this process (a gunicorn worker) so that each notes when it happens."""
    from app.live import routes

    descriptor = os.open(notes, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    pid = os.getpid()

    def note(*words) -> None:
        os.write(descriptor, " ".join((f"{time.time():.6f}", str(pid), *map(str, words))).encode() + b"\n")

    draw = app.extensions["nightshift.draw"]
    pushed = ORIGINAL.setdefault("live_event", routes.live_event)

    def noted_draw(code, kinds):
        began = f"{time.time():.6f}"
        drawn = draw(code, kinds)
        note("drawn", code, drawn.version, table_key(drawn), began)
        return drawn

    def noted_pushed(picture, kind, gzipped):
        note("push", table_key(picture), picture.version)
        return pushed(picture, kind, gzipped)

    app.extensions["nightshift.draw"], routes.live_event = noted_draw, noted_pushed


def read_notes(notes: Path) -> tuple[dict[tuple[str, int], tuple[float, float]], dict[tuple[str, int], float]]:
    """(code, version) -> (when the last process to hand its drawing over began it, and handed it over), and when the
    last stream took its region."""
    lines = [line.split() for line in notes.read_text().splitlines()] if notes.exists() else []
    codes = {int(words[5]): words[3] for words in lines if len(words) == 7 and words[2] == "drawn"}
    drawn: dict[tuple[str, int], tuple[float, float]] = {}
    pushed: dict[tuple[str, int], float] = {}
    for words in lines:
        if len(words) == 7 and words[2] == "drawn":
            key = (words[3], int(words[4]))
            drawn[key] = max(drawn.get(key, (0.0, 0.0)), (float(words[6]), float(words[0])), key=lambda pair: pair[1])
        elif len(words) == 5 and words[2] == "push" and int(words[3]) in codes:
            key = (codes[int(words[3])], int(words[4]))
            pushed[key] = max(pushed.get(key, 0.0), float(words[0]))
    return drawn, pushed


def serve(notes: Path, argv: list[str]) -> None:
    import app

    build = app.create_app

    def create_app(*args, **kwargs):
        built = build(*args, **kwargs)
        install(notes, built)
        return built

    app.create_app = create_app  # what gunicorn's worker calls (app/cli.py), after gevent has patched it
    from app.cli import main

    main(argv)


if __name__ == "__main__":
    serve(Path(sys.argv[1]), sys.argv[2:])
