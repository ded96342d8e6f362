"""Night Shift: a table companion for physical horror board games."""

from __future__ import annotations

import os
from pathlib import Path

from flask import Flask

from .config import defaults, ensure_secret_key, from_environment


def game_stylesheet(spec) -> str | None:
    """app.css followed by the game's own stylesheet (app/games/<pkg>/static/<pkg>.css), served as one file so a
    phone makes one request for both; None if the game has none."""
    from flask import url_for

    from .games.pages import stylesheet_path

    if not stylesheet_path(spec.package).is_file():
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
    from .security import refuse_foreign_requests, register_security_headers
    from .static_files import init_static

    app.json = BoundedJSONProvider(app)  # every get_json refuses a body nested deeper than any request needs
    init_database(app)
    from .extensions import db
    from .health import init_health

    init_health(app)  # /healthz, and what a failed statement means

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
    refuse_foreign_requests(app)
    from .history import record
    from .live.caps import init_caps
    from .tables.screens import draw, init_templates
    from .tables.service import init_write_path

    # The layers below are handed what they tell: the write path the broker (a change) and the play history (a game
    # over), the live path how to draw a table.
    hub = init_live(app, draw)
    init_caps(app)
    init_write_path(app, changes=hub, plays=record)
    init_templates(app)

    from .live import routes as live_routes
    from .tables import api, play, routes

    app.register_blueprint(routes.bp)
    app.register_blueprint(play.bp)
    app.register_blueprint(live_routes.bp)
    app.register_blueprint(api.bp)
    csrf.exempt(api.bp)  # the API authenticates with bearer tokens, which a browser never sends on its own
    from .games import REGISTRY
    from .games.pages import register_game_pages

    register_game_pages(app, REGISTRY.values(), csrf)
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

    return app
