"""Director's Cut with the app as GM, without Flask: the night table, each animatronic's procedure, revives, the end."""

import copy
import random
import re
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from app.dice import TableDice, parse, roll_with
from app.games import REGISTRY, OptionError
from app.games.contract import IllegalAction, Viewer
from app.games.directors_cut import READINGS, odds, rules
from app.games.directors_cut.nights import NIGHTS, night_of
from app.games.directors_cut.story import ANIMATRONICS_MOVE, BONNIE_SIGHT, FREDDY_SIGHT, GUARDS_MOVE, question

from ..rules_helpers import RulesUnderTest, dumped, opening, profile_of

SEED = "cd" * 32
SPEC = REGISTRY["directors-cut"]
DC = RulesUnderTest(rules, SEED)
PROFILE = profile_of(SPEC)
# The rulebooks sit beside the project's checkout (or beside the folder of worktrees), never inside it.
RULEBOOK = next((path for path in (Path(__file__).resolve().parents[level] / "shared" / "rules" / "directors-cut.txt"
                                   for level in (3, 4)) if path.exists()),
                Path(__file__).resolve().parents[3] / "shared" / "rules" / "directors-cut.txt")

# "Individual NIGHT Rules" exactly as rules/directors-cut.txt prints them (its spelling kept; one long line is
# continued with a backslash, which joins it back into one line).
NIGHT_RULES = """
The First Night: (1-6 Players)
Foxy and Freddy aren't allowed to move.
If the guards survive 10 full turns (a full turn is having every guard/animatronic moved once) they win.

The Second Night: (1-6 Players)
Foxy is allowed to move, Freddy isn't.
If the guards survive 10 full turns they win.

The Third Night: (1-6 Players)
Bonnie rolls twice.
Chica's rolls are doubled.
Foxy is allowed to move, Freddy isn't.
If the guards survive 10 full turns they win.

The Fourth Night: (1-7 Players)
All animatronics are allowed to move.
Bonnie rolls twice.
Chica's rolls aren't doubled.
If ONE player enters the Medical Office, a dead player can be revived and moved to default location. (Only usable once)
If the guards survive 10 full turns they win.

The Fifth Night: (1-7 Players)
All animatronics are allowed to move.
Bonnie rolls twice.
Chica, and Freddy's rolls are doubled.
Foxy can be triggered when he rolls 10 or 20.
If TWO player enters the Medical Office, a dead player can be revived and moved to default location. (Only usable once)
If the guards survive 10 full turns they win.

The Sixth Night: (1-7 Players)
All animtronics are allowed to move.
Bonnie rolls twice.
Chica, and Freddy's rolls are doubled.
Foxy can be triggered when he rolls 10, 15, or 20.
Golden Freddy can be triggered when he rolls 6 or 12.
If TWO player enters the Medical Office, a dead player can be revived and moved to default location. (Only usable once)
If the guards survive 10 full turns they win.

One Final Night: (1-7 Players)
All animatronics are allowed to move.
Bonnie rolls twice.
Chica, and Freddy's rolls are doubled.
Foxy can be triggered when he rolls 5, 10, 15, or 20.
Golden Freddy can be triggered when he rolls 3, 6, 9, or 12.
If THREE player enters the Medical Office, a dead player can be revived and moved to default \
location. (Only usable once)
If the guards survive 10 full turns they win.
"""


def new(night: str = "first", guards: int = 2, **options) -> dict:
    """A night's opening state, set up through the same options a host picks; each roll waits for its tap unless
    `rolling="app"`, so a test enters the faces it needs."""
    return opening(SPEC, {"night": night, "guards": guards, "rolling": "tap", **options})


def act(state: dict, seat=None, **move) -> tuple[dict, list[str]]:
    """The state after `seat`'s move (None: the host) and its log lines."""
    return DC.texts(state, seat, **move)


def roll(state: dict, seat, value: int) -> tuple[dict, list[str]]:
    """The real die showed `value` (a fixed roll), entered by `seat` (None: the host)."""
    return act(state, seat, type="roll", values=[value])


def answer(state: dict, seat=None, **given) -> tuple[dict, list[str]]:
    return act(state, seat, type="answer", **given)


def answers(state: dict, seat=None) -> list[dict]:
    """What a screen is offered besides the host's corrections (which are offered whenever a question is open)."""
    return [move for move in rules.legal_actions(state, seat) if move["type"] != "correct"]


def refused(state: dict, seat, message: str, **move) -> str:
    """Refused with a sentence containing `message`, and the state it was given is byte-identical."""
    return DC.refused(state, seat, message, **move)


def text(lines: list[str]) -> str:
    return " ".join(lines)


def seen_by(state: dict, seat: int | None = None) -> dict:
    """The view of the host (None) or of a seat."""
    return rules.view(state, Viewer.host() if seat is None else Viewer.of_seat(seat))


QUIET = {"move": 2, "bonnie": 2, "chica": 2, "freddy": 2, "foxy": 1, "golden_freddy": 1, "foxy_blocked": 2}


def quietly(state: dict) -> dict:
    """One quiet move: a low roll, nobody seen or met, nobody entering Freddy's room, a guard in the cinema."""
    ask = state["ask"]
    if ask["kind"] in QUIET:
        return roll(state, None, QUIET[ask["kind"]])[0]
    if ask["kind"] == "attack":
        return roll(state, None, 2)[0]
    if ask["kind"] == "freddy_room":
        return answer(state, choice="neither")[0]
    if ask["kind"] == "moved":
        return answer(state, choice="moved")[0]
    if ask["kind"] == "foxy_path":
        return answer(state, choice="cinema")[0]
    if ask.get("nobody"):
        return answer(state, choice="nobody")[0]
    return answer(state, guard=ask["guards"][0])[0]


def until(state: dict, kind: str, turn: str | None = None) -> dict:
    """Play quietly until the question `kind` comes up."""
    for _ in range(200):
        if state["ask"]["kind"] == kind and (turn is None or state["turn"] == turn):
            return state
        state = quietly(state)
    raise AssertionError(f"never reached {kind}")


# ---- the night table, line by line ----------------------------------------------------------------------------------

def night_blocks() -> dict[str, list[str]]:
    blocks, current = {}, None
    for line in NIGHT_RULES.strip().splitlines():
        header = re.fullmatch(r"(.+Night): \(1-(\d) Players\)", line)
        if header:
            current = header.group(1)
            blocks[current] = [line]
        elif line:
            blocks[current].append(line)
    return blocks


def numbers(line: str) -> tuple[int, ...]:
    return tuple(int(number) for number in re.findall(r"\d+", line))


def squashed(text: str) -> str:
    return " ".join(text.split())


def test_is_the_embedded_night_section_the_rulebooks_own_text():
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebook folder isn't next to this checkout")
    assert squashed(NIGHT_RULES) in squashed(RULEBOOK.read_text(encoding="utf-8"))


def test_is_every_sentence_the_screens_quote_the_rulebooks_own():
    """The line-of-sight rules beside their questions, and each reading's quoted sentences in its setup help."""
    if not RULEBOOK.exists():
        pytest.skip("the shared rulebook folder isn't next to this checkout")
    book = squashed(RULEBOOK.read_text(encoding="utf-8"))
    quotes = [BONNIE_SIGHT, FREDDY_SIGHT, GUARDS_MOVE, ANIMATRONICS_MOVE]
    for option in READINGS:
        found = re.findall(r"'((?:[^']|'(?=[a-z]))+)'", option.help)  # 'Foxy is allowed to move, Freddy isn't.'
        assert found, option.key
        quotes += found
    for quote in quotes:
        assert squashed(quote).rstrip(".:") in book, quote


@pytest.mark.parametrize("night", NIGHTS, ids=[night.key for night in NIGHTS])
def test_does_each_nights_row_say_what_its_rule_card_says(night):
    block = night_blocks()[night.label]
    header, lines = block[0], block[1:]
    assert header == f"{night.label}: (1-{night.most_players} Players)"
    assert list(night.card) == lines  # the host screen shows the card as printed
    card = " ".join(lines)
    everyone = "animatronics are allowed to move" in card or "animtronics are allowed to move" in card
    assert night.foxy_moves == (everyone or "Foxy is allowed to move" in card)
    assert night.freddy_moves == everyone
    assert night.bonnie_rolls == (2 if "Bonnie rolls twice." in lines else 1)
    assert night.chica_doubled == ("Chica's rolls are doubled." in lines or "Chica, and Freddy's rolls are doubled."
                                   in lines)
    assert night.freddy_doubled == ("Chica, and Freddy's rolls are doubled." in lines)
    foxy = [line for line in lines if line.startswith("Foxy can be triggered")]
    assert night.foxy_triggers == (numbers(foxy[0]) if foxy else (20,))  # "when he rolls a 20 he charges"
    golden = [line for line in lines if line.startswith("Golden Freddy can be triggered")]
    assert night.golden_freddy_triggers == (numbers(golden[0]) if golden else (12,))  # "when he rolls a 12"
    office = [line for line in lines if "Medical Office" in line]
    words = {"ONE": 1, "TWO": 2, "THREE": 3}
    assert night.revive_needs == (words[office[0].split()[1]] if office else 0)


def test_do_the_setup_choices_and_the_night_table_agree():
    assert [value for value, _ in SPEC.option("night").choices] == [night.key for night in NIGHTS]
    assert [label for _, label in SPEC.option("night").choices] == [night.label for night in NIGHTS]
    assert night_of("eighth") is None and night_of(None) is None


# ---- setup ----------------------------------------------------------------------------------------------------------

def test_what_does_a_new_night_hold():
    state = new("fourth", guards=3, bonnie_player=True)
    assert state["order"] == ["guard-1", "guard-2", "guard-3", "bonnie", "chica", "foxy", "freddy", "golden_freddy"]
    assert state["guards"] == {"1": "alive", "2": "alive", "3": "alive"}
    assert state["controllers"] == {"bonnie": 4, "chica": None, "freddy": None}
    assert state["dice"] == {"guard": 8, "bonnie": 10, "chica": 6, "freddy": 6, "foxy": 20, "golden_freddy": 12}
    assert (state["full_turn"], state["turns_done"], state["full_turns"]) == (1, 0, 10)
    assert state["ask"] == {"kind": "move", "who": 1, "step": 1}
    assert (state["freddy"], state["foxy"]) == ("inactive", "ready")
    first = new("first")
    assert (first["freddy"], first["foxy"]) == ("resting", "resting")


