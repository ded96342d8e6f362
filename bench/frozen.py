"""Never frozen: what one slow thing does to every other table on the real server, each case run --runs times (a
fresh server and database each) and reported as min / median / max, with the machine's load.

    .venv/bin/python bench/frozen.py locked [--hold 10]
    .venv/bin/python bench/frozen.py import [--plays 6000 --megabytes 7]
    .venv/bin/python bench/frozen.py soak [--minutes 30 --tables 143 --phones 6]

- locked: another process holds the SQLite file (BEGIN EXCLUSIVE) for --hold seconds. Meanwhile /healthz and a
  table's live region (a page) are asked every 50 ms (goal: each p95 under 100 ms) and a move is sent every 2 s, each
  to another table (goal: every one a 503 within 5 s, the table's version unchanged); once the file is free, a move
  must be saved.
- import: moves at --rate across the tables, every table's phones and host screen open, for --baseline seconds; then
  the same while the history page imports a file of --plays plays (about --megabytes MB). The propagation p95 of the
  moves committed while the import runs (goal: under 100 ms), beside the baseline's.
- soak: --tables x (--phones + host screen) streams (1,001 by default) at --rate moves a second for --minutes; the
  servers' resident memory every --sample seconds (goal: at the end, within 10% of its level after 5 minutes).

Moves, screens and the server are bench/live.py's (stdlib + psutil). See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import live  # noqa: E402 - bench/ is not a package: its scripts import each other from their folder

HOLD = """
import sqlite3, sys, time
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
connection.execute("ROLLBACK")
"""
SEATS = 2  # an imported play's seats: with its result padded, about 1.2 KB a play, as in the audit's file
PROBE_EVERY = 0.05  # seconds between a probe's requests while the file is held
GOAL_WAIT_P95_MS = 100.0
GOAL_BUSY_ANSWER_S = 5.0
GOAL_SOAK_GROWTH = 0.10
CSRF_RE = re.compile(rb'name="csrf_token" value="([^"]+)"')


# ---- the case's own figures ---------------------------------------------------------------------------------------


async def open_screens(bench: live.Bench) -> int:
    """bench/live.py's opening: every screen loads its live region, then opens its event stream; returns how many
    are open."""
    screens = [screen for table in bench.tables for screen in table.screens]
    wave = asyncio.Semaphore(64)

    async def page(screen):
        async with wave:
            await bench.load_page(screen)
    await asyncio.gather(*(page(screen) for screen in screens))
    for index, screen in enumerate(screens):
        screen.stream_task = asyncio.create_task(bench.stream(screen))
        if index % 50 == 49:
            await asyncio.sleep(0)
    try:
        await asyncio.wait_for(asyncio.gather(*(screen.connected.wait() for screen in screens)),
                               max(60.0, 0.3 * len(screens)))
    except TimeoutError:
        pass
    await asyncio.sleep(1.5)  # the seats' "connected" pushes settle
    for table in bench.tables:
        table.min_seen = min(screen.version for screen in table.screens)
        table.reached.clear()
    return sum(1 for screen in screens if screen.connected.is_set()) - len(bench.stream_drops)


async def moves_until(bench: live.Bench, rng: random.Random, rate: float, stop: asyncio.Event) -> None:
    """Moves as Poisson arrivals at `rate` a second across the tables (one in flight per table) until `stop`."""
    tasks: set[asyncio.Task] = set()
    freed = asyncio.Event()
    while not stop.is_set():
        try:
            await asyncio.wait_for(stop.wait(), rng.expovariate(rate))
        except TimeoutError:
            pass
        idle = [table for table in bench.tables if not table.busy]
        if stop.is_set() or not idle:
            continue
        table = rng.choice(idle)
        table.busy = True
        bench.moves_sent += 1
        task = asyncio.create_task(bench.move(table, rng, freed))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    if tasks:
        await asyncio.gather(*tasks)


async def probe(conn: live.Conn, path: str, headers: dict, stop: asyncio.Event, out: list[float], failed: list):
    """GET `path` every PROBE_EVERY seconds until `stop`: each answer's seconds, and any answer that wasn't a 200."""
    while not stop.is_set():
        started = time.perf_counter()
        status, _, _ = await conn.request("GET", path, headers)
        out.append(time.perf_counter() - started)
        if status != 200:
            failed.append(status)
        await asyncio.sleep(max(0.0, PROBE_EVERY - (time.perf_counter() - started)))


async def case_locked(args, bench: live.Bench, port: int, database: Path) -> dict:
    """/healthz, a page and moves while another process holds the SQLite file."""
    table = bench.tables[0]
    host = {"Authorization": f"Bearer {table.host_token}"}
    holder = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLD, str(database), str(args.hold),
                                                  stdout=subprocess.PIPE)
    await holder.stdout.readline()
    held_at = time.monotonic()
    stop = asyncio.Event()
    health, page, failed = [], [], []
    probes = [asyncio.create_task(probe(live.Conn(port), "/healthz", {}, stop, health, failed)),
              asyncio.create_task(probe(live.Conn(port), f"/t/{table.code}/live", host, stop, page, failed))]
    answers = []
    pool = bench.pools[0]
    for target in bench.tables[1:] * (1 + int(args.hold)):
        if time.monotonic() - held_at > args.hold - GOAL_BUSY_ANSWER_S - 1:
            break  # the next move's answer would come after the file is free
        auth = {"Authorization": f"Bearer {target.host_token}"}
        _, before = await pool.json("GET", f"/api/tables/{target.code}", token=target.host_token)
        started = time.perf_counter()
        status, headers, _ = await pool.request("POST", f"/api/tables/{target.code}/actions",
                                                {"Content-Type": "application/json", **auth},
                                                json.dumps({"type": "roll", "dice": "2d6"}).encode())
        took = time.perf_counter() - started
        _, after = await pool.json("GET", f"/api/tables/{target.code}", token=target.host_token)
        answers.append({"status": status, "s": round(took, 2), "retry_after": headers.get("retry-after"),
                        "unchanged": before["version"] == after["version"]})
        await asyncio.sleep(max(0.0, 2.0 - took))
    await holder.wait()
    stop.set()
    await asyncio.gather(*probes)
    status, _ = await pool.json("POST", f"/api/tables/{table.code}/actions", {"type": "roll", "dice": "2d6"},
                                token=table.host_token)
    return {"healthz_ms": live.summary_ms(health), "page_ms": live.summary_ms(page), "probe_failures": failed[:5],
            "moves": answers, "busy_answer_max_s": max((answer["s"] for answer in answers), default=None),
            "all_busy_503": bool(answers) and all(answer["status"] == 503 and answer["unchanged"]
                                                  and answer["retry_after"] for answer in answers),
            "move_after_hold": status}


def history_file(plays: int, megabytes: float, seed: int) -> bytes:
    """A Night Shift history export of `plays` six-seat plays, each play's result padded so the file is about
    `megabytes` (the audit's: 6,000 plays in 7 MB)."""
    names = [f"Player {n}" for n in range(40)]

    def play(rng: random.Random, n: int, result: str) -> dict:
        seats = [{"seat": s, "seat_name": f"Counselor {s}", "colour": "", "name": rng.choice(names),
                  "winner": s == 1, "score": rng.randrange(60), "status": "escaped the camp",
                  "details": [[f"Night {night}", rng.randrange(12)] for night in range(1, 6)],
                  "records": {"Best night": rng.randrange(12)}} for s in range(1, SEATS + 1)]
        day = 1 + n % 28
        return {"id": f"{n:016x}", "game": "crystal-lake", "game_name": "Friday the 13th: Horror at Camp Crystal Lake",
                "table": f"T{n % 99999:05d}", "started_at": f"2025-11-{day:02d}T20:00:00+00:00",
                "ended_at": f"2025-11-{day:02d}T21:30:00+00:00", "duration_seconds": 5400, "ending": "finished",
                "result": result, "shared": False, "moves": 80, "options": {"players": 6, "mode": "advanced"},
                "readings": [{"option": "mode", "label": "Mode", "value": "advanced", "source": "verified"}],
                "score": "points", "side": None, "scenario": None, "facts": [["Nights", 5]], "players": seats,
                "dice": {"commitment": "ab" * 32, "rolls": 40}}

    def whole(result: str) -> bytes:
        rng = random.Random(seed)
        return json.dumps({"format": "nightshift-history", "version": 1, "exported_at": "2026-12-01T00:00:00+00:00",
                           "plays": [play(rng, n, result) for n in range(plays)], "merges": []},
                          separators=(",", ":")).encode()

    padding = round((megabytes * 1_000_000 - len(whole(""))) / max(1, plays))
    return whole(("The camp survived the night. " * 14)[:max(0, min(400, padding))].strip())


def multipart(field: str, filename: str, body: bytes, token: str) -> tuple[bytes, str]:
    boundary = f"nightshift{random.getrandbits(64):x}"
    parts = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n{token}\r\n"
             f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{filename}\"\r\n"
             "Content-Type: application/json\r\n\r\n").encode() + body + f"\r\n--{boundary}--\r\n".encode()
    return parts, f"multipart/form-data; boundary={boundary}"


