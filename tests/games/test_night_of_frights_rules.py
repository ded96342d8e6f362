"""Night of Frights! rules without Flask: the bag after each Event, capture odds, X/scary flips, turns and the end."""

import copy
import itertools
import json
import random
from fractions import Fraction

import pytest

from app.dice import TableDice
from app.games import REGISTRY, OptionError
from app.games.contract import IllegalAction
from app.games.night_of_frights import rules
from app.games.night_of_frights.guard_bag import as_percent, capture_chance

SEED = "ab" * 32
SPEC = REGISTRY["night-of-frights"]
PROFILE = {key: entry.value for key, entry in SPEC.profile.items()}


class FixedBag:
    """A stand-in rng that hands out the given picks in order, so a test decides which token comes out."""

    def __init__(self, *picks: int):
        self.picks = list(picks)

    def randbelow(self, bound: int, why: str = "") -> int:
        pick = self.picks.pop(0)
        assert 0 <= pick < bound
        return pick


def game(characters=("Freddy", "Bonnie", "Chica", "Foxy"), event_deck=None, draw_table=None) -> dict:
    """An opening state set up through the same options a host picks."""
    raw = {"characters": list(characters)}
    if event_deck is not None:
        raw["event_deck"] = event_deck
    if draw_table is not None:
        raw["draw_table"] = draw_table
    options, seats = SPEC.configure(raw)
    return rules.new_state(list(range(1, len(seats) + 1)), options, PROFILE)


def act(state: dict, seat, rng=None, **action):
    return rules.apply(state, {**action, "seat": seat}, rng or TableDice(SEED, 0, "someone"))


def play(state: dict, seat, rng=None, **action) -> dict:
    return act(state, seat, rng, **action)[0]


def refused(state: dict, seat, message: str, rng=None, **action) -> None:
    """The action is refused with a sentence containing `message`, and the state it was given is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as caught:
        act(state, seat, rng, **action)
    assert message in str(caught.value)
    assert str(caught.value)[-1] in ".!?"
    assert state == before


def started(state: dict | None = None, first: int = 1) -> dict:
    """Someone ate pizza: their turn begins with items placed."""
    state = play(state or game(), None, type="first-player", whose=first)
    return play(state, first, type="place-items")


def scary(state: dict, seat: int, space: int) -> dict:
    """Put a character's token on `space`, scary side up (as items spent would)."""
    state = copy.deepcopy(state)
    state["scare_track"][str(seat)] = {"space": space, "scary": True}
    return state


# ---- setup ----------------------------------------------------------------------------------------------------------

def test_what_does_setup_put_on_the_table():
    """Setup 5-9: 19 Miss + 1 Guard in the bag, a Guard and an Action token aside, tokens on 0 X side up."""
    state = game()
    assert state["bag"] == {"Miss": 19, "Guard": 1} and state["guard_aside"] and state["action_token_aside"]
    assert state["characters"] == {"1": "Freddy", "2": "Bonnie", "3": "Chica", "4": "Foxy"}
    assert all(token == {"space": 0, "scary": False} for token in state["scare_track"].values())
    assert state["action_tokens"] == 4 and state["turn"] is None
    assert state["event_deck"] == 12 and state["draw_table"] == list(range(1, 11))
    assert json.loads(json.dumps(state)) == state


def test_does_freddy_draw_an_extra_action_card():
    """'If you're playing Freddy, draw an extra Action card.' Everyone else holds three of the 18."""
    state = game()
    assert state["hands"] == {"1": 4, "2": 3, "3": 3, "4": 3}
    assert state["action_deck"] == 18 - 13 and state["action_discard"] == 0


@pytest.mark.parametrize("characters,deck,message", [
    (["Freddy", "Bonnie"], 12, "marked 3+ and 4"),
    (["Freddy", "Bonnie", "Chica"], 12, "marked 4"),
    (["Freddy", "Bonnie", "Chica", "Foxy"], 11, "With 4 players all 12"),
])
def test_is_the_event_deck_sized_for_the_player_count(characters, deck, message):
    """'2 Players: Remove 3+ and 4 cards. 3 Players: Remove 4 cards.' The host enters what is left."""
    with pytest.raises(OptionError) as caught:
        SPEC.configure({"characters": characters, "event_deck": deck})
    assert message in str(caught.value)


