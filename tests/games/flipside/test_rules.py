"""Flipside's rules, without Flask: counters, Power growth, Remnant, phases, the fight on two phones, the two endings
and every reading of a loose sentence in both settings."""

import json
import random

import pytest

from app.games import REGISTRY, OptionError
from app.games.contract import IllegalAction, Viewer
from app.games.flipside import combat, keywords, rules

from ..rules_helpers import RulesUnderTest, dumped, opening

SPEC = REGISTRY["flipside"]
RULES = RulesUnderTest(rules)
act = RULES.texts  # (state, seat, **move) -> (state after, log lines)
refused = RULES.refused  # (state, seat, message, **move): refused with that sentence, the state byte-identical


def table(players: int = 2, **options) -> dict:
    """A Flipside opening state, set up through the same options a host picks."""
    return opening(SPEC, {"players": players, **options})


def player(state: dict, seat: int) -> dict:
    return state["players"][str(seat)]


def seen(state: dict, seat: int | None) -> dict:
    return rules.view(state, Viewer.of_seat(seat) if seat is not None else Viewer.host())


def offered(state: dict, seat: int | None) -> list[str]:
    return [move["type"] for move in rules.legal_actions(state, seat)]


def started(players: int = 2, **options) -> dict:
    """The first player's turn 1, in the Draw phase."""
    state, _ = act(table(players, **options), None, type="start")
    return state


def to_phase(state: dict, phase: str) -> dict:
    while state["turn"]["phase"] != phase:
        state, _ = act(state, None, type="next-phase")
    return state


def declare(state: dict, seat: int | None, target: int, atk: int, defence: int, **extra) -> dict:
    """'Attacker declares target player': the attacker's numbers wait for the defender's blockers."""
    after, _ = act(state, seat, type="attack", target=target, atk=atk, **{"def": defence}, **extra)
    return after


def blocks(*blockers, **extra) -> dict:
    """A block move's rows: (ATK, DEF) per blocker, in rows 1, 2, ..."""
    return {**extra, "blockers": [{"atk": b_atk, "def": b_def} for b_atk, b_def in blockers]}


def attack(state: dict, seat: int | None, target: int, atk: int, defence: int, *blockers, **extra):
    """A whole fight: the attacker (`seat`) declares, the defender assigns `blockers` and it resolves."""
    state = declare(state, seat, target, atk, defence, **{key: value for key, value in extra.items()
                                                           if key in ("bonus", "disguise")})
    defender = target if seat is not None else None
    return act(state, defender, type="block", **blocks(*blockers, **{key: value for key, value in extra.items()
                                                                      if key not in ("bonus", "disguise")}))


# ---- setup ---------------------------------------------------------------------------------------------------------

def test_setup_gives_everyone_20_health_power_1_and_an_opening_hand_of_3():
    """'Health: 20 per player', Power 'Starts at 1', 'Draw 3 cards' from a deck of at least 40."""
    state = table(3, deck_size=45, first_player=2)
    assert state["seats"] == [1, 2, 3]
    for seat in (1, 2, 3):
        assert player(state, seat) == {"health": 20, "power": 1, "power_max": 1, "deck": 42, "graveyard": 0,
                                       "removed": 0, "redrawn": None, "turns": 0}
    assert state["turn"] == {"seat": 2, "phase": "opening", "number": 0}
    assert json.loads(json.dumps(state)) == state


def test_setup_refuses_decks_under_40_and_more_than_4_players():
    with pytest.raises(OptionError, match="from 40"):
        SPEC.configure({"deck_size": 39})
    with pytest.raises(OptionError, match="Players must be from 2 to 4"):
        SPEC.configure({"players": 5})
    with pytest.raises(OptionError, match="first player must be seat 1 to 2"):
        SPEC.configure({"players": 2, "first_player": 3})


def test_each_player_may_redraw_their_opening_cards_once_and_they_go_to_the_graveyard():
    """'You may discard and redraw each card once'; 'All discarded cards go to the Graveyard'."""
    state, events = act(table(), 1, type="redraw", count=2)
    assert player(state, 1)["deck"] == 35 and player(state, 1)["graveyard"] == 2 and player(state, 1)["redrawn"] == 2
    assert "redrew 2 cards" in events[0]
    refused(state, 1, "each card may be redrawn only once", type="redraw", count=1)
    kept, events = act(state, 2, type="redraw", count=0)
    assert player(kept, 2)["deck"] == 37 and events == ["kept your opening hand."]


def test_the_house_rule_puts_redrawn_cards_back_into_the_deck():
    state, _ = act(table(redrawn_cards="deck"), 1, type="redraw", count=3)
    assert player(state, 1)["deck"] == 37 and player(state, 1)["graveyard"] == 0


def test_redraws_only_before_the_first_turn_and_within_the_hand():
    refused(table(), 1, "can't be more than 3", type="redraw", count=4)
    refused(table(), 1, "can't be less than 0", type="redraw", count=-1)
    refused(started(), 1, "only before the first turn", type="redraw", count=1)


def test_the_chosen_player_or_the_host_starts_and_draws_their_first_card():
    """'Choose a player to start.' Their turn opens in the Draw phase: 'Draw 1 card from your deck.'"""
    state = table(3, first_player=2)
    refused(state, 1, "Player 2 starts", type="start")
    for seat in (1, 2, 3):
        state, _ = act(state, seat, type="redraw", count=0)
    after, events = act(state, 2, type="start")
    assert after["turn"] == {"seat": 2, "phase": "draw", "number": 1}
    assert player(after, 2)["deck"] == 36 and player(after, 1)["deck"] == 37
    assert events[-1] == "Turn 1: Player 2 draws 1 card (deck 36)."
    refused(after, None, "already started", type="start")


# ---- turn structure and Power ----------------------------------------------------------------------------------

