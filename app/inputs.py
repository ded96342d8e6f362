"""Reading what clients send: whole numbers (ASCII digits only, bounded) and JSON bodies (bounded nesting).

`str.isdigit()` says yes to "²" and other Unicode digits that `int()` then refuses, and `\\d` in a regular expression
matches Arabic-Indic digits; every number a request carries is read here instead, so "²" is a 400, never a 500.
"""

from __future__ import annotations

import math
import re
import unicodedata
from itertools import groupby
from typing import Any

from flask import request
from flask.json.provider import DefaultJSONProvider

from .errors import BadRequest

WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
DIGITS_MAX = 9  # below 10**9: fits every integer column of both databases, with room to spare
JSON_DEPTH_MAX = 32  # the deepest body of the API is a move with a list in it (depth 2); 32 leaves room for games
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


# Characters a refusal can't show as they are: on a page they are nothing, a box, or a line break mid-sentence.
UNSEEN = {"Cc": "control character", "Cf": "invisible character", "Zs": "unusual space", "Zl": "line separator",
          "Zp": "paragraph separator", "Cs": "broken character"}  # Cs: half of a pair, a lone surrogate from JSON


def quoted(value: object, limit: int = 40) -> str:
    """What a client sent, echoed in a refusal: in plain quotes, cut to `limit` characters (with "…" when cut), and
    any character that can't be seen named instead: "a\u200bb" is quoted as 'a[invisible character U+200B]b'.

    repr() said '\u200b', which only a Python programmer reads; a plain space stays a space."""
    text = str(value)
    shown = []
    for char, run in groupby(text[:limit]):
        count = len(list(run))
        kind = UNSEEN.get(unicodedata.category(char)) if char != " " else None
        if kind is None:
            shown.append(char * count)
        else:
            shown.append(f"[{f'{count} {kind}s' if count > 1 else kind} U+{ord(char):04X}]")
    return f"'{''.join(shown)}{'…' if len(text) > limit else ''}'"


class NotAWholeNumber(ValueError):
    """The value is not a whole number in range; the caller says which field, in its own words."""


def whole_number(raw: object, *, minimum: int | None = 0, maximum: int | None = 10**DIGITS_MAX - 1) -> int:
    """A whole number from a query, header, form or JSON field: an int, or ASCII digits with an optional sign.

    Bools, floats, NaN, Unicode digits and anything outside [minimum, maximum] raise NotAWholeNumber. Usable as
    Werkzeug's `type=` (it raises ValueError, which `request.args.get(..., type=...)` turns into the default).
    """
    if isinstance(raw, bool):
        raise NotAWholeNumber("a boolean is not a number")
    if isinstance(raw, int):
        value = raw
    elif isinstance(raw, str):
        text = raw.strip()
        if not WHOLE.fullmatch(text) or len(text.lstrip("+-")) > DIGITS_MAX:
            raise NotAWholeNumber(f"not a whole number: {raw[:20]!r}")
        value = int(text)
    else:
        raise NotAWholeNumber(f"not a whole number: {type(raw).__name__}")
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise NotAWholeNumber(f"{value} is out of range")
    return value


def whole_or_none(raw: object, *, minimum: int | None = 0, maximum: int | None = 10**DIGITS_MAX - 1) -> int | None:
    """`whole_number`, or None where the value is missing or not a whole number in range (for optional hints)."""
    try:
        return whole_number(raw, minimum=minimum, maximum=maximum)
    except NotAWholeNumber:
        return None


def natural(raw: str) -> int:
    """Werkzeug `type=` for a query parameter that is a count or a position: 0 to 999,999,999, ASCII digits."""
    return whole_number(raw)


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
