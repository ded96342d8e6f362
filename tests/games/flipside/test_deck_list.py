"""The deck-list checker, without Flask: 'Min 40 cards, Max 2 card colors, Max 4 card duplicates', White is free."""

import pytest

from app.games import REGISTRY
from app.games.flipside.deck_list import (
    DECK_MIN,
    MAX_CHARACTERS,
    MAX_COLOURS,
    MAX_COPIES,
    DeckListTooLong,
    UnknownReading,
    check,
)

LEGAL = "\n".join(["4 Toy Chica [Yellow]", "4 Toy Bonnie [Yellow]", "4 Toy Freddy [Yellow]", "4 Mangle [Yellow]",
                   "4 Freddy Fazbear [Red]", "4 Foxy [Red]", "4 Withered Bonnie [Red]", "4 Withered Chica [Red]",
                   "4 Balloon Boy [White]", "4 Puppet [White]"])


def messages(result: dict) -> list[str]:
    return [problem["message"] for problem in result["problems"]]


def test_a_legal_deck_passes_with_its_count_and_colours():
    result = check(LEGAL)
    assert result["ok"] and result["problems"] == []
    assert result["cards"] == 40
    assert result["colours"] == {"Red": 16, "Yellow": 16, "White": 8}


def test_a_deck_needs_at_least_40_cards():
    """'Min 40 cards'"""
    result = check(LEGAL.replace("4 Puppet [White]", "3 Puppet [White]"))
    assert not result["ok"] and result["cards"] == 39
    assert result["problems"] == [{"line": None, "message": "The deck has 39 cards; a deck needs at least 40 "
                                                            "(1 more)."}]


def test_a_deck_has_at_most_two_colours_and_white_is_free():
    """'Max 2 card colors'; White: 'No deck limit, can be added to any deck.'"""
    assert check(LEGAL + "\n4 Nightmare [White]")["ok"]
    result = check(LEGAL + "\n1 Springtrap [Purple]")
    assert messages(result) == ["The deck has 3 colours: Red (16), Yellow (16), Purple (1). A deck may use at most 2, "
                                "not counting White."]


def test_a_deck_has_at_most_four_copies_of_a_card_counted_across_lines_and_spellings():
    """'Max 4 card duplicates'"""
    result = check(LEGAL + "\n1 toy  chica [Yellow]")
    assert result["problems"] == [{"line": 11, "message": "Line 11: Toy Chica has 5 copies (lines 1 and 11); a deck "
                                                          "may hold at most 4 of a card."}]
    result = check("5 Foxy [Red]\n" + LEGAL.replace("4 Foxy [Red]", "4 Golden Freddy [Red]"))
    assert messages(result) == ["Line 1: Foxy has 5 copies; a deck may hold at most 4 of a card."]


@pytest.mark.parametrize("line,message", [
    ("Toy Chica [Yellow]", "Line 41: start with how many copies, like '3 Toy Chica [Yellow]'."),
    ("3 Toy Chica", "Line 41: put the card's colour in square brackets after its name"),
    ("3 Toy Chica [Orange]", "Line 41: 'Orange' is not a Flipside colour; use one of Red, Blue, Yellow, Green, "
                             "Purple or White."),
    ("3 Toy Chica []", "Line 41: an empty bracket is not a Flipside colour"),
    ("3 [Yellow]", "Line 41: write the card's name between the number and the colour"),
    ("0 Toy Chica [Yellow]", "Line 41: 0 copies of Toy Chica; write at least 1 or leave the line out."),
    ("3 Toy Chica [Yellow] foil", "Line 41: end the line with the colour in square brackets"),
    ("3 Toy [Chica] [Yellow]", "Line 41: give one colour in one pair of square brackets"),
    ("9999 Toy Chica [Yellow]", "Line 41: 9999 copies is far more than a deck holds"),
    ("3 " + "A" * 61 + " [Red]", "Line 41: a card's name has at most 60 characters; that one has 61."),
    ("3 Toy\tChica\x07 [Red]", "Line 41: remove the control characters"),
])
def test_malformed_lines_are_reported_with_their_line_numbers(line, message):
    lines = LEGAL.split("\n")
    result = check("\n".join(lines[:5] + ["", "# my notes", "// more notes"] + lines[5:] + [""] * 27 + [line]))
    assert not result["ok"]
    assert [problem["line"] for problem in result["problems"]] == [41]
    assert result["problems"][0]["message"].startswith(message)
    assert result["cards"] == 40  # the bad line counts for nothing