@pytest.mark.parametrize("characters,deck", [(["Bonnie", "Foxy"], 7), (["Freddy", "Chica", "Foxy"], 10),
                                             (["Freddy", "Bonnie", "Chica", "Foxy"], 12)])
def test_does_the_confirmed_deck_size_become_the_event_deck(characters, deck):
    state = game(characters, event_deck=deck)
    assert state["event_deck"] == state["event_deck_size"] == deck
    assert state["seats"] == list(range(1, len(characters) + 1))


def test_are_seats_the_characters_in_box_order():
    options, seats = SPEC.configure({"characters": ["Foxy", "Chica"], "event_deck": 8})
    assert [seat.name for seat in seats] == ["Chica", "Foxy"]


# ---- turns ----------------------------------------------------------------------------------------------------------

def test_who_most_recently_ate_pizza_takes_the_first_turn_with_four_tokens():
    state, events = act(game(), None, type="first-player", whose=3)
    assert state["turn"] == 3 and state["actions_left"] == 4 and not state["items_placed"]
    assert "Chica most recently ate pizza" in events[0].text


def test_may_a_phone_claim_only_itself_as_first_player():
    state = game()
    assert play(state, 2, type="first-player")["turn"] == 2
    refused(state, 2, "only that you ate pizza", type="first-player", whose=1)
    refused(state, None, "Say who most recently ate pizza", type="first-player")
    refused(started(), None, "first turn has been taken", type="first-player", whose=2)


def test_is_acting_on_another_players_turn_refused():
    state = scary(started(), 2, 5)
    for action in ({"type": "spend", "steps": 1}, {"type": "take-action", "what": "move"},
                   {"type": "capture", "room": 1, "event": "other"}, {"type": "end-turn"}, {"type": "draw"}):
        refused(state, 2, "It's Freddy's turn", **action)
    refused(game(), 1, "First say who most recently ate pizza", type="spend", steps=1)


def test_does_each_action_use_one_token_and_none_are_left_after_four():
    state = started()
    for what in ("move", "pick-up", "play-card", "move"):
        state = play(state, 1, type="take-action", what=what)
    assert state["actions_left"] == 0 and state["hands"]["1"] == 3 and state["action_discard"] == 1
    refused(state, 1, "no Action tokens left", type="take-action", what="move")
    refused(scary(state, 1, 4), 1, "no Action tokens left", type="capture", room=1, event="other")


def test_is_playing_a_card_refused_with_an_empty_hand():
    state = started()
    state["hands"]["1"] = 0
    refused(state, 1, "no Action cards in hand", type="take-action", what="play-card")


def test_does_the_turn_pass_to_the_left_in_seat_order_and_wrap_around():
    state = started(game(["Freddy", "Chica", "Foxy"], event_deck=9), first=3)
    state = play(state, 3, type="take-action", what="move")
    state, events = act(state, 3, type="end-turn")
    assert state["turn"] == 1 and state["actions_left"] == 4 and not state["items_placed"]
    assert "3 Action tokens unused" in events[0].text and "Freddy takes 4 Action tokens" in events[0].text
    assert play(state, None, type="end-turn")["turn"] == 2


def test_may_the_turn_pass_to_whoever_really_sits_on_the_left():
    """'passing an Action token to the player on your left': the app can't see the seating, so a turn may pass to
    another player, who then stays on that player's left for the rest of the night."""
    state = started()  # Freddy, Bonnie, Chica, Foxy in seat order; Foxy really sits on Freddy's left
    assert {"type": "end-turn", "whose": 4} in rules.legal_actions(state, 1)
    assert {"type": "end-turn", "whose": 2} not in rules.legal_actions(state, 1)  # the plain button does that
    refused(state, 1, "can't pass the turn to themselves", type="end-turn", whose=1)
    refused(state, 1, "There is no seat 9", type="end-turn", whose=9)
    refused(state, 1, "by seat number", type="end-turn", whose="4")
    refused(state, 1, "by seat number", type="end-turn", whose=True)
    state, events = act(state, 1, type="end-turn", whose=4)
    assert state["turn"] == 4 and state["order"] == [1, 4, 2, 3] and "Foxy takes 4 Action tokens" in events[0].text
    assert rules.view(state, None)["next_name"] == "Bonnie"
    for expected in (2, 3, 1, 4):  # the corrected order holds from then on
        state = play(state, None, type="end-turn")
        assert state["turn"] == expected
    assert play(state, 4, type="end-turn", whose=2)["order"] == [1, 4, 2, 3]  # already next: nothing to remember


