"""Live-update benchmark: K tables x P phones (and each table's host screen) on the real server, moves through the
JSON API, how long until every screen of a table has been pushed the new version, and what the server's CPU pays per
move, against floors measured in the same run: a bare /healthz, and a bare Flask + Flask-SQLAlchemy write
(bench/bare.py) served the same way.

    .venv/bin/python bench/live.py [--tables 100] [--phones 6] [--actions 1500] [--rate 20]
                                   [--servers 1] [--workers 1] [--database-url URL]

Stdlib + psutil only: asyncio raw sockets speak HTTP/1.1 (keep-alive, chunked, gzip) to 127.0.0.1. See
bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import zlib
from datetime import datetime
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LOST_AFTER = 10.0  # a move not shown on all its table's screens within this many seconds is lost
KEEPALIVE_IDLE = 1.5  # gunicorn closes an idle keep-alive connection after 2 s; reopen ours before that
# The goals (issue 16), each a ratio to a floor measured in the same run.
GOAL_CPU_PER_MOVE_X_BARE = 6.0
GOAL_PROPAGATION_P95_MS = 50.0
GOAL_PROPAGATION_X_HEALTHZ = 3.0
GOAL_THROUGHPUT_SHARE = 0.5

SHOWN_RE = re.compile(rb'data-version="(\d+)" data-presence="([^"]*)"')  # what a region says it shows


# ---- numbers -----------------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def summary_ms(values: list[float]) -> dict[str, float | None]:
    """p50/p95/p99/max of seconds, in milliseconds."""
    def ms(value):
        return None if value is None else round(value * 1000, 1)
    return {"n": len(values), "p50": ms(pct(values, 50)), "p95": ms(pct(values, 95)), "p99": ms(pct(values, 99)),
            "max": ms(max(values) if values else None)}


def fmt(stats: dict) -> str:
    def one(value):
        return "-" if value is None else f"{value:.1f}"
    return (f"p50 {one(stats['p50'])}  p95 {one(stats['p95'])}  p99 {one(stats.get('p99'))}  max {one(stats['max'])}"
            f" ms  (n={stats['n']})")


def ratio(a, b):
    return None if a is None or not b else round(a / b, 2)


class Machine:
    """CPU seconds of the server processes, of this client, and of everything else on the machine, over a phase."""

    def __init__(self, pids: list[int]):
        self.pids = pids

    def sample(self) -> tuple[float, float, float, float]:
        times = psutil.cpu_times()
        busy = times.user + times.nice + times.system + getattr(times, "irq", 0) + getattr(times, "softirq", 0)
        return time.perf_counter(), server_cpu_seconds(self.pids), own_cpu_seconds(), busy

    @staticmethod
    def since(before, after) -> dict:
        wall = after[0] - before[0]
        server, client = after[1] - before[1], after[2] - before[2]
        others = max(0.0, after[3] - before[3] - server - client)
        return {"wall_s": round(wall, 2), "server_cpu_s": round(server, 3),
                "server_cpu_pct": round(100 * server / wall, 1) if wall else None,
                "client_cpu_pct": round(100 * client / wall, 1) if wall else None,
                "others_cpu_pct": round(100 * others / wall, 1) if wall else None,
                "loadavg_1m": round(os.getloadavg()[0], 2)}


# ---- a minimal HTTP/1.1 client on asyncio streams ----------------------------------------------------------------


class HTTPError(Exception):
    pass


async def read_head(reader: asyncio.StreamReader) -> tuple[int, dict[str, str]]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/"):
        raise HTTPError(f"bad status line {lines[0]!r}")
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    return int(parts[1]), headers


async def read_chunk(reader: asyncio.StreamReader) -> bytes:
    """One chunk of a chunked body; b"" for the last one."""
    size_line = await reader.readuntil(b"\r\n")
    size = int(size_line.split(b";", 1)[0].strip(), 16)
    if size == 0:
        while (await reader.readuntil(b"\r\n")) != b"\r\n":  # trailers
            pass
        return b""
    data = await reader.readexactly(size + 2)
    return data[:-2]


def request_bytes(method: str, path: str, headers: dict[str, str] | None, body: bytes | None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if body is not None:
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + (body or b"")


class Conn:
    """One keep-alive connection; reopened when the server closed it or it sat idle long enough to be closed."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.last_used = 0.0
        self.opened = 0

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def _ensure(self) -> None:
        stale = time.monotonic() - self.last_used > KEEPALIVE_IDLE
        if self.writer is None or self.reader.at_eof() or self.writer.is_closing() or stale:
            self.close()
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            self.opened += 1

    async def request(self, method: str, path: str, headers: dict[str, str] | None = None,
                      body: bytes | None = None, retry: bool = True) -> tuple[int, dict[str, str], bytes]:
        before = self.opened
        await self._ensure()
        reused = self.opened == before
        try:
            self.writer.write(request_bytes(method, path, headers, body))
            status, response_headers = await read_head(self.reader)
        except (ConnectionError, asyncio.IncompleteReadError, OSError):
            self.close()
            # The server closed a reused connection under us: safe to resend once, as browsers do.
            if retry and reused:
                return await self.request(method, path, headers, body, retry=False)
            raise
        if status in (204, 304) or method == "HEAD":
            data = b""
        elif "content-length" in response_headers:
            data = await self.reader.readexactly(int(response_headers["content-length"]))
        elif response_headers.get("transfer-encoding", "").lower() == "chunked":
            parts = []
            while chunk := await read_chunk(self.reader):
                parts.append(chunk)
            data = b"".join(parts)
        else:
            data = await self.reader.read()
            response_headers["connection"] = "close"
        if response_headers.get("connection", "").lower() == "close":
            self.close()
        self.last_used = time.monotonic()
        return status, response_headers, data


class Pool:
    """A few keep-alive connections shared by many tasks (setup requests and moves)."""

    def __init__(self, port: int, size: int):
        self.free: asyncio.Queue[Conn] = asyncio.Queue()
        self.all = [Conn(port) for _ in range(size)]
        for conn in self.all:
            self.free.put_nowait(conn)

    async def request(self, *args, **kwargs):
        conn = await self.free.get()
        try:
            return await conn.request(*args, **kwargs)
        finally:
            self.free.put_nowait(conn)

    async def json(self, method: str, path: str, payload=None, token: str | None = None):
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        body = None
        if payload is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(payload).encode()
        status, _, data = await self.request(method, path, headers, body)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, {"raw": data[:300].decode("utf-8", "replace")}

    def close(self) -> None:
        for conn in self.all:
            conn.close()


