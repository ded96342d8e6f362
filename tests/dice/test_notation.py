"""Dice notation, without Flask: what parses, what it is called, what is refused and why, and the exact odds."""

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from app.dice import Dice, DiceError, parse

APP = Path(__file__).resolve().parents[2] / "app"


@pytest.mark.parametrize("written,canonical", [
    ("d20", "d20"), ("1d20", "d20"), ("2d6+1", "2d6+1"), (" 2D6 + 1 ", "2d6+1"), ("2d6+1+2", "2d6+3"),
    ("1+d20", "d20+1"), ("d20-2", "d20-2"), ("d20+0", "d20"), ("4d6kh3", "4d6kh3"), ("4d6k3", "4d6kh3"),
    ("4d6dl1", "4d6kh3"), ("4d6dh1", "4d6kl3"), ("2d20kl1", "2d20kl1"), ("2d20kh", "2d20kh1"), ("2d20k", "2d20kh1"),
    ("2d20dl", "2d20kh1"), ("2d6kh2", "2d6"), ("4d6dl0", "4d6"), ("d%", "d100"), ("-d4+d20", "-d4+d20"),
    ("d{0,5,5,10,10,15}", "d{0,5,5,10,10,15}"), ("3d{ 0, 5, 10 }", "3d{0,5,10}"), ("d{1,2,3,4,5,6}", "d6"),
    ("d{-1,0,1}", "d{-1,0,1}"), ("2d{-5,5}kl1", "2d{-5,5}kl1"),
])
def test_what_is_the_canonical_text_of_each_notation(written, canonical):
    assert parse(written).text == canonical
    assert parse(canonical).text == canonical  # canonical text reads back as itself


def test_what_a_parsed_expression_holds():
    dice = parse("4d6kh3+2d{0,5,10}-d4+3")
    assert isinstance(dice, Dice) and dice.modifier == 3 and dice.dice_count == 7
    first, second, third = dice.groups
    assert (first.count, first.faces, first.keep, first.sign, first.label, first.standard) == \
        (4, (1, 2, 3, 4, 5, 6), ("h", 3), 1, "4d6kh3", True)
    assert (second.faces, second.keep, second.label, second.standard) == ((0, 5, 10), None, "2d{0,5,10}", False)
    assert (third.sign, third.label) == (-1, "d4")
    assert (dice.min_total, dice.max_total) == (3 + 0 - 4 + 3, 18 + 20 - 1 + 3)


@pytest.mark.parametrize("written,message", [
    ("2d", "'2d' is not dice notation. Write it like d20, 2d6+1, 4d6kh3 or d{0,5,5,10,10,15}."),
    ("d1", "A die needs at least 2 sides; 'd1' has 1."),
    ("150d6", "That's 150 dice; one roll can have at most 100."),
    ("60d6+50d8", "That's 110 dice; one roll can have at most 100."),
    ("d1001", "A die can have at most 1000 sides; 'd1001' has 1001."),
    ("0d6", "'0d6' rolls no dice; roll at least one."),
    ("d{5}", "A die needs at least 2 faces; 'd{5}' has 1."),
    ("d{0,1001}", "A face can show from -1000 to 1000; 1001 is out of range."),
    ("d{a,b}", "should list the die's faces as whole numbers"),
    ("d{}", "should list the die's faces as whole numbers"),
    ("4d6kh5", "'4d6kh5' keeps 5 of 4 dice; keep at most 4."),
    ("4d6kh0", "'4d6kh0' keeps no dice; keep at least 1."),
    ("4d6dl4", "'4d6dl4' drops 4 of 4 dice; drop at most 3."),
    ("d20+1001", "Add or subtract at most 1000; '1001' is too much."),
    ("d20+1000+1", "The numbers added come to 1001"),
    ("7", "'7' has no dice in it."),
    ("", "Say which dice to roll."),
    ("   ", "Say which dice to roll."),
    ("d20+", "'d20+' is not dice notation."),
    ("d20++1", "is not dice notation."),
    ("d6d", "is not dice notation."),
    ("2x6", "is not dice notation."),
    ("\u0663d6", "'\u0663d6' is not dice notation."),  # Arabic-Indic 3: digits are ASCII, as everywhere else
    ("d\u0666", "is not dice notation."),
    ("4d6kh\u0663", "is not dice notation."),
    ("d20+\u0663", "is not dice notation."),
    ("d{1,\u0662}", "should list the die's faces as whole numbers"),
    ("d" + "9" * 100, "That dice notation is 101 characters long; keep it to 100."),
    (None, "Dice must be written as text."),
    (20, "Dice must be written as text."),
])
def test_what_is_refused_and_how_the_player_is_told(written, message):
    with pytest.raises(DiceError) as caught:
        parse(written)
    assert message in str(caught.value)