def test_does_the_host_screen_play_for_whoever_has_the_turn():
    state, events = act(started(), None, type="spend", steps=2)
    assert state["scare_track"]["1"] == {"space": 2, "scary": True}
    assert events[0].text.startswith("for Freddy, spent items")


# ---- place two items, and party time ------------------------------------------------------------------------------

def test_does_forgetting_to_place_items_open_party_time_for_another_player():
    """'If you forget this step by going to Step 2, the first other player to shout "party time!" draws an Item.'"""
    state = play(game(), None, type="first-player", whose=1)
    refused(state, 2, "took an action before placing", type="party-time")
    state, events = act(state, 1, type="take-action", what="move")
    assert state["forgot_items"] and "party time!" in events[0].text
    refused(state, 1, "Only another player", type="party-time")
    refused(state, None, "Say who shouted", type="party-time")
    refused(state, 2, "only for yourself", type="party-time", whose=3)
    state, events = act(state, 3, type="party-time")
    assert state["party_called"] == 3 and "Chica shouted" in events[0].text
    refused(state, 2, "Chica already shouted", type="party-time")
    state = play(state, 1, type="place-items")  # 'Then place two Item tokens on the board as normal'
    assert state["items_placed"]
    refused(state, 1, "already placed two items", type="place-items")
    assert play(state, 1, type="end-turn")["party_called"] is None


def test_does_placing_the_items_close_party_time():
    """'the first other player to shout "party time!" draws an Item token. Then place two Item tokens on the board as
    normal': the shout comes before the items, so once they are placed nobody can shout any more."""
    state = play(play(game(), None, type="first-player", whose=1), 1, type="take-action", what="move")
    assert rules.view(state, 2)["party_open"]
    state = play(state, 1, type="place-items")
    assert not rules.view(state, 2)["party_open"]
    assert not [t for t in rules.legal_actions(state, None) if t["type"] == "party-time"]
    refused(state, 2, "Too late", type="party-time")


def test_does_spending_items_not_count_as_forgetting():
    """Spending items is 'Any time on your turn' and needs no Action token: it is not Step 2."""
    state = play(play(game(), None, type="first-player", whose=1), 1, type="spend", steps=1)
    assert not state["forgot_items"]


# ---- the Scare Tracker ------------------------------------------------------------------------------------------

def test_does_spending_items_move_up_and_flip_to_scary():
    """'Flip your Character token to the scary side and move it one, two, or three spaces up.'"""
    state, events = act(started(), 1, type="spend", steps=3)
    assert state["scare_track"]["1"] == {"space": 3, "scary": True}
    assert state["actions_left"] == 4  # 'This doesn't require an Action token!'
    assert events[0].text == "spent items: Scare Tracker 0 → 3, flipped to the scary side."
    state = play(state, 1, type="spend", steps=2)  # 'you may spend items multiple times in a row'
    assert state["scare_track"]["1"]["space"] == 5


@pytest.mark.parametrize("steps,message", [(0, "1, 2 or 3"), (4, "1, 2 or 3"), (-1, "1, 2 or 3"),
                                           (True, "how many spaces"), ("2", "how many spaces"),
                                           (None, "how many spaces")])
def test_are_bad_scare_steps_refused(steps, message):
    refused(started(), 1, message, type="spend", steps=steps)


def test_is_moving_the_tracker_past_ten_refused():
    state = scary(started(), 1, 9)
    refused(state, 1, "past 10", type="spend", steps=2)
    assert play(state, 1, type="spend", steps=1)["scare_track"]["1"]["space"] == 10