# ---- the model of a table and its screens ------------------------------------------------------------------------


class Screen:
    """A phone (a seat) or the table's host screen: its page, then its event stream with the region pushed."""

    def __init__(self, table: Table, token: str, seat: int | None, port: int):
        self.table, self.token, self.seat, self.port = table, token, seat, port
        self.auth = {"Authorization": f"Bearer {token}"}
        self.version = 0
        self.presence = ""
        self.connected = asyncio.Event()
        self.stream_task: asyncio.Task | None = None


class Table:
    def __init__(self, code: str, join_key: str, host_token: str, version: int, index: int):
        self.code, self.join_key, self.host_token, self.version = code, join_key, host_token, version
        self.index = index
        self.screens: list[Screen] = []
        self.players: list[Screen] = []
        self.counters: list[dict] = []  # {"key", "scope", "value", "min", "max", "seat"?}
        self.busy = False
        self.min_seen = 0  # every screen of this table has been shown at least this version
        self.reached: dict[int, float] = {}  # version -> wall time when the last screen reached it
        self.pending: dict[int, float] = {}  # version -> commit time, waiting for the last screen


class Bench:
    def __init__(self, args, ports: list[int]):
        self.args, self.ports = args, ports
        self.pools = [Pool(port, size=min(32, max(4, args.tables))) for port in ports]
        self.tables: list[Table] = []
        self.stopping = False
        self.stream_drops: list[str] = []
        self.events = {"live": 0, "beat": 0, "gone": 0, "other": 0}
        self.pushed_bytes = 0  # on the wire (gzip), during the load
        self.pushed_raw = 0  # after decompression
        self.action_latency: list[float] = []
        self.propagation: list[float] = []
        self.moves_sent = 0
        self.moves_failed = 0
        self.move_failures: list[str] = []
        self.lost = 0
        self.loop_lag: list[float] = []
        self.slowest: list[tuple[float, float]] = []  # (propagation, commit wall time), the worst few
        self.seen: list[tuple[str, int, float, float]] = []  # (code, version, committed, last screen had it)
        self.streams_open_at = time.time()

    def pool_for(self, table: Table) -> Pool:
        return self.pools[table.index % len(self.pools)]

    def port_for(self, table_index: int, screen: int) -> int:
        """The server a table's screen streams from: the screens of every table spread round-robin over the servers
        (the soak: a move must cross servers), or with --spread tables each table's screens on its own server, as
        at a real table whose phones all scan the QR code of the host screen's server."""
        if self.args.spread == "tables":
            return self.ports[table_index % len(self.ports)]
        return self.ports[(table_index * (self.args.phones + 1) + screen) % len(self.ports)]

    # -- setup ---------------------------------------------------------------------------------------------------

    async def create_tables(self) -> None:
        args = self.args
        options = {"players": args.phones}
        sem = asyncio.Semaphore(32)

        async def one(i: int):
            async with sem:
                pool = self.pools[i % len(self.pools)]
                status, data = await pool.json("POST", "/api/tables", {"game": args.game, "options": options})
                if status != 201:
                    raise RuntimeError(f"POST /api/tables -> {status}: {data}")
                table = Table(data["code"], data["join_key"], data["host_token"], data["version"], i)
                for n in range(args.phones):
                    status, joined = await pool.json("POST", f"/api/tables/{table.code}/join",
                                                     {"name": f"Phone {n + 1}", "key": table.join_key})
                    if status != 201:
                        raise RuntimeError(f"join {table.code} -> {status}: {joined}")
                    port = self.port_for(i, n)
                    phone = Screen(table, joined["seat_token"], joined["seat"], port)
                    table.players.append(phone)
                    table.screens.append(phone)
                if args.host_screen:
                    port = self.port_for(i, args.phones)
                    table.screens.append(Screen(table, table.host_token, None, port))
                status, described = await pool.json("GET", f"/api/tables/{table.code}", token=table.host_token)
                if status != 200:
                    raise RuntimeError(f"GET /api/tables/{table.code} -> {status}: {described}")
                table.version = described.get("version", table.version)
                table.counters = parse_counters(described.get("view"))
                return table

        self.tables = list(await asyncio.gather(*(one(i) for i in range(args.tables))))

    async def load_page(self, screen: Screen) -> None:
        """The page load: the live region as the page renders it, for the version and seats it shows."""
        status, _, body = await Conn(screen.port).request("GET", f"/t/{screen.table.code}/live", screen.auth)
        shown = SHOWN_RE.search(body[:4000]) if status == 200 else None
        if shown is None:
            raise RuntimeError(f"GET /t/{screen.table.code}/live -> {status}: {body[:200]!r}")
        screen.version, screen.presence = int(shown.group(1)), shown.group(2).decode()

    # -- a screen's event stream: regions pushed, heartbeats --------------------------------------------------

    async def stream(self, screen: Screen) -> None:
        table = screen.table
        writer = None
        try:
            reader, writer = await asyncio.open_connection(HOST, screen.port)
            path = f"/t/{table.code}/events?region=1&v={screen.version}&p={screen.presence}"
            writer.write(request_bytes("GET", path, {"Accept": "text/event-stream", "Accept-Encoding": "gzip",
                                                     **screen.auth}, None))
            status, headers = await read_head(reader)
            if status != 200:
                raise HTTPError(f"events -> {status}")
            chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            decoder = zlib.decompressobj(wbits=31) if headers.get("content-encoding") == "gzip" else None
            buffer = b""
            while True:
                data = await read_chunk(reader) if chunked else await reader.read(65536)
                if not data:
                    raise HTTPError("stream closed by the server")
                if self.measuring_bytes:
                    self.pushed_bytes += len(data)
                if decoder is not None:
                    data = decoder.decompress(data)
                if self.measuring_bytes:
                    self.pushed_raw += len(data)
                buffer += data
                if b"\n\n" not in buffer:
                    continue
                *blocks, buffer = buffer.split(b"\n\n")
                now = time.time()
                for block in blocks:
                    if block.startswith(b"event: live"):
                        self.events["live"] += 1
                        shown = SHOWN_RE.search(block[:6000])
                        if shown is not None:
                            self.saw(screen, int(shown.group(1)), now)
                    elif block.startswith(b"event: beat"):
                        self.events["beat"] += 1
                    elif block.startswith(b"event: gone"):
                        self.events["gone"] += 1
                        raise HTTPError("told the table or seat is gone")
                    elif b": connected" in block:
                        screen.connected.set()
                    else:
                        self.events["other"] += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - any end before we stop it is a dropped stream
            if not self.stopping:
                self.stream_drops.append(f"{table.code}/{screen.seat or 'host'}: {type(error).__name__}: {error}"[:200])
                screen.connected.set()  # don't let the opening wait hang on it
        finally:
            if writer is not None:
                writer.close()

    measuring_bytes = False

    def saw(self, screen: Screen, version: int, now: float) -> None:
        if version <= screen.version:
            return
        screen.version = version
        table = screen.table
        low = min(s.version for s in table.screens)
        if low <= table.min_seen:
            return
        for reached in range(table.min_seen + 1, low + 1):
            committed = table.pending.pop(reached, None)
            if committed is None:
                table.reached[reached] = now
            elif committed >= 0:  # a burst's moves are counted, not timed
                self.record_propagation(now - committed, committed, table.code, reached)
        table.min_seen = low

    def record_propagation(self, seconds: float, committed: float, code: str, version: int) -> None:
        self.seen.append((code, version, committed, committed + seconds))
        if seconds > LOST_AFTER:
            self.lost += 1
        else:
            self.propagation.append(max(0.0, seconds))
        if len(self.slowest) < 5 or seconds > self.slowest[-1][0]:
            self.slowest = sorted([*self.slowest, (seconds, committed)], reverse=True)[:5]

    # -- moves -----------------------------------------------------------------------------------------------------

    def pick_action(self, table: Table, phone: Screen, rng: random.Random) -> dict:
        mine = [c for c in table.counters if c["scope"] == "shared" or c.get("seat") == phone.seat]
        if not mine or rng.random() < 0.3:
            return {"type": "roll", "dice": "2d6"}
        counter = rng.choice(mine)
        step = rng.choice((1, -1))
        low, high = counter.get("min"), counter.get("max")
        if high is not None and counter["value"] + step > high:
            step = -1
        if low is not None and counter["value"] + step < low:
            step = 1
        counter["value"] += step  # our model; the response's view corrects it
        return {"type": "adjust", "counter": counter["key"], "by": step}

    async def move(self, table: Table, rng: random.Random, freed: asyncio.Event | None, track: bool = True) -> bool:
        phone = rng.choice(table.players)
        action = self.pick_action(table, phone, rng)
        started = time.perf_counter()
        try:
            status, data = await self.pool_for(table).json("POST", f"/api/tables/{table.code}/actions", action,
                                                           token=phone.token)
            elapsed = time.perf_counter() - started
            if status != 200:
                self.moves_failed += 1
                if len(self.move_failures) < 8:
                    self.move_failures.append(f"{table.code} {action} -> {status}: {json.dumps(data)[:200]}")
                table.counters = parse_counters_keep(table.counters, data)
                return False
            version = data["version"]
            committed = datetime.fromisoformat(data["log"][-1]["at"]).timestamp()
            fresh = parse_counters(data.get("view"))
            if fresh:
                table.counters = fresh
            if not track:
                table.reached.pop(version, None)
                if version > table.min_seen:
                    table.pending[version] = -1.0  # seen later, not timed
                return True
            self.action_latency.append(elapsed)
            if version in table.reached:
                self.record_propagation(table.reached.pop(version) - committed, committed, table.code, version)
            elif version <= table.min_seen:
                self.record_propagation(0.0, committed, table.code, version)
            else:
                table.pending[version] = committed
            return True
        except (ConnectionError, asyncio.IncompleteReadError, OSError, HTTPError, KeyError, ValueError) as error:
            self.moves_failed += 1
            if len(self.move_failures) < 8:
                self.move_failures.append(f"{table.code} {action}: {type(error).__name__}: {error}")
            return False
        finally:
            table.busy = False
            if freed is not None:
                freed.set()

    async def drive(self) -> float:
        """Poisson arrivals at --rate across all tables, at most one move in flight per table."""
        args = self.args
        rng = random.Random(args.seed)
        freed = asyncio.Event()
        tasks = set()
        start = time.perf_counter()
        async for _ in poisson_arrivals(rng, args.rate, args.actions):
            while True:
                idle = [t for t in self.tables if not t.busy]
                if idle:
                    break
                freed.clear()
                await freed.wait()
            table = rng.choice(idle)
            table.busy = True
            self.moves_sent += 1
            task = asyncio.create_task(self.move(table, rng, freed))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        return time.perf_counter() - start

    async def burst(self, seconds: float, concurrency: int) -> int:
        """As many moves as the server takes: `concurrency` clients in a closed loop, each on a table of its own."""
        rng = random.Random(self.args.seed + 1)
        deadline = time.perf_counter() + seconds
        done = 0

        async def client(tables: list[Table]):
            nonlocal done
            while time.perf_counter() < deadline:
                table = rng.choice(tables)
                table.busy = True
                if await self.move(table, rng, None, track=False):
                    done += 1

        groups = [self.tables[i::concurrency] for i in range(min(concurrency, len(self.tables)))]
        await asyncio.gather(*(client(group) for group in groups if group))
        return done

    async def settle(self, timeout: float) -> None:
        """Wait until every move's propagation completed (or `timeout`), then count the rest as lost."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(t.pending for t in self.tables):
            await asyncio.sleep(0.05)
        self.lost += sum(1 for t in self.tables for committed in t.pending.values() if committed >= 0)
        for table in self.tables:
            table.pending.clear()

    # -- the baseline and the client's own health ---------------------------------------------------------------

    async def healthz_series(self, conn: Conn, count: int | None, interval: float, out: list[float]) -> None:
        n = 0
        while count is None or n < count:
            started = time.perf_counter()
            status, _, _ = await conn.request("GET", "/healthz")
            if status == 200:
                out.append(time.perf_counter() - started)
            n += 1
            if interval:
                await asyncio.sleep(max(0.0, interval - (time.perf_counter() - started)))

    async def loop_lag_probe(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            self.loop_lag.append(time.perf_counter() - started - 0.01)


def parse_counters(view) -> list[dict]:
    """The tracker's counters from `view.counters`: [{"key", "scope", "min", "max", "values": {"1": 20} or
    {"shared": 0}}] becomes one entry per shared counter and one per (counter, seat)."""
    out: list[dict] = []
    raw = view.get("counters") if isinstance(view, dict) else None
    for item in raw if isinstance(raw, list) else []:
        if not isinstance(item, dict) or "key" not in item or not isinstance(item.get("values"), dict):
            continue
        bounds = {"key": item["key"], "min": item.get("min"), "max": item.get("max")}
        for owner, value in item["values"].items():
            if not isinstance(value, int):
                continue
            if str(owner).isdigit():
                out.append({**bounds, "scope": "each", "seat": int(owner), "value": value})
            else:
                out.append({**bounds, "scope": "shared", "value": value})
    return out


def parse_counters_keep(current: list[dict], data) -> list[dict]:
    fresh = parse_counters(data.get("view")) if isinstance(data, dict) else []
    return fresh or current


# ---- the server --------------------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def raise_nofile(wanted: int) -> tuple[int, int]:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))  # the server child inherits it
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def start_server(instance: Path, database_url: str, port: int, log_path: Path, workers: int = 1,
                 beat: float | None = None, command: list[str] | None = None,
                 notes: Path | None = None) -> subprocess.Popen:
    """Night Shift as the README starts it (or `command`, the bare floor), in its own process group; with `notes`,
    through bench/phases.py, which notes there when each drawing and push happens."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("NIGHTSHIFT_")}
    env |= {"NIGHTSHIFT_INSTANCE_PATH": str(instance), "NIGHTSHIFT_DATABASE_URL": database_url}
    if beat:
        env["NIGHTSHIFT_LIVE_BEAT_SECONDS"] = str(beat)
    serving = [sys.executable, "-m", "app"] if notes is None else [sys.executable, str(ROOT / "bench" / "phases.py"),
                                                                    str(notes)]
    command = command or [*serving, "--host", HOST, "--port", str(port), "--workers", str(workers)]
    log = open(log_path, "ab")  # noqa: SIM115 - the child keeps it; closed with the process
    try:
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    finally:
        log.close()


