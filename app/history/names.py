"""Who is who across plays: names match case-insensitively, and a host can merge two spellings of one person."""

from __future__ import annotations

import unicodedata

from sqlalchemy import func, select

from ..errors import BadRequest, Conflict, NotFound
from ..extensions import db
from ..names import FORBIDDEN_TEXT, folded, has_forbidden
from .models import Play, PlayerAlias, PlaySeat

NAME_MAX = 64  # names as stored on a play; the tables keep theirs to 24


def key(name: str) -> str:
    """The form two spellings share when they are the same name: 'ANN', 'ann ' and 'Ann' all match."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()[:NAME_MAX]


def typed_name(raw: object, what: str = "player name") -> str:
    """A name typed into a filter or the merge form, or a 400 that says what is wrong with it."""
    if not isinstance(raw, str):
        raise BadRequest(f"Type a {what}.")
    name = folded(raw)
    if not name:
        raise BadRequest(f"Type a {what}.")
    if len(name) > NAME_MAX:
        raise BadRequest(f"That {what} is {len(name)} characters long; names are at most {NAME_MAX}.")
    if has_forbidden(name):  # the same characters a table refuses in a name
        raise BadRequest(f"A {what} can't contain {FORBIDDEN_TEXT} or control characters.")
    return name


class People:
    """The merges in force, loaded once per request: a spelling's key -> the name it counts as."""

    def __init__(self, aliases: dict[str, str] | None = None):
        self.aliases = aliases if aliases is not None else {
            alias.key: alias.person for alias in db.session.scalars(select(PlayerAlias))}

    def person(self, name: str) -> str:
        """The name this spelling counts as: the merge target, or the spelling itself."""
        return self.aliases.get(key(name), name)

    def person_key(self, name: str) -> str:
        return key(self.person(name))

    def spellings(self, name: str) -> set[str]:
        """Every key that counts as the same person as `name` (for filtering plays by player)."""
        target = self.person_key(name)
        return {target} | {alias for alias, person in self.aliases.items() if key(person) == target}


def known_keys() -> set[str]:
    """Every player key that sat at a play, so a merge of a name nobody used is refused."""
    return set(db.session.scalars(select(PlaySeat.player_key).join(Play).where(
        PlaySeat.player_key.is_not(None), Play.undone.is_(False)).distinct()))


def merge(raw_from: object, raw_into: object) -> tuple[str, str]:
    """Count every play of `raw_from` as `raw_into`'s from now on; refuses a name into itself or an unknown name."""
    source, target = typed_name(raw_from, "name to merge"), typed_name(raw_into, "name to merge it into")
    people = People()
    if people.person_key(source) == people.person_key(target):
        if key(source) == key(target):
            raise BadRequest(f"“{source}” and “{target}” are the same name already: names match whatever their "
                             "capitals. Pick two different spellings.")
        raise Conflict(f"“{source}” already counts as {people.person(target)}; nothing to merge.")
    known = known_keys() | set(people.aliases)
    for name in (source, target):
        if key(name) not in known:
            raise NotFound(f"Nobody called “{name}” has played here yet. Check the spelling on the history page.")
    person = people.person(target)
    old = people.person_key(source)
    for alias in db.session.scalars(select(PlayerAlias).where(PlayerAlias.person_key == old)):
        alias.person, alias.person_key = person, key(person)  # whoever counted as the source now counts as the target
    for spelling in {key(source), old}:
        alias = db.session.get(PlayerAlias, spelling)
        if alias is None:
            db.session.add(PlayerAlias(key=spelling, person=person, person_key=key(person)))
        else:
            alias.person, alias.person_key = person, key(person)
    db.session.commit()
    return source, person


def unmerge(raw: object) -> str:
    """A merged spelling counts as itself again."""
    name = typed_name(raw, "merged name")
    alias = db.session.get(PlayerAlias, key(name))
    if alias is None:
        raise NotFound(f"“{name}” isn't merged into anyone, so there is nothing to undo.")
    db.session.delete(alias)
    db.session.commit()
    return name


def merges() -> list[PlayerAlias]:
    return list(db.session.scalars(select(PlayerAlias).order_by(func.lower(PlayerAlias.person), PlayerAlias.key)))