async def case_import(args, bench: live.Bench, port: int, upload: bytes) -> dict:
    """Propagation of moves on every table, first alone, then while the history page imports a large file."""
    rng = random.Random(args.seed)
    conn = live.Conn(port)
    status, headers, page = await conn.request("GET", "/history")
    cookie = headers.get("set-cookie", "").split(";", 1)[0]
    token = CSRF_RE.search(page).group(1).decode()
    stop = asyncio.Event()
    health: list[float] = []
    driving = asyncio.create_task(moves_until(bench, rng, args.rate, stop))
    health_task = asyncio.create_task(bench.healthz_series(live.Conn(port), None, 0.1, health))
    await asyncio.sleep(args.baseline)
    baseline_health = len(health)
    body, mimetype = multipart("file", "nightshift-history.json", upload, token)
    began = time.time()
    status, _, answer = await conn.request("POST", "/history/import", {"Cookie": cookie, "Content-Type": mimetype},
                                           body)
    ended = time.time()
    await asyncio.sleep(1.0)
    stop.set()
    await driving
    await bench.settle(live.LOST_AFTER)
    health_task.cancel()
    during = [reached - committed for _, _, committed, reached in bench.seen if began <= committed <= ended]
    before = [reached - committed for _, _, committed, reached in bench.seen if committed < began]
    return {"import_status": status, "import_s": round(ended - began, 2), "import_mb": round(len(upload) / 1e6, 2),
            "propagation_during_ms": live.summary_ms(during), "propagation_before_ms": live.summary_ms(before),
            "healthz_before_ms": live.summary_ms(health[:baseline_health]),
            "healthz_during_ms": live.summary_ms(health[baseline_health:]),
            "moves_failed": bench.moves_failed, "moves_lost": bench.lost,
            "answer": answer[:120].decode(errors="replace")}


