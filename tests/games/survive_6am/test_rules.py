"""Survive 'Til 6AM's rules without Flask: the clock deck, the Power Dials, the reaction order, the cost of a reaction,
who wins, and the odds the phones show before a roll."""

import copy
import itertools
import json
import random
from fractions import Fraction

import pytest

from app.dice import TableDice, parse
from app.games import REGISTRY, OptionError
from app.games.contract import IllegalAction, Viewer
from app.games.survive_6am import power, rules

SEED = "ab" * 32
SPEC = REGISTRY["survive-6am"]
TIMES = ["12:00 AM", "12:30 AM", "1:00 AM", "1:30 AM", "2:00 AM", "2:30 AM", "3:00 AM", "3:30 AM", "4:00 AM",
         "4:30 AM", "5:00 AM", "5:30 AM"]
ORANGE, PURPLE = 1, 2


class FixedDice:
    """An rng whose Power dice show what the test says, in order."""

    def __init__(self, *values):
        self.values = list(values)
        self.rolled = []

    def roll(self, dice, why=""):
        dice = parse(dice)
        shown = [self.values.pop(0) for _ in range(dice.dice_count)]
        self.rolled.append((dice.text, why, shown))
        return dice.with_values([shown])


def table(**options) -> dict:
    """An opening state, set up through the same options a host picks."""
    chosen, seats = SPEC.configure(options)
    profile = {key: entry.value for key, entry in SPEC.profile.items()}
    return rules.new_state(list(range(1, len(seats) + 1)), chosen, profile)


def act(state: dict, seat: int | None, rng=None, **action) -> tuple[dict, list]:
    return rules.apply(state, {**action, "seat": seat}, rng or TableDice(SEED, 0, "someone"))


def run(state: dict, *moves) -> dict:
    """Apply (seat, action) moves in turn; each must be legal."""
    for seat, action in moves:
        state, _ = act(state, seat, **action)
    return state


def to_phase_two(state: dict) -> dict:
    """Advance time and finish flipping the cameras: the guards may react."""
    return run(state, (None, {"type": "advance-time"}), (None, {"type": "cameras-flipped"}))


def refused(state: dict, seat: int | None, message: str, rng=None, **action) -> None:
    """The action is refused with `message`, and the state it was given is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, rng, **action)
    assert message in str(caught.value)
    assert str(caught.value).endswith((".", "!", ")"))
    assert state == before


def with_power(state: dict, **powers) -> dict:
    """The same state with the dials turned (orange=..., purple=...), for boundary cases."""
    state = copy.deepcopy(state)
    for colour, value in powers.items():
        seat = ORANGE if colour == "orange" else PURPLE
        state["guards"][str(seat)]["power"] = value
    return state


def look(state: dict, seat: int | None) -> dict:
    """What the host screen (seat None) or a guard's phone sees."""
    return rules.view(state, Viewer.host() if seat is None else Viewer.of_seat(seat))


def dial(state: dict, seat: int) -> int:
    return state["guards"][str(seat)]["power"]


# ---- setup ----------------------------------------------------------------------------------------------------------

def test_two_guards_start_at_100_with_start_on_top_of_the_clock_pile():
    """'Set your Power Dial to 100%' and 'Place the START card on top of the pile.'"""
    state = table()
    assert state["seats"] == [ORANGE, PURPLE]
    assert [state["guards"][seat]["name"] for seat in ("1", "2")] == ["Orange", "Purple"]
    assert dial(state, ORANGE) == dial(state, PURPLE) == 100
    assert state["clock_pile"] == ["START", *TIMES]
    assert state["phase"] == "setup" and state["round"] == 0 and rules.outcome(state) is None
    assert state["star"] == ORANGE and state["power_dice"] == "physical"
    assert json.loads(json.dumps(state)) == state


def test_solo_is_one_orange_guard_and_the_star_can_sit_on_purples_dial():
    solo = table(players=1)
    assert solo["seats"] == [ORANGE] and solo["guards"]["1"]["colour"] == "orange" and solo["star"] == ORANGE
    assert table(star="purple")["star"] == PURPLE
    assert table(players=1, star="purple")["star"] == ORANGE  # nobody to tie with


def test_the_setup_checklist_lists_the_piles_and_animatronics():
    """12 Hallway; 11 Pirate Cove + 1 Animatronic; 11 Dining Area + 1; 10 Show Stage + 2."""
    lines = look(table(), None)["setup_checklist"]
    text = "\n".join(lines)
    assert "Hallway: 12 cards face down." in lines
    assert "Pirate Cove: 11 cards face down, then shuffle in 1 Animatronic." in lines
    assert "Dining Area: 11 cards face down, then shuffle in 1 Animatronic." in lines
    assert "Show Stage: 10 cards face down, then shuffle in 2 Animatronics." in lines
    assert "2-player side" in text and "Power Dials at 100" in text and "START on top" in text
    assert "1-player side" in "\n".join(look(table(players=1), None)["setup_checklist"])


def test_power_die_faces_must_still_roll_the_rulebooks_5_and_10():
    """'He rolls a 5 and a 10': faces without a 5 or a 10 can't be the real dice."""
    with pytest.raises(OptionError, match="must include a 5"):
        SPEC.configure({"power_die_faces": [10, 10, 15, 15, 20, 20]})
    with pytest.raises(OptionError, match="must include a 5 and a 10"):
        SPEC.configure({"power_die_faces": [1, 2, 3, 4, 6, 8]})
    assert SPEC.configure({"power_die_faces": "0, 5, 5, 10, 10, 15"}, from_form=True)[0]["power_die_faces"][0] == 0


# ---- the clock ------------------------------------------------------------------------------------------------------

def play_round(state: dict, rng=None) -> dict:
    """One quiet round: advance, flip, every guard reacts to nothing."""
    state = to_phase_two(state)
    for seat in list(state["order"]):
        state, _ = act(state, seat, rng, type="react", cards=0)
    return state


def test_the_clock_gives_twelve_rounds_from_12_00_to_5_30_then_6_00_am():
    """'Discard the top card... The first round will be at 12:00 AM'; surviving the 5:30 AM round reaches 6:00 AM."""
    state = table()
    seen = []
    for number in range(1, 13):
        state, events = act(state, None, type="advance-time")
        seen.append(rules.current_time(state))
        assert state["round"] == number and state["phase"] == "cameras"
        assert look(state, None)["rounds_after"] == 12 - number
        state = run(state, (None, {"type": "cameras-flipped"}), (ORANGE, {"type": "react", "cards": 0}),
                    (PURPLE, {"type": "react", "cards": 0}))
        assert rules.outcome(state) is None
    assert seen == TIMES
    state, events = act(state, None, type="advance-time")
    assert events[0].text == ("advanced time: 5:30 AM discarded, the board's 6:00 AM space shows and the night shift "
                              "is over.")
    assert rules.current_time(state) == "6:00 AM" and state["clock_pile"] == []
    assert rules.outcome(state) is not None and rules.legal_actions(state, None) == []


def test_the_first_advance_discards_start_and_says_round_1_of_12():
    state, events = act(table(), ORANGE, type="advance-time")
    assert events[0].text == ("advanced time: START discarded, it is 12:00 AM, round 1 of 12 (11 more rounds after "
                              "this). Phase One: flip the cameras.")
    assert look(state, ORANGE)["phase_title"] == "Phase One: Monitor Cameras"


