"""The ROFL! guess judge's carrier phrases (R4): "I think it's …" is not part of a guess."""

from __future__ import annotations

import pytest

from voicegame.games.rofl.judge import guess_readings, judge_guess


@pytest.mark.parametrize("lang, guess, message", [
    ("en", "i think it's monty python and the holy grail", "Monty Python and the Holy Grail"),
    ("en", "is it jaws", "Jaws"),
    ("en", "maybe no pain no gain", "No pain, no gain"),
    ("en", "it's back to the future", "Back to the Future"),
    ("en", "um i think it's the cat in the hat", "The Cat in the Hat"),
    ("en", "i think it's a wonderful life", "It's a Wonderful Life"),
    ("en", "it's a wonderful life", "It's a Wonderful Life"),
    ("en", "jaws i think", "Jaws"),
    ("es", "creo que es el señor de los anillos", "El señor de los anillos"),
    ("es", "es cien años de soledad", "Cien años de soledad"),
    ("es", "quizás cien años de soledad", "Cien años de soledad"),
    ("nl", "ik denk de avonden", "De avonden"),
    ("nl", "is het de avonden", "De avonden"),
    ("nl", "misschien de avonden", "De avonden"),
])
def test_carrier_phrases_are_stripped_before_judging(lang, guess, message):
    assert judge_guess(guess, message, False, lang).correct


@pytest.mark.parametrize("lang, guess, message", [
    ("en", "i think it's monty python", "Monty Python and the Holy Grail"),
    ("en", "is it jaws two", "Jaws"),
    ("en", "a wonderful life", "It's a Wonderful Life"),
    ("es", "creo que es el señor", "El señor de los anillos"),
])
def test_a_carrier_does_not_make_a_wrong_guess_right(lang, guess, message):
    assert not judge_guess(guess, message, False, lang).correct


def test_readings_start_with_the_guess_as_said():
    readings = guess_readings("I think it's Jaws", "en")
    assert readings[0] == "i think it's jaws" and "jaws" in readings and "it's jaws" in readings