def test_the_phases_run_draw_ready_play_action_cleanup_then_the_next_player_clockwise():
    state = started(3, first_player=3)
    seen = []
    for _ in range(5):
        seen.append(state["turn"]["phase"])
        state, _ = act(state, 3, type="next-phase")
    assert seen == ["draw", "ready", "play", "action", "cleanup"]
    assert state["turn"] == {"seat": 1, "phase": "draw", "number": 2}  # clockwise wraps from seat 3 to seat 1
    assert player(state, 1)["deck"] == 36


def test_only_the_player_whose_turn_it_is_or_the_host_steps_the_phases():
    state = started()
    refused(state, 2, "It is Player 1's turn", type="next-phase")
    refused(table(), None, "first turn hasn't started", type="next-phase")


def test_cleanup_reminds_that_damage_on_characters_clears():
    """'All damage is removed from surviving characters.'"""
    state = to_phase(started(), "action")
    _, events = act(state, 1, type="next-phase")
    assert events == ["Cleanup: all damage is removed from surviving characters."]


def play_turns(state: dict, turns: int) -> dict:
    for _ in range(turns * 5):
        state, _ = act(state, None, type="next-phase")
    return state


def test_power_starts_at_1_grows_by_1_each_turn_and_stops_at_10():
    """'Starts at 1, increases by +1 per turn (max 10)': turn 1 plays with 1, turn 2 with 2, ... never past 10."""
    state = started()
    dials = []
    for _ in range(24):  # 12 turns each
        state = to_phase(state, "ready")
        dials.append(player(state, state["turn"]["seat"])["power_max"])
        state = to_phase(state, "cleanup")
        state, _ = act(state, None, type="next-phase")
    assert dials[0::2] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]
    assert dials[1::2] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10]


def test_ready_restores_spent_power_fully():
    """'fully refreshes each turn'"""
    state = to_phase(play_turns(started(), 2), "play")  # Player 1's second turn: Power 2
    state, events = act(state, 1, type="spend-power", amount=2)
    assert player(state, 1)["power"] == 0 and events == ["spent 2 Power: Power 2 \u2192 0 (\u22122)."]
    state = to_phase(play_turns(state, 2), "ready")
    assert player(state, 1)["power"] == 3 == player(state, 1)["power_max"]


def test_power_cannot_be_spent_beyond_what_is_left_or_gained_past_10():
    state = started()
    refused(state, 1, "Power has 1 left; you can't spend 2", type="spend-power", amount=2)
    refused(state, 1, "can't be less than 1", type="spend-power", amount=0)
    state, _ = act(state, 1, type="gain-power", amount=9)
    assert player(state, 1)["power"] == 10
    refused(state, 1, "can't go past 10", type="gain-power", amount=1)


# ---- Health ------------------------------------------------------------------------------------------------------

def test_health_steps_and_a_typed_amount_change_only_your_own():
    state, events = act(table(), 2, type="lose-health", amount=5)
    assert player(state, 2)["health"] == 15 and events == ["Health 20 \u2192 15 (\u22125)."]
    state, _ = act(state, 2, type="gain-health", amount=1)
    assert player(state, 2)["health"] == 16
    refused(state, 1, "only your own Health", type="lose-health", amount=1, whose=2)
    host, events = act(state, None, type="set-health", value=7, whose=2)
    assert player(host, 2)["health"] == 7 and events == ["Player 2's Health 16 \u2192 7 (\u22129)."]


@pytest.mark.parametrize("action,message", [
    ({"type": "lose-health", "amount": 21}, "losing 21 would take it below 0"),
    ({"type": "set-health", "value": -1}, "can't be less than 0"),
    ({"type": "set-health", "value": 100}, "can't be more than 99"),
    ({"type": "gain-health", "amount": 80}, "would pass 99"),
    ({"type": "gain-health", "amount": 10**9}, "can't be more than 99"),
    ({"type": "set-health", "value": 20}, "already 20"),
    ({"type": "lose-health", "amount": True}, "must be a whole number"),
    ({"type": "lose-health", "amount": "3"}, "must be a whole number"),
    ({"type": "lose-health", "amount": 2.0}, "must be a whole number"),
    ({"type": "lose-health"}, "Say how many"),
    ({"type": "lose-health", "amount": 1, "whose": "2"}, "by seat number"),
    ({"type": "lose-health", "amount": 1, "whose": 9}, "no Player 9"),
    ({"type": "lose-health", "amount": 1, "colour": "red"}, "doesn't take 'colour'"),
    ({"type": "fly"}, "isn't a Flipside move"),
])
def test_bad_health_input_is_refused_with_a_sentence(action, message):
    refused(table(), 1, message, **action)


def test_the_host_must_say_whose_counter_changes():
    refused(table(), None, "Say whose Health", type="lose-health", amount=1)


def test_malformed_actions_are_refused():
    state = table()
    for bad in (None, [], {"seat": 1}, {"type": 3, "seat": 1}):
        with pytest.raises(IllegalAction, match="needs a type"):
            rules.apply(state, bad, None)
    with pytest.raises(IllegalAction, match="doesn't say who"):
        rules.apply(state, {"type": "start"}, None)
    for seat in (0, 3, True, "1"):
        refused(state, seat, "There is no seat", type="start")


# ---- Remnant, Graveyard, deck -------------------------------------------------------------------------------------

def test_remnant_equals_the_graveyard_up_to_10_and_spent_remnant_leaves_the_game():
    """'Equals the number of cards in your Graveyard (max 10)'; 'Remove used Remnant cards from the game'."""
    state, _ = act(table(), 1, type="discard", amount=12)
    mine = seen(state, 1)["me"]
    assert mine["graveyard"] == 12 and mine["remnant"] == 10
    state, events = act(state, 1, type="spend-remnant", amount=4)
    assert player(state, 1)["graveyard"] == 8 and player(state, 1)["removed"] == 4
    assert seen(state, 1)["me"]["remnant"] == 8
    assert "4 cards removed from the game" in events[0]


def test_remnant_is_never_spent_above_10_or_beyond_the_graveyard():
    state, _ = act(table(), 1, type="discard", amount=2)
    refused(state, 1, "only 2 cards in the Graveyard, not 3", type="spend-remnant", amount=3)
    state, _ = act(state, 1, type="discard", amount=20)
    refused(state, 1, "Remnant is at most 10; you can't spend 11", type="spend-remnant", amount=11)
    refused(table(), 1, "only 0 cards in the Graveyard", type="spend-remnant", amount=1)


