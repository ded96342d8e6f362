"""The verifier, without Flask: an honest log passes; a changed, deleted, doubled or reseeded one does not."""

import copy

from app.dice import TableDice, commitment, verify

SEED = "0123456789abcdef" * 4


def honest_log() -> list[dict]:
    """A table's dice as the app logs them: two players' TableDice sharing one counter, and a real roll."""
    anna = TableDice(SEED, 0, "Anna (Player 1)")
    anna.roll("2d6+1", "initiative")
    anna.roll("4d6kh3")
    anna.physical("2d6", [3, 5], "the real dice")
    ben = TableDice(SEED, anna.counter, "Ben (Player 2)")
    ben.randbelow(19, "bag")
    ben.shuffle(list("abcdefg"), "deck")
    ben.roll("d{0,5,5,10,10,15}-d4")
    return anna.records + ben.records


def test_does_an_honest_log_pass():
    records = honest_log()
    report = verify(SEED, records)
    assert report.ok and report.missing == [] and report.duplicates == []
    assert len(report.checks) == len(records) and all(check.ok for check in report.checks)
    assert [check.record for check in report.checks] == records
    assert report.checks[0].expected == report.checks[0].found


def test_is_a_changed_die_caught():
    records = honest_log()
    records[0]["values"][0][0] = records[0]["values"][0][0] % 6 + 1
    report = verify(SEED, records)
    assert not report.ok and [check.ok for check in report.checks] == [False, True, True, True, True, True]
    assert report.checks[0].expected != report.checks[0].found


def test_is_a_changed_total_caught():
    records = honest_log()
    records[1]["total"] += 1
    assert not verify(SEED, records).ok
    records = honest_log()
    records[2]["total"] += 1  # a real roll that doesn't add up
    report = verify(SEED, records)
    assert not report.ok and not report.checks[2].ok


def test_are_a_changed_pick_and_shuffle_caught():
    records = honest_log()
    records[3]["value"] = (records[3]["value"] + 1) % 19
    records[4]["order"] = list(reversed(records[4]["order"]))
    report = verify(SEED, records)
    assert [check.ok for check in report.checks] == [True, True, True, False, False, True]


def test_is_a_deleted_roll_caught_as_a_missing_counter():
    records = honest_log()
    del records[1]  # draw 1
    report = verify(SEED, records)
    assert all(check.ok for check in report.checks)
    assert report.missing == [1] and not report.ok


def test_is_a_counter_used_twice_caught():
    records = honest_log()
    records.append(copy.deepcopy(records[0]))
    report = verify(SEED, records)
    assert report.duplicates == [0] and not report.ok


def test_does_a_wrong_seed_fail_every_app_draw():
    report = verify("f" * 64, honest_log())
    assert not report.ok
    assert [check.ok for check in report.checks] == [False, False, True, False, False, False]


def test_is_a_malformed_record_a_failed_check_not_a_crash():
    records = honest_log()
    broken = [{"kind": "roll", "source": "app"}, {"n": 9, "kind": "roll", "dice": "2d", "source": "app"},
              {"n": "x", "kind": "pick", "source": "app"}, {"n": 10, "kind": "dance", "source": "app"},
              {"n": 11, "kind": "pick", "bound": True, "value": 0, "source": "app"},
              {"kind": "roll", "dice": "d6", "values": [[7]], "kept": [[7]], "total": 7, "source": "physical"},
              {"kind": "roll", "dice": "d6", "values": 3, "source": "physical"}, {"source": "forged"}, "text", None]
    report = verify(SEED, records + broken)
    assert [check.ok for check in report.checks] == [True] * len(records) + [False] * len(broken)
    assert report.checks[-1].found.startswith("a malformed record")


def test_does_the_commitment_match_the_seed():
    report = verify(SEED, [])
    assert report.ok and report.commitment_ok(commitment(SEED)) and report.commitment_ok(commitment(SEED).upper())
    assert not report.commitment_ok(commitment("f" * 64)) and not report.commitment_ok(None)