@pytest.mark.parametrize("options,message", [
    ({"night": "eighth"}, "Night must be one of: first, second, third, fourth, fifth, sixth, final."),
    ({"night": "first", "freddy_player": True}, "Freddy isn't allowed to move on The First Night"),
    ({"guards": 5}, "Guards must be from 1 to 4, not 5."),
    ({"guard_die": 6}, "Guard die sides must be from 8 to 100, not 6."),
    ({"foxy_inactive": "forever"}, "Foxy inactive for must be one of: night, next."),
    ({"freddy_enters": "later"}, "is attacked must be one of: now, his-turn."),
    ({"foxy_odd_roll": 1}, "every guard is blocked ends must be one of: full-turn, foxy."),
    ({"golden_freddy_early": ["rests"]}, "Golden Freddy on the First to Third Nights must be one of: rolls, rests."),
])
def test_which_setups_are_refused_at_the_door(options, message):
    with pytest.raises(OptionError) as caught:
        SPEC.configure(options)
    assert message in str(caught.value)


@pytest.mark.parametrize("options,seats,message", [
    ({"night": "eighth", "guards": 2}, [1, 2], "Night must be one of: first, second"),
    ({"night": "first", "guards": 4, "bonnie_player": True, "chica_player": True, "freddy_player": True},
     [1, 2, 3, 4, 5, 6, 7], "Freddy isn't allowed to move on The First Night"),
    ({"night": "first", "guards": 4, "bonnie_player": True, "chica_player": True},
     [1, 2, 3, 4, 5, 6, 7], "This setup needs 6 seats, not 7."),
    ({"night": "third", "guards": 2, "freddy_player": True}, [1, 2, 3], "Freddy isn't allowed to move"),
    ({"night": "first", "guards": 2}, [1, 2, 3], "This setup needs 2 seats, not 3."),
    ({"night": "first", "guards": True}, [1], "Guards must be a whole number."),
    ({"night": "first", "guards": 1, "guard_die": 6}, [1], "Guard die sides must be from 8 to 100, not 6."),
    ({"night": "first", "guards": 1, "freddy_enters": "later"}, [1], "must be one of: now, his-turn."),
])
def test_does_new_state_refuse_what_the_rulebook_forbids_even_without_the_form(options, seats, message):
    with pytest.raises(IllegalAction) as caught:
        rules.new_state(seats, options, PROFILE)
    assert message in str(caught.value)


def test_does_a_full_table_fit_from_the_fourth_night_on():
    options = {"night": "fourth", "guards": 4, "bonnie_player": True, "chica_player": True, "freddy_player": True}
    _, seats = SPEC.configure(options)
    assert [seat.name for seat in seats] == ["Guard 1", "Guard 2", "Guard 3", "Guard 4", "Bonnie", "Chica", "Freddy"]
    state = rules.new_state(list(range(1, 8)), SPEC.configure(options)[0], PROFILE)
    assert state["controllers"] == {"bonnie": 5, "chica": 6, "freddy": 7}


# ---- the turn driver ------------------------------------------------------------------------------------------------

def test_does_one_full_turn_on_the_first_night_go_guard_guard_bonnie_chica_golden_freddy():
    """'Foxy and Freddy aren't allowed to move': the driver skips them; no Freddy question after a guard's move."""
    state = new("first")
    seen = []
    for _ in range(20):
        ask = state["ask"]
        seen.append((state["turn"], ask["kind"], ask["who"]))
        if state["full_turn"] == 2:
            break
        state = until(state, ask["kind"])
        state, _ = (roll(state, None, QUIET[ask["kind"]]) if ask["kind"] in QUIET else answer(state, choice="nobody"))
    assert seen == [("guard-1", "move", 1), ("guard-2", "move", 2), ("bonnie", "bonnie", None),
                    ("bonnie", "bonnie_sight", None), ("chica", "chica", None), ("chica", "chica_met", None),
                    ("golden_freddy", "golden_freddy", None), ("guard-1", "move", 1)]


def test_does_a_guards_roll_move_them_and_hand_on_the_turn():
    state, events = roll(new("first"), 1, 5)
    assert text(events) == "Guard 1 rolled 5 on d8 (real die) and moves up to 5 tiles."
    assert state["ask"]["who"] == 2 and state["last_roll"]["value"] == 5
    state, events = act(state, 2, type="roll")
    assert re.fullmatch(r"Guard 2 rolled \d on d8 and moves up to \d tiles?\.", text(events))
    assert state["turn"] == "bonnie"


def test_is_a_dead_guard_skipped_in_the_turn_order():
    state = until(new("first"), "chica_met")
    state, _ = answer(state, guard=1)
    state, events = roll(state, 1, 3)
    assert "Guard 1 dies" in text(events)
    state = until(state, "move")
    assert state["ask"]["who"] == 2 and state["full_turn"] == 2


def test_what_does_the_log_say_at_the_end_of_a_full_turn():
    state = until(new("first"), "golden_freddy")
    state, events = roll(state, None, 4)
    assert text(events) == "Golden Freddy rolled 4 on d12 (real die): nothing happens. Full turn 1 of 10 is over."
    assert state["full_turn"] == 2 and state["turns_done"] == 1


# ---- Bonnie ---------------------------------------------------------------------------------------------------------

def test_does_bonnie_move_to_the_tile_rolled_and_attack_a_guard_in_sight_who_dies_on_odd():
    state = until(new("first"), "bonnie")
    state, events = roll(state, None, 7)
    assert text(events) == "Bonnie rolled 7 on d10 (real die): she moves to tile 7."
    assert state["ask"]["kind"] == "bonnie_sight" and state["ask"]["guards"] == [1, 2]
    assert "Is a guard in her line of sight?" in seen_by(state)["question"]
    state, events = answer(state, guard=2)
    assert text(events) == "Guard 2 is in Bonnie's line of sight: Bonnie attacks!"
    assert state["ask"] == {"kind": "attack", "who": 2, "step": state["step"], "attacker": "bonnie",
                            "sight": {"tile": 7, "roll": 1, "rolls": 1, "seen": [2]}}
    dead, events = roll(state, 2, 3)
    assert "odd: Guard 2 dies." in text(events) and dead["guards"]["2"] == "dead"
    assert dead["ask"]["kind"] == "bonnie_sight" and dead["ask"]["guards"] == [1]  # she looks for the others
    lives, events = roll(state, 2, 4)
    assert "even: Guard 2 lives." in text(events) and lives["guards"]["2"] == "alive"
    assert lives["ask"]["kind"] == "bonnie_sight" and lives["ask"]["guards"] == [1]
    assert "another guard" in seen_by(lives)["question"]


def test_after_bonnie_kills_is_she_asked_about_the_guards_still_unseen():
    state = until(new("first"), "bonnie_sight")
    state, _ = answer(state, guard=1)
    state, _ = roll(state, 1, 5)  # Guard 1 dies
    assert state["ask"]["kind"] == "bonnie_sight" and state["ask"]["guards"] == [2]
    state, events = answer(state, choice="nobody")
    assert text(events) == "No other guard in Bonnie's line of sight."
    assert state["turn"] == "chica"


def test_does_bonnie_roll_twice_from_the_third_night():
    """'Bonnie rolls twice.' Each roll is a move to that tile and a look for guards."""
    state = until(new("third"), "bonnie")
    assert state["ask"]["rolls"] == 2
    state, events = roll(state, None, 3)
    assert ", roll 1 of 2:" in text(events)
    state, _ = answer(state, choice="nobody")
    assert state["ask"]["kind"] == "bonnie" and state["ask"]["roll"] == 2
    state, events = roll(state, None, 9)
    assert text(events) == "Bonnie rolled 9 on d10 (real die), roll 2 of 2: she moves to tile 9."
    state, _ = answer(state, choice="nobody")
    assert state["turn"] == "chica"


def test_does_bonnies_line_of_sight_rule_show_with_her_question():
    state = until(new("first"), "bonnie_sight")
    view = seen_by(state)
    assert answers(state) == [{"type": "answer", "guard": 1, "step": state["step"]},
                             {"type": "answer", "guard": 2, "step": state["step"]},
                             {"type": "answer", "choice": "nobody", "step": state["step"]}]
    assert view["rule"] == {"label": "Bonnie's line of sight", "text": BONNIE_SIGHT}
    assert view["turn"] == {"seats": [], "text": "Waiting for the host"}


# ---- Chica ----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("night,steps", [("first", 4), ("third", 8), ("fourth", 4), ("fifth", 8), ("final", 8)])
def test_are_chicas_rolls_doubled_only_on_the_nights_that_say_so(night, steps):
    state = until(new(night), "chica")
    state, events = roll(state, None, 4)
    assert state["ask"]["kind"] == "chica_met" and state["ask"]["steps"] == steps
    assert (", doubled to 8" in text(events)) == (steps == 8)


def test_does_the_question_after_a_roll_of_one_say_one_tile():
    state, _ = roll(until(new("second"), "chica"), None, 1)
    assert "Chica moves 1 tile toward" in question(state, state["ask"])


def test_does_chica_attack_the_first_guard_she_meets_and_end_her_turn():
    state = until(new("second"), "chica_met")
    state, events = answer(state, guard=1)
    assert text(events) == "Chica meets Guard 1 and attacks!"
    state, events = roll(state, 1, 6)
    assert "against Chica, even: Guard 1 lives." in text(events)
    assert state["turn"] == "foxy"  # her turn ended with the attack


def test_does_a_player_running_chica_roll_and_answer_for_her():
    state = until(new("first", chica_player=True), "chica")
    assert state["ask"]["who"] == 3
    refused(state, 1, "It's Chica's player's turn, not yours", type="roll")
    state, _ = act(state, 3, type="roll", values=[2])
    assert state["ask"] == {**state["ask"], "kind": "chica_met", "who": 3}
    state, _ = answer(state, 3, choice="nobody")
    assert state["turn"] == "golden_freddy"