def test_the_deck_counts_down_with_draws_and_can_be_corrected():
    state, events = act(table(), 1, type="draw", amount=2)
    assert player(state, 1)["deck"] == 35 and "drew 2 cards" in events[0]
    state, _ = act(state, 1, type="set-deck", value=50)
    assert player(state, 1)["deck"] == 50
    refused(state, 1, "has only 50 cards", type="draw", amount=51)
    refused(state, 1, "can't be more than 400", type="set-deck", value=401)
    refused(state, 1, "can't be less than 0", type="set-graveyard", value=-1)


# ---- combat --------------------------------------------------------------------------------------------------------

def test_an_unblocked_attack_takes_its_atk_off_the_defenders_health():
    """'If an attack is unblocked, another player loses Health. Lost Health equals the number of damage dealt.'"""
    state = to_phase(started(), "action")
    after, events = attack(state, 1, 2, 4, 3)
    assert player(after, 2)["health"] == 16
    assert after["last_combat"]["unblocked"] and after["last_combat"]["player_damage"] == 4
    assert "Player 2's Health 20 \u2192 16 (\u22124)" in events[0]


def test_several_blockers_fight_the_attacker_all_at_once():
    """'All involved characters lose DEF equal to the other's ATK. Apply damage simultaneously.' Each blocker takes
    the attacker's ATK; the attacker takes all the blockers' ATK together. 'If a character's DEF reaches 0, it is
    killed and discarded.' A blocked attack costs no Health."""
    state = to_phase(started(), "action")
    after, events = attack(state, 1, 2, 3, 4, (2, 3), (1, 5), (0, 2))
    fight = after["last_combat"]
    assert fight["attacker"] == {"atk": 3, "def": 4, "damage": 3, "left": 1, "dies": False}
    assert [(b["slot"], b["damage"], b["left"], b["dies"]) for b in fight["blockers"]] == [
        (1, 3, 0, True), (2, 3, 2, False), (3, 3, 0, True)]
    assert player(after, 2)["health"] == 20
    assert player(after, 2)["graveyard"] == 2 and player(after, 1)["graveyard"] == 0
    assert "Player 2's Graveyard +2" in events[0]


def test_a_blocked_attacker_dies_when_the_blockers_atk_adds_up_to_its_def():
    state = to_phase(started(), "action")
    after, _ = attack(state, 1, 2, 1, 3, (2, 4), (1, 4))
    assert after["last_combat"]["attacker"]["dies"] and player(after, 1)["graveyard"] == 1
    assert not any(blocker["dies"] for blocker in after["last_combat"]["blockers"])


def test_combat_resolution_matches_brute_force_over_small_numbers():
    """Every fight with ATK 0-3, DEF 1-3 and up to two blockers, checked against the rulebook sentence directly."""
    for a_atk in range(4):
        for a_def in range(1, 4):
            for blockers in [[]] + [[(x, y)] for x in range(4) for y in range(1, 4)] + [
                    [(x, y), (z, w)] for x in range(3) for y in range(1, 3) for z in range(3) for w in range(1, 3)]:
                result = combat.resolve({"atk": a_atk, "def": a_def}, [{"atk": x, "def": y} for x, y in blockers])
                hit = sum(x for x, _ in blockers)
                assert result["attacker"]["dies"] == (bool(blockers) and a_def - hit <= 0)
                assert [b["dies"] for b in result["blockers"]] == [y - a_atk <= 0 for _, y in blockers]
                assert result["player_damage"] == (0 if blockers else a_atk)


def test_five_or_more_characters_block_a_single_attack():
    """Issue 46: 'Multiple characters can block a single attack' names no number, yet a fifth blocker was refused
    ("Assigning blockers doesn't take 'b5_atk'"). Six blockers fight a 7/9 attacker, all at once."""
    state = to_phase(started(), "action")
    after, events = attack(state, 1, 2, 7, 9, (1, 7), (1, 7), (1, 7), (1, 7), (2, 7), (3, 9))
    fight = after["last_combat"]
    assert [blocker["slot"] for blocker in fight["blockers"]] == [1, 2, 3, 4, 5, 6]
    assert fight["attacker"] == {"atk": 7, "def": 9, "damage": 9, "left": 0, "dies": True}
    assert [blocker["dies"] for blocker in fight["blockers"]] == [True, True, True, True, True, False]
    assert events[0].startswith("assigned 6 blockers to Player 1's attack: the 7/9 attacker dies;")
    assert player(after, 2)["graveyard"] == 5 and player(after, 1)["graveyard"] == 1


def test_backup_counts_only_attacking_alongside_other_characters_named_x():
    """'Backup X - Gains +X/+X if attacking alongside other characters named X': the attack records it as the text
    has it, apart from Leader's +X/+X, and refuses it for a character attacking alone."""
    state = to_phase(started(), "action")
    refused(state, 1, "Backup X 'Gains +X/+X if attacking alongside other characters named X'", type="attack",
            target=2, atk=2, backup=2, **{"def": 1})
    declared, events = act(state, 1, type="attack", target=2, atk=2, bonus=1, backup=2, alongside=True, **{"def": 1})
    assert events == ["declared an attack on Player 2 with a 5/4 character (+3/+3 included, Backup +2/+2, attacking "
                      "alongside other characters named X): Player 2 assigns blockers."]
    fight = seen(declared, 2)["fight"]
    assert (fight["bonus"], fight["backup"], fight["alongside"], fight["attacker"]) == (3, 2, True,
                                                                                       {"atk": 5, "def": 4})
    after, _ = act(declared, 2, type="block")
    assert (after["last_combat"]["backup"], after["last_combat"]["alongside"]) == (2, True)
    assert player(after, 2)["health"] == 15


