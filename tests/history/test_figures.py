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
    assert {"score", "side", "scenario", "facts", "seats"} <= set(raw) <= {*figures.GAME_WIDE, "seats"}
    assert sorted(raw["seats"]) == sorted(str(seat) for seat in state["seats"])
    assert all(set(entry) == {"score", "status", "details", "records"} for entry in raw["seats"].values())
    cleaned = figures.clean(raw, state["seats"])
    as_lists = {**raw, "facts": [list(pair) for pair in raw["facts"]],
                "seats": {seat: {**entry, "details": [list(pair) for pair in entry["details"]]}
                          for seat, entry in raw["seats"].items()}}
    assert cleaned == {"score_decides": None, "cooperative": False, "teams": {}, **as_lists}  # nothing trimmed


def test_a_tracker_names_each_seats_counters_and_the_shared_ones():
    options, seats = REGISTRY["tracker"].configure({"players": 2, "counters": [
        {"name": "Sanity", "scope": "each", "min": 0, "max": 10, "start": 7},
        {"name": "Doom", "scope": "shared", "min": 0, "max": 20, "start": 3}]})
    state = REGISTRY["tracker"].rules.new_state([1, 2], options, {})
    found = figures.read(REGISTRY["tracker"].rules, state, [1, 2])
    assert found["seats"]["1"]["details"] == [["Sanity", 7]] and found["facts"] == [["Round", 1], ["Doom", 3]]


def test_the_fallback_gives_every_seat_empty_figures():
    assert figures.read(object(), {"seats": [1, 2]}, [1, 2]) == {
        "score": None, "side": None, "scenario": None, "facts": [], "score_decides": None, "cooperative": False,
        "teams": {}, "seats": {"1": figures.empty_seat(), "2": figures.empty_seat()}}


def test_figures_out_of_shape_are_trimmed_not_stored():
    raw = {"score": 5, "side": "x" * 500, "facts": [["ok", 1], ["bad"], [None, 2], ["nested", {"a": 1}]],
           "seats": {"1": {"score": True, "status": 7, "details": "text", "records": {"Best": 3, "Worst": "low"}},
                     "9": {"score": 1}}}
    cleaned = figures.clean(raw, [1, 2])
    assert cleaned["score"] is None and len(cleaned["side"]) == figures.LABEL_MAX and cleaned["facts"] == [["ok", 1]]
    assert cleaned["seats"] == {"1": {"score": None, "status": None, "details": [], "records": {"Best": 3}},
                                "2": figures.empty_seat()}


def test_6am_power_decides_only_a_night_survived_to_6am():
    """'If both players survive until 6:00 AM ..., the player with the most power remaining wins!'; 'If a single
    Animatronic moves into your Office, you immediately lose the game and the other player wins.' whatever power is
    left: the figures say which (`score_decides`), so no export ranks the caught guard by power."""
    rules = REGISTRY["survive-6am"].rules
    state = opening("survive-6am")
    assert rules.figures(state)["score_decides"] is None  # still going: nothing decided yet
    dawn = {**state, "clock_pile": [], "phase": "dawn"}
    assert rules.figures(dawn)["score_decides"] is True
    caught = {**state, "phase": "resolve", "caught": 1, "caught_at": "1:00 AM"}
    assert rules.figures(caught)["score_decides"] is False


def test_directors_cut_plays_its_guards_as_one_side_and_any_animatronic_player_as_the_other():
    figured = REGISTRY["directors-cut"].rules.figures(opening("directors-cut"))
    assert figured["cooperative"] is True and figured["teams"] == {"Guards": [1], "Animatronics": [2, 3]}


def test_a_play_from_before_score_decides_is_judged_by_its_winners_scores():
    assert figures.score_decided(None, [(True, 35), (False, 40)]) is False
    assert figures.score_decided(None, [(True, 40), (False, 40), (False, 12)]) is True
    assert figures.score_decided(None, [(False, 3), (False, 9)]) is True  # nobody won: nothing contradicts
    assert figures.score_decided(False, [(True, 40), (False, 35)]) is False  # the game said so
    assert [figures.duration_minutes(seconds) for seconds in (0, 18, 29, 31, 89, 91, 3600)] == [0, 1, 1, 1, 1, 2, 60]
