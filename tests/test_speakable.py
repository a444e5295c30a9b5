"""Numbers written as digits become words of the game language before speaking."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from voicegame.language.speakable import speakable

CASES = [
    # English: "," groups thousands, "." is the decimal point
    ("en", "3.5", "three point five"),
    ("en", "1,200,000", "one million, two hundred thousand"),
    ("en", "-5 points", "minus five points"),
    ("en", "The dial moved 3-5 wedges", "The dial moved three-five wedges"),
    ("en", "in 1984", "in nineteen eighty-four"),
    ("en", "It opened 1969.", "It opened nineteen sixty-nine."),
    ("en", "in 2150", "in twenty-one fifty"),
    ("en", "1,500 chips", "one thousand, five hundred chips"),
    ("en", "in 150 seconds", "in one hundred and fifty seconds"),
    ("en", "the 2nd and 21st round", "the second and twenty-first round"),
    ("en", "90°", "ninety degrees"),
    ("en", "1°", "one degree"),
    ("en", "50%", "fifty percent"),
    ("en", "0.05", "zero point zero five"),
    ("en", "1.200.000", "one million, two hundred thousand"),
    ("en", "no numbers here.", "no numbers here."),
    ("en", "The answer is 1066.", "The answer is ten sixty-six."),  # a year from 1000 up
    ("en", "1,066 metres", "one thousand and sixty-six metres"),  # a quantity has its group mark
    ("en", "1 grams and 1 time zones", "one gram and one time zone"),  # singular after exactly 1
    ("en", "21 grams, 1.5 hours", "twenty-one grams, one point five hours"),
    # Spanish: "." groups thousands, "," is the decimal comma
    ("es", "3,5 fichas", "tres coma cinco fichas"),   # Spain reads the decimal comma as "coma"
    ("es", "Tienes 21 fichas", "Tienes veintiuna fichas"),  # feminine agreement
    ("es", "200 personas", "doscientas personas"),
    ("es", "231 preguntas y 1 ficha", "doscientas treinta y una preguntas y una ficha"),
    ("es", "21 metros", "veintiún metros"),
    ("es", "1 año", "un año"),
    ("es", "1 horas", "una hora"),
    ("es", "1 millones de personas", "un millón de personas"),
    ("es", "10,49 metros", "diez coma cuarenta y nueve metros"),  # the decimals as a number
    ("es", "3,05", "tres coma cero cinco"),
    ("es", "1,5 horas", "uno coma cinco horas"),
    ("es", "3,14159", "tres coma uno cuatro uno cinco nueve"),  # three digits or more: one by one
    ("es", "42,195", "cuarenta y dos coma uno nueve cinco"),
    ("es", "1°", "un grado"),
    ("es", "el 1 de mayo", "el uno de mayo"),
    ("es", "1.200.000", "un millón doscientos mil"),
    ("es", "-5", "menos cinco"),
    ("es", "en 1984", "en mil novecientos ochenta y cuatro"),
    ("es", "el 2º y la 3ª", "el segundo y la tercera"),
    ("es", "45°", "cuarenta y cinco grados"),
    ("es", "3.5", "tres coma cinco"),
    # Dutch
    ("nl", "3,5", "drie komma vijf"),
    ("nl", "10,49 meter", "tien komma negenenveertig meter"),
    ("nl", "3,05 kilo", "drie komma nul vijf kilo"),
    ("nl", "1 jaren", "één jaar"),
    ("nl", "1.200.000", "een miljoen tweehonderdduizend"),
    ("nl", "-5", "min vijf"),
    ("nl", "in 1984", "in negentien honderd vierentachtig"),
    ("nl", "de 8ste ronde", "de achtste ronde"),
    ("nl", "90°", "negentig graden"),
    ("nl", "12 fiches", "twaalf fiches"),
]


@pytest.mark.parametrize("lang,text,spoken", CASES)
def test_speakable(lang, text, spoken):
    assert speakable(text, lang) == spoken


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_odd_separators_and_huge_numbers_lose_their_digits(lang):
    for text in ["1.2.3", "1,2,3", "x" + "9" * 40, "10:30", "v2.0.1", "12,000.5"]:
        out = speakable(text, lang)
        assert not re.search(r"\d", out), (text, out)


@settings(derandomize=True, max_examples=150, deadline=None)
@given(
    lang=st.sampled_from(["en", "es", "nl"]),
    value=st.decimals(min_value=-10**9, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
    grouped=st.booleans(),
)
def test_no_digit_survives(lang, value, grouped):
    text = f"{value:,}" if grouped else str(value)
    out = speakable(f"The answer is {text} chips.", lang)
    assert not re.search(r"\d", out)
    assert out.startswith("The answer is ") and out.endswith(" chips.")