def test_backup_or_leader_adds_x_to_both_atk_and_def():
    """'Leader - Gains +X/+X for every character named X in your control.'"""
    state, events = act(to_phase(started(), "action"), 1, type="attack", target=2, atk=2, bonus=1, **{"def": 1})
    assert events == ["declared an attack on Player 2 with a 3/2 character (+1/+1 included): Player 2 assigns "
                      "blockers."]
    after, _ = act(state, 2, type="block", blockers=[{"atk": 3, "def": 3}])
    assert after["last_combat"]["attacker"] == {"atk": 3, "def": 2, "damage": 3, "left": 0, "dies": True}
    assert after["last_combat"]["blockers"][0]["dies"]


def test_a_disguise_attacker_can_only_be_blocked_by_disguise_or_spot():
    """'Disguise - Can only be blocked by other characters with Disguise.' 'Spot - Can block characters with
    Disguise.'"""
    state = declare(to_phase(started(), "action"), 1, 2, 2, 2, disguise=True)
    refused(state, 2, "Blocker 1 can't block", type="block", blockers=[{"atk": 1, "def": 1}])
    after, _ = act(state, 2, type="block", blockers=[{"atk": 1, "def": 1, "spot": True}])
    assert after["last_combat"]["disguise"] and after["last_combat"]["blockers"][0]["dies"]


@pytest.mark.parametrize("fields,message", [
    ({"target": 1}, "not yourself"),
    ({"target": 3}, "by seat number"),
    ({"target": "2"}, "by seat number"),
    ({"atk": -1}, "can't be less than 0"),
    ({"def": 0}, "can't be less than 1"),
    ({"atk": 100}, "can't be more than 99"),
    ({"atk": None}, "must be a whole number"),
    ({"bonus": -1}, "+X/+X (Leader, or another card) can't be less than 0"),
    ({"backup": -1}, "Backup X (+X/+X) can't be less than 0"),
    ({"backup": 1}, "tick that it attacks alongside them, or leave Backup at 0"),
    ({"alongside": "yes"}, "is a yes-or-no box"),
    ({"disguise": "maybe"}, "yes-or-no"),
    ({"disguise": "yes"}, "Disguise is a yes-or-no box: send true or false."),
    ({"blockers": []}, "An attack doesn't take 'blockers'"),
])
def test_bad_attack_input_is_refused(fields, message):
    state = to_phase(started(), "action")
    refused(state, 1, message, type="attack", **({"target": 2, "atk": 2, "def": 2} | fields))


@pytest.mark.parametrize("fields,message", [
    ({"blockers": [{"atk": 2}]}, "Blocker 1 needs both"),
    ({"blockers": [{}, {"def": 0, "atk": 1}]}, "Blocker 2's DEF can't be less than 1"),
    ({"blockers": [{"atk": 100, "def": 1}]}, "Blocker 1's ATK can't be more than 99"),
    ({"blockers": [{}, {}, {"spot": True}]}, "Blocker 3 is ticked"),
    ({"blockers": [{}, {"spot": "on"}]}, "A blocker's Spot or Disguise is a yes-or-no box"),
    ({"blockers": [{"atk": 1, "def": 1, "slot": 5}]}, "Blocker 1 doesn't take 'slot'"),
    ({"blockers": {"atk": 1}}, "Give the blockers as a list of rows"),
    ({"blockers": [{"atk": 1, "def": 1}] * 401}, "The blockers can have at most 400 rows, not 401"),
    ({"b1_atk": 1}, "Assigning blockers doesn't take 'b1_atk'"),
    ({"target": 1}, "Assigning blockers doesn't take 'target'"),
])
def test_bad_blocker_input_is_refused(fields, message):
    state = declare(to_phase(started(), "action"), 1, 2, 2, 2)
    refused(state, 2, message, type="block", **fields)


def test_attacks_only_in_the_attackers_action_phase():
    """'4. Action - Each ready character may perform one action: Attack ...'"""
    state = started()
    refused(state, 1, "Action phase of your turn, not in the Draw phase", type="attack", target=2, atk=1,
            **{"def": 1})
    refused(to_phase(state, "action"), 2, "only they (or the host) declare attacks", type="attack", target=1,
            atk=1, **{"def": 1})
    refused(table(), 1, "not before the first turn", type="attack", target=2, atk=1, **{"def": 1})


def test_combat_damage_stops_at_0_and_puts_the_defender_out():
    state = to_phase(started(3), "action")
    state, _ = act(state, None, type="set-health", value=3, whose=2)
    after, events = attack(state, 1, 2, 7, 1)
    assert player(after, 2)["health"] == 0
    assert events[-1] == "Player 2 drops to 0 Health and is out."
    refused(after, 1, "already out", type="attack", target=2, atk=1, **{"def": 1})


# ---- the end ---------------------------------------------------------------------------------------------------------

def test_the_last_one_standing_wins():
    """'Survive: All players except one drop to 0 Health'."""
    state = started(3)
    state, _ = act(state, None, type="set-health", value=0, whose=2)
    assert rules.outcome(state) is None
    state, _ = act(state, None, type="lose-health", amount=20, whose=3)
    over = rules.outcome(state)
    assert over.winners == (1,) and "last one standing" in over.text


def test_a_player_who_is_out_can_no_longer_act_and_their_counters_stay():
    state, _ = act(started(3), None, type="set-health", value=0, whose=2)
    refused(state, 2, "Player 2 is out of the game", type="gain-health", amount=1)
    refused(state, 2, "Player 2 is out of the game", type="spend-power", amount=1)
    refused(state, None, "Player 2 is out of the game", type="gain-health", amount=1, whose=2)
    assert rules.legal_actions(state, 2) == []


def test_an_out_player_is_skipped_in_turn_order_and_loses_their_turn_at_once():
    state = started(3)  # Player 1's turn
    state, events = act(state, None, type="set-health", value=0, whose=1)
    assert state["turn"]["seat"] == 2 and state["turn"]["phase"] == "draw"
    assert events[-1].startswith("Turn 2: Player 2 draws")
    state = to_phase(state, "cleanup")
    state, _ = act(state, None, type="next-phase")
    assert state["turn"]["seat"] == 3
    state = to_phase(state, "cleanup")
    state, _ = act(state, None, type="next-phase")
    assert state["turn"]["seat"] == 2