# ---- Foxy -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("night,value,charges", [
    ("second", 20, True), ("second", 19, False), ("second", 10, False), ("fourth", 20, True),
    ("fifth", 10, True), ("fifth", 15, False), ("sixth", 15, True), ("sixth", 5, False),
    ("final", 5, True), ("final", 1, False),
])
def test_does_foxy_charge_only_on_tonights_trigger_numbers(night, value, charges):
    state = until(new(night), "foxy")
    state, events = roll(state, None, value)
    assert ("he charges the nearest guard!" in text(events)) == charges
    assert (state["ask"]["kind"] == "foxy_nearest") == charges


def test_does_the_first_night_never_roll_for_foxy():
    state = new("first")
    for _ in range(3):
        state = until(state, "golden_freddy")
        assert "foxy" not in [piece for piece in ("foxy",) if state["ask"]["kind"] == "foxy"]
        state, _ = roll(state, None, 1)
    assert state["foxy"] == "resting" and state["full_turn"] == 4


def charging(night="second", guards=3) -> dict:
    state = until(new(night, guards=guards), "foxy")
    state, _ = roll(state, None, 20)
    return state


def test_does_foxy_attack_the_nearest_guard_who_dies_on_7_or_8():
    state = charging()
    assert state["ask"]["guards"] == [1, 2, 3]
    state, events = answer(state, guard=2)
    assert text(events) == "Guard 2 is nearest to Foxy."
    assert seen_by(state)["question"].startswith("Foxy charges Guard 2. Is Guard 2 in the cinema")
    state, events = answer(state, choice="reaches")
    assert text(events) == "Foxy charges Guard 2 and attacks!"
    for value, fate in ((7, "dead"), (8, "dead"), (1, "alive"), (6, "alive")):
        after, events = roll(state, 2, value)
        assert after["guards"]["2"] == fate
        assert ("a 7 or an 8: Guard 2 dies." in text(events)) == (fate == "dead")


def test_is_a_guard_in_the_cinema_safe_from_foxy():
    state = charging()
    state, _ = answer(state, guard=1)
    state, events = answer(state, choice="cinema")
    assert text(events) == "Guard 1 is in the cinema: safe from Foxy."
    assert state["turn"] == "golden_freddy" and state["guards"]["1"] == "alive"


def test_when_the_nearest_guard_is_blocked_does_foxy_go_for_the_next_nearest():
    state = charging()
    state, _ = answer(state, guard=1)
    state, events = answer(state, choice="blocked")
    assert "he goes for the next nearest guard" in text(events)
    assert state["ask"]["kind"] == "foxy_nearest" and state["ask"]["guards"] == [2, 3]
    state, _ = answer(state, guard=3)
    state, _ = answer(state, choice="blocked")
    assert state["ask"]["kind"] == "foxy_path" and state["ask"]["guard"] == 2  # the last one: no need to ask
    state, _ = answer(state, choice="reaches")
    assert state["ask"] == {**state["ask"], "kind": "attack", "who": 2, "attacker": "foxy"}


def all_blocked(night="second", **options) -> dict:
    state = until(new(night, guards=1, **options), "foxy")
    state, _ = roll(state, None, 20)
    state, events = answer(state, choice="blocked")
    assert "every guard is blocked, so Foxy rolls again" in text(events)
    assert state["ask"]["kind"] == "foxy_blocked"
    return state


def test_all_blocked_and_an_even_roll_makes_foxy_inactive_for_the_night():
    state, events = roll(all_blocked(), None, 8)
    assert text(events).startswith("Foxy rolled 8 on d20 (real die), even: Foxy is inactive for the rest of the night.")
    assert state["foxy"] == "inactive" and state["turn"] == "golden_freddy"
    state = until(state, "golden_freddy")
    state, events = roll(state, None, 1)
    state = until(state, "chica_met")
    state, events = answer(state, choice="nobody")
    assert "Foxy is inactive." in text(events) and state["turn"] == "golden_freddy"
    assert seen_by(state)["board"]["foxy"] == "Inactive for the rest of the night"
    assert seen_by(state)["odds"]["foxy_now"]["percent"] == "0%"


def test_with_the_next_turn_setting_does_inactive_foxy_sit_out_one_turn_only():
    state, events = roll(all_blocked(foxy_inactive="next"), None, 2)
    assert "Foxy is inactive and sits out his next turn." in text(events)
    state, _ = roll(until(state, "golden_freddy"), None, 1)
    state, events = answer(until(state, "chica_met"), choice="nobody")
    assert "Foxy is inactive." in text(events)  # full turn 2: sits out
    state, _ = roll(until(state, "golden_freddy"), None, 1)
    state, events = answer(until(state, "chica_met"), choice="nobody")
    assert "Foxy is active again." in text(events) and state["ask"]["kind"] == "foxy"  # full turn 3


def test_on_the_turn_a_one_turn_inactive_foxy_comes_back_do_the_odds_count_his_roll():
    """Review: the host's "Foxy charges" odds read 0% all through the full turn Foxy was due back in."""
    state, _ = roll(all_blocked(foxy_inactive="next"), None, 2)
    state, _ = roll(until(state, "golden_freddy"), None, 1)  # full turn 2: he sits out
    assert seen_by(state)["odds"]["foxy_now"]["percent"] == "0%"
    state, _ = roll(until(state, "golden_freddy"), None, 1)  # full turn 3 begins: he will roll again
    assert state["full_turn"] == 3 and state["foxy"] == "inactive"
    assert seen_by(state)["odds"]["foxy_now"]["percent"] == "5%"


def test_all_blocked_and_an_odd_roll_resets_the_animatronics_and_ends_the_turn():
    state, events = roll(all_blocked(), None, 7)
    assert text(events) == ("Foxy rolled 7 on d20 (real die), odd: every animatronic goes back to its start and the "
                            "turn ends. Full turn 1 of 10 is over.")
    assert state["full_turn"] == 2 and state["turns_done"] == 1
    assert state["turn"] == "guard-1" and state["ask"]["kind"] == "move"  # Golden Freddy didn't get to roll
    assert state["foxy"] == "ready"


# ---- Freddy ---------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("night", ["first", "second", "third"])
def test_is_freddy_never_asked_about_before_the_fourth_night(night):
    state, _ = roll(new(night), None, 3)
    assert state["ask"]["kind"] == "move" and state["ask"]["who"] == 2
    assert seen_by(state)["board"]["freddy"] == "Not allowed to move tonight"


def test_on_his_turn_does_a_guard_entering_freddys_room_wake_him_to_attack_that_guard_in_his_slot():
    state, _ = roll(new("fourth", freddy_enters="his-turn"), None, 3)
    assert state["ask"] == {"kind": "freddy_room", "who": 1, "step": 2, "guard": 1, "moves": 3}  # on their phone
    state, events = answer(state, choice="entered")
    assert text(events) == "Guard 1 entered Freddy's room: Freddy wakes and will go for them."
    assert state["freddy"] == "strike" and state["freddy_target"] == 1
    assert state["ask"]["who"] == 2 and state["turn"] == "guard-2"
    state, _ = roll(state, None, 2)
    assert state["turn"] == "bonnie"  # no question about his room while Freddy is awake
    state = until(state, "foxy")
    state, events = roll(state, None, 3)
    assert "Freddy moves to Guard 1, who woke him, and attacks!" in text(events)
    assert state["ask"] == {**state["ask"], "kind": "attack", "who": 1, "attacker": "freddy"}
    state, events = roll(state, 1, 2)
    assert "even: Guard 1 lives. Freddy goes inactive." in text(events)
    assert state["freddy"] == "inactive" and state["turn"] == "golden_freddy"


def test_does_the_last_guard_leaving_wake_freddy_to_hunt_with_doubled_rolls_on_the_fifth_night():
    state, _ = roll(new("fifth"), None, 3)
    state, events = answer(state, choice="left")
    assert "was the last to leave Freddy's room" in text(events) and state["freddy"] == "hunt"
    state = until(state, "freddy")
    state, events = roll(state, None, 3)
    assert text(events) == "Freddy rolled 3 on d6 (real die), doubled to 6: 6 tiles toward the nearest guard."
    state, events = answer(state, choice="nobody")
    assert text(events).startswith("Freddy meets no guard and stays awake.")
    assert state["freddy"] == "hunt"  # still awake: only an attack puts him to sleep
    state = until(state, "freddy")
    state, _ = roll(state, None, 1)
    state, events = answer(state, guard=2)
    state, events = roll(state, 2, 5)
    assert "odd: Guard 2 dies. Freddy goes inactive." in text(events)
    assert state["freddy"] == "inactive" and state["freddy_target"] is None


def test_on_his_turn_does_freddy_hunt_when_the_guard_who_woke_him_is_already_dead():
    state, _ = roll(new("fourth", guards=2, freddy_enters="his-turn"), None, 3)
    state, _ = answer(state, choice="entered")
    state = until(state, "chica_met")
    state, _ = answer(state, guard=1)
    state, _ = roll(state, 1, 1)  # Chica kills Guard 1 before Freddy's turn
    state = until(state, "foxy")
    state, events = roll(state, None, 2)
    assert "Guard 1, who woke Freddy, is gone: Freddy hunts the nearest guard." in text(events)
    assert state["ask"]["kind"] == "freddy" and state["freddy"] == "hunt"


def test_does_an_inactive_freddy_stay_put_when_nobody_enters_or_leaves():
    state, _ = roll(new("fourth", guards=1), None, 3)
    state, events = answer(state, choice="neither")
    assert text(events).startswith("Guard 1 neither entered nor left Freddy's room: Freddy stays inactive.")
    state = until(state, "foxy")
    state, events = roll(state, None, 3)
    assert "Freddy is inactive and stays put." in text(events) and state["turn"] == "golden_freddy"


def test_does_a_player_running_freddy_roll_his_hunt():
    state, _ = roll(new("fourth", guards=1, freddy_player=True), None, 3)
    state, _ = answer(state, choice="left")
    state = until(state, "freddy")
    assert state["ask"]["who"] == 2
    refused(state, 1, "It's Freddy's player's turn, not yours", type="roll")


