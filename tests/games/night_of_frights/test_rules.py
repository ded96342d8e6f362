"""Night of Frights! rules without Flask: the bag after each card, capture odds, X/scary flips, turns, the readings."""

import copy
import itertools
import random
from fractions import Fraction

import pytest

from app.dice import TableDice
from app.games import REGISTRY, OptionError
from app.games.contract import Viewer
from app.games.night_of_frights import rules
from app.games.night_of_frights.guard_bag import capture_chance
from app.games.words import percent

from ..rules_helpers import SEED, RulesUnderTest, dumped, opening

SPEC = REGISTRY["night-of-frights"]
R = RulesUnderTest(rules)
HOST = Viewer.host()


class FixedBag:
    """A stand-in rng that hands out the given picks in order, so a test decides which token comes out."""

    def __init__(self, *picks: int):
        self.picks = list(picks)
        self.counter = 0

    def randbelow(self, bound: int, why: str = "") -> int:
        pick = self.picks.pop(0)
        assert 0 <= pick < bound
        self.counter += 1
        return pick


def game(characters=("Freddy", "Bonnie", "Chica", "Foxy"), event_deck=None, draw_table=None, **readings) -> dict:
    """An opening state set up through the same options a host picks."""
    raw = {"characters": list(characters), **readings}
    if event_deck is not None:
        raw["event_deck"] = event_deck
    if draw_table is not None:
        raw["draw_table"] = draw_table
    return opening(SPEC, raw)


def started(state: dict | None = None, first: int = 1) -> dict:
    """Someone ate pizza: their turn begins with items placed."""
    state = R.play(state or game(), None, type="first-player", whose=first)
    return R.play(state, first, type="place-items")


def scary(state: dict, seat: int, space: int) -> dict:
    """Put a character's token on `space`, scary side up (as items spent would)."""
    state = copy.deepcopy(state)
    state["scare_track"][str(seat)] = {"space": space, "scary": True}
    return state


def seen(state: dict, seat: int | None = None) -> dict:
    return rules.view(state, HOST if seat is None else Viewer.of_seat(seat))


def offered(state: dict, seat: int | None, kind: str) -> list[dict]:
    return [offer for offer in rules.legal_actions(state, seat) if offer["type"] == kind]


# ---- setup ----------------------------------------------------------------------------------------------------------

def test_what_does_setup_put_on_the_table():
    """Setup 5-9: 19 Miss + 1 Guard in the bag, a Guard and an Action token aside, tokens on 0 X side up."""
    state = game()
    assert state["bag"] == {"Miss": 19, "Guard": 1} and state["action_token_aside"]
    assert seen(state)["guards_aside"] == 1 and seen(state)["bag_note"] == "second Guard set aside"
    assert state["characters"] == {"1": "Freddy", "2": "Bonnie", "3": "Chica", "4": "Foxy"}
    assert all(token == {"space": 0, "scary": False} for token in state["scare_track"].values())
    assert state["action_tokens"] == 4 and state["turn"] is None
    assert state["event_deck"] == 12 and state["draw_table"] == list(range(1, 11))
    assert state["readings"] == {"past_ten": "stop", "left": "seat-order"}


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


@pytest.mark.parametrize("key,value", [("past_ten", "bounce"), ("past_ten", 10), ("left", "right"), ("left", None)])
def test_is_an_unknown_reading_refused_with_a_sentence(key, value):
    with pytest.raises(OptionError) as caught:
        SPEC.configure({key: value})
    assert str(caught.value).startswith(SPEC.option(key).label) and "must be one of" in str(caught.value)


def test_are_the_readings_setup_options_labelled_assumed_with_the_rulebook_sentence():
    """Each loose rule is an option that says it is our reading and quotes the sentence it reads."""
    past_ten, left = SPEC.option("past_ten"), SPEC.option("left")
    assert past_ten.source == left.source == "assumed"
    assert "move it one, two, or three spaces up the Scare Tracker" in past_ten.help
    assert "passing an Action token to the player on your left" in left.help
    assert (past_ten.default, left.default) == ("stop", "seat-order")
    for key, words in (("past_ten", "past_ten"), ("left", "left"), ("draw_table", "draw_table"),
                       ("event_deck", "event_deck")):
        assert f"`{words}`" in rules.__doc__, key  # the rules module lists every reading


def test_does_a_table_stored_before_the_readings_still_load_and_play():
    """A state saved before readings were options (and before the order was kept) plays with the defaults."""
    old = started()
    for key in ("readings", "order"):
        del old[key]
    old["guard_aside"] = True
    shown = seen(old)
    assert shown["readings"]["past_ten"]["value"] == "stop" and shown["order"] == [1, 2, 3, 4]
    assert shown["guards_aside"] == 1 and "guard_aside" not in shown
    after, texts = R.texts(scary(old, 1, 9), 1, type="spend", steps=3)
    assert after["scare_track"]["1"]["space"] == 10 and "stops at 10" in texts[0]
    assert R.play(old, 1, type="end-turn")["turn"] == 2


# ---- turns ----------------------------------------------------------------------------------------------------------

def test_who_most_recently_ate_pizza_takes_the_first_turn_with_four_tokens():
    state, texts = R.texts(game(), None, type="first-player", whose=3)
    assert state["turn"] == 3 and state["actions_left"] == 4 and not state["items_placed"]
    assert "Chica most recently ate pizza" in texts[0] and "4 Action tokens" in texts[0]


