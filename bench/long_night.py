"""Whether a long night costs more to draw: each game's screens on a table with thousands of log entries, against the
same game's screens on a fresh table, timed side by side in one run.

    .venv/bin/python bench/long_night.py [--entries 5000] [--repeat 100] [--games tracker,survive-6am]

In process (Flask's test client, SQLite in a temp dir), so it measures our code, not the network. For each game two
tables with every seat taken and the same first 10 moves the rules offer (a seeded RNG): the *fresh* one stops there;
the *long* one goes on with moves the rules offer until its log holds `--entries` entries (once a game is over, the
host's undo and redo of its last move, which leave it where it stands). Then, interleaved ten at a time so the
machine's noise hits both alike:

- `console`: the host's whole page (GET /t/CODE), what a host's browser loads;
- `host`: the host screen's live region;
- `board`: the TV board's live region;
- `phone`: seat 1's live region.

It prints p50 in milliseconds for each and the ratio long / fresh (1.00x: the log's length costs nothing). See
bench/README.md.
"""

from __future__ import annotations

import argparse
import copy
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from app.database import upgrade_database  # noqa: E402
from app.games import REGISTRY  # noqa: E402
from bench.games import complete, pct, seat_everyone, timed  # noqa: E402

FIRST_MOVES = 10


def offered(client, table: dict, tokens: list[str], rng: random.Random) -> tuple[dict, str] | None:
    """One complete move the rules offer someone now (host or a seat), with the token that makes it."""
    for _ in range(20):
        seat = rng.choice([None, *range(1, len(tokens) + 1)])
        token = table["host_token"] if seat is None else tokens[seat - 1]
        view = client.get(f"/api/tables/{table['code']}", headers={"Authorization": f"Bearer {token}"}).get_json()
        moves = [move for move in view["view"].get("moves", []) if complete(move)]
        if moves:
            return copy.deepcopy(rng.choice(moves)), token
    return None


def move(client, table: dict, tokens: list[str], rng: random.Random) -> bool:
    found = offered(client, table, tokens, rng)
    if found is None:
        return False
    action, token = found
    action.pop("seat", None)
    response = client.post(f"/api/tables/{table['code']}/actions", json=action,
                           headers={"Authorization": f"Bearer {token}"})
    return response.status_code == 200


def table_of(client, slug: str, entries: int, seed: int) -> tuple[dict, list[str], int]:
    """A table of `slug` after the first moves, grown to `entries` log entries by move-and-undo pairs."""
    spec = REGISTRY[slug]
    table = client.post("/api/tables", json={"game": slug, "options": {}}).get_json()
    tokens = seat_everyone(client, table, len(spec.configure({})[1]))
    rng = random.Random(seed)
    for _ in range(FIRST_MOVES):
        move(client, table, tokens, rng)
    host = {"Authorization": f"Bearer {table['host_token']}"}
    grown = client.get(f"/api/tables/{table['code']}", headers=host).get_json()["version"]
    while grown < entries:
        if move(client, table, tokens, rng):
            grown += 1
            continue
        # The game is over or waits on something no one is offered: the host's undo and redo of the last move grow
        # the log and leave the game where it stands.
        for step in ("undo", "redo"):
            answer = client.post(f"/api/tables/{table['code']}/{step}", json={}, headers=host)
            assert answer.status_code == 200, answer.get_json()
        grown += 2
    return table, tokens, grown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=5000, help="log entries on the long table (default 5000)")
    parser.add_argument("--repeat", type=int, default=100, help="timed requests per figure (default 100)")
    parser.add_argument("--games", default=",".join(REGISTRY), help="comma-separated game slugs (default: all)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    games = [slug for slug in args.games.split(",") if slug]
    unknown = [slug for slug in games if slug not in REGISTRY]
    if unknown or not 10 <= args.repeat <= 2000 or not 100 <= args.entries <= 20000:
        parser.error(f"unknown games {unknown}" if unknown else "--repeat is 10-2000 and --entries 100-20000")

    folder = Path(tempfile.mkdtemp(prefix="nightshift-bench-"))
    rows = []
    try:
        app = create_app({"TESTING": True, "INSTANCE_PATH": folder / "instance",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.db'}",
                          "PUBLIC_URL": "http://192.168.1.50:8000", "RATELIMIT_ENABLED": False})
        upgrade_database(app)
        with app.app_context():
            client = app.test_client()
            for slug in games:
                started = time.monotonic()
                fresh, fresh_tokens, _ = table_of(client, slug, 0, args.seed)
                long, long_tokens, grown = table_of(client, slug, args.entries, args.seed)
                figures = {}
                for label, (table, tokens) in (("fresh", (fresh, fresh_tokens)), ("long", (long, long_tokens))):
                    code, host = table["code"], {"Authorization": f"Bearer {table['host_token']}"}
                    phone = {"Authorization": f"Bearer {tokens[0]}"}
                    figures[label] = {
                        "console": lambda code=code, host=host: client.get(f"/t/{code}", headers=host),
                        "host": lambda code=code, host=host: client.get(f"/t/{code}/live", headers=host),
                        "board": lambda code=code, host=host: client.get(f"/t/{code}/live?screen=board",
                                                                         headers=host),
                        "phone": lambda code=code, phone=phone: client.get(f"/t/{code}/live", headers=phone),
                    }
                samples = {(label, name): [] for label in figures for name in figures[label]}
                for _ in range(args.repeat // 10):
                    for (label, name) in samples:
                        samples[(label, name)] += timed(figures[label][name], 10)
                rows.append((slug, grown, {key: pct(values, 50) for key, values in samples.items()},
                             time.monotonic() - started))
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    names = ("console", "host", "board", "phone")
    print(f"Night Shift long-night benchmark: {args.repeat} timed requests per figure; p50 ms fresh -> long, and "
          f"long / fresh")
    print(f"{'game':<16}{'entries':>8}" + "".join(f"{name:>26}" for name in names))
    for slug, grown, p50, _ in rows:
        line = f"{slug:<16}{grown:>8}"
        for name in names:
            fresh, long = p50[("fresh", name)], p50[("long", name)]
            line += f"{fresh * 1000:>9.2f} -> {long * 1000:>6.2f} ({long / fresh:4.2f}x)"
        print(line)


if __name__ == "__main__":
    main()
