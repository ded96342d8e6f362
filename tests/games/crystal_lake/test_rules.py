"""Camp Crystal Lake's rules without Flask: turns, Jason attacks, Escape tokens, the Bravery track, five nights."""

import json
import random
from fractions import Fraction

import pytest

from app.games import REGISTRY
from app.games.contract import Viewer
from app.games.crystal_lake import rules
from app.games.crystal_lake.scoring import SUPPLIES
from app.games.words import percent

from ..rules_helpers import RulesUnderTest, opening

SPEC = REGISTRY["crystal-lake"]
BOX = {"pan": 14, "flashlight": 12, "gasoline": 11, "cleaver": 10, "car_keys": 7, "axe": 5, "jason": 8}  # a test box


RULES = RulesUnderTest(rules)  # the shared helpers: act, refused (state, seat, **move) as in every game's tests
act = RULES.act


def table(players: int = 3, mode: str = "advanced", first: int = 1, critical_set: str = "board", **readings) -> dict:
    """A new table's state, set up through the same checks a host's setup form goes through."""
    return opening(SPEC, {"players": players, "mode": mode, "first_player": first, "critical_set": critical_set,
                          **readings})


def play(state: dict, *moves: tuple) -> dict:
    """Apply (seat, {move}) pairs in order; each must be legal."""
    for seat, move in moves:
        state = RULES.play(state, seat, **move)
    return state


def refused(state: dict, seat: int | None, message: str, **move) -> str:
    """Refused with a sentence containing `message` (a whole sentence), and the state byte-identical."""
    sentence = RULES.refused(state, seat, message, **move)
    assert sentence.endswith((".", ")")), sentence
    return sentence


def card(state: dict, points: int = 5, **supplies) -> dict:
    return play(state, (None, {"type": "critical", "points": points, **(supplies or {"pan": 1})}))


def search(seat: int, supply: str, **extra) -> tuple:
    return seat, {"type": "search", "supply": supply, **extra}


def back(seat: int) -> tuple:
    return seat, {"type": "return"}


def drop(seat: int, **extra) -> tuple:
    return seat, {"type": "drop-off", **extra}


# ---- setup ---------------------------------------------------------------------------------------------------------

def test_a_new_game_starts_on_night_1_with_four_jason_tokens_on_the_night_track():
    state = table(4, first=3)
    assert state["night"] == 1 and state["phase"] == "night" and state["turn"] == 3
    assert rules.jason_waiting(state) == 4
    assert all(player["fear_cards"] == 5 for player in state["players"].values())  # "Deal five Fear Cards"
    assert json.loads(json.dumps(state)) == state


def test_two_players_may_practise_and_seven_are_refused():
    assert table(2)["seats"] == [1, 2]
    with pytest.raises(Exception, match="from 2 to 6"):
        SPEC.configure({"players": 7})


# ---- turns ---------------------------------------------------------------------------------------------------------

def test_turns_go_round_by_seat_number_from_the_first_player():
    state = table(3, first=2)
    state = play(state, search(2, "pan"), search(3, "axe"))
    assert state["turn"] == 1
    refused(state, 2, "It's Counselor 1's turn", type="search", supply="pan")


def test_a_returned_player_is_skipped_and_takes_no_more_turns():
    """'After Returning to the Cabin, a player is not allowed to ... (take any more turns) until the next night'."""
    state = card(table(3))
    state = play(state, back(1), search(2, "pan"))
    assert state["turn"] == 3
    state = play(state, search(3, "pan"))
    assert state["turn"] == 2  # seat 1 is skipped
    refused(state, 1, "back at the Cabin", type="search", supply="axe")
    refused(state, 1, "back at the Cabin", type="defense")


def test_a_returned_player_cant_be_the_target_of_a_fear_card():
    state = card(table(3))
    state = play(state, back(1))
    refused(state, 2, "can't be the target", type="fear", target=1)
    refused(state, None, "back at the Cabin", type="set-board", whose=1, pan=1)
    state = play(state, (2, {"type": "fear", "target": 3}))
    assert state["players"]["2"]["fear_cards"] == 4 and state["turn"] == 3


def test_defense_fear_cards_are_played_out_of_turn_and_not_in_a_basic_game():
    state = table(3)
    state = play(state, (2, {"type": "defense"}))
    assert state["players"]["2"]["fear_cards"] == 4 and state["turn"] == 1  # not an action: the turn stays
    refused(state, 1, "out of turn", type="defense")
    refused(table(3, mode="basic"), 2, "basic game", type="defense")


def test_the_host_acts_for_any_seat_and_a_phone_only_for_its_own():
    state = table(3)
    state = play(state, (None, {"type": "search", "supply": "axe", "whose": 1}))
    assert state["players"]["1"]["board"]["axe"] == 1
    refused(state, 3, "only the host", type="search", supply="pan", whose=2)
    refused(state, None, "Say which counselor", type="search", supply="pan")
    refused(state, 2, "for the host screen", type="critical", pan=1, points=4)


# ---- Jason ---------------------------------------------------------------------------------------------------------

def test_one_jason_token_is_a_close_call():
    state = play(table(3), search(1, "jason"))
    assert state["players"]["1"]["board"]["jason"] == 1 and not state["players"]["1"]["returned"]


def test_a_second_jason_token_is_an_attack_board_to_the_bag_no_bravery_and_an_escape_token():
    state = card(table(3))
    state = play(state, search(1, "axe"), search(2, "pan"), search(3, "pan"), search(1, "jason"), search(2, "pan"),
                 search(3, "pan"))
    state, events = act(state, 1, type="search", supply="jason")
    player = state["players"]["1"]
    assert player["returned"] and player["board"] == rules.empty_board() and player["escape"]
    assert state["cabin"] == [{"seat": 1, "attacked": True, "bravery": 0, "card": False, "critical": 0, "carried": {}}]
    assert player["fear_cards"] == 5  # no Bravery card
    assert "SECOND JASON ATTACK" in events[0].text and state["turn"] == 2