def test_may_a_phone_claim_only_itself_as_first_player():
    state = game()
    assert R.play(state, 2, type="first-player")["turn"] == 2
    R.refused(state, 2, "only that you ate pizza", type="first-player", whose=1)
    R.refused(state, None, "Say who most recently ate pizza", type="first-player")
    R.refused(state, None, "Say who goes first by seat number", type="first-player", whose="2")
    R.refused(started(), None, "first turn has been taken", type="first-player", whose=2)
    R.refused(started(), None, "first turn has been taken", type="first-player", whose="1")


def test_is_acting_on_another_players_turn_refused():
    state = scary(started(), 2, 5)
    for action in ({"type": "spend", "steps": 1}, {"type": "take-action", "what": "move"},
                   {"type": "capture", "room": 1, "event": "other"}, {"type": "end-turn"}, {"type": "draw"}):
        R.refused(state, 2, "It's Freddy's turn", **action)
    R.refused(game(), 1, "First say who most recently ate pizza", type="spend", steps=1)


def test_does_each_action_use_one_token_and_none_are_left_after_four():
    state = started()
    for what in ("move", "pick-up", "play-card", "move"):
        state = R.play(state, 1, type="take-action", what=what)
    assert state["actions_left"] == 0 and state["hands"]["1"] == 3 and state["action_discard"] == 1
    R.refused(state, 1, "no Action tokens left this turn, so can't move; pass the turn to Bonnie", type="take-action",
              what="move")
    R.refused(scary(state, 1, 4), 1, "no Action tokens left", type="capture", room=1, event="other")


def test_is_playing_a_card_refused_with_an_empty_hand():
    state = started()
    state["hands"]["1"] = 0
    R.refused(state, 1, "no Action cards in hand", type="take-action", what="play-card")
    assert all(offer["what"] != "play-card" for offer in offered(state, 1, "take-action"))


def test_does_the_turn_pass_to_the_left_in_seat_order_and_wrap_around():
    state = started(game(["Freddy", "Chica", "Foxy"], event_deck=9), first=3)
    state = R.play(state, 3, type="take-action", what="move")
    state, texts = R.texts(state, 3, type="end-turn")
    assert state["turn"] == 1 and state["actions_left"] == 4 and not state["items_placed"]
    assert "3 Action tokens unused" in texts[0] and "Freddy takes 4 Action tokens" in texts[0]
    assert R.play(state, None, type="end-turn")["turn"] == 2


def test_may_the_turn_pass_to_whoever_really_sits_on_the_left():
    """'passing an Action token to the player on your left': the app can't see the seating, so a turn may pass to
    another player, who then stays on that player's left for the rest of the night."""
    state = started()  # Freddy, Bonnie, Chica, Foxy in seat order; Foxy really sits on Freddy's left
    assert {"type": "end-turn", "whose": 4} in rules.legal_actions(state, 1)
    assert {"type": "end-turn", "whose": 2} not in rules.legal_actions(state, 1)  # the plain button does that
    R.refused(state, 1, "can't pass the turn to themselves", type="end-turn", whose=1)
    R.refused(state, 1, "There is no seat 9", type="end-turn", whose=9)
    R.refused(state, 1, "by seat number", type="end-turn", whose="4")
    R.refused(state, 1, "by seat number", type="end-turn", whose=True)
    state, texts = R.texts(state, 1, type="end-turn", whose=4)
    assert state["turn"] == 4 and state["order"] == [1, 4, 2, 3] and "Foxy takes 4 Action tokens" in texts[0]
    assert seen(state)["next_name"] == "Bonnie"
    for expected in (2, 3, 1, 4):  # the corrected order holds from then on
        state = R.play(state, None, type="end-turn")
        assert state["turn"] == expected
    assert R.play(state, 4, type="end-turn", whose=2)["order"] == [1, 4, 2, 3]  # already next: nothing to remember


def test_with_the_ask_reading_every_pass_names_who_sits_on_the_left():
    """The 'ask' reading of 'the player on your left' assumes no seating: each pass says who, and nothing is kept."""
    state = started(game(left="ask"))
    assert seen(state)["next_name"] is None and seen(state)["readings"]["left"]["short"] == "asked at every pass"
    assert offered(state, 1, "end-turn") == [{"type": "end-turn", "whose": seat} for seat in (2, 3, 4)]
    R.refused(state, 1, "Say who sits on your left", type="end-turn")
    after = R.play(state, 1, type="end-turn", whose=3)
    assert after["turn"] == 3 and after["order"] == state["order"]
    spent = copy.deepcopy(state)
    spent["actions_left"] = 0
    R.refused(spent, 1, "pass the turn to the player on your left", type="take-action", what="move")


def test_does_the_host_screen_play_for_whoever_has_the_turn():
    state, texts = R.texts(started(), None, type="spend", steps=2)
    assert state["scare_track"]["1"] == {"space": 2, "scary": True}
    assert texts[0].startswith("for Freddy, spent items")


# ---- place two items, and party time ------------------------------------------------------------------------------

