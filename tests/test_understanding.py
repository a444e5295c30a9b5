"""Table-driven tests of the understanding module (English), incl. text2num 3.x traps."""

import pytest

from voicegame.language.words import Understanding, normalise


@pytest.fixture(scope="module")
def u():
    return Understanding("en")


@pytest.mark.parametrize("text, value", [
    ("three point five", 3.5),
    ("two thousand and eight", 2008),
    ("two thousand eight", 2008),
    ("nineteen eighty four", 1984),      # year pair: text2num alone rejects it
    ("twenty twenty four", 2024),
    ("nineteen oh five", 1905),
    ("a hundred", 100),                  # text2num rejects "a hundred"
    ("a thousand", 1000),
    ("one hundred", 100),
    ("minus five", -5),
    ("negative five", -5),
    ("-5", -5),
    ("oh", 0),
    ("zero", 0),
    ("one", 1),                          # alpha2digit leaves small numbers as words
    ("five", 5),
    ("twelve", 12),
    ("thirty and six", 36),
    ("thirty six", 36),
    ("two point oh five", 2.05),
    ("zero point two five", 0.25),
    ("point five", 0.5),
    ("three and a half", 3.5),
    ("one million two hundred thousand", 1200000),
    ("one point two million", 1200000),
    ("seven hundred and fifty", 750),
    ("1984", 1984),
    ("3.5", 3.5),
    ("0.25", 0.25),
    ("1,200,000", 1200000),
    ("about twelve", 12),
    ("my guess is 2008", 2008),
    ("Twelve.", 12),
    ("one and a half million", 1500000),
    ("one million and a half", 1500000),
    ("two point five million", 2500000),
    ("half a million", 500000),
    ("more or less a hundred", 100),     # "less" is not a minus sign
    ("give or take fifty", 50),
    ("the year two thousand", 2000),
    ("1.5 million", 1500000),            # digits typed with a scale word
    ("2 thousand", 2000),
])
def test_numbers(u, text, value):
    got = u.number(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("text", ["one two three", "twelve red", "left", "", "hello", "point",
                                  "minus", "nineteen eighty four apples"])
def test_not_numbers(u, text):
    assert u.number(text) is None


def test_year_pairs_can_be_refused(u):
    assert u.number("nineteen eighty four", year=False) is None
    assert u.number("nineteen hundred", year=False) == 1900


def test_numbers_in_a_sentence(u):
    assert [v for _, _, v in u.numbers_in("red one on 2008 with three chips one on too high")] == [1, 2008, 3, 1]
    assert [v for _, _, v in u.numbers_in("five chips on twelve point five")] == [5, 12.5]


@pytest.mark.parametrize("text, value", [
    ("yes", True), ("yeah", True), ("yep", True), ("correct", True), ("that's right", True),
    ("sure", True), ("no", False), ("nope", False), ("nah", False), ("wrong", False),
    ("banana", None), ("", None),
])
def test_yes_no(u, text, value):
    assert u.yes_no(text) is value


@pytest.mark.parametrize("text, value", [
    ("left", "left"), ("right", "right"), ("to the left", "left"), ("more right", "right"),
    ("a little left", "left"), ("up", None),
])
def test_sides(u, text, value):
    assert u.side(text) == value


@pytest.mark.parametrize("text, value", [
    ("red", "red"), ("blue seven", "blue"), ("violet", "purple"), ("Pink!", "pink"), ("black", None),
])
def test_colours(u, text, value):
    assert u.colour(text) == value


@pytest.mark.parametrize("text, value", [
    ("repeat", "repeat"), ("say that again", "repeat"), ("help", "help"), ("what's the score", "score"),
    ("pause", "pause"), ("resume", "resume"), ("undo", "undo"), ("slower", "slower"), ("faster", "faster"),
    ("louder", "louder"), ("softer", "softer"), ("stop the game", "quit"), ("quit the game", "quit"),
    ("stop", "stop"), ("quit", None), ("yes", None), ("okay", None),
    ("lock it in", None), ("red two thousand", None), ("go left", None),
])
def test_commands(u, text, value):
    assert u.command(text) == value


def test_grammar_has_commands_and_no_duplicates(u):
    g = u.grammar(["left", "right", "left"])
    assert g.count("left") == 1 and "repeat" in g and "stop the game" in g
    assert all(p == p.lower() for p in g)


def test_snap_to_expected_phrase(u):
    assert u.snap("lock it inn", ["lock it in", "left", "right"]) == "lock it in"
    assert u.snap("zebra crossing", ["lock it in", "left"]) is None


def test_normalise():
    assert normalise("  Hello, World!  ") == "hello world"
    assert normalise("It’s 3.5 - or 1,200.") == "it's 3.5 or 1,200"


def test_numbers_in_splits_two_numbers_joined_by_and(u):
    assert [v for _, _, v in u.numbers_in("split twelve and fifteen")] == [12, 15]
    assert [v for _, _, v in u.numbers_in("two thousand and eight")] == [2008]