def test_does_a_missed_capture_flip_the_token_to_x():
    """'Flip your Character token to the X side. You can't try to capture again until you get scarier.'"""
    state = play(scary(started(), 1, 4), 1, type="capture", room=1, event="other")
    state, events = act(state, 1, type="draw", guards=0)
    assert state["scare_track"]["1"] == {"space": 4, "scary": False}
    assert "flips to X" in events[0].text
    refused(state, 1, "shows the X side", type="capture", room=1, event="other")
    state = play(state, 1, type="spend", steps=1)
    assert play(state, 1, type="capture", room=2, event="other")["capture"]["count"] == 5


def test_does_a_token_on_ten_stay_scary_and_try_again_in_a_row():
    """'When you reach 10 ... you no longer flip your Character token to the X side.'"""
    state = play(scary(started(), 1, 10), 1, type="capture", room=1, event="other")
    state, events = act(state, 1, type="draw", guards=0)
    assert state["scare_track"]["1"] == {"space": 10, "scary": True} and "stays scary" in events[0].text
    state = play(state, 1, type="capture", room=1, event="other")
    assert state["capture"]["count"] == 10 and state["actions_left"] == 2


# ---- trying to capture --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("room,message", [(3, "only from Room 1 or 2"), (0, "only from Room 1 or 2"),
                                          ("1", "as a number"), (True, "as a number"), (None, "as a number")])
def test_is_a_capture_outside_room_one_or_two_refused(room, message):
    refused(scary(started(), 1, 3), 1, message, type="capture", room=room, event="other")


@pytest.mark.parametrize("event", ["GUARD", "", 3, None, "draw"])
def test_is_an_unknown_event_refused(event):
    refused(scary(started(), 1, 3), 1, "Say what the Event card says", type="capture", room=1, event=event)


def test_is_capturing_from_the_x_side_refused():
    refused(started(), 1, "shows the X side", type="capture", room=1, event="other")


def test_does_a_capture_spend_a_token_flip_an_event_and_wait_for_the_draw():
    state = scary(started(), 1, 3)
    state, events = act(state, 1, type="capture", room=2, event="steal")
    assert state["actions_left"] == 3 and state["event_deck"] == 11 and state["events_flipped"] == ["steal"]
    assert state["capture"] == {"seat": 1, "room": 2, "space": 3, "count": 3, "event": "steal"}
    assert "STEAL AN ITEM (done on the board)" in events[0].text and "15.0% to find a Guard" in events[0].text
    for action in ({"type": "spend", "steps": 1}, {"type": "end-turn"}, {"type": "place-items"},
                   {"type": "capture", "room": 1, "event": "other"}):
        refused(state, 1, "draw from the bag first", **action)
    refused(state, None, "Finish the draw", type="draw-table", values=list(range(1, 11)))


def test_is_a_draw_without_a_capture_refused():
    refused(started(), 1, "try to capture first", type="draw")


# ---- the bag after each event -------------------------------------------------------------------------------------

def test_does_plus_one_guard_add_the_second_guard_once():
    """'+1 GUARD TOKEN: Take the Guard token you set aside ... and add it to the bag.'"""
    state = play(scary(started(), 1, 5), 1, type="capture", room=1, event="guard")
    assert state["bag"] == {"Miss": 19, "Guard": 2} and not state["guard_aside"]
    state = play(state, 1, type="draw", guards=0)
    assert state["bag"] == {"Miss": 19, "Guard": 2}  # 'return all the tokens to the bag'
    refused(scary(state, 1, 5), 1, "already in the bag", type="capture", room=1, event="guard")