def test_does_forgetting_to_place_items_open_party_time_for_another_player():
    """'If you forget this step by going to Step 2, the first other player to shout "party time!" draws an Item.'"""
    state = R.play(game(), None, type="first-player", whose=1)
    R.refused(state, 2, "took an action before placing", type="party-time")
    state, texts = R.texts(state, 1, type="take-action", what="move")
    assert state["forgot_items"] and "party time!" in texts[0]
    R.refused(state, 1, "Only another player", type="party-time")
    R.refused(state, None, "Say who shouted", type="party-time")
    R.refused(state, 2, "only for yourself", type="party-time", whose=3)
    state, texts = R.texts(state, 3, type="party-time")
    assert state["party_called"] == 3 and "Chica shouted" in texts[0]
    R.refused(state, 2, "Chica already shouted", type="party-time")
    state = R.play(state, 1, type="place-items")  # 'Then place two Item tokens on the board as normal'
    assert state["items_placed"]
    R.refused(state, 1, "already placed two items", type="place-items")
    assert R.play(state, 1, type="end-turn")["party_called"] is None


def test_does_placing_the_items_close_party_time():
    """'the first other player to shout "party time!" draws an Item token. Then place two Item tokens on the board as
    normal': the shout comes before the items, so once they are placed nobody can shout any more."""
    state = R.play(R.play(game(), None, type="first-player", whose=1), 1, type="take-action", what="move")
    assert seen(state, 2)["party_open"] and offered(state, 2, "party-time") == [{"type": "party-time", "whose": 2}]
    state = R.play(state, 1, type="place-items")
    assert not seen(state, 2)["party_open"]
    assert not offered(state, None, "party-time")
    R.refused(state, 2, "Too late", type="party-time")


def test_does_spending_items_not_count_as_forgetting():
    """Spending items is 'Any time on your turn' and needs no Action token: it is not Step 2."""
    state = R.play(R.play(game(), None, type="first-player", whose=1), 1, type="spend", steps=1)
    assert not state["forgot_items"]


# ---- the Scare Tracker ------------------------------------------------------------------------------------------

def test_does_spending_items_move_up_and_flip_to_scary():
    """'Flip your Character token to the scary side and move it one, two, or three spaces up.'"""
    state, texts = R.texts(started(), 1, type="spend", steps=3)
    assert state["scare_track"]["1"] == {"space": 3, "scary": True}
    assert state["actions_left"] == 4  # 'This doesn't require an Action token!'
    assert texts[0] == "spent items: Scare Tracker 0 → 3, flipped to the scary side."
    state = R.play(state, 1, type="spend", steps=2)  # 'you may spend items multiple times in a row'
    assert state["scare_track"]["1"]["space"] == 5


@pytest.mark.parametrize("steps,message", [(0, "1, 2 or 3"), (4, "1, 2 or 3"), (-1, "1, 2 or 3"),
                                           (True, "how many spaces"), ("2", "how many spaces"),
                                           (None, "how many spaces"), (2.0, "how many spaces")])
@pytest.mark.parametrize("past_ten", ["stop", "refuse"])
def test_are_bad_scare_steps_refused(steps, message, past_ten):
    R.refused(started(game(past_ten=past_ten)), 1, message, type="spend", steps=steps)


def test_does_a_spend_past_ten_stop_at_ten_and_say_so():
    """The default reading: the tracker ends at 10, so a spend of more spaces than are left stops on 10."""
    state = scary(started(), 1, 9)
    assert seen(state)["readings"]["past_ten"]["text"] == "A spend that would pass 10 stops at 10."
    after, texts = R.texts(state, 1, type="spend", steps=3)
    assert after["scare_track"]["1"] == {"space": 10, "scary": True}
    assert texts[0] == ("spent items: Scare Tracker 9 → 10 (stops at 10, the top of the Scare Tracker: 3 spaces "
                        "would have passed it).")
    assert R.texts(state, 1, type="spend", steps=1)[1][0] == "spent items: Scare Tracker 9 → 10."
    R.refused(after, 1, "is on 10, the top of the Scare Tracker", type="spend", steps=1)
    assert not offered(after, 1, "spend") and offered(state, 1, "spend")


def test_does_the_refuse_reading_refuse_a_spend_past_ten():
    """The other reading: a spend that would pass 10 is refused, and only the spaces left are offered."""
    state = scary(started(game(past_ten="refuse")), 1, 9)
    R.refused(state, 1, "is on 9: 2 more would move past 10", type="spend", steps=2)
    assert R.play(state, 1, type="spend", steps=1)["scare_track"]["1"]["space"] == 10
    assert seen(state)["readings"]["past_ten"]["short"] == "never past 10"
    R.refused(scary(state, 1, 10), 1, "is on 10", type="spend", steps=1)
    assert not offered(scary(state, 1, 10), 1, "spend")


def test_does_a_missed_capture_flip_the_token_to_x():
    """'Flip your Character token to the X side. You can't try to capture again until you get scarier.'"""
    state = R.play(scary(started(), 1, 4), 1, type="capture", room=1, event="other")
    state, texts = R.texts(state, 1, type="draw", guards=0)
    assert state["scare_track"]["1"] == {"space": 4, "scary": False}
    assert "flips to X" in texts[0]
    R.refused(state, 1, "shows the X side", type="capture", room=1, event="other")
    state = R.play(state, 1, type="spend", steps=1)
    assert R.play(state, 1, type="capture", room=2, event="other")["capture"]["count"] == 5


