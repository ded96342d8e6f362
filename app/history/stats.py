"""Stats over plays (as play_json gives them): per player and game, and per game. Pure: no Flask, no database.

Only plays that reached their game's own end count; a table ended early stays in the history but has no winner.
A score counts (averages, bests, charts) only in plays where it decided who won: a 6AM guard whose Office was
entered loses whatever power is left, so that power is no record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from .figures import score_decided
from .models import FINISHED
from .names import People

NOBODY = "Nobody"


@dataclass
class Record:
    """A best figure and where it was set."""

    value: int
    who: str | None
    play: str
    when: str

    def as_dict(self) -> dict[str, Any]:
        return {"value": self.value, "who": self.who, "play": self.play, "when": self.when}


def _better(current: Record | None, value: int, who: str | None, play: dict[str, Any]) -> Record:
    """The higher figure wins; an equal one keeps the earlier record."""
    if current is None or value > current.value:
        return Record(value, who, play["id"], play["ended_at"])
    return current


@dataclass
class PlayerGame:
    """One person's record at one game."""

    person: str
    game: str
    game_name: str
    score_name: str | None = None
    plays: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    records: dict[str, Record] = field(default_factory=dict)
    last_played: str = ""
    history: list[tuple[str, int | None, bool]] = field(default_factory=list)  # (play id, score, won), oldest first

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.person, "game": self.game, "game_name": self.game_name, "plays": self.plays,
                "wins": self.wins, "win_rate": round(self.wins / self.plays, 4) if self.plays else 0.0,
                "score_name": self.score_name,
                "average_score": round(sum(self.scores) / len(self.scores), 2) if self.scores else None,
                "best_score": max(self.scores) if self.scores else None,
                "records": {label: record.value for label, record in self.records.items()},
                "last_played": self.last_played}


@dataclass
class GameSummary:
    """One game over the whole history: how long it takes and who, or which side, wins."""

    game: str
    game_name: str
    score_name: str | None = None
    plays: int = 0
    ended_early: int = 0
    undecided: int = 0  # finished plays whose scores didn't decide who won, left out of the scores
    seconds: int = 0
    sides: Counter = field(default_factory=Counter)
    by_scenario: dict[str, Counter] = field(default_factory=dict)
    has_sides: bool = False
    wins: Counter = field(default_factory=Counter)  # person -> wins
    best_score: Record | None = None
    records: dict[str, Record] = field(default_factory=dict)
    last_played: str = ""

    @property
    def average_duration(self) -> int | None:
        return round(self.seconds / self.plays) if self.plays else None

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "game_name": self.game_name, "plays": self.plays, "ended_early": self.ended_early,
                "average_duration_seconds": self.average_duration, "score_name": self.score_name,
                "scores_left_out": self.undecided,
                "sides": [{"side": side, "wins": count} for side, count in self.sides.most_common()]
                if self.has_sides else [],
                "by_scenario": {scenario: [{"side": side, "wins": count} for side, count in counts.most_common()]
                                for scenario, counts in sorted(self.by_scenario.items())} if self.has_sides else {},
                "wins_by_player": [{"name": name, "wins": count} for name, count in self.wins.most_common()],
                "best_score": self.best_score.as_dict() if self.best_score else None,
                "records": {label: record.as_dict() for label, record in self.records.items()},
                "last_played": self.last_played}


def side_of(play: dict[str, Any]) -> str:
    """Who won, as the game's side when it names one, else the winners' seats, else nobody."""
    if play.get("side"):
        return play["side"]
    winners = [seat["seat_name"] for seat in play["players"] if seat["winner"]]
    return " and ".join(winners) if winners else NOBODY


def counts_scores(play: dict[str, Any]) -> bool:
    """Whether this play's scores decided who won, so they count as scores (the game said, or the winners show)."""
    return score_decided(play.get("score_decides"), [(seat["winner"], seat["score"]) for seat in play["players"]])