# ---- the board's own rules, and the host's corrections ---------------------------------------------------------------

def test_does_each_board_rule_show_at_the_step_where_it_bites():
    """Issue 46: 'Guards can move through other Guards, but not finish on the same tile ...' beside a guard's move,
    and 'Animatronics can not move through other Animatronics. If two Animatronics end on the same tile, the last
    Animatronic to move sits on a tile next to the other Animatronic.' beside each animatronic's move."""
    state = new("fourth", guards=1)
    assert seen_by(state)["board_rule"] == {"label": "How guards move", "text": GUARDS_MOVE}
    animatronic = {"label": "How animatronics move", "text": ANIMATRONICS_MOVE}
    seen_at = {}
    for _ in range(60):
        seen_at.setdefault(state["ask"]["kind"], seen_by(state)["board_rule"])
        state = quietly(state)
    for kind in ("bonnie", "bonnie_sight", "chica", "chica_met"):
        assert seen_at[kind] == animatronic, kind
    for kind in ("foxy", "golden_freddy"):
        assert seen_at[kind] is None, kind
    assert seen_at["move"]["text"] == seen_at["freddy_room"]["text"] == GUARDS_MOVE  # the guard moves, then says


def test_does_the_host_correct_freddys_state_after_a_revive_and_the_log_say_so():
    """Issue 46: Freddy could be woken only by a guard's own move; a revived guard 'moved to default location' may
    stand in his room. The host's correction wakes him for his next turn, logged like any other move."""
    state = with_a_dead_guard("fourth", guards=2)
    state, events = act(state, type="revive", guard=2, office=[1])
    assert text(events).endswith("A guard now in Freddy's room, or none left in it, wakes him: the host corrects "
                                 "Freddy.")
    refused(state, None, "Say which living guard Freddy goes for", type="correct", freddy="strike")
    refused(state, None, "Only Freddy going for a guard names one", type="correct", freddy="hunt", target=2)
    refused(state, None, "There is no Guard 5 for Freddy to go for", type="correct", freddy="strike", target=5)
    refused(state, None, "Freddy is inactive already.", type="correct", freddy="inactive")
    refused(state, 1, "Correcting the board is for the host screen.", type="correct", freddy="hunt")
    assert {"type": "correct", "freddy": "hunt"} in rules.legal_actions(state, None)
    assert all(move["type"] != "correct" for move in rules.legal_actions(state, 1))
    state, events = act(state, type="correct", freddy="strike", target=2)
    assert events == ["corrected the board: Freddy is awake, going for Guard 2 (was inactive)."]
    assert seen_by(state)["board"]["freddy"] == "Awake: going for Guard 2"
    state = until(state, "foxy")
    state, events = roll(state, None, 3)
    assert "Freddy moves to Guard 2, who woke him, and attacks!" in text(events)
    refused(state, None, "Freddy is in the middle of his move: finish it first.", type="correct", freddy="hunt")


def test_can_freddy_be_corrected_only_on_a_night_he_moves():
    refused(new("first"), None, "Freddy isn't allowed to move on The First Night: he has no state to correct.",
            type="correct", freddy="hunt")
    assert all("freddy" not in move for move in rules.legal_actions(new("first"), None))


def test_does_the_host_correct_an_animatronics_place_and_bonnies_question_follow():
    """'If two Animatronics end on the same tile, the last Animatronic to move sits on a tile next to the other
    Animatronic': Bonnie rolled tile 4 but sits on tile 5, and her line of sight is asked from there."""
    state = until(new("first"), "bonnie")
    state, _ = roll(state, None, 4)
    assert seen_by(state)["question"].startswith("Bonnie is on tile 4.")
    assert "Bonnie: on tile 4" in seen_by(state)["board_check"]
    state, events = act(state, type="correct", piece="bonnie", tile=5)
    assert events == ["corrected the board: Bonnie stands on tile 5 (was on tile 4)."]
    assert seen_by(state)["question"].startswith("Bonnie is on tile 5.") and state["ask"]["kind"] == "bonnie_sight"
    assert "Bonnie: on tile 5" in seen_by(state)["board_check"]
    refused(state, None, "Chica is at the start already.", type="correct", piece="chica")
    state, _ = act(state, type="correct", piece="chica", tile=3)
    state, events = act(state, type="correct", piece="chica")  # no tile: back at its start
    assert events == ["corrected the board: Chica stands at the start (was on tile 3)."]
    refused(state, None, "Say which animatronic stands on tile 3.", type="correct", tile=3)
    refused(state, None, "Say what to correct", type="correct")
    refused(state, None, "The tile it stands on can't be more than 20", type="correct", piece="foxy", tile=21)
    refused(state, None, "Say which animatronic: bonnie, chica, foxy, freddy, golden_freddy.", type="correct",
            piece="springtrap")
    state, events = act(state, type="correct", piece="golden_freddy", tile=12)
    assert events == ["corrected the board: Golden Freddy stands on tile 12 (was at the start)."]
    assert rules.invariants(state) == []


def test_does_foxys_reset_put_every_animatronic_back_at_its_start():
    """'an odd roll resets all anamatronics to their starting location'."""
    state = until(new("second", guards=1), "foxy")
    state, _ = roll(state, None, 20)
    state, _ = answer(state, choice="blocked")
    assert state["ask"]["kind"] == "foxy_blocked"
    state["places"]["bonnie"] = 7
    state, events = roll(state, None, 3)
    assert state["places"] == dict.fromkeys(("bonnie", "chica", "foxy", "freddy", "golden_freddy"), "start")
    assert "every animatronic goes back to its start" in text(events)


# ---- Golden Freddy --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("night,value,attacks", [
    ("first", 12, True), ("first", 6, False), ("fifth", 12, True), ("sixth", 6, True), ("sixth", 9, False),
    ("final", 3, True), ("final", 9, True), ("final", 11, False),
])
def test_does_golden_freddy_attack_only_on_tonights_triggers(night, value, attacks):
    state = until(new(night), "golden_freddy")
    state, events = roll(state, None, value)
    assert ("he attacks the guard furthest from him!" in text(events)) == attacks
    assert (state["ask"]["kind"] == "golden_furthest") == attacks


def test_does_a_1_eliminate_the_furthest_guard_for_good():
    state = until(new("fourth", guards=2), "golden_freddy")
    state, _ = roll(state, None, 12)
    state, events = answer(state, guard=2)
    assert text(events) == "Guard 2 is furthest: Golden Freddy attacks them."
    state, events = roll(state, 2, 1)
    assert text(events).startswith("Guard 2 rolled 1 on d8 (real die): eliminated by Golden Freddy, for good.")
    assert state["guards"]["2"] == "eliminated"
    assert rules.revive_options(state) == []
    refused(state, None, "was eliminated by Golden Freddy and cannot be revived", type="revive", guard=2, office=[1])


def test_does_any_other_roll_leave_golden_freddy_sitting_beside_the_guard():
    state = until(new("first", guards=1), "golden_freddy")
    state, events = roll(state, None, 12)
    assert "he attacks Guard 1, the only guard left!" in text(events)
    state, events = roll(state, 1, 2)
    assert text(events).startswith("Guard 1 rolled 2 on d8 (real die): Golden Freddy merely sits beside them.")
    assert state["guards"]["1"] == "alive" and state["full_turn"] == 2


# ---- the Medical Office ---------------------------------------------------------------------------------------------

def with_a_dead_guard(night="fourth", guards=3, **options) -> dict:
    state = until(new(night, guards=guards, **options), "chica_met")
    state, _ = answer(state, guard=guards)
    state, _ = roll(state, guards, 1)
    return state


@pytest.mark.parametrize("night,needs", [("fourth", 1), ("fifth", 2), ("sixth", 2), ("final", 3)])
def test_does_the_revive_need_as_many_guards_in_the_office_as_the_night_says(night, needs):
    state = with_a_dead_guard(night, guards=4)
    office = [1, 2, 3][:needs]
    if needs > 1:
        refused(state, None, f"the revive needs {['', 'ONE', 'TWO', 'THREE'][needs]} guards in the Medical Office; "
                       f"you named {needs - 1}.", type="revive", guard=4, office=office[:-1])
    state, events = act(state, type="revive", guard=4, office=office)
    assert "in the Medical Office revive Guard 4, who goes back to the start." in text(events)
    assert state["guards"]["4"] == "alive" and state["revive_used"]


def test_is_reviving_twice_refused():
    state = with_a_dead_guard()
    state, _ = act(state, 1, type="revive", guard=3, office=[1])
    state = until(state, "chica_met")
    state, _ = answer(state, guard=2)
    state, _ = roll(state, 2, 1)
    refused(state, None, "already been used tonight: it works only once a night", type="revive", guard=2, office=[1])
    assert rules.revive_options(state) == []


def test_is_there_no_revive_before_the_fourth_night():
    state = with_a_dead_guard("third")
    refused(state, None, "There is no Medical Office revive on The Third Night", type="revive", guard=3, office=[1])


@pytest.mark.parametrize("action,seat,message", [
    ({"guard": 1, "office": [2]}, None, "Guard 1 is alive; only a dead guard can be revived."),
    ({"guard": 3, "office": [3]}, None, "Guard 3 isn't a living guard"),
    ({"guard": 3, "office": [1, 1]}, None, "Name each guard in the Medical Office once."),
    ({"guard": 3, "office": [9]}, None, "Seat 9 isn't a living guard"),
    ({"guard": 3, "office": "1"}, None, "Name the guards in the Medical Office by seat number"),
    ({"guard": 3, "office": [True]}, None, "Name the guards in the Medical Office by seat number"),
    ({"guard": "3", "office": [1]}, None, "Name the dead guard to revive by seat number"),
    ({"guard": 3, "office": [1]}, 2, "Only a guard in the Medical Office (or the host) can call the revive."),
])
def test_which_revives_are_refused_and_how(action, seat, message):
    refused(with_a_dead_guard(), seat, message, type="revive", **action)


def test_is_a_revive_refused_in_the_middle_of_an_attack():
    state = with_a_dead_guard()
    state = until(state, "chica_met")
    state, _ = answer(state, guard=1)
    refused(state, None, "Finish the attack first", type="revive", guard=3, office=[2])


