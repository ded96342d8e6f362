"""What each game's live region costs: the fetch every phone makes after a table-changed signal, per game.

    .venv/bin/python bench/games.py [--repeat 200] [--moves 30] [--full]

In process (Flask's test client, SQLite in a temp dir), so it measures our code, not the network. For each game it
creates a table with the default options (with --full, every whole-number option that adds seats at its maximum: the
most phones the game seats, the biggest drawing), seats every player, plays up
to --moves moves that the game's own `legal_actions` offers (complete templates only, chosen by a seeded RNG), then
times, alternating so machine noise hits all alike:

- `healthz`: GET /healthz, bare Flask (the floor);
- `host`: the host screen's live region (GET /t/CODE/live), rendered in full;
- `phone`: seat 1's live region, rendered in full;
- `current`: seat 1's live region when its version is current (the 204 answer most refetches get);
- `rules`: one `rules.view` + `rules.outcome` of the current state, no web layer;
- `drawn`: what a pushed drawing costs per screen (app/tables/screens.py), for the host screen and every seat's phone
  drawn together from one snapshot (one render per screen; the phones share the seat list and log);
- `snapshot`: a drawing for no screen, per drawing: the table, its seats, its state and the log page loaded, nothing
  rendered. Every process that holds any of a table's screens pays this on every change before it draws one.

It prints p50/p95 in milliseconds and each figure's ratio to the generic tracker's (the baseline measured in the
same run). See bench/README.md.
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
from app.games.contract import Viewer  # noqa: E402
from app.games.options import IntOption, OptionError  # noqa: E402

BASELINE = "tracker"
FIGURES = ("healthz", "host", "phone", "current", "rules", "drawn", "snapshot")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def seat_everyone(client, table: dict, players: int) -> list[str]:
    tokens = []
    for number in range(1, players + 1):
        response = client.post(f"/api/tables/{table['code']}/join",
                               json={"name": f"Player{number}", "key": table["join_key"], "seat": number})
        assert response.status_code == 201, response.get_json()
        tokens.append(response.get_json()["seat_token"])
    return tokens


def complete(template: dict) -> bool:
    """A template the rules can take as is: nothing left for a person to type."""
    return all(value is not None for value in template.values())


def play(client, spec, table: dict, tokens: list[str], moves: int, rng: random.Random) -> int:
    """Up to `moves` moves the rules themselves offer; returns how many the server accepted."""
    rules, code, accepted = spec.rules, table["code"], 0
    for _ in range(moves * 4):
        if accepted >= moves:
            break
        seat = rng.choice([None, *range(1, len(tokens) + 1)])
        game_state = _state(table)
        if game_state is None or rules.outcome(game_state) is not None:
            break
        offers = [offer for offer in rules.legal_actions(game_state, seat) if complete(offer)] if game_state else []
        if not offers:
            continue
        action = copy.deepcopy(rng.choice(offers))
        action.pop("seat", None)
        token = table["host_token"] if seat is None else tokens[seat - 1]
        response = client.post(f"/api/tables/{code}/actions", json=action,
                               headers={"Authorization": f"Bearer {token}"})
        accepted += response.status_code == 200
    return accepted


def _state(table: dict) -> dict | None:
    from app.extensions import db
    from app.models import Table

    row = db.session.execute(db.select(Table).filter_by(code=table["code"])).scalar_one()
    db.session.expire(row)
    return copy.deepcopy(row.state)


def timed(function, repeat: int) -> list[float]:
    values = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        values.append(time.perf_counter() - start)
    return values


def most_seats(spec) -> dict:
    """The options that seat the most players: each whole-number option at its maximum where that adds seats."""
    chosen = {}
    for option in spec.options:
        if not isinstance(option, IntOption):
            continue
        trial = chosen | {option.key: option.maximum}
        try:
            if len(spec.configure(trial)[1]) > len(spec.configure(chosen)[1]):
                chosen = trial
        except OptionError:
            continue
    return chosen


def measure(client, slug: str, spec, args, rng: random.Random) -> tuple[int, int, int, dict]:
    """One game: a table with every seat taken, some moves, then the interleaved timings."""
    options = most_seats(spec) if args.full else {}
    created = client.post("/api/tables", json={"game": slug, "options": options})
    assert created.status_code == 201, (slug, created.get_json())
    table = created.get_json()
    players = len(spec.configure(options)[1])
    tokens = seat_everyone(client, table, players)
    played = play(client, spec, table, tokens, args.moves, rng)
    code = table["code"]
    host = {"Authorization": f"Bearer {table['host_token']}"}
    phone = {"Authorization": f"Bearer {tokens[0]}"}
    body = client.get(f"/t/{code}/live", headers=phone).get_data(as_text=True)
    version = body.split('data-version="', 1)[1].split('"', 1)[0]
    presence = body.split('data-presence="', 1)[1].split('"', 1)[0]
    current = f"/t/{code}/live?v={version}&p={presence}"
    state = _state(table)
    app = client.application
    every = {("host", None)} | {("seat", number) for number in range(1, players + 1)}

    def drawing(kinds: set):
        def draw():
            with app.test_request_context("/", base_url="http://localhost"):  # as a stream draws: a context of its own
                app.extensions["nightshift.draw"](code, kinds)
        return draw

    figures = {
        "healthz": lambda: client.get("/healthz"),
        "host": lambda: client.get(f"/t/{code}/live", headers=host),
        "phone": lambda: client.get(f"/t/{code}/live", headers=phone),
        "current": lambda: client.get(current, headers=phone),
        "rules": lambda: (spec.rules.view(state, Viewer.of_seat(1)), spec.rules.outcome(state)),
        "drawn": drawing(every),
        "snapshot": drawing(set()),
    }
    per = {"drawn": len(every)}  # a drawing's figures are per screen drawn
    samples: dict[str, list[float]] = {name: [] for name in figures}
    for _ in range(args.repeat // 10):  # interleave, ten at a time
        for name, function in figures.items():
            samples[name] += [value / per.get(name, 1) for value in timed(function, 10)]
    assert client.get(current, headers=phone).status_code == 204
    return players, played, len(body), {name: (pct(values, 50), pct(values, 95)) for name, values in samples.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=200, help="timed requests per figure (default 200)")
    parser.add_argument("--moves", type=int, default=30, help="moves played before timing (default 30)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--full", action="store_true", help="every game at the most players it seats")
    args = parser.parse_args()
    if not 10 <= args.repeat <= 5000 or not 0 <= args.moves <= 1000:
        parser.error("--repeat is 10-5000 and --moves 0-1000")

    folder = Path(tempfile.mkdtemp(prefix="nightshift-bench-"))
    try:
        app = create_app({"TESTING": True, "INSTANCE_PATH": folder / "instance",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.db'}",
                          "PUBLIC_URL": "http://192.168.1.50:8000"})
        upgrade_database(app)
        rng = random.Random(args.seed)
        rows = {}
        with app.app_context():
            client = app.test_client()
            for slug, spec in REGISTRY.items():
                rows[slug] = measure(client, slug, spec, args, rng)
    finally:
        shutil.rmtree(folder, ignore_errors=True)

    base = rows[BASELINE][3]
    print(f"Night Shift games benchmark: {args.repeat} timed requests per figure, after up to {args.moves} moves; "
          f"milliseconds p50/p95, (x) = p50 / the {BASELINE}'s p50 in this run")
    header = f"{'game':<18}{'seats':>6}{'moves':>6}{'KB':>6}"
    for name in FIGURES:
        header += f"{name:>22}"
    print(header)
    for slug, (players, played, size, figures) in rows.items():
        line = f"{slug:<18}{players:>6}{played:>6}{size / 1024:>6.1f}"
        for name in FIGURES:
            p50, p95 = figures[name]
            ratio = p50 / base[name][0] if base[name][0] else float("nan")
            line += f"{p50 * 1000:>9.2f}/{p95 * 1000:<6.2f}({ratio:4.1f}x)"
        print(line)


if __name__ == "__main__":
    main()