def finished(plays: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return [play for play in plays if play["ending"] == FINISHED]


def _oldest_first(plays: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(plays, key=lambda play: (play["ended_at"], play["id"]))


def names_of(plays: Iterable[dict[str, Any]], people: People) -> dict[str, str]:
    """Each person's key -> the name to show: the merge target, or the newest spelling they played under."""
    shown: dict[str, str] = {}
    for play in _oldest_first(plays):
        for seat in play["players"]:
            if seat["name"]:
                shown[people.person_key(seat["name"])] = people.person(seat["name"])
    return shown


def by_player(plays: Iterable[dict[str, Any]], people: People, *, player: str | None = None,
              game: str | None = None) -> list[PlayerGame]:
    """Plays, wins, win rate, average and best score, each game's records and the last play, per person and game."""
    plays = list(plays)
    shown = names_of(plays, people)
    wanted = people.person_key(player) if player else None
    rows: dict[tuple[str, str], PlayerGame] = {}
    for play in _oldest_first(finished(plays)):
        if game and play["game"] != game:
            continue
        scores = counts_scores(play)
        for seat in play["players"]:
            if not seat["name"]:
                continue
            person = people.person_key(seat["name"])
            if wanted is not None and person != wanted:
                continue
            row = rows.setdefault((person, play["game"]), PlayerGame(shown[person], play["game"], play["game_name"]))
            row.score_name = play.get("score") or row.score_name
            row.plays += 1
            row.wins += 1 if seat["winner"] else 0
            score = seat["score"] if scores else None
            if score is not None:
                row.scores.append(score)
            for label, value in (seat.get("records") or {}).items():
                row.records[label] = _better(row.records.get(label), value, shown[person], play)
            row.last_played = max(row.last_played, play["ended_at"])
            row.history.append((play["id"], score, seat["winner"]))
    return sorted(rows.values(), key=lambda row: (row.person.casefold(), row.game_name))


def by_game(plays: Iterable[dict[str, Any]], people: People, *, game: str | None = None) -> list[GameSummary]:
    """Per game: plays, plays ended early, average duration, wins by side (and by scenario) and by person, records."""
    plays = list(plays)
    shown = names_of(plays, people)
    games: dict[str, GameSummary] = {}
    for play in _oldest_first(plays):
        if game and play["game"] != game:
            continue
        summary = games.setdefault(play["game"], GameSummary(play["game"], play["game_name"]))
        if play["ending"] != FINISHED:
            summary.ended_early += 1
            continue
        summary.plays += 1
        scores = counts_scores(play)
        summary.undecided += 0 if scores or not play.get("score") else 1
        summary.seconds += play["duration_seconds"]
        summary.score_name = play.get("score") or summary.score_name
        summary.has_sides = summary.has_sides or bool(play.get("side"))
        side = side_of(play)
        summary.sides[side] += 1
        if play.get("scenario"):
            summary.by_scenario.setdefault(play["scenario"], Counter())[side] += 1
        summary.last_played = max(summary.last_played, play["ended_at"])
        for seat in play["players"]:
            who = shown[people.person_key(seat["name"])] if seat["name"] else None
            if seat["winner"] and who:
                summary.wins[who] += 1
            if seat["score"] is not None and scores:
                summary.best_score = _better(summary.best_score, seat["score"], who or seat["seat_name"], play)
            for label, value in (seat.get("records") or {}).items():
                summary.records[label] = _better(summary.records.get(label), value, who or seat["seat_name"], play)
    return sorted(games.values(), key=lambda summary: summary.game_name)


def totals(rows: Iterable[PlayerGame]) -> list[dict[str, Any]]:
    """Each person over every game: games played, plays and wins; most wins first."""
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        total = found.setdefault(row.person, {"name": row.person, "games": 0, "plays": 0, "wins": 0})
        total["games"] += 1
        total["plays"] += row.plays
        total["wins"] += row.wins
    return sorted(found.values(), key=lambda total: (-total["wins"], -total["plays"], total["name"].casefold()))
