"""Declared moves, without a game: every malformed move is refused with its sentence, forms become moves, offers say
what a template may show."""

import pytest

from app.games.contract import IllegalAction
from app.games.moves import Choice, Count, Flag, Moves, Numbers, Offers, Rows, SeatField, Text, Whose

TOY = Moves("toy", example='{"type": "pass"}', offer="isn't a toy move.", seat_name=lambda state, seat: f"Imp {seat}")


@TOY.move("lose", "Losing hearts", Whose(), Count("amount", "hearts lost", low=1,
                                                 high=lambda state, move: state["hearts"][str(move["whose"])]))
def _lose(state, move, rng):
    return state, []


@TOY.move("poke", "Poking", SeatField("target", "the imp poked", unknown="There is no Imp {value} here."),
          Choice("with", "what you poke with", ("stick", "feather")), Flag("hard", "poke hard"),
          Text("why", "why", length=5, optional=True), Numbers("dice", "the dice", optional=True, length=2))
def _poke(state, move, rng):
    return state, []


@TOY.move("line-up", "Lining up", Rows("imps", "the imps in line", Count("height", "height", low=1, high=9),
                                        Flag("hat", "wears a hat"), item="imp", length=3, optional=True),
          Numbers("gaps", "the gaps", optional=True, length=3))
def _line_up(state, move, rng):
    return state, []


@TOY.move("reset", "Resetting", by="host")
def _reset(state, move, rng):
    return state, []


STATE = {"seats": [1, 2], "hearts": {"1": 3, "2": 0}}


def refusal(action) -> str:
    with pytest.raises(IllegalAction) as caught:
        TOY.check(STATE, action)
    return str(caught.value)


@pytest.mark.parametrize("action,message", [
    ({"type": "lose", "seat": 1}, "Say hearts lost."),
    ({"type": "lose", "seat": 1, "amount": True}, "Hearts lost must be a whole number, like 1."),
    ({"type": "lose", "seat": 1, "amount": 2.0}, "Hearts lost must be a whole number"),
    ({"type": "lose", "seat": 1, "amount": "2"}, "Hearts lost must be a whole number"),
    ({"type": "lose", "seat": 1, "amount": None}, "Hearts lost must be a whole number"),
    ({"type": "lose", "seat": 1, "amount": 0}, "Hearts lost can't be less than 1; you gave 0."),
    ({"type": "lose", "seat": 1, "amount": 4}, "Hearts lost can't be more than 3; you gave 4."),
    ({"type": "lose", "seat": 1, "amount": 1, "whose": 2}, "You play for Imp 1; only the host can act for Imp 2."),
    ({"type": "lose", "seat": 1, "amount": 1, "whose": 7}, "There is no seat 7 at this table."),
    ({"type": "lose", "seat": None, "amount": 1, "whose": 2}, "Hearts lost can't be more than 0; you gave 1."),
    ({"type": "poke", "seat": 1, "target": 3, "with": "stick"}, "There is no Imp 3 here."),
    ({"type": "poke", "seat": 1, "target": 2, "with": "fork"}, "What you poke with must be one of: stick, feather."),
    ({"type": "poke", "seat": 1, "target": 2, "with": "stick", "hard": "yes"}, "Poke hard is a yes-or-no box"),
    ({"type": "poke", "seat": 1, "target": 2, "with": "stick", "why": "because"}, "Keep why to 5 characters"),
    ({"type": "poke", "seat": 1, "target": 2, "with": "stick", "why": "a\nb"}, "Why must be one line of text."),
    ({"type": "poke", "seat": 1, "target": 2, "with": "stick", "dice": [1, 2, 3]}, "Type the dice as whole numbers"),
    ({"type": "poke", "seat": 1, "target": 2, "with": "stick", "dice": [True]}, "Type the dice as whole numbers"),
    ({"type": "line-up", "seat": 1, "imps": [{"hat": True}]}, "Say imp 1's height."),
    ({"type": "line-up", "seat": 1, "imps": [{"height": 2}, {"height": 0}]}, "Imp 2's height can't be less than 1"),
    ({"type": "line-up", "seat": 1, "imps": [{"height": 2, "hat": "no"}]}, "Imp 1's wears a hat is a yes-or-no"),
    ({"type": "line-up", "seat": 1, "imps": [{"height": 2, "cape": 1}]}, "Imp 1 doesn't take 'cape'."),
    ({"type": "line-up", "seat": 1, "imps": [{"height": 2}] * 4}, "The imps in line can have at most 3 rows, not 4."),
    ({"type": "line-up", "seat": 1, "imps": {"height": 2}}, "Give the imps in line as a list of rows, like "
                                                             '[{"height": ..., "hat": ...}].'),
    ({"type": "reset", "seat": 2}, "Resetting is for the host screen."),
    ({"type": "reset", "seat": None, "x": 1}, "Resetting doesn't take 'x'."),
])
def test_does_a_declaration_refuse_each_wrong_field_with_its_sentence(action, message):
    assert message in refusal(action)