def test_deck_out_gives_the_win_to_the_most_health():
    """'Deck Out: If a player's deck is empty, the player with the most Health wins'."""
    state, _ = act(started(3), None, type="set-health", value=12, whose=1)
    state, _ = act(state, None, type="set-health", value=15, whose=3)
    state, _ = act(state, None, type="set-health", value=10, whose=2)
    state, _ = act(state, 2, type="set-deck", value=0)
    over = rules.outcome(state)
    assert over.winners == (3,) and not over.shared
    assert over.text == "Deck out: Player 2's deck is empty. Player 3 has the most Health (15) and wins!"


def test_a_deck_out_tie_is_shown_and_shared():
    state, _ = act(started(3), None, type="set-health", value=12, whose=2)
    state, _ = act(state, 1, type="set-deck", value=0)
    over = rules.outcome(state)
    assert over.winners == (1, 3) and over.shared
    assert "Player 1 and Player 3 tie with the most Health (20)" in over.text


def test_drawing_the_last_card_at_the_start_of_a_turn_ends_the_game():
    state, _ = act(started(), None, type="set-deck", value=1, whose=2)
    state = to_phase(state, "cleanup")
    state, _ = act(state, 1, type="next-phase")
    assert player(state, 2)["deck"] == 0
    assert rules.outcome(state).winners == (1, 2)


# ---- what the UI offers and shows ------------------------------------------------------------------------------

def test_the_view_says_whose_turn_it_is_and_what_comes_next():
    state = to_phase(started(), "cleanup")
    theirs = seen(state, 2)
    assert theirs["now"]["phase_name"] == "Cleanup" and theirs["now"]["step"] == "End turn: Player 2 draws"
    assert theirs["turn"] == {"seats": [1], "text": "Player 1's turn: Cleanup phase"}
    assert [phase["current"] for phase in theirs["phases"]] == [False, False, False, False, True]
    assert "next-phase" not in offered(state, 2) and "next-phase" in offered(state, 1)
    assert theirs["me"]["seat"] == 2 and not theirs["me"]["turn"]
    assert {keyword["name"] for keyword in theirs["reminders"]} >= {"Disguise", "Spot", "Guard", "Haywire",
                                                                     "Backup X", "Leader"}


def test_the_glossary_holds_every_keyword_of_the_rulebook():
    names = [keyword["name"] for keyword in keywords.KEYWORDS]
    assert names == ["Jumpscare", "Rush", "Stealth", "Disguise", "Spot", "Guard", "Crawl", "Haywire", "Illusion",
                     "Upgrade", "Salvage", "Leader", "Partner X", "Backup X", "Domain"]
    assert [keyword["name"] for keyword in keywords.search("disguise")] == ["Disguise", "Spot"]
    assert [keyword["name"] for keyword in keywords.search("  POWER ")] == ["Upgrade", "Salvage"]
    assert keywords.search("nothing like this") == []
    assert len(keywords.search("")) == 15


# ---- review: questions a close reader asks ------------------------------------------------------------------

def test_are_the_assumed_health_and_stat_ceilings_chosen_by_the_host_at_setup():
    """GAMES.md: an assumed number is labelled and editable at setup. The rulebook prints no maximum Health or ATK."""
    for key in ("health_limit", "stat_limit"):
        assert SPEC.option(key).source == "assumed" and SPEC.profile[key].source == "assumed"
    state = table(health_limit=30, stat_limit=15)
    assert state["limits"]["health_max"] == 30 and state["limits"]["stat"] == 15
    refused(state, 1, "gaining 11 would pass 30, far above the 20 you start with", type="gain-health", amount=11)
    state, _ = act(state, 1, type="gain-health", amount=10)
    assert player(state, 1)["health"] == 30
    fight = to_phase(started(health_limit=30, stat_limit=15), "action")
    refused(fight, 1, "can't be more than 15", type="attack", target=2, atk=16, **{"def": 1})
    with pytest.raises(OptionError, match="from 20 to 999"):
        SPEC.configure({"health_limit": 19})  # a ceiling under the starting 20 would refuse the opening Health


def test_do_the_power_buttons_reach_power_that_salvage_lifted_above_this_turns_dial():
    """'Salvage - When this card is discarded, gain 1 Power.' Power 3 on a dial of 1 must be spendable in one tap."""
    state, _ = act(started(), 1, type="gain-power", amount=2)
    mine = seen(state, 1)["me"]
    assert mine["power"] == 3 and mine["power_max"] == 1 and mine["power_buttons"] == [1, 2, 3]
    state, _ = act(state, 1, type="spend-power", amount=3)
    assert player(state, 1)["power"] == 0


def test_is_a_player_who_is_out_before_the_first_turn_no_longer_listed_as_deciding_on_a_redraw():
    state, _ = act(table(3), None, type="set-health", value=0, whose=2)
    assert seen(state, 1)["deciding"] == [1, 3]


def test_does_the_start_pass_clockwise_when_the_chosen_first_player_is_out_before_turn_1():
    """'Choose a player to start.' 'Players take turns clockwise.' A starter who is out can't take turn 1."""
    state, _ = act(table(3, first_player=3), None, type="set-health", value=0, whose=3)
    refused(state, 3, "Player 3 is out", type="start")
    refused(state, 2, "Player 1 starts", type="start")
    state, _ = act(state, 1, type="redraw", count=0)
    state, _ = act(state, 2, type="redraw", count=1)
    assert "start" in offered(state, 1) and seen(state, 1)["starter"] == 1
    after, _ = act(state, 1, type="start")
    assert after["turn"] == {"seat": 1, "phase": "draw", "number": 1}


