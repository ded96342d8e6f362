"""The shared move-shape check, without a game: every malformed move is refused with a sentence, in a fixed order."""

import pytest

from app.games.contract import IllegalAction
from app.games.moves import check_move

FIELDS = {"roll": (("dice",), ("why",)), "pass": ((), ())}
DOING = {"roll": "Rolling", "pass": "Passing"}


def check(action, **extra):
    options = {"example": '{"type": "pass"}', "offer": "isn't a move here.", "missing": {"dice": "Say which dice."}}
    return check_move(action, FIELDS, DOING, [1, 2], **(options | extra))


@pytest.mark.parametrize("action,message", [
    (None, 'An action needs a type, like {"type": "pass"}.'),
    ({"type": 3, "seat": 1}, "An action needs a type"),
    ({"type": "dance", "seat": 1}, "'dance' isn't a move here."),
    ({"type": "pass", "seat": 1, "colour": "red"}, "Passing doesn't take 'colour'."),
    ({"type": "pass"}, "That action doesn't say who is acting."),
    ({"type": "roll", "seat": 1}, "Say which dice."),
    ({"type": "pass", "seat": 3}, "There is no seat 3 at this table."),
    ({"type": "pass", "seat": True}, "There is no seat True at this table."),
    ({"type": "pass", "seat": "<script>" * 10}, "There is no seat <script><script><scr at this table."),
])
def test_a_malformed_move_is_refused_with_a_sentence(action, message):
    with pytest.raises(IllegalAction) as refused:
        check(action)
    assert message in str(refused.value)


def test_a_well_formed_move_gives_its_type_and_seat():
    assert check({"type": "roll", "seat": 2, "dice": "d6", "why": "Foxy"}) == ("roll", 2)
    assert check({"type": "pass", "seat": None}) == ("pass", None)  # the host


def test_a_game_words_the_missing_field_and_the_unknown_seat_its_own_way():
    with pytest.raises(IllegalAction, match="Rolling needs 'dice'"):
        check({"type": "roll", "seat": 1}, missing=lambda kind, key: f"{DOING[kind]} needs '{key}'.")
    with pytest.raises(IllegalAction, match="There is no guard at seat 9"):
        check({"type": "pass", "seat": 9}, no_seat="There is no guard at seat {seat}.")
