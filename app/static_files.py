"""Static files under versioned names (`css/app.3f2a1b9c0d.css`), compressed once per process, cached for a year.

A page links every file through url_for("static"), which adds the first 10 hex digits of the file's SHA-256 to its
name; a changed file gets a new name, so browsers may keep each name for a year without asking again (`immutable`).
The dozen files are read, gzipped and brotli-compressed once, on first request, and kept in memory. WhiteNoise does
the same for files hashed by a build step (Django's collectstatic); Night Shift has no build step, so the names are
made here. An unversioned or outdated name still works, revalidated every time.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import mimetypes
import re
import threading
from dataclasses import dataclass
from pathlib import Path

import brotli
from flask import Flask, Response, request
from werkzeug.exceptions import NotFound
from werkzeug.security import safe_join

from .games.pages import stylesheet_path
from .inputs import accepts_encoding

YEAR = 365 * 24 * 3600
VERSIONED = re.compile(r"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{10})(?P<suffix>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True)
class File:
    digest: str
    mimetype: str
    raw: bytes
    gzip: bytes
    br: bytes


# Files served as one, to save a phone's round trips; the vendored files themselves stay as released.
BUNDLES = {
    "js/live-extensions.js": ("vendor/htmx-ext-sse-2.2.4/sse.js", "vendor/idiomorph-0.8.0/idiomorph-ext.min.js"),
    # A phone's seat page: the same, with NoSleep.js, which keeps its screen on where there is no Wake Lock.
    "js/seat-extensions.js": ("vendor/htmx-ext-sse-2.2.4/sse.js", "vendor/idiomorph-0.8.0/idiomorph-ext.min.js",
                              "vendor/nosleep.js-0.12.0/NoSleep.min.js"),
    # htmx and Night Shift's own scripts, every page (static/js/settings.js is apart: it runs before the first frame).
    "js/app.js": ("vendor/htmx-2.0.11/htmx.min.js", "js/cues.js", "js/live.js", "js/phone.js"),
}
GAME_STYLESHEET = re.compile(r"^css/app\+(?P<package>[a-z0-9_]+)\.css$")  # app.css followed by one game's own


def parts_of(name: str) -> tuple[str | Path, ...]:
    """The files a served name is made of: itself, or a bundle's members (a game's own stylesheet lives in its
    package, app/games/<pkg>/static/)."""
    if name in BUNDLES:
        return BUNDLES[name]
    game = GAME_STYLESHEET.match(name)
    return ("css/app.css", stylesheet_path(game["package"])) if game else (name,)


class StaticFiles:
    """The static folder, hashed and compressed on first use; a file changed on disk is read again."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._files: dict[str, tuple[tuple, File]] = {}
        self._lock = threading.Lock()

    def _stat(self, name: str | Path) -> tuple[Path, tuple[int, int]] | None:
        path = str(name) if isinstance(name, Path) else safe_join(str(self.folder), name)
        try:  # a name longer than the file system allows raises: no such file either
            if path is None or not Path(path).is_file():
                return None
            stat = Path(path).stat()
        except OSError:
            return None
        return Path(path), (stat.st_mtime_ns, stat.st_size)

    def get(self, name: str) -> File | None:
        parts = [self._stat(part) for part in parts_of(name)]
        if not parts or None in parts:
            return None
        key = tuple(stamp for _, stamp in parts)
        cached = self._files.get(name)
        if cached is not None and cached[0] == key:
            return cached[1]
        raw = (b"\n" if name.endswith(".css") else b"\n;\n").join(path.read_bytes() for path, _ in parts)
        mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
        if mimetype.startswith("text/") or mimetype in ("application/javascript", "image/svg+xml"):
            mimetype += "; charset=utf-8" if mimetype.startswith("text/") else ""
            packed = File(hashlib.sha256(raw).hexdigest()[:10], mimetype, raw, gzip.compress(raw, 9, mtime=0),
                          brotli.compress(raw, quality=11))
        else:  # images and fonts are compressed already
            packed = File(hashlib.sha256(raw).hexdigest()[:10], mimetype, raw, b"", b"")
        with self._lock:
            self._files[name] = (key, packed)
        return packed

    def versioned(self, name: str) -> str:
        """`css/app.css` -> `css/app.3f2a1b9c0d.css` (the name as it is if the file is missing)."""
        packed = self.get(name)
        if packed is None:
            return name
        stem, dot, suffix = name.rpartition(".")
        return f"{stem}.{packed.digest}.{suffix}" if dot else f"{name}.{packed.digest}"

    def serve(self, filename: str) -> Response:
        match = VERSIONED.match(filename)
        name = f"{match['stem']}{match['suffix']}" if match else filename
        packed = self.get(name)
        if packed is None:
            raise NotFound()
        current = match is not None and match["digest"] == packed.digest
        etag = f'"{packed.digest}"'
        headers = {"Vary": "Accept-Encoding", "ETag": etag, "X-Content-Type-Options": "nosniff",
                   "Cache-Control": f"public, max-age={YEAR}, immutable" if current else "no-cache"}
        if etag in request.headers.get("If-None-Match", ""):
            return Response(status=304, headers=headers)
        body = packed.raw
        if packed.br and accepts_encoding("br"):
            body, headers["Content-Encoding"] = packed.br, "br"
        elif packed.gzip and accepts_encoding("gzip"):
            body, headers["Content-Encoding"] = packed.gzip, "gzip"
        response = Response(body if request.method != "HEAD" else b"", headers=headers, content_type=packed.mimetype)
        if packed.mimetype.startswith("video/"):  # Safari plays a video only from a server that answers byte ranges
            response.make_conditional(request, accept_ranges=True, complete_length=len(body))
        return response


def init_static(app: Flask) -> None:
    """Serve /static/ from memory under versioned names, and make url_for("static") produce them."""
    files = StaticFiles(Path(app.static_folder))
    app.extensions["nightshift.static"] = files
    app.view_functions["static"] = files.serve

    def inline(name: str) -> str:
        """A small file as a data: URI, one request less (the favicon)."""
        packed = files.get(name)
        return f"data:{packed.mimetype.split(';')[0]};base64,{base64.b64encode(packed.raw).decode()}" if packed else ""

    app.jinja_env.globals["inline_static"] = inline

    @app.url_defaults
    def versioned_static(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values:
            values["filename"] = files.versioned(values["filename"])
