"""Wits & Wagers understanding: bet phrases → bets on the mat, guesses, corrections (K2–K4, G4)."""

from __future__ import annotations

import pytest

from voicegame.games.wits.rules import CENTRE, TOO_HIGH, build_mat
from voicegame.language.words import normalise
from voicegame.games.wits.intents import (
    NO_GUESS,
    AmbiguousSlot,
    BadChips,
    BetRequest,
    NoGuesses,
    NoGuessOf,
    NoSuchOdds,
    SlotRef,
    UnknownGuess,
    resolve,
    wits_understanding,
)

PLAYERS = ("red", "blue", "green", "yellow")


@pytest.fixture(scope="module")
def wu():
    return wits_understanding("en")


# guesses 2004 (red), 2008 (blue), 2009 (green), 2012 (yellow): slots 2, 3, 5, 6 (K3)
MAT4 = build_mat({"red": 2004, "blue": 2008, "green": 2009, "yellow": 2012})
# guesses 12 (red), 15 (blue), 20 (green), yellow no guess: slots 3, 4, 5
MAT3 = build_mat({"red": 12, "blue": 15, "green": 20, "yellow": None})


def bets(wu, text, mat, side=None):
    """(player, replace, ((slot id, chips), …)) of the first reading that resolves."""
    readings = wu.parse_bet(text, PLAYERS)
    assert readings, f"no reading of {text!r}"
    return readings[0].player, readings[0].replace, resolve(readings[0], mat, side)


# --------------------------------------------------------------------------- the phrases


def test_both_on_a_guess(wu):
    assert bets(wu, "red, both on 2008", MAT4) == ("red", True, ((3, 0), (3, 0)))
    assert bets(wu, "red both on two thousand and eight", MAT4) == ("red", True, ((3, 0), (3, 0)))


def test_one_with_chips_and_one_on_too_high(wu):
    assert bets(wu, "red, one on 2008 with 3 chips, one on too high", MAT4) == \
        ("red", True, ((3, 3), (TOO_HIGH, 0)))


def test_split_two_guesses(wu):
    assert bets(wu, "blue, split: 12 and 15", MAT3) == ("blue", True, ((3, 0), (CENTRE, 0)))
    assert bets(wu, "blue split twelve and fifteen", MAT3) == ("blue", True, ((3, 0), (CENTRE, 0)))


def test_chips_on_odds_and_side(wu):
    assert bets(wu, "green, 5 chips on the 3 to 1 on the left", MAT4) == ("green", False, ((3, 5),))
    assert bets(wu, "green five chips on the three to one on the right", MAT4) == ("green", False, ((5, 5),))
    assert bets(wu, "one on the left 4 to 1", MAT4) == (None, False, ((2, 0),))


def test_no_bet(wu):
    assert bets(wu, "yellow, no bet", MAT4) == ("yellow", True, ())
    assert bets(wu, "pass", MAT4) == (None, True, ())


# --------------------------------------------------------------------------- slot names


@pytest.mark.parametrize("text, slot_id", [
    ("one on too high", TOO_HIGH),
    ("one on all guesses too high", TOO_HIGH),
    ("one on the six to one", TOO_HIGH),
    ("one on the smallest", 3),
    ("one on the lowest guess", 3),
    ("one on the largest", 5),
    ("one on blue's guess", CENTRE),
    ("one on green", 5),
    ("one on the middle", CENTRE),
    ("one on the 2 to 1", CENTRE),
    ("one on the 3 to 1 on the right", 5),
    ("one on 20", 5),
])
def test_slot_names(wu, text, slot_id):
    assert bets(wu, text, MAT3)[2] == ((slot_id, 0),)


def test_ambiguous_odds_are_asked_back(wu):
    request = wu.parse_bet("one on the 3 to 1", PLAYERS)[0]
    with pytest.raises(AmbiguousSlot) as info:
        resolve(request, MAT3)
    assert info.value.odds == 3 and info.value.slot_ids == (3, 5)
    assert resolve(request, MAT3, side="right") == ((5, 0),)
    assert resolve(request, MAT3, side="left") == ((3, 0),)


@pytest.mark.parametrize("text, error", [
    ("one on 2010", UnknownGuess),
    ("one on yellow's guess", NoGuessOf),
    ("one on the 7 to 1", NoSuchOdds),
    ("one on 12 with 2.5 chips", BadChips),
])
def test_slot_names_that_pick_no_slot(wu, text, error):
    with pytest.raises(error):
        resolve(wu.parse_bet(text, PLAYERS)[0], MAT3)


def test_smallest_on_an_empty_mat(wu):
    with pytest.raises(NoGuesses):
        resolve(wu.parse_bet("one on the smallest", PLAYERS)[0], build_mat({"red": None, "blue": None}))


def test_empty_slot_by_odds_resolves_and_the_rules_refuse_it(wu):
    # 4 guesses: the 2-to-1 centre is empty; the rules refuse the bet (EmptySlotBet, K4)
    assert bets(wu, "both on the middle", MAT4)[2] == ((CENTRE, 0), (CENTRE, 0))


