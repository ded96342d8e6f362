"""The table's random stream, without Flask: reproducible from the seed, uniform, recorded, honest about real dice."""

import hashlib
import hmac
import json
from collections import Counter

import pytest

from app.dice import DiceError, TableDice, commitment, new_seed, parse, roll_with, uniform

SEED = "5e" * 32


def chi_square(counts: Counter, outcomes: list, draws: int, weights: dict | None = None) -> float:
    """Pearson's statistic for `draws` draws of `outcomes`, equally likely unless `weights` say otherwise."""
    weights = weights or {outcome: 1 for outcome in outcomes}
    total = sum(weights.values())
    expected = {outcome: draws * weights[outcome] / total for outcome in outcomes}
    return sum((counts[outcome] - expected[outcome]) ** 2 / expected[outcome] for outcome in outcomes)


def test_is_a_new_seed_64_hex_characters_and_different_each_time():
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20
    assert all(len(seed) == 64 and int(seed, 16) >= 0 for seed in seeds)


def test_is_the_commitment_what_sha256sum_prints_for_the_seed():
    assert commitment("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert commitment(SEED) == hashlib.sha256(SEED.encode()).hexdigest()


def test_does_uniform_follow_the_documented_algorithm():
    """A player with only hmac and hashlib gets the same numbers."""
    for n, i, bound in [(0, 0, 6), (7, 3, 20), (123, 0, 1000), (5, 2, 2)]:
        block = hmac.new(SEED.encode("ascii"), f"{n}:{i}:0".encode(), hashlib.sha256).digest()
        x = int.from_bytes(block[:8], "big")
        assert x < (2**64 // bound) * bound  # these small bounds are never rejected on the first block
        assert uniform(SEED, n, i, bound) == x % bound


def test_is_uniform_deterministic_and_in_range():
    for bound in [1, 2, 6, 20, 100, 10**9, 2**63 + 1]:  # 2**63+1 rejects about half the blocks
        values = [uniform(SEED, n, 0, bound) for n in range(200)]
        assert values == [uniform(SEED, n, 0, bound) for n in range(200)]
        assert all(0 <= value < bound for value in values)
    assert len({uniform(SEED, n, 0, 2**63 + 1) for n in range(200)}) == 200
    assert len({uniform(SEED, 0, i, 10**9) for i in range(10)} | {uniform(SEED, n, 0, 10**9) for n in range(10)}) == 19
    with pytest.raises(ValueError):
        uniform(SEED, 0, 0, 0)


def test_does_a_d6_come_up_evenly_over_60000_rolls():
    dice = parse("d6")
    counts = Counter(roll_with(SEED, n, dice).total for n in range(60_000))
    assert chi_square(counts, [1, 2, 3, 4, 5, 6], 60_000) < 20.515  # p = 0.001, 5 degrees of freedom


def test_does_a_d20_come_up_evenly_over_20000_rolls():
    dice = parse("d20")
    counts = Counter(roll_with(SEED, n, dice).total for n in range(20_000))
    assert chi_square(counts, list(range(1, 21)), 20_000) < 43.820  # p = 0.001, 19 degrees of freedom


def test_does_every_die_of_a_roll_come_up_evenly_too():
    dice = parse("3d6")
    counts = Counter(value for n in range(10_000) for value in roll_with(SEED, n, dice).values[0])
    assert chi_square(counts, [1, 2, 3, 4, 5, 6], 30_000) < 20.515


def test_does_a_face_printed_twice_come_up_twice_as_often():
    dice = parse("d{0,5,5,10,10,15}")
    counts = Counter(roll_with(SEED, n, dice).total for n in range(30_000))
    assert set(counts) == {0, 5, 10, 15}
    assert 1.85 < counts[5] / counts[0] < 2.15 and 1.85 < counts[10] / counts[15] < 2.15
    assert chi_square(counts, [0, 5, 10, 15], 30_000, {0: 1, 5: 2, 10: 2, 15: 1}) < 16.266  # p = 0.001, 3 df


def test_does_a_keep_roll_use_the_same_dice_as_the_plain_roll():
    assert roll_with(SEED, 9, parse("4d6kh3")).values == roll_with(SEED, 9, parse("4d6")).values
    roll = roll_with(SEED, 9, parse("4d6kh3"))
    assert roll.total == sum(sorted(roll.values[0])[1:])


def test_does_each_draw_use_the_next_counter_and_leave_a_record():
    rng = TableDice(SEED, 41, "Anna (Player 2)")
    roll = rng.roll("2d6+1", "initiative")
    pick = rng.randbelow(10, "which door")
    shuffled = rng.shuffle(["a", "b", "c", "d"], "deck")
    chosen = rng.choice(["x", "y", "z"])
    assert rng.counter == 45
    assert rng.records[0] == {"n": 41, "kind": "roll", "dice": "2d6+1", "values": [list(roll.values[0])],
                              "kept": [list(roll.values[0])], "total": roll.total, "who": "Anna (Player 2)",
                              "why": "initiative", "source": "app"}
    assert roll.total == sum(roll.values[0]) + 1 and roll == roll_with(SEED, 41, parse("2d6+1"))
    assert rng.records[1] == {"n": 42, "kind": "pick", "bound": 10, "value": pick, "who": "Anna (Player 2)",
                              "why": "which door", "source": "app"}
    order = rng.records[2]["order"]
    assert rng.records[2]["kind"] == "shuffle" and rng.records[2]["size"] == 4 and sorted(order) == [0, 1, 2, 3]
    assert shuffled == [["a", "b", "c", "d"][index] for index in order]
    assert chosen == ["x", "y", "z"][rng.records[3]["value"]] and rng.records[3]["n"] == 44
    json.dumps(rng.records)  # the log stores them as JSON


def test_is_the_same_seed_and_counter_the_same_roll():
    first, second = TableDice(SEED, 0, "Host"), TableDice(SEED, 0, "Host")
    assert [first.roll("4d6kh3").values for _ in range(5)] == [second.roll("4d6kh3").values for _ in range(5)]
    assert TableDice(SEED, 0, "Host").shuffle(list(range(20))) == TableDice(SEED, 0, "Host").shuffle(list(range(20)))


def test_does_a_shuffle_leave_its_input_alone_and_reach_every_order():
    items = [1, 2, 3]
    rng = TableDice(SEED, 0, "Host")
    orders = Counter(tuple(rng.shuffle(items)) for _ in range(6_000))
    assert items == [1, 2, 3] and len(orders) == 6
    assert chi_square(orders, list(orders), 6_000) < 20.515


def test_does_a_refused_roll_use_no_counter_value():
    rng = TableDice(SEED, 3, "Host")
    with pytest.raises(DiceError, match="not dice notation"):
        rng.roll("2d")
    with pytest.raises(DiceError):
        rng.randbelow(0)
    with pytest.raises(DiceError, match="nothing to choose"):
        rng.choice([])
    assert rng.counter == 3 and rng.records == []


def test_is_a_real_roll_recorded_without_using_the_counter():
    rng = TableDice(SEED, 7, "Ben (Player 1)")
    roll = rng.physical("4d6kh3", [2, 6, 5, 1], "stats")
    assert roll.total == 13 and roll.kept == ((2, 6, 5),) and rng.counter == 7
    assert rng.records == [{"kind": "roll", "dice": "4d6kh3", "values": [[2, 6, 5, 1]], "kept": [[2, 6, 5]],
                            "total": 13, "who": "Ben (Player 1)", "why": "stats", "source": "physical"}]
    assert rng.physical("d{0,5,5,10,10,15}+2d6", [5, 1, 6]).total == 12


@pytest.mark.parametrize("dice,values,message", [
    ("2d6", [3, 5, 1], "2d6 is 2 dice; you entered 3 values."),
    ("2d6", [3], "2d6 is 2 dice; you entered 1 value."),
    ("d20", [], "d20 is 1 die; you entered 0 values."),
    ("d6", [7], "A d6 can't show 7: its faces are 1 to 6."),
    ("d6", [0], "A d6 can't show 0: its faces are 1 to 6."),
    ("d{0,5,5,10,10,15}", [3], "That die's faces are 0, 5, 10, 15; it can't show 3."),
    ("d6+d{0,5}", [2, 6], "That die's faces are 0, 5; it can't show 6."),
    ("d6", [True], "whole number"),
    ("d6", [3.0], "whole number"),
    ("d6", ["3"], "whole number"),
    ("d6", "3", "list of whole numbers"),
    ("d6", None, "list of whole numbers"),
])
def test_are_real_rolls_the_dice_cannot_show_refused(dice, values, message):
    rng = TableDice(SEED, 0, "Host")
    with pytest.raises(DiceError) as caught:
        rng.physical(dice, values)
    assert message in str(caught.value)
    assert rng.records == []