def test_time_cannot_advance_past_6_00_am_or_in_the_middle_of_a_round():
    state = act(table(), None, type="advance-time")[0]
    refused(state, None, "Finish this round first", type="advance-time")
    state = act(state, None, type="cameras-flipped")[0]
    refused(state, None, "Orange and Purple still have to react", type="advance-time")
    state = act(state, ORANGE, type="react", cards=0)[0]
    refused(state, None, "Purple still has to react", type="advance-time")
    dawn = table(players=1)
    for _ in range(12):
        dawn = play_round(dawn)
    dawn = act(dawn, None, type="advance-time")[0]
    refused(dawn, None, "It is already 6:00 AM", type="advance-time")
    refused(dawn, ORANGE, "It is already 6:00 AM", type="react", cards=0)


# ---- reactions: the cost ------------------------------------------------------------------------------------------

def test_the_rulebooks_example_turn_costs_20():
    """'He rolls a 5 and a 10. Chris subtracts 20 power in total ... because of the Power Depletion card.'"""
    state = table(players=1)
    for _ in range(2):
        state = play_round(state)
    state = to_phase_two(state)
    assert rules.current_time(state) == "1:00 AM"
    after, events = act(state, ORANGE, type="react", cards=2, depletion=1, values=[5, 10])
    assert dial(after, ORANGE) == 80
    assert events[0].text == ("reacted to 2 cards: the real Power dice showed 5 + 10, + 5 for 1 Power Depletion "
                              "card = 20 power; Power Dial 100 \u2192 80.")
    assert after["last_reactions"]["1"] == {
        "round": 3, "time": "1:00 AM", "cards": 2, "dice": [5, 10], "dice_total": 15, "depletion": 1,
        "depletion_total": 5, "cost": 20, "paid": True, "before": 100, "after": 80, "source": "physical"}
    assert after["phase"] == "resolve"


def test_a_cost_equal_to_the_power_left_is_paid():
    """'If you ever have to subtract MORE power ... than you have': exactly all of it is still paid."""
    state = with_power(to_phase_two(table()), orange=20, purple=10)
    after, events = act(state, ORANGE, type="react", cards=2, depletion=1, values=[5, 10])
    assert dial(after, ORANGE) == 0 and after["last_reactions"]["1"]["paid"] is True
    assert "Power Dial 20 \u2192 0" in events[0].text


def test_a_cost_one_more_than_the_power_left_reacts_to_nothing():
    """'...you don't subtract power this turn and react to NOTHING. Yikes!'"""
    state = with_power(to_phase_two(table()), orange=19, purple=10)
    after, events = act(state, ORANGE, type="react", cards=2, depletion=1, values=[5, 10])
    assert dial(after, ORANGE) == 19
    last = after["last_reactions"]["1"]
    assert last["paid"] is False and last["cost"] == 20 and last["after"] == 19
    assert "REACTS TO NOTHING! Yikes!" in events[0].text and "stays at 19" in events[0].text
    assert ORANGE in after["reacted"]  # the reaction is used up: the cards go unanswered


def test_power_depletion_only_costs_when_dice_are_rolled():
    """'If you didn't react to any cards during this phase, ignore this effect.'"""
    state = to_phase_two(table())
    after, events = act(state, ORANGE, type="react", cards=0, depletion=3)
    assert dial(after, ORANGE) == 100 and after["last_reactions"]["1"]["cost"] == 0
    assert events[0].text == "reacted to no cards and kept 100 power (3 face-up Power Depletion cards ignored: no " \
                             "dice rolled)."
    after, _ = act(after, PURPLE, type="react", cards=1, depletion=3, values=[5])
    assert dial(after, PURPLE) == 80  # 5 + 3 x 5


def test_one_power_die_per_card():
    """'Roll Power dice equal to the number of cards you are reacting to (1 card = 1 die, 2 cards = 2 dice).'"""
    state = table(power_dice="virtual")
    state = to_phase_two(state)
    rng = FixedDice(10, 15, 20)
    state, _ = act(state, ORANGE, rng, type="react", cards=1, depletion=0)
    state, events = act(state, PURPLE, rng, type="react", cards=2, depletion=2)
    assert [(text, shown) for text, _, shown in rng.rolled] == [("d{5,5,10,10,15,20}", [10]),
                                                               ("2d{5,5,10,10,15,20}", [15, 20])]
    assert dial(state, ORANGE) == 90 and dial(state, PURPLE) == 55
    assert events[0].text.startswith("reacted to 2 cards: the app rolled the Power dice 15 + 20, + 10 for 2")
    assert state["last_reactions"]["2"]["source"] == "app"


def test_virtual_rolls_come_from_the_table_seed_and_show_only_listed_faces():
    faces = [5, 5, 10, 10, 15, 20]
    for counter in range(30):
        state = to_phase_two(table(power_dice="virtual"))
        rng = TableDice(SEED, counter, "Ann")
        after, _ = act(state, ORANGE, rng, type="react", cards=2, depletion=0)
        shown = after["last_reactions"]["1"]["dice"]
        assert len(shown) == 2 and set(shown) <= set(faces)
        assert rng.records[0]["why"] == "Power dice for Orange" and rng.counter == counter + 1
        assert dial(after, ORANGE) == 100 - sum(shown)


# ---- reactions: the order -----------------------------------------------------------------------------------------

def test_more_power_reacts_first_whatever_the_star():
    state = with_power(table(star="orange"), orange=60, purple=75)
    state = to_phase_two(state)
    assert state["order"] == [PURPLE, ORANGE]
    refused(state, ORANGE, "Wait: it's Purple's turn to react. Purple reacts first (more power, 75 to 60), then "
            "Orange.", type="react", cards=0)


def test_a_tie_goes_to_the_guard_whose_dial_shows_the_star():
    """'If there is a tie, the player who has a star icon showing on their dial reacts first.'"""
    assert to_phase_two(table(star="orange"))["order"] == [ORANGE, PURPLE]
    purple_star = to_phase_two(with_power(table(star="purple"), orange=40, purple=40))
    assert purple_star["order"] == [PURPLE, ORANGE]
    assert "tied at 40, the star is on Purple's dial" in look(purple_star, None)["order_text"]


def test_the_order_is_fixed_for_the_whole_phase_even_after_the_first_dial_drops():
    state = to_phase_two(table())
    state, _ = act(state, ORANGE, type="react", cards=2, depletion=4, values=[20, 20])
    assert dial(state, ORANGE) == 40 and rules.reactor(state) == PURPLE
    refused(state, ORANGE, "Orange has already reacted this round", type="react", cards=0)
    state, events = act(state, PURPLE, type="react", cards=0)
    assert events[-1].text == ("Phase Three: resolve guard by guard, each from the Hallway to the Show Stage (Orange, "
                               "then Purple).")
    state = to_phase_two(state)
    assert state["order"] == [PURPLE, ORANGE]  # next round, more power first again