def test_an_attacked_player_who_holds_an_escape_token_can_use_it_to_dodge():
    """'they may immediately discard their Escape Token to return their first Jason Token to the Camp Bag'."""
    state = table(2)
    state["players"]["1"]["escape"], state["players"]["1"]["escape_night"] = True, None
    state = play(state, search(1, "jason"), search(2, "pan"))
    refused(state, 1, "say 'use'", type="search", supply="jason")
    dodged = play(state, search(1, "jason", escape="use"))
    assert dodged["players"]["1"]["board"]["jason"] == 1 and not dodged["players"]["1"]["escape"]
    assert not dodged["players"]["1"]["returned"]
    attacked = play(state, search(1, "jason", escape="keep"))
    assert attacked["players"]["1"]["returned"] and attacked["players"]["1"]["escape"]  # held one: gains none more
    refused(table(2), 1, "no Second Jason Attack", type="search", supply="jason", escape="use")


def test_an_escape_token_is_used_on_another_night_not_the_night_it_was_gained():
    state = card(table(2))
    state = play(state, search(1, "jason"), search(2, "pan"), search(1, "jason"))  # 1 attacked
    assert state["players"]["1"]["escape_night"] == 1
    state = play(state, search(2, "jason"))
    refused(state, 2, "holds no Escape Token", type="escape")
    state = play(state, back(2), drop(1), drop(2))
    assert state["night"] == 2 and state["turn"] == 2  # the last to return starts the next night
    state = play(state, search(2, "pan"), search(1, "jason"))
    state = play(state, (1, {"type": "escape"}))  # out of turn, not an action
    assert state["players"]["1"]["board"]["jason"] == 0 and not state["players"]["1"]["escape"]
    assert state["turn"] == 2


# ---- the Cabin -----------------------------------------------------------------------------------------------------

def test_the_bravery_bonus_follows_return_order():
    """1st +card, 2nd +card, 3rd 1 point +card, 4th 2 +card, 5th 3 +card, 6th 4 +card."""
    state = card(table(6))
    state = play(state, *(back(seat) for seat in range(1, 7)))
    assert [(entry["seat"], entry["bravery"]) for entry in state["cabin"]] == [(1, 0), (2, 0), (3, 1), (4, 2), (5, 3),
                                                                                (6, 4)]
    assert all(player["fear_cards"] == 6 for player in state["players"].values())
    assert state["phase"] == "drop-off" and state["starter"] == 6


def test_an_attacked_player_takes_a_cabin_space_but_not_its_bonus():
    state = card(table(3))
    state = play(state, search(1, "jason"), back(2), search(3, "pan"), search(1, "jason"), back(3))
    assert [(entry["seat"], entry["attacked"], entry["bravery"]) for entry in state["cabin"]] == [
        (2, False, 0), (1, True, 0), (3, False, 1)]


def test_the_critical_supply_goes_to_the_first_holder_only():
    """'only the first Player to Return to the Cabin with the requisite combination ... earns the bonus points'."""
    state = card(table(3), points=7, pan=1, axe=1)
    state = play(state, search(1, "pan"), search(2, "pan"), search(3, "pan"), search(1, "axe"), search(2, "axe"))
    state = play(state, search(3, "axe"), back(1), back(2))
    assert state["critical"]["claimed_by"] == 1
    assert [entry["critical"] for entry in state["cabin"]] == [7, 0]


def test_returning_without_the_set_claims_nothing_and_a_later_holder_can():
    state = card(table(2), points=4, cleaver=2)
    state = play(state, back(1), search(2, "cleaver"), search(2, "cleaver"), back(2))
    assert state["critical"]["claimed_by"] == 2 and state["cabin"][1]["critical"] == 4




# ---- drop-off and the next night -----------------------------------------------------------------------------------

def test_a_night_scores_bravery_critical_and_the_drop_off_with_its_breakdown():
    state = card(table(3), points=5, pan=1)
    state = play(state, search(1, "pan"), search(2, "cleaver"), search(3, "axe"), search(1, "pan"),
                 search(2, "cleaver"), back(3), search(1, "pan"), back(2), back(1))
    state = play(state, drop(3), drop(2))
    assert state["phase"] == "drop-off"
    state, events = act(state, 1, type="drop-off")
    one = state["players"]["1"]["nights"][0]
    assert (one["bravery"], one["critical"], one["drop_off"], one["total"]) == (1, 5, 3, 9)
    assert one["breakdown"] == ["3 Cast Iron Pans, 3 x 1 = 3", "Total 3"]
    assert [night["total"] for night in (state["players"]["2"]["nights"][0], state["players"]["3"]["nights"][0])] == [
        8, 8]
    assert "9 for Night 1 in all" in events[0].text and "Night 2 begins" in events[1].text
    assert state["turn"] == 1  # the last back to the Cabin goes first


def test_backpack_carries_up_to_two_supplies_to_the_next_night():
    state = card(table(2))
    state = play(state, search(1, "axe"), search(2, "pan"), search(1, "axe"), back(2), search(1, "pan"), back(1))
    state = play(state, drop(1, keep=["axe", "axe"]), drop(2))
    one = state["players"]["1"]
    assert one["backpack"] == ["axe", "axe"] and one["board"] == rules.empty_board()
    assert one["nights"][0]["drop_off"] == 1 and one["nights"][0]["kept"] == ["axe", "axe"]
    assert state["night"] == 2 and state["phase"] == "night"
    # Night 2: the saved Axes join the drop-off; three of a kind with a Cast Iron Pan doubles it
    state = card(state)
    state = play(state, search(1, "axe"), back(2), back(1))
    state = play(state, drop(2), drop(1, keep="nothing"))
    assert state["players"]["1"]["nights"][1]["drop_off"] == 24
    assert state["players"]["1"]["backpack"] == []


