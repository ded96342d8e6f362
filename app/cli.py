"""`nightshift`: migrate the database and serve Night Shift on the LAN with gunicorn and a gevent worker."""

from __future__ import annotations

import argparse
import gc
import os
import sys

BANNER = """
  Night Shift is running.
  Host screen on this machine: http://127.0.0.1:{port}/
  Phones on the same Wi-Fi:    {lan}
  Database: {database}
  Stop with Ctrl+C.
"""


def _prepare(port: int, workers: int) -> None:
    """Create or upgrade the database once, in the parent process, before any worker starts."""
    from . import create_app
    from .database import upgrade_database
    from .extensions import db
    from .tables import lan
    from .tables.purge import purge_expired

    app = create_app()
    if workers > 1 and app.extensions["nightshift.broker"].kind == "in-process":
        raise SystemExit("This database lives inside one process, so live updates can't reach other workers: "
                         "run one worker, or use a SQLite file or PostgreSQL (NIGHTSHIFT_DATABASE_URL).")
    upgrade_database(app)
    with app.app_context():
        print(purge_expired(), flush=True)  # on every start; `nightshift purge` does it on its own
        url = db.engine.url.render_as_string(hide_password=True)
        db.engine.dispose()  # workers open their own connections after the fork
    base = lan.base_url(app.config.get("PUBLIC_URL", ""), port, f"127.0.0.1:{port}")
    print(BANNER.format(port=port, lan=f"{base.url}/ ({base.source})", database=url), flush=True)


def _settle_garbage_collector() -> None:
    """In each worker once the app is loaded: what is loaded by now (modules, templates, the app) lives as long as the
    worker, so the collector stops re-scanning it, and collects young objects less often. Under bench/live.py the
    collector's CPU in the load phase fell from 0.40 to 0.26 s (of about 7 s); a move allocates tens of thousands."""
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


GC_YOUNG = 20_000  # allocations between young collections (Python's default is 700)


def serve(host: str, port: int, workers: int) -> None:
    """Run gunicorn with gevent workers: each holds thousands of idle live streams as cheap greenlets.

    A thread per stream (gthread) would cap open phones at the thread count; gevent's greenlets cost a few KB each,
    and psycopg 3 and the standard library cooperate with them once gunicorn has monkey-patched the worker.
    """
    from gunicorn.app.base import BaseApplication

    os.environ["NIGHTSHIFT_PORT"] = str(port)  # the port the QR code's address carries
    _prepare(port, workers)

    class NightShiftServer(BaseApplication):
        def load_config(self):
            self.cfg.set("bind", [f"{host}:{port}"])
            self.cfg.set("workers", workers)
            self.cfg.set("worker_class", "gevent")
            self.cfg.set("worker_connections", 2000)
            self.cfg.set("timeout", 60)
            self.cfg.set("graceful_timeout", 5)
            self.cfg.set("accesslog", "-" if os.environ.get("NIGHTSHIFT_ACCESS_LOG") else None)
            if "control_socket_disable" in self.cfg.settings:  # gunicorn 27+: two servers must not share one
                self.cfg.set("control_socket_disable", True)

        def load(self):
            from . import create_app

            app = create_app()
            _settle_garbage_collector()
            return app

    NightShiftServer().run()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="nightshift", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    run = commands.add_parser("serve", help="migrate the database and serve on the LAN (the default)")
    run.add_argument("--host", default=os.environ.get("NIGHTSHIFT_HOST", "0.0.0.0"),
                     help="address to listen on (default 0.0.0.0: every interface, so phones can reach it)")
    run.add_argument("--port", type=int, default=int(os.environ.get("NIGHTSHIFT_PORT") or 8000))
    run.add_argument("--workers", type=int, default=1,
                     help="gunicorn workers (default 1); live updates reach every worker, through local sockets "
                          "with SQLite and LISTEN/NOTIFY with PostgreSQL")
    commands.add_parser("migrate", help="create or upgrade the database, then exit")
    commands.add_parser("purge", help="delete tables expired for longer than the grace period (also done on start)")
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv.insert(0, "serve")  # `nightshift --port 9000` serves, as the README's first command expects
    args = parser.parse_args(argv)
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
    serve(args.host, args.port, args.workers)
