"""`nightshift`: migrate the database and serve Night Shift on the LAN with gunicorn and a gevent worker."""

from __future__ import annotations

import argparse
import gc
import os
import resource
import sys
from pathlib import Path
from urllib.parse import urlsplit

BANNER = """
  Night Shift is running.
  Host screen on this machine: {scheme}://127.0.0.1:{port}/
  Phones on the same Wi-Fi:    {lan}
  Database: {database}
  Live screens: up to {screens} per worker
  Stop with Ctrl+C.
"""


def _prepare(port: int, workers: int) -> tuple[int, tuple[Path, Path] | None]:
    """Create or upgrade the database once, in the parent process, before any worker starts; returns each worker's
    connections (gunicorn's worker_connections), and the certificate and key files under `--https`."""
    from . import create_app
    from .database import upgrade_database
    from .extensions import db
    from .tables import lan
    from .tables.purge import purge_expired

    app = create_app()
    if workers > 1 and app.extensions["nightshift.broker"].kind == "in-process":
        raise SystemExit("SQLite serves one worker: live updates can't reach other workers, so phones on one would "
                         "miss moves made on another. One worker holds a game night easily; for several workers "
                         "or app servers, use PostgreSQL (NIGHTSHIFT_DATABASE_URL=postgresql://...).")
    upgrade_database(app)
    with app.app_context():
        print(purge_expired(), flush=True)  # on every start; `nightshift purge` does it on its own
        url = db.engine.url.render_as_string(hide_password=True)
        db.engine.dispose()  # workers open their own connections after the fork
    scheme = "https" if app.config["HTTPS"] else "http"
    base = lan.base_url(app.config.get("PUBLIC_URL", ""), port, f"127.0.0.1:{port}", scheme=scheme)
    tls = None
    if app.config["HTTPS"]:
        from .certificate import ensure, names_for

        public = urlsplit(app.config.get("PUBLIC_URL", "")).hostname or ""
        tls = ensure(Path(app.instance_path), names_for([address.ip for address in lan.candidates()], public))
    connections = _connections(app.config)
    print(BANNER.format(port=port, scheme=scheme, lan=f"{base.url}/ ({base.source})", database=url,
                        screens=f"{connections - int(app.config['CONNECTION_RESERVE']):,}"), flush=True)
    return connections, tls


FILES_BESIDE_CONNECTIONS = 64  # a worker's other open files: its log, listening socket, libraries, LISTEN connection


def _connections(config) -> int:
    """Each worker's connections: WORKER_CONNECTIONS, if the open-file limit allows (raised towards its hard limit:
    every connection is a file); else as many as it allows, and the workers' stream budget shrinks with them."""
    wanted, reserve = int(config["WORKER_CONNECTIONS"]), int(config["CONNECTION_RESERVE"])
    if not 0 <= reserve < wanted:
        raise SystemExit(f"NIGHTSHIFT_CONNECTION_RESERVE ({reserve}) must be at least 0 and below "
                         f"NIGHTSHIFT_WORKER_CONNECTIONS ({wanted}): live screens get the connections left over.")
    needed = wanted + int(config["DB_POOL_SIZE"]) + FILES_BESIDE_CONNECTIONS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (needed if hard == resource.RLIM_INFINITY
                                                        else min(needed, hard), hard))
        except (ValueError, OSError):
            pass  # some systems cap it lower than they say (macOS): keep what there is
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    fitted = min(wanted, soft - int(config["DB_POOL_SIZE"]) - FILES_BESIDE_CONNECTIONS)
    if fitted <= reserve:
        raise SystemExit(f"The open-file limit ({soft}) leaves no room for live screens beside the "
                         f"{reserve} connections kept for pages and moves: raise it (ulimit -n), or lower "
                         "NIGHTSHIFT_CONNECTION_RESERVE.")
    if fitted < wanted:
        print(f"  The open-file limit ({soft}) allows {fitted} connections per worker, not {wanted}.", flush=True)
        os.environ["NIGHTSHIFT_WORKER_CONNECTIONS"] = str(fitted)  # the workers' stream budget follows
    return fitted