def test_the_backpack_choice_shows_what_it_costs_tonight():
    state = card(table(2))
    state = play(state, search(1, "pan"), back(2), search(1, "pan"), search(1, "pan"), search(1, "cleaver"),
                 search(1, "cleaver"), back(1))
    choices = {choice["value"]: choice for choice in rules.view(state, Viewer.of_seat(1))["drop_offs"]["1"]["choices"]}
    assert choices["nothing"]["points"] == 19 and choices["nothing"]["cost"] == 0
    assert choices["cleaver"]["points"] == 3 + 8 and choices["cleaver"]["cost"] == 8
    assert choices["pan"]["points"] == 2 + 8 and choices["pan"]["cost"] == 9  # losing the three of a kind


@pytest.mark.parametrize("keep, message", [
    (["axe", "pan", "pan"], "up to two"), (["chainsaw"], "isn't a Supply"), (["jason"], "Jason token"),
    (["cleaver"], "has 0 Cleavers"), ([3], "list of supplies"),
])
def test_bad_backpack_choices_are_refused(keep, message):
    state = card(table(2))
    state = play(state, search(1, "pan"), back(2), search(1, "pan"), search(1, "axe"), back(1))
    refused(state, 1, message, type="drop-off", keep=keep)


def test_drop_off_comes_only_after_everyone_returns_and_only_once():
    state = card(table(2))
    refused(state, 1, "still on", type="drop-off")
    state = play(state, back(1), back(2), drop(1))
    refused(state, 1, "already dropped off", type="drop-off")


def test_a_new_night_deals_a_fear_card_clears_the_card_and_puts_a_jason_token_in_the_bag():
    state = card(table(2))
    state = play(state, back(1), back(2), drop(1), drop(2))
    assert state["night"] == 2 and rules.jason_waiting(state) == 3
    assert state["critical"] is None and state["cabin"] == []
    assert [player["fear_cards"] for player in state["players"].values()] == [7, 7]  # 5 + Bravery card + night card
    assert state["turn"] == 2


# ---- after night five ----------------------------------------------------------------------------------------------

def rules_order(state: dict) -> list[int]:
    seats = state["seats"]
    start = seats.index(state["turn"])
    return seats[start:] + seats[:start]


def test_after_night_five_backpacks_fear_cards_defense_cards_and_escape_tokens_all_score():
    state = table(2)
    for _ in range(4):
        state = card(state)
        state = play(state, *(back(seat) for seat in rules_order(state)))
        state = play(state, *(drop(seat) for seat in state["seats"]))
    assert state["night"] == 5 and rules.jason_waiting(state) == 0
    state["players"]["1"]["backpack"] = ["axe", "car_keys"]
    state["players"]["1"]["escape"] = True
    state = card(state)
    first = state["turn"]
    state = play(state, search(first, "pan"))
    state = play(state, *(back(seat) for seat in rules_order(state)))
    refused(state, 1, "keep nothing", type="drop-off", keep=["axe"], defense=0)
    refused(state, 1, "Defense Fear Cards", type="drop-off")
    hand = state["players"]["1"]["fear_cards"]
    refused(state, 1, f"at most {hand}", type="drop-off", defense=hand + 1)
    state, _ = act(state, 1, type="drop-off", defense=2)
    night = state["players"]["1"]["nights"][-1]
    supplies = 8 + 6 + (1 if first == 1 else 0)
    assert night["drop_off"] == supplies
    assert night["extras"] == (hand - 2) + 2 * 3 + 3
    assert "1 Escape Token, 1 x 3 = 3" in night["breakdown"]
    assert rules.outcome(state) is None
    state = play(state, drop(2, defense=0))
    over = rules.outcome(state)
    assert state["phase"] == "over" and over is not None
    totals = {seat: rules.total_points(state["players"][str(seat)]) for seat in (1, 2)}
    assert over.winners == tuple(seat for seat in (1, 2) if totals[seat] == max(totals.values()))
    refused(state, 1, "five nights are over", type="search", supply="pan")


def test_a_tie_after_five_nights_is_a_shared_win():
    state = table(2, mode="basic")
    for _ in range(5):
        state = card(state)
        state = play(state, *(back(seat) for seat in rules_order(state)))
        state = play(state, *(drop(seat) for seat in state["seats"]))
    # both drew the same: a Fear card on each return and each night; the Bravery points differ per night
    totals = [rules.total_points(player) for player in state["players"].values()]
    over = rules.outcome(state)
    assert over.shared == (totals[0] == totals[1])


# ---- the Camp Bag and the odds -------------------------------------------------------------------------------------

def test_the_bag_count_subtracts_boards_backpacks_and_the_night_track():
    state = play(table(2), (None, {"type": "bag", **BOX}))
    bag = rules.bag_now(state)
    assert bag["jason"] == 8 - 4 and bag["axe"] == 5
    state = play(state, search(1, "axe"), search(2, "jason"))
    bag = rules.bag_now(state)
    assert bag["axe"] == 4 and bag["jason"] == 3


def test_the_jason_odds_match_counting_every_token_in_the_bag():
    state = play(table(3), (None, {"type": "bag", **BOX}), search(1, "jason"), search(2, "axe"), search(3, "pan"))
    tokens = []
    for token, count in BOX.items():
        tokens += [token] * count
    for player in state["players"].values():
        for token, count in player["board"].items():
            for _ in range(count):
                tokens.remove(token)
    for _ in range(rules.jason_waiting(state)):
        tokens.remove("jason")
    chance = Fraction(tokens.count("jason"), len(tokens))
    bag = rules.view(state, Viewer.of_seat(1))["bag"]
    assert (bag["jason"], bag["total"]) == (tokens.count("jason"), len(tokens))
    assert bag["chance"] == percent(chance)