def test_does_a_token_on_ten_stay_scary_and_try_again_in_a_row():
    """'When you reach 10 ... you no longer flip your Character token to the X side.'"""
    state = R.play(scary(started(), 1, 10), 1, type="capture", room=1, event="other")
    state, texts = R.texts(state, 1, type="draw", guards=0)
    assert state["scare_track"]["1"] == {"space": 10, "scary": True} and "stays scary" in texts[0]
    state = R.play(state, 1, type="capture", room=1, event="other")
    assert state["capture"]["count"] == 10 and state["actions_left"] == 2


# ---- trying to capture --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("room,message", [(3, "only from Room 1 or 2"), (0, "only from Room 1 or 2"),
                                          ("1", "as a number"), (True, "as a number"), (None, "as a number")])
def test_is_a_capture_outside_room_one_or_two_refused(room, message):
    R.refused(scary(started(), 1, 3), 1, message, type="capture", room=room, event="other")


@pytest.mark.parametrize("event", ["GUARD", "", 3, None, "draw"])
def test_is_an_unknown_event_refused(event):
    R.refused(scary(started(), 1, 3), 1, "Say what the Event card says", type="capture", room=1, event=event)


def test_is_capturing_from_the_x_side_refused():
    R.refused(started(), 1, "shows the X side", type="capture", room=1, event="other")


def test_does_a_capture_spend_a_token_flip_an_event_and_wait_for_the_draw():
    state = scary(started(), 1, 3)
    state, texts = R.texts(state, 1, type="capture", room=2, event="steal")
    assert state["actions_left"] == 3 and state["event_deck"] == 11 and state["events_flipped"] == ["steal"]
    assert state["capture"] == {"seat": 1, "room": 2, "space": 3, "count": 3, "event": "steal"}
    assert "STEAL AN ITEM (done on the board)" in texts[0] and "(15% to find a Guard)" in texts[0]
    for action in ({"type": "spend", "steps": 1}, {"type": "end-turn"}, {"type": "place-items"},
                   {"type": "capture", "room": 1, "event": "other"}):
        R.refused(state, 1, "draw from the bag first", **action)
    R.refused(state, None, "Finish the draw", type="draw-table", values=list(range(1, 11)))
    R.refused(state, None, "Finish the draw from the bag before correcting the bag", type="bag", miss=18, guards=1)


def test_is_a_draw_without_a_capture_refused():
    R.refused(started(), 1, "try to capture first", type="draw")


# ---- the bag after each card's effect -------------------------------------------------------------------------------

def test_does_plus_one_guard_add_the_second_guard_once():
    """'+1 GUARD TOKEN: Take the Guard token you set aside ... and add it to the bag.'"""
    state = R.play(scary(started(), 1, 5), 1, type="capture", room=1, event="guard")
    assert state["bag"] == {"Miss": 19, "Guard": 2} and seen(state)["guards_aside"] == 0
    state = R.play(state, 1, type="draw", guards=0)
    assert state["bag"] == {"Miss": 19, "Guard": 2}  # 'return all the tokens to the bag'
    R.refused(scary(state, 1, 5), 1, "already in the bag", type="capture", room=1, event="guard")


def test_does_minus_two_miss_remove_two_each_time_until_fewer_than_two_remain():
    """'-2 MISS TOKENS: Remove two Miss tokens from the bag and return them to the game box.'"""
    state = scary(started(), 1, 1)
    state = R.play(state, 1, type="capture", room=1, event="miss")
    assert state["bag"] == {"Miss": 17, "Guard": 1}
    state = R.play(state, 1, type="draw", guards=0)
    state["bag"]["Miss"] = 3
    state = R.play(scary(state, 1, 1), 1, type="capture", room=1, event="miss")
    assert state["bag"] == {"Miss": 1, "Guard": 1}
    state = R.play(state, 1, type="draw", guards=0)
    R.refused(scary(state, 1, 1), 1, "only 1 Miss token", type="capture", room=1, event="miss")
    state["bag"]["Miss"] = 0
    R.refused(scary(state, 1, 1), 1, "no Miss tokens", type="capture", room=1, event="miss")


def test_does_plus_one_action_give_five_tokens_from_this_turn_on():
    """'From now on, players may take up to five actions per turn, including the current turn.'"""
    state = R.play(scary(started(), 1, 1), 1, type="capture", room=1, event="action")
    assert state["action_tokens"] == 5 and state["actions_left"] == 4 and not state["action_token_aside"]
    assert state["bag"] == {"Miss": 19, "Guard": 1}
    state = R.play(R.play(state, 1, type="draw", guards=0), 1, type="end-turn")
    assert state["turn"] == 2 and state["actions_left"] == 5
    R.refused(scary(state, 2, 1), 2, "already in play", type="capture", room=1, event="action")


def brute_force(bag: dict, draws: int) -> Fraction:
    """Enumerate every set of `draws` distinct tokens from the bag's true contents; count those holding a Guard."""
    tokens = ["Guard"] * bag["Guard"] + ["Miss"] * bag["Miss"]
    hands = list(itertools.combinations(range(len(tokens)), draws))
    return Fraction(sum(1 for hand in hands if any(tokens[index] == "Guard" for index in hand)), len(hands))