async def case_soak(args, bench: live.Bench, pids: list[int]) -> dict:
    """Moves at --rate for --minutes, the servers' resident memory sampled all along."""
    rng = random.Random(args.seed)
    stop = asyncio.Event()
    started = time.monotonic()
    samples: list[tuple[float, float]] = []
    driving = asyncio.create_task(moves_until(bench, rng, args.rate, stop))
    while time.monotonic() - started < args.minutes * 60:
        await asyncio.sleep(min(args.sample, max(0.0, args.minutes * 60 - (time.monotonic() - started))))
        rss = live.server_rss_mb(pids)
        if rss is not None:
            samples.append((time.monotonic() - started, rss))
            print(f"  {samples[-1][0] / 60:5.1f} min  {rss:7.1f} MB  moves {bench.moves_sent}", flush=True)
    stop.set()
    await driving
    await bench.settle(live.LOST_AFTER)
    settled = next((rss for at, rss in samples if at >= min(300.0, samples[-1][0] / 2)), samples[0][1])
    end = samples[-1][1]
    return {"rss_start_mb": samples[0][1], "rss_settled_mb": settled, "rss_end_mb": end,
            "rss_max_mb": max(rss for _, rss in samples), "growth": round((end - settled) / settled, 3),
            "rss_samples": [(round(at), rss) for at, rss in samples],
            "propagation_ms": live.summary_ms(bench.propagation), "moves_sent": bench.moves_sent,
            "moves_failed": bench.moves_failed, "moves_lost": bench.lost, "streams_dropped": len(bench.stream_drops)}


# ---- one run: a fresh server, its tables and screens, then the case -----------------------------------------------