def wait_healthy(process: subprocess.Popen, port: int, log_path: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start:\n{log_path.read_text(errors='replace')[-3000:]}")
        time.sleep(0.2)


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def server_rss_mb(pids: list[int]) -> float | None:
    total = 0
    try:
        for pid in pids:
            root = psutil.Process(pid)
            total += root.memory_info().rss + sum(child.memory_info().rss for child in root.children(recursive=True))
        return round(total / 2**20, 1)
    except psutil.Error:
        return None


def server_cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user + system) of the servers' process trees: arbiters and workers."""
    total = 0.0
    for pid in pids:
        try:
            root = psutil.Process(pid)
            for proc in [root, *root.children(recursive=True)]:
                times = proc.cpu_times()
                total += times.user + times.system
        except psutil.Error:
            pass
    return total


def own_cpu_seconds() -> float:
    times = psutil.Process().cpu_times()
    return times.user + times.system


def log_facts(log_paths: list[Path]) -> tuple[str, list[str]]:
    worker, workers, trouble = "?", 0, []
    for log_path in log_paths:
        text = log_path.read_text(errors="replace") if log_path.exists() else ""
        for line in text.splitlines():
            if "Using worker:" in line:
                worker = line.split("Using worker:", 1)[1].strip()
            if "Booting worker" in line:
                workers += 1
            if any(word in line for word in ("Traceback", "ERROR", "CRITICAL", "WARNING", "Error", "exception")):
                trouble.append(line)
    servers = len(log_paths)
    return f"{servers} server{'s' if servers > 1 else ''}, gunicorn, {workers or '?'} x {worker} worker", trouble


def hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


async def poisson_arrivals(rng: random.Random, rate: float, count: int):
    """Yield 0..count-1, each at the next arrival of a Poisson process at `rate` per second (the moves' pace)."""
    next_at = time.perf_counter()
    for n in range(count):
        next_at += rng.expovariate(rate)
        delay = next_at - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        yield n


# ---- the floors --------------------------------------------------------------------------------------------------


class BareServer:
    """bench/bare.py on the same kind of database and server setup, up for the whole run: its rounds of writes are
    timed between the moves' own, so one fast or slow moment of the machine can't tip a ratio either way."""

    def __init__(self, args, database_url: str, tmp: Path):
        self.args = args
        self.port = free_port()
        self.log_path = tmp / "bare.log"
        if database_url.startswith("sqlite"):
            database_url = f"sqlite:///{tmp / 'bare.sqlite3'}"
        self.process = start_server(tmp, database_url, self.port, self.log_path, command=[
            sys.executable, str(ROOT / "bench" / "bare.py"), "--port", str(self.port), "--database-url", database_url])
        self.machine = Machine([self.process.pid])
        self.pool: Pool | None = None
        self.written = 0
        self.latency: list[float] = []

    async def start(self) -> None:
        await asyncio.to_thread(wait_healthy, self.process, self.port, self.log_path)
        self.pool = Pool(self.port, size=self.args.concurrency)
        await self.saturate(1.0, record=False)  # warm up

    def stop(self) -> None:
        stop_server(self.process)

    async def write(self) -> float:
        n = self.written
        self.written += 1
        started = time.perf_counter()
        status, _, body = await self.pool.request(
            "POST", "/write", {"Content-Type": "application/json"},
            json.dumps({"table": f"T{n % 100:03d}", "text": f"Phone {n % 6 + 1}: Doom {n % 50} -> {n % 50 + 1}"}
                       ).encode())
        if status != 200 or b'id="note"' not in body:
            raise RuntimeError(f"bare write -> {status}: {body[:200]!r}")
        return time.perf_counter() - started

    async def saturate(self, seconds: float, record: bool = True) -> dict:
        """--concurrency clients in a closed loop for `seconds`: writes, wall time and the server's CPU."""
        deadline = time.perf_counter() + seconds
        done = 0

        async def client():
            nonlocal done
            while time.perf_counter() < deadline:
                took = await self.write()
                done += 1
                if record:
                    self.latency.append(took)

        before = self.machine.sample()
        await asyncio.gather(*(client() for _ in range(self.args.concurrency)))
        return {"writes": done, "phase": Machine.since(before, self.machine.sample())}

    async def paced(self, count: int, seed: int) -> dict:
        """`count` writes as Poisson arrivals at --rate, the moves' pace: the server mostly idle between them, where a
        request costs more than at saturation (caches go cold, every one is a wakeup of its own)."""
        rng = random.Random(seed)
        before = self.machine.sample()
        tasks = [asyncio.create_task(self.write()) async for _ in poisson_arrivals(rng, self.args.rate, count)]
        await asyncio.gather(*tasks)
        return {"writes": count, "phase": Machine.since(before, self.machine.sample())}