def test_does_a_revived_guard_take_their_next_turn():
    state = with_a_dead_guard(guards=3)
    state, _ = act(state, type="revive", guard=3, office=[1])
    state = until(state, "move", turn="guard-3")
    assert state["ask"]["who"] == 3


# ---- how a night ends -----------------------------------------------------------------------------------------------

def test_do_the_guards_win_after_ten_full_turns():
    state = new("first", guards=2, bonnie_player=True)
    while rules.outcome(state) is None:
        state = until(state, "golden_freddy")
        state, events = roll(state, None, 1)
    assert state["turns_done"] == 10 and state["ask"] is None and state["turn"] is None
    result = rules.outcome(state)
    assert result.winners == (1, 2) and result.shared
    assert result.text == "The guards survive 10 full turns and win The First Night!"
    assert text(events).endswith("Full turn 10 of 10 is over.")
    refused(state, None, "The night is over", type="roll")
    assert rules.legal_actions(state, None) == [] and seen_by(state, 1)["question"] is None


def test_is_a_guard_golden_freddy_eliminated_left_out_of_the_guards_win():
    """'they are eliminated from the game (and cannot be revived)': out of the game, so not among the winners."""
    state = until(new("first", guards=2), "golden_freddy")
    state, _ = roll(state, None, 12)
    state, _ = answer(state, guard=2)
    state, _ = roll(state, 2, 1)
    assert state["guards"]["2"] == "eliminated"
    while rules.outcome(state) is None:
        state, _ = roll(until(state, "golden_freddy"), None, 1)
    assert rules.outcome(state).winners == (1,)


def survived_with_a_dead_guard(night: str, **options) -> dict:
    """Guard 3 of three dies to Chica in the first full turn; the other two survive the night's 10 full turns."""
    state = with_a_dead_guard(night, guards=3, **options)
    while rules.outcome(state) is None:
        state, _ = roll(until(state, "golden_freddy"), None, 1)
    assert state["guards"]["3"] == "dead"
    return state


@pytest.mark.parametrize("night", ["third", "fourth"])
def test_a_dead_guard_doesnt_share_the_guards_win_by_default(night):
    """Issue 46: 'If the guards survive 10 full turns they win.' is all the text says; a guard who died didn't survive
    them, so by default (the `dead_guards` reading, assumed) only the living win, whether or not the night has a
    Medical Office revive. The result says so."""
    result = rules.outcome(survived_with_a_dead_guard(night))
    assert result.winners == (1, 2) and result.shared
    assert result.text.endswith("full turns and win The Third Night! Guard 3 died and doesn't share it.".replace(
        "The Third Night", night_of(night).label))
    assert SPEC.option("dead_guards").default == "lose" and SPEC.option("dead_guards").source == "assumed"


@pytest.mark.parametrize("night,winners", [("third", (1, 2)), ("fourth", (1, 2, 3))])
def test_with_the_revivable_reading_a_dead_guard_shares_the_win_only_where_a_revive_exists(night, winners):
    """`revivable`: The Third Night has no Medical Office, so Guard 3 can't come back and doesn't win; from The Fourth
    Night 'a dead player can be revived', so Guard 3 is still in the night and shares it."""
    assert rules.outcome(survived_with_a_dead_guard(night, dead_guards="revivable")).winners == winners


def test_with_the_share_reading_every_guard_not_eliminated_shares_the_win():
    """`share` (the reading the app used before it was an option, and that a table stored then keeps): a dead guard
    shares the guards' win; one Golden Freddy eliminated never does."""
    assert rules.outcome(survived_with_a_dead_guard("third", dead_guards="share")).winners == (1, 2, 3)
    stored = survived_with_a_dead_guard("third")
    del stored["dead_guards"]
    assert rules.outcome(stored).winners == (1, 2, 3)


def test_is_the_dead_guards_reading_shown_beside_an_attack_and_on_the_rule_card():
    state = until(new("first"), "bonnie_sight")
    state, _ = answer(state, guard=1)
    shown = seen_by(state)
    assert shown["ask"]["kind"] == "attack"
    reading = next(reading for reading in shown["readings"] if reading["key"] == "dead_guards")
    assert reading["choice"] == "doesn't win: only the guards alive at the end survived"
    assert "attack" in reading["asks"] and "'If the guards survive 10 full turns they win.'" in reading["why"]


def test_do_the_animatronics_win_when_no_guard_is_left_alive():
    state = until(new("second", guards=1, bonnie_player=True, chica_player=True), "chica_met")
    state, _ = answer(state, guard=1)
    state, events = roll(state, 1, 1)
    assert state["ask"] is None
    result = rules.outcome(state)
    assert result.winners == (2, 3) and result.shared
    assert result.text == "The animatronics win The Second Night: no guard is left alive."


def test_when_the_app_runs_every_animatronic_does_everyone_lose():
    state = until(new("first", guards=1), "bonnie_sight")
    state, _ = answer(state, guard=1)
    state, _ = roll(state, 1, 1)
    assert rules.outcome(state).winners == ()


# ---- bad input ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seat,action,message", [
    (None, {"type": "dance"}, "'dance' isn't a move in Director's Cut"),
    (None, {"type": "roll", "dice": "d20"}, "A roll doesn't take 'dice'."),
    (None, {"type": "roll", "values": [9]}, "A d8 can't show 9: its faces are 1 to 8."),
    (None, {"type": "roll", "values": [0]}, "A d8 can't show 0"),
    (None, {"type": "roll", "values": [3, 4]}, "d8 is 1 die; you entered 2 values."),
    (None, {"type": "roll", "values": ["3"]}, "Enter each die as a whole number"),
    (None, {"type": "roll", "values": [True]}, "Enter each die as a whole number"),
    (None, {"type": "roll", "values": "3"}, "Enter what the dice showed as a list"),
    (None, {"type": "roll", "step": 7}, "That question was already answered. Now: Guard 1: roll your move (d8)."),
    (None, {"type": "roll", "step": "1"}, "The question number must be a whole number."),
    (None, {"type": "answer", "choice": "nobody"}, "No question is waiting for an answer"),
    (2, {"type": "roll"}, "It's Guard 1's turn, not yours: Guard 1: roll your move (d8)."),
    (9, {"type": "roll"}, "There is no seat 9 at this table."),
    (True, {"type": "roll"}, "There is no seat True at this table."),
])
def test_which_moves_are_refused_on_guard_1s_move(seat, action, message):
    refused(new("first"), seat, message, **action)


@pytest.mark.parametrize("seat,action,message", [
    (None, {"type": "roll"}, "Nothing is to be rolled now."),
    (None, {"type": "answer"}, "Answer with one choice, or name one guard."),
    (None, {"type": "answer", "choice": "nobody", "guard": 1}, "Answer with one choice, or name one guard."),
    (None, {"type": "answer", "choice": "maybe"}, "Answer with a guard's seat number or 'nobody'."),
    (None, {"type": "answer", "guard": True}, "Name the guard by seat number, like 2."),
    (None, {"type": "answer", "guard": "1"}, "Name the guard by seat number, like 2."),
    (None, {"type": "answer", "guard": 7}, "Seat 7 isn't one of the answers here; pick Guard 1 or Guard 2."),
    (1, {"type": "answer", "choice": "nobody"}, "That's for the host to answer: Bonnie is on tile"),
    (None, {"type": "answer", "choice": "cinema"}, "Answer with a guard's seat number or 'nobody'."),
])
def test_which_answers_to_bonnies_question_are_refused(seat, action, message):
    state = until(new("first"), "bonnie_sight")
    refused(state, seat, message, **action)


def test_are_choices_of_another_question_refused():
    state, _ = roll(new("fourth"), None, 3)
    refused(state, None, "Answer with one of: entered, left, neither.", type="answer", choice="reaches")
    refused(state, None, "Answer with one of: entered, left, neither.", type="answer", guard=1)
    state = charging("fourth")
    refused(state, None, "Answer with a guard's seat number.", type="answer", choice="nobody")


def test_is_a_phone_refused_an_attack_roll_meant_for_another_guard():
    state = until(new("first"), "chica_met")
    state, _ = answer(state, guard=2)
    refused(state, 1, "It's Guard 2's turn, not yours: Chica attacks Guard 2", type="roll")
    assert rules.legal_actions(state, 1) == [] and rules.legal_actions(state, 2) == [
        {"type": "roll", "step": state["step"]}]


@pytest.mark.parametrize("action", [{"type": "revive"}, {"type": "revive", "guard": 3},
                                    {"type": "revive", "office": [1]}])
def test_is_a_revive_without_its_guard_or_office_refused_with_a_sentence(action):
    """Review: a revive missing 'guard' or 'office' crashed with a KeyError (a 500 on the API)."""
    refused(with_a_dead_guard(), None, "A revive needs '", **action)


def test_does_every_junk_field_at_every_question_get_a_sentence_and_leave_the_state_alone():
    """Wrong types, out-of-range numbers and strangers' seats thrown at each question a night asks: never a crash."""
    junk = [None, True, 1.5, "1", "nobody", "blocked", [1], [], {"a": 1}, 10**30, -1, 0, 1, 2, 3, 5, "<script>"]
    picker = random.Random("junk")
    for night in ("third", "final"):
        state = new(night, guards=3, bonnie_player=True)
        rng = TableDice(SEED, 0, "someone")
        while rules.outcome(state) is None:
            for _ in range(12):
                action = {"type": picker.choice(["roll", "answer", "revive", "run-rolls"]),
                          "seat": picker.choice([None, *state["seats"], 99])}
                for key in picker.sample(["values", "step", "choice", "guard", "office"], picker.randint(0, 3)):
                    action[key] = picker.choice([*junk, [picker.choice(junk)]])
                before, drawn = dumped(state), rng.counter
                try:
                    after, _ = rules.apply(state, action, rng)
                except IllegalAction as refusal:
                    assert str(refusal).rstrip(")").endswith((".", "?", "!")) and rng.counter == drawn
                else:
                    assert seen_by(after)["question"] or rules.outcome(after)
                assert dumped(state) == before
            legal = rules.legal_actions(state, None)
            state, _ = rules.apply(state, {**picker.choice(legal), "seat": None}, rng)