def test_searching_for_more_tokens_than_the_bag_holds_is_refused():
    state = play(table(2), (None, {"type": "bag", **BOX, "axe": 1}), search(1, "axe"))
    refused(state, 2, "holds no Axes", type="search", supply="axe")
    refused(table(2), None, "but 4 are", type="bag", **{**BOX, "jason": 3})


def test_the_odds_say_so_when_the_bag_isnt_counted():
    assert rules.view(table(2), Viewer.of_seat(1))["bag"] is None


# ---- review regressions: the box's 67 tokens, Jason from a Fear Card, what the screens offer ------------------------

def test_can_searches_pile_up_more_tokens_than_the_box_holds_and_jam_the_drop_off():
    """'67 Supply Tokens ... include the Jason Supply Tokens': once every token is out of the bag, a search is refused
    (before the fix, a 68th Cast Iron Pan was accepted and that player's drop-off could never be scored)."""
    state = play(card(table(2)), back(1))
    for _ in range(67 - 4):  # four Jason tokens wait on the night track
        state = play(state, search(2, "pan"))
    refused(state, 2, "67 tokens are already out of the Camp Bag", type="search", supply="pan")
    refused(state, None, "already out of the Camp Bag", type="set-board", whose=2, pan=63, axe=1)
    state = play(state, back(2), drop(1), drop(2, keep="pan,pan"))
    assert state["players"]["2"]["nights"][0]["drop_off"] == 61


def test_is_a_bag_count_above_the_boxs_67_tokens_refused():
    refused(table(2), None, "the box holds 67 Supply Tokens", type="bag", **{**BOX, "pan": 40})


def test_does_a_second_jason_put_on_a_board_out_of_turn_cause_a_second_jason_attack():
    """'A Second Jason Attack occurs when a player has two Jason Tokens on their Player Board' -- also when a Fear Card
    puts the second one there on someone else's turn (before the fix that correction was refused: no way to record it).
    """
    state = play(card(table(3)), search(1, "jason"), search(2, "axe"), search(3, "pan"), search(1, "cleaver"),
                 back(2))
    state, events = act(state, None, type="set-board", whose=1, cleaver=1, jason=2)
    one = state["players"]["1"]
    assert one["returned"] and one["board"] == rules.empty_board() and one["escape"] and one["escape_night"] == 1
    assert state["cabin"][-1] == {"seat": 1, "attacked": True, "bravery": 0, "card": False, "critical": 0,
                                  "carried": {}}
    assert one["fear_cards"] == 5 and state["turn"] == 3  # Counselor 3's turn goes on; no Bravery card
    assert "SECOND JASON ATTACK" in events[0].text and "2nd, dark side up" in events[0].text
    # on the counselor's own turn the attack ends that turn too
    state = play(card(table(2)), search(1, "jason"), search(2, "pan"))
    state, _ = act(state, None, type="set-board", whose=1, jason=2)
    assert state["turn"] == 2 and state["players"]["1"]["returned"]


def test_can_an_escape_token_dodge_a_second_jason_put_on_the_board_by_a_fear_card():
    state = table(2)
    state["players"]["2"]["escape"] = True
    state = play(state, search(1, "pan"), search(2, "jason"))
    refused(state, None, "say 'use'", type="set-board", whose=2, jason=2)
    dodged, _ = act(state, None, type="set-board", whose=2, jason=2, escape="use")
    assert dodged["players"]["2"]["board"]["jason"] == 1 and not dodged["players"]["2"]["escape"]
    assert not dodged["players"]["2"]["returned"] and dodged["turn"] == 1
    attacked, _ = act(state, None, type="set-board", whose=2, jason=2, escape="keep")
    assert attacked["players"]["2"]["returned"] and attacked["players"]["2"]["escape"]  # held one: gains none


def test_an_escape_token_is_discardable_at_any_time():
    """Issue 46: 'An Escape Token may be discarded by its owner at any time and does not count as an action.' It was
    refused at the Cabin, at drop-off and on the night it was gained; now each discard is logged, and it sends a Jason
    token back only 'on another night' from a board that holds one."""
    state = table(2)
    state["players"]["1"]["escape"] = True
    state = card(play(state, search(1, "jason"), search(2, "pan")))
    assert rules.view(state, Viewer.of_seat(1))["mine"]["escape_usable"]
    cabin = play(state, back(1))
    assert {"type": "escape", "whose": 1} in rules.legal_actions(cabin, 1)
    after, events = act(cabin, 1, type="escape")
    assert events[0].text == "discarded an Escape Token: a Jason token goes from the Player Board back to the Camp Bag."
    assert not after["players"]["1"]["escape"] and after["players"]["1"]["board"]["jason"] == 0
    drop_off = play(cabin, back(2))
    assert drop_off["phase"] == "drop-off"
    after, events = act(drop_off, None, type="escape", whose=1)
    assert not after["players"]["1"]["escape"] and after["turn"] == drop_off["turn"]  # not an action
    empty = play(card(table(2)), search(1, "jason"), search(2, "pan"), search(1, "jason"))  # attacked: gains one
    assert empty["players"]["1"]["escape_night"] == 1
    after, events = act(empty, 1, type="escape")
    assert events[0].text == "discarded an Escape Token: no Jason token goes back (there is no Jason token on the " \
                             "Player Board)."
    gained = play(card(table(2)), search(1, "jason"), search(2, "pan"), search(1, "jason"), search(2, "jason"))
    gained["players"]["2"]["escape"], gained["players"]["2"]["escape_night"] = True, 1  # gained tonight, Jason on it
    after, events = act(gained, 2, type="escape")
    assert after["players"]["2"]["board"]["jason"] == 1
    assert events[0].text == ("discarded an Escape Token: no Jason token goes back (it was gained tonight, and "
                              "removes a Jason token only on another night).")
    refused(table(2), 1, "holds no Escape Token", type="escape")