def test_can_the_first_player_start_before_the_others_chose_to_keep_or_redraw():
    """'You may discard and redraw each card once' is each player's choice: the first player's phone waits for the
    others; the host may start anyway and undecided hands are kept."""
    state, _ = act(table(3), 1, type="redraw", count=0)
    refused(state, 1, "Player 2 and Player 3 still have to keep or redraw", type="start")
    assert "start" not in offered(state, 1) and "start" in offered(state, None)
    assert seen(state, 1)["deciding"] == [2, 3] and seen(state, 1)["turn"]["seats"] == [2, 3]
    state, _ = act(state, 2, type="redraw", count=0)
    refused(state, 1, "Player 3 still has to keep or redraw", type="start")
    after, _ = act(state, None, type="start")
    assert after["turn"]["seat"] == 1 and player(after, 3)["redrawn"] is None
    refused(after, 3, "only before the first turn", type="redraw", count=1)


def test_does_an_attack_that_takes_health_to_exactly_0_put_the_defender_out_and_end_a_two_player_game():
    """'Survive: All players except one drop to 0 Health': exactly 0 is out, one more Health is not."""
    state = to_phase(started(), "action")
    state, _ = act(state, None, type="set-health", value=5, whose=2)
    alive, _ = attack(state, 1, 2, 4, 1)
    assert player(alive, 2)["health"] == 1 and rules.outcome(alive) is None
    over, events = attack(state, 1, 2, 5, 1)
    assert player(over, 2)["health"] == 0 and rules.outcome(over).winners == (1,)
    assert events[-1] == "Player 2 drops to 0 Health and is out."
    past, _ = attack(state, 1, 2, 9, 1)  # more damage than Health left stops at 0, never below
    assert player(past, 2)["health"] == 0


def test_does_a_blocker_die_when_the_attackers_atk_equals_its_def_exactly():
    """'If a character's DEF reaches 0, it is killed': reaching exactly 0 kills; 1 left survives."""
    result = combat.resolve({"atk": 3, "def": 3}, [{"atk": 3, "def": 3}, {"atk": 0, "def": 4}])
    assert result["attacker"]["dies"] and result["attacker"]["left"] == 0
    assert [(b["dies"], b["left"]) for b in result["blockers"]] == [(True, 0), (False, 1)]


def test_does_a_deck_out_with_a_player_already_out_ignore_them():
    """'If a player's deck is empty, the player with the most Health wins': only players still in can win."""
    state, _ = act(started(3), None, type="set-health", value=0, whose=3)
    state, _ = act(state, None, type="set-health", value=4, whose=2)
    state, _ = act(state, None, type="set-deck", value=0, whose=2)
    over = rules.outcome(state)
    assert over.winners == (1,) and "Player 2's deck is empty. Player 1 has the most Health (20)" in over.text


# ---- the fight on two phones (issue 15): the attacker declares, the defender assigns blockers ---------------------

def test_the_attacker_declares_and_the_defender_alone_assigns_blockers():
    """COMBAT: 'Attacker declares target player. Defender assigns blockers.' Until then the turn waits."""
    state, events = act(to_phase(started(3), "action"), 1, type="attack", target=3, atk=4, disguise=True,
                        **{"def": 2})
    assert events == ["declared an attack on Player 3 with a 4/2 character (Disguise): Player 3 assigns blockers."]
    fight = seen(state, 3)["fight"]
    assert (fight["stage"], fight["waiting"], fight["attacker"]) == ("block", 3, {"atk": 4, "def": 2})
    assert seen(state, 1)["turn"] == {"seats": [3], "text": "Player 3 assigns blockers"}
    assert offered(state, 3)[0] == "block" and "block" in offered(state, None)
    assert "block" not in offered(state, 1) + offered(state, 2)
    assert not {"attack", "next-phase"} & set(offered(state, 1) + offered(state, None))
    refused(state, 2, "Player 3 assigns the blockers for this attack (or the host does for them).", type="block")
    refused(state, 1, "Player 3 assigns the blockers", type="block")
    refused(state, 1, "Player 3 is still assigning blockers to the attack; the fight comes first.",
            type="next-phase")
    refused(state, None, "Player 3 is still assigning blockers", type="attack", target=2, atk=1, **{"def": 1})
    after, events = act(state, 3, type="block", blockers=[{"atk": 1, "def": 9, "spot": True}])
    assert events == ["assigned 1 blocker to Player 1's attack: the 4/2 attacker survives with DEF 1; blocker 1 "
                      "(1/9) survives with DEF 5."]
    assert after["fight"] is None and seen(after, 1)["turn"]["seats"] == [1]
    assert {"attack", "next-phase"} <= set(offered(after, 1))  # each ready character may attack in turn
    refused(after, 3, "There is no attack waiting for blockers", type="block")


def test_the_host_enters_both_halves_of_a_fight_for_pass_and_play():
    state = declare(to_phase(started(), "action"), None, 2, 3, 3)
    after, events = act(state, None, type="block")
    assert player(after, 2)["health"] == 17
    assert events == ["assigned no blockers to Player 1's attack: an unblocked 3/3 attacker deals 3 damage. Player "
                      "2's Health 20 \u2192 17 (\u22123)."]


def test_an_attack_on_a_player_who_drops_out_before_blocking_is_called_off():
    state = declare(to_phase(started(3), "action"), 1, 2, 3, 3)
    after, events = act(state, None, type="set-health", value=0, whose=2)
    assert events[-2:] == ["Player 2 drops to 0 Health and is out.", "Player 1's attack on Player 2 is called off."]
    assert after["fight"] is None and "next-phase" in offered(after, 1)


def test_an_attacker_who_drops_out_mid_fight_ends_the_fight_and_the_turn_passes():
    state = declare(to_phase(started(3), "action"), 1, 3, 3, 3)
    after, events = act(state, None, type="set-health", value=0, whose=1)
    assert after["fight"] is None and after["turn"]["seat"] == 2 and after["turn"]["phase"] == "draw"
    assert "Player 1's attack on Player 3 is called off." in events


