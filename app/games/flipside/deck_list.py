"""The deck-list checker: lines like '3 Toy Chica [Yellow]' checked against the rulebook's DECK BUILDING rules.

"A deck requires: Min 40 cards, Max 2 card colors, Max 4 card duplicates." and White: "No deck limit, can be added
to any deck." No official card list exists, so a card is whatever name the player types (GAMES.md: assumed); the
numbers come from profile.toml.
Readings of two loose sentences: "Max 4 card duplicates" is taken as at most 4 copies of a card, counted by name
whatever colour a line gives. White's "No deck limit" is a setup option (`white_copies`, assumed): by default White
cards have no copy limit at all ("free"); the other reading ("four") frees them of the colour limit only. The result
says which reading was in force.
Pure: no Flask.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from ...reading import quoted
from ..words import listing, plural
from . import PROFILE, READING_TEXT, SPEC

DECK_MIN = PROFILE["deck_min"].value
MAX_COLOURS = PROFILE["deck_colours"].value
MAX_COPIES = PROFILE["deck_copies"].value
WHITE = SPEC.option("white_copies")  # the reading of White's "No deck limit" this check uses
COLOURS = ("Red", "Blue", "Yellow", "Green", "Purple", "White")
FREE_COLOUR = "White"
MAX_CHARACTERS = 20_000  # a 40-card list with long names is about 1,500 characters
MAX_LINES = 400
NAME_LENGTH = 60
EXAMPLE = "'3 Toy Chica [Yellow]'"

LINE = re.compile(r"(?P<count>[0-9]+)[x\u00d7]?\s+(?P<name>[^\[\]]*?)\s*\[(?P<colour>[^\[\]]*)\]", re.IGNORECASE)


class DeckListTooLong(ValueError):
    """More text than any deck list needs; the message says how much is allowed."""


class UnknownReading(ValueError):
    """A reading of White's copy limit that isn't one of the two; the message names both."""


def white_reading(value: object) -> str:
    """The reading of White's "No deck limit" asked for, checked against the setup option's choices."""
    choices = [choice for choice, _ in WHITE.choices]
    if value is None:
        return WHITE.default
    if not isinstance(value, str) or value not in choices:
        readings = listing([f"'{choice}' for {label}" for choice, label in WHITE.choices], "or")
        raise UnknownReading(f"The reading of White cards' copy limit must be {readings}, not "
                             f"{quoted(value, 20)}.")
    return value


def _clean(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def _line_problem(text: str) -> str:
    """Why a line that isn't 'N Name [Colour]' doesn't read, as specifically as we can tell."""
    if not re.match(r"[0-9]", text):
        return f"start with how many copies, like {EXAMPLE}."
    if "[" not in text or "]" not in text:
        return f"put the card's colour in square brackets after its name, like {EXAMPLE}."
    if text.count("[") > 1 or text.count("]") > 1:
        return f"give one colour in one pair of square brackets, like {EXAMPLE}."
    if not text.rstrip().endswith("]"):
        return f"end the line with the colour in square brackets, like {EXAMPLE}."
    return f"write the number of copies, a space, the card's name and its colour, like {EXAMPLE}."


def white_text(white: str) -> str:
    """The reading of White's copy limit in force, as the page and the result say it."""
    return READING_TEXT["white_copies", white]