def test_does_minus_two_miss_remove_two_each_time_until_fewer_than_two_remain():
    """'-2 MISS TOKENS: Remove two Miss tokens from the bag and return them to the game box.'"""
    state = scary(started(), 1, 1)
    state = play(state, 1, type="capture", room=1, event="miss")
    assert state["bag"] == {"Miss": 17, "Guard": 1}
    state = play(state, 1, type="draw", guards=0)
    state["bag"]["Miss"] = 3
    state = play(scary(state, 1, 1), 1, type="capture", room=1, event="miss")
    assert state["bag"] == {"Miss": 1, "Guard": 1}
    state = play(state, 1, type="draw", guards=0)
    refused(scary(state, 1, 1), 1, "only 1 Miss token", type="capture", room=1, event="miss")
    state["bag"]["Miss"] = 0
    refused(scary(state, 1, 1), 1, "no Miss tokens", type="capture", room=1, event="miss")


def test_does_plus_one_action_give_five_tokens_from_this_turn_on():
    """'From now on, players may take up to five actions per turn, including the current turn.'"""
    state = play(scary(started(), 1, 1), 1, type="capture", room=1, event="action")
    assert state["action_tokens"] == 5 and state["actions_left"] == 4 and not state["action_token_aside"]
    assert state["bag"] == {"Miss": 19, "Guard": 1}
    state = play(play(state, 1, type="draw", guards=0), 1, type="end-turn")
    assert state["turn"] == 2 and state["actions_left"] == 5
    refused(scary(state, 2, 1), 2, "already in play", type="capture", room=1, event="action")


def test_is_drawing_more_tokens_than_the_bag_holds_refused():
    state = started(game(draw_table=[1, 2, 3, 4, 5, 6, 7, 8, 9, 20]))
    state["bag"]["Miss"] = 17
    refused(scary(state, 1, 10), 1, "the bag would hold only 18", type="capture", room=1, event="other")
    refused(scary(state, 1, 10), 1, "would hold only 16", type="capture", room=1, event="miss")


@pytest.mark.parametrize("guards,message", [(2, "can't have 2 Guards"), (-1, "fewer than 0"), (True, "as a number"),
                                            ("0", "as a number"), (1.0, "as a number")])
def test_are_impossible_real_draws_refused(guards, message):
    state = play(scary(started(), 1, 3), 1, type="capture", room=1, event="other")
    refused(state, 1, message, type="draw", guards=guards)


def test_must_a_real_draw_fit_the_tokens_drawn_and_the_miss_left():
    state = play(scary(started(), 1, 1), 1, type="capture", room=1, event="guard")
    refused(state, 1, "at most 1 of them can be Guards", type="draw", guards=2)
    state = copy.deepcopy(state)
    state["bag"]["Miss"] = 0
    state["capture"]["count"] = 2
    refused(state, 1, "only 0 Miss tokens", type="draw", guards=1)


def test_does_the_app_draw_from_the_true_contents_one_token_at_a_time():
    state = play(scary(started(), 1, 3), 1, type="capture", room=1, event="other")
    rng = TableDice(SEED, 0, "Ann")
    after, events = act(state, 1, rng, type="draw")
    assert len(rng.records) == 3 and [record["bound"] for record in rng.records] == [20, 19, 18]
    assert len(after["last_draw"]["tokens"]) == 3 and after["last_draw"]["source"] == "app"
    again = TableDice(SEED, 0, "Ann")
    assert act(state, 1, again, type="draw")[0] == after  # the same seed gives the same draw


def test_does_drawing_the_guard_win_and_end_the_game():
    """'If you draw a Guard token, you capture the guard. The game is over and you win!'"""
    state = play(scary(started(), 1, 2), 1, type="capture", room=1, event="other")
    after, events = act(state, 1, FixedBag(5, 0), type="draw")  # a Miss, then the Guard (Guards come first)
    assert after["last_draw"]["tokens"] == ["Miss", "Guard"] and after["winner"] == 1
    assert events[0].text == "drew 2 tokens: Miss, Guard — the Guard!"
    ended = rules.outcome(after)
    assert ended.winners == (1,) and "Freddy wins!" in ended.text
    refused(after, 2, "The night is over", type="end-turn")
    assert rules.legal_actions(after, 1) == [] and rules.legal_actions(after, None) == []