def odds_match_a_brute_force_count(state: dict) -> None:
    """Every space's odds on the host screen and each phone's own odds agree with enumerating the draws."""
    shown = seen(state)
    for row in shown["odds_table"]:
        if row["draws"] > shown["bag_total"]:
            assert row["percent"] == "—"
            continue
        chance = brute_force(state["bag"], row["draws"])
        assert row["fraction"] == (str(chance) if chance in (0, 1) else f"{chance.numerator}/{chance.denominator}")
        assert row["percent"] == percent(chance)
    for seat in state["seats"]:
        mine = seen(state, seat)["me"]
        if mine["odds"] is not None:
            assert Fraction(mine["odds"]["fraction"]) == brute_force(state["bag"], mine["odds"]["draws"])


@pytest.mark.parametrize("card,bag,tokens", [("guard", {"Miss": 19, "Guard": 2}, 4),
                                             ("miss", {"Miss": 17, "Guard": 1}, 4),
                                             ("action", {"Miss": 19, "Guard": 1}, 5),
                                             ("other", {"Miss": 19, "Guard": 1}, 4)])
def test_can_an_action_card_carry_each_of_the_three_effects(card, bag, tokens):
    """'Action & Event Cards' lists +1 ACTION TOKEN, +1 GUARD TOKEN and -2 MISS TOKENS for both kinds of card."""
    state = scary(started(), 1, 3)
    after, texts = R.texts(state, 1, type="take-action", what="play-card", card=card)
    assert after["bag"] == bag and after["action_tokens"] == tokens
    assert after["actions_left"] == (4 if card == "action" else 3)  # 'including the current turn'
    assert after["hands"]["1"] == 3 and after["action_discard"] == 1 and after["event_deck"] == 12
    label = rules.TRACKED.get(card, "")
    assert texts[0].startswith(f"took an action: PLAY A CARD{', ' + label if label else ''}")
    odds_match_a_brute_force_count(after)
    if card == "guard":  # 3 draws from 19 Miss + 2 Guards: 1 - C(19,3)/C(21,3)
        assert seen(after, 1)["me"]["odds"] == {"draws": 3, "fraction": "19/70", "percent": "27%"}


def test_is_an_action_cards_effect_refused_when_the_box_has_nothing_to_give():
    state = started()
    state["bag"] = {"Miss": 1, "Guard": 2}
    state["action_token_aside"], state["action_tokens"] = False, 5
    R.refused(state, 1, "already in the bag", type="take-action", what="play-card", card="guard")
    R.refused(state, 1, "only 1 Miss token", type="take-action", what="play-card", card="miss")
    R.refused(state, 1, "already in play", type="take-action", what="play-card", card="action")
    play = next(offer for offer in offered(state, 1, "take-action") if offer["what"] == "play-card")
    assert play == {"type": "take-action", "what": "play-card", "card": "other"}


@pytest.mark.parametrize("move,message", [
    ({"type": "take-action", "what": "move", "card": "guard"}, "MOVE plays no card: only PLAY A CARD"),
    ({"type": "take-action", "what": "pick-up", "card": "other"}, "PICK UP plays no card"),
    ({"type": "capture", "room": 1, "event": "camera"}, "THEN MOVE CAMERA is printed on Action cards only"),
    ({"type": "take-action", "what": "play-card", "card": "camera"}, "THEN MOVE CAMERA happens on the board"),
    ({"type": "take-action", "what": "play-card", "card": "swap"}, "Say what the Action card says: other, action"),
    ({"type": "take-action", "what": "play-card", "card": 1}, "Say what the Action card says"),
])
def test_is_an_effect_on_a_card_type_that_cant_carry_it_refused(move, message):
    R.refused(scary(started(), 1, 3), 1, message, **move)


def test_does_the_host_correct_the_bag_and_the_log_say_so():
    """When the real bag and the app disagree, the host sets the Miss and Guard counts; the odds follow."""
    state = scary(started(), 1, 3)
    after, texts = R.texts(state, None, type="bag", miss=15, guards=2)
    assert after["bag"] == {"Miss": 15, "Guard": 2}
    assert texts == ["corrected the bag: 19 Miss + 1 Guard → 15 Miss + 2 Guards (0 Guard tokens set aside, "
                     "4 Miss tokens in the box)."]
    assert seen(after)["bag_note"] == "both Guard tokens in the bag"
    odds_match_a_brute_force_count(after)
    assert seen(after, 1)["me"]["odds"]["fraction"] == str(brute_force({"Miss": 15, "Guard": 2}, 3))
    R.refused(after, 1, "is for the host screen only", type="bag", miss=19, guards=1)
    R.refused(after, None, "already", type="bag", miss=15, guards=2)
    R.refused(after, None, "already in the bag", type="capture", room=1, event="guard")
    back = R.play(after, None, type="bag", miss=19, guards=1)
    assert seen(back)["guards_aside"] == 1 and seen(back)["bag_note"] == "second Guard set aside"
    assert R.play(scary(back, 1, 3), 1, type="capture", room=1, event="guard")["bag"] == {"Miss": 19, "Guard": 2}


