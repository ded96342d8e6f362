"""Reading a client's whole numbers, and quoting its words back in a refusal. Pure: no Flask, so rules use it too.

`str.isdigit()` says yes to "²" and other Unicode digits that `int()` then refuses, and `\\d` in a regular expression
matches Arabic-Indic digits; every number a request or a move carries is read here instead, so "²" is a 400, never a
500.
"""

from __future__ import annotations

import re
import unicodedata
from itertools import groupby

WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
DIGITS_MAX = 9  # below 10**9: fits every integer column of both databases, with room to spare


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