def test_reacting_outside_phase_two_or_for_nobody_is_refused():
    state = table()
    refused(state, ORANGE, "the night hasn't started", type="react", cards=0)
    state = act(state, None, type="advance-time")[0]
    refused(state, ORANGE, "it is Phase One now", type="react", cards=0)
    refused(state, None, "Each guard reacts from their own seat", type="react", cards=0)
    state = play_round(table())
    refused(state, ORANGE, "it is Phase Three now", type="react", cards=0)


# ---- bad input ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("action,message", [
    ({"type": "react", "cards": 3, "depletion": 0, "values": [5, 5, 5]}, "React to 0, 1 or 2 cards, not 3"),
    ({"type": "react", "cards": -1}, "React to 0, 1 or 2 cards, not -1"),
    ({"type": "react", "cards": "2"}, "must be a whole number"),
    ({"type": "react", "cards": True}, "must be a whole number"),
    ({"type": "react", "cards": 1.0, "depletion": 0, "values": [5]}, "must be a whole number"),
    ({"type": "react", "cards": 1, "values": [5]}, "Say how many Power Depletion cards are face up"),
    ({"type": "react", "cards": 1, "depletion": 5, "values": [5]}, "At most 4 Power Depletion cards can be face up"),
    ({"type": "react", "cards": 1, "depletion": -1, "values": [5]}, "can't be negative"),
    ({"type": "react", "cards": 1, "depletion": False, "values": [5]}, "must be a whole number"),
    ({"type": "react", "cards": 2, "depletion": 0, "values": [5]}, "rolls 2 Power dice; you entered 1 value"),
    ({"type": "react", "cards": 1, "depletion": 0}, "rolls 1 Power die; you entered nothing"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [-5]}, "can't show a negative number like -5"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [0]}, "can't show 0"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [25]}, "can't show 25 at this table"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": ["5"]}, "Each Power die must be a whole number"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [True]}, "Each Power die must be a whole number"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": "5"}, "as a list of whole numbers"),
    ({"type": "react", "cards": 0, "values": [5]}, "Reacting to no cards rolls no dice"),
    ({"type": "react", "cards": 1, "depletion": 0, "die2": 5}, "Enter the first die before the second"),
    ({"type": "react", "cards": 1, "depletion": 0, "die1": "abc"}, "Each Power die must be a whole number"),
    ({"type": "react", "cards": 1, "depletion": 0, "die1": 5, "values": [5]}, "not both"),
    ({"type": "react", "cards": 1, "depletion": 0, "die1": 5, "die2": 5}, "you entered 2 values"),
    ({"type": "react", "cards": 1, "depletion": 0, "values": [5], "why": "x"}, "Reacting doesn't take 'why'"),
    ({"type": "react"}, "Say how many cards you react to: 0, 1 or 2."),
    ({"type": "advance-time", "by": 2}, "Advancing time doesn't take 'by'"),
    ({"type": "fly"}, "isn't a move in Survive 'Til 6AM"),
    ({"type": 7}, "An action needs a type"),
])
def test_bad_reactions_are_refused_with_a_sentence_and_change_nothing(action, message):
    state = to_phase_two(table())
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        rules.apply(state, {**action, "seat": ORANGE}, TableDice(SEED, 0, "x"))
    assert message in str(caught.value)
    assert state == before


def test_who_is_acting_must_be_a_guard_at_the_table():
    state = to_phase_two(table(players=1))
    refused(state, PURPLE, "There is no guard at seat 2", type="react", cards=0)
    refused(state, True, "There is no guard at seat", type="react", cards=0)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction, match="doesn't say who is acting"):
        rules.apply(state, {"type": "react", "cards": 0}, TableDice(SEED, 0, "x"))
    assert state == before


def test_a_virtual_table_refuses_typed_dice_and_a_physical_table_caps_them_at_the_largest_face():
    state = to_phase_two(table(power_dice="virtual"))
    refused(state, ORANGE, "the app rolls the Power dice", type="react", cards=1, depletion=0, values=[5])
    wide = to_phase_two(table(power_die_faces=[5, 10, 10, 20, 30, 40]))
    after, _ = act(wide, ORANGE, type="react", cards=1, depletion=0, values=[40])
    assert dial(after, ORANGE) == 60
    refused(wide, ORANGE, "its largest face is 40", type="react", cards=1, depletion=0, values=[41])


def test_form_fields_die1_and_die2_are_the_same_as_a_list():
    state = to_phase_two(table())
    by_list, _ = act(state, ORANGE, type="react", cards=2, depletion=1, values=[5, 10])
    by_fields, _ = act(state, ORANGE, type="react", cards=2, depletion=1, die1=5, die2=10)
    assert by_list == by_fields
    assert rules.MOVES.from_form({"type": "react", "cards": "2", "depletion": "1", "die1": "5", "die2": "10"}) == {
        "type": "react", "cards": 2, "depletion": 1, "die1": 5, "die2": 10}


# ---- the end ------------------------------------------------------------------------------------------------------

def test_an_animatronic_in_the_office_loses_at_once_and_the_other_guard_wins():
    """'If a single Animatronic moves into your Office, you immediately lose the game and the other player wins.'"""
    state = play_round(table())
    after, events = act(state, PURPLE, type="office")
    assert events[0].text == "an Animatronic reached Purple's Office!"
    result = rules.outcome(after)
    assert result.winners == (ORANGE,) and not result.shared
    assert result.text == "An Animatronic reached Purple's Office at 12:00 AM: Purple loses and Orange wins!"
    refused(after, None, "The night is over", type="advance-time")
    assert rules.legal_actions(after, ORANGE) == [] and rules.legal_actions(after, None) == []


def test_solo_loses_to_an_animatronic_and_wins_at_6_00_am():
    """Solo: 'you win if you survive until 6:00 AM without an Animatronic moving into your Office.'"""
    state = play_round(table(players=1))
    lost = act(state, ORANGE, type="office")[0]
    assert rules.outcome(lost).winners == () and "the night is lost" in rules.outcome(lost).text
    for _ in range(11):
        state = play_round(state)
    state = act(state, None, type="advance-time")[0]
    result = rules.outcome(state)
    assert result.winners == (ORANGE,)
    assert result.text == "6:00 AM! Orange survived the night with 100 power left and wins."


def dawn_with(orange: int, purple: int) -> dict:
    """A two-guard night brought to 6:00 AM with the dials at these values."""
    state = table()
    for _ in range(12):
        state = play_round(state)
    return act(with_power(state, orange=orange, purple=purple), None, type="advance-time")[0]


def test_at_6_00_am_the_most_power_left_wins():
    """'If both players survive until 6:00 AM ..., the player with the most power remaining wins!'"""
    result = rules.outcome(dawn_with(35, 50))
    assert result.winners == (PURPLE,) and not result.shared
    assert result.text == "6:00 AM! Both guards survived; Purple wins with 50 power left to Orange's 35."


def test_equal_power_at_6_00_am_is_a_shared_win_said_as_such():
    result = rules.outcome(dawn_with(40, 40))
    assert result.winners == (ORANGE, PURPLE) and result.shared
    assert result.text == "6:00 AM! Both guards survived with 40 power each: a shared win for Orange and Purple."