def test_does_legal_actions_offer_the_escape_choice_and_only_tokens_the_bag_holds():
    state = table(2)
    state["players"]["1"]["escape"] = True
    state = play(state, (None, {"type": "bag", **BOX, "axe": 0}), search(1, "jason"), search(2, "pan"))
    offered = rules.legal_actions(state, 1)
    assert {"type": "search", "whose": 1, "supply": "jason", "escape": "use"} in offered
    assert {"type": "search", "whose": 1, "supply": "jason", "escape": "keep"} in offered
    assert {"type": "search", "whose": 1, "supply": "jason"} not in offered
    assert not any(action.get("supply") == "axe" for action in offered)


def test_does_the_drop_off_list_show_only_the_night_being_scored():
    """Once Night 2's drop-off starts, Night 1's breakdowns leave the screen (they were shown mixed with Night 2's)."""
    state = card(table(3))
    state = play(state, back(1), back(2), back(3), drop(1), drop(2), drop(3))
    assert {entry["night"] for entry in state["last_drop_offs"]} == {1} and len(state["last_drop_offs"]) == 3
    state = play(card(state), back(3), back(1), back(2), drop(2))
    assert [(entry["seat"], entry["night"]) for entry in state["last_drop_offs"]] == [(2, 2)]
    assert rules.view(state, Viewer.host())["last_scored"][0]["night"] == 2


def test_does_a_drop_off_after_a_jason_attack_say_why_there_is_no_bravery_bonus():
    state = play(card(table(2)), search(1, "jason"), search(2, "pan"), search(1, "jason"), back(2))
    choices = rules.view(state, Viewer.of_seat(1))["drop_offs"]["1"]
    assert choices["attacked"] and choices["bravery"] == 0
    assert rules.view(state, Viewer.of_seat(1))["mine"]["attacked"]
    state = play(state, drop(1))
    assert state["last_drop_offs"][0]["attacked"]


# ---- bad input -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat, action, message", [
    (1, {"type": "search", "supply": "chainsaw"}, "isn't a token"),
    (1, {"type": "search", "supply": 3}, "isn't a token"),
    (1, {"type": "search"}, "needs 'supply'"),
    (1, {"type": "search", "supply": "pan", "extra": 1}, "doesn't take 'extra'"),
    (1, {"type": "dance"}, "isn't something you can do"),
    (2, {"type": "search", "supply": "pan"}, "It's Counselor 1's turn"),
    (None, {"type": "critical", "pan": -1, "points": 3}, "negative"),
    (None, {"type": "critical", "pan": True, "points": 3}, "whole number"),
    (None, {"type": "critical", "points": 3}, "at least one Supply"),
    (None, {"type": "critical", "pan": 1, "points": 0}, "below 1"),
    (None, {"type": "bag", "pan": -3}, "negative"),
    (1, {"type": "set-board", "jason": 3}, "more than two Jason"),
    (1, {"type": "set-board", "pan": 1, "escape": "use"}, "no Second Jason Attack"),
    (1, {"type": "set-board", "axe": -1}, "negative"),
    (1, {"type": "set-hand", "count": 65}, "at most 64"),
    (1, {"type": "escape"}, "holds no Escape Token"),
    (1, {"type": "fear", "target": 1}, "another counselor"),
    (1, {"type": "fear", "target": 9}, "no Counselor 9"),
    (None, {"type": "search", "supply": "pan", "whose": True}, "no Counselor"),
    (True, {"type": "search", "supply": "pan"}, "no seat"),
])
def test_bad_input_is_refused_with_a_sentence_and_changes_nothing(seat, action, message):
    refused(table(3), seat, message, **action)


def test_a_fear_card_needs_a_card_in_hand():
    state = table(2)
    state["players"]["1"]["fear_cards"] = 0
    refused(state, 1, "no Fear Cards", type="fear")


def test_the_critical_supply_card_cant_change_once_claimed():
    state = play(card(table(2)), search(1, "pan"), search(2, "pan"), back(1))
    refused(state, None, "already claimed", type="critical", axe=1, points=3)


# ---- a random play-out of five nights -----------------------------------------------------------------------------

def completed(state: dict, template: dict, generator: random.Random, seat: int | None = None) -> dict:
    """A legal_actions template with the details a real table would add (the card, the count, the drop-off choice)."""
    action = dict(template)
    if action["type"] == "critical":
        action = {"type": "critical"}
        action.update({"points": generator.randint(1, 10), generator.choice(SUPPLIES): generator.randint(1, 2)})
    elif action["type"] == "bag":  # the box as counted; never less than what is out of the bag already
        action = {"type": "bag"}
        out = rules.out_of_bag(state)
        box = {token: max(BOX[token], out[token]) for token in BOX}
        if sum(box.values()) > 67:
            box = {**out, "pan": out["pan"] + 67 - sum(out.values())}
        action.update(box)
    elif action["type"] == "drop-off":
        seat = action.get("whose") or seat
        choices = rules.view(state, Viewer.of_seat(seat))["drop_offs"][str(seat)]
        action["keep"] = generator.choice(choices["choices"])["value"]
        if "defense" in action:
            action["defense"] = generator.randint(0, state["players"][str(seat)]["fear_cards"])
        if generator.random() < 0.2:
            action["bonus"] = "none"
    return action