def check(text: object, white: str | None = None) -> dict[str, Any]:
    """Every problem of a deck list (with its line number where a line is at fault), the card count, the colours and
    the reading of White's copy limit in force (`white`: "free" or "four"; the option's default when left out)."""
    white = white_reading(white)
    if not isinstance(text, str):
        raise TypeError("A deck list is text.")
    if len(text) > MAX_CHARACTERS:
        raise DeckListTooLong(f"A deck list can be at most {MAX_CHARACTERS:,} characters; that one has "
                              f"{len(text):,}. Paste one deck at a time.")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > MAX_LINES:
        raise DeckListTooLong(f"A deck list can be at most {MAX_LINES} lines; that one has {len(lines)}.")
    problems: list[dict[str, Any]] = []
    cards: dict[str, dict[str, Any]] = {}  # folded name -> {"name", "colour", "copies", "lines"}
    colours = dict.fromkeys(COLOURS, 0)
    total = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        read = _read_line(line)
        if isinstance(read, str):
            problems.append({"line": number, "message": f"Line {number}: {read}"})
            continue
        count, name, colour = read
        card = cards.setdefault(name.casefold(), {"name": name, "colour": colour, "copies": 0, "lines": [],
                                                  "over_at": None})
        card["copies"] += count
        card["lines"].append(number)
        capped = card["colour"] != FREE_COLOUR or white == "four"
        if capped and card["copies"] > MAX_COPIES and card["over_at"] is None:
            card["over_at"] = number  # the line that took it past the limit is the one to fix
        colours[colour] += count
        total += count
    for card in cards.values():
        if card["over_at"] is not None:
            problems.append({"line": card["over_at"], "message": (
                f"Line {card['over_at']}: {card['name']} has {card['copies']} copies{_lines_text(card['lines'])}; "
                f"a deck may hold at most {MAX_COPIES} of a card"
                f"{', White ones too (the reading in force)' if card['colour'] == FREE_COLOUR else ''}.")})
    used = {colour: count for colour, count in colours.items() if count}
    limited = [colour for colour in used if colour != FREE_COLOUR]
    if len(limited) > MAX_COLOURS:
        listed = ", ".join(f"{colour} ({used[colour]})" for colour in limited)
        problems.append({"line": None, "message": f"The deck has {len(limited)} colours: {listed}. A deck may use "
                                                  f"at most {MAX_COLOURS}, not counting White."})
    if total < DECK_MIN:
        short = DECK_MIN - total
        problems.append({"line": None, "message": f"The deck has {plural(total, 'card')}; a deck needs at least "
                                                  f"{DECK_MIN} ({short} more)."})
    problems.sort(key=lambda problem: (problem["line"] is None, problem["line"] or 0))
    return {"ok": not problems, "cards": total, "colours": used, "problems": problems, "white": white,
            "reading": white_text(white),
            "list": [{"name": card["name"], "colour": card["colour"], "copies": card["copies"]}
                     for card in cards.values()]}


def _read_line(line: str) -> tuple[int, str, str] | str:
    """(copies, name, colour) of one line, or what is wrong with it."""
    if any(unicodedata.category(char).startswith("C") for char in line):
        return "remove the control characters; a line holds only text."
    match = LINE.fullmatch(line)
    if match is None:
        return _line_problem(line)
    count_text, name, colour_text = match.group("count"), _clean(match.group("name")), _clean(match.group("colour"))
    if len(count_text) > 3:
        return f"{count_text} copies is far more than a deck holds; write how many copies of {name or 'it'} you have."
    if not name:
        return f"write the card's name between the number and the colour, like {EXAMPLE}."
    if len(name) > NAME_LENGTH:
        return f"a card's name has at most {NAME_LENGTH} characters; that one has {len(name)}."
    colour = next((known for known in COLOURS if known.casefold() == colour_text.casefold()), None)
    if colour is None:
        shown = f"'{colour_text}'" if colour_text else "an empty bracket"
        return f"{shown} is not a Flipside colour; use one of {', '.join(COLOURS[:-1])} or {COLOURS[-1]}."
    if int(count_text) == 0:
        return f"0 copies of {name}; write at least 1 or leave the line out."
    return int(count_text), name, colour


def _lines_text(numbers: list[int]) -> str:
    """' (lines 1 and 5)' when a card's copies are spread over several lines; nothing for one line."""
    if len(numbers) == 1:
        return ""
    return f" (lines {listing(str(number) for number in numbers)})"
