"""Test helpers for any game's pure rules, written once: make a move, play several, check a refusal, open a table."""

from __future__ import annotations

import copy
import itertools
import json
import random
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import pytest

from app.dice import TableDice
from app.games import GameSpec, OptionError
from app.games.contract import Event, IllegalAction

SEED = "ab" * 32  # a fixed table seed: every app roll in these tests is reproducible


def profile_of(spec: GameSpec) -> dict[str, Any]:
    return {key: entry.value for key, entry in spec.profile.items()}


def opening(spec: GameSpec, raw_options: dict[str, Any] | None = None, *, from_form: bool = False) -> dict:
    """A game's opening state, set up through the same checks a host's setup form goes through."""
    options, seats = spec.configure(raw_options or {}, from_form=from_form)
    return spec.rules.new_state(list(range(1, len(seats) + 1)), options, profile_of(spec))


def dumped(state: Any) -> str:
    """The state as the database stores it: two equal dumps mean byte-identical tables."""
    return json.dumps(state, sort_keys=True)


class RulesUnderTest:
    """One game's rules with the table's dice: `act`, `play` and `refused` take (state, seat, **move) in every game."""

    def __init__(self, rules: ModuleType, seed: str = SEED):
        self.rules, self.seed = rules, seed
        self.counter = 0  # the table's draw counter, carried from move to move like the write path does

    def dice(self, who: str = "someone") -> TableDice:
        return TableDice(self.seed, self.counter, who)

    def act(self, state: dict, seat: int | None, rng: Any = None, **move) -> tuple[dict, list[Event]]:
        """Apply a move for `seat` (None: the host); the state passed in must come back untouched."""
        before = dumped(state)
        dice = rng or self.dice()
        after, events = self.rules.apply(state, {**move, "seat": seat}, dice)
        assert dumped(state) == before, "apply changed the state it was given"
        if rng is None:
            self.counter = dice.counter
        return after, events

    def play(self, state: dict, seat: int | None, rng: Any = None, **move) -> dict:
        """The state after a move, when only the state matters."""
        return self.act(state, seat, rng, **move)[0]

    def texts(self, state: dict, seat: int | None, rng: Any = None, **move) -> tuple[dict, list[str]]:
        """The state and the log lines of a move."""
        after, events = self.act(state, seat, rng, **move)
        return after, [event.text for event in events]

    def refused(self, state: dict, seat: int | None, message: str, rng: Any = None, **move) -> str:
        """The move is refused with a sentence containing `message`, and the state is byte-identical."""
        before = dumped(state)
        dice = rng or self.dice()
        drawn = dice.counter
        with pytest.raises(IllegalAction) as caught:
            self.rules.apply(state, {**move, "seat": seat}, dice)
        assert message in str(caught.value), str(caught.value)
        assert dumped(state) == before and dice.counter == drawn
        return str(caught.value)


# ---- setups to play: every option value, in as many combinations as stay quick ---------------------------------------

def option_values(option) -> list[Any]:
    """The values of one setup option worth playing: every choice and both switches; a number's ends and default."""
    if option.kind == "choice":
        return [value for value, _ in option.choices]
    if option.kind == "bool":
        return [False, True]
    if option.kind == "int":
        return sorted({option.minimum, option.default, option.maximum})
    if option.kind == "multi":
        names = [value for value, _ in option.choices]
        return [list(names[:count]) for count in sorted({option.min_count, len(option.default), option.max_count})]
    return [copy.deepcopy(option.default)]


def setups(spec: GameSpec, most: int = 48) -> Iterator[dict[str, Any]]:
    """Option sets the rules accept: every combination when there are at most `most`, else every value of every
    option at least once (each beside a seeded random choice of the others)."""
    keys = [option.key for option in spec.options]
    values = [option_values(option) for option in spec.options]
    combos = list(itertools.product(*values))
    if len(combos) > most:
        chance = random.Random(spec.slug)
        picked = []
        for index, choices in enumerate(values):
            for value in choices:
                combo = [chance.choice(others) for others in values]
                combo[index] = value
                picked.append(tuple(combo))
        combos = picked
    seen = set()
    for combo in combos:
        raw = dict(zip(keys, combo, strict=True))
        try:
            options, _ = spec.configure(copy.deepcopy(raw))
        except OptionError:
            continue  # a combination the rulebook rules out (more first players than seats)
        marker = json.dumps(options, sort_keys=True)
        if marker not in seen:
            seen.add(marker)
            yield raw


__all__ = ["SEED", "RulesUnderTest", "opening", "profile_of", "dumped", "setups", "option_values"]