def totals(rounds: list[dict], count: str) -> dict:
    """Rounds of one side of a comparison added up: how many, per second, and the server's CPU each."""
    done = sum(r[count] for r in rounds)
    wall = sum(r["phase"]["wall_s"] for r in rounds)
    cpu = sum(r["phase"]["server_cpu_s"] for r in rounds)
    phase = {key: round(sum(r["phase"][key] * r["phase"]["wall_s"] for r in rounds) / wall, 1) if wall else None
             for key in ("server_cpu_pct", "client_cpu_pct", "others_cpu_pct")}
    phase |= {"wall_s": round(wall, 2), "server_cpu_s": round(cpu, 3),
              "loadavg_1m": max(r["phase"]["loadavg_1m"] for r in rounds)}
    return {count: done, "per_s": round(done / wall, 1) if wall else None,
            "cpu_ms": round(1000 * cpu / done, 3) if done else None, "machine": phase,
            "rounds": [round(r[count] / r["phase"]["wall_s"], 1) if r["phase"]["wall_s"] else None for r in rounds]}


async def interleaved(bench: Bench, machine: Machine, bare: BareServer | None, seconds: float,
                      watched: bool) -> dict:
    """Moves as fast as the server takes them for `seconds` in all, in --rounds rounds, each beside a bare-write
    round of the same length (bare first, then moves first, and so on): the two sides share the machine's moments.

    With screens `watched`, a move round waits until every screen has every move before the next round starts (not
    timed as throughput, but its CPU counts: that is where the drawing is paid for).
    """
    rounds = max(1, bench.args.rounds)
    each = seconds / rounds
    moved, written = [], []
    live_before = bench.events["live"]
    for n in range(rounds):
        order = ("bare", "moves") if n % 2 == 0 else ("moves", "bare")
        for side in order:
            if side == "bare":
                if bare is not None:
                    written.append(await bare.saturate(each))
                continue
            before = machine.sample()
            started = time.perf_counter()
            done = await bench.burst(each, bench.args.concurrency)
            wall = time.perf_counter() - started
            if watched:
                await bench.settle(LOST_AFTER)
            else:
                for table in bench.tables:
                    table.pending.clear()  # nobody watches yet: the screens load the newest version later
            phase = Machine.since(before, machine.sample())
            phase["wall_s"] = round(wall, 2)  # throughput over the moving, not the settling
            moved.append({"moves": done, "phase": phase})
    moves = totals(moved, "moves")
    moves["cpu_ms_per_move"] = moves.pop("cpu_ms")
    moves["regions_per_move"] = round((bench.events["live"] - live_before) / moves["moves"], 2) \
        if moves["moves"] else None
    if written:
        moves["bare"] = totals(written, "writes")
    return moves


# ---- the run -----------------------------------------------------------------------------------------------------


