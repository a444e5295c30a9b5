"""Table-driven tests of the understanding module in every language (en, es, nl), incl.
text2num 3.x traps (its es/nl support among them)."""

import pytest

from voicegame.language.words import Understanding, normalise


#: One understanding per language (each loads its words file once).
U = {lang: Understanding(lang) for lang in ("en", "es", "nl")}


@pytest.fixture(scope="module")
def u():
    return U["en"]


@pytest.mark.parametrize("lang, text, value", [
    ("en", "three point five", 3.5),
    ("en", "two thousand and eight", 2008),
    ("en", "two thousand eight", 2008),
    ("en", "nineteen eighty four", 1984),      # year pair: text2num alone rejects it
    ("en", "twenty twenty four", 2024),
    ("en", "nineteen oh five", 1905),
    ("en", "a hundred", 100),                  # text2num rejects "a hundred"
    ("en", "a thousand", 1000),
    ("en", "one hundred", 100),
    ("en", "minus five", -5),
    ("en", "negative five", -5),
    ("en", "-5", -5),
    ("en", "oh", 0),
    ("en", "zero", 0),
    ("en", "one", 1),                          # alpha2digit leaves small numbers as words
    ("en", "five", 5),
    ("en", "twelve", 12),
    ("en", "thirty and six", 36),
    ("en", "thirty six", 36),
    ("en", "two point oh five", 2.05),
    ("en", "zero point two five", 0.25),
    ("en", "point five", 0.5),
    ("en", "three and a half", 3.5),
    ("en", "one million two hundred thousand", 1200000),
    ("en", "one point two million", 1200000),
    ("en", "seven hundred and fifty", 750),
    ("en", "1984", 1984),
    ("en", "3.5", 3.5),
    ("en", "0.25", 0.25),
    ("en", "1,200,000", 1200000),
    ("en", "about twelve", 12),
    ("en", "my guess is 2008", 2008),
    ("en", "Twelve.", 12),
    ("en", "one and a half million", 1500000),
    ("en", "one million and a half", 1500000),
    ("en", "two point five million", 2500000),
    ("en", "half a million", 500000),
    ("en", "more or less a hundred", 100),     # "less" is not a minus sign
    ("en", "give or take fifty", 50),
    ("en", "the year two thousand", 2000),
    ("en", "1.5 million", 1500000),            # digits typed with a scale word
    ("en", "2 thousand", 2000),
    ("es", "tres coma cinco", 3.5),          # text2num gives "3,5", which float() rejects
    ("es", "doce punto cinco", 12.5),
    ("es", "veintiún", 21),                  # apocopated form text2num does not know
    ("es", "veintiún mil", 21000),
    ("es", "veintiuno", 21),
    ("es", "dos mil ocho", 2008),
    ("es", "mil novecientos ochenta y cuatro", 1984),  # years said in full
    ("es", "menos cinco", -5),
    ("es", "cero", 0),
    ("es", "uno", 1),
    ("es", "treinta y seis", 36),
    ("es", "un millón doscientos mil", 1200000),
    ("es", "tres y medio", 3.5),
    ("es", "3,5", 3.5),
    ("es", "1.200.000", 1200000),
    ("es", "unos veinte", 20),
    ("es", "un millón y medio", 1500000),
    ("es", "dos coma cinco millones", 2500000),
    ("es", "medio millón", 500000),
    ("es", "más o menos cien", 100),         # "menos" here is not a minus sign
    ("es", "cerca de cien", 100),
    ("es", "el dos mil ocho", 2008),
    ("nl", "drie komma vijf", 3.5),
    ("nl", "twaalf punt vijf", 12.5),
    ("nl", "tweeëntwintig", 22),
    ("nl", "tweeentwintig", 22),              # without the diaeresis
    ("nl", "drieentwintig", 23),
    ("nl", "tweeduizend acht", 2008),
    ("nl", "negentienhonderd vierentachtig", 1984),
    ("nl", "negentien vierentachtig", 1984),  # year pair
    ("nl", "min vijf", -5),
    ("nl", "nul", 0),
    ("nl", "een", 1),
    ("nl", "zesendertig", 36),
    ("nl", "een miljoen", 1000000),
    ("nl", "3,5", 3.5),
    ("nl", "ongeveer twaalf", 12),
    ("nl", "een miljoen en een half", 1500000),
    ("nl", "twee komma vijf miljoen", 2500000),
    ("nl", "anderhalf", 1.5),
    ("nl", "anderhalf miljoen", 1500000),
    ("nl", "tweeënhalf", 2.5),
    ("nl", "een half miljoen", 500000),
    ("nl", "een half", 0.5),
    ("es", "medio", 0.5),
    ("nl", "plusminus honderd", 100),
])
def test_numbers(lang, text, value):
    got = U[lang].number(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("lang, text", [
    ("en", "one two three"),
    ("en", "twelve red"),
    ("en", "left"),
    ("en", ""),
    ("en", "hello"),
    ("en", "point"),
    ("en", "minus"),
    ("en", "nineteen eighty four apples"),
    ("es", "izquierda"), ("es", "hola"), ("nl", "links"), ("nl", "fiets"),
])
def test_not_numbers(lang, text):
    assert U[lang].number(text) is None


def test_year_pairs_can_be_refused(u):
    assert u.number("nineteen eighty four", year=False) is None
    assert u.number("nineteen hundred", year=False) == 1900


def test_numbers_in_a_sentence(u):
    assert [v for _, _, v in u.numbers_in("red one on 2008 with three chips one on too high")] == [1, 2008, 3, 1]
    assert [v for _, _, v in u.numbers_in("five chips on twelve point five")] == [5, 12.5]


@pytest.mark.parametrize("lang, text, value", [
    ("en", "yes", True), ("en", "yeah", True), ("en", "yep", True), ("en", "correct", True), ("en", "that's right", True),
    ("en", "sure", True), ("en", "no", False), ("en", "nope", False), ("en", "nah", False), ("en", "wrong", False),
    ("en", "banana", None), ("en", "", None),
    ("es", "sí", True), ("es", "si", True), ("es", "claro", True), ("es", "vale", True), ("es", "no", False),
    ("es", "incorrecto", False), ("nl", "ja", True), ("nl", "jawel", True), ("nl", "klopt", True),
    ("nl", "nee", False), ("nl", "neen", False), ("nl", "fiets", None),
])
def test_yes_no(lang, text, value):
    assert U[lang].yes_no(text) is value


@pytest.mark.parametrize("lang, text, value", [
    ("en", "left", "left"), ("en", "right", "right"), ("en", "to the left", "left"), ("en", "more right", "right"),
    ("en", "a little left", "left"), ("en", "up", None),
    ("es", "izquierda", "left"), ("es", "más a la derecha", "right"), ("nl", "links", "left"), ("nl", "naar rechts", "right"),
])
def test_sides(lang, text, value):
    assert U[lang].side(text) == value


@pytest.mark.parametrize("lang, text, value", [
    ("en", "red", "red"), ("en", "blue seven", "blue"), ("en", "violet", "purple"), ("en", "Pink!", "pink"), ("en", "black", None),
    ("es", "rojo", "red"), ("es", "azul, siete", "blue"), ("es", "morado", "purple"), ("es", "rosa", "pink"),
    ("nl", "rood", "red"), ("nl", "blauw zeven", "blue"), ("nl", "paars", "purple"), ("nl", "roze", "pink"),
])
def test_colours(lang, text, value):
    assert U[lang].colour(text) == value


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


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_global_command_has_words(lang):
    u = U[lang]
    from voicegame.language.words import COMMANDS

    for command in COMMANDS:
        phrases = u.command_words[command]
        assert phrases and all(u.command(p) == command for p in phrases)


@pytest.mark.parametrize("lang, text, value", [
    ("es", "puntuacion", "score"), ("es", "repitelo", "repeat"), ("es", "mas despacio", "slower"),
    ("nl", "spel beeindigen", "quit"),
])
def test_commands_without_accents(lang, text, value):
    assert U[lang].command(text) == value


@pytest.mark.parametrize("lang, text, value", [("es", "si", True), ("nl", "oke", True), ("nl", "oké", True)])
def test_yes_without_accents(lang, text, value):
    assert U[lang].yes_no(text) is value


@pytest.mark.parametrize("lang, text, value", [
    # playtest: a confirmation that costs points ("lock it?", "disqualify?") took these for a yes
    ("en", "not sure", False), ("en", "i'm not sure", False), ("en", "yes and no", None), ("en", "okay no", None),
    ("en", "no wait yes", None),
    ("es", "vale no", None), ("es", "sí y no", None),
    ("nl", "ja nee", None), ("nl", "niet zeker", None),
    # a longer phrase of one side that holds a word of the other is that side alone
    ("nl", "klopt niet", False), ("nl", "dat klopt", True), ("en", "that's right", True), ("en", "not right", False),
    ("es", "no es eso", False), ("en", "no no no", False), ("en", "yes yes", True), ("en", "yes please", True),
])
def test_yes_no_with_both_or_a_doubt_is_not_a_yes(lang, text, value):
    assert U[lang].yes_no(text) is value
