"""Settings: defaults, then instance/config.py, then NIGHTSHIFT_* environment variables, then test overrides."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# NIGHTSHIFT_<NAME> environment variable -> Flask config key, with how to read it.
ENVIRONMENT = {
    "DATABASE_URL": ("SQLALCHEMY_DATABASE_URI", str),
    "SECRET_KEY": ("SECRET_KEY", str),
    "PUBLIC_URL": ("PUBLIC_URL", str),
    "PORT": ("PORT", int),
    "TABLE_TTL_DAYS": ("TABLE_TTL_DAYS", int),
    "LIVE_BEAT_SECONDS": ("LIVE_BEAT_SECONDS", float),
    "DB_POOL_SIZE": ("DB_POOL_SIZE", int),
    "PURGE_GRACE_DAYS": ("PURGE_GRACE_DAYS", int),
    "REDIS_URL": ("REDIS_URL", str),
    "UNLIMITED_ADDRESSES": ("UNLIMITED_ADDRESSES", lambda raw: tuple(raw.replace(",", " ").split())),
    "PROXIES": ("PROXIES", int),
    "WORKER_CONNECTIONS": ("WORKER_CONNECTIONS", int),
    "CONNECTION_RESERVE": ("CONNECTION_RESERVE", int),
    "DB_BUSY_SECONDS": ("DB_BUSY_SECONDS", float),
    "HTTPS": ("HTTPS", lambda raw: raw.strip().lower() in ("1", "true", "yes", "on")),
}


def defaults(instance_path: Path) -> dict:
    """What Night Shift runs with when nobody configures anything: SQLite in the instance folder."""
    return {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{instance_path / 'nightshift.sqlite3'}",
        "SQLALCHEMY_ENGINE_OPTIONS": {},
        # Database connections per worker process, each opened when first needed and then kept: a request holds one
        # while it runs (a stream holds none between changes); past DB_POOL_SIZE requests queue for DB_POOL_TIMEOUT
        # seconds (a thousand phones reconnecting at once after a restart queue here) and then get a 503 sentence.
        # See the README's settings for sizing PostgreSQL's max_connections.
        "DB_POOL_SIZE": 20,
        "DB_POOL_TIMEOUT": 30,
        # A write that finds the database locked (another program holds the SQLite file, a PostgreSQL row lock)
        # retries for this long, letting the worker serve everyone else meanwhile, then answers a "busy" 503.
        "DB_BUSY_SECONDS": 3.0,
        # Connections one worker holds at once (gunicorn's worker_connections). Live streams may take all but the
        # reserve, which stays for pages, moves and /healthz: past that budget a new stream is refused with a 503,
        # so a crowd of screens never leaves a worker unable to answer (by default 3,600 screens per worker).
        "WORKER_CONNECTIONS": 4000,
        "CONNECTION_RESERVE": 400,
        "PUBLIC_URL": "",
        "HTTPS": False,  # `nightshift --https` serves https with its own certificate: the QR code says https://
        "PORT": None,  # the port phones use; the CLI sets it, else the port this request came in on
        "TABLE_TTL_DAYS": 30,  # a table nobody touched for this long is expired
        "PURGE_GRACE_DAYS": 7,  # then its host can still download the log for this long, before the purge
        "MAX_CONTENT_LENGTH": 64 * 1024,  # no form or API call of ours needs more
        "SESSION_COOKIE_NAME": "nightshift",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "PERMANENT_SESSION_LIFETIME": 60 * 60 * 24 * 60,  # a phone keeps its seat across a long campaign
        # Re-signing the cookie on every refresh cost each phone's refetch a signature and a header; tables.auth
        # renews it once a day instead, so the 60 days still count from the last visit, give or take a day.
        "SESSION_REFRESH_EACH_REQUEST": False,
        "WTF_CSRF_TIME_LIMIT": None,  # a host screen stays open all night; the token is tied to the session
        # Over https Flask-WTF would also demand a Referer naming this host, which pages never send (no-referrer);
        # security.refuse_foreign_requests checks the Origin instead, on http and https alike.
        "WTF_CSRF_SSL_STRICT": False,
        "TEMPLATES_AUTO_RELOAD": False,
        # A live stream sends a heartbeat this often; a page that hears nothing for two says "Reconnecting" and
        # reconnects (a dropped Wi-Fi often leaves the connection open but silent).
        "LIVE_BEAT_SECONDS": 15.0,
        # Per client address; far above a game night (8 phones joining, a rematch), far below a script.
        "RATE_LIMIT_CREATE": "10 per minute;60 per hour",
        "RATE_LIMIT_JOIN": "30 per minute",
        "RATE_LIMIT_GUESSES": "20 per minute;100 per hour",  # wrong join keys and unknown table codes
        "UNLIMITED_ADDRESSES": ("127.0.0.1", "::1"),  # the host machine's own screens
        # Open live streams: a phone with a second tab, a table of 8 with a TV, a console and spectators, one NAT.
        "STREAMS_PER_TOKEN": 3,  # one more closes the token's oldest
        # Seats and the host have places of their own (their tokens' 3 each); spectators share this many per table,
        # so watchers who know the join key can never keep a seat's or the host's screen out.
        "SPECTATOR_STREAMS_PER_TABLE": 16,
        "STREAMS_PER_ADDRESS": 32,
        "REDIS_URL": "",  # shared rate-limit counts for several workers
        "PROXIES": 0,  # reverse proxies in front that set X-Forwarded-For (their count), so limits see phones
    }


def from_environment(environ=os.environ) -> dict:
    """NIGHTSHIFT_* variables that are set, converted to config values."""
    config = {}
    for name, (key, convert) in ENVIRONMENT.items():
        raw = environ.get(f"NIGHTSHIFT_{name}")
        if raw:
            try:
                config[key] = convert(raw)
            except ValueError as error:
                raise SystemExit(f"NIGHTSHIFT_{name}={raw!r} is not valid: {error}") from None
    return config


def ensure_secret_key(instance_path: Path) -> str:
    """The secret that signs seat cookies: generated once into the instance folder, never a hard-coded default."""
    path = instance_path / "secret_key"
    if not path.exists():
        instance_path.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_urlsafe(48))
    return path.read_text().strip()