async def run(args, ports: list[int], pids: list[int], bare: BareServer | None) -> dict:
    bench = Bench(args, ports)
    machine = Machine(pids)
    result: dict = {}
    if bare is not None:
        await bare.start()
    background: list[asyncio.Task] = []
    screens: list[Screen] = []
    try:
        # 1. tables and seats
        started = time.perf_counter()
        await bench.create_tables()
        screens = [screen for table in bench.tables for screen in table.screens]
        result["setup_s"] = round(time.perf_counter() - started, 2)
        print(f"created {len(bench.tables)} tables, joined {args.tables * args.phones} phones in "
              f"{result['setup_s']} s", flush=True)
        if args.actions and not any(table.counters for table in bench.tables):
            print("note: no counters in view.counters; moves will all be dice rolls", flush=True)

        # 1b. the write path alone: a burst before any screen is open, as the bare write has none (the issue's
        # throughput goal; the burst in 5. has every stream open, so it also pays for every screen's drawing)
        result["write_burst"] = {}
        if args.burst:
            print(f"write burst: {args.concurrency} clients, no screen open, {args.burst:g} s in {args.rounds} "
                  f"rounds{', each beside a round of bare writes' if bare else ''} ...", flush=True)
            result["write_burst"] = await interleaved(bench, machine, bare, args.burst, watched=False)

        # 2. each screen loads its page, then opens its event stream
        sem = asyncio.Semaphore(64)

        async def page(screen):
            async with sem:
                await bench.load_page(screen)
        await asyncio.gather(*(page(screen) for screen in screens))
        background.append(asyncio.create_task(bench.loop_lag_probe()))
        started = time.perf_counter()
        for i, screen in enumerate(screens):
            screen.stream_task = asyncio.create_task(bench.stream(screen))
            if i % 50 == 49:
                await asyncio.sleep(0)  # let connects proceed in waves
        try:
            # a busy machine takes a while to open a thousand streams: slow is not failure, a drop is
            await asyncio.wait_for(asyncio.gather(*(screen.connected.wait() for screen in screens)),
                                   max(60.0, 0.3 * len(screens)))
        except TimeoutError:
            pass
        opened = sum(1 for screen in screens if screen.connected.is_set()) - len(bench.stream_drops)
        result["streams_open_s"] = round(time.perf_counter() - started, 2)
        bench.streams_open_at = time.time()
        print(f"opened {opened}/{len(screens)} event streams in {result['streams_open_s']} s", flush=True)

        # 3. let the connect-time pushes (seats turning 'connected') settle, then the idle healthz floor
        # (heartbeats don't count: from streams opened over many seconds they never stop long enough)
        def pushes():
            return {key: count for key, count in bench.events.items() if key != "beat"}
        quiet_since, last = time.monotonic(), pushes()
        while time.monotonic() - quiet_since < 1.5:
            await asyncio.sleep(0.25)
            if pushes() != last:
                last, quiet_since = pushes(), time.monotonic()
        for table in bench.tables:
            table.min_seen = min(screen.version for screen in table.screens)
            table.reached.clear()
        bench.loop_lag.clear()
        idle_health: list[float] = []
        before = machine.sample()
        await bench.healthz_series(Conn(ports[0]), args.idle_samples, 0.0, idle_health)
        healthz_cpu = Machine.since(before, machine.sample())["server_cpu_s"] / max(1, len(idle_health))
        result["rss_idle_streams_mb"] = server_rss_mb(pids)
        events_before = dict(bench.events)

        # 4. the load, with the healthz floor alongside, and the bare write at the same pace just before and after
        paced = []
        if bare is not None and args.paced_writes:
            print(f"bare paced: {args.paced_writes // 2} writes at {args.rate}/s ...", flush=True)
            paced.append(await bare.paced(args.paced_writes // 2, args.seed))
        load_health: list[float] = []
        health_task = asyncio.create_task(bench.healthz_series(Conn(ports[0]), None, 0.1, load_health))
        background.append(health_task)
        print(f"driving {args.actions} moves at {args.rate}/s across {len(bench.tables)} tables ...", flush=True)
        bench.measuring_bytes = True
        before = machine.sample()
        drive_s = await bench.drive()
        await bench.settle(LOST_AFTER)
        load = Machine.since(before, machine.sample())
        bench.measuring_bytes = False
        health_task.cancel()
        result["rss_end_mb"] = server_rss_mb(pids)
        if paced:
            print(f"bare paced: {args.paced_writes - args.paced_writes // 2} writes at {args.rate}/s ...", flush=True)
            paced.append(await bare.paced(args.paced_writes - args.paced_writes // 2, args.seed + 2))
            result["bare_paced"] = totals(paced, "writes") | {"rate": args.rate}
        moves_ok = len(bench.action_latency)
        healthz_share = len(load_health) * healthz_cpu
        result["cpu_ms_per_move"] = round(1000 * max(0.0, load["server_cpu_s"] - healthz_share) / moves_ok, 2) \
            if moves_ok else None
        result["healthz_cpu_ms"] = round(1000 * healthz_cpu, 3)
        events = {key: bench.events[key] - events_before[key] for key in bench.events}

        # 5. a burst: moves as fast as the server takes them, every stream still open
        burst = {}
        if args.burst:
            print(f"burst: {args.concurrency} clients moving as fast as they can, every stream open, {args.burst:g} s "
                  f"in {args.rounds} rounds{', each beside a round of bare writes' if bare else ''} ...", flush=True)
            await asyncio.sleep(0.5)
            burst = await interleaved(bench, machine, bare, args.burst, watched=True)
        streams_alive = sum(1 for screen in screens if screen.stream_task and not screen.stream_task.done())
        sides = [side["bare"] for side in (result["write_burst"], burst) if side.get("bare")]
        if sides:  # every saturated bare round of the run: the floor's own figures
            result["bare"] = totals([{"writes": side["writes"], "phase": side["machine"]} for side in sides],
                                    "writes") | {"rounds": [r for side in sides for r in side["rounds"]],
                                                 "latency_ms": summary_ms(bare.latency)}

        result |= {
            "streams": len(screens), "streams_opened": opened, "streams_dropped": len(bench.stream_drops),
            "streams_alive_at_end": streams_alive,
            "moves_sent": bench.moves_sent, "moves_failed": bench.moves_failed,
            "moves_per_s": round(bench.moves_sent / drive_s, 1) if drive_s else None,
            "moves_lost": bench.lost,
            "action_ms": summary_ms(bench.action_latency), "propagation_ms": summary_ms(bench.propagation),
            "events": events, "pushed_kb_per_move_per_screen": round(
                bench.pushed_bytes / 1024 / max(1, events["live"]), 2),
            "pushed_raw_kb_per_region": round(bench.pushed_raw / 1024 / max(1, events["live"]), 2),
            "healthz_load_ms": summary_ms(load_health), "healthz_idle_ms": summary_ms(idle_health),
            "load": load, "burst": burst,
            "client_loop_lag_ms": summary_ms(bench.loop_lag),
            "phases_ms": phases(bench.seen, args.notes) if args.notes else None,
            "slowest_moves": [{"ms": round(sec * 1000), "at_s": round(at - bench.streams_open_at, 1)}
                              for sec, at in bench.slowest],
            "move_failures": bench.move_failures, "stream_drop_samples": bench.stream_drops[:5],
        }
        return result
    finally:
        bench.stopping = True
        for task in background:
            task.cancel()
        for screen in screens:
            if screen.stream_task is not None:
                screen.stream_task.cancel()
        for pool in bench.pools + ([bare.pool] if bare is not None and bare.pool is not None else []):
            pool.close()
        await asyncio.sleep(0.1)


def phases(seen: list[tuple[str, int, float, float]], notes: Path) -> dict:
    """Each timed move's propagation in parts, from bench/phases.py's notes (same machine, same clock): commit to the
    last process's drawing handed over, and that drawing's own time; commit to the last stream taking its region to
    send (all on the server); and from there until this client read it (the client's own share, on the same cores)."""
    drawn, pushed = _bench_phases().read_notes(notes)
    parts: dict[str, list[float]] = {"drawn": [], "drawing": [], "pushed": [], "read": []}
    for code, version, committed, had in seen:
        if (code, version) in drawn and (code, version) in pushed:
            began, handed = drawn[code, version]
            parts["drawn"].append(handed - committed)
            parts["drawing"].append(handed - began)
            parts["pushed"].append(pushed[code, version] - committed)
            parts["read"].append(had - pushed[code, version])
    return {name: summary_ms(values) for name, values in parts.items()} | {"moves": len(parts["drawn"]),
                                                                           "of": len(seen)}


def _bench_phases():
    """bench/phases.py, which serves the app and reads its notes (bench/ is not a package)."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import phases as module
    finally:
        sys.path.pop(0)
    return module


def phase_lines(found: dict | None) -> list[str]:
    if not found:
        return []
    return [f"  drawn     {fmt(found['drawn'])}   (commit -> the last process's drawing handed to its streams)",
            f"  drawing   {fmt(found['drawing'])}   (that drawing alone: snapshot, renders, and any wait inside)",
            f"  pushed    {fmt(found['pushed'])}   (commit -> the last stream took its region to send)",
            f"  read      {fmt(found['read'])}   (that push -> this client read it; {found['moves']} of "
            f"{found['of']} moves matched)"]


def goals(result: dict, rate: float) -> list[tuple[str, bool | None]]:
    """Each of issue 16's goals this run can judge, as (sentence, met?); None: a figure printed beside them."""
    p, h = result["propagation_ms"], result["healthz_load_ms"]
    bare, paced, burst, alone = (result.get(key) or {} for key in ("bare", "bare_paced", "burst", "write_burst"))
    out = []
    if paced:
        x = ratio(result["cpu_ms_per_move"], paced["cpu_ms"])
        out.append((f"server CPU per move {result['cpu_ms_per_move']} ms = {x}x a bare write's {paced['cpu_ms']} ms, "
                    f"both at {paced['rate']}/s (goal <= {GOAL_CPU_PER_MOVE_X_BARE:.0f}x)",
                    x is not None and x <= GOAL_CPU_PER_MOVE_X_BARE))
    if burst.get("bare"):
        x = ratio(burst["cpu_ms_per_move"], burst["bare"]["cpu_ms"])
        out.append((f"server CPU per move {burst['cpu_ms_per_move']} ms with every screen open = {x}x a bare write's "
                    f"{burst['bare']['cpu_ms']} ms, both at saturation, in rounds side by side "
                    f"(goal <= {GOAL_CPU_PER_MOVE_X_BARE:.0f}x)", x is not None and x <= GOAL_CPU_PER_MOVE_X_BARE))
    if bare:
        x = ratio(result["cpu_ms_per_move"], bare["cpu_ms"])
        out.append((f"server CPU per move {result['cpu_ms_per_move']} ms at {rate:g}/s = {x}x a bare write's "
                    f"{bare['cpu_ms']} ms at saturation (not like for like: at saturation each request costs less)",
                    None))
    if alone.get("bare"):
        share = ratio(alone["per_s"], alone["bare"]["per_s"])
        out.append((f"write burst {alone['per_s']} moves/s = {share} of the bare write's {alone['bare']['per_s']}/s "
                    f"in rounds side by side (goal >= {GOAL_THROUGHPUT_SHARE})",
                    share is not None and share >= GOAL_THROUGHPUT_SHARE))
    if burst.get("bare"):  # not a goal of the issue: every screen's drawing is in this one
        share = ratio(burst["per_s"], burst["bare"]["per_s"])
        out.append((f"burst with every screen open {burst['per_s']} moves/s = {share} of the bare write's "
                    f"{burst['bare']['per_s']}/s (no goal)", None))
    x = ratio(p["p95"], h["p95"])
    out.append((f"propagation p95 {p['p95']} ms (goal <= {GOAL_PROPAGATION_P95_MS:.0f} ms) = {x}x healthz p95 "
                f"(goal <= {GOAL_PROPAGATION_X_HEALTHZ:.0f}x)",
                p["p95"] is not None and p["p95"] <= GOAL_PROPAGATION_P95_MS and x is not None
                and x <= GOAL_PROPAGATION_X_HEALTHZ))
    out.append((f"{result['streams_dropped']} streams dropped, {result['moves_lost']} moves lost, "
                f"{result['moves_failed']} failed (goal 0)",
                result["streams_dropped"] == 0 and result["moves_lost"] == 0 and result["moves_failed"] == 0))
    return out


def report(args, result: dict, worker: str, database: str, trouble: list[str]) -> None:
    a, p, h, hi = result["action_ms"], result["propagation_ms"], result["healthz_load_ms"], result["healthz_idle_ms"]
    load, e = result["load"], result["events"]
    bare, paced = result.get("bare"), result.get("bare_paced")

    def machine(phase: dict) -> str:
        return (f"server {phase['server_cpu_pct']}% of a core; other processes {phase['others_cpu_pct']}% "
                f"(client {phase['client_cpu_pct']}%); load average {phase['loadavg_1m']}")

    def per_round(side: dict) -> str:
        return " / ".join(str(value) for value in side["rounds"])

    screens = f"{args.phones} phones" + (" + the host screen" if args.host_screen else "")
    placement = "" if args.servers == 1 else (
        "; each table's screens on one server" if args.spread == "tables" else "; every table's screens spread")
    lines = [
        "",
        "== Night Shift live-update benchmark ==",
        f"config      {args.tables} tables x ({screens}) = {result['streams']} streams; {args.actions} moves at "
        f"{args.rate}/s; db {database}; {worker}{placement}",
        f"setup       tables+joins {result['setup_s']} s; streams opened in {result['streams_open_s']} s",
    ]
    if bare:
        lines.append(f"bare write  {bare['writes']} inserts+template at saturation, {args.concurrency} clients, in "
                     f"{len(bare['rounds'])} rounds beside the bursts': {bare['per_s']}/s (rounds {per_round(bare)}), "
                     f"server CPU {bare['cpu_ms']} ms per write; {fmt(bare['latency_ms'])}")
        lines.append(f"            machine: {machine(bare['machine'])}")
    if paced:
        lines.append(f"bare paced  {paced['writes']} writes as Poisson arrivals at {paced['rate']}/s like the moves, "
                     f"half just before them and half just after: server CPU {paced['cpu_ms']} ms per write; "
                     f"machine: {machine(paced['machine'])}")
    lines += [
        f"streams     opened {result['streams_opened']}/{result['streams']}, dropped {result['streams_dropped']}, "
        f"alive at end {result['streams_alive_at_end']}",
        f"moves       sent {result['moves_sent']}, failed {result['moves_failed']}, lost {result['moves_lost']} "
        f"(not on every screen within {LOST_AFTER:.0f} s), achieved {result['moves_per_s']}/s",
        f"action      {fmt(a)}",
        f"propagation {fmt(p)}   (commit -> the table's last screen has it)",
        *phase_lines(result.get("phases_ms")),
        f"pushed      {e['live']} regions, {e['beat']} heartbeats; {result['pushed_kb_per_move_per_screen']} KB on the "
        f"wire per region (gzip; {result['pushed_raw_kb_per_region']} KB raw)",
        f"healthz     under load {fmt(h)}",
        f"            idle+streams {fmt(hi)}; {result['healthz_cpu_ms']} ms server CPU each",
        f"server CPU  {result['cpu_ms_per_move']} ms per move (the load's server CPU less the healthz probes', "
        f"over {result['moves_sent'] - result['moves_failed']} moves)",
        f"            machine: {machine(load)}",
    ]
    for label, b in (("write burst", result.get("write_burst")), ("burst      ", result["burst"])):
        if b:
            lines.append(f"{label} {b['moves']} moves, {b['per_s']}/s (rounds {per_round(b)}), {b['cpu_ms_per_move']} "
                         f"ms server CPU per move, {b['regions_per_move']} regions pushed per move; "
                         f"machine: {machine(b['machine'])}")
            if b.get("bare"):
                lines.append(f"  beside   bare writes {b['bare']['per_s']}/s (rounds {per_round(b['bare'])}), "
                             f"{b['bare']['cpu_ms']} ms server CPU per write; machine: {machine(b['bare']['machine'])}")
    lines += [
        f"memory      RSS {result['rss_idle_streams_mb']} MB idle with streams, {result['rss_end_mb']} MB at the end",
        f"client      event-loop lag {fmt(result['client_loop_lag_ms'])}",
        "slowest     " + ", ".join(f"{m['ms']} ms at +{m['at_s']} s" for m in result["slowest_moves"]),
    ]
    for label, items in (("move failures", result["move_failures"]), ("stream drops", result["stream_drop_samples"])):
        if items:
            lines.append(f"{label}:")
            lines.extend(f"  {item}" for item in items)
    if trouble:
        lines.append(f"server log: {len(trouble)} warning/error lines, first ones:")
        lines.extend(f"  {line[:200]}" for line in trouble[:8])
    judged = goals(result, args.rate)
    lines += [f"GOAL {'PASS' if met else 'FAIL'}  {sentence}" if met is not None else f"NOTE       {sentence}"
              for sentence, met in judged]
    print("\n".join(lines))
    compact = {k: v for k, v in result.items() if k not in ("move_failures", "stream_drop_samples")}
    compact |= {"tables": args.tables, "phones": args.phones, "host_screen": args.host_screen, "actions": args.actions,
                "rate": args.rate, "servers": args.servers, "spread": args.spread, "workers": args.workers,
                "database": database, "worker": worker, "server_log_trouble": len(trouble),
                "goals": {sentence: met for sentence, met in judged}}
    print(json.dumps(compact, separators=(",", ":")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables (default 100)")
    parser.add_argument("--phones", type=int, default=6, help="phones per table, each a seat (default 6)")
    parser.add_argument("--no-host-screen", dest="host_screen", action="store_false",
                        help="don't open each table's host screen (opened by default)")
    parser.add_argument("--actions", type=int, default=1500, help="moves in total (default 1500)")
    parser.add_argument("--rate", type=float, default=20.0, help="moves per second across all tables (default 20)")
    parser.add_argument("--servers", type=int, default=1, help="app servers on one database, screens spread over them")
    parser.add_argument("--spread", choices=("screens", "tables"), default="screens",
                        help="with several servers: every table's screens spread over them (default), or each "
                             "table's screens on one server, its moves sent there too")
    parser.add_argument("--workers", type=int, default=1, help="gunicorn workers per server (default 1)")
    parser.add_argument("--database-url", help="SQLAlchemy URL (default: SQLite in a fresh temp instance dir)")
    parser.add_argument("--no-bare", dest="bare", action="store_false",
                        help="skip the bare-write floor (bench/bare.py) and the goals judged against it")
    parser.add_argument("--paced-writes", type=int, default=300,
                        help="bare writes at --rate, the moves' pace, half just before the moves and half just after, "
                             "for a like-for-like floor (0: skip)")
    parser.add_argument("--burst", type=float, default=6.0,
                        help="seconds of moves as fast as they go, with no screen open and again with every screen "
                             "open, each beside as long a run of bare writes (0: skip)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="each burst in this many rounds, alternating with the bare writes' (default 3)")
    parser.add_argument("--concurrency", type=int, default=8, help="clients in the bare floor and the burst")
    parser.add_argument("--beat", type=float, help="the streams' heartbeat, seconds (default: the server's, 15)")
    parser.add_argument("--game", default="tracker", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help="random seed for tables, moves and timing")
    parser.add_argument("--phases", action="store_true",
                        help="serve through bench/phases.py and print where propagation goes (costs CPU: a run "
                             "with it measures time, not CPU)")
    parser.add_argument("--idle-samples", type=int, default=200, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=600, help="hard limit for the whole run, seconds")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 1000 and 1 <= args.phones <= 8 and 0 <= args.actions <= 100_000 and args.rate > 0
            and 1 <= args.servers <= 4 and 1 <= args.workers <= 8 and args.concurrency >= 1
            and 0 <= args.paced_writes <= 10_000 and 1 <= args.rounds <= 100 and 0 <= args.burst <= 600):
        parser.error("need 1..1000 tables, 1..8 phones, 0..100000 actions, a positive rate, 1..4 servers, "
                     "1..8 workers, 0..10000 paced writes, 1..100 rounds, a burst of 0..600 s")
    if (args.servers > 1 or args.workers > 1) and not (args.database_url or "").startswith("postgresql"):
        parser.error("several workers or servers need PostgreSQL (--database-url postgresql://...): SQLite serves one")
    streams = args.tables * (args.phones + args.host_screen)
    soft, _ = raise_nofile(max(4096, 4 * streams + 256))
    if soft < 2 * streams + 256:
        print(f"warning: open-file limit {soft} is low for {streams} streams", flush=True)

    def out_of_time(*_):
        raise TimeoutError(f"benchmark exceeded --timeout {args.timeout:.0f} s")
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.timeout) + 30)  # a backstop behind asyncio's own timeout

    tmp = Path(tempfile.mkdtemp(prefix="nightshift-bench-"))
    args.notes = tmp / "phases.notes" if args.phases else None
    database_url = args.database_url or f"sqlite:///{tmp / 'nightshift.sqlite3'}"
    servers: list[subprocess.Popen] = []
    log_paths: list[Path] = []
    bare = None
    try:
        if args.bare:
            print("starting the bare-write floor (bench/bare.py) ...", flush=True)
            bare = BareServer(args, database_url, tmp)
            wait_healthy(bare.process, bare.port, bare.log_path)  # before Night Shift migrates the same database
        ports = [free_port() for _ in range(args.servers)]
        for n, port in enumerate(ports):  # one after another: the first creates or upgrades the database
            instance = tmp / f"instance-{n}"
            instance.mkdir()
            log_paths.append(tmp / f"server-{n}.log")
            print(f"starting server {n + 1}/{args.servers} on {HOST}:{port} ({args.workers} worker(s), open-file "
                  f"limit {soft}) ...", flush=True)
            servers.append(start_server(instance, database_url, port, log_paths[-1], args.workers, args.beat,
                                        notes=args.notes))
            wait_healthy(servers[-1], port, log_paths[-1])
        result = asyncio.run(asyncio.wait_for(run(args, ports, [server.pid for server in servers], bare),
                                              args.timeout))
        worker, trouble = log_facts(log_paths)
        report(args, result, worker, hide_password(database_url), trouble)
        return 0
    except BaseException as error:
        if isinstance(error, TimeoutError):
            print(f"benchmark exceeded --timeout {args.timeout:.0f} s", file=sys.stderr)
        for log_path in log_paths:
            if log_path.exists():
                print(f"--- {log_path.name} tail ---\n{log_path.read_text(errors='replace')[-2000:]}", file=sys.stderr)
        raise
    finally:
        signal.alarm(0)
        if bare is not None:
            bare.stop()
        for server in servers:
            stop_server(server)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
