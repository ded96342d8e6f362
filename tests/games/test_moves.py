"""Declared moves, without a game: every malformed move is refused with its sentence, forms become moves, offers say
what a template may show."""

import pytest

from app.games.contract import IllegalAction
from app.games.moves import Choice, Count, Flag, Moves, Numbers, Offers, SeatField, Text, Whose

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


def test_do_offers_tell_a_template_which_variants_pass_and_what_the_limits_are():
    offers = Offers(TOY, STATE, [{"type": "lose", "whose": 1, "amount": 1}], seat=1)
    offer = offers.find("lose", whose=1)
    assert offers.allows(offer, amount=3) and not offers.allows(offer, amount=4) and not offers.allows(None)
    amount = next(field for field in offers.fields(offer) if field["name"] == "amount")
    assert (amount["min"], amount["max"], amount["picked"]) == (1, 3, True)


def test_does_a_fingerprint_name_exactly_the_offers_of_its_types_with_its_fields():
    offered = [{"type": "lose", "whose": 1, "amount": 1}, {"type": "lose", "whose": 2, "amount": 1},
               {"type": "poke", "target": 2, "with": "stick"}, {"type": "poke", "target": 1, "with": "feather"},
               {"type": "reset"}, {"type": "poke", "target": 2, "with": "feather", "dice": [1, 2]}]
    offers = Offers(TOY, STATE, offered, seat=None)

    def by_hand(*types, **fields):
        return True, tuple(tuple(sorted(offer.items())) for type in types for offer in offered
                           if offer["type"] == type and all(offer.get(k) == v for k, v in fields.items()))
    for types, fields in [(("lose",), {"whose": 2}), (("poke", "lose"), {}), (("poke",), {"target": 2}),
                          (("poke",), {"target": 2, "with": "feather"}), (("lose", "reset"), {"whose": None}),
                          (("poke",), {"dice": [1, 2]}), (("lose",), {"whose": 3}), (("nothing",), {})]:
        assert offers.fingerprint(*types, **fields) == by_hand(*types, **fields), (types, fields)
        assert offers.fingerprint(*types, **fields) == by_hand(*types, **fields)  # asked again, from the index
        first = next((offer for offer in offered if offer["type"] == types[0]
                      and all(offer.get(k) == v for k, v in fields.items())), None)
        assert offers.find(types[0], **fields) is first, (types, fields)
    assert offers.fingerprint("lose", whose=1) != offers.fingerprint("lose", whose=2)
    assert Offers(TOY, STATE, [], seat=1).fingerprint("lose") == (False, ())