def test_a_corrected_bag_always_holds_a_guard_so_no_capture_shows_0_percent():
    """Issue 46: 'Place all 19 Miss tokens and one Guard token in the bag', and the game ends when 'A player draws
    the Guard token': a bag without a Guard is a state the game never has. The correction keeps 1 or 2 Guards and
    says why; every capture's odds stay above 0%, even from a bag of Guards alone."""
    state = scary(started(), 1, 3)
    sentence = R.refused(state, None, "The bag always holds a Guard", type="bag", miss=19, guards=0)
    assert sentence == ("The bag always holds a Guard: setup puts one in (\"Place all 19 Miss tokens and one Guard "
                        "token in the bag\") and drawing it ends the game, so it holds 1 or 2 Guard tokens, not 0.")
    R.refused(state, None, "The bag always holds a Guard", type="bag", miss=0, guards=0)
    assert {"type": "bag", "miss": 18, "guards": 1} in rules.legal_actions(state, None)
    nearly_all_guards = R.play(state, None, type="bag", miss=1, guards=2)
    assert rules.invariants(nearly_all_guards) == []
    assert all(row["percent"] != "0%" for row in seen(nearly_all_guards)["odds_table"])
    assert seen(nearly_all_guards, 1)["me"]["odds"]["percent"] == "100%"  # 3 drawn from 1 Miss + 2 Guards
    guardless = {**state, "bag": {"Miss": 19, "Guard": 0}}  # what the old correction allowed
    assert rules.invariants(guardless) == ["The bag holds 0 Guards, not 1 or 2."]


@pytest.mark.parametrize("move,message", [
    ({"miss": -1, "guards": 1}, "can't hold fewer than 0 Miss tokens"),
    ({"miss": 20, "guards": 1}, "The box has only 19 Miss tokens, so the bag can't hold 20"),
    ({"miss": 19, "guards": -1}, "The bag always holds a Guard"),
    ({"miss": 19, "guards": 0}, "so it holds 1 or 2 Guard tokens, not 0"),
    ({"miss": 19, "guards": 3}, "The box has only 2 Guard tokens, so the bag can't hold 3"),
    ({"miss": "19", "guards": 1}, "Miss tokens the bag holds as a whole number"),
    ({"miss": 19, "guards": True}, "Guard tokens the bag holds as a whole number"),
    ({"miss": 19}, "Say how many Guard tokens"),
    ({"miss": 19, "guards": 1, "whose": 1}, "doesn't take 'whose'"),
])
def test_is_a_bag_correction_outside_the_box_refused(move, message):
    R.refused(started(), None, message, type="bag", **move)


def test_is_drawing_more_tokens_than_the_bag_holds_refused():
    state = started(game(draw_table=[1, 2, 3, 4, 5, 6, 7, 8, 9, 19]))
    state["bag"]["Miss"] = 17
    R.refused(scary(state, 1, 10), 1, "draws 19 tokens, but the bag would hold only 18", type="capture", room=1,
              event="other")
    R.refused(scary(state, 1, 10), 1, "would hold only 16", type="capture", room=1, event="miss")
    offers = offered(scary(state, 1, 10), 1, "capture")
    assert offers == [{"type": "capture", "room": 1, "event": "guard"}]  # only the second Guard makes room
    state["bag"]["Miss"] = 16
    assert not offered(scary(state, 1, 10), 1, "capture")


@pytest.mark.parametrize("guards,message", [(2, "can't have 2 Guards"), (-1, "fewer than 0"), (True, "as a number"),
                                            ("0", "as a number"), (1.0, "as a number")])
def test_are_impossible_real_draws_refused(guards, message):
    state = R.play(scary(started(), 1, 3), 1, type="capture", room=1, event="other")
    R.refused(state, 1, message, type="draw", guards=guards)


def test_must_a_real_draw_fit_the_tokens_drawn_and_the_miss_left():
    state = R.play(scary(started(), 1, 1), 1, type="capture", room=1, event="guard")
    R.refused(state, 1, "at most 1 of them can be Guards", type="draw", guards=2)
    state = copy.deepcopy(state)
    state["bag"]["Miss"] = 0
    state["capture"]["count"] = 2
    R.refused(state, 1, "only 0 Miss tokens", type="draw", guards=1)
    assert {"type": "draw", "guards": 2} in offered(state, 1, "draw")  # the only draw such a bag can give


def test_does_the_app_draw_from_the_true_contents_one_token_at_a_time():
    state = R.play(scary(started(), 1, 3), 1, type="capture", room=1, event="other")
    rng = TableDice(SEED, 0, "Ann")
    after, _ = R.act(state, 1, rng, type="draw")
    assert len(rng.records) == 3 and [record["bound"] for record in rng.records] == [20, 19, 18]
    assert len(after["last_draw"]["tokens"]) == 3 and after["last_draw"]["source"] == "app"
    again = TableDice(SEED, 0, "Ann")
    assert R.act(state, 1, again, type="draw")[0] == after  # the same seed gives the same draw


