"""Run the real `nightshift` server (gunicorn, gevent worker) in a child process for restart and browser tests."""

from __future__ import annotations

import os
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(instance: Path, database_url: str, port: int, public_url: str | None = None, workers: int = 1,
                 log=None, env: dict[str, str] | None = None, https: bool = False) -> subprocess.Popen:
    """Start Night Shift as the README does (in its own process group) and wait until it answers (`https`: as
    `nightshift --https`, with the certificate it makes, which nobody else signed)."""
    extra = env or {}
    env = {key: value for key, value in os.environ.items() if not key.startswith("NIGHTSHIFT_")}
    env |= {"NIGHTSHIFT_INSTANCE_PATH": str(instance), "NIGHTSHIFT_DATABASE_URL": database_url} | extra
    if public_url is not None:
        env["NIGHTSHIFT_PUBLIC_URL"] = public_url.format(port=port)
    log_path = instance.parent / f"server-{port}.log"
    process = subprocess.Popen([sys.executable, "-m", "app", "--host", "127.0.0.1", "--port", str(port),
                                "--workers", str(workers), *(["--https"] if https else [])],
                               cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while True:
        try:
            scheme, unchecked = ("https", ssl._create_unverified_context()) if https else ("http", None)
            with urllib.request.urlopen(f"{scheme}://127.0.0.1:{port}/", timeout=2, context=unchecked) as response:
                if response.status == 200:
                    return process
        except OSError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"Night Shift did not start: {log_path.read_text()}")
        time.sleep(0.2)


@contextmanager
def running_server(instance: Path, database_url: str, port: int | None = None, public_url: str | None = None,
                   workers: int = 1, env: dict[str, str] | None = None, https: bool = False):
    """Start Night Shift as the README does, wait until it answers, and stop it cleanly afterwards."""
    port = port or free_port()
    log = open(instance.parent / f"server-{port}.log", "ab")  # noqa: SIM115 - closed below
    try:
        process = start_server(instance, database_url, port, public_url, workers, log, env, https)
    except RuntimeError:
        log.close()
        raise
    base = f"{'https' if https else 'http'}://127.0.0.1:{port}"
    try:
        yield base
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