async def one_run(args, port: int, pids: list[int], database: Path, upload: bytes | None) -> dict:
    bench = live.Bench(args, [port])
    machine = live.Machine(pids)
    try:
        await bench.create_tables()
        opened = await open_screens(bench)
        before = machine.sample()
        if args.case == "locked":
            figures = await case_locked(args, bench, port, database)
        elif args.case == "import":
            figures = await case_import(args, bench, port, upload)
        else:
            figures = await case_soak(args, bench, pids)
        return figures | {"streams": opened, "streams_dropped": len(bench.stream_drops),
                          "machine": live.Machine.since(before, machine.sample())}
    finally:
        bench.stopping = True
        for table in bench.tables:
            for screen in table.screens:
                if screen.stream_task is not None:
                    screen.stream_task.cancel()
        for pool in bench.pools:
            pool.close()
        await asyncio.sleep(0.1)


def serve_and_run(args, run: int, upload: bytes | None) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="nightshift-frozen-"))
    database = tmp / "nightshift.sqlite3"
    url = args.database_url or f"sqlite:///{database}"
    port = live.free_port()
    log_path = tmp / "server.log"
    (tmp / "instance").mkdir()
    server = live.start_server(tmp / "instance", url, port, log_path, args.workers)
    try:
        live.wait_healthy(server, port, log_path)
        args.seed = args.first_seed + run
        return asyncio.run(asyncio.wait_for(one_run(args, port, [server.pid], database, upload), args.timeout))
    finally:
        live.stop_server(server)
        trouble = [line for line in log_path.read_text(errors="replace").splitlines()
                   if "Traceback" in line or " ERROR " in line or "CRITICAL" in line]
        if trouble:
            print(f"server log: {len(trouble)} error lines, first: {trouble[0][:200]}", flush=True)
        shutil.rmtree(tmp, ignore_errors=True)


# ---- the report ---------------------------------------------------------------------------------------------------


def spread(values: list) -> str:
    """min / median / max of the runs' figures."""
    numbers = [value for value in values if isinstance(value, int | float)]
    if not numbers:
        return "-"
    return " / ".join(f"{value:g}" for value in (min(numbers), round(statistics.median(numbers), 2), max(numbers)))


FIGURES = {
    "locked": [("/healthz p95 ms while held (goal < 100)", lambda r: r["healthz_ms"]["p95"]),
               ("/healthz max ms", lambda r: r["healthz_ms"]["max"]),
               ("page (live region) p95 ms while held (goal < 100)", lambda r: r["page_ms"]["p95"]),
               ("page max ms", lambda r: r["page_ms"]["max"]),
               ("moves sent while held", lambda r: len(r["moves"])),
               ("slowest busy answer s (goal < 5, each a 503, nothing changed)", lambda r: r["busy_answer_max_s"])],
    "import": [("import s", lambda r: r["import_s"]),
               ("propagation p95 ms during the import (goal < 100)", lambda r: r["propagation_during_ms"]["p95"]),
               ("propagation max ms during the import", lambda r: r["propagation_during_ms"]["max"]),
               ("moves timed during the import", lambda r: r["propagation_during_ms"]["n"]),
               ("propagation p95 ms before it", lambda r: r["propagation_before_ms"]["p95"]),
               ("/healthz p95 ms from the import's start to 1 s after it", lambda r: r["healthz_during_ms"]["p95"]),
               ("/healthz p95 ms before it", lambda r: r["healthz_before_ms"]["p95"])],
    "soak": [("resident MB after 5 min (a shorter run: half way)", lambda r: r["rss_settled_mb"]),
             ("resident MB at the end", lambda r: r["rss_end_mb"]),
             ("resident MB max", lambda r: r["rss_max_mb"]),
             ("growth from 5 min to the end (goal <= 10%)", lambda r: round(100 * r["growth"], 1)),
             ("propagation p95 ms", lambda r: r["propagation_ms"]["p95"])],
}
COMMON = [("server CPU %", lambda r: r["machine"]["server_cpu_pct"]),
          ("other processes' CPU %", lambda r: r["machine"]["others_cpu_pct"]),
          ("load average (1 min)", lambda r: r["machine"]["loadavg_1m"])]