# ---- odds -----------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("night", NIGHTS, ids=[night.key for night in NIGHTS])
def test_do_the_strike_odds_match_counting_every_face(night):
    foxy = Fraction(sum(face in night.foxy_triggers for face in range(1, 21)), 20)
    golden = Fraction(sum(face in night.golden_freddy_triggers for face in range(1, 13)), 12)
    both = Fraction(sum(a in night.foxy_triggers or b in night.golden_freddy_triggers
                        for a, b in product(range(1, 21), range(1, 13))), 240)
    assert odds.chance(20, night.foxy_triggers) == foxy
    assert odds.chance(12, night.golden_freddy_triggers) == golden
    assert odds.either(foxy if night.foxy_moves else 0, golden) == (both if night.foxy_moves else golden)
    view = seen_by(new(night.key))["odds"]
    assert view["foxy_now"]["exact"] == (f"{foxy.numerator}/{foxy.denominator}" if night.foxy_moves else "0/1")
    assert view["golden_freddy_now"]["exact"] == f"{golden.numerator}/{golden.denominator}"


@pytest.mark.parametrize("sides", [8, 10, 12, 20])
def test_does_a_guards_survival_chance_match_counting_the_faces(sides):
    faces = range(1, sides + 1)
    assert odds.survival("bonnie", sides) == Fraction(sum(face % 2 == 0 for face in faces), sides)
    assert odds.survival("foxy", sides) == Fraction(sum(face not in (7, 8) for face in faces), sides)
    assert odds.survival("golden_freddy", sides) == Fraction(sides - 1, sides)


def test_how_do_the_odds_read_on_the_screens():
    assert odds.shown(Fraction(1, 20)) == {"ratio": "1 in 20", "percent": "5%", "exact": "1/20"}
    assert odds.shown(Fraction(1, 12))["percent"] == "8%"  # words.percent: whole percent, like every game
    assert odds.shown(Fraction(1, 240))["percent"] == "<1%" and odds.shown(Fraction(239, 240))["percent"] == ">99%"
    assert odds.shown(Fraction(3, 4))["ratio"] == "3 in 4"
    view = seen_by(new("final"), 1)
    assert [row["percent"] for row in view["odds"]["survival"]] == ["50%", "50%", "75%", "50%", "88%"]
    assert view["me"] == {"kind": "guard", "guard": 1, "status": "alive"}
    assert seen_by(new("final")) ["me"] is None


def test_once_foxy_has_rolled_this_full_turn_is_his_chance_this_turn_zero():
    state = until(new("second"), "foxy")
    assert seen_by(state)["odds"]["foxy_now"]["percent"] == "5%"
    state, _ = roll(state, None, 3)
    assert seen_by(state)["odds"]["foxy_now"]["percent"] == "0%"
    assert seen_by(state)["odds"]["golden_freddy_now"]["exact"] == "1/12"


def test_does_the_attacked_guards_phone_see_its_survival_chance():
    state = charging()
    state, _ = answer(state, guard=1)
    state, _ = answer(state, choice="reaches")
    view = seen_by(state, 1)
    assert view["turn"]["seats"] == [1] and view["odds"]["attack"]["percent"] == "75%"
    assert view["moves"] == [{"type": "roll", "step": state["step"]}] and view["roll_label"] == "Roll my die (d8)"
    assert view["question"] == "Foxy attacks Guard 1: roll your die (d8); a 7 or an 8 dies."
    assert seen_by(state, 2)["moves"] == []


def test_what_does_the_board_check_show():
    state = with_a_dead_guard("fifth")
    board = seen_by(state)["board"]
    assert [guard["status"] for guard in board["guards"]] == ["alive", "alive", "dead"]
    assert board["alive"] == 2 and board["full_turn"] == 1 and board["full_turns"] == 10
    assert board["revive"] == "Not used: needs TWO guards in the Medical Office, once"
    assert board["foxy"] == "Ready: charges on 10 or 20"
    assert board["freddy"].startswith("Inactive")


# ---- random play-outs -----------------------------------------------------------------------------------------------

CALM = ("nobody", "neither", "cinema", "blocked")  # answers that spare the guards


def play_out(night: str, seed: int) -> tuple[dict, set[str]]:
    """A seeded random night to its end, checking the invariants after every move; seeds 0-1 answer calmly more often
    (so guards live to see the tenth full turn), seeds 2-3 wildly."""
    tonight = night_of(night)
    picker = random.Random(f"{night}-{seed}")
    calm = 8 if seed < 2 else 1
    players = {"bonnie_player": seed % 2 == 0, "chica_player": seed == 1,
               "freddy_player": seed == 2 and tonight.freddy_moves,
               "foxy_inactive": "next" if seed % 2 else "night"}
    state = new(night, guards=1 + seed % 4, rolling="app" if seed % 2 else "tap", **players)
    rng = TableDice(SEED, 0, "someone")
    steps, moves, asked = state["step"], 0, set()
    while rules.outcome(state) is None:
        assert state["ask"] is not None and 1 <= state["full_turn"] <= 10
        assert state["turns_done"] == state["full_turn"] - 1
        ask = state["ask"]
        asked.add(ask["kind"])
        if ask["kind"] in ("move", "attack"):
            assert state["guards"][str(ask["who"])] == "alive", ask
        if ask["kind"] == "move":
            assert state["turn"] == f"guard-{ask['who']}"
        for seat in {None, ask["who"]}:
            assert seen_by(state, seat)["board"]["full_turn"] == state["full_turn"]
        mine = rules.legal_actions(state, ask["who"]) if ask["who"] is not None else rules.legal_actions(state, None)
        choices = [action for action in mine if action["type"] not in ("revive", "correct")]
        assert choices, ask
        weights = [calm if action.get("choice") in CALM else 1 for action in choices]
        action = dict(picker.choices(choices, weights)[0])
        revives = [action for action in mine if action["type"] == "revive"]
        if revives and picker.random() < .3:
            action = dict(picker.choice(revives))
            asked.add("revive")
        if action["type"] == "roll" and picker.random() < .3:
            action["values"] = [picker.randint(1, seen_by(state)["die"])]
        before = copy.deepcopy(state)
        state, events = rules.apply(state, {**action, "seat": ask["who"] if action["type"] != "revive" else None}, rng)
        assert before != state and events and all(len(event.text) < 200 for event in events)
        assert sum(len(event.text) + 1 for event in events) < 400  # one log line holds it
        assert state["step"] >= steps and state["full_turn"] >= before["full_turn"]
        steps = state["step"]
        assert set(state["guards"].values()) <= {"alive", "dead", "eliminated"}
        assert state["revive_used"] >= before["revive_used"]
        for seat, status in before["guards"].items():
            if status == "eliminated":  # "cannot be revived"
                assert state["guards"][seat] == "eliminated"
            if status == "dead" and state["guards"][seat] == "alive":  # only the Medical Office brings one back
                assert action["type"] == "revive" and action["guard"] == int(seat)
        moves += 1
        assert moves < 2000
    if not tonight.foxy_moves:  # "Foxy and Freddy aren't allowed to move."
        assert not asked & {"foxy", "foxy_nearest", "foxy_path", "foxy_blocked"}
    if not tonight.freddy_moves:
        assert not asked & {"freddy", "freddy_room", "freddy_met"}
    result = rules.outcome(state)
    assert state["ask"] is None and state["turn"] is None
    if any(status == "alive" for status in state["guards"].values()):
        assert state["turns_done"] == 10 and "guards survive" in result.text
        assert set(result.winners) == {int(seat) for seat, status in state["guards"].items() if status == "alive"}
        asked.add("guards win")
    else:
        assert "no guard is left alive" in result.text
        assert set(result.winners) == {seat for seat in state["controllers"].values() if seat is not None}
        asked.add("animatronics win")
    return state, asked


@pytest.mark.parametrize("night", [night.key for night in NIGHTS])
@pytest.mark.parametrize("seed", range(4))
def test_does_a_random_night_play_out_to_an_end_with_every_invariant_kept(night, seed):
    play_out(night, seed)


def test_do_the_random_play_outs_reach_both_endings_and_every_question():
    """Review: every random night used to end with the animatronics winning, so the tenth full turn went untested."""
    seen: set[str] = set()
    for night, seed in product([night.key for night in NIGHTS], range(4)):
        seen |= play_out(night, seed)[1]
    assert {"guards win", "animatronics win", "revive", "foxy_blocked", "golden_furthest"} <= seen
    assert set(rules.ROLLS) | set(rules.ANSWERS) <= seen


# ---- readings of loose sentences: each in both settings -------------------------------------------------------------

def freddys_victims(reading: str) -> list[int]:
    """The Fourth Night's first full turn, played the same way under either reading of Freddy's entering sentence:
    Guard 1 steps into Freddy's room, then Chica meets Guard 1 and kills them (Guard 1 lives through anything else)."""
    state, _ = roll(new("fourth", freddy_enters=reading), 1, 3)
    state, _ = answer(state, choice="entered")
    victims = []
    while state["full_turn"] == 1:
        ask = state["ask"]
        if ask["kind"] == "attack":
            victims += [ask["who"]] if ask["attacker"] == "freddy" else []
            state, _ = roll(state, ask["who"], 1 if ask["attacker"] == "chica" else 2)
        elif ask["kind"] in rules.ROLL_ASKS:
            state, _ = roll(state, ask["who"], 1 if ask["kind"] == "foxy" else 3)
        elif ask["kind"] == "freddy_room":
            state, _ = answer(state, choice="neither")
        elif ask["kind"] == "chica_met":
            state, _ = answer(state, guard=1)
        elif ask["kind"] == "freddy_met":
            state, _ = answer(state, guard=ask["guards"][0])
        else:
            state, _ = answer(state, choice="nobody")
    return victims


def test_does_freddys_attack_at_once_change_who_he_attacks():
    """'If a Guard enters Freddy's line of sight to activate him, Freddy moves to the Guard that activated him and
    attacks.' At once, he reaches Guard 1 before Chica does; on his own turn Guard 1 is dead and he hunts Guard 2."""
    assert freddys_victims("now") == [1]
    assert freddys_victims("his-turn") == [2]


