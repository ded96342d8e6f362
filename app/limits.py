"""Rate limits per client address (Flask-Limiter): creating tables, joining, and wrong join keys or table codes.

The limits sit far above a real game night (a table of 8 joining at once, a host starting a rematch) and far below
what a script on the Wi-Fi sends (hundreds of tables or key guesses a second). The host machine itself is never
limited (NIGHTSHIFT_UNLIMITED_ADDRESSES, by default 127.0.0.1 and ::1): its screens are the console, and the benchmarks
run there. Counts live in this process (SQLite: one process) or in Redis when NIGHTSHIFT_REDIS_URL is set.
"""

from __future__ import annotations

import math
import time

from flask import Flask, current_app, make_response, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from .errors import render_error

# Endpoint -> (config key of its limit, scope shared by the endpoints that count together, count only refusals?)
LIMITED = {
    "api.create_table": ("RATE_LIMIT_CREATE", "create", False),
    "tables.create_table": ("RATE_LIMIT_CREATE", "create", False),
    "api.join": ("RATE_LIMIT_JOIN", "join", False),
    "tables.join_post": ("RATE_LIMIT_JOIN", "join", False),
}
GUESSES = ("api.join", "tables.join_post", "tables.join_page", "tables.join_lookup")  # where a key or code is tried
REFUSED = (401, 403, 404)  # a wrong key, a forged token or an unknown code: what guessing looks like

SENTENCES = {
    "create": "This device has opened too many tables in a short time.",
    "join": "Too many joins from this device in a short time.",
    "guess": "Too many wrong join keys or table codes from this device.",
}


def _client() -> str:
    return get_remote_address() or "unknown"


def _refused(response) -> bool:
    return response.status_code in REFUSED


def retry_after(limiter: Limiter) -> int:
    """Seconds until the limit that was hit lets this client in again (at least 1)."""
    limit = limiter.current_limit
    return max(1, math.ceil(limit.reset_at - time.time())) if limit is not None else 60


def sentence(error: RateLimitExceeded, seconds: int) -> str:
    """The 429's message: what was too much, and when to try again, in words."""
    wait = f"{seconds} seconds" if seconds < 120 else f"{math.ceil(seconds / 60)} minutes"
    return f"{error.description} Wait {wait} and try again."


def init_limits(app: Flask) -> Limiter:
    """A limiter per app (its own counts), with the limits above wrapped around their views."""
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_KEY_PREFIX", "nightshift")
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)  # Redis down: count in memory, never refuse a game
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", False)  # only a 429 carries Retry-After, set below
    limiter = Limiter(key_func=_client, app=app)
    unlimited = frozenset(app.config["UNLIMITED_ADDRESSES"])

    @limiter.request_filter
    def host_machine() -> bool:
        return request.remote_addr in unlimited

    for endpoint, (setting, scope, _) in LIMITED.items():
        decorate = limiter.shared_limit(lambda setting=setting: current_app.config[setting], scope=scope,
                                        error_message=SENTENCES[scope])
        app.view_functions[endpoint] = decorate(app.view_functions[endpoint])
    for endpoint in GUESSES:
        decorate = limiter.shared_limit(lambda: current_app.config["RATE_LIMIT_GUESSES"], scope="guess",
                                        deduct_when=_refused, error_message=SENTENCES["guess"])
        app.view_functions[endpoint] = decorate(app.view_functions[endpoint])
    app.extensions["nightshift.limiter"] = limiter

    @app.errorhandler(RateLimitExceeded)
    def too_many(error: RateLimitExceeded):
        seconds = retry_after(limiter)
        response = make_response(render_error(429, "Slow down", sentence(error, seconds)))
        response.headers["Retry-After"] = str(seconds)
        return response

    return limiter