def test_does_an_empty_event_deck_after_a_capture_attempt_lose_for_everyone():
    """'After a player tries to capture the guard, if there are no more Event cards in the deck, the guard escapes.'"""
    state = started(game(["Bonnie", "Chica"], event_deck=1))
    state = play(scary(state, 1, 4), 1, type="capture", room=1, event="other")
    assert state["event_deck"] == 0 and rules.outcome(state) is None  # the draw still comes first
    state = play(state, 1, type="draw", guards=0)
    ended = rules.outcome(state)
    assert ended.winners == () and "the guard escapes" in ended.text


def test_does_a_guard_on_the_last_event_still_win():
    state = started(game(["Bonnie", "Chica"], event_deck=1))
    state = play(play(scary(state, 1, 4), 1, type="capture", room=1, event="other"), 1, type="draw", guards=1)
    assert rules.outcome(state).winners == (1,)


def test_does_a_missed_capture_draw_action_cards_back_to_three():
    """'Draw Action cards from the deck until you have three. If the deck is empty, shuffle the discard pile.'"""
    state = started(first=2)
    state = play(play(state, 2, type="take-action", what="play-card"), 2, type="take-action", what="play-card")
    assert state["hands"]["2"] == 1 and state["action_discard"] == 2
    state["hands"]["3"] = state["hands"]["4"] = 1
    state["action_deck"], state["action_discard"] = 1, 10  # 4 + 1 + 1 + 1 in hands: all 18 cards accounted for
    state = play(scary(state, 2, 2), 2, type="capture", room=1, event="other")
    state, events = act(state, 2, type="draw", guards=0)
    assert state["hands"]["2"] == 3 and state["action_deck"] == 9 and state["action_discard"] == 0
    assert "draws 2 Action cards back to 3 (the discard pile shuffled into a new deck)" in events[0].text
    freddy = play(play(scary(started(), 1, 2), 1, type="capture", room=1, event="other"), 1, type="draw", guards=0)
    assert freddy["hands"]["1"] == 4  # he already holds more than three


# ---- the odds ---------------------------------------------------------------------------------------------------

def brute_force(miss: int, guards: int, draws: int) -> Fraction:
    """Count every set of `draws` distinct tokens and how many hold a Guard."""
    tokens = ["G"] * guards + ["M"] * miss
    hands = list(itertools.combinations(range(len(tokens)), draws))
    hits = sum(1 for hand in hands if any(tokens[index] == "G" for index in hand))
    return Fraction(hits, len(hands))


@pytest.mark.parametrize("miss,guards", [(19, 1), (19, 2), (17, 1), (15, 2), (3, 1), (0, 1), (5, 0)])
def test_do_capture_odds_match_a_brute_force_count(miss, guards):
    for draws in range(0, min(10, miss + guards) + 1):
        assert capture_chance(miss, guards, draws) == brute_force(miss, guards, draws)


def test_are_the_rulebook_bag_odds_what_we_expect():
    assert capture_chance(19, 1, 3) == Fraction(3, 20)
    assert capture_chance(19, 2, 3) == 1 - Fraction(19 * 18 * 17, 21 * 20 * 19)
    assert as_percent(Fraction(3, 20)) == "15.0%" and as_percent(Fraction(1, 10**6)) == "<0.1%"
    with pytest.raises(ValueError):
        capture_chance(2, 1, 4)


def test_does_a_phone_see_its_odds_now_and_one_step_higher():
    state = scary(started(), 2, 3)
    mine = rules.view(state, 2)["me"]
    assert mine["odds"]["percent"] == "15.0%" and mine["odds"]["fraction"] == "3/20"
    assert mine["higher_space"] == 4 and mine["higher_odds"]["percent"] == "20.0%"
    assert not mine["can_capture"]  # it is Freddy's turn
    assert rules.view(game(), 1)["me"]["odds"] is None  # space 0: no capture yet
    top = rules.view(scary(state, 2, 10), 2)["me"]
    assert top["higher_space"] is None and top["odds"]["percent"] == "50.0%"
    assert rules.view(state, None)["me"] is None


def test_is_the_event_deck_marked_assumed_only_with_fewer_than_four_players():
    """All 12 Event cards with four players is printed; with fewer the host counted the deck (assumed)."""
    assert not rules.view(game(), None)["event_deck_assumed"]
    assert rules.view(game(["Bonnie", "Foxy"], event_deck=7), None)["event_deck_assumed"]
    assert rules.view(game(["Freddy", "Bonnie", "Foxy"], event_deck=10), None)["event_deck_assumed"]