def test_at_once_does_freddy_attack_before_the_next_guard_moves_and_then_go_inactive():
    state, _ = roll(new("fourth"), 1, 3)
    assert [reading["choice"] for reading in seen_by(state)["readings"] if reading["key"] == "freddy_enters"] == [
        "at once, before any other animatronic acts"]
    state, lines = answer(state, choice="entered")
    assert text(lines) == "Guard 1 entered Freddy's room: Freddy wakes, moves to them and attacks!"
    assert state["ask"] == {"kind": "attack", "who": 1, "step": state["step"], "attacker": "freddy"}
    assert state["turn"] == "guard-1" and seen_by(state, 1)["moves"] == [{"type": "roll", "step": state["step"]}]
    state, lines = roll(state, 1, 4)
    assert text(lines) == "Guard 1 rolled 4 on d8 (real die) against Freddy, even: Guard 1 lives. Freddy goes inactive."
    assert state["freddy"] == "inactive" and state["ask"]["kind"] == "move" and state["ask"]["who"] == 2
    state, lines = roll(until(state, "foxy"), None, 3)
    assert "Freddy is inactive and stays put." in text(lines)


def test_at_once_does_the_last_guard_leaving_still_wake_freddy_for_his_next_turn():
    """The leaving case is the one that says 'On Freddy's next turn': the reading doesn't touch it."""
    state, _ = roll(new("fourth"), 1, 3)
    state, lines = answer(state, choice="left")
    assert state["freddy"] == "hunt" and state["ask"]["kind"] == "move"
    assert until(state, "freddy")["turn"] == "freddy"


@pytest.mark.parametrize("reading,after", [("full-turn", "the full turn ends."), ("foxy", "Foxy's turn ends.")])
def test_does_foxys_odd_all_blocked_roll_end_the_full_turn_or_only_his_as_the_table_reads_it(reading, after):
    """'an odd roll resets all anamatronics to their starting location and the turn ends.'"""
    state = all_blocked(foxy_odd_roll=reading)
    view = seen_by(state)
    assert view["question"].endswith(after)
    shown = {item["key"]: item for item in view["readings"]}
    assert shown["foxy_odd_roll"]["value"] == reading and "foxy_blocked" in shown["foxy_odd_roll"]["asks"]
    state, lines = roll(state, None, 7)
    if reading == "full-turn":
        assert text(lines).endswith("every animatronic goes back to its start and the turn ends. Full turn 1 of 10 "
                                    "is over.")
        assert state["full_turn"] == 2 and state["ask"]["kind"] == "move"  # Golden Freddy didn't get to roll
    else:
        assert text(lines) == ("Foxy rolled 7 on d20 (real die), odd: every animatronic goes back to its start and "
                               "Foxy's turn ends.")
        assert state["full_turn"] == 1 and state["ask"]["kind"] == "golden_freddy"  # the rest of the turn order acts
    assert state["foxy"] == "ready"


def full_turn_asks(state: dict) -> list[str]:
    """The questions of one full turn, answered quietly."""
    turn, asked = state["full_turn"], []
    while state["full_turn"] == turn:
        asked.append(state["ask"]["kind"])
        state = quietly(state)
    return asked


@pytest.mark.parametrize("night", ["first", "second", "third"])
def test_on_the_first_to_third_nights_does_golden_freddy_roll_or_rest_as_the_table_reads_it(night):
    """Those nights' cards say only which of Foxy and Freddy may move; they never name Golden Freddy."""
    rolls, rests = new(night), new(night, golden_freddy_early="rests")
    assert "golden_freddy" in full_turn_asks(rolls)
    assert "golden_freddy" not in full_turn_asks(rests)
    view = seen_by(rests, 1)
    assert view["board"]["golden_freddy"] == "Doesn't move tonight: this night's card doesn't name him"
    assert "Golden Freddy: Doesn't move tonight: this night's card doesn't name him" in view["board_check"]
    assert not view["odds"]["golden_freddy"]["moves"] and view["odds"]["golden_freddy_now"]["percent"] == "0%"
    assert "golden_freddy" not in [row["attacker"] for row in view["odds"]["survival"]]
    assert seen_by(rolls)["board"]["golden_freddy"] == "Rolls every full turn: attacks on 12"
    assert [item["choice"] for item in view["readings"] if item["key"] == "golden_freddy_early"] == [
        "doesn't move: those nights' cards don't name him"]


def test_from_the_fourth_night_does_golden_freddy_roll_whatever_the_early_reading():
    """'All animatronics are allowed to move.': the reading has nothing to decide, so the screens don't show it."""
    state = new("fourth", golden_freddy_early="rests")
    assert "golden_freddy" in full_turn_asks(state)
    assert "golden_freddy_early" not in [item["key"] for item in seen_by(state)["readings"]]


def test_does_a_night_stored_before_the_readings_were_options_play_on_as_it_began():
    """A table saved by the app before these options keeps the readings it started with (Freddy on his turn)."""
    state = new("fourth")
    for key in ("freddy_enters", "foxy_odd_roll", "golden_freddy_early", "last_rolls"):
        del state[key]
    state, _ = roll(state, 1, 3)
    state, lines = answer(state, choice="entered")
    assert text(lines) == "Guard 1 entered Freddy's room: Freddy wakes and will go for them."
    view = seen_by(state)
    assert [item["value"] for item in view["readings"] if item["key"] == "freddy_enters"] == ["his-turn"]
    assert view["last_rolls"] == [state["last_roll"]]
    for move in rules.legal_actions(state, None):
        DC.act(state, None, **move)


# ---- the host's one tap for the GM's rolls (issue 15) ---------------------------------------------------------------

def counter_where(*wanted) -> int:
    """A draw counter from which the table's next rolls are (sides, test) in order: reproducible app dice."""
    for start in range(5000):
        if all(test(roll_with(SEED, start + index, parse(f"d{sides}")).total)
               for index, (sides, test) in enumerate(wanted)):
            return start
    raise AssertionError("no such rolls in 5000 draws")


def miss(triggers):
    return lambda value: value not in triggers


def test_does_one_host_tap_run_foxys_and_golden_freddys_misses_and_stop_at_the_next_guard():
    state = until(new("second"), "foxy")
    assert answers(state) == [{"type": "run-rolls", "step": state["step"]}, {"type": "roll", "step": state["step"]}]
    assert seen_by(state)["run"]["label"] == "Roll for Foxy (d20), then Golden Freddy (d12)"
    start = counter_where((20, miss((20,))), (12, miss((12,))))
    dice = TableDice(SEED, start, "Host")
    after, lines = DC.texts(state, None, dice, type="run-rolls", step=state["step"])
    foxy, golden = (roll_with(SEED, start + index, parse(f"d{sides}")).total for index, sides in enumerate((20, 12)))
    assert lines == [f"Foxy rolled {foxy} on d20: nothing happens.",
                     f"Golden Freddy rolled {golden} on d12: nothing happens.", "Full turn 1 of 10 is over."]
    assert after["ask"] == {"kind": "move", "who": 1, "step": after["step"]} and after["full_turn"] == 2
    assert [record["why"] for record in dice.records] == ["Foxy", "Golden Freddy"] and dice.counter == start + 2
    assert [(shown["who"], shown["value"]) for shown in after["last_rolls"]] == [("Foxy", foxy),
                                                                                 ("Golden Freddy", golden)]
    assert after["last_roll"] == after["last_rolls"][-1]
    # the same as two taps, one roll each, with the same dice
    one, _ = DC.act(state, None, TableDice(SEED, start, "Host"), type="roll")
    two, _ = DC.act(one, None, TableDice(SEED, start + 1, "Host"), type="roll")
    assert {**two, "last_rolls": []} == {**after, "last_rolls": []}


def test_does_the_run_stop_at_the_question_a_strike_asks():
    state = until(new("second"), "foxy")
    start = counter_where((20, lambda value: value == 20))
    after, lines = DC.texts(state, None, TableDice(SEED, start, "Host"), type="run-rolls")
    assert lines == ["Foxy rolled 20 on d20: he charges the nearest guard!"]
    assert after["ask"]["kind"] == "foxy_nearest" and len(after["last_rolls"]) == 1
    assert rules.legal_actions(after, None)[0]["type"] == "answer"  # no run while the table is asked


def test_does_the_run_roll_an_unplayed_hunting_freddy_and_stop_at_his_question_or_a_players_roll():
    hunting = until(answer(roll(new("fourth", guards=1), 1, 3)[0], choice="left")[0], "foxy")
    assert seen_by(hunting)["run"]["label"] == "Roll for Foxy (d20), then Freddy (d6)"
    start = counter_where((20, miss((20,))), (6, lambda value: True))
    after, lines = DC.texts(hunting, None, TableDice(SEED, start, "Host"), type="run-rolls")
    assert after["ask"]["kind"] == "freddy_met" and len(lines) == 2
    played = until(answer(roll(new("fourth", guards=1, freddy_player=True), 1, 3)[0], choice="left")[0], "foxy")
    assert seen_by(played)["run"]["label"] == "Roll for Foxy (d20)"
    after, lines = DC.texts(played, None, TableDice(SEED, start, "Host"), type="run-rolls")
    assert after["ask"] == {"kind": "freddy", "who": 2, "step": after["step"]} and len(lines) == 1
    assert [move["type"] for move in answers(after)] == ["roll"]  # Freddy's player rolls


def test_is_the_run_for_the_host_only_and_only_when_a_gm_roll_is_due():
    state = new("first")
    refused(state, None, "The GM has no roll to make now. Guard 1: roll your move (d8).", type="run-rolls")
    bonnie = until(state, "bonnie")
    refused(bonnie, 1, "Running the GM's rolls is for the host screen.", type="run-rolls")
    refused(bonnie, None, "That question was already answered.", type="run-rolls", step=bonnie["step"] - 1)
    assert "run-rolls" not in [move["type"] for move in rules.legal_actions(bonnie, 1)]
    played = until(new("first", bonnie_player=True), "bonnie")
    assert answers(played) == [{"type": "roll", "step": played["step"]}]
    assert seen_by(played)["run"] is None
    assert seen_by(bonnie)["run"]["label"] == "Roll for Bonnie (d10)"  # the button reads as it always did