def legal_random_move(state: dict, generator: random.Random, counted: bool = True) -> tuple[int | None, dict]:
    """A move a real table could make now, picked from legal_actions: mostly the turn, sometimes an out-of-turn one."""
    if state["critical"] is None and rules.critical_open(state) and generator.random() < 0.3:
        return None, completed(state, {"type": "critical"}, generator)  # the card, now or after some returns
    seat = state["turn"] if state["phase"] == "night" else generator.choice(
        [seat for seat in state["seats"] if not state["players"][str(seat)]["dropped"]])
    offered = [action for action in rules.legal_actions(state, seat)]
    if state["phase"] == "night" and generator.random() < 0.1:  # someone else: a Defense card or an Escape Token
        other = generator.choice(state["seats"])
        extra = [action for action in rules.legal_actions(state, other) if action["type"] in ("defense", "escape")]
        if extra:
            return other, completed(state, generator.choice(extra), generator, other)
    if state["phase"] == "night" and generator.random() < 0.03:  # a Fear Card gives someone still out a Jason token
        other = generator.choice([seat for seat in state["seats"] if not state["players"][str(seat)]["returned"]])
        board = dict(state["players"][str(other)]["board"])
        bag = rules.bag_now(state)
        if board["jason"] == 1 and (bag is None or bag["jason"] > 0) and sum(rules.out_of_bag(state).values()) < 67:
            action = {"type": "set-board", "whose": other, **board, "jason": 2}
            if rules.escape_usable(state, state["players"][str(other)]):
                action["escape"] = generator.choice(["use", "keep"])
            return None, action
    weights = {"search": 8, "return": 2, "fear": 1, "defense": 0.2, "escape": 0.5, "drop-off": 1, "stash": 1}
    template = generator.choices(offered, [weights[action["type"]] / max(1, sum(
        1 for other in offered if other["type"] == action["type"])) for action in offered])[0]
    return seat, completed(state, template, generator, seat)


def check_invariants(state: dict, counted: bool) -> None:
    """What must hold after every move, whatever was played."""
    assert json.loads(json.dumps(state)) == state
    out = rules.out_of_bag(state)
    assert sum(out.values()) <= 67
    if counted:
        assert all(count >= 0 for count in rules.bag_now(state).values())
    returned = set()
    for key, player in state["players"].items():
        assert player["board"]["jason"] <= 1 and len(player["backpack"]) <= 2
        assert all(item in SUPPLIES for item in player["backpack"])
        assert player["fear_cards"] >= 0 and isinstance(player["escape"], bool)
        if player["returned"]:
            returned.add(int(key))
        done = state["night"] - 1 + (1 if player["dropped"] or state["phase"] == "over" else 0)
        assert len(player["nights"]) == done
        for number, night in enumerate(player["nights"], start=1):
            assert night["night"] == number
            assert night["total"] == night["bravery"] + night["critical"] + night["drop_off"] + night["extras"]
            assert night["breakdown"][-1] == f"Total {night['drop_off'] + night['extras']}"
    seats = [entry["seat"] for entry in state["cabin"]]
    assert len(seats) == len(set(seats))
    if state["phase"] != "over":
        assert set(seats) == returned
    for place, entry in enumerate(state["cabin"]):
        assert entry["bravery"] == (0 if entry["attacked"] else state["bravery_points"][place])
    claimed = [entry for entry in state["cabin"] if entry["critical"]]
    assert len(claimed) <= 1
    if claimed:
        assert state["critical"]["claimed_by"] == claimed[0]["seat"]
    if state["phase"] == "night":
        assert not state["players"][str(state["turn"])]["returned"]
    if state["phase"] == "drop-off":
        assert returned == set(state["seats"]) and state["turn"] is None


def every_offer_is_accepted(state: dict, generator: random.Random) -> None:
    """No softlock and no false offer: each move legal_actions offers (completed) is accepted."""
    offers = [(seat, action) for seat in [None, *state["seats"]] for action in rules.legal_actions(state, seat)]
    assert offers, "nobody can move before the end of the game"
    for seat, template in offers:
        act(state, seat, **completed(state, template, generator, seat))


VARIANTS = [(players, mode, counted, reading) for players in range(2, 7) for mode in ("basic", "advanced")
            for counted in (True, False) for reading in ("board", "backpack")]


@pytest.mark.parametrize("players, mode, counted, reading", VARIANTS)
def test_a_random_game_of_five_nights_plays_to_the_end(players, mode, counted, reading):
    """Every setup (2-6 players, basic/advanced, bag counted or not, any first player) reaches the end of Night 5."""
    generator = random.Random(f"{players}{mode}{counted}{reading}")
    state = table(players, mode=mode, first=generator.randint(1, players), critical_set=reading)
    if counted:
        state = play(state, (None, {"type": "bag", **BOX}))
    nights_seen = {1}
    for step in range(3000):
        if state["phase"] == "over":
            break
        if step % 9 == 0:
            every_offer_is_accepted(state, generator)
        seat, action = legal_random_move(state, generator, counted)
        state, events = act(state, seat, **action)
        assert events and all(event.text for event in events)
        viewer = generator.choice([Viewer.host(), *map(Viewer.of_seat, state["seats"])])
        assert rules.view(state, viewer)["night"] == state["night"]
        check_invariants(state, counted)
        nights_seen.add(state["night"])
    assert state["phase"] == "over" and state["night"] == 5 and nights_seen == {1, 2, 3, 4, 5}
    over = rules.outcome(state)
    best = max(rules.total_points(player) for player in state["players"].values())
    assert over.winners and all(rules.total_points(state["players"][str(seat)]) == best for seat in over.winners)
    assert over.shared == (len(over.winners) > 1)
    for player in state["players"].values():
        assert len(player["nights"]) == 5
        assert player["backpack"] == [] and player["board"] == rules.empty_board()  # everything dropped off at the end
        assert player["fear_cards"] == 0 and not player["escape"]  # traded in for points
    assert rules.legal_actions(state, None) == []


# ---- issue 17: Return to the Cabin before the card, the Hidden Stash, the Critical Supply reading -------------------

