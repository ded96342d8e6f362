"""Live-update benchmark: K tables x P phones on the real server, moves through the JSON API, and how long until
every phone of a table shows the new version (the htmx live region's refetch), against a bare /healthz baseline.

    .venv/bin/python bench/live.py [--tables 100] [--phones 6] [--actions 1500] [--rate 20]
                                   [--database-url URL] [--port PORT]

Stdlib + psutil only: asyncio raw sockets speak HTTP/1.1 (keep-alive, chunked) to 127.0.0.1. See bench/README.md.
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
from datetime import datetime
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
LOST_AFTER = 10.0  # a move not shown on all its table's phones within this many seconds is lost
GOAL_PROPAGATION_P95_MS = 300.0
KEEPALIVE_IDLE = 1.5  # gunicorn closes an idle keep-alive connection after 2 s; reopen ours before that

HXGET_RE = re.compile(rb'hx-get="([^"]*)"')
SHOWN_RE = re.compile(rb'data-version="(\d+)" data-presence="([^"]*)"')  # what live.js adds to each refresh


# ---- numbers -----------------------------------------------------------------------------------------------------


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def summary_ms(values: list[float]) -> dict[str, float | None]:
    """p50/p95/max of seconds, in milliseconds."""
    def ms(value):
        return None if value is None else round(value * 1000, 1)
    return {"n": len(values), "p50": ms(pct(values, 50)), "p95": ms(pct(values, 95)),
            "max": ms(max(values) if values else None)}


def fmt(stats: dict) -> str:
    def one(value):
        return "-" if value is None else f"{value:.1f}"
    return f"p50 {one(stats['p50'])}  p95 {one(stats['p95'])}  max {one(stats['max'])} ms  (n={stats['n']})"


def ratio(a, b):
    return None if a is None or not b else round(a / b, 1)


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


# ---- the model of a table and its phones -------------------------------------------------------------------------


class Phone:
    def __init__(self, table: Table, index: int, token: str, seat: int):
        self.table, self.index, self.token, self.seat = table, index, token, seat
        self.auth = {"Authorization": f"Bearer {token}"}
        self.live_url = f"/t/{table.code}/live"
        self.version = 0
        self.dirty = asyncio.Event()
        self.connected = asyncio.Event()
        self.conn: Conn | None = None
        self.stream_task: asyncio.Task | None = None
        self.fetch_task: asyncio.Task | None = None


class Table:
    def __init__(self, code: str, join_key: str, host_token: str, version: int):
        self.code, self.join_key, self.host_token, self.version = code, join_key, host_token, version
        self.phones: list[Phone] = []
        self.counters: list[dict] = []  # {"key", "scope", "value", "min", "max", "seat"?}
        self.busy = False
        self.min_seen = 0  # every phone of this table has fetched at least this version
        self.reached: dict[int, float] = {}  # version -> wall time when the last phone reached it
        self.pending: dict[int, float] = {}  # version -> commit time, waiting for the last phone


class Bench:
    def __init__(self, args, port: int):
        self.args, self.port = args, port
        self.tables: list[Table] = []
        self.stopping = False
        self.stream_drops: list[str] = []
        self.signals = {"table-changed": 0, "seats-changed": 0, "ping": 0}
        self.fetch = {"200": 0, "204": 0, "other": 0, "errors": 0}
        self.fetch_latency: list[float] = []
        self.fetch_errors: list[str] = []
        self.measuring = False
        self.action_latency: list[float] = []
        self.propagation: list[float] = []
        self.moves_sent = 0
        self.moves_failed = 0
        self.move_failures: list[str] = []
        self.lost = 0
        self.loop_lag: list[float] = []
        self.loop_lag_worst = (0.0, 0.0)  # (lag, wall time)
        self.slowest: list[tuple[float, float]] = []  # (propagation, commit wall time), the worst few
        self.streams_open_at = time.time()

    # -- setup ---------------------------------------------------------------------------------------------------

    async def create_tables(self, pool: Pool) -> None:
        args = self.args
        options = {"players": args.phones}
        sem = asyncio.Semaphore(len(pool.all))

        async def one(i: int):
            async with sem:
                status, data = await pool.json("POST", "/api/tables", {"game": args.game, "options": options})
                if status != 201:
                    raise RuntimeError(f"POST /api/tables -> {status}: {data}")
                table = Table(data["code"], data["join_key"], data["host_token"], data["version"])
                for n in range(args.phones):
                    status, joined = await pool.json("POST", f"/api/tables/{table.code}/join",
                                                     {"name": f"Phone {n + 1}", "key": table.join_key})
                    if status != 201:
                        raise RuntimeError(f"join {table.code} -> {status}: {joined}")
                    table.phones.append(Phone(table, n, joined["seat_token"], joined["seat"]))
                status, described = await pool.json("GET", f"/api/tables/{table.code}", token=table.phones[0].token)
                if status != 200:
                    raise RuntimeError(f"GET /api/tables/{table.code} -> {status}: {described}")
                table.version = described.get("version", table.version)
                table.counters = parse_counters(described.get("view"))
                return table

        self.tables = list(await asyncio.gather(*(one(i) for i in range(args.tables))))

    # -- a phone: its event stream and its live-region fetcher ---------------------------------------------------

    async def stream(self, phone: Phone) -> None:
        table = phone.table
        writer = None
        try:
            reader, writer = await asyncio.open_connection(HOST, self.port)
            writer.write(request_bytes("GET", f"/t/{table.code}/events?v={phone.version}",
                                       {"Accept": "text/event-stream", **phone.auth}, None))
            status, headers = await read_head(reader)
            if status != 200:
                raise HTTPError(f"events -> {status}")
            chunked = headers.get("transfer-encoding", "").lower() == "chunked"
            buffer = b""
            signals = self.signals
            while True:
                data = await read_chunk(reader) if chunked else await reader.read(65536)
                if not data:
                    raise HTTPError("stream closed by the server")
                buffer += data
                if b"\n\n" not in buffer:
                    continue
                *blocks, buffer = buffer.split(b"\n\n")
                for block in blocks:
                    if block.startswith(b"event: table-changed"):
                        signals["table-changed"] += 1
                        phone.dirty.set()
                    elif block.startswith(b"event: seats-changed"):
                        signals["seats-changed"] += 1
                        phone.dirty.set()  # the htmx region refetches on seats-changed too
                    elif block.startswith(b": ping"):
                        signals["ping"] += 1
                    elif b": connected" in block:
                        phone.connected.set()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - any end before we stop it is a dropped stream
            if not self.stopping:
                self.stream_drops.append(f"{table.code}/{phone.seat}: {type(error).__name__}: {error}"[:200])
                phone.connected.set()  # don't let the opening wait hang on it
        finally:
            if writer is not None:
                writer.close()

    async def fetch_live(self, phone: Phone) -> None:
        """GET the phone's region with the version it shows, as live.js does on a signal; 200 carries a new version."""
        started = time.perf_counter()
        try:
            status, _, body = await phone.conn.request("GET", phone.live_url, phone.auth)
        except (ConnectionError, asyncio.IncompleteReadError, OSError, HTTPError) as error:
            self.fetch["errors"] += 1
            if len(self.fetch_errors) < 5:
                self.fetch_errors.append(f"{phone.live_url}: {type(error).__name__}: {error}")
            return
        now = time.time()
        if self.measuring:
            self.fetch_latency.append(time.perf_counter() - started)
        if status == 204:
            self.fetch["204"] += 1
            return
        if status != 200:
            self.fetch["other"] += 1
            if len(self.fetch_errors) < 5:
                self.fetch_errors.append(f"{phone.live_url} -> {status}: {body[:200]!r}")
            return
        self.fetch["200"] += 1
        head = body[:4000]
        url = HXGET_RE.search(head)
        shown = SHOWN_RE.search(head)
        if url is None or shown is None:
            self.fetch["other"] += 1
            return
        base = url.group(1).decode().replace("&amp;", "&")
        joiner = "&" if "?" in base else "?"
        phone.live_url = f"{base}{joiner}v={shown.group(1).decode()}&p={shown.group(2).decode()}"
        self.saw(phone, int(shown.group(1)), now)

    def saw(self, phone: Phone, version: int, now: float) -> None:
        if version <= phone.version:
            return
        phone.version = version
        table = phone.table
        low = min(p.version for p in table.phones)
        if low <= table.min_seen:
            return
        for reached in range(table.min_seen + 1, low + 1):
            committed = table.pending.pop(reached, None)
            if committed is None:
                table.reached[reached] = now
            else:
                self.record_propagation(now - committed, committed)
        table.min_seen = low

    def record_propagation(self, seconds: float, committed: float) -> None:
        if seconds > LOST_AFTER:
            self.lost += 1
        else:
            self.propagation.append(max(0.0, seconds))
        if len(self.slowest) < 5 or seconds > self.slowest[-1][0]:
            self.slowest = sorted([*self.slowest, (seconds, committed)], reverse=True)[:5]

    async def fetcher(self, phone: Phone) -> None:
        """One fetch at a time per phone; signals that arrive meanwhile coalesce into one more fetch."""
        while True:
            await phone.dirty.wait()
            phone.dirty.clear()
            await self.fetch_live(phone)

    # -- moves -----------------------------------------------------------------------------------------------------

    def pick_action(self, table: Table, phone: Phone, rng: random.Random) -> dict:
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

    async def move(self, pool: Pool, table: Table, rng: random.Random, freed: asyncio.Event) -> None:
        phone = rng.choice(table.phones)
        action = self.pick_action(table, phone, rng)
        started = time.perf_counter()
        try:
            status, data = await pool.json("POST", f"/api/tables/{table.code}/actions", action, token=phone.token)
            elapsed = time.perf_counter() - started
            if status != 200:
                self.moves_failed += 1
                if len(self.move_failures) < 8:
                    self.move_failures.append(f"{table.code} {action} -> {status}: {json.dumps(data)[:200]}")
                table.counters = parse_counters_keep(table.counters, data)
                return
            self.action_latency.append(elapsed)
            version = data["version"]
            committed = datetime.fromisoformat(data["log"][-1]["at"]).timestamp()
            fresh = parse_counters(data.get("view"))
            if fresh:
                table.counters = fresh
            if version in table.reached:
                self.record_propagation(table.reached.pop(version) - committed, committed)
            elif version <= table.min_seen:
                self.record_propagation(0.0, committed)
            else:
                table.pending[version] = committed
        except (ConnectionError, asyncio.IncompleteReadError, OSError, HTTPError, KeyError, ValueError) as error:
            self.moves_failed += 1
            if len(self.move_failures) < 8:
                self.move_failures.append(f"{table.code} {action}: {type(error).__name__}: {error}")
        finally:
            table.busy = False
            freed.set()

    async def drive(self, pool: Pool) -> float:
        """Poisson arrivals at --rate across all tables, at most one move in flight per table."""
        args = self.args
        rng = random.Random(args.seed)
        freed = asyncio.Event()
        tasks = set()
        start = time.perf_counter()
        next_at = start
        for _ in range(args.actions):
            next_at += rng.expovariate(args.rate)
            delay = next_at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            while True:
                idle = [t for t in self.tables if not t.busy]
                if idle:
                    break
                freed.clear()
                await freed.wait()
            table = rng.choice(idle)
            table.busy = True
            self.moves_sent += 1
            task = asyncio.create_task(self.move(pool, table, rng, freed))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        if tasks:
            await asyncio.gather(*tasks)
        return time.perf_counter() - start

    async def settle(self, timeout: float) -> None:
        """Wait until every move's propagation completed (or `timeout`), then count the rest as lost."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and any(t.pending for t in self.tables):
            await asyncio.sleep(0.05)
        self.lost += sum(len(t.pending) for t in self.tables)

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
            lag = time.perf_counter() - started - 0.01
            self.loop_lag.append(lag)
            if lag > self.loop_lag_worst[0]:
                self.loop_lag_worst = (lag, time.time())


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


def start_server(instance: Path, database_url: str, port: int, log_path: Path) -> subprocess.Popen:
    env = {key: value for key, value in os.environ.items() if not key.startswith("NIGHTSHIFT_")}
    env |= {"NIGHTSHIFT_INSTANCE_PATH": str(instance), "NIGHTSHIFT_DATABASE_URL": database_url}
    log = open(log_path, "ab")  # noqa: SIM115 - the child keeps it; closed with the process
    try:
        return subprocess.Popen([sys.executable, "-m", "app", "--host", HOST, "--port", str(port)],
                                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
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


def server_rss_mb(pid: int) -> float | None:
    try:
        root = psutil.Process(pid)
        total = root.memory_info().rss + sum(child.memory_info().rss for child in root.children(recursive=True))
        return round(total / 2**20, 1)
    except psutil.Error:
        return None


def server_cpu_seconds(pid: int) -> float:
    try:
        root = psutil.Process(pid)
        total = 0.0
        for proc in [root, *root.children(recursive=True)]:
            times = proc.cpu_times()
            total += times.user + times.system
        return total
    except psutil.Error:
        return 0.0


def busy_cpu_seconds() -> float:
    """CPU seconds every process on the machine used (all cores), to see what else ran during the load."""
    times = psutil.cpu_times()
    return times.user + times.nice + times.system + getattr(times, "irq", 0) + getattr(times, "softirq", 0)


def own_cpu_seconds() -> float:
    times = psutil.Process().cpu_times()
    return times.user + times.system


def log_facts(log_path: Path) -> tuple[str, list[str]]:
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    worker = "?"
    workers = 0
    for line in text.splitlines():
        if "Using worker:" in line:
            worker = line.split("Using worker:", 1)[1].strip()
        if "Booting worker" in line:
            workers += 1
    trouble = [line for line in text.splitlines()
               if any(word in line for word in ("Traceback", "ERROR", "CRITICAL", "WARNING", "Error", "exception"))]
    return f"gunicorn, {workers or '?'} x {worker} worker", trouble


def hide_password(url: str) -> str:
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


# ---- the run -----------------------------------------------------------------------------------------------------


async def run(args, port: int, server: subprocess.Popen) -> dict:
    bench = Bench(args, port)
    pid = server.pid
    result: dict = {}
    pool = Pool(port, size=min(32, max(4, args.tables)))
    background: list[asyncio.Task] = []
    try:
        # 1. tables and seats
        started = time.perf_counter()
        await bench.create_tables(pool)
        phones = [phone for table in bench.tables for phone in table.phones]
        result["setup_s"] = round(time.perf_counter() - started, 2)
        print(f"created {len(bench.tables)} tables, joined {len(phones)} phones in {result['setup_s']} s", flush=True)
        if args.actions and not any(table.counters for table in bench.tables):
            print("note: no counters in view.counters; moves will all be dice rolls", flush=True)

        # 2. first live fetch per phone (the page load), then open every event stream
        for phone in phones:
            phone.conn = Conn(port)
        sem = asyncio.Semaphore(64)

        async def first_fetch(phone):
            async with sem:
                await bench.fetch_live(phone)
        await asyncio.gather(*(first_fetch(phone) for phone in phones))
        background.append(asyncio.create_task(bench.loop_lag_probe()))
        started = time.perf_counter()
        for i, phone in enumerate(phones):
            phone.stream_task = asyncio.create_task(bench.stream(phone))
            phone.fetch_task = asyncio.create_task(bench.fetcher(phone))
            if i % 50 == 49:
                await asyncio.sleep(0)  # let connects proceed in waves
        try:
            await asyncio.wait_for(asyncio.gather(*(phone.connected.wait() for phone in phones)), 60)
        except TimeoutError:
            pass
        opened = sum(1 for phone in phones if phone.connected.is_set()) - len(bench.stream_drops)
        result["streams_open_s"] = round(time.perf_counter() - started, 2)
        bench.streams_open_at = time.time()
        print(f"opened {opened}/{len(phones)} event streams in {result['streams_open_s']} s", flush=True)

        # 3. let the seats-changed refetches settle, then a quiet baseline with every stream open
        quiet_since = time.monotonic()
        last = dict(bench.fetch)
        while time.monotonic() - quiet_since < 1.0:
            await asyncio.sleep(0.2)
            if bench.fetch != last or any(phone.dirty.is_set() for phone in phones):
                last, quiet_since = dict(bench.fetch), time.monotonic()
        print(f"settled: {bench.signals['seats-changed']} seats-changed signals, {bench.fetch['200']} x 200 / "
              f"{bench.fetch['204']} x 204 live fetches so far", flush=True)
        bench.loop_lag.clear()
        bench.loop_lag_worst = (0.0, 0.0)
        idle_health: list[float] = []
        await bench.healthz_series(Conn(port), args.idle_samples, 0.0, idle_health)
        result["rss_idle_streams_mb"] = server_rss_mb(pid)
        fetch_before = dict(bench.fetch)
        signals_before = dict(bench.signals)

        # 4. the load, with the healthz baseline alongside
        load_health: list[float] = []
        health_task = asyncio.create_task(bench.healthz_series(Conn(port), None, 0.05, load_health))
        background.append(health_task)
        bench.measuring = True
        cpu_server, cpu_client, wall = server_cpu_seconds(pid), own_cpu_seconds(), time.perf_counter()
        cpu_all = busy_cpu_seconds()
        load_at = time.time()
        print(f"driving {args.actions} moves at {args.rate}/s across {len(bench.tables)} tables ...", flush=True)
        drive_s = await bench.drive(pool)
        await bench.settle(LOST_AFTER)
        wall = time.perf_counter() - wall
        cpu_server, cpu_client = server_cpu_seconds(pid) - cpu_server, own_cpu_seconds() - cpu_client
        cpu_others = max(0.0, busy_cpu_seconds() - cpu_all - cpu_server - cpu_client)
        bench.measuring = False
        health_task.cancel()
        result["rss_end_mb"] = server_rss_mb(pid)
        streams_alive = sum(1 for phone in phones if phone.stream_task and not phone.stream_task.done())

        fetch = {key: bench.fetch[key] - fetch_before[key] for key in bench.fetch}
        signals = {key: bench.signals[key] - signals_before[key] for key in bench.signals}
        result |= {
            "streams": len(phones), "streams_opened": opened, "streams_dropped": len(bench.stream_drops),
            "streams_alive_at_end": streams_alive,
            "moves_sent": bench.moves_sent, "moves_failed": bench.moves_failed,
            "moves_per_s": round(bench.moves_sent / drive_s, 1) if drive_s else None,
            "moves_lost": bench.lost,
            "action_ms": summary_ms(bench.action_latency), "propagation_ms": summary_ms(bench.propagation),
            "fetch": fetch, "fetch_ms": summary_ms(bench.fetch_latency), "signals": signals,
            "healthz_load_ms": summary_ms(load_health), "healthz_idle_ms": summary_ms(idle_health),
            "server_cpu_pct": round(100 * cpu_server / wall, 1), "client_cpu_pct": round(100 * cpu_client / wall, 1),
            "client_loop_lag_ms": summary_ms(bench.loop_lag),
            "other_processes_cpu_pct": round(100 * cpu_others / wall, 1),
            "load_started_s_after_streams": round(load_at - bench.streams_open_at, 1),
            "slowest_moves": [{"ms": round(sec * 1000), "at_s": round(at - bench.streams_open_at, 1)}
                              for sec, at in bench.slowest],
            "client_worst_lag_at_s": round(bench.loop_lag_worst[1] - bench.streams_open_at, 1)
            if bench.loop_lag_worst[1] else None,
            "move_failures": bench.move_failures, "fetch_errors": bench.fetch_errors,
            "stream_drop_samples": bench.stream_drops[:5],
        }
        return result
    finally:
        bench.stopping = True
        for task in background:
            task.cancel()
        for table in bench.tables:
            for phone in table.phones:
                for task in (phone.stream_task, phone.fetch_task):
                    if task is not None:
                        task.cancel()
                if phone.conn is not None:
                    phone.conn.close()
        pool.close()
        await asyncio.sleep(0.1)


def report(args, result: dict, worker: str, database: str, trouble: list[str]) -> None:
    a, p, h, hi = result["action_ms"], result["propagation_ms"], result["healthz_load_ms"], result["healthz_idle_ms"]
    f = result["fetch"]
    goal = (p["p95"] is not None and p["p95"] < GOAL_PROPAGATION_P95_MS and result["streams_dropped"] == 0)
    result["goal_pass"] = goal
    result["ratio_action_p95_healthz_p95"] = ratio(a["p95"], h["p95"])
    result["ratio_propagation_p95_healthz_p95"] = ratio(p["p95"], h["p95"])
    lines = [
        "",
        "== Night Shift live-update benchmark ==",
        f"config      {args.tables} tables x {args.phones} phones = {result['streams']} streams; "
        f"{args.actions} moves at {args.rate}/s; db {database}; {worker}",
        f"setup       tables+joins {result['setup_s']} s; streams opened in {result['streams_open_s']} s",
        f"streams     opened {result['streams_opened']}/{result['streams']}, dropped {result['streams_dropped']}, "
        f"alive at end {result['streams_alive_at_end']}",
        f"moves       sent {result['moves_sent']}, failed {result['moves_failed']}, lost {result['moves_lost']} "
        f"(not on every phone within {LOST_AFTER:.0f} s), achieved {result['moves_per_s']}/s",
        f"action      {fmt(a)}",
        f"propagation {fmt(p)}   (commit -> last phone of the table shows it)",
        f"view fetch  {f['200']} x 200, {f['204']} x 204, {f['other']} other, {f['errors']} errors; "
        f"{fmt(result['fetch_ms'])}",
        f"signals     {result['signals']['table-changed']} table-changed, {result['signals']['seats-changed']} "
        f"seats-changed, {result['signals']['ping']} pings during the load",
        f"healthz     under load {fmt(h)}",
        f"            idle+streams {fmt(hi)}",
        f"ratios      action p95 / healthz p95 = {result['ratio_action_p95_healthz_p95']}; "
        f"propagation p95 / healthz p95 = {result['ratio_propagation_p95_healthz_p95']}",
        f"server      RSS {result['rss_idle_streams_mb']} MB idle with streams, {result['rss_end_mb']} MB at the end; "
        f"CPU {result['server_cpu_pct']}% of one core during the load",
        f"client      CPU {result['client_cpu_pct']}%; event-loop lag {fmt(result['client_loop_lag_ms'])}, "
        f"worst at +{result['client_worst_lag_at_s']} s; other processes on the machine used "
        f"{result['other_processes_cpu_pct']}% of one core",
        "slowest     " + ", ".join(f"{m['ms']} ms at +{m['at_s']} s" for m in result["slowest_moves"])
        + f"  (seconds after the streams opened; the load began at +{result['load_started_s_after_streams']} s)",
    ]
    for label, items in (("move failures", result["move_failures"]), ("fetch errors", result["fetch_errors"]),
                         ("stream drops", result["stream_drop_samples"])):
        if items:
            lines.append(f"{label}:")
            lines.extend(f"  {item}" for item in items)
    if trouble:
        lines.append(f"server log: {len(trouble)} warning/error lines, first ones:")
        lines.extend(f"  {line[:200]}" for line in trouble[:8])
    lines.append(f"GOAL propagation p95 < {GOAL_PROPAGATION_P95_MS:.0f} ms and 0 streams dropped: "
                 f"{'PASS' if goal else 'FAIL'}"
                 + (f"  (note: {result['moves_lost']} moves lost)" if result["moves_lost"] else ""))
    print("\n".join(lines))
    compact = {k: v for k, v in result.items() if k not in ("move_failures", "fetch_errors", "stream_drop_samples")}
    compact |= {"tables": args.tables, "phones": args.phones, "actions": args.actions, "rate": args.rate,
                "database": database, "worker": worker, "server_log_trouble": len(trouble)}
    print(json.dumps(compact, separators=(",", ":")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="tables (default 100)")
    parser.add_argument("--phones", type=int, default=6, help="phones per table, each a seat (default 6)")
    parser.add_argument("--actions", type=int, default=1500, help="moves in total (default 1500)")
    parser.add_argument("--rate", type=float, default=20.0, help="moves per second across all tables (default 20)")
    parser.add_argument("--database-url", help="SQLAlchemy URL (default: SQLite in a fresh temp instance dir)")
    parser.add_argument("--port", type=int, help="port for the server (default: a free one)")
    parser.add_argument("--game", default="tracker", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help="random seed for tables, moves and timing")
    parser.add_argument("--idle-samples", type=int, default=200, help=argparse.SUPPRESS)
    parser.add_argument("--timeout", type=float, default=600, help="hard limit for the whole run, seconds")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 1000 and 1 <= args.phones <= 8 and 0 <= args.actions <= 100_000 and args.rate > 0):
        parser.error("need 1..1000 tables, 1..8 phones, 0..100000 actions and a positive rate")

    soft, _ = raise_nofile(max(4096, 4 * args.tables * args.phones + 256))
    if soft < 2 * args.tables * args.phones + 256:
        print(f"warning: open-file limit {soft} is low for {args.tables * args.phones} streams", flush=True)

    def out_of_time(*_):
        raise TimeoutError(f"benchmark exceeded --timeout {args.timeout:.0f} s")
    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(int(args.timeout) + 30)  # a backstop behind asyncio's own timeout

    tmp = Path(tempfile.mkdtemp(prefix="nightshift-bench-"))
    instance = tmp / "instance"
    instance.mkdir()
    database_url = args.database_url or f"sqlite:///{instance / 'nightshift.sqlite3'}"
    port = args.port or free_port()
    log_path = tmp / "server.log"
    server = None
    try:
        print(f"starting the server on {HOST}:{port} (open-file limit {soft}) ...", flush=True)
        server = start_server(instance, database_url, port, log_path)
        wait_healthy(server, port, log_path)
        result = asyncio.run(asyncio.wait_for(run(args, port, server), args.timeout))
        worker, trouble = log_facts(log_path)
        report(args, result, worker, hide_password(database_url), trouble)
        return 0
    except BaseException as error:
        if isinstance(error, TimeoutError):
            print(f"benchmark exceeded --timeout {args.timeout:.0f} s", file=sys.stderr)
        if log_path.exists():
            tail = log_path.read_text(errors="replace")[-2000:]
            print(f"--- server log tail ---\n{tail}", file=sys.stderr)
        raise
    finally:
        signal.alarm(0)
        if server is not None:
            stop_server(server)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