def test_the_office_is_reported_only_in_phase_three_and_only_for_yourself():
    state = to_phase_two(table())
    refused(state, ORANGE, "only in Phase Three", type="office")
    state = play_round(table())
    refused(state, ORANGE, "only report your own Office", type="office", whose=PURPLE)
    refused(state, None, "Say whose Office", type="office")
    refused(state, None, "There is no guard at seat 3", type="office", whose=3)
    refused(state, None, "must be a whole number", type="office", whose="Purple")
    after, _ = act(state, None, type="office", whose=ORANGE)
    assert rules.outcome(after).winners == (PURPLE,)


# ---- what the UI offers, the views ----------------------------------------------------------------------------------

def test_everything_the_ui_offers_is_accepted_exactly_as_offered():
    """Complete moves: every offer, dice values included, goes through `apply` untouched."""
    state = table()
    for _ in range(80):
        for seat in (None, ORANGE, PURPLE):
            for offer in rules.legal_actions(state, seat):
                rules.apply(state, {**offer, "seat": seat}, TableDice(SEED, 0, "x"))
        offered = rules.legal_actions(state, rules.reactor(state)) or rules.legal_actions(state, None)
        if not offered:
            break
        move = next((item for item in offered if item["type"] != "office"), offered[0])
        state, _ = act(state, rules.reactor(state), **move)
    assert rules.outcome(state) is not None


def test_a_reaction_is_offered_with_dice_the_table_can_show():
    """Physical dice: the offered reaction carries the lowest face per die; app dice: no values at all."""
    offers = [offer for offer in rules.legal_actions(to_phase_two(table()), ORANGE) if offer["type"] == "react"]
    assert offers == [{"type": "react", "cards": 0}, {"type": "react", "cards": 1, "depletion": 0, "values": [5]},
                      {"type": "react", "cards": 2, "depletion": 0, "values": [5, 5]}]
    assert all(offer["type"] != "react" for offer in rules.legal_actions(to_phase_two(table()), PURPLE))
    virtual = rules.legal_actions(to_phase_two(table(power_dice="virtual")), ORANGE)
    assert all("values" not in offer for offer in virtual)


def test_the_board_check_says_what_the_cardboard_shows():
    state = to_phase_two(table(star="purple"))
    state = act(state, PURPLE, type="react", cards=1, depletion=0, values=[10])[0]
    assert look(state, None)["board_check"] == [
        "Clock pile: 12:00 AM on top, 12 cards on the pile, 1 discarded.",
        "Orange's Power Dial: 100.", "Purple's Power Dial: 90.",
        "The star: on Purple's dial (reacts first on a tie; chosen at setup)."]


def test_the_view_marks_whose_reaction_it_is_and_draws_the_dials():
    state = to_phase_two(with_power(table(), orange=30, purple=100))
    seen = look(state, ORANGE)
    assert seen["reactor"] == PURPLE and seen["can_react"] is False
    assert [guard["reacting"] for guard in seen["guard_list"]] == [False, True]
    assert seen["guard_list"][0]["dial"] == {"share": 30, "rest": 70, "low": False}
    assert look(state, PURPLE)["can_react"] is True
    assert seen["time"] == "12:00 AM" and seen["phase_title"] == "Phase Two: React"
    assert json.loads(json.dumps(seen)) == seen


# ---- the forecast ---------------------------------------------------------------------------------------------------

FACES = (5, 5, 10, 10, 15, 20)


def brute_over(faces, cards, depletion, left):
    """Every way the dice can land, counted by hand."""
    outcomes = list(itertools.product(faces, repeat=cards))
    over = sum(1 for shown in outcomes if sum(shown) + 5 * depletion > left)
    return Fraction(over, len(outcomes))


def brute_lasts(faces, cards, depletion, left):
    """Expected reactions paid in a row, by enumerating every sequence of rolls (positive faces only)."""
    outcomes = list(itertools.product(faces, repeat=cards))
    total = Fraction(0)
    for shown in outcomes:
        cost = sum(shown) + 5 * depletion
        if cost <= left:
            total += 1 + brute_lasts(faces, cards, depletion, left - cost)
    return total / len(outcomes)


@pytest.mark.parametrize("cards,depletion,left", [(1, 0, 100), (1, 0, 7), (2, 1, 20), (2, 1, 19), (2, 0, 45),
                                                  (1, 4, 40), (2, 4, 30), (1, 2, 0)])
def test_the_chance_of_reacting_to_nothing_matches_counting_every_roll(cards, depletion, left):
    assert power.chance_over(FACES, cards, depletion, 5, left) == brute_over(FACES, cards, depletion, left)


@pytest.mark.parametrize("cards,depletion,left", [(1, 0, 30), (2, 1, 45), (1, 3, 40), (2, 0, 12), (1, 0, 4)])
def test_how_many_reactions_the_dial_affords_matches_enumerating_every_night(cards, depletion, left):
    assert power.expected_affordable(FACES, cards, depletion, 5, left) == brute_lasts(FACES, cards, depletion, left)


def test_a_zero_face_still_gives_a_finite_exact_expectation():
    """With a 0 face and no depletion a reaction can cost nothing; E[N] = sum over k of P(k reactions all fit)."""
    faces = (0, 5, 5, 10, 10, 15)
    exact = power.expected_affordable(faces, 1, 0, 5, 10)
    by_sums = Fraction(0)  # sum over k of P(S_k <= 10), accumulated until the tail is negligible
    distribution = {0: Fraction(1)}
    for _ in range(200):
        step = {}
        for total, chance in distribution.items():
            for face in faces:
                if total + face <= 10:
                    step[total + face] = step.get(total + face, Fraction(0)) + chance / 6
        distribution = step
        by_sums += sum(distribution.values())
    assert abs(float(exact) - float(by_sums)) < 1e-9


def test_the_forecast_on_the_phone_covers_every_depletion_count_for_one_and_two_dice():
    state = with_power(to_phase_two(table()), orange=20)
    rows = look(state, ORANGE)["forecast"]
    assert [row["depletion"] for row in rows] == [0, 1, 2, 3, 4]
    one_die, two_dice = rows[1]["cells"]
    assert one_die["over"] == "17%"  # a 20 + 5 > 20: 1 face in 6
    assert Fraction(two_dice["over_exact"]) == brute_over(FACES, 2, 1, 20)
    assert rows[0]["cells"][0]["over"] == "0%"
    assert look(state, None)["forecast"] == []


def test_percentages_never_round_a_possibility_away():
    assert [power.percent(Fraction(n, 1000)) for n in (0, 1, 4, 6, 500, 995, 999, 1000)] == [
        "0%", "<1%", "<1%", "1%", "50%", ">99%", ">99%", "100%"]


# ---- a whole night --------------------------------------------------------------------------------------------------

VARIANTS = [  # (players, power dice, star, die faces): every setup a host can pick, plus a 0 face and big faces
    (1, "physical", "orange", None), (1, "virtual", "purple", None), (2, "physical", "orange", None),
    (2, "physical", "purple", None), (2, "virtual", "orange", None), (2, "virtual", "purple", None),
    (2, "virtual", "orange", [0, 5, 5, 10, 10, 15]), (1, "physical", "orange", [0, 5, 10, 10, 20, 30]),
    (2, "physical", "purple", [5, 10, 25, 40, 60, 100]),
]


