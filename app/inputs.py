"""Reading what clients send over HTTP: JSON bodies (bounded nesting, finite numbers), idempotency keys and the
codings a client accepts. Whole numbers and quoting a client's words back are in app/reading.py (pure: rules use it).
"""

from __future__ import annotations

import math
import re
from typing import Any

from flask import request
from flask.json.provider import DefaultJSONProvider

from .errors import BadRequest

JSON_DEPTH_MAX = 32  # the deepest body of the API is a move with a list in it (depth 2); 32 leaves room for games
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


def json_depth(text: str | bytes) -> int:
    """How deeply arrays and objects nest in a JSON text, counted without parsing it (strings skipped)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    depth = deepest = 0
    for bracket in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _finite(text: str) -> float:
    """JSON numbers only: 1e999 would be read as Infinity, which no JSON reader takes back once it is stored."""
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"not a finite number: {text[:20]}")
    return number


def _no_constant(text: str) -> None:
    raise ValueError(f"{text} is not JSON")


STRICT_NUMBERS = {"parse_float": _finite, "parse_constant": _no_constant}  # json.loads(..., **STRICT_NUMBERS)


class TooDeep(BadRequest):
    title = "That request nests too deeply"


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON, refusing bodies nested deeper than any request needs before the parser can recurse on them."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        if json_depth(s) > JSON_DEPTH_MAX:
            # Not a ValueError, so `get_json(silent=True)` can't swallow it into "send a JSON object".
            raise TooDeep(f"That JSON nests lists and objects more than {JSON_DEPTH_MAX} deep; no request to "
                          "Night Shift needs that. Send a flatter body.")
        return super().loads(s, **kwargs)


IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9._:-]{1,64}", re.ASCII)
IDEMPOTENCY_FIELD = "idempotency_key"  # the form field a tap carries; scripts send the Idempotency-Key header


def idempotency_key() -> str | None:
    """The sender's key for this tap, from the Idempotency-Key header or the form's hidden field; None if unsent."""
    from flask import request

    raw = request.headers.get("Idempotency-Key")
    if raw is None and request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        raw = request.form.get(IDEMPOTENCY_FIELD)
    if raw is None or raw.strip() == "":
        return None
    if not IDEMPOTENCY_KEY.fullmatch(raw.strip()):
        raise BadRequest("An Idempotency-Key is 1 to 64 letters, digits, dots, colons, dashes or underscores, "
                         "made fresh for each tap (a UUID will do).")
    return raw.strip()


def accepts_encoding(name: str) -> bool:
    """Whether the client takes this content coding: `gzip;q=0` is a refusal, not a request (RFC 9110 12.5.3)."""
    return request.accept_encodings.quality(name) > 0
