"""Each game's `figures(state)` gives the documented shape exactly (nothing for the history to trim), for the
ending it reaches and for a game still going (a table ended early), straight from the pure rules."""

import copy

import pytest

from app.dice import TableDice
from app.games import REGISTRY
from app.history import figures
from tests.history.drive import GAMES


def opening(slug: str) -> dict:
    options, seats = REGISTRY[slug].configure(GAMES[slug][0])
    profile = {key: entry.value for key, entry in REGISTRY[slug].profile.items()}
    return REGISTRY[slug].rules.new_state(list(range(1, len(seats) + 1)), options, profile)


def ended(slug: str) -> dict:
    rules, policy = REGISTRY[slug].rules, GAMES[slug][2]
    state = opening(slug)
    for count in range(400):
        if rules.outcome(state) is not None:
            return state
        action = {"seat": None, **policy(state)}
        state, _ = rules.apply(state, action, TableDice("ab" * 32, count, "test"))
    raise AssertionError(f"{slug} did not end")


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("when", ["opening", "ended"])
def test_figures_have_exactly_the_documented_shape(slug, when):
    state = opening(slug) if when == "opening" else ended(slug)
    before = copy.deepcopy(state)
    raw = REGISTRY[slug].rules.figures(state)
    assert state == before  # reads only
    assert set(raw) == {"score", "side", "scenario", "facts", "seats"}
    assert sorted(raw["seats"]) == sorted(str(seat) for seat in state["seats"])
    assert all(set(entry) == {"score", "status", "details", "records"} for entry in raw["seats"].values())
    cleaned = figures.clean(raw, state["seats"])
    as_lists = {**raw, "facts": [list(pair) for pair in raw["facts"]],
                "seats": {seat: {**entry, "details": [list(pair) for pair in entry["details"]]}
                          for seat, entry in raw["seats"].items()}}
    assert cleaned == as_lists  # nothing was out of shape, so nothing was trimmed


def test_a_tracker_names_each_seats_counters_and_the_shared_ones():
    options, seats = REGISTRY["tracker"].configure({"players": 2, "counters": [
        {"name": "Sanity", "scope": "each", "min": 0, "max": 10, "start": 7},
        {"name": "Doom", "scope": "shared", "min": 0, "max": 20, "start": 3}]})
    state = REGISTRY["tracker"].rules.new_state([1, 2], options, {})
    found = figures.read(REGISTRY["tracker"].rules, state, [1, 2])
    assert found["seats"]["1"]["details"] == [["Sanity", 7]] and found["facts"] == [["Round", 1], ["Doom", 3]]


def test_the_fallback_gives_every_seat_empty_figures():
    assert figures.read(object(), {"seats": [1, 2]}, [1, 2]) == {
        "score": None, "side": None, "scenario": None, "facts": [],
        "seats": {"1": figures.empty_seat(), "2": figures.empty_seat()}}


def test_figures_out_of_shape_are_trimmed_not_stored():
    raw = {"score": 5, "side": "x" * 500, "facts": [["ok", 1], ["bad"], [None, 2], ["nested", {"a": 1}]],
           "seats": {"1": {"score": True, "status": 7, "details": "text", "records": {"Best": 3, "Worst": "low"}},
                     "9": {"score": 1}}}
    cleaned = figures.clean(raw, [1, 2])
    assert cleaned["score"] is None and len(cleaned["side"]) == figures.LABEL_MAX and cleaned["facts"] == [["ok", 1]]
    assert cleaned["seats"] == {"1": {"score": None, "status": None, "details": [], "records": {"Best": 3}},
                                "2": figures.empty_seat()}