def random_move(state: dict, chooser: random.Random, office_chance: float) -> tuple[int | None, dict]:
    """A move a real table could make now, picked at random (a guard may be caught in Phase Three)."""
    phase = state["phase"]
    if phase == "resolve" and chooser.random() < office_chance:
        whose = chooser.choice(state["seats"])
        return chooser.choice([(None, {"type": "office", "whose": whose}), (whose, {"type": "office"})])
    if phase in ("setup", "resolve"):
        return chooser.choice([None, *state["seats"]]), {"type": "advance-time"}
    if phase == "cameras":
        return chooser.choice([None, *state["seats"]]), {"type": "cameras-flipped"}
    cards = chooser.choice([0, 1, 2])
    action = {"type": "react", "cards": cards, "depletion": chooser.randint(0, 4)}
    if state["power_dice"] == "physical" and cards:
        action["values"] = [chooser.choice(state["faces"]) for _ in range(cards)]
    return rules.reactor(state), action


def check_invariants(state: dict, before: dict) -> None:
    """What must hold after every move, whatever was played."""
    assert json.loads(json.dumps(state)) == state
    for seat in state["seats"]:
        assert 0 <= dial(state, seat) <= dial(before, seat) <= 100
    assert len(state["clock_pile"]) == 13 - state["round"] - (0 if state["clock_pile"] else 1)
    if state["phase"] in ("react", "resolve"):
        powers = state["order_powers"]  # the dials when Phase Two began
        assert sorted(state["order"]) == state["seats"] and powers == sorted(powers, reverse=True)
        if len(powers) == 2 and powers[0] == powers[1]:
            assert state["order"][0] == state["star"]  # a tie: the star's dial reacts first
    if rules.outcome(state) is None:
        offered = [rules.legal_actions(state, seat) for seat in (None, *state["seats"])]
        assert any(offered), "no legal move for anyone before the night is over (a softlock)"
    else:
        assert all(rules.legal_actions(state, seat) == [] for seat in (None, *state["seats"]))
    for seat in (None, *state["seats"]):
        assert json.loads(json.dumps(look(state, seat))) is not None


@pytest.mark.parametrize("variant", range(len(VARIANTS)))
@pytest.mark.parametrize("seed", range(3))
def test_random_nights_reach_the_end_from_every_setup_with_every_rule_kept(variant, seed):
    """Every setup, played at random to the end: 6:00 AM after 12 rounds, or an Office breach in Phase Three."""
    players, dice, star, faces = VARIANTS[variant]
    chooser = random.Random(seed * 100 + variant)
    options = {"players": players, "power_dice": dice, "star": star}
    if faces:
        options["power_die_faces"] = faces
    state = table(**options)
    rng = TableDice(SEED, seed * 1000, "play-out")
    office_chance = 0.0 if seed == 0 else 0.05  # seed 0 always reaches 6:00 AM
    rounds = 0
    for _ in range(200):
        if rules.outcome(state) is not None:
            break
        before = state
        seat, action = random_move(state, chooser, office_chance)
        frozen = copy.deepcopy(state)
        state, events = act(state, seat, rng, **action)
        assert before == frozen and events and all(event.text for event in events)
        if action["type"] == "advance-time" and state["clock_pile"]:
            rounds += 1
            assert state["round"] == rounds and rules.current_time(state) == TIMES[rounds - 1]
        if action["type"] == "react":
            last = state["last_reactions"][str(seat)]
            dice_total = sum(last["dice"])
            assert len(last["dice"]) == action["cards"] and set(last["dice"]) <= set(state["faces"])
            cost = dice_total + 5 * action["depletion"] if action["cards"] else 0
            assert last["cost"] == cost and last["paid"] == (cost <= dial(before, seat))
            assert dial(state, seat) == dial(before, seat) - (cost if last["paid"] else 0)
        check_invariants(state, before)
    result = rules.outcome(state)
    assert result is not None, "the night never ended"
    powers = {seat: dial(state, seat) for seat in state["seats"]}
    if state["caught"] is None:
        assert rounds == 12 and rules.current_time(state) == "6:00 AM"
        assert set(result.winners) == {seat for seat in powers if powers[seat] == max(powers.values())}
        assert result.shared == (len(result.winners) == 2)
    else:
        assert state["phase"] == "resolve"
        assert result.winners == tuple(seat for seat in state["seats"] if seat != state["caught"])
    if seed == 0:
        assert state["caught"] is None


def test_one_die_without_depletion_reads_plainly_in_the_log():
    state = to_phase_two(with_power(table(), orange=15))
    state = act(state, PURPLE, type="react", cards=1, depletion=0, values=[10])[0]
    assert rules.apply(state, {"type": "react", "seat": ORANGE, "cards": 1, "depletion": 0, "values": [20]},
                       None)[1][0].text == ("tried to react to 1 card: the real Power die showed 20, more than the 15 "
                                            "left. REACTS TO NOTHING! Yikes! No power subtracted; the Power Dial "
                                            "stays at 15.")
    fresh = to_phase_two(table())
    assert act(fresh, ORANGE, type="react", cards=1, depletion=0, values=[10])[1][0].text == \
        "reacted to 1 card: the real Power die showed 10; Power Dial 100 \u2192 90."


# ---- regressions found in review ------------------------------------------------------------------------------------

def test_a_real_die_may_show_0_only_when_the_faces_listed_at_setup_have_a_0():
    """A host who lists a 0 (blank) face must be able to enter it from the real dice; otherwise a 0 is a slip."""
    blank = to_phase_two(table(power_die_faces=[0, 5, 5, 10, 10, 15]))
    after, events = act(blank, ORANGE, type="react", cards=2, depletion=1, values=[0, 10])
    assert dial(after, ORANGE) == 85 and "0 + 10, + 5 for 1 Power Depletion card = 15 power" in events[0].text
    assert look(blank, ORANGE)["physical_lowest"] == 0
    refused(to_phase_two(table()), ORANGE, "can't show 0 (no 0 face was listed at setup)", type="react", cards=1,
            depletion=0, values=[0])
    refused(blank, ORANGE, "can't show a negative number like -1", type="react", cards=1, depletion=0, values=[-1])


def test_6_00_am_is_announced_once_in_the_log_line():
    """The server puts the outcome ('6:00 AM! ...') after the move's own text; the move must not say it again."""
    night = table()
    for _ in range(12):
        night = play_round(night)
    after, events = act(night, None, type="advance-time")
    line = " ".join([event.text for event in events] + [rules.outcome(after).text])
    assert line.count("6:00 AM!") == 1


def test_the_last_round_warns_that_advancing_time_ends_the_night():
    """'...repeat until you reach 6:00 AM': in the 5:30 AM round the next advance is the end, said beforehand."""
    state = table(players=1)
    for _ in range(11):
        state = play_round(state)
    assert look(state, None)["last_round"] is False
    state = play_round(state)
    seen = look(state, None)
    assert seen["time"] == "5:30 AM" and seen["last_round"] is True and seen["next_time"] == "6:00 AM"
    # still possible to be caught at 5:30 AM
    assert {"type": "office", "whose": ORANGE} in rules.legal_actions(state, ORANGE)