# --------------------------------------------------------------------------- chips and tokens


def test_both_with_chips_is_the_total_and_each_is_per_token(wu):
    assert bets(wu, "both on 2008 with 5 chips", MAT4)[2] == ((3, 3), (3, 2))
    assert bets(wu, "both on 2008 with 5 chips each", MAT4)[2] == ((3, 5), (3, 5))
    assert bets(wu, "split 2004 with 2 chips and 2009 with 1 chip", MAT4)[2] == ((2, 2), (5, 1))
    assert bets(wu, "one on 2004 with no chips", MAT4)[2] == ((2, 0),)


def test_single_token_adds_unless_only(wu):
    assert wu.parse_bet("one on 12", PLAYERS)[0].replace is False
    assert wu.parse_bet("only one on 12", PLAYERS)[0].replace is True
    three = wu.parse_bet("one on 12 one on 15 one on too high", PLAYERS)[0]
    assert len(three.tokens) == 3 and three.replace is True  # the rules refuse a third bet (K4)


def test_year_with_and_inside_a_split(wu):
    readings = wu.parse_bet("split two thousand and eight and two thousand and four", PLAYERS)
    slots = {r.tokens[0].slot.value for r in readings} | {r.tokens[1].slot.value for r in readings}
    assert 2008 in slots and 2004 in slots
    assert resolve(readings[0], MAT4) == ((3, 0), (2, 0))


@pytest.mark.parametrize("text", ["banana", "red", "both", "one on", "split 12", "red, blue", ""])
def test_not_a_bet(wu, text):
    assert wu.parse_bet(text, PLAYERS) == []


def test_custom_player_names(wu):
    reading = wu.parse_bet("ana, both on bob's guess", ("ana", "bob"))[0]
    assert reading == BetRequest("ana", (wu.parse_bet("on bob", ("ana", "bob"))[0].tokens[0],) * 2, True)
    assert reading.tokens[0].slot == SlotRef("player", "bob")


# --------------------------------------------------------------------------- guesses and corrections


@pytest.mark.parametrize("text, value", [
    ("2008", 2008), ("nineteen sixty nine", 1969), ("three point five", 3.5), ("42.195", 42.195),
    ("about a hundred", 100), ("no guess", NO_GUESS), ("pass", NO_GUESS), ("banana", None), ("red", None),
])
def test_guess(wu, text, value):
    assert wu.guess(text) == value


@pytest.mark.parametrize("text, fix", [
    ("red 2009", ("red", 2009)),
    ("red's guess is 2009", ("red", 2009)),
    ("blue should be twelve", ("blue", 12)),
    ("green, no guess", ("green", NO_GUESS)),
    ("purple 12", None),
    ("red", None),
    ("2009", None),
])
def test_guess_fix(wu, text, fix):
    assert wu.guess_fix(text, PLAYERS) == fix


def test_player_named_side_done_and_change(wu):
    assert wu.player_named("the youngest is green", ("red", "green")) == "green"
    assert wu.player_named("red and green", ("red", "green")) is None
    assert wu.player_named("violet", ("red", "purple")) == "purple"
    assert wu.side("on the left") == "left"
    assert wu.is_done("no") and wu.is_done("no changes") and not wu.is_done("red, no bet")
    assert wu.wants_change("yes") and not wu.wants_change("no")


def test_units(wu):
    assert wu.unit_is_silent("year", "In what year did Apollo 11 land on the Moon?") and wu.unit_is_silent("")
    assert not wu.unit_is_silent("metres") and wu.unit_is_silent("atomic number")
    assert wu.unit_goes_before("Mach") and not wu.unit_goes_before("km")


@pytest.mark.parametrize("question, silent", [
    ("In what year did Apollo 11 land on the Moon?", True), ("Which year saw the fall of the Berlin Wall?", True),
    ("When did the Titanic sink?", True),
    # a duration in a custom bank row with the unit "year": the unit is said ("63 year")
    ("How many years did Queen Victoria reign?", False), ("How long did the Hundred Years' War last?", False),
])
def test_the_year_unit_is_silent_only_in_calendar_year_questions(wu, question, silent):
    assert wu.is_year_question(question) is silent
    assert wu.unit_is_silent("year", question) is silent
    assert not wu.unit_is_silent("years", question)  # a plural is always a duration


# --------------------------------------------------------------------------- questions asked in a scale


@pytest.mark.parametrize("question, unit, scale", [
    ("How many million square kilometres does Russia cover?", "million square kilometres", 10**6),
    ("How big is the Sahara Desert, in millions of square kilometres?", "million square kilometres", 10**6),
    ("How old is the Sun, in billions of years?", "billion years", 10**9),
    ("How many trillion cells make up the human body?", "trillion cells", 10**12),
    ("How many million people live in Tokyo?", "people", 10**6),          # the text alone says it
    ("How long is the equator, in thousands of kilometres?", "kilometres", 1000),
    ("How many zeros are in one trillion?", "zeros", 1),                   # a number, not a scale
    ("How many people lived in a million-strong city?", "people", 1),
    ("How many keys does a piano have?", "keys", 1),
])
def test_question_scale(wu, question, unit, scale):
    assert wu.question_scale(question, unit) == scale


