"""The generic tracker's rules, without Flask: counters stay in range, seats change only their own, dice are logged."""

import copy
import json
import random

import pytest

from app.dice import TableDice, parse, roll_with
from app.games import REGISTRY, OptionError
from app.games.contract import Event, IllegalAction, Viewer
from app.games.tracker import rules

SEED = "ab" * 32
SPEC = REGISTRY["tracker"]


def table(players: int = 3, counters: str = "Health, each, 0, 20, 20\nDoom, shared, 0, 20, 0\nGold, shared, , , 0",
          dice: str = "d6, 2d6, d20, d{0,5,5,10,10,15}") -> dict:
    """A tracker's opening state, set up through the same form fields a host fills in."""
    options, seats = SPEC.configure({"players": str(players), "counters": counters, "dice": dice}, from_form=True)
    profile = {key: entry.value for key, entry in SPEC.profile.items()}
    return rules.new_state([number for number in range(1, len(seats) + 1)], options, profile)


def act(state: dict, seat: int | None, rng=None, **action) -> tuple[dict, list[Event]]:
    return rules.apply(state, {**action, "seat": seat}, rng or TableDice(SEED, 0, "someone"))


def value(state: dict, key: str, whose: int | None = None) -> int:
    counter = next(counter for counter in state["counters"] if counter["key"] == key)
    return counter["values"]["shared" if whose is None else str(whose)]