def test_a_counselor_may_return_before_the_card_is_entered_and_claims_it_when_it_is():
    """'Each turn a player may do one of three things: ... Return to the Cabin': the card entered later still pays the
    first counselor back with its set, in return order."""
    state = play(table(3), search(1, "pan"), search(2, "axe"), search(3, "pan"))
    state, events = act(state, 1, type="return")
    assert state["players"]["1"]["returned"] and state["critical"] is None
    assert "claim is checked when it is" in events[0].text
    state = play(state, search(2, "pan"), back(3))  # Counselor 3 also holds a Pan, but came back second
    state, events = act(state, None, type="critical", pan=1, points=7)
    assert state["critical"]["claimed_by"] == 1 and [entry["critical"] for entry in state["cabin"]] == [7, 0]
    assert "Counselor 1 was first back with it: +7 points" in events[0].text
    refused(state, None, "already claimed", type="critical", axe=1, points=3)
    state = play(state, back(2), drop(1), drop(2), drop(3))
    assert state["players"]["1"]["nights"][0]["critical"] == 7 and state["players"]["3"]["nights"][0]["critical"] == 0


def test_a_card_nobody_back_holds_is_claimed_at_once_by_the_next_to_return_with_it():
    state = play(table(2), back(1))
    state, events = act(state, None, type="critical", cleaver=1, points=4)
    assert state["critical"]["claimed_by"] is None and "first back with it" not in events[0].text
    state = play(state, search(2, "cleaver"))
    state, events = act(state, 2, type="return")
    assert state["critical"]["claimed_by"] == 2 and "+4 points" in events[0].text


def test_the_card_can_be_entered_after_the_last_return_until_the_first_drop_off():
    state = play(table(2), search(1, "axe"), back(2), back(1))
    assert state["phase"] == "drop-off"
    assert any(offer["type"] == "critical" for offer in rules.legal_actions(state, None))
    claimed = play(state, (None, {"type": "critical", "axe": 1, "points": 6}))
    assert claimed["cabin"][1]["critical"] == 6
    late = play(state, drop(2))
    refused(late, None, "The drop-off has begun", type="critical", axe=1, points=6)
    assert not any(offer["type"] == "critical" for offer in rules.legal_actions(late, None))


def test_a_hidden_stash_keeps_its_supplies_through_a_second_jason_attack():
    """'Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do not need to be returned
    to the bag.'"""
    state = play(table(2), (None, {"type": "bag", **BOX}), search(1, "axe"), search(2, "pan"), search(1, "cleaver"),
                 search(2, "pan"))
    refused(state, 1, "no Hidden Stash in play", type="stash", supply="axe", count=1)
    state = play(state, (1, {"type": "fear", "card": "hidden-stash"}), search(2, "pan"))
    assert {"type": "stash", "whose": 1, "supply": "axe", "count": 1} in rules.legal_actions(state, 1)
    refused(state, 1, "holds 1 Axe, not 2", type="stash", supply="axe", count=2)
    refused(state, 1, "Jason token can't be hidden", type="stash", supply="jason", count=1)
    refused(state, 1, "already has a Hidden Stash", type="fear", card="hidden-stash")
    bag_before = rules.bag_now(state)
    state = play(state, (1, {"type": "stash", "supply": "axe", "count": 1}))
    assert state["players"]["1"]["stash"]["axe"] == 1 and state["players"]["1"]["board"]["axe"] == 0
    assert rules.bag_now(state) == bag_before  # moved, not drawn
    state = play(state, search(1, "jason"), search(2, "pan"))
    state, events = act(state, 1, type="search", supply="jason")
    one = state["players"]["1"]
    assert one["returned"] and one["board"] == rules.empty_board() and one["stash"]["axe"] == 1
    assert "The Hidden Stash keeps its 1 Supply safe" in events[0].text
    assert rules.bag_now(state)["cleaver"] == BOX["cleaver"] and rules.bag_now(state)["axe"] == BOX["axe"] - 1
    state = play(state, back(2), drop(2))
    state, _ = act(state, 1, type="drop-off")
    night = state["players"]["1"]["nights"][0]
    assert night["drop_off"] == 8 and night["bravery"] == 0  # the stashed Axe scores; fled, so no Bravery Bonus
    assert state["players"]["1"]["stash"]["axe"] == 0 and not state["players"]["1"]["stash_card"]


def stash_played(**readings) -> dict:
    """Counselor 1 found an Axe and a Cleaver, then played the Hidden Stash; it is Counselor 2's turn."""
    state = play(table(2, **readings), (None, {"type": "bag", **BOX}), search(1, "axe"), search(2, "pan"),
                 search(1, "cleaver"), search(2, "pan"))
    return play(state, (1, {"type": "fear", "card": "hidden-stash"}))


STASH_READINGS = ("stash_cards", "stash_when", "stash_end")


def test_each_hidden_stash_limit_is_a_labelled_reading_quoting_the_one_sentence():
    """Issue 46: one per counselor, any time with no action, discarded at drop-off were presented as settled; the one
    sentence is 'Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do not need to be
    returned to the bag.'"""
    sentence = ("'Supply Tokens that are safe in the player's Backpack or on a Hidden Stash Fear Card do not need to "
                "be returned to the bag.'")
    for key in STASH_READINGS:
        option = SPEC.option(key)
        assert option.source == "assumed" and sentence in option.help, key
        assert key in rules.view(table(2), Viewer.host())["readings"]
    assert [SPEC.option(key).default for key in STASH_READINGS] == ["one", "any-time", "drop-off"]


@pytest.mark.parametrize("cards", ["one", "any"])
def test_the_stash_cards_reading_decides_whether_a_second_hidden_stash_is_played(cards):
    state = play(stash_played(stash_cards=cards), search(2, "pan"))
    offered = {"type": "fear", "whose": 1, "card": "hidden-stash"} in rules.legal_actions(state, 1)
    if cards == "one":
        assert not offered
        refused(state, 1, "already has a Hidden Stash in play: at this table a counselor has one at a time",
                type="fear", card="hidden-stash")
        return
    assert offered
    after, events = RULES.texts(state, 1, type="fear", card="hidden-stash")
    assert events[0] == "played another Hidden Stash Fear Card: Supplies moved onto it are safe from Jason."