def test_does_drawing_the_guard_win_and_end_the_game():
    """'If you draw a Guard token, you capture the guard. The game is over and you win!'"""
    state = R.play(scary(started(), 1, 2), 1, type="capture", room=1, event="other")
    after, texts = R.texts(state, 1, FixedBag(5, 0), type="draw")  # a Miss, then the Guard (Guards come first)
    assert after["last_draw"]["tokens"] == ["Miss", "Guard"] and after["winner"] == 1
    assert texts[0] == "drew 2 tokens: Miss, Guard — the Guard!"
    ended = rules.outcome(after)
    assert ended.winners == (1,) and "Freddy wins!" in ended.text
    R.refused(after, 2, "The night is over", type="end-turn")
    R.refused(after, None, "The night is over", type="bag", miss=18, guards=1)
    assert seen(after)["turn"] == {"seats": [], "text": ended.text}


def test_does_an_empty_event_deck_after_a_capture_attempt_lose_for_everyone():
    """'After a player tries to capture the guard, if there are no more Event cards in the deck, the guard escapes.'"""
    state = started(game(["Bonnie", "Chica"], event_deck=1))
    state = R.play(scary(state, 1, 4), 1, type="capture", room=1, event="other")
    assert state["event_deck"] == 0 and rules.outcome(state) is None  # the draw still comes first
    state = R.play(state, 1, type="draw", guards=0)
    ended = rules.outcome(state)
    assert ended.winners == () and "the guard escapes" in ended.text


def test_does_a_guard_on_the_last_event_still_win():
    state = started(game(["Bonnie", "Chica"], event_deck=1))
    state = R.play(R.play(scary(state, 1, 4), 1, type="capture", room=1, event="other"), 1, type="draw", guards=1)
    assert rules.outcome(state).winners == (1,)


def test_does_a_missed_capture_draw_action_cards_back_to_three():
    """'Draw Action cards from the deck until you have three. If the deck is empty, shuffle the discard pile.'"""
    state = started(first=2)
    state = R.play(R.play(state, 2, type="take-action", what="play-card"), 2, type="take-action", what="play-card")
    assert state["hands"]["2"] == 1 and state["action_discard"] == 2
    state["hands"]["3"] = state["hands"]["4"] = 1
    state["action_deck"], state["action_discard"] = 1, 10  # 4 + 1 + 1 + 1 in hands: all 18 cards accounted for
    state = R.play(scary(state, 2, 2), 2, type="capture", room=1, event="other")
    state, texts = R.texts(state, 2, type="draw", guards=0)
    assert state["hands"]["2"] == 3 and state["action_deck"] == 9 and state["action_discard"] == 0
    assert "draws 2 Action cards back to 3 (the discard pile shuffled into a new deck)" in texts[0]
    freddy = R.play(R.play(scary(started(), 1, 2), 1, type="capture", room=1, event="other"), 1, type="draw", guards=0)
    assert freddy["hands"]["1"] == 4  # he already holds more than three


# ---- the odds ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("miss,guards", [(19, 1), (19, 2), (17, 1), (15, 2), (3, 1), (0, 1), (5, 0)])
def test_do_capture_odds_match_a_brute_force_count(miss, guards):
    for draws in range(0, min(10, miss + guards) + 1):
        assert capture_chance(miss, guards, draws) == brute_force({"Miss": miss, "Guard": guards}, draws)


def test_are_the_rulebook_bag_odds_said_in_whole_percent():
    assert capture_chance(19, 1, 3) == Fraction(3, 20) and percent(Fraction(3, 20)) == "15%"
    assert capture_chance(19, 2, 3) == 1 - Fraction(19 * 18 * 17, 21 * 20 * 19)
    with pytest.raises(ValueError):
        capture_chance(2, 1, 4)


def test_does_a_phone_see_its_odds_now_and_one_step_higher():
    state = scary(started(), 2, 3)
    mine = seen(state, 2)["me"]
    assert mine["odds"] == {"draws": 3, "fraction": "3/20", "percent": "15%"}
    assert mine["higher_space"] == 4 and mine["higher_odds"]["percent"] == "20%"
    assert not offered(state, 2, "capture")  # it is Freddy's turn
    assert seen(game(), 1)["me"]["odds"] is None  # space 0: no capture yet
    top = seen(scary(state, 2, 10), 2)["me"]
    assert top["higher_space"] is None and top["odds"]["percent"] == "50%"
    assert seen(state)["me"] is None and rules.view(state, Viewer.spectator())["me"] is None


def test_is_the_event_deck_marked_assumed_only_with_fewer_than_four_players():
    """All 12 Event cards with four players is printed; with fewer the host counted the deck (assumed)."""
    assert not seen(game())["event_deck_assumed"]
    assert seen(game(["Bonnie", "Foxy"], event_deck=7))["event_deck_assumed"]
    assert seen(game(["Freddy", "Bonnie", "Foxy"], event_deck=10))["event_deck_assumed"]


def test_does_a_phone_say_when_the_bag_is_too_small_for_its_space():
    """No odds can mean space 0 or a bag smaller than the draw: the phone must say which."""
    state = scary(started(game(draw_table=[1, 2, 3, 4, 5, 6, 7, 8, 9, 20])), 1, 10)
    state["bag"]["Miss"] = 17
    mine = seen(state, 1)["me"]
    assert mine["odds"] is None and mine["too_few"] and mine["draws"] == 20
    assert not seen(game(), 1)["me"]["too_few"]


