"""Flask extensions, created once here and attached in create_app with init_app."""

from flask import current_app, has_request_context
from flask_compress import Compress as FlaskCompress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from htmx_flask import Htmx
from sqlalchemy.orm import DeclarativeBase

from .inputs import accepts_encoding


class Base(DeclarativeBase):
    """Declarative base for Night Shift's models."""


def _accepted_only(name: str) -> property:
    """A list of Flask-Compress's algorithms, read as the ones the client of this request accepts."""
    private = f"_{name}"
    return property(lambda self: _accepted(getattr(self, private)),
                    lambda self, algorithms: setattr(self, private, algorithms))


class Compress(FlaskCompress):
    """Flask-Compress, except that a coding the client refuses (`gzip;q=0`, or `*;q=0` without naming it) is never
    used: Flask-Compress's own Accept-Encoding parser keeps a q=0 entry as a choice, so `gzip;q=0` got gzip.

    Its choice is left to it, among only the algorithms the client accepts (inputs.accepts_encoding, the rule the
    static server and the streams follow), so its order of preference among those is kept."""

    enabled_algorithms = _accepted_only("enabled_algorithms")
    streaming_algorithms = _accepted_only("streaming_algorithms")

    def after_request(self, response):
        # Every coding refused but `*` accepted (`*, br;q=0, gzip;q=0`): Flask-Compress would take the first of an
        # empty list and answer 500. The answer goes out as it is, still marked as varying with Accept-Encoding.
        if response:
            streamed = response.is_streamed and (self.app or current_app).config["COMPRESS_STREAMS"]
            if not (self.streaming_algorithms if streamed else self.enabled_algorithms):
                response.vary.add("Accept-Encoding")
                return response
        return super().after_request(response)


def _accepted(algorithms: tuple[str, ...]) -> tuple[str, ...]:
    if not has_request_context():
        return algorithms
    return tuple(name for name in algorithms if accepts_encoding(name))


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
htmx = Htmx()
compress = Compress()