@pytest.mark.parametrize("when", ["any-time", "when-played"])
def test_the_stash_when_reading_decides_when_supplies_go_onto_the_hidden_stash(when):
    """`any-time`: a counselor out searching moves Supplies onto it whenever, as no action; `when-played`: only as the
    card is played, until the next counselor's turn action."""
    state = stash_played(stash_when=when)
    hide = {"type": "stash", "whose": 1, "supply": "axe", "count": 1}
    assert hide in rules.legal_actions(state, 1)
    now = play(state, (1, {"type": "stash", "supply": "axe", "count": 1}))  # before Counselor 2's turn: both allow it
    assert now["players"]["1"]["stash"]["axe"] == 1 and now["turn"] == 2
    later = play(state, search(2, "pan"))
    if when == "any-time":
        assert play(later, (1, {"type": "stash", "supply": "cleaver", "count": 1}))["players"]["1"]["stash"]["cleaver"]
        return
    assert {**hide, "supply": "cleaver"} not in rules.legal_actions(later, 1)
    refused(later, 1, "only as the card is played, before the next counselor's turn", type="stash", supply="cleaver",
            count=1)


def quiet_night(state: dict) -> dict:
    """Both counselors return at once and drop off keeping nothing (after Night 5, with no Defense Fear Cards)."""
    first = state["turn"]
    state = play(state, back(first), back(3 - first))
    extra = {"defense": 0} if rules.final_count(state) else {}
    return play(state, drop(1, **extra), drop(2, **extra))


@pytest.mark.parametrize("end", ["drop-off", "stays"])
def test_the_stash_end_reading_decides_whether_the_hidden_stash_is_dropped_off_tonight(end):
    """`drop-off`: its Supplies score with the board tonight and the card is discarded; `stays`: the card and its
    Supplies stay in play, safe, and are dropped off after the last night ('all Supplies (including those in
    Backpacks) are dropped off')."""
    state = play(stash_played(stash_end=end), (1, {"type": "stash", "supply": "axe", "count": 1}), back(2), back(1),
                 drop(1), drop(2))
    one = state["players"]["1"]
    if end == "drop-off":
        assert one["nights"][0]["drop_off"] == 8 + 4 and one["stash"]["axe"] == 0 and not one["stash_card"]
        return
    assert one["nights"][0]["drop_off"] == 4 and one["stash"]["axe"] == 1 and one["stash_card"]
    assert rules.invariants(state) == [] and rules.bag_now(state)["axe"] == BOX["axe"] - 1  # still out of the bag
    while state["night"] < 5:
        state = quiet_night(state)
        assert state["players"]["1"]["stash"]["axe"] == 1 or state["phase"] == "over"
    state = quiet_night(state)
    last = state["players"]["1"]["nights"][-1]
    assert state["phase"] == "over" and last["drop_off"] == 8 and "1 Axe" in " ".join(last["breakdown"])


def test_a_hidden_stash_takes_no_target():
    refused(table(2), 1, "leave the target out", type="fear", card="hidden-stash", target=2)
    refused(table(2), 1, "Say which Fear Card", type="fear", card="chainsaw")


@pytest.mark.parametrize("reading, claims", [("board", False), ("backpack", True)])
def test_the_critical_supply_reading_decides_whether_the_backpack_counts(reading, claims):
    """'If you are the first player to return with the Supplies shown on the Critical Supply Card': the board (and a
    Hidden Stash) by default; with the other reading, the Backpack's saved Supplies too."""
    state = card(table(2, critical_set=reading), points=5, axe=1)
    state = play(state, search(1, "axe"), search(2, "pan"), back(1), back(2), drop(1, keep=["axe"]), drop(2))
    assert state["players"]["1"]["backpack"] == ["axe"]
    state = card(state, points=5, axe=1)
    assert state["turn"] == 2  # the last back to the Cabin starts Night 2
    state = play(state, search(2, "pan"), back(1))  # Counselor 1 comes back with an empty board, the Axe saved
    assert (state["critical"]["claimed_by"] == 1) is claims
    shown = rules.view(state, Viewer.of_seat(1))["readings"]["critical_set"]
    assert shown["value"] == reading and shown["source"] == "assumed"
    assert ("not the Backpack" in shown["text"]) is not claims


def test_an_unknown_reading_is_refused_at_setup_with_a_sentence():
    with pytest.raises(Exception, match="must be one of: board, backpack"):
        SPEC.configure({"players": 3, "critical_set": "pocket"})
    assert rules.reading(table(2), "critical_set") == "board"
    old = table(2)
    del old["readings"]  # a table stored before the reading was an option plays with the default
    assert rules.reading(old, "critical_set") == "board"


def test_turns_go_round_the_seating_the_host_enters():
    """'each Player taking turns': seat order until the host enters how the table really sits."""
    state = table(4)
    assert rules.view(state, Viewer.host())["seating"]["assumed"]
    state, events = act(state, None, type="seating", order=[1, 4, 3, 2])
    assert "Counselor 1, Counselor 4, Counselor 3, Counselor 2" in events[0].text
    state = play(state, search(1, "pan"))
    assert state["turn"] == 4
    state = play(state, search(4, "pan"), back(3))
    assert state["turn"] == 2 and not rules.view(state, Viewer.host())["seating"]["assumed"]
    refused(state, None, "already go round in that order", type="seating", order=[2, 1, 4, 3])
    for bad in ([1, 2, 3], [1, 1, 2, 3], [1, 2, 3, 9], "1, 2"):
        refused(state, None, "Name each of the 4 seats once", type="seating", order=bad)
    refused(state, 2, "for the host screen", type="seating", order=[1, 2, 3, 4])