def test_do_the_tracker_pieces_tell_freddy_from_foxy():
    initials = [row["initials"] for row in seen(game())["players"]]
    assert initials == ["Fr", "Bo", "Ch", "Fo"] and len(set(initials)) == 4


def test_does_the_host_see_the_event_cards_left_and_odds_per_space():
    shown = seen(R.play(scary(started(), 1, 3), 1, type="capture", room=1, event="guard"))
    assert shown["event_deck"] == 11 and shown["bag_text"] == "19 Miss + 2 Guards"
    assert [row["draws"] for row in shown["odds_table"]] == list(range(1, 11))
    assert shown["odds_table"][0]["percent"] == "10%"  # 2 of 21
    assert shown["capture_odds"]["fraction"] == str(capture_chance(19, 2, 3))
    assert shown["turn"] == {"seats": [1], "text": "Freddy draws 3 tokens from the bag."}
    assert shown["board_check"][0] == "Guard bag: 19 Miss + 2 Guards; 0 Guard tokens set aside."


def test_does_the_draw_table_set_how_many_tokens_a_space_draws():
    state = started(game(draw_table=[2, 2, 4, 4, 6, 6, 8, 8, 10, 10]))
    assert R.play(scary(state, 1, 3), 1, type="capture", room=1, event="other")["capture"]["count"] == 4
    state, texts = R.texts(state, None, type="draw-table", values=[1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert state["draw_table"] == [1] * 10 and "set the draw table" in texts[0]
    R.refused(state, 1, "for the host screen only", type="draw-table", values=[2] * 10)
    R.refused(state, None, "already", type="draw-table", values=[1] * 10)
    R.refused(state, None, "Give 10 numbers", type="draw-table", values=[1, 2])
    R.refused(state, None, "Give 10 numbers", type="draw-table", values=[1] * 11)
    R.refused(state, None, "Give 10 numbers", type="draw-table", values="1,2,3")
    R.refused(state, None, "from 1 to 20", type="draw-table", values=[0] + [1] * 9)
    R.refused(state, None, "whole number", type="draw-table", values=[True] + [1] * 9)


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
    R.refused(scary(started(), 1, 3), 1, message, **action)


@pytest.mark.parametrize("seat", [0, 5, True, "1", 1.0])
def test_is_a_seat_not_at_the_table_refused(seat):
    R.refused(started(), seat, "There is no seat", type="end-turn")


# ---- what the screens offer ----------------------------------------------------------------------------------------

def test_does_the_ui_offer_only_what_fits():
    state = started()
    kinds = {offer["type"] for offer in rules.legal_actions(state, 1)}
    assert "capture" not in kinds and "place-items" not in kinds and "end-turn" in kinds
    assert rules.legal_actions(state, 2) == []
    assert rules.legal_actions(game(), 3) == [{"type": "first-player", "whose": 3}]
    pending = R.play(scary(state, 1, 4), 1, type="capture", room=1, event="other")
    assert rules.legal_actions(pending, 1) == [{"type": "draw"}, {"type": "draw", "guards": 0}]
    assert {offer["type"] for offer in rules.legal_actions(state, None)} >= {"draw-table", "bag", "end-turn"}


def check_invariants(state: dict) -> None:
    """What holds at any moment of any night: the box's tokens and cards are all somewhere, the tracker in range."""
    assert 0 <= state["bag"]["Miss"] <= 19 and 0 <= state["bag"]["Guard"] <= 2
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
@pytest.mark.parametrize("seed", range(3))
def test_does_every_night_keep_the_box_whole_and_never_stall(seed, players):
    """Random nights of every size and reading: the invariants hold after each move, and the turn can always go on."""
    chooser = random.Random(seed * 10 + players)
    characters = chooser.sample(["Freddy", "Bonnie", "Chica", "Foxy"], players)
    deck = 12 if players == 4 else chooser.randint(1, 11)
    table = None if seed % 2 else sorted(chooser.randint(1, 12) for _ in range(10))
    state = game(characters, event_deck=deck, draw_table=table, past_ten=chooser.choice(["stop", "refuse"]),
                 left=chooser.choice(["seat-order", "ask"]))
    rng = TableDice(f"{seed:02d}" * 32, 0, "someone")
    for _ in range(3000):
        if rules.outcome(state) is not None:
            break
        seat = chooser.choice([None, *state["seats"]])
        offers = [offer for offer in rules.legal_actions(state, seat) if offer["type"] not in ("draw-table", "bag")]
        if not offers:
            continue
        captures = [offer for offer in offers if offer["type"] in ("capture", "draw", "spend")]
        offer = chooser.choice(captures if captures and chooser.random() < 0.7 else offers)
        before = dumped(state)
        state, events = rules.apply(state, {**offer, "seat": seat}, rng)
        assert events and all(event.text for event in events) and dumped(state) != before
        check_invariants(state)
        if rules.outcome(state) is None and state["turn"] is not None:  # no softlock: the turn can always go on
            kinds = {offer["type"] for offer in rules.legal_actions(state, state["turn"])}
            assert ("draw" in kinds) if state["capture"] else ("end-turn" in kinds)
    ended = rules.outcome(state)
    assert ended is not None
    if state["winner"] is not None:
        assert ended.winners == (state["winner"],) and state["last_draw"]["captured"]
    else:
        assert state["escaped"] and ended.winners == () and state["event_deck"] == 0