def test_a_table_stored_before_the_fight_moves_and_the_readings_still_loads_and_plays():
    """A state from before this change has no fight, readings, decked_out or deck_max: each reads its default."""
    state = to_phase(started(), "action")
    for key in ("fight", "readings", "decked_out"):
        del state[key]
    del state["limits"]["deck_max"]
    shown = seen(state, 1)
    assert shown["fight"] is None and shown["readings"]["blocked_damage"]["value"] == "full"
    assert shown["limits"]["deck_max"] == SPEC.profile["deck_max"].value
    after, _ = attack(state, 1, 2, 4, 2)
    assert player(after, 2)["health"] == 16
    after, _ = act(after, 1, type="set-deck", value=0)
    assert rules.outcome(after).winners == (1,)  # Deck Out as it always was: the moment a deck is empty


# ---- readings of loose sentences (issue 17): every one a setup option, tested in both settings ----------------------

def test_every_reading_is_an_assumed_setup_option_quoting_the_rulebook():
    quotes = {"deck_out": "If a player's deck is empty, the player with the most Health wins.",
              "blocked_damage": "All involved characters lose DEF equal to the other's ATK.",
              "white_copies": "No deck limit, can be added to any deck."}
    for key, quote in quotes.items():
        option = SPEC.option(key)
        assert option.source == "assumed" and quote in option.help, key
        assert key in rules.__doc__
    assert {key: SPEC.option(key).default for key in quotes} == {"deck_out": "empty", "blocked_damage": "full",
                                                                 "white_copies": "free"}
    with pytest.raises(OptionError, match="Deck Out ends the game must be one of: empty, draw"):
        SPEC.configure({"deck_out": "never"})


def test_the_view_says_which_reading_is_in_force():
    readings = seen(table(deck_out="draw", blocked_damage="split", white_copies="four"), 1)["readings"]
    assert readings["deck_out"] == {"value": "draw", "source": "assumed", "text": "Deck Out ends the game when a "
                                    "player with an empty deck has to draw at the start of their turn."}
    assert readings["blocked_damage"]["text"] == "The attacker splits its ATK among the blockers."
    assert readings["white_copies"]["text"] == "White cards hold to 4 copies, like every card."
    assert seen(table(), None)["readings"]["deck_out"]["text"] == ("Deck Out ends the game the moment any player's "
                                                                   "deck is empty.")


def last_card_drawn(**options) -> dict:
    """Player 2 draws their last card at the start of turn 2."""
    state, _ = act(started(**options), None, type="set-deck", value=1, whose=2)
    state, _ = act(to_phase(state, "cleanup"), 1, type="next-phase")
    assert player(state, 2)["deck"] == 0 and state["turn"]["seat"] == 2
    return state


def test_deck_out_by_default_ends_the_game_the_moment_the_last_card_is_drawn():
    """'Deck Out: If a player's deck is empty, the player with the most Health wins.'"""
    state = last_card_drawn()
    over = rules.outcome(state)
    assert over.winners == (1, 2) and over.text.startswith("Deck out: Player 2's deck is empty.")
    assert rules.legal_actions(state, None) == []


def test_deck_out_read_as_drawing_from_an_empty_deck_plays_on_until_that_draw():
    """The other timing the text allows: the game goes on until that player has to 'Draw 1 card from your deck'."""
    state = last_card_drawn(deck_out="draw")
    assert rules.outcome(state) is None
    state, _ = act(state, 2, type="set-health", value=15)
    state = to_phase(state, "cleanup")
    state, _ = act(state, 2, type="next-phase")  # Player 1's turn 3: their deck still has cards
    assert rules.outcome(state) is None and player(state, 1)["deck"] == 35
    state = to_phase(state, "cleanup")
    state, events = act(state, 1, type="next-phase")
    assert events[-1] == "Turn 4: Player 2 has to draw from an empty deck."
    over = rules.outcome(state)
    assert over.winners == (1,)
    assert over.text == "Deck out: Player 2 had to draw from an empty deck. Player 1 has the most Health (20) and wins!"


def test_several_blockers_each_take_the_full_atk_by_default():
    """'All involved characters lose DEF equal to the other's ATK': a 5/4 attacker hits a 2/3 and a 1/5 for 5 each."""
    state = to_phase(started(), "action")
    after, _ = attack(state, 1, 2, 5, 4, (2, 3), (1, 5))
    assert [(b["damage"], b["dies"]) for b in after["last_combat"]["blockers"]] == [(5, True), (5, True)]


def test_several_blockers_split_the_atk_when_the_table_reads_it_so():
    """The `split` reading: the attacker's player shares its 5 ATK among the blockers (a third move)."""
    state = declare(to_phase(started(blocked_damage="split"), "action"), 1, 2, 5, 4)
    state, events = act(state, 2, type="block", **blocks((2, 3), (1, 5)))
    assert events == ["assigned 2 blockers to Player 1's attack: Player 1 splits the attacker's 5 ATK among them."]
    assert seen(state, 2)["fight"]["stage"] == "split" and seen(state, 2)["turn"]["seats"] == [1]
    assert rules.legal_actions(state, 1)[0] == {"type": "split", "damage": [3, 2]}  # lethal first: a valid default
    assert "split" not in offered(state, 2) and "next-phase" not in offered(state, 1)
    refused(state, 2, "Player 1 splits the attacker's ATK", type="split", damage=[3, 2])
    refused(state, 1, "Split all of the attacker's 5 ATK: these add up to 4.", type="split", damage=[2, 2])
    refused(state, 1, "Give one share for each of the 2 blockers (1 and 2), in order; you gave 3.", type="split",
            damage=[3, 2, 0])
    refused(state, 1, "A blocker can't take more than the attacker's 5 ATK; you gave 6.", type="split", damage=[6])
    refused(state, 2, "There is no attack waiting for blockers", type="block")
    after, events = act(state, 1, type="split", damage=[1, 4])
    assert events[0].startswith("split the attacker's 5 ATK 1 + 4: the 5/4 attacker survives with DEF 1; blocker 1 "
                                "(2/3) survives with DEF 2, blocker 2 (1/5) survives with DEF 1.")
    assert after["fight"] is None and "next-phase" in offered(after, 1)