def test_does_a_phone_say_when_the_bag_is_too_small_for_its_space():
    """No odds can mean space 0 or a bag smaller than the draw: the phone must say which."""
    state = scary(started(game(draw_table=[1, 2, 3, 4, 5, 6, 7, 8, 9, 20])), 1, 10)
    state["bag"]["Miss"] = 17
    mine = rules.view(state, 1)["me"]
    assert mine["odds"] is None and mine["too_few"]
    assert not rules.view(game(), 1)["me"]["too_few"]


def test_do_the_tracker_pieces_tell_freddy_from_foxy():
    initials = [row["initials"] for row in rules.view(game(), None)["players"]]
    assert initials == ["Fr", "Bo", "Ch", "Fo"] and len(set(initials)) == 4


def test_does_the_host_see_the_event_cards_left_and_odds_per_space():
    seen = rules.view(play(scary(started(), 1, 3), 1, type="capture", room=1, event="guard"), None)
    assert seen["event_deck"] == 11 and seen["bag_text"] == "19 Miss + 2 Guards"
    assert [row["draws"] for row in seen["odds_table"]] == list(range(1, 11))
    assert seen["odds_table"][0]["percent"] == "9.5%"  # 2 of 21
    assert seen["capture_odds"]["fraction"] == str(capture_chance(19, 2, 3))


def test_does_the_draw_table_set_how_many_tokens_a_space_draws():
    state = started(game(draw_table=[2, 2, 4, 4, 6, 6, 8, 8, 10, 10]))
    assert play(scary(state, 1, 3), 1, type="capture", room=1, event="other")["capture"]["count"] == 4
    state, events = act(state, None, type="draw-table", values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert state["draw_table"] == [1] * 10 and "set the draw table" in events[0].text
    refused(state, 1, "Only the host", type="draw-table", values=[2] * 10)
    refused(state, None, "already", type="draw-table", values=[1] * 10)
    refused(state, None, "Give 10 numbers", type="draw-table", values=[1, 2])
    refused(state, None, "Give 10 numbers", type="draw-table", values="1,2,3")
    refused(state, None, "from 1 to 20", type="draw-table", values=[0] + [1] * 9)
    refused(state, None, "whole number", type="draw-table", values=[True] + [1] * 9)


# ---- malformed actions --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("action,message", [
    ({"type": "fly"}, "isn't a move"),
    ({"type": "spend"}, "Say how many spaces"),
    ({"type": "spend", "steps": 1, "extra": 2}, "doesn't take 'extra'"),
    ({"type": "take-action", "what": "capture"}, "Say which action"),
    ({"type": "take-action", "what": 7}, "Say which action"),
    ({"type": "capture", "room": 1}, "Say what the Event card"),
    ({"type": "capture", "event": "guard"}, "Say which room"),
    ({"type": "first-player", "whose": "1"}, "first turn has been taken"),
])
def test_are_malformed_actions_refused_with_a_sentence(action, message):
    refused(scary(started(), 1, 3), 1, message, **action)


@pytest.mark.parametrize("seat", [0, 5, True, "1", 1.0])
def test_is_a_seat_not_at_the_table_refused(seat):
    refused(started(), seat, "There is no seat", type="end-turn")


def test_are_actions_without_a_type_or_a_seat_refused():
    state = started()
    with pytest.raises(IllegalAction, match="needs a type"):
        rules.apply(state, {"seat": 1}, TableDice(SEED, 0, "x"))
    with pytest.raises(IllegalAction, match="doesn't say who"):
        rules.apply(state, {"type": "end-turn"}, TableDice(SEED, 0, "x"))
    with pytest.raises(IllegalAction, match="Say who goes first"):
        rules.apply(game(), {"type": "first-player", "whose": "2", "seat": None}, TableDice(SEED, 0, "x"))


# ---- what the UI offers, and a whole night played at random ---------------------------------------------------------

