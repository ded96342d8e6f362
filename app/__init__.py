"""Night Shift: a table companion for physical horror board games."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from .config import defaults, ensure_secret_key, from_environment


def register_game_pages(app: Flask, csrf) -> None:
    """A game's own pages (a calculator, a glossary) live in app/games/<pkg>/routes.py as `bp`, JSON in `api_bp`."""
    import importlib

    from .games import REGISTRY

    for spec in REGISTRY.values():
        try:
            module = importlib.import_module(f"app.games.{spec.package}.routes")
        except ModuleNotFoundError as error:
            if error.name != f"app.games.{spec.package}.routes":
                raise
            continue
        if hasattr(module, "bp"):
            app.register_blueprint(module.bp)
        if hasattr(module, "api_bp"):
            app.register_blueprint(module.api_bp)
            csrf.exempt(module.api_bp)  # JSON for scripts: no cookie session, so no cross-site forgery to guard


def game_stylesheet(spec) -> str | None:
    """app.css followed by the game's own stylesheet from static/css/games/ (its panel's look, kept out of app.css),
    served as one file so a phone makes one request for both; None if the game has none."""
    from flask import current_app, url_for

    name = f"css/games/{spec.package}.css"
    if not (Path(current_app.static_folder) / name).is_file():
        return None
    return url_for("static", filename=f"css/app+{spec.package}.css")


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: config, extensions, blueprints. Nothing touches the database at import time.

    Templates and static files are found next to the code (app/templates and app/static link to the top-level
    folders in a checkout, and are copied into a wheel); the instance folder is ./instance in the working directory
    or NIGHTSHIFT_INSTANCE_PATH, never inside an installed package.
    """
    test_config = dict(test_config or {})
    instance_path = Path(test_config.pop("INSTANCE_PATH", None) or os.environ.get("NIGHTSHIFT_INSTANCE_PATH")
                         or Path.cwd() / "instance").resolve()
    app = Flask(__name__, instance_path=str(instance_path), instance_relative_config=True)
    app.config.update(defaults(instance_path))
    app.config.from_pyfile("config.py", silent=True)
    app.config.update(from_environment())
    app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = ensure_secret_key(instance_path)

    from .database import init_database
    from .errors import register_error_handlers
    from .extensions import compress, csrf, htmx, migrate
    from .inputs import BoundedJSONProvider
    from .live import init_live
    from .security import register_security_headers
    from .static_files import init_static

    app.json = BoundedJSONProvider(app)  # every get_json refuses a body nested deeper than any request needs
    init_database(app)
    from .extensions import db

    migrate.init_app(app, db, directory=str(Path(__file__).parent / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    htmx.init_app(app)
    # Pages, live regions and JSON leave compressed (brotli, zstd or gzip, as the browser accepts); a phone on a busy
    # Wi-Fi gets a page in a third of the bytes. Static files are compressed once by init_static, streams by wire.py.
    app.config.setdefault("COMPRESS_MIMETYPES", ["text/html", "application/json"])
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_STREAMS", False)
    compress.init_app(app)
    init_static(app)
    register_error_handlers(app)
    register_security_headers(app)
    init_live(app)
    from .live.caps import init_caps

    init_caps(app)
    from .tables.service import init_write_path

    init_write_path(app)

    from .live import routes as live_routes
    from .tables import api, play, routes

    app.register_blueprint(routes.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(live_routes.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API authenticates with bearer tokens, which a browser never sends on its own
    register_game_pages(app, csrf)
    from .history import init_history

    init_history(app, csrf)
    app.jinja_env.globals["game_stylesheet"] = game_stylesheet
    from .models import as_utc

    # A log time goes out in UTC ("21:04 UTC"); the page's script shows it in the viewer's own time zone.
    app.jinja_env.filters["utc_iso"] = lambda moment: as_utc(moment).isoformat()
    app.jinja_env.filters["utc_clock"] = lambda moment: as_utc(moment).strftime("%H:%M UTC")
    from .limits import init_limits

    init_limits(app)
    if app.config["PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXIES"], x_proto=app.config["PROXIES"])

    @app.get("/healthz")
    def healthz():
        """Liveness for load balancers, and the bare-Flask baseline the live benchmark compares against."""
        return "ok\n", 200, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store"}

    return app