def _settle_garbage_collector() -> None:
    """In each worker once the app is loaded: what is loaded by now (modules, templates, the app) lives as long as the
    worker, so the collector stops re-scanning it, and collects young objects less often. Under bench/live.py the
    collector's CPU in the load phase fell from 0.40 to 0.26 s (of about 7 s); a move allocates tens of thousands."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


GC_YOUNG = 20_000  # allocations between young collections (Python's default is 700)


def serve(host: str, port: int, workers: int, https: bool = False) -> None:
    """Run gunicorn with gevent workers: each holds thousands of idle live streams as cheap greenlets.

    A thread per stream (gthread) would cap open phones at the thread count; gevent's greenlets cost a few KB each,
    and psycopg 3 and the standard library cooperate with them once gunicorn has monkey-patched the worker.
    """
    from gunicorn.app.base import BaseApplication

    os.environ["NIGHTSHIFT_PORT"] = str(port)  # the port the QR code's address carries
    if https:
        os.environ["NIGHTSHIFT_HTTPS"] = "1"  # and its scheme, in every worker
    connections, tls = _prepare(port, workers)

    class NightShiftServer(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", [f"{host}:{port}"])
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", "gevent")
            self.cfg.set("worker_connections", connections)
            self.cfg.set("timeout", 60)
            self.cfg.set("graceful_timeout", 5)
            self.cfg.set("accesslog", "-" if os.environ.get("NIGHTSHIFT_ACCESS_LOG") else None)
            if tls is not None:
                self.cfg.set("certfile", str(tls[0]))
                self.cfg.set("keyfile", str(tls[1]))
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 27+: two servers must not share one
                self.cfg.set("control_socket_disable", True)

        def load(self):
            from . import create_app
            from .tables.purge import keep_purging

            app = create_app()
            keep_purging(app)  # once a day while it runs; _prepare purged at the start
            _settle_garbage_collector()
            return app

    NightShiftServer().run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="nightshift", description="Serve Night Shift on the LAN (migrating the database first), or run one of "
        "its commands. Settings come from NIGHTSHIFT_* environment variables (README, Settings).")
    parser.add_argument("command", nargs="?", default="serve", choices=("serve", "migrate", "purge"),
                        help="serve (the default): migrate, then serve on the LAN; migrate: create or upgrade the "
                             "database, then exit; purge: delete tables expired for longer than the grace period "
                             "(every start does this too, and once a day while serving)")
    parser.add_argument("--host", default=os.environ.get("NIGHTSHIFT_HOST", "0.0.0.0"),
                        help="address to listen on (default 0.0.0.0: every interface, so phones can reach it; "
                             "or NIGHTSHIFT_HOST)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("NIGHTSHIFT_PORT") or 8000),
                        help="port to listen on (default 8000, or NIGHTSHIFT_PORT)")
    parser.add_argument("--workers", type=int, default=1,
                        help="gunicorn worker processes (default 1, which holds a game night easily); more than one "
                             "needs PostgreSQL, whose LISTEN/NOTIFY carries live updates between them")
    parser.add_argument("--https", action="store_true",
                        help="serve https with a certificate this machine makes for its LAN address (kept in the "
                             "instance folder), and put https:// in the QR code: phones then get a secure page, so "
                             "their screens can stay awake; each phone's browser warns once (README)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    if args.command == "migrate":
        from . import create_app
        from .database import upgrade_database

        upgrade_database(create_app())
        print("Database is up to date.")
        return
    if args.command == "purge":
        from . import create_app
        from .database import upgrade_database
        from .tables.purge import purge_expired

        app = create_app()
        upgrade_database(app)
        with app.app_context():
            print(purge_expired())
        return
    serve(args.host, args.port, args.workers, args.https)
