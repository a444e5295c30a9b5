"""ROFL! phrases (voicegame.understanding.rofl): claims, passes, verdicts, disqualification."""

import pytest

from voicegame.engine.table import NotUnderstood
from voicegame.games.rofl.intents import ClaimIntent, Disqualify, TwoColours, Verdict, rofl_understanding

U = rofl_understanding("en")


def said(parse, *args):
    """What a parser understood, or ``None`` when it raised NotUnderstood."""
    try:
        return parse(*args)
    except NotUnderstood:
        return None


@pytest.mark.parametrize("text, default, expected", [
    ("blue, seven", None, ClaimIntent("blue", 7)),
    ("Blue 7", None, ClaimIntent("blue", 7)),
    ("blue takes space twelve", None, ClaimIntent("blue", 12)),
    ("green claims number 3", None, ClaimIntent("green", 3)),
    ("red, twenty", None, ClaimIntent("red", 20)),
    ("violet, five", None, ClaimIntent("purple", 5)),          # a colour's other word (words.toml)
    ("seven, yellow", None, ClaimIntent("yellow", 7)),         # colour last
    ("blue pass", None, ClaimIntent("blue", None)),
    ("blue passes", None, ClaimIntent("blue", None)),
    ("green, no token", None, ClaimIntent("green", None)),
    # numbers off the board or not whole are returned as said; the rules refuse them
    ("yellow, twenty five", None, ClaimIntent("yellow", 25)),
    ("blue zero", None, ClaimIntent("blue", 0)),
    ("blue 7.5", None, ClaimIntent("blue", 7.5)),
    # the writer the host just asked by name may leave out their colour
    ("ten", "yellow", ClaimIntent("yellow", 10)),
    ("pass", "red", ClaimIntent("red", None)),
    ("green, four", "red", ClaimIntent("green", 4)),           # another writer answers instead
    # not claims
    ("seven", None, None),
    ("pass", None, None),
    ("blue green three", None, None),                          # two colours
    ("blue seven eight", None, None),                          # not one number
    ("yellow, banana", None, None),
    ("blue", None, None),
    ("", None, None),
])
def test_claims(text, default, expected):
    assert said(U.claim, text, default) == expected


@pytest.mark.parametrize("text, expected", [
    ("blue says correct", Verdict("blue", True)),
    ("green, wrong", Verdict("green", False)),
    ("Yellow: that's right", Verdict("yellow", True)),
    ("red thinks it's wrong", Verdict("red", False)),
    ("blue incorrect", Verdict("blue", False)),
    ("correct", Verdict(None, True)),                          # no colour: the host asks for one
    ("agreed", Verdict(None, None)),
    ("we agree", Verdict(None, None)),
    ("yes", Verdict(None, None, yes=True)),                    # plain agreement keeps the judgement
    ("yes, agreed", Verdict(None, None, yes=True)),
    ("blue says yes", Verdict("blue", None, yes=True)),        # own messages: "blue, yes" is correct
    ("yes, that's correct", Verdict(None, True)),
    ("no", Verdict(None, False)),
    ("correct, wrong", None),                                  # both: not a verdict
    ("blue agrees", None),                                     # not a listed phrase
    ("maybe", None),
    ("blue green correct", None),
    ("the wizard of oz", None),
])
def test_verdicts(text, expected):
    assert said(U.verdict, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("disqualified", Disqualify(None)),
    ("Disqualified!", Disqualify(None)),
    ("that's disqualified", Disqualify(None)),
    ("blue is disqualified", Disqualify("blue")),
    ("disqualify green", Disqualify("green")),
    ("too many characters", Disqualify(None)),
    ("the message is too long", Disqualify(None)),
    ("no pain no gain", None),
    ("blue", None),
])
def test_disqualify(text, expected):
    assert said(U.disqualify, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("pass", True), ("I pass", True), ("no idea", True), ("passage to india", False), ("a pass", False),
])
def test_guess_pass(text, expected):
    assert U.guess_pass(text) is expected


def test_grammar_has_colours_spaces_and_game_words():
    words = U.all_words(["red", "blue", "green"])
    for w in ("red", "blue", "green", "one", "twelve", "twenty", "pass", "correct", "wrong", "agreed",
              "disqualified", "ready"):
        assert w in words
    assert "purple" not in words                                # only the players' colours
    assert all(w == w.lower() and " " not in w for w in words)
    assert U.space_words()[:3] == ["one", "two", "three"] and len(U.space_words()) == 20
    assert "blue" in U.claim_phrases(["blue"]) and "seven" in U.claim_phrases(["blue"])


def test_two_colours_are_ambiguous():
    with pytest.raises(TwoColours) as err:
        U.claim("blue green three")
    assert err.value.colours == ["blue", "green"]
    with pytest.raises(NotUnderstood):
        U.verdict("correct and wrong")
