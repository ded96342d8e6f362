"""Moves declared once: each game names its move types, their typed fields and the handler that applies each.

From one declaration come the shape, type and range checks with the sentences a player reads, the dispatch to the
handler, the fields a phone or console form shows, how a form's strings become a move, and the API documentation.
A handler sees only a well-formed move. Pure: no Flask, no SQLAlchemy.

    MOVES = Moves("Flipside", example='{"type": "next-phase"}', offer="isn't a Flipside move here; ...")

    @MOVES.move("lose-health", "Losing Health", Whose(), Count("amount", "Health lost", low=1, high=health_left))
    def lose_health(state, move, rng): ...

    apply = MOVES.apply
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from ..reading import quoted
from .contract import Event, IllegalAction

State = dict[str, Any]
Handler = Callable[[State, "Move", Any], tuple[State, list[Event]]]
Bound = int | Callable[[State, "Move"], int | None] | None
Choices = Sequence[str] | Callable[[State, "Move"], Sequence[str]]
Sentence = str | Callable[[State, "Move", Any], str]  # a format string, or (state, move, value) -> the sentence

WHOLE = re.compile(r"[+-]?[0-9]{1,9}")  # ASCII digits only: int() would take "²" or "٣" and a phone's "1e9"
NUMBERS_SPLIT = re.compile(r"[\s,;]+")
TRUE_WORDS = ("on", "yes", "true", "1")
FALSE_WORDS = ("off", "no", "false", "0")
KINDS = ("int", "seat", "choice", "flag", "text", "ints", "rows")
NUMBERED = re.compile(r"(?P<name>[a-z_]+)-(?P<number>[0-9]{1,4})(?:-(?P<part>[a-z_]+))?")  # a form's numbered box


def is_whole(value: Any) -> bool:
    """A JSON whole number: Python's bool is an int, and a move's True is never a count."""
    return isinstance(value, int) and not isinstance(value, bool)


def seat_text(value: Any) -> str:
    """A seat as someone typed it, short enough to echo back in a sentence."""
    return str(value) if is_whole(value) else str(value)[:20]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Field:
    """One field of a move: its kind and limits, and the sentences for a missing or a wrong value.

    `low`, `high` and `choices` may be functions of (state, move) for limits the table sets (a player's Health);
    fields are checked in the order declared, so such a function may read the fields declared before it.
    Sentences are format strings with {label}, {Label}, {value}, {quoted} (the field as sent, quoted for a player to
    read: reading.quoted), {low}, {high}, {choices} and {seat}, or functions of (state, move, value) for a sentence
    that needs the table (a counter's name and what it is now).
    """

    name: str
    label: str
    kind: str = "int"
    low: Bound = None
    high: Bound = None
    choices: Choices = ()
    optional: bool = False
    default: Any = None  # what an absent optional field holds when the handler reads it
    ask: Sentence = ""  # a needed field is missing
    wrong: Sentence = ""  # wrong type, or not one of the choices
    too_low: Sentence = "{Label} can't be less than {low}; you gave {value}."
    too_high: Sentence = "{Label} can't be more than {high}; you gave {value}."
    unknown: Sentence = "There is no seat {value} at this table."  # a seat field naming a seat that isn't here
    own: bool = False  # a seat field a phone may set only to its own seat
    not_yours: Sentence = ""
    actor_default: bool = False  # a seat field left out means the acting seat (the host must name one)
    picked: bool = False  # the player picks this value on the form; otherwise the offered move fixes it
    length: int = 40  # text: the most characters; ints: the most numbers; rows: the most rows
    help: str = ""
    parts: tuple[Field, ...] = ()  # rows: the fields of one row, checked row by row
    item: str = "row"  # rows: what one row is called in a sentence ('blocker 2's DEF')

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.name}: kind must be one of {KINDS}, not {self.kind!r}")
        if (self.kind == "rows") != bool(self.parts):
            raise ValueError(f"{self.name}: a rows field, and only one, declares the fields of a row")

    # ---- reading limits ---------------------------------------------------------------------------------------

    def bound(self, which: str, state: State, move: Mapping[str, Any]) -> int | None:
        limit = getattr(self, which)
        return limit(state, move) if callable(limit) else limit

    def options(self, state: State, move: Mapping[str, Any]) -> list[str]:
        choices = self.choices(state, move) if callable(self.choices) else self.choices
        return list(choices)

    def _say(self, template: Sentence, state: State, move: Mapping[str, Any], **values: Any) -> str:
        if callable(template):
            return template(state, move, values.get("value"))
        return template.format(label=self.label, Label=_capital(self.label), quoted=quoted(move.get(self.name)),
                               **values)

    # ---- checking ---------------------------------------------------------------------------------------------

    def refuse(self, template: Sentence, state: State, move: Mapping[str, Any], **values: Any) -> IllegalAction:
        return IllegalAction(self._say(template, state, move, **values))

    def check(self, state: State, move: Move, seats: Sequence[int], name: Callable[[int], str]) -> Any:
        """The field's value in `move` after every check, or IllegalAction with this field's sentence."""
        value = move[self.name]
        shown = str(value)[:40]
        if self.kind in ("int", "seat"):
            if not is_whole(value):
                example = seats[0] if self.kind == "seat" and seats else max(self.bound("low", state, move) or 1, 1)
                raise self.refuse(self.wrong or "{Label} must be a whole number, like {example}.", state, move,
                                  value=shown, example=example)
            if self.kind == "seat":
                return self._check_seat(state, move, value, seats, name)
            return self._check_range(state, move, value)
        if self.kind == "choice":
            choices = self.options(state, move)
            if not isinstance(value, str) or value not in choices:
                raise self.refuse(self.wrong or "{Label} must be one of: {choices}.", state, move, value=shown,
                                  choices=", ".join(choices))
            return value
        if self.kind == "flag":
            if not isinstance(value, bool):
                raise self.refuse(self.wrong or "{Label} is a yes-or-no box: send true or false.", state, move,
                                  value=shown)
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise self.refuse(self.wrong or "{Label} must be text.", state, move, value=shown)
            value = value.strip()
            if len(value) > self.length:
                raise self.refuse("Keep {label} to {length} characters; that one has {count}.", state, move,
                                  value=shown, length=self.length, count=len(value))
            if not value.isprintable():
                raise self.refuse("{Label} must be one line of text.", state, move, value=shown)
            return value
        if self.kind == "rows":
            return self._check_rows(state, move, value, seats, name)
        if (not isinstance(value, list) or not 0 < len(value) <= self.length
                or not all(is_whole(item) for item in value)):
            raise self.refuse(self.wrong or "Type {label} as whole numbers, like 3, 5.", state, move,
                              value=shown)
        for item in value:
            self._check_range(state, move, item)
        return value

    def in_row(self, item: str, number: int) -> Field:
        """This field of row `number`, labelled for its sentences: 'blocker 2's DEF'."""
        return replace(self, label=f"{item} {number}'s {self.label}")

    def _check_rows(self, state: State, move: Move, value: Any, seats: Sequence[int],
                    name: Callable[[int], str]) -> list[dict[str, Any]]:
        """Each row checked field by field, as a move's fields are; a row's limits may read the move (its actor)."""
        names = [part.name for part in self.parts]
        if not isinstance(value, list) or not all(isinstance(row, Mapping) for row in value):
            example = ", ".join(f'"{part}": ...' for part in names)
            raise self.refuse(self.wrong or f"Give {{label}} as a list of rows, like [{{{{{example}}}}}].", state,
                              move, value=str(value)[:40])
        if len(value) > self.length:
            raise self.refuse("{Label} can have at most {length} rows, not {count}.", state, move,
                              value=len(value), length=self.length, count=len(value))
        rows = []
        for number, row in enumerate(value, start=1):
            unknown = next((key for key in row if key not in names), None)
            if unknown is not None:
                raise IllegalAction(f"{_capital(self.item)} {number} doesn't take '{str(unknown)[:40]}'.")
            context = Move({**row, "seat": move.actor})
            checked: dict[str, Any] = {}
            for part in self.parts:
                labelled = part.in_row(self.item, number)
                if part.name not in row or (row[part.name] is None and part.optional):
                    if not part.optional:
                        raise labelled.refuse(labelled.ask or "Say {label}.", state, context)
                    checked[part.name] = part.default
                    continue
                checked[part.name] = labelled.check(state, context, seats, name)
            rows.append(checked)
        return rows

    def _check_range(self, state: State, move: Move, value: int) -> int:
        low, high = self.bound("low", state, move), self.bound("high", state, move)
        if low is not None and value < low:
            raise self.refuse(self.too_low, state, move, value=value, low=low, high=high)
        if high is not None and value > high:
            raise self.refuse(self.too_high, state, move, value=value, low=low, high=high)
        return value

    def _check_seat(self, state: State, move: Move, value: int, seats: Sequence[int],
                    name: Callable[[int], str]) -> int:
        if value not in seats:
            raise self.refuse(self.unknown, state, move, value=value)
        actor = move.actor
        if self.own and actor is not None and value != actor:
            raise self.refuse(self.not_yours or "You play for {mine}; only the host can act for {seat}.", state,
                              move, value=value, seat=name(value), mine=name(actor))
        return value

    # ---- forms and documentation ------------------------------------------------------------------------------

    def from_text(self, raw: str) -> Any:
        """A form's string as this field's JSON value; a string that isn't one is passed on to be refused."""
        text = raw.strip()
        if self.kind in ("int", "seat"):
            return int(text) if WHOLE.fullmatch(text) else text
        if self.kind == "flag":
            word = text.lower()
            return True if word in TRUE_WORDS else False if word in FALSE_WORDS else text
        if self.kind == "ints":
            parts = [part for part in NUMBERS_SPLIT.split(text) if part]
            return [int(part) for part in parts] if all(WHOLE.fullmatch(part) for part in parts) else text
        return raw if self.kind == "text" else text

    def gather(self, form: dict[str, Any]) -> Any:
        """A list field sent as numbered boxes, taken out of `form` (the boxes in their numbers' order): rows as
        `blockers-1-atk`, `blockers-1-def`, ... (a row left blank is no row); whole numbers as `damage-1`,
        `damage-2`, ... (a blank box is no number). None when the form has none of them."""
        found: dict[int, dict[str, str]] = {}
        for key in list(form):
            parts = NUMBERED.fullmatch(key) if isinstance(key, str) else None
            if parts is None or parts["name"] != self.name or (parts["part"] is None) != (self.kind == "ints"):
                continue
            found.setdefault(int(parts["number"]), {})[parts["part"] or ""] = form.pop(key)
        if not found:
            return None
        if self.kind == "ints":
            return self.from_text(",".join(found[number][""] for number in sorted(found)))
        by_name = {part.name: part for part in self.parts}
        return [{key: by_name[key].from_text(text) if key in by_name else text for key, text in found[number].items()}
                for number in sorted(found)]

    def form(self, state: State, move: Mapping[str, Any]) -> dict[str, Any]:
        """What a form shows for this field of an offered move: its value and, for a picked one, its limits."""
        shown: dict[str, Any] = {"name": self.name, "label": _capital(self.label), "kind": self.kind,
                                 "value": move.get(self.name), "picked": self.picked, "help": self.help,
                                 "optional": self.optional}
        if self.picked and self.kind in ("int", "ints"):
            shown |= {"min": self.bound("low", state, move), "max": self.bound("high", state, move)}
        if self.picked and self.kind == "choice":
            shown["choices"] = self.options(state, move)
        if self.kind == "text":
            shown["length"] = self.length
        if self.kind == "rows":
            shown |= {"length": self.length, "item": self.item,
                      "fields": [part.form(state, Move({"seat": move.get("seat")})) for part in self.parts]}
        return shown

    def describe(self) -> dict[str, Any]:
        """The field as docs/API.md documents it; limits the table sets are said in words."""
        described: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label,
                                     "optional": self.optional}
        for which in ("low", "high"):
            limit = getattr(self, which)
            if limit is not None:
                described[which] = limit if isinstance(limit, int) else "set by the table"
        if self.kind == "choice":
            described["choices"] = "set by the table" if callable(self.choices) else list(self.choices)
        if self.kind in ("text", "ints", "rows"):
            described["length"] = self.length
        if self.kind == "rows":
            described["fields"] = [part.describe() for part in self.parts]
        if self.help:
            described["help"] = self.help
        return described


# ---- field makers: the common shapes, so declarations read like the rulebook ----------------------------------------

def Count(name: str, label: str, *, low: Bound = 0, high: Bound = None, picked: bool = True, **more: Any) -> Field:
    """A whole number the player enters (dice, cards, Health lost)."""
    return Field(name, label, "int", low=low, high=high, picked=picked, **more)


def Choice(name: str, label: str, choices: Choices, **more: Any) -> Field:
    """One word out of a list (a supply, an answer)."""
    return Field(name, label, "choice", choices=choices, **more)


def Flag(name: str, label: str, **more: Any) -> Field:
    """A yes-or-no box; absent means no."""
    return Field(name, label, "flag", optional=True, default=False, **more)


def Text(name: str, label: str, *, length: int = 40, **more: Any) -> Field:
    """A short line of text (why a roll was made)."""
    return Field(name, label, "text", length=length, **more)


def Numbers(name: str, label: str, *, length: int = 20, **more: Any) -> Field:
    """Several whole numbers, such as what the real dice showed."""
    return Field(name, label, "ints", length=length, **more)


def Rows(name: str, label: str, *parts: Field, item: str, length: int, **more: Any) -> Field:
    """A list of rows with the same fields (the blockers of an attack): as many as the table has, up to `length`.

    Each row is checked like a move's fields, its sentences naming the row ('blocker 2's DEF'); a form sends the rows
    as numbered boxes (`blockers-1-atk`)."""
    return Field(name, label, "rows", parts=tuple(parts), item=item, length=length, **more)


def Whose(label: str = "whose", **more: Any) -> Field:
    """The seat a move is for: a phone's own seat when left out; the host names it; a phone may name only itself."""
    settings = {"optional": True, "own": True, "actor_default": True} | more
    return Field("whose", label, "seat", **settings)


def SeatField(name: str, label: str, **more: Any) -> Field:
    """Another seat the move names (the player attacked, the first player)."""
    return Field(name, label, "seat", **more)


# ---- a move type and a checked move ----------------------------------------------------------------------------------

class Move(dict):
    """A checked move as its handler reads it: declared fields by name, an absent optional field as its default."""

    @property
    def type(self) -> str:
        return self["type"]

    @property
    def actor(self) -> int | None:
        """The seat that made the move; None for the host acting as the host (the write path sets it)."""
        return self.get("seat")


@dataclass(frozen=True)
class MoveType:
    """One kind of move: what it is called while it happens, its fields, who may make it and its handler."""

    type: str
    doing: str  # "Losing Health": the start of a refusal such as "Losing Health doesn't take 'x'."
    fields: tuple[Field, ...]
    handler: Handler
    by: str = "anyone"  # "anyone", or "host": the host screen only
    label: str = ""  # a button's words
    correction: bool = False  # fixes a count the cardboard shows; rare at a real table, tucked away on screens
    help: str = ""

    def field(self, name: str) -> Field:
        return next(item for item in self.fields if item.name == name)

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The declared fields' names, worked out once: every check of every button asks for them."""
        return tuple(item.name for item in self.fields)

    def describe(self) -> dict[str, Any]:
        return {"type": self.type, "doing": self.doing, "by": self.by, "correction": self.correction,
                "help": self.help, "fields": [item.describe() for item in self.fields]}


class Moves:
    """A game's declared moves: checks a move against its declaration, then hands it to the move's handler."""

    def __init__(self, game: str, *, example: str, offer: str,
                 seat_name: Callable[[State, int], str] = lambda state, seat: f"Player {seat}",
                 no_seat: str = "There is no seat {seat} at this table.",
                 host_only: str = "{doing} is for the host screen."):
        self.game, self.example, self.offer, self.seat_name = game, example, offer, seat_name
        self.no_seat, self.host_only = no_seat, host_only
        self.types: dict[str, MoveType] = {}
        self.precheck: Callable[[State, Move, MoveType], None] | None = None

    def move(self, type: str, doing: str, *fields: Field, by: str = "anyone", label: str = "",
             correction: bool = False, help: str = "") -> Callable[[Handler], Handler]:
        """Declare a move type; the decorated function applies a checked move: (state, move, rng) -> (state, events)."""
        if by not in ("anyone", "host"):
            raise ValueError(f"{type}: by must be anyone or host")
        names = [item.name for item in fields]
        if len(set(names)) != len(names) or {"type", "seat"} & set(names):
            raise ValueError(f"{type}: field names must be unique and not 'type' or 'seat'")

        def register(handler: Handler) -> Handler:
            if type in self.types:
                raise ValueError(f"{self.game} declares the move {type!r} twice")
            self.types[type] = MoveType(type, doing, tuple(fields), handler, by, label or doing, correction,
                                        help or (handler.__doc__ or "").strip().split("\n")[0])
            return handler

        return register

    def before_each(self, check: Callable[[State, Move, MoveType], None]) -> Callable[[State, Move, MoveType], None]:
        """Declare a check every move passes after its shape and before its fields (say, a player who is out)."""
        self.precheck = check
        return check

    # ---- checking and applying --------------------------------------------------------------------------------

    def check(self, state: State, action: Any) -> tuple[MoveType, Move]:
        """The move type and the checked move, or IllegalAction with the first thing wrong, in a fixed order."""
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction(f"An action needs a type, like {self.example}.")
        kind = action["type"]
        declared = self.types.get(kind)
        if declared is None:
            raise IllegalAction(f"'{kind[:40]}' {self.offer}")
        for key in action:
            if key not in ("type", "seat", *declared.names):
                raise IllegalAction(f"{declared.doing} doesn't take '{str(key)[:40]}'.")
        if "seat" not in action:
            raise IllegalAction("That action doesn't say who is acting.")
        seats = state["seats"]
        actor = action["seat"]
        if actor is not None and (not is_whole(actor) or actor not in seats):
            raise IllegalAction(self.no_seat.format(seat=seat_text(actor)))
        if declared.by == "host" and actor is not None:
            raise IllegalAction(self.host_only.format(doing=declared.doing))
        move = Move(action)
        if self.precheck is not None:
            self.precheck(state, move, declared)
        for item in declared.fields:
            if item.name not in action or (action[item.name] is None and (item.optional or item.actor_default)):
                if item.actor_default and actor is not None:
                    move[item.name] = actor
                elif item.optional:
                    move[item.name] = item.default
                    continue
                else:
                    raise item.refuse(item.ask or "Say {label}.", state, move)
            move[item.name] = item.check(state, move, seats, lambda seat: self.seat_name(state, seat))
        return declared, move

    def apply(self, state: State, action: Any, rng: Any) -> tuple[State, list[Event]]:
        """Check the move completely, then let its handler return a changed copy of the state and the log lines."""
        declared, move = self.check(state, action)
        return declared.handler(state, move, rng)

    # ---- forms and documentation ------------------------------------------------------------------------------

    def from_form(self, form: Mapping[str, str]) -> dict[str, Any]:
        """A move from a form's strings: each declared field as its kind's JSON value; empty fields are left out."""
        action: dict[str, Any] = {key: value for key, value in form.items() if value.strip() != ""}
        declared = self.types.get(action.get("type", ""))
        if declared is None:
            return action
        for item in declared.fields:
            if item.name in action and item.kind != "rows":
                action[item.name] = item.from_text(action[item.name])
            elif item.kind == "flag" and item.name in form:
                action[item.name] = False
            elif item.kind in ("ints", "rows") and item.name not in action:
                gathered = item.gather(action)
                if gathered is not None:
                    action[item.name] = gathered
        return action

    def form(self, state: State, move: Mapping[str, Any]) -> list[dict[str, Any]]:
        """The fields of an offered move as a form shows them (fixed ones hidden, picked ones with their limits)."""
        declared = self.types[move["type"]]
        return [item.form(state, move) for item in declared.fields if item.name in move or item.picked]

    def declared(self, move: Mapping[str, Any]) -> MoveType:
        return self.types[move["type"]]

    def describe(self) -> list[dict[str, Any]]:
        return [declared.describe() for declared in self.types.values()]

    def __iter__(self) -> Iterable[MoveType]:
        return iter(self.types.values())


class Offers:
    """What one screen may do now, for its templates: the offered moves, and their fields as a form shows them.

    A template never re-derives a rule's limits: it asks whether a variant of an offered move (a -5 button beside
    the offered -1) passes the declared checks, and reads each field's limits from the declaration.
    """

    def __init__(self, moves: Moves, state: State, offered: list[dict[str, Any]], seat: int | None,
                 every: Sequence[int] = (), checked: dict | None = None):
        """`every`: the moves are offered to each of these seats alike (one panel drawn for all their phones), and a
        variant passes only if it passes for each of them. `checked`: verdicts shared by every screen drawn from this
        one state (the console and a phone ask about the same -1 button)."""
        self.moves, self.state, self.offered, self.seat, self.every = moves, state, offered, seat, tuple(every)
        self.checked = {} if checked is None else checked
        self._by_type: dict[str, list[tuple[dict[str, Any], tuple]]] | None = None
        self._by_field: dict[tuple[str, str], dict[Any, list[tuple[dict[str, Any], tuple]]] | None] = {}

    def find(self, type: str, **fields: Any) -> dict[str, Any] | None:
        """The offered move of this type whose fixed fields are these (the first, if several)."""
        return next((offer for offer, _ in self._candidates(type, fields)
                     if all(offer.get(key) == value for key, value in fields.items())), None)

    def _candidates(self, type: str, fields: dict[str, Any]) -> list[tuple[dict[str, Any], tuple]]:
        """The offers of a type that may match `fields`, looked up by the first field's value: the host's console asks
        for every counter of every seat, and scanning every offer for each made the asking grow with the square."""
        if self._by_type is None:  # each offer sorted once, however many fragments ask
            self._by_type = {}
            for offer in self.offered:
                self._by_type.setdefault(offer["type"], []).append((offer, tuple(sorted(offer.items()))))
        offers = self._by_type.get(type, ())
        if not fields or not offers:
            return offers
        key, value = next(iter(fields.items()))
        if (type, key) not in self._by_field:
            index: dict | None = {}
            for pair in offers:
                try:
                    index.setdefault(pair[0].get(key), []).append(pair)
                except TypeError:  # an unhashable value (a list): this field can't index this type's offers
                    index = None
                    break
            self._by_field[(type, key)] = index
        index = self._by_field[(type, key)]
        if index is None:
            return offers
        try:
            return index.get(value, ())
        except TypeError:
            return offers

    def all(self, type: str) -> list[dict[str, Any]]:
        return [offer for offer in self.offered if offer["type"] == type]

    def allows(self, offer: Mapping[str, Any] | None, **changes: Any) -> bool:
        """Whether the offered move with these values changed passes its declared checks (types and limits)."""
        if offer is None:
            return False
        variant = {**offer, **changes}
        try:
            key = (tuple(sorted(variant.items())), self.every or self.seat)
            return self.checked[key]
        except TypeError:  # an unhashable value (a list): checked afresh
            key = None
        except KeyError:
            pass
        try:
            for seat in self.every or (self.seat,):
                self.moves.check(self.state, {**variant, "seat": seat})
            allowed = True
        except IllegalAction:
            allowed = False
        if key is not None:
            self.checked[key] = allowed
        return allowed

    def fields(self, offer: Mapping[str, Any]) -> list[dict[str, Any]]:
        return self.moves.form(self.state, offer)

    def label(self, offer: Mapping[str, Any]) -> str:
        return self.moves.declared(offer).label

    def __bool__(self) -> bool:
        return bool(self.offered)

    def __iter__(self):
        return iter(self.offered)


__all__ = ["Field", "Move", "MoveType", "Moves", "Offers", "Count", "Choice", "Flag", "Text", "Numbers", "Rows",
           "Whose", "SeatField", "is_whole", "seat_text"]