def test_phase_two_warns_that_an_unanswered_hallway_animatronic_loses_the_game():
    """'if you don't (or can't) react to an Animatronic in the Hallway, it will move into your Office in Phase Three
    and you will LOSE THE GAME!'"""
    reminder = " ".join(look(to_phase_two(table()), ORANGE)["phase_reminder"])
    assert "An Animatronic in the Hallway you don't (or can't) react to moves into your Office" in reminder


def test_a_guard_at_0_power_can_still_react_to_nothing_and_the_night_goes_on():
    """No softlock: an empty dial can't pay for a die, but 'choose to conserve power' always remains."""
    state = to_phase_two(with_power(table(), orange=0, purple=0))
    after, events = act(state, ORANGE, type="react", cards=1, depletion=0, values=[5])
    assert dial(after, ORANGE) == 0 and "REACTS TO NOTHING" in events[0].text
    after, _ = act(after, PURPLE, type="react", cards=0, depletion=4)
    assert after["phase"] == "resolve" and dial(after, PURPLE) == 0
    forecast = look(state, ORANGE)["forecast"]
    assert all(cell["over"] == "100%" and cell["lasts"] == "0.0" for row in forecast for cell in row["cells"])


# ---- the cameras: Phase One's cards, tapped in as the table flips them -----------------------------------------------

def flips(state: dict, seat: int | None, whose: int, *cards: tuple[str, str]) -> dict:
    """Tap in (location, card) for a guard, in the order the table flipped them."""
    for location, card in cards:
        state, _ = act(state, seat, type="flip", whose=whose, location=location, card=card)
    return state


CHRIS = (("Hallway", "power-depletion"), ("Pirate Cove", "what-was-that"), ("Dining Area", "what-was-that"),
         ("Show Stage", "animatronic"), ("Show Stage", "what-was-that"))  # the Example Turn's illustration


def test_the_rulebooks_example_costs_20_from_the_cameras_tapped_in():
    """'He rolls a 5 and a 10. Chris subtracts 20 power in total from his Power Dial because of the Power Depletion
    card at the Hallway': the one face-up Power Depletion card is counted, nobody types it."""
    state = table(players=1)
    for _ in range(2):
        state = play_round(state)
    state = act(state, None, type="advance-time")[0]
    state = flips(state, ORANGE, ORANGE, *CHRIS)
    state = act(state, None, type="cameras-flipped")[0]
    assert rules.current_time(state) == "1:00 AM"
    offered = [offer for offer in rules.legal_actions(state, ORANGE) if offer["type"] == "react"]
    assert offered[-1] == {"type": "react", "cards": 2, "depletion": 1, "values": [5, 5]}
    after, events = act(state, ORANGE, type="react", cards=2, values=[5, 10])
    assert dial(after, ORANGE) == 80 and after["last_reactions"]["1"]["cost"] == 20
    assert events[0].text == ("reacted to 2 cards: the real Power dice showed 5 + 10, + 5 for 1 Power Depletion "
                              "card = 20 power; Power Dial 100 \u2192 80.")


def test_a_typed_depletion_count_still_corrects_the_cameras_and_the_log_says_so():
    state = flips(act(table(), None, type="advance-time")[0], None, ORANGE, *CHRIS)
    state = act(state, None, type="cameras-flipped")[0]
    after, events = act(state, ORANGE, type="react", cards=1, depletion=2, values=[10])
    assert dial(after, ORANGE) == 80  # 10 + 2 x 5, as typed
    assert "(typed 2 Power Depletion cards where the cameras show 1: the typed count is used)." in events[0].text


def test_reactions_are_capped_at_the_cards_the_cameras_show_to_react_to():
    """'React to zero, one, or two face-up Animatronic or What Was That? cards': one such card, one die at most."""
    state = act(table(), None, type="advance-time")[0]
    state = flips(state, ORANGE, ORANGE, ("Hallway", "empty-room"), ("Pirate Cove", "what-was-that"),
                  ("Dining Area", "power-depletion"), ("Show Stage", "empty-room"))
    state = act(state, None, type="cameras-flipped")[0]
    reactions = [offer["cards"] for offer in rules.legal_actions(state, ORANGE) if offer["type"] == "react"]
    assert reactions == [0, 1]
    refused(state, ORANGE, "Orange's cameras show 1 card to react to (Animatronic or What Was That?), so react to 0 "
            "or 1, not 2.", type="react", cards=2, values=[5, 5])
    refused(state, ORANGE, "React to 0, 1 or 2 cards, not 3", type="react", cards=3, values=[5, 5, 5])
    assert look(state, ORANGE)["mine"]["cameras"]["most_reactions"] == 1
    # Purple tapped nothing in: the rulebook's two cards stay possible, and the depletion count is typed.
    state = act(state, ORANGE, type="react", cards=1, values=[5])[0]
    assert dial(state, ORANGE) == 90
    refused(state, ORANGE, "Orange has reacted already", type="flip", location="Hallway", card="empty-room")
    late = act(state, PURPLE, type="flip", location="Hallway", card="power-depletion")[0]  # a late tap before reacting
    assert dial(act(late, PURPLE, type="react", cards=1, values=[5])[0], PURPLE) == 90
    refused(state, PURPLE, "Say how many Power Depletion cards are face up", type="react", cards=2, values=[5, 5])


@pytest.mark.parametrize("fields,message", [
    ({"location": "Kitchen", "card": "empty-room"}, "There is no 'Kitchen' camera: the locations are Hallway, "
                                                    "Pirate Cove, Dining Area and Show Stage."),
    ({"location": "Hallway", "card": "golden-freddy"}, "There is no 'golden-freddy' Camera Monitor card: tap "
                                                       "Animatronic (animatronic), Power Depletion (power-depletion)"),
    ({"location": "Hallway", "card": 3}, "There is no '3' Camera Monitor card"),
    ({"location": "Hallway"}, "Say which card was revealed there."),
    ({"card": "animatronic"}, "Say which location the card was flipped at."),
    ({"location": "Hallway", "card": "animatronic", "whose": PURPLE}, "Each guard taps in their own cameras"),
    ({"location": "Hallway", "card": "animatronic", "whose": 5}, "There is no guard at seat 5"),
])
def test_a_camera_card_that_does_not_exist_is_refused_with_a_sentence(fields, message):
    state = act(table(), None, type="advance-time")[0]
    refused(state, ORANGE, message, type="flip", **fields)


def test_a_pile_is_flipped_only_until_a_card_that_is_not_an_animatronic():
    """'If you ever reveal an Animatronic, continue revealing cards from the pile at this location until you reveal
    a non-Animatronic card.'"""
    state = act(table(), None, type="advance-time")[0]
    state = flips(state, None, PURPLE, ("Show Stage", "animatronic"), ("Show Stage", "animatronic"),
                  ("Show Stage", "empty-room"))
    refused(state, PURPLE, "Purple's Show Stage already shows an Empty Room card", type="flip",
            location="Show Stage", card="what-was-that")
    state = flips(state, PURPLE, PURPLE, ("Hallway", "animatronic"), ("Dining Area", "animatronic"))
    refused(state, PURPLE, "Purple has only 4 Animatronics, and all of them are face up already.", type="flip",
            location="Pirate Cove", card="animatronic")
    cleared = act(state, PURPLE, type="clear-camera", location="Show Stage")[0]
    assert rules.cameras(cleared, PURPLE) == {"Hallway": ["animatronic"], "Dining Area": ["animatronic"]}
    refused(cleared, PURPLE, "Nothing is tapped in at Purple's Show Stage yet.", type="clear-camera",
            location="Show Stage")
    refused(play_round(table()), None, "it is Phase Three now", type="flip", whose=ORANGE, location="Hallway",
            card="animatronic")
    refused(table(), None, "the night hasn't started", type="flip", whose=ORANGE, location="Hallway",
            card="animatronic")


