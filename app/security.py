"""Security headers on every response (a strict Content-Security-Policy, no caching, no leaking of join links), and
no state-changing request sent from another site's page."""

from urllib.parse import urlsplit

from flask import Flask, current_app, request

from .errors import Forbidden

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def register_security_headers(app: Flask) -> None:
    """No inline scripts or styles run, pages can't be framed, the join key never leaves in a Referer, and nothing
    but a static file is kept by a cache: a table's JSON, its QR code (the join key) and the exports are private."""

    @app.after_request
    def add_headers(response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Cache-Control", "no-store")  # static files and streams set their own
        return response


def refuse_foreign_requests(app: Flask) -> None:
    """A state-changing request whose Origin (or, without one, Referer) names another site is refused, even with a
    valid CSRF token. "Origin: null" counts as none: browsers send it for our own forms under no-referrer."""

    @app.before_request
    def same_site_only():
        if request.method not in UNSAFE_METHODS:
            return
        sender = request.headers.get("Origin", "")
        if sender in ("", "null"):
            sender = request.headers.get("Referer", "")
        if not sender:
            return
        sent_from = urlsplit(sender).netloc.lower()
        if sent_from not in this_server():
            raise Forbidden(f"That was sent from another website ({sent_from or 'unknown'}), not from Night Shift's "
                            "own page, so nothing was done. Open Night Shift and try again there.")


def this_server() -> set[str]:
    """The host[:port] names this request may come from: the one it was sent to, the QR code's, and a proxy's."""
    names = {request.host.lower()}
    public = current_app.config.get("PUBLIC_URL")
    if public:
        names.add(urlsplit(public).netloc.lower())
    if current_app.config.get("PROXIES"):
        names |= {name.strip().lower() for name in request.headers.get("X-Forwarded-Host", "").split(",")}
    return names