def test_does_a_checked_move_fill_in_the_acting_seat_and_the_defaults():
    _, move = TOY.check(STATE, {"type": "lose", "seat": 1, "amount": 2})
    assert move == {"type": "lose", "seat": 1, "amount": 2, "whose": 1} and move.actor == 1
    _, poke = TOY.check(STATE, {"type": "poke", "seat": 2, "target": 1, "with": "feather", "why": " ok "})
    assert poke["hard"] is False and poke["why"] == "ok" and poke["dice"] is None


@pytest.mark.parametrize("raw,expected", [
    ({"type": "lose", "amount": "2"}, {"type": "lose", "amount": 2}),
    ({"type": "lose", "amount": "²"}, {"type": "lose", "amount": "²"}),  # a Unicode digit stays text, to be refused
    ({"type": "lose", "amount": "٣"}, {"type": "lose", "amount": "٣"}),
    ({"type": "lose", "amount": "1e3"}, {"type": "lose", "amount": "1e3"}),
    ({"type": "lose", "amount": "", "whose": "2"}, {"type": "lose", "whose": 2}),
    ({"type": "poke", "hard": "on", "dice": "3, 5 6"}, {"type": "poke", "hard": True, "dice": [3, 5, 6]}),
    ({"type": "poke", "hard": "", "dice": "3, x"}, {"type": "poke", "hard": False, "dice": "3, x"}),
])
def test_does_a_form_become_a_move_by_each_fields_declared_kind(raw, expected):
    assert TOY.from_form(raw) == expected


def test_do_numbered_boxes_become_rows_and_lists_in_their_numbers_order():
    """A repeated group of fields (any number of rows) and a list sent as one box per number, as a browser posts
    them: blank rows and boxes are left out, and each row checks like a move's fields."""
    raw = {"type": "line-up", "imps-2-height": "5", "imps-2-hat": "on", "imps-1-height": "3", "imps-3-height": "",
           "imps-10-height": "7", "gaps-2": "4", "gaps-1": "1", "gaps-3": ""}
    move = TOY.from_form(raw)
    assert move == {"type": "line-up", "imps": [{"height": 3}, {"height": 5, "hat": True}, {"height": 7}],
                    "gaps": [1, 4]}
    _, checked = TOY.check(STATE, {**move, "seat": 1})
    assert checked["imps"] == [{"height": 3, "hat": False}, {"height": 5, "hat": True}, {"height": 7, "hat": False}]
    assert TOY.from_form({"type": "line-up", "imps-1-height": "x"})["imps"] == [{"height": "x"}]  # refused later
    assert TOY.check(STATE, {"type": "line-up", "seat": 1})[1]["imps"] is None
    imps = next(field for field in TOY.form(STATE, {"type": "line-up", "imps": []}) if field["name"] == "imps")
    assert (imps["kind"], imps["length"], [part["name"] for part in imps["fields"]]) == ("rows", 3, ["height", "hat"])


def test_do_offers_tell_a_template_which_variants_pass_and_what_the_limits_are():
    offers = Offers(TOY, STATE, [{"type": "lose", "whose": 1, "amount": 1}], seat=1)
    offer = offers.find("lose", whose=1)
    assert offers.allows(offer, amount=3) and not offers.allows(offer, amount=4) and not offers.allows(None)
    amount = next(field for field in offers.fields(offer) if field["name"] == "amount")
    assert (amount["min"], amount["max"], amount["picked"]) == (1, 3, True)


def test_do_screens_sharing_their_verdicts_still_get_each_seats_own():
    """One drawing's screens share Offers.allows' verdicts; a variant allowed for one seat is not thereby allowed for
    another (Imp 2 has no hearts to lose), nor for every seat at once."""
    checked: dict = {}
    offer = {"type": "lose", "amount": 1}
    imp1, imp2 = (Offers(TOY, STATE, [offer], seat=seat, checked=checked) for seat in (1, 2))
    everyone = Offers(TOY, STATE, [offer], seat=None, every=(1, 2), checked=checked)
    assert imp1.allows(offer, amount=2) and not imp2.allows(offer, amount=2) and not everyone.allows(offer, amount=2)
    assert imp1.allows(offer, amount=2) and len(checked) == 3  # asked again: answered from what was checked
    unhashable = {"type": "line-up", "imps": [{"height": 2}]}
    assert Offers(TOY, STATE, [unhashable], seat=1, checked=checked).allows(unhashable, gaps=[1, 2])