def test_the_board_check_counts_the_face_up_cards_and_the_next_round_clears_them():
    state = flips(act(table(), None, type="advance-time")[0], None, ORANGE, *CHRIS)
    assert look(state, None)["board_check"][-1] == (
        "Orange's cameras face up: 1 Animatronic card, 1 Power Depletion card and 3 What Was That? cards (Hallway "
        "Power Depletion; Pirate Cove What Was That?; Dining Area What Was That?; Show Stage Animatronic, What Was "
        "That?).")
    rows = look(state, PURPLE)["guard_list"][0]["cameras"]
    assert rows["reactable"] == 4 and rows["depletion"] == 1 and rows["locations"][3]["cards"] == [
        "Animatronic", "What Was That?"]
    state = run(state, (None, {"type": "cameras-flipped"}), (ORANGE, {"type": "react", "cards": 0}),
                (PURPLE, {"type": "react", "cards": 0}))
    assert "Orange's cameras" in look(state, None)["board_check"][-1]  # Phase Three still shows what was flipped
    state = act(state, None, type="advance-time")[0]
    assert rules.cameras(state, ORANGE) == {} and "cameras" not in " ".join(look(state, None)["board_check"])


def test_an_unanswered_hallway_animatronic_is_warned_of_before_phase_three():
    """'NOTE: if you don't (or can't) react to an Animatronic in the Hallway, it will move into your Office in Phase
    Three and you will LOSE THE GAME!'"""
    state = act(table(), None, type="advance-time")[0]
    state = flips(state, None, ORANGE, ("Hallway", "animatronic"), ("Hallway", "what-was-that"))
    state = flips(state, None, PURPLE, ("Hallway", "animatronic"), ("Hallway", "empty-room"))
    state = act(state, None, type="cameras-flipped")[0]
    seen = look(state, None)
    assert seen["warnings"] == [
        "An Animatronic is face up in Orange's Hallway: react to it, or in Phase Three it moves into the Office and "
        "Orange loses.",
        "An Animatronic is face up in Purple's Hallway: react to it, or in Phase Three it moves into the Office and "
        "Purple loses."]
    # Orange answers it (one card, paid); Purple saves power and is told, in the log and on every screen.
    state = act(state, ORANGE, type="react", cards=1, values=[10])[0]
    state, events = act(state, PURPLE, type="react", cards=0)
    assert events[1].text == ("Watch out: the Animatronic in Purple's Hallway went unanswered. In Phase Three it "
                              "moves into Purple's Office, and Purple loses.")
    assert events[2].text.startswith("Phase Three")
    assert look(state, ORANGE)["warnings"] == [events[1].text]
    # A reaction that costs more than the dial holds reacts to NOTHING: the Hallway goes unanswered too.
    broke = act(with_power(to_phase_two_with(table(), ORANGE, ("Hallway", "animatronic")), orange=5), ORANGE,
                type="react", cards=1, values=[10])
    assert "went unanswered" in broke[1][1].text


def to_phase_two_with(state: dict, whose: int, *cards: tuple[str, str], advance: bool = True) -> dict:
    state = flips(act(state, None, type="advance-time")[0] if advance else state, None, whose, *cards)
    return act(state, None, type="cameras-flipped")[0]


# ---- readings of loose rules: each a setup option, tested in every setting -------------------------------------------

def dawn_tied(**options) -> dict:
    """Two guards at 6:00 AM with 40 power each."""
    state = table(**options)
    for _ in range(12):
        state = play_round(state)
    return act(with_power(state, orange=40, purple=40), None, type="advance-time")[0]


@pytest.mark.parametrize("tie,star,winners,text", [
    ("shared", "orange", (ORANGE, PURPLE), "6:00 AM! Both guards survived with 40 power each: a shared win for "
                                           "Orange and Purple."),
    ("star", "purple", (PURPLE,), "6:00 AM! Both guards survived with 40 power each; the star on Purple's dial "
                                  "breaks the tie: Purple wins."),
    ("star", "orange", (ORANGE,), "the star on Orange's dial breaks the tie: Orange wins."),
    ("nobody", "orange", (), "6:00 AM! Both guards survived with 40 power each: neither has the most power "
                             "remaining, so nobody wins."),
])
def test_a_tie_at_6_00_am_follows_the_tables_reading(tie, star, winners, text):
    """'If both players survive until 6:00 AM ..., the player with the most power remaining wins!' (equal power:
    the reading at setup)."""
    state = dawn_tied(tie=tie, star=star)
    result = rules.outcome(state)
    assert result.winners == winners and text in result.text and result.shared == (len(winners) == 2)
    assert look(state, None)["readings"]["tie"]["value"] == tie
    assert rules.outcome(dawn_with(35, 50)).winners == (PURPLE,)  # unequal power: every reading agrees


def test_the_tie_reading_defaults_to_a_shared_win_and_an_old_table_keeps_it():
    assert table()["readings"] == {"tie": "shared", "star_moves": "fixed", "resolve": "guard"}
    old = dawn_tied()
    del old["readings"]
    assert rules.outcome(old).shared is True


def test_with_the_star_fixed_nobody_moves_it():
    """'the player who has a star icon showing on their dial reacts first': by default the star stays put."""
    state = act(table(), None, type="advance-time")[0]
    assert all(offer["type"] != "star" for offer in rules.legal_actions(state, None))
    refused(state, None, "At this table the star stays on Orange's dial all night", type="star", whose=PURPLE)
    assert look(state, None)["readings"]["star_moves"]["short"] == "star fixed for the night"


def test_with_the_star_following_the_dials_the_table_says_whose_dial_shows_it_on_a_tie():
    state = act(table(star_moves="dial"), None, type="advance-time")[0]
    assert {"type": "star", "whose": PURPLE} in rules.legal_actions(state, None)
    assert {"type": "star", "whose": PURPLE} in rules.legal_actions(state, PURPLE)
    assert all(offer["type"] != "star" for offer in rules.legal_actions(state, ORANGE))  # it is on Orange's already
    refused(state, PURPLE, "Say only that your own dial shows the star", type="star", whose=ORANGE)
    refused(state, None, "The star is on Orange's dial already.", type="star", whose=ORANGE)
    state, events = act(state, PURPLE, type="star")
    assert state["star"] == PURPLE and state["order"] == [PURPLE, ORANGE]
    assert events[0].text == ("the star shows on Purple's dial: Purple reacts first (tied at 100, the star is on "
                              "Purple's dial), then Orange.")
    state = act(state, None, type="cameras-flipped")[0]
    assert rules.reactor(state) == PURPLE
    refused(state, None, "The star is checked in Phase One", type="star", whose=ORANGE)
    untied = act(with_power(table(star_moves="dial"), orange=90), None, type="advance-time")[0]
    assert all(offer["type"] != "star" for offer in rules.legal_actions(untied, None))  # no tie: no question
    refused(act(table(players=1, star_moves="dial"), None, type="advance-time")[0], None,
            "With one guard there is no tie", type="star", whose=ORANGE)