def goals(case: str, runs: list[dict]) -> list[tuple[str, bool]]:
    if case == "locked":
        return [("healthz and page p95 under 100 ms while held", all(
                    r["healthz_ms"]["p95"] < GOAL_WAIT_P95_MS and r["page_ms"]["p95"] < GOAL_WAIT_P95_MS
                    and not r["probe_failures"] for r in runs)),
                ("every move while held a 503 within 5 s, nothing changed", all(
                    r["all_busy_503"] and r["busy_answer_max_s"] < GOAL_BUSY_ANSWER_S for r in runs)),
                ("a move saved once the file is free", all(r["move_after_hold"] == 200 for r in runs))]
    if case == "import":
        return [("every import stored (303)", all(r["import_status"] == 303 for r in runs)),
                ("propagation p95 under 100 ms while importing", all(
                    (r["propagation_during_ms"]["p95"] or 0) < GOAL_WAIT_P95_MS for r in runs)),
                ("no move failed or lost", all(not r["moves_failed"] and not r["moves_lost"] for r in runs))]
    return [("resident memory at the end within 10% of its level after 5 minutes",
             all(r["growth"] <= GOAL_SOAK_GROWTH for r in runs)),
            ("nothing dropped, failed or lost", all(not (r["moves_failed"] or r["moves_lost"] or r["streams_dropped"])
                                                    for r in runs))]


def report(args, runs: list[dict]) -> None:
    print(f"\n{args.case}: {len(runs)} run(s), {args.tables} tables x ({args.phones} phones + host), "
          f"{args.workers} worker(s), {'SQLite' if not args.database_url else live.hide_password(args.database_url)}; "
          "min / median / max")
    for label, figure in FIGURES[args.case] + COMMON:
        print(f"  {label}: {spread([figure(run) for run in runs])}")
    for label, met in goals(args.case, runs):
        print(f"GOAL {'met' if met else 'MISSED'}: {label}")
    print(json.dumps({"case": args.case, "runs": runs}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", choices=("locked", "import", "soak"))
    parser.add_argument("--runs", type=int, default=3, help="runs, each on a fresh server (default 3)")
    parser.add_argument("--tables", type=int, help="tables (default: 20; soak 143)")
    parser.add_argument("--phones", type=int, default=6, help="phones per table (default 6), each table's host too")
    parser.add_argument("--rate", type=float, default=10.0, help="moves per second across the tables (default 10)")
    parser.add_argument("--hold", type=float, default=10.0, help="locked: seconds the file is held (default 10)")
    parser.add_argument("--plays", type=int, default=6000, help="import: plays in the file (default 6000)")
    parser.add_argument("--megabytes", type=float, default=7.0, help="import: the file's size, about (default 7)")
    parser.add_argument("--baseline", type=float, default=10.0, help="import: seconds of moves before it (default 10)")
    parser.add_argument("--minutes", type=float, default=30.0, help="soak: minutes of moves (default 30)")
    parser.add_argument("--sample", type=float, default=10.0, help="soak: seconds between memory samples")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers (default 1)")
    parser.add_argument("--database-url", help="import and soak only: a PostgreSQL URL instead of a fresh SQLite file")
    parser.add_argument("--seed", dest="first_seed", type=int, default=1, help="the first run's seed (then +1 each)")
    parser.add_argument("--timeout", type=float, help="seconds a run may take (default: its length plus 10 min)")
    args = parser.parse_args(argv)
    if args.case == "locked" and args.database_url:
        parser.error("the locked case holds a SQLite file: no --database-url")
    if args.case == "locked" and args.hold < GOAL_BUSY_ANSWER_S + 2:
        parser.error(f"--hold at least {GOAL_BUSY_ANSWER_S + 2:g} s: a move's answer must come while the file is held")
    args.tables = args.tables or (143 if args.case == "soak" else 20)
    args.timeout = args.timeout or 600 + (args.minutes * 60 if args.case == "soak" else 0) + args.hold
    # what bench/live.py's Bench reads
    args.host_screen, args.game, args.spread, args.actions = True, "tracker", "screens", 0
    live.raise_nofile(max(4096, 4 * args.tables * (args.phones + 1) + 256))
    upload = history_file(args.plays, args.megabytes, 1) if args.case == "import" else None
    runs = []
    for run in range(args.runs):
        print(f"run {run + 1}/{args.runs}: {args.case} (load average {os.getloadavg()[0]:.2f}) ...", flush=True)
        runs.append(serve_and_run(args, run, upload))
    report(args, runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