def test_what_is_the_most_an_expression_may_hold():
    assert parse("100d6").dice_count == 100
    assert parse("d1000").groups[0].faces[-1] == 1000
    assert len(parse("d{" + ",".join(["1"] * 48) + "}").groups[0].faces) == 48  # 98 characters
    with pytest.raises(DiceError, match="keep it to 100"):
        parse("d{" + ",".join(["1"] * 101) + "}")
    assert parse("d20-1000").modifier == -1000


def test_does_every_distribution_sum_to_one():
    for written in ["d20", "2d6+1", "4d6kh3", "2d20kl1", "3d{0,5,5,10,10,15}", "-d4+d20", "d%", "2d{-5,5}kl1"]:
        dice = parse(written)
        distribution = dice.distribution()
        assert sum(distribution.values()) == 1, written
        assert min(distribution) == dice.min_total and max(distribution) == dice.max_total, written


def test_what_are_the_known_odds_of_2d6_and_4d6_keep_3():
    two = parse("2d6").distribution()
    assert two[7] == Fraction(1, 6) and two[2] == Fraction(1, 36) and two[12] == Fraction(1, 36)
    four = parse("4d6kh3").distribution()
    assert four[18] == Fraction(21, 1296)  # 6,6,6 and any fourth die: 1 + 4*5 arrangements
    assert sum(total * chance for total, chance in four.items()) == Fraction(15869, 1296)  # mean 12.2446...
    assert parse("4d6dl1").distribution() == four
    disadvantage = parse("2d20kl1").distribution()
    assert disadvantage[1] == Fraction(39, 400) and disadvantage[20] == Fraction(1, 400)


def test_do_custom_faces_count_repeats_and_negatives():
    power = parse("d{0,5,5,10,10,15}").distribution()
    assert power == {0: Fraction(1, 6), 5: Fraction(1, 3), 10: Fraction(1, 3), 15: Fraction(1, 6)}
    assert parse("2d{0,5,5,10,10,15}").distribution()[10] == Fraction(1 * 2 + 2 * 1 + 2 * 2, 36)  # 0+10, 10+0, 5+5
    assert parse("d{-1,-1,1}+2").distribution() == {1: Fraction(2, 3), 3: Fraction(1, 3)}


def test_does_a_subtracted_group_subtract_in_the_odds():
    assert parse("d20-d4").distribution()[-3] == Fraction(1, 80)  # 1 - 4 only


def test_what_happens_when_the_odds_are_too_big_to_compute():
    with pytest.raises(DiceError, match="too many outcomes to compute exactly"):
        parse("12d6kh3").distribution()  # 6**12 outcomes to look at
    with pytest.raises(DiceError, match="too many outcomes to compute exactly"):
        parse("100d1000").distribution()
    assert sum(parse("8d6kh3").distribution().values()) == 1  # 6**8 = 1,679,616 is still fine


def test_how_does_a_roll_describe_itself():
    assert parse("2d6+1").with_values([(3, 5)]).describe() == "3 + 5 + 1 = 9"
    assert parse("4d6kh3").with_values([(6, 4, 3, 1)]).describe() == "4d6kh3: 6, 4, 3, (1) = 13"
    assert parse("d20").with_values([(20,)]).describe() == "20"
    assert parse("d20-2").with_values([(17,)]).describe() == "17 - 2 = 15"
    assert parse("-d4+d20").with_values([(3,), (19,)]).describe() == "-3 + 19 = 16"
    assert parse("2d20kl1+3").with_values([(10, 5)]).describe() == "2d20kl1: (10), 5 + 3 = 8"


def test_which_die_is_dropped_when_values_tie():
    roll = parse("3d6kh2").with_values([(4, 6, 4)])
    assert roll.kept == ((4, 6),) and roll.total == 10
    assert roll.describe() == "3d6kh2: 4, 6, (4) = 10"


def _imports(module: Path) -> list[tuple[str, Path | None]]:
    """What a module imports: each name, and the file within app/ it names (None for anything outside app/)."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    found = [(alias.name, None) for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 0:
                found.append((node.module or "", None))
                continue
            base = module.parent
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*(node.module or "").split(".")) if node.module else base
            file = target.with_suffix(".py") if target.with_suffix(".py").exists() else target / "__init__.py"
            found.append((node.module or "", file if file.exists() else None))
    return found


PURE = sorted((APP / "dice").glob("*.py")) + sorted(APP.glob("games/*/rules.py")) + [APP / "reading.py"]


@pytest.mark.parametrize("module", PURE, ids=lambda path: str(path.relative_to(APP)))
def test_do_the_pure_modules_stay_free_of_flask_and_sqlalchemy(module):
    """Not only their own imports: a module of the app they import (and its imports) must be pure too."""
    seen, waiting, web = set(), [module], []
    while waiting:
        current = waiting.pop()
        if current in seen:
            continue
        seen.add(current)
        for name, file in _imports(current):
            if name.split(".")[0] in ("flask", "sqlalchemy", "flask_sqlalchemy", "werkzeug"):
                web.append(f"{current.relative_to(APP)} imports {name}")
            if file is not None and file.name != "__init__.py":
                waiting.append(file)
    assert not web