@pytest.mark.parametrize("text, scale, value", [
    # a guess said WITH the question's scale is read in the question's unit
    ("seventeen million", 10**6, 17), ("17 million", 10**6, 17), ("seventeen point one million", 10**6, 17.1),
    ("seventeen million square kilometres", 10**6, 17), ("half a million", 10**6, 0.5),
    ("seventeen million one hundred thousand", 10**6, 17.1), ("four point six billion", 10**9, 4.6),
    ("thirty seven trillion cells", 10**12, 37), ("thirty seven point two trillion", 10**12, 37.2),
    ("one thousand million", 10**9, 1), ("forty thousand", 1000, 40),
    # without it, the number as said (the question's unit)
    ("seventeen", 10**6, 17), ("17.1", 10**6, 17.1), ("no guess", 10**6, NO_GUESS),
    # a question with no scale: a scale word means what it says
    ("seventeen million", 1, 17_000_000),
])
def test_a_guess_said_with_the_question_scale(wu, text, scale, value):
    unit = {1: "", 1000: "kilometres", 10**6: "million square kilometres", 10**9: "billion years",
            10**12: "trillion cells"}[scale]
    assert wu.guess(text, unit, scale) == value


def test_a_correction_said_with_the_question_scale(wu):
    assert wu.guess_fix("no, red seventeen million", PLAYERS, "million square kilometres", 10**6) == ("red", 17)
    assert wu.guess_fix("red seventeen million", PLAYERS) == ("red", 17_000_000)


@pytest.mark.parametrize("text, tokens", [
    # the chip count of the second token said without "chips", after a first token that said it
    ("one on red's guess with two chips and one on too high with one", [("player", 2), ("too_high", 1)]),
    ("red, one on 12 with 3 chips and one on 15 with 2", [("guess", 3), ("guess", 2)]),
    ("split 12 with 2 chips and 15 with 1", [("guess", 2), ("guess", 1)]),
])
def test_a_second_chip_count_without_the_word_chips(wu, text, tokens):
    reading = wu.parse_bet(text, PLAYERS)[0]
    assert [(t.slot.kind, t.chips) for t in reading.tokens] == tokens


def test_a_lone_count_without_the_word_chips_is_no_bet(wu):
    # "with 3" alone says nothing about chips: no token before it said "chips"
    assert wu.parse_bet("one on 12 with 3", PLAYERS) == []


def test_every_word_of_the_bet_phrases_is_in_the_grammar(wu):
    vocabulary = {w for phrase in wu.vocabulary(PLAYERS) for w in phrase.split()}
    spoken = [
        "red both on two thousand and eight",
        "red one on two thousand and eight with three chips one on too high",
        "blue split twelve and fifteen",
        "green five chips on the three to one on the left",
        "yellow no bet",
        "one on the smallest", "one on blue's guess", "red no guess", "no changes", "left", "right",
        # the host's own slot names, the mat, backing out, corrections opened by "no", same age
        "both on the two to one in the middle", "read the mat", "never mind", "no blue forty",
        # playtest 2: the question again, a second chip count without "chips", a scale the core lacks
        "repeat the question", "what was the question", "one on red's guess with two chips and one on too high with one",
        "thirty seven point two trillion",
        "that's right", "same age",
    ]
    for phrase in spoken:
        words = wu.words(phrase, PLAYERS)
        missing = [w for w in words if w not in vocabulary and w != "'s"]
        assert not missing, (phrase, missing)
        assert normalise(phrase)


@pytest.mark.parametrize("lang, said, value", [
    ("en", "one sixty", 160), ("en", "two fifty", 250), ("en", "one oh five", 105),
    ("en", "six hundred k", 600_000), ("en", "a thousand two hundred", 1200), ("en", "two grand", 2000),
    ("en", "nineteen sixty nine", 1969),  # a year pair stays a year pair
    ("es", "ciento sesenta", 160), ("es", "seiscientos mil", 600_000), ("es", "mil doscientos", 1200),
    ("es", "600 k", 600_000),
    ("nl", "honderdzestig", 160), ("nl", "zeshonderdduizend", 600_000), ("nl", "duizend tweehonderd", 1200),
    ("nl", "zeshonderd k", 600_000),
])
def test_guesses_said_as_people_say_them(lang, said, value):
    wu = wits_understanding(lang)
    assert wu.guess_said(said, "", 1) == (value, ())
    assert wu.fix_said(f"{wu.u.colour_name('red')} {said}", PLAYERS, "", 1)[:2] == ("red", value)


def test_a_digit_and_a_connector_is_no_hundreds_pair(wu):
    assert wu.u.number("one and sixty") is None
    assert wits_understanding("es").u.number("uno sesenta") is None  # only English says hundreds in pairs