def test_counts_colours_and_names_are_read_forgivingly():
    result = check("3x Toy Chica [yellow]\r\n2\u00d7 X-Ray [WHITE]\n  1   Mangle   [ Yellow ]  ")
    assert result["list"] == [{"name": "Toy Chica", "colour": "Yellow", "copies": 3},
                              {"name": "X-Ray", "colour": "White", "copies": 2},
                              {"name": "Mangle", "colour": "Yellow", "copies": 1}]
    assert [problem["line"] for problem in result["problems"]] == [None]  # only: too few cards


def test_every_problem_at_once_lines_first_then_the_deck():
    result = check("5 Foxy [Red]\n2 Chica [Blue]\nnonsense\n1 Mangle [Green]")
    assert [problem["line"] for problem in result["problems"]] == [1, 3, None, None]
    assert "3 colours" in messages(result)[2] and "8 cards" in messages(result)[3]


def test_an_empty_list_says_how_many_cards_are_missing():
    assert messages(check("")) == ["The deck has 0 cards; a deck needs at least 40 (40 more)."]


def test_huge_input_is_refused_with_a_sentence():
    with pytest.raises(DeckListTooLong, match="at most 20,000 characters"):
        check("1 A [Red]\n" * (MAX_CHARACTERS // 5))
    with pytest.raises(DeckListTooLong, match="at most 400 lines"):
        check("\n" * 500)
    with pytest.raises(TypeError):
        check(["4 Foxy [Red]"])


WHITE_FIVE = LEGAL.replace("4 Balloon Boy [White]", "5 Balloon Boy [White]").replace("4 Puppet", "3 Puppet")


def test_white_cards_have_no_copy_limit_by_default():
    """White: 'No deck limit, can be added to any deck.' The most natural reading (the default): no copy limit."""
    result = check(WHITE_FIVE)
    assert result["ok"] and result["white"] == "free" and result["reading"] == "White cards have no copy limit."
    assert check(WHITE_FIVE, "free") == result
    assert check(LEGAL + "\n9 Nightmare [White]")["ok"]


def test_white_cards_hold_to_four_copies_when_the_table_reads_it_so():
    """The other reading frees White of the colour limit only: 'Max 4 card duplicates' still holds."""
    result = check(WHITE_FIVE, "four")
    assert messages(result) == ["Line 9: Balloon Boy has 5 copies; a deck may hold at most 4 of a card, White ones "
                                "too (the reading in force)."]
    assert result["white"] == "four" and result["reading"] == "White cards hold to 4 copies, like every card."
    assert result["colours"] == {"Yellow": 16, "Red": 16, "White": 8}


@pytest.mark.parametrize("white", ["none", "", 4, True, "FREE"])
def test_an_unknown_white_reading_is_refused_with_a_sentence(white):
    with pytest.raises(UnknownReading, match="must be 'free' for no copy limit or 'four' for at most 4 copies"):
        check(LEGAL, white)


def test_the_numbers_come_from_the_profile():
    profile = REGISTRY["flipside"].profile
    assert (DECK_MIN, MAX_COLOURS, MAX_COPIES) == (profile["deck_min"].value, profile["deck_colours"].value,
                                                   profile["deck_copies"].value) == (40, 2, 4)


def test_is_a_deck_of_exactly_40_cards_in_exactly_two_colours_with_exactly_four_copies_legal():
    """The boundaries themselves are legal: 'Min 40 cards', 'Max 2 card colors', 'Max 4 card duplicates'."""
    assert check(LEGAL)["ok"]
    result = check(LEGAL.replace("4 Puppet [White]", "4 Puppet [Blue]"))
    assert not result["ok"] and "3 colours" in messages(result)[0]
    assert check(LEGAL.replace("4 Puppet [White]", "3 Puppet [White]\n1 Foxy [Red]"))["problems"][0]["line"] == 11
