"""Flipside's keywords, word for word from the rulebook's KEYWORDS list, and a search over them for the glossary page.

Pure data: no Flask. `combat` marks the keywords the combat helper reminds fighters of.
"""

from __future__ import annotations

import unicodedata
from typing import Any

# (name, rulebook text, matters in combat) in the rulebook's order
KEYWORDS: tuple[dict[str, Any], ...] = tuple(
    {"name": name, "text": text, "combat": combat}
    for name, text, combat in (
        ("Jumpscare", "Can be played during an opponent's turn.", False),
        ("Rush", "Ready to act immediately after play.", False),
        ("Stealth", "Played hidden. Revealed when ready.", False),
        ("Disguise", "Can only be blocked by other characters with Disguise.", True),
        ("Spot", "Can block characters with Disguise.", True),
        ("Guard", "Must defend each turn if able. Can block even if Exhausted.", True),
        ("Crawl", "Can move for free once per turn.", False),
        ("Haywire", "Must attack each turn if able. Does not Exhaust after attack.", True),
        ("Illusion", "Discarded if targeted by an opponent.", True),
        ("Upgrade", "You may pay X Power to play this card on top of one of your characters with tag or name X.",
         False),
        ("Salvage", "When this card is discarded, gain 1 Power.", True),
        ("Leader", "Gains +X/+X for every character named X in your control.", True),
        ("Partner X", "While this is in play, you can play character with tag or name X for free.", False),
        ("Backup X", "Gains +X/+X if attacking alongside other characters named X.", True),
        ("Domain", "Your characters with tag or name X may move here for free.", False),
    )
)

QUERY_LENGTH = 60


def _folded(text: str) -> str:
    """Case- and accent-blind text, so 'haywíre' and 'HAYWIRE' both find Haywire."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(plain.casefold().split())


def search(query: object) -> list[dict[str, Any]]:
    """Keywords whose name or text holds every word of the query; all of them for an empty query."""
    if not isinstance(query, str):
        return list(KEYWORDS)
    words = _folded(query[:QUERY_LENGTH]).split()
    found = []
    for keyword in KEYWORDS:
        name, text = _folded(keyword["name"]), _folded(keyword["text"])
        if all(word in name or word in text for word in words):
            found.append(keyword)
    # a hit on the name comes before a hit in some other keyword's text
    return sorted(found, key=lambda keyword: not any(word in _folded(keyword["name"]) for word in words))


def combat_reminders() -> list[dict[str, Any]]:
    """The keywords a fight can hinge on, for the combat helper."""
    return [keyword for keyword in KEYWORDS if keyword["combat"]]