def test_one_blocker_takes_the_whole_atk_under_either_reading():
    for reading in ("full", "split"):
        state = to_phase(started(blocked_damage=reading), "action")
        after, _ = attack(state, 1, 2, 5, 4, (2, 3))
        assert after["fight"] is None and after["last_combat"]["blockers"][0]["damage"] == 5


# ---- a whole game at random: the rulebook's invariants (the contract test checks every offer and the JSON) -------

def random_move(state: dict, chance: random.Random, calm: bool = False) -> dict:
    """A plausible move: mostly the turn stepping on and fights, sometimes counters, now and then something wrong.
    A calm table rarely fights, so its decks run out first."""
    turn, fight = state["turn"], state["fight"]
    alive = [seat for seat in state["seats"] if player(state, seat)["health"] > 0]
    who = chance.choice(alive)
    roll = chance.random()
    if turn["phase"] == "opening":
        return chance.choice([{"type": "redraw", "count": chance.randint(0, 3), "seat": who},
                              {"type": "redraw", "count": chance.randint(0, 3), "seat": None, "whose": who},
                              {"type": "start", "seat": chance.choice([None, who])}])
    if fight is not None and roll < 0.8:
        rows = [{"atk": chance.randint(0, 4), "def": chance.randint(1, 4), "spot": chance.random() < 0.5}
                for _ in range(chance.randint(0, 6))]
        return {"type": "block", "seat": chance.choice([fight["target"], fight["target"], None, who]), "blockers": rows}
    if turn["phase"] == "action" and roll < (0.03 if calm else 0.5):
        targets = [seat for seat in alive if seat != turn["seat"]]
        fields = {"type": "attack", "seat": chance.choice([turn["seat"], None]), "target": chance.choice(targets),
                  "atk": chance.randint(0, 6), "def": chance.randint(1, 6), "disguise": chance.random() < 0.2}
        if chance.random() < 0.3:
            fields["bonus"] = chance.randint(0, 2)
        return fields
    if roll < 0.55:
        return {"type": "next-phase", "seat": chance.choice([turn["seat"], turn["seat"], None, who])}
    kind = chance.choice(["gain-health", "spend-power", "gain-power", "spend-remnant", "discard", "draw"]
                         + ([] if calm else ["lose-health", "set-health"]))
    field = "value" if kind.startswith("set") else "amount"
    return {"type": kind, "seat": who, field: chance.randint(-1, 12)}


def check_invariants(before: dict, state: dict) -> None:
    """What must hold after every accepted move of the random game."""
    turn = state["turn"]
    assert sum(player(state, seat)["turns"] for seat in state["seats"]) == turn["number"]
    for seat in state["seats"]:
        mine, was = player(state, seat), player(before, seat)
        assert 0 <= mine["health"] <= 99 and 0 <= mine["power"] <= 10 and 1 <= mine["power_max"] <= 10
        assert 0 <= mine["deck"] <= was["deck"]  # no set-deck here: the deck only ever shrinks
        assert mine["graveyard"] >= 0 and mine["removed"] >= was["removed"]
        assert mine["graveyard"] + mine["removed"] >= was["graveyard"] + was["removed"]  # cards only leave by Remnant
        assert seen(state, seat)["me"]["remnant"] == min(10, mine["graveyard"])
        # 'Starts at 1, increases by +1 per turn (max 10)': the dial grows in Ready, once per own turn
        if mine["health"] == 0:
            assert mine == {**was, "health": 0}  # a player who is out keeps their counters as they were
            continue
        before_ready = turn["seat"] == seat and turn["phase"] == "draw"
        assert mine["power_max"] == min(10, max(1, mine["turns"] - (1 if before_ready else 0)))
    if turn["phase"] != "opening" and rules.outcome(state) is None:
        assert player(state, turn["seat"])["health"] > 0  # the turn is never with a player who is out
    fight = state["fight"]
    if fight is not None:  # a fight waits only in its attacker's Action phase, against a player still in
        assert turn["phase"] == "action" and fight["attacker_seat"] == turn["seat"]
        assert player(state, fight["target"])["health"] > 0


def check_ending(state: dict) -> str:
    """The outcome matches the rulebook's Victory: the last one standing, or the most Health on a deck-out."""
    over = rules.outcome(state)
    assert over is not None and over.text
    alive = [seat for seat in state["seats"] if player(state, seat)["health"] > 0]
    assert set(over.winners) <= set(alive)
    if len(alive) == 1:
        assert over.winners == (alive[0],) and "last one standing" in over.text
        return "survive"
    assert any(player(state, seat)["deck"] == 0 for seat in alive)
    best = max(player(state, seat)["health"] for seat in alive)
    assert over.winners == tuple(seat for seat in alive if player(state, seat)["health"] == best)
    assert over.shared == (len(over.winners) > 1)
    return "deck-out"


def play_out(seed: int, players: int, calm: bool = False) -> dict:
    chance = random.Random(seed)
    state = table(players, first_player=chance.randint(1, players), deck_size=chance.choice([40, 41, 45]),
                  redrawn_cards=chance.choice(["graveyard", "deck"]))
    moves = refusals = 0
    while rules.outcome(state) is None and moves < 5000:
        move = random_move(state, chance, calm)
        before = dumped(state)
        try:
            after, events = rules.apply(state, move, None)
        except IllegalAction as error:
            refusals += 1
            assert str(error) and dumped(state) == before
            continue
        moves += 1
        assert events and all(event.undoable for event in events)
        check_invariants(json.loads(before), after)
        state = after
    assert rules.outcome(state) is not None, f"seed {seed}: no end after {moves} moves"
    assert refusals > 0
    return state


@pytest.mark.parametrize("calm", [False, True], ids=["fighting", "calm"])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(2))
def test_a_random_game_plays_to_an_end_keeping_every_counter_in_bounds(seed, players, calm):
    """2-4 players, any first player, both redraw choices: a fighting table reaches the rulebook's Victory mostly by
    'Survive', a calm one by 'Deck Out', so both endings are played."""
    ending = check_ending(play_out(seed * 10 + players, players, calm))
    if calm:
        assert ending == "deck-out"