def refused(state: dict, seat: int | None, message: str, **action) -> None:
    """The action is refused with `message`, and the state it was given is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, **action)
    assert message in str(caught.value)
    assert state == before


# ---- setup ----------------------------------------------------------------------------------------------------------

def test_what_does_a_new_tracker_table_hold():
    state = table()
    assert state["round"] == 1 and state["seats"] == [1, 2, 3] and state["last_roll"] is None
    assert state["tray"] == ["d6", "2d6", "d20", "d{0,5,5,10,10,15}"]
    health, doom, gold = state["counters"]
    assert health == {"key": "health", "name": "Health", "scope": "each", "min": 0, "max": 20,
                      "values": {"1": 20, "2": 20, "3": 20}}
    assert doom == {"key": "doom", "name": "Doom", "scope": "shared", "min": 0, "max": 20, "values": {"shared": 0}}
    assert (gold["min"], gold["max"], gold["values"]) == (None, None, {"shared": 0})
    assert json.loads(json.dumps(state)) == state


def test_does_a_form_and_json_give_the_same_table():
    by_json, _ = SPEC.configure({"players": 3, "dice": ["d6", "2D6", "d20", "d{0,5,5,10,10,15}"], "counters": [
        {"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 20},
        {"name": "Doom", "scope": "shared", "min": 0, "max": 20},
        {"name": "Gold", "scope": "shared", "min": None, "max": None}]})
    assert rules.new_state([1, 2, 3], by_json, {}) == table()
    text = SPEC.option("counters").as_text(by_json["counters"])
    assert text == "Health, each, 0, 20, 20\nDoom, shared, 0, 20, 0\nGold, shared, , , 0"
    assert SPEC.option("counters").parse(text, from_form=True) == by_json["counters"]
    assert SPEC.option("dice").parse(SPEC.option("dice").as_text(by_json["dice"]), from_form=True) == by_json["dice"]


def test_what_does_a_host_get_without_choosing_anything():
    options, seats = SPEC.configure({})
    assert [seat.name for seat in seats] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert [seat.colour for seat in seats] == ["red", "blue", "yellow", "green"]
    assert [counter["name"] for counter in options["counters"]] == ["Health", "Doom"]
    assert options["dice"] == ["d6", "2d6", "d20"]
    assert SPEC.configure({})[0]["counters"] is not options["counters"]  # tables never share a default list


@pytest.mark.parametrize("counters,message", [
    ("Health, each, 0, 20, 20\nDoom, shared, 0, 20, 25", "Line 2: the start value 25 is above the maximum 20."),
    ("Health, each, 5, 20, 1", "Line 1: the start value 1 is below the minimum 5."),
    ("Health, each, 20, 0", "Line 1: the minimum 20 is above the maximum 0."),
    ("Health, both", "Line 1: say 'each' (one per player) or 'shared' (one for the table) after Health, not 'both'."),
    ("Health", "not nothing"),
    ("\n\nHealth, each\nhealth, shared", "Line 4: there is already a counter called Health"),
    ("<b>Health</b>, each", "can't contain"),
    ("Health {x}, each", "can't contain"),
    ("Hea\x07lth, each", "a counter's name can't contain '[control character U+0007]'."),
    ("A very long counter name indeed, each", "at most 24 characters"),
    (", each", "give the counter a name"),
    ("Health, each, zero", "the minimum must be a whole number or left blank, not 'zero'"),
    ("Health, each, 0, 20, 20, 5", "at most 5 parts"),
    ("Health, each, 0, 2000000000", "the maximum must be from"),
    ("", "list at least one counter"),
    ("\n".join(f"Counter {number}, shared" for number in range(13)), "list 1 to 12 counters, not 13"),
])
def test_which_counter_lines_are_refused_and_how(counters, message):
    with pytest.raises(OptionError) as caught:
        SPEC.configure({"counters": counters}, from_form=True)
    assert message in str(caught.value)


@pytest.mark.parametrize("counters,message", [
    ([{"name": "Health", "scope": "each", "min": 0, "max": 20, "start": 25}], "Counter 1: the start value 25 is above"),
    ([{"name": "Health", "scope": "each", "colour": "red"}], "Counter 1: 'colour' isn't part of a counter"),
    ([{"name": "Health", "scope": "each", "max": "20"}], "the maximum must be a whole number or null"),
    ([{"name": "Health", "scope": "each", "max": True}], "the maximum must be a whole number or null"),
    (["Health, each"], "Counter 1 must be an object"),
    ("", "list at least one counter"),
    (None, "must be a list of counters"),
])
def test_which_json_counters_are_refused_and_how(counters, message):
    with pytest.raises(OptionError) as caught:
        SPEC.configure({"counters": counters})
    assert message in str(caught.value)


@pytest.mark.parametrize("dice,message", [
    ("2d, d6", "Dice tray: '2d' is not dice notation."),
    ("d6, D6", "Dice tray: d6 is listed twice."),
    ("d4, d6, d8, d10, d12, d20, d100, 2d6, 3d6", "list 1 to 8 dice, not 9"),
    ("", "list 1 to 8 dice, not 0"),
    (["d6", 6], "Dice must be written as text"),
])
def test_which_dice_trays_are_refused_and_how(dice, message):
    with pytest.raises(OptionError) as caught:
        SPEC.configure({"dice": dice}, from_form=isinstance(dice, str))
    assert message in str(caught.value)


def test_are_players_one_to_eight():
    assert len(SPEC.configure({"players": "8"}, from_form=True)[1]) == 8
    assert len(SPEC.configure({"players": 1})[1]) == 1
    with pytest.raises(OptionError, match="Players must be from 1 to 8, not 9"):
        SPEC.configure({"players": 9})


def test_do_counter_keys_stay_unique_whatever_the_names():
    taken: set[str] = set()
    keys = []
    for name in ["Round score", "Round-score!", "Vie épée", "健康", "健康2"]:
        keys.append(rules.counter_key(name, taken))
        taken.add(keys[-1])
    assert keys == ["round-score", "round-score-2", "vie-epee", "counter", "2"]


# ---- counters -------------------------------------------------------------------------------------------------------

def test_does_a_player_change_their_own_counter_and_the_log_say_so():
    state, events = act(table(), 2, type="adjust", counter="health", by=-3)
    assert value(state, "health", 2) == 17 and value(state, "health", 1) == 20
    assert [event.text for event in events] == ["Health 20 \u2192 17 (\u22123)"]
    state, events = act(state, 2, type="adjust", counter="doom", by=1)
    assert value(state, "doom") == 1 and events[0].text == "Doom 0 \u2192 1 (+1)"


def test_can_a_player_change_only_their_own_per_seat_counter():
    refused(table(), 1, "You can change only your own Health; Player 3's is theirs to change.",
            type="adjust", counter="health", by=-1, whose=3)
    state, _ = act(table(), 1, type="adjust", counter="health", by=-1, whose=1)
    assert value(state, "health", 1) == 19


def test_must_the_host_name_whose_counter_to_change():
    refused(table(), None, "Say whose Health to change", type="adjust", counter="health", by=-1)
    state, events = act(table(), None, type="adjust", counter="health", by=-3, whose=3)
    assert value(state, "health", 3) == 17 and events[0].text == "Player 3's Health 20 \u2192 17 (\u22123)"
    state, events = act(state, None, type="adjust", counter="doom", by=4)
    assert events[0].text == "Doom 0 \u2192 4 (+4)"


def test_does_a_counter_stay_within_its_minimum_and_maximum():
    state, _ = act(table(), 2, type="set", counter="health", value=2)
    refused(state, 2, "Health can't go below 0; it is 2 now.", type="adjust", counter="health", by=-3)
    refused(state, None, "Player 2's Health can't go above 20; it is 2 now.", type="adjust", counter="health",
            by=19, whose=2)
    refused(state, 2, "Health can't go below 0; it is 2 now.", type="set", counter="health", value=-1)
    state, _ = act(state, 2, type="adjust", counter="health", by=-2)
    assert value(state, "health", 2) == 0


def test_does_an_unbounded_counter_still_stop_somewhere():
    state, _ = act(table(), 1, type="set", counter="gold", value=-5)
    assert value(state, "gold") == -5
    state, _ = act(state, 1, type="set", counter="gold", value=10**9)
    refused(state, 1, "Gold can't go above 1,000,000,000", type="adjust", counter="gold", by=1)


def test_does_setting_a_counter_say_what_it_was():
    state, events = act(table(), None, type="set", counter="health", value=12, whose=1)
    assert value(state, "health", 1) == 12 and events[0].text == "set Player 1's Health to 12 (was 20)"
    refused(state, 1, "Health is already 12.", type="set", counter="health", value=12)


@pytest.mark.parametrize("action,message", [
    ({"type": "adjust", "counter": "health", "by": "3"}, "Change Health by a whole number"),
    ({"type": "adjust", "counter": "health", "by": True}, "Change Health by a whole number"),
    ({"type": "adjust", "counter": "health", "by": -1.0}, "Change Health by a whole number"),
    ({"type": "adjust", "counter": "health", "by": None}, "Change Health by a whole number"),
    ({"type": "adjust", "counter": "health", "by": 0}, "Changing Health by 0 changes nothing."),
    ({"type": "adjust", "counter": "gold", "by": 10**6 + 1}, "Change Gold by at most 1,000,000 at a time."),
    ({"type": "set", "counter": "health", "value": "12"}, "Set Health to a whole number."),
    ({"type": "set", "counter": "health", "value": False}, "Set Health to a whole number."),
    ({"type": "adjust", "counter": "mana", "by": 1}, "There is no counter 'mana' at this table; the counters are"),
    ({"type": "adjust", "counter": ["health"], "by": 1}, "There is no counter"),
    ({"type": "adjust", "counter": "\u200b", "by": 1}, "There is no counter '[invisible character U+200B]' at this"),
    ({"type": "adjust", "counter": "health", "by": 1, "whose": 9}, "There is no Player 9 at this table."),
    ({"type": "adjust", "counter": "health", "by": 1, "whose": "2"}, "Say whose Health by seat number"),
    ({"type": "adjust", "counter": "health", "by": 1, "whose": True}, "Say whose Health by seat number"),
    ({"type": "adjust", "counter": "doom", "by": 1, "whose": 2}, "Doom is shared by the whole table"),
    ({"type": "adjust", "counter": "health"}, "Say how much to change the counter by."),
    ({"type": "adjust", "by": 1}, "Say which counter to change."),
    ({"type": "set", "counter": "health"}, "Say what number to set the counter to."),
    ({"type": "adjust", "counter": "doom", "by": 1, "amount": 2}, "Changing a counter doesn't take 'amount'."),
    ({"type": "next-round", "round": 5}, "Starting the next round doesn't take 'round'."),
    ({"type": "heal", "counter": "health"}, "'heal' isn't something you can do at this table"),
    ({"type": 5}, "An action needs a type"),
])
def test_are_bad_actions_refused_without_changing_anything(action, message):
    state, _ = act(table(), None, type="set", counter="health", value=10, whose=2)
    refused(state, 2, message, **action)


@pytest.mark.parametrize("seat", [9, 0, "1", True, 1.0])
def test_is_an_acting_seat_that_isnt_at_the_table_refused(seat):
    refused(table(), seat, "There is no seat", type="next-round")


def test_is_an_action_without_a_seat_refused():
    with pytest.raises(IllegalAction, match="who is acting"):
        rules.apply(table(), {"type": "next-round"}, TableDice(SEED, 0, "x"))
    with pytest.raises(IllegalAction, match="needs a type"):
        rules.apply(table(), ["next-round"], TableDice(SEED, 0, "x"))


def test_does_apply_leave_its_input_untouched():
    state = table()
    before = copy.deepcopy(state)
    action = {"type": "adjust", "counter": "health", "by": -5, "seat": 1}
    after, _ = rules.apply(state, action, TableDice(SEED, 0, "x"))
    assert state == before and action == {"type": "adjust", "counter": "health", "by": -5, "seat": 1}
    after["counters"][0]["values"]["2"] = 1
    assert state == before  # no shared inner lists either


# ---- rounds ---------------------------------------------------------------------------------------------------------

def test_may_anyone_start_the_next_round():
    state, events = act(table(), 3, type="next-round")
    assert state["round"] == 2 and events[0].text == "Round 2 begins."
    state, events = act(state, None, type="next-round")
    assert state["round"] == 3 and events[0].text == "Round 3 begins."


# ---- dice -----------------------------------------------------------------------------------------------------------

def test_is_a_roll_reproducible_from_the_seed_and_logged():
    rng = TableDice(SEED, 12, "Anna (Player 2)")
    state, events = act(table(), 2, rng, type="roll", dice="2d6+1", why="initiative")
    expected = roll_with(SEED, 12, parse("2d6+1"))
    assert rng.counter == 13 and len(rng.records) == 1
    assert rng.records[0]["n"] == 12 and rng.records[0]["why"] == "initiative" and rng.records[0]["source"] == "app"
    assert rng.records[0]["values"] == [list(expected.values[0])] and rng.records[0]["total"] == expected.total
    assert state["last_roll"] == {"dice": "2d6+1", "values": [list(expected.values[0])], "total": expected.total,
                                  "text": expected.describe(), "why": "initiative", "seat": 2, "source": "app"}
    assert events[0].text == f"rolled 2d6+1 for initiative: {expected.describe()}"
    again, _ = act(table(), 2, TableDice(SEED, 12, "Anna (Player 2)"), type="roll", dice="2d6+1", why="initiative")
    assert again == state


def test_can_anyone_roll_dice_that_are_not_in_the_tray():
    rng = TableDice(SEED, 0, "Host")
    state, events = act(table(), None, rng, type="roll", dice="4d6kh3")
    assert state["last_roll"]["dice"] == "4d6kh3" and state["last_roll"]["seat"] is None
    assert events[0].text.startswith("rolled 4d6kh3: 4d6kh3: ")


def test_is_a_real_roll_checked_and_logged_without_using_the_counter():
    rng = TableDice(SEED, 5, "Ben (Player 1)")
    state, events = act(table(), 1, rng, type="roll", dice="2d6", values=[3, 5])
    assert events[0].text == "entered a real 2d6: 3 + 5 = 8"
    assert state["last_roll"]["source"] == "physical" and state["last_roll"]["total"] == 8
    assert rng.counter == 5 and rng.records[0]["source"] == "physical" and "n" not in rng.records[0]


@pytest.mark.parametrize("action,message", [
    ({"dice": "d6", "values": [7]}, "A d6 can't show 7: its faces are 1 to 6."),
    ({"dice": "d{0,5,5,10,10,15}", "values": [3]}, "That die's faces are 0, 5, 10, 15; it can't show 3."),
    ({"dice": "2d6", "values": [3, 5, 1]}, "2d6 is 2 dice; you entered 3 values."),
    ({"dice": "2d6", "values": [3, "5"]}, "whole number"),
    ({"dice": "2d6", "values": "35"}, "as whole numbers"),
    ({"dice": "2d"}, "'2d' is not dice notation."),
    ({"dice": "d1"}, "A die needs at least 2 sides; 'd1' has 1."),
    ({"dice": 20}, "Dice must be written as text"),
    ({"dice": "d20", "why": "x" * 41}, "Keep the reason for a roll to 40 characters; that one has 41."),
    ({"dice": "d20", "why": "a\nb"}, "one line of text"),
    ({"dice": "d20", "why": 3}, "must be text"),
    ({}, "Say which dice to roll"),
])
def test_are_bad_rolls_refused_without_using_a_counter(action, message):
    rng = TableDice(SEED, 4, "x")
    state = table()
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        rules.apply(state, {"type": "roll", "seat": 1, **action}, rng)
    assert message in str(caught.value)
    assert state == before and rng.counter == 4 and rng.records == []


# ---- what each seat sees and is offered -----------------------------------------------------------------------------

def test_what_does_the_ui_offer_a_player_and_the_host():
    state = table(players=2, counters="Health, each, 0, 20, 20\nDoom, shared, 0, 20, 0", dice="d6, 2d6")
    assert rules.legal_actions(state, 2) == [
        {"type": "adjust", "counter": "health", "whose": 2, "by": -1},
        {"type": "set", "counter": "health", "whose": 2, "value": 19},
        {"type": "adjust", "counter": "doom", "by": 1}, {"type": "set", "counter": "doom", "value": 1},
        {"type": "next-round"}, {"type": "roll", "dice": "d6"}, {"type": "roll", "dice": "2d6"}]
    host = rules.legal_actions(state, None)
    assert {"type": "adjust", "counter": "health", "whose": 1, "by": -1} in host
    assert {"type": "set", "counter": "health", "whose": 2, "value": 19} in host
    assert rules.legal_actions(state, 7) == []


def test_does_a_counter_fixed_at_one_value_offer_no_change():
    state = table(players=1, counters="Lantern, shared, 1, 1, 1", dice="d6")
    assert [move["type"] for move in rules.legal_actions(state, 1)] == ["next-round", "roll"]


def test_do_the_declared_limits_of_a_step_follow_the_counter():
    state, _ = act(table(), 2, type="set", counter="health", value=3)
    move = {"type": "adjust", "counter": "health", "by": -1, "seat": 2}
    fields = {field["name"]: field for field in rules.MOVES.form(state, move)}
    assert (fields["by"]["min"], fields["by"]["max"], fields["by"]["picked"]) == (-3, 17, True)
    assert fields["counter"]["picked"] is False and fields["counter"]["value"] == "health"


def test_does_a_tracker_never_end_by_itself_and_hide_nothing():
    state, _ = act(table(), 2, type="adjust", counter="health", by=-4)
    assert rules.outcome(state) is None
    seen = rules.view(state, Viewer.of_seat(2))
    assert seen["me"] == {"counters": [{"key": "health", "name": "Health", "value": 16, "min": 0, "max": 20}]}
    assert {key: seen[key] for key in state} == state
    assert seen["turn"] == {"seats": [], "text": "Round 1"} and seen["viewer"] == {"role": "seat", "seat": 2}
    assert rules.view(state, Viewer.host())["me"] is None
    assert rules.view(state, Viewer.spectator())["moves"] == [] and rules.view(state, Viewer.host())["moves"]
    assert rules.view(state, Viewer.of_seat(1))["counters"] == state["counters"]


# ---- a long random evening ------------------------------------------------------------------------------------------

def random_action(chance: random.Random, state: dict) -> dict:
    """A mix of sensible and nonsensical actions, the way 2,000 taps and scripts might send them."""
    seats = state["seats"]
    keys = [counter["key"] for counter in state["counters"]]
    actor = chance.choice([*seats, None, None, 9])
    kind = chance.choice(["adjust", "adjust", "adjust", "set", "set", "next-round", "roll", "roll", "dance"])
    action: dict = {"type": kind, "seat": actor}
    if kind in ("adjust", "set"):
        action["counter"] = chance.choice([*keys, "nope"])
        amount = chance.choice([chance.randint(-8, 8), chance.randint(-30, 30), "2", True, 2.5, None, 10**7])
        action["by" if kind == "adjust" else "value"] = amount
        if chance.random() < 0.6:
            action["whose"] = chance.choice([*seats, None, 0, "1"])
    elif kind == "roll":
        action["dice"] = chance.choice([*state["tray"], "3d6+2", "4d6kh3", "2d", "d1", "d{1,3}", 7])
        if chance.random() < 0.3:
            action["values"] = [chance.randint(0, 7) for _ in range(chance.randint(0, 3))]
        if chance.random() < 0.3:
            action["why"] = chance.choice(["attack", "x" * 41, "", None, 5])
    if chance.random() < 0.05:
        action["extra"] = 1
    if chance.random() < 0.03:
        del action["seat"]
    return action


def test_do_2000_random_actions_keep_every_counter_in_range():
    chance = random.Random(20240607)
    state = table(players=4)
    counter = 0
    accepted = refusals = 0
    for _ in range(2_000):
        action = random_action(chance, state)
        before = copy.deepcopy(state)
        rng = TableDice(SEED, counter, "someone")
        try:
            after, events = rules.apply(state, copy.deepcopy(action), rng)
        except IllegalAction as error:
            assert str(error) and state == before and rng.counter == counter and rng.records == []
            refusals += 1
            continue
        assert state == before, action  # the input is never changed
        assert events and all(isinstance(event, Event) and event.text for event in events)
        assert json.loads(json.dumps(after)) == after
        for item in after["counters"]:
            values = list(item["values"].values())
            assert list(item["values"]) == (["shared"] if item["scope"] == "shared" else ["1", "2", "3", "4"])
            low = item["min"] if item["min"] is not None else -10**9
            high = item["max"] if item["max"] is not None else 10**9
            assert all(isinstance(number, int) and low <= number <= high for number in values), (action, item)
        if action["type"] == "roll":
            assert rng.records and after["last_roll"]["total"] == rng.records[0]["total"]
        counter = rng.counter
        state = after
        accepted += 1
    assert accepted > 400 and refusals > 400  # both kinds were really exercised
    assert state["round"] > 1 and counter > 50
