"""Typed errors with a sentence a player understands; views turn them into 4xx pages or JSON, never a 500."""

from __future__ import annotations

from flask import Flask, Response, jsonify, make_response, render_template, request, url_for
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import BadHost, HTTPException


class NightShiftError(Exception):
    """Base of every refusal: `status` is the HTTP code, the message is shown to people as is."""

    status = 400
    title = "That didn't work"
    retry_after: int | None = None  # seconds, sent as Retry-After where the answer is "try again"

    def __init__(self, message: str, *, retry_after: int | None = None, **extra):
        super().__init__(message)
        self.message = message
        self.extra = extra
        if retry_after is not None:
            self.retry_after = retry_after


class BadRequest(NightShiftError):
    status = 400
    title = "That request didn't make sense"


class Unauthorized(NightShiftError):
    status = 401
    title = "Who are you?"


class Forbidden(NightShiftError):
    status = 403
    title = "Not for this device"


class NotFound(NightShiftError):
    status = 404
    title = "Nothing here"


class Conflict(NightShiftError):
    status = 409
    title = "Someone got there first"


class Gone(NightShiftError):
    status = 410
    title = "This table is closed"


class Invalid(NightShiftError):
    status = 422
    title = "Check your choices"


class Unavailable(NightShiftError):
    status = 503
    title = "Night Shift is catching its breath"
    retry_after = 5


# Werkzeug's own errors, reworded for the people at the table.
HTTP_SENTENCES = {
    400: "The request was malformed. Reload the page and try again.",
    404: "There is no page at this address. Check the code, or scan the QR code again.",
    405: "That address can't be used that way.",
    413: "That was far too much data for Night Shift to read. Send less.",
    429: "Too many requests at once. Wait a moment and try again.",
}


def wants_json() -> bool:
    """API calls get JSON errors; pages get a readable error page."""
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def back_to_table() -> str | None:
    """After a refused form at a table, the way back to it (the host screen or this phone's seat)."""
    code = (request.view_args or {}).get("code")
    if request.method != "POST" or not isinstance(code, str) or not code.isalnum():
        return None
    return url_for("tables.my_seat", code=code.upper())


def render_error(status: int, title: str, message: str, extra: dict | None = None):
    if wants_json():
        return jsonify({"error": message, **(extra or {})}), status
    if request.htmx and request.method == "POST":
        # A refused tap: the sentence goes to the page's message line; the table on screen stays as it was.
        body = render_template("_flash.html", message=message, status=status)
        return body, status, {"HX-Retarget": "#flash", "HX-Reswap": "innerHTML"}
    return render_template("error.html", status=status, title=title, message=message, back=back_to_table()), status


def refused(error: NightShiftError) -> Response:
    """A typed refusal as the player reads it: its sentence (a page, or JSON for the API), and when to try again."""
    response = make_response(render_error(error.status, error.title, error.message, error.extra))
    if error.retry_after is not None:
        response.headers["Retry-After"] = str(error.retry_after)
    return response


def register_error_handlers(app: Flask) -> None:
    """Every refusal becomes a 4xx with a sentence; nothing leaks a stack trace."""

    app.register_error_handler(NightShiftError, refused)

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return render_error(400, "This page went stale",
                            "This form expired or didn't come from Night Shift. Reload the page and try again.")

    @app.errorhandler(PoolTimeout)
    def database_busy(error: PoolTimeout):
        app.logger.error("database pool exhausted: %s", error)
        return refused(Unavailable("Night Shift's database is busy. Nothing was changed; try again in a "
                                             "moment."))

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        status = error.code or 500
        if isinstance(error, BadHost):  # no URL can be built for such a host, so no page either: a plain sentence
            return Response("Night Shift can't answer for the host name this request was sent to. Open the address "
                            "shown on the host screen.\n", status=400, mimetype="text/plain")
        message = HTTP_SENTENCES.get(status, error.description or "Something went wrong.")
        response = make_response(render_error(status, error.name, message))
        for name, value in error.get_headers():  # a 405 names the methods it allows (Allow), as HTTP asks
            if name.lower() != "content-type":
                response.headers[name] = value
        return response