def hallway_left(resolve: str) -> dict:
    """Phase Three where Purple (second in order) left a Hallway Animatronic unanswered; Orange's Hallway, tapped in,
    shows an Empty Room."""
    state = act(table(resolve=resolve), None, type="advance-time")[0]
    state = flips(state, None, ORANGE, ("Hallway", "empty-room"))
    state = to_phase_two_with(state, PURPLE, ("Hallway", "animatronic"), ("Hallway", "empty-room"), advance=False)
    state = act(state, ORANGE, type="react", cards=0)[0]
    return act(state, PURPLE, type="react", cards=0)[0]


def test_location_by_location_a_second_guards_hallway_comes_before_the_first_guards_other_cards():
    """'Resolve remaining face-up cards, using Phase Two's turn order, one at a time from the Hallway to the Show
    Stage', read location by location: both Hallways first, and Orange's shows nothing that moves, so Purple's Office
    is reached first."""
    state = hallway_left("location")
    assert look(state, None)["resolve_text"] == ("Resolve location by location from the Hallway to the Show Stage, "
                                                 "at each one Orange, then Purple")
    assert rules.legal_actions(state, None) == [{"type": "advance-time"}, {"type": "office", "whose": PURPLE}]
    refused(state, ORANGE, "Purple's unanswered Hallway Animatronic is resolved first", type="office")
    assert rules.outcome(act(state, PURPLE, type="office")[0]).winners == (ORANGE,)


def issue_46_table(resolve: str, *orange: tuple[str, str], cards: int = 0) -> dict:
    """Issue 46's table: Purple's Hallway shows an Animatronic, then an Empty Room, and Purple reacts to nothing;
    Orange (first in Phase Two's order) shows `orange` and reacts to `cards` of them."""
    state = act(table(resolve=resolve), None, type="advance-time")[0]
    state = flips(state, None, ORANGE, *orange)
    state = to_phase_two_with(state, PURPLE, ("Hallway", "animatronic"), ("Hallway", "empty-room"), advance=False)
    dice = {"values": [5] * cards} if cards else {}  # the real Power dice (the table's default)
    state = act(state, ORANGE, type="react", cards=cards, **dice)[0]
    return act(state, PURPLE, type="react", cards=0)[0]


@pytest.mark.parametrize("resolve", ["location", "guard"])
def test_a_what_was_that_in_the_first_guards_hallway_can_reach_their_office_before_the_other_hallway(resolve):
    """Issue 46: 'If a card reaches your Office, reveal that card immediately. If the revealed card is an Animatronic,
    you LOSE THE GAME!' Orange's Hallway What Was That? resolves before Purple's Hallway Animatronic in either
    reading, so the table can record either Office, the host and Orange's own phone alike."""
    state = issue_46_table(resolve, ("Hallway", "what-was-that"))
    assert [offer for offer in rules.legal_actions(state, None) if offer["type"] == "office"] == [
        {"type": "office", "whose": ORANGE}, {"type": "office", "whose": PURPLE}]
    assert {"type": "office", "whose": ORANGE} in rules.legal_actions(state, ORANGE)
    for seat in (None, ORANGE):
        caught, events = act(state, seat, type="office", whose=ORANGE)
        assert events[0].text == "an Animatronic reached Orange's Office!"
        assert rules.outcome(caught).winners == (PURPLE,)
    assert rules.outcome(act(state, PURPLE, type="office")[0]).winners == (ORANGE,)


@pytest.mark.parametrize("resolve", ["location", "guard"])
def test_a_reaction_may_have_answered_another_card_than_the_hallway_animatronic(resolve):
    """Issue 46: Orange reacted to one card while the cameras show a Hallway Animatronic and a What Was That?; which
    one was answered isn't known, so the Hallway Animatronic may still reach Orange's Office first."""
    state = issue_46_table(resolve, ("Hallway", "animatronic"), ("Hallway", "empty-room"),
                           ("Pirate Cove", "what-was-that"), cards=1)
    assert {"type": "office", "whose": ORANGE} in rules.legal_actions(state, None)
    assert rules.outcome(act(state, None, type="office", whose=ORANGE)[0]).winners == (PURPLE,)
    # Once Orange paid for every card that can move, nothing of Orange's is left to reach an Office first.
    answered = issue_46_table(resolve, ("Hallway", "animatronic"), ("Hallway", "empty-room"),
                              ("Pirate Cove", "what-was-that"), ("Dining Area", "empty-room"),
                              ("Show Stage", "empty-room"), cards=2)
    assert [offer for offer in rules.legal_actions(answered, None) if offer["type"] == "office"] == [
        {"type": "office", "whose": PURPLE}]
    refused(answered, ORANGE, "no card resolved before it can reach an Office", type="office")


def test_guard_by_guard_the_second_guards_hallway_comes_after_every_card_of_the_first():
    """Read guard by guard, Orange's What Was That? at the Dining Area can't reach the Office (it moves a card one or
    two locations), but one at Pirate Cove can, even though Orange's Hallway is safe."""
    far = issue_46_table("guard", ("Hallway", "empty-room"), ("Pirate Cove", "empty-room"),
                         ("Dining Area", "what-was-that"), ("Show Stage", "empty-room"))
    assert [offer["whose"] for offer in rules.legal_actions(far, None) if offer["type"] == "office"] == [PURPLE]
    near = issue_46_table("guard", ("Hallway", "empty-room"), ("Pirate Cove", "what-was-that"))
    assert [offer["whose"] for offer in rules.legal_actions(near, None) if offer["type"] == "office"] == [
        ORANGE, PURPLE]
    # Location by location, Purple's Hallway comes before Orange's Pirate Cove: Purple's Office first.
    first = issue_46_table("location", ("Hallway", "empty-room"), ("Pirate Cove", "what-was-that"))
    assert [offer["whose"] for offer in rules.legal_actions(first, None) if offer["type"] == "office"] == [PURPLE]


def test_guard_by_guard_the_first_guards_other_cards_may_still_reach_their_office_first():
    """Read guard by guard, Orange resolves all four locations before Purple's Hallway: a What Was That? can still
    bring an Animatronic into Orange's Office first."""
    state = hallway_left("guard")
    assert look(state, None)["resolve_text"] == ("Resolve guard by guard, each from the Hallway to the Show Stage "
                                                 "(Orange, then Purple)")
    assert {"type": "office", "whose": ORANGE} in rules.legal_actions(state, None)
    assert rules.outcome(act(state, ORANGE, type="office")[0]).winners == (PURPLE,)
    # The first guard's own unanswered Hallway is the first card of Phase Three in either reading.
    first = to_phase_two_with(table(), ORANGE, ("Hallway", "animatronic"), ("Hallway", "empty-room"))
    first = act(act(first, ORANGE, type="react", cards=0)[0], PURPLE, type="react", cards=0)[0]
    refused(first, None, "Orange's unanswered Hallway Animatronic is resolved first", type="office", whose=PURPLE)
