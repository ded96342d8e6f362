"""Camp Crystal Lake's drop-off arithmetic, without Flask: the rulebook's examples, each bonus, one bonus per night."""

import itertools
import random

import pytest

from app.games import REGISTRY
from app.games.crystal_lake.scoring import (
    SUPPLIES,
    VALUES,
    ScoringError,
    bonuses,
    keep_options,
    score,
    values_from_profile,
    without,
)


def test_the_rulebooks_three_of_a_kind_example_scores_19():
    """'after dropping off 3 Cast Iron Pan ... a player drops off 2 Cleaver Supply Tokens for 8 points each'."""
    result = score({"pan": 3, "cleaver": 2})
    assert result["points"] == 19
    assert result["bonus"]["key"] == "three:pan:cleaver"
    assert result["breakdown"] == ["3 Cast Iron Pans, 3 x 1 = 3", "3 Cast Iron Pans: Cleavers doubled, 2 x 8 = 16",
                                   "Total 19"]


def test_the_rulebooks_four_of_a_kind_example_scores_30():
    """'4 Gasoline ... 2 Cleaver Supply Tokens for 8 points each, AND 1 Cast Iron Pan Supply Token for 2 points'."""
    result = score({"gasoline": 4, "cleaver": 2, "pan": 1})
    assert result["points"] == 30
    assert result["bonus"]["key"] == "four:gasoline:pan+cleaver"
    assert result["breakdown"] == ["4 Gasoline, 4 x 3 = 12", "4 Gasoline: Cleavers doubled, 2 x 8 = 16",
                                   "4 Gasoline: Cast Iron Pan doubled, 1 x 2 = 2", "Total 30"]


def test_do_the_values_match_the_player_board_in_the_profile():
    profile = REGISTRY["crystal-lake"].profile["supply_values"].value
    assert values_from_profile(profile) == VALUES == {"pan": 1, "flashlight": 2, "gasoline": 3, "cleaver": 4,
                                                      "car_keys": 6, "axe": 8}


def test_five_different_types_add_8_and_six_add_12():
    five = score({"pan": 1, "flashlight": 1, "gasoline": 1, "cleaver": 1, "car_keys": 1})
    assert five["points"] == 1 + 2 + 3 + 4 + 6 + 8 and five["bonus"]["key"] == "five"
    assert five["breakdown"][-2:] == ["Five different types: +8", "Total 24"]
    six = score(dict.fromkeys(SUPPLIES, 1))
    assert six["points"] == 24 + 12 and six["bonus"]["key"] == "six"
    assert [option["key"] for option in six["bonuses"]][:2] == ["six", "five"]


def test_only_one_bonus_counts_even_when_several_apply():
    """'Each player can only use ONE of these bonuses per night': two triples and five types give one bonus."""
    result = score({"axe": 3, "pan": 1, "flashlight": 1, "gasoline": 1, "cleaver": 3})
    base = 3 * 8 + 1 + 2 + 3 + 3 * 4
    assert result["base"] == base
    assert {"three:axe:cleaver", "three:cleaver:axe", "five"} <= {option["key"] for option in result["bonuses"]}
    assert result["points"] == base + 24  # 3 Cleavers doubling the Axes (+24) beats +12 and +8; never two of them
    assert result["bonus"]["key"] == "three:cleaver:axe"
    assert sum(1 for line in result["breakdown"] if "doubled" in line or "+8" in line) == 1


def test_three_of_a_kind_doubles_another_type_not_its_own():
    result = score({"axe": 3})
    assert result["points"] == 24 and result["bonus"]["key"] == "none"
    assert [option["key"] for option in result["bonuses"]] == ["none"]


def test_four_of_a_kind_with_only_one_other_type_doubles_that_one():
    result = score({"pan": 4, "axe": 1})
    assert result["points"] == 4 + 16 and result["bonus"]["key"] in ("four:pan:axe", "three:pan:axe")


def test_four_of_a_kind_picks_the_two_best_types_to_double():
    result = score({"pan": 4, "flashlight": 1, "axe": 1, "car_keys": 1})
    assert result["bonus"]["key"] == "four:pan:car_keys+axe"
    assert result["points"] == 4 + 2 + 2 * 6 + 2 * 8


def test_a_player_may_pick_a_lesser_bonus_or_none():
    picked = score({"pan": 3, "cleaver": 2, "flashlight": 1}, bonus="three:pan:flashlight")
    assert picked["points"] == 3 + 8 + 4 and picked["best"] is False
    assert score({"pan": 3, "cleaver": 2}, bonus="none")["points"] == 11


def test_a_bonus_the_supplies_dont_allow_is_refused_with_a_sentence():
    with pytest.raises(ScoringError, match="isn't possible"):
        score({"pan": 2, "cleaver": 2}, bonus="three:pan:cleaver")


@pytest.mark.parametrize("bad, message", [
    ({"chainsaw": 1}, "isn't a Supply"), ({"pan": -1}, "negative"), ({"pan": 68}, "67"),
    ({"pan": True}, "whole number"), ({"pan": "3"}, "whole number"), ([("pan", 3)], "list of supplies"),
    ({"pan": 40, "axe": 40}, "67"),
])
def test_bad_drop_offs_are_refused_with_a_sentence(bad, message):
    with pytest.raises(ScoringError, match=message):
        score(bad)


def test_an_empty_drop_off_scores_nothing():
    assert score({})["points"] == 0 and score({})["breakdown"] == ["Nothing to drop off: 0", "Total 0"]


def brute_force_best(counts: dict[str, int]) -> int:
    """Every way to use one bonus, straight from the combination side of the Player Board."""
    base = sum(counts[supply] * VALUES[supply] for supply in SUPPLIES)
    best = base
    present = [supply for supply in SUPPLIES if counts[supply]]
    for triple in present:
        others = [supply for supply in present if supply != triple]
        if counts[triple] >= 3:
            for other in others:
                best = max(best, base + counts[other] * VALUES[other])
        if counts[triple] >= 4:
            for size in (1, 2):
                for chosen in itertools.combinations(others, size):
                    best = max(best, base + sum(counts[other] * VALUES[other] for other in chosen))
    if len(present) >= 5:
        best = max(best, base + 8)
    if len(present) == 6:
        best = max(best, base + 12)
    return best


def test_the_chosen_bonus_is_the_best_of_every_possibility():
    """Brute force over 3,000 random drop-offs: the automatic bonus is never beaten by another legal one."""
    generator = random.Random(13)
    for _ in range(3000):
        counts = {supply: generator.choice([0, 0, 1, 1, 2, 3, 4, 5]) for supply in SUPPLIES}
        result = score(counts)
        assert result["points"] == brute_force_best(counts), counts
        assert all(option["points"] <= result["bonus"]["points"] for option in bonuses(counts))
        assert result["breakdown"][-1] == f"Total {result['points']}"


def test_backpack_choices_are_every_way_to_save_up_to_two():
    options = keep_options({"pan": 2, "axe": 1})
    assert options == [(), ("pan",), ("axe",), ("pan", "pan"), ("pan", "axe")]
    assert keep_options({"axe": 1}) == [(), ("axe",)]  # one Axe can't be saved twice
    assert without({"pan": 2, "axe": 1}, ("pan", "axe")) == dict.fromkeys(SUPPLIES, 0) | {"pan": 1}