def test_is_every_offered_action_accepted():
    states = [game(), started(), scary(started(), 1, 4),
              play(scary(started(), 1, 4), 1, type="capture", room=1, event="guard"),
              play(play(game(), None, type="first-player", whose=1), 1, type="take-action", what="move")]
    for state in states:
        for seat in [None, *state["seats"]]:
            for template in rules.legal_actions(state, seat):
                if template["type"] == "draw-table":  # a form the host fills in with other numbers
                    template = {**template, "values": template["values"][::-1]}
                act(state, seat, **template)  # raises if the screen offered something the rules refuse


def test_does_the_ui_offer_only_what_fits():
    state = started()
    offered = {template["type"] for template in rules.legal_actions(state, 1)}
    assert "capture" not in offered and "place-items" not in offered and "end-turn" in offered
    assert {template["type"] for template in rules.legal_actions(state, 2)} == set()
    assert [t["type"] for t in rules.legal_actions(game(), 3)] == ["first-player"]
    pending = play(scary(state, 1, 4), 1, type="capture", room=1, event="other")
    assert {template["type"] for template in rules.legal_actions(pending, 1)} == {"draw"}


def check_invariants(state: dict) -> None:
    assert json.loads(json.dumps(state)) == state
    assert state["bag"]["Miss"] >= 0 and 1 <= state["bag"]["Guard"] <= 2
    assert state["bag"]["Guard"] == (1 if state["guard_aside"] else 2)
    assert state["action_tokens"] == (4 if state["action_token_aside"] else 5)
    assert 0 <= state["event_deck"] <= state["event_deck_size"]
    assert len(state["events_flipped"]) == state["event_deck_size"] - state["event_deck"]
    assert sum(state["hands"].values()) + state["action_deck"] + state["action_discard"] == 18
    for token in state["scare_track"].values():
        assert 0 <= token["space"] <= 10
        assert token["space"] > 0 or not token["scary"]
    assert 0 <= state["actions_left"] <= state["action_tokens"]
    assert sorted(state["order"]) == state["seats"]
    assert state["capture"] is None or state["capture"]["count"] <= state["bag"]["Miss"] + state["bag"]["Guard"]
    if state["last_draw"]:
        drawn = state["last_draw"]["tokens"]
        assert len(drawn) == state["last_draw"]["count"] and drawn.count("Guard") <= state["last_draw"]["bag"]["Guard"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_does_a_random_night_play_out_to_an_end(seed, players):
    """Every player count, random deck sizes and draw tables: always an end, never a turn with nothing to do."""
    chooser = random.Random(seed * 10 + players)
    characters = chooser.sample(["Freddy", "Bonnie", "Chica", "Foxy"], players)
    deck = 12 if players == 4 else chooser.randint(1, 11)
    table = None if seed % 2 else sorted(chooser.randint(1, 12) for _ in range(10))
    state = game(characters, event_deck=deck, draw_table=table)
    rng = TableDice(f"{seed:02d}" * 32, 0, "someone")
    for _ in range(3000):
        if rules.outcome(state) is not None:
            break
        seat = chooser.choice([None, *state["seats"]])
        offered = [template for template in rules.legal_actions(state, seat) if template["type"] != "draw-table"]
        if not offered:
            continue
        captures = [template for template in offered if template["type"] in ("capture", "draw", "spend")]
        template = chooser.choice(captures if captures and chooser.random() < 0.7 else offered)
        before = copy.deepcopy(state)
        state, events = rules.apply(state, {**template, "seat": seat}, rng)
        assert events and all(event.text for event in events)
        assert before != state
        check_invariants(state)
        if rules.outcome(state) is None and state["turn"] is not None:  # no softlock: the turn can always go on
            kinds = {t["type"] for t in rules.legal_actions(state, state["turn"])}
            assert ("draw" in kinds) if state["capture"] else ("end-turn" in kinds)
    ended = rules.outcome(state)
    assert ended is not None
    if state["winner"] is not None:
        assert ended.winners == (state["winner"],) and state["last_draw"]["captured"]
    else:
        assert state["escaped"] and ended.winners == () and state["event_deck"] == 0