QUIET_ANSWERS = {"freddy_room": "neither", "foxy_path": "cinema", "moved": "moved"}


def quiet_taps(state: dict, run: bool = False, host_only: bool = True) -> tuple[list[int], dict]:
    """Taps in each full turn of a night whose guards answer on their own phones (`host_only`: the host's alone): the
    table answers quietly and the GM's rolls are app rolls, one tap each, or `run-rolls` (`run`), with the same dice.
    """
    counter = 0
    taps = [0] * 10
    while rules.outcome(state) is None:
        ask, turn = state["ask"], state["full_turn"]
        if ask["who"] is None and ask["kind"] in rules.ROLL_ASKS:
            move = {"type": "run-rolls" if run else "roll"}
        elif ask["kind"] in rules.ROLL_ASKS:
            move = {"type": "roll"}  # a guard's move or attack roll, on their phone
        elif ask["kind"] in QUIET_ANSWERS:
            move = {"type": "answer", "choice": QUIET_ANSWERS[ask["kind"]]}
        elif ask.get("nobody"):
            move = {"type": "answer", "choice": "nobody"}
        else:
            move = {"type": "answer", "guard": ask["guards"][0]}
        taps[turn - 1] += ask["who"] is None or not host_only
        dice = TableDice(SEED, counter, "x")
        state, _ = DC.act(state, ask["who"], dice, **move)
        counter = dice.counter
    return taps, state


@pytest.mark.parametrize("night,quiet_before,quiet_after", [("first", 5, 5), ("fourth", 8, 7)])
def test_how_many_host_taps_does_a_full_turn_cost_before_and_after_the_run(night, quiet_before, quiet_after):
    """Issue 15, with each roll waiting for its tap: one tap per GM roll before; one tap for each run of GM rolls
    after. On the First Night every GM roll is followed by a question (Bonnie's line of sight, whom Chica meets) or
    the next guard, so nothing is saved; from the Second Night on Foxy's and Golden Freddy's misses share one tap.
    (Issue 43 put each guard's question about Freddy's room on their own phone.)"""
    before, night_before = quiet_taps(new(night, guards=2), run=False)
    after, night_after = quiet_taps(new(night, guards=2), run=True)
    print(f"{night}: host taps per full turn before {before} (total {sum(before)}), "
          f"after {after} (total {sum(after)})")
    assert {**night_before, "last_rolls": []} == {**night_after, "last_rolls": []}  # the same night, the same dice
    assert all(later <= earlier for earlier, later in zip(before, after, strict=True))
    assert max(set(before), key=before.count) == quiet_before  # a quiet full turn
    assert max(set(after), key=after.count) == quiet_after
    assert (sum(after) < sum(before)) == (night != "first")


# ---- what a view carries --------------------------------------------------------------------------------------------

def test_does_each_screen_see_its_own_seat_whose_turn_it_is_and_the_board_check():
    state = until(new("fourth", guards=2, chica_player=True), "chica")
    assert seen_by(state, 3)["me"] == {"kind": "chica", "name": "Chica"}
    assert seen_by(state, 3)["turn"] == {"seats": [3], "text": "Your move is below."}  # its own phone
    assert seen_by(state, 1)["turn"] == {"seats": [3], "text": "Waiting for Chica's player"}
    assert seen_by(state, 3)["roll_label"] == "Roll for Chica (d6)"
    assert seen_by(state, 1)["me"] == {"kind": "guard", "guard": 1, "status": "alive"}
    assert seen_by(state)["board_check"] == [
        "Guard 1: alive", "Guard 2: alive", "Freddy: Inactive: a guard entering (attacked at once) or leaving his room "
        "wakes him", "Foxy: Ready: charges on 20", "Golden Freddy: Rolls every full turn: attacks on 12",
        "Full turns survived: 0 of 10", "Medical Office: Not used: needs ONE guard in the Medical Office, once",
        "Bonnie: on tile 2"]
    assert seen_by(state)["turn_order"] == ["Guard 1", "Guard 2", "Bonnie", "Chica", "Foxy", "Freddy",
                                            "Golden Freddy"]
    assert rules.view(state, Viewer.spectator())["moves"] == []


# ---- the app rolls: one tap per question only eyes can answer (issue 43) ---------------------------------------------

QUIET_SEED = "0c" * 32  # a table seed whose first four full turns are quiet on the First to Fourth Nights
LOUD = {"foxy_nearest", "foxy_path", "foxy_blocked", "golden_furthest", "attack"}


def quiet_full_turns(night: str, seed: str, turns: int = 4) -> tuple[list[int], list[list[tuple]], dict]:
    """Every tap (host and phones) of the first `turns` full turns, the table answering quietly, with the app rolling:
    the taps per full turn, each tap's (who, question), and the state after."""
    state, counter = new(night, guards=2, rolling="app"), 0
    taps: list[list[tuple]] = [[] for _ in range(turns)]
    while state["turns_done"] < turns:
        ask = state["ask"]
        assert ask["kind"] not in LOUD, f"full turn {state['full_turn']} is not quiet: {ask['kind']}"
        if ask["kind"] in rules.ROLL_ASKS:
            move = {"type": "roll"}
        elif ask["kind"] in QUIET_ANSWERS:
            move = {"type": "answer", "choice": QUIET_ANSWERS[ask["kind"]]}
        else:
            move = {"type": "answer", "choice": "nobody"}
        taps[state["full_turn"] - 1].append((ask["who"], ask["kind"]))
        dice = TableDice(seed, counter, "x")
        state, _ = DC.act(state, ask["who"], dice, **move)
        counter = dice.counter
    return [len(turn) for turn in taps], taps, state


def test_does_a_quiet_full_turn_with_two_guards_cost_at_most_six_taps_in_all():
    """Issue 43: 'With two guards and no animatronic players, a quiet full turn costs at most 6 taps in all, host and
    phones': each guard's Moved with where they ended (on their own phone), Bonnie's two line-of-sight questions and
    Chica's, every roll made with the tap before it; the night's first roll is the sixth tap of the first full turn."""
    counts, taps, state = quiet_full_turns("fourth", QUIET_SEED)
    print(f"taps per quiet full turn: {counts}")
    assert counts == [6, 5, 5, 5]
    assert taps[0][0] == (1, "move")  # the night's first roll: no tap comes before it
    assert taps[1] == [(1, "freddy_room"), (2, "freddy_room"), (None, "bonnie_sight"), (None, "bonnie_sight"),
                       (None, "chica_met")]
    assert state["ask"] == {"kind": "freddy_room", "who": 1, "step": state["step"], "guard": 1,
                            "moves": state["last_roll"]["value"]}  # Guard 1's roll came with Chica's answer
    assert [roll["who"] for roll in state["last_rolls"]] == ["Foxy", "Golden Freddy", "Guard 1"]


@pytest.mark.parametrize("night", ["first", "second", "third"])
def test_on_a_night_freddy_sleeps_does_each_guard_still_say_moved_before_the_next_piece_rolls(night):
    counts, taps, _ = quiet_full_turns(night, QUIET_SEED)
    assert max(counts) <= 6
    assert taps[1][:2] == [(1, "moved"), (2, "moved")]
    state = new(night, rolling="app")
    state, lines = act(state, 1, type="roll")
    assert state["ask"]["kind"] == "moved" and state["ask"]["who"] == 1
    assert seen_by(state, 1)["question"].startswith(f"Guard 1 moves up to {lines[0].split()[3]} tile")
    state, lines = answer(state, 1, choice="moved")
    assert lines[0] == "Guard 1 has moved." and "Guard 2 rolled" in lines[1]  # Guard 2's roll comes with it
    assert state["ask"]["who"] == 2 and state["ask"]["kind"] == "moved"


def test_with_the_app_rolling_are_the_rolls_drawn_from_the_tables_dice_and_logged():
    """Each roll made with the tap before it is drawn in turn from the table's committed seed, as a tapped roll would
    be: the same night on `tap`, rolling each due roll with the app, meets the same dice."""
    state = new("fourth", rolling="app")
    dice = TableDice(SEED, 0, "Ann (Guard 1)")
    state, _ = DC.act(state, 1, dice, type="roll")
    dice = TableDice(SEED, dice.counter, "Ann (Guard 1)")
    after, _ = DC.act(state, 1, dice, type="answer", choice="neither")
    assert [record["why"] for record in dice.records] == ["Guard 2 moves"]
    assert all(record["source"] == "app" and record["n"] == 1 for record in dice.records)
    tapped = new("fourth", rolling="tap")
    for _ in range(3):
        ask = tapped["ask"]
        move = {"type": "roll"} if ask["kind"] in rules.ROLL_ASKS else {"type": "answer", "choice": "neither"}
        tapped = DC.play(tapped, ask["who"], TableDice(SEED, 0 if ask["kind"] == "move" and ask["who"] == 1 else 1,
                                                       "x"), **move)
    assert tapped["last_roll"]["value"] == after["last_roll"]["value"] and tapped["ask"]["kind"] == "freddy_room"


def test_is_a_question_about_one_guard_asked_on_that_guards_phone():
    """'each question the table must answer with its eyes is one tap, asked on the phone of the guard it concerns
    when there is one': Foxy's charge at one guard, and Bonnie's or Chica's question when one guard is left."""
    state = until(new("second", guards=1), "bonnie_sight")
    assert state["ask"]["who"] == 1 and seen_by(state, 1)["turn"]["seats"] == [1]
    state = until(state, "chica_met")
    assert state["ask"]["who"] == 1
    charged, _ = roll(until(new("second", guards=2), "foxy"), None, 20)
    charged, _ = answer(charged, guard=2)
    assert charged["ask"]["kind"] == "foxy_path" and charged["ask"]["who"] == 2
    assert until(new("second", guards=2), "bonnie_sight")["ask"]["who"] is None  # about either guard: the host
    played = until(new("second", guards=1, bonnie_player=True), "bonnie_sight")
    assert played["ask"]["who"] == 2  # Bonnie's player answers for her, as before
