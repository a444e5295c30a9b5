"""Table-driven understanding tests for Spanish and Dutch (text2num's es/nl support and its traps)."""

import pytest

from voicegame.language.words import Understanding

ES = Understanding("es")
NL = Understanding("nl")


@pytest.mark.parametrize("u, text, value", [
    (ES, "tres coma cinco", 3.5),          # text2num gives "3,5", which float() rejects
    (ES, "doce punto cinco", 12.5),
    (ES, "veintiún", 21),                  # apocopated form text2num does not know
    (ES, "veintiún mil", 21000),
    (ES, "veintiuno", 21),
    (ES, "dos mil ocho", 2008),
    (ES, "mil novecientos ochenta y cuatro", 1984),  # years said in full
    (ES, "menos cinco", -5),
    (ES, "cero", 0),
    (ES, "uno", 1),
    (ES, "treinta y seis", 36),
    (ES, "un millón doscientos mil", 1200000),
    (ES, "tres y medio", 3.5),
    (ES, "3,5", 3.5),
    (ES, "1.200.000", 1200000),
    (ES, "unos veinte", 20),
    (ES, "un millón y medio", 1500000),
    (ES, "dos coma cinco millones", 2500000),
    (ES, "medio millón", 500000),
    (ES, "más o menos cien", 100),         # "menos" here is not a minus sign
    (ES, "cerca de cien", 100),
    (ES, "el dos mil ocho", 2008),
    (NL, "drie komma vijf", 3.5),
    (NL, "twaalf punt vijf", 12.5),
    (NL, "tweeëntwintig", 22),
    (NL, "tweeentwintig", 22),              # without the diaeresis
    (NL, "drieentwintig", 23),
    (NL, "tweeduizend acht", 2008),
    (NL, "negentienhonderd vierentachtig", 1984),
    (NL, "negentien vierentachtig", 1984),  # year pair
    (NL, "min vijf", -5),
    (NL, "nul", 0),
    (NL, "een", 1),
    (NL, "zesendertig", 36),
    (NL, "een miljoen", 1000000),
    (NL, "3,5", 3.5),
    (NL, "ongeveer twaalf", 12),
    (NL, "een miljoen en een half", 1500000),
    (NL, "twee komma vijf miljoen", 2500000),
    (NL, "anderhalf", 1.5),
    (NL, "anderhalf miljoen", 1500000),
    (NL, "tweeënhalf", 2.5),
    (NL, "een half miljoen", 500000),
    (NL, "een half", 0.5),
    (ES, "medio", 0.5),
    (NL, "plusminus honderd", 100),
])
def test_numbers(u, text, value):
    got = u.number(text)
    assert got == value and type(got) is type(value)


@pytest.mark.parametrize("u, text", [(ES, "izquierda"), (ES, "hola"), (NL, "links"), (NL, "fiets")])
def test_not_numbers(u, text):
    assert u.number(text) is None


@pytest.mark.parametrize("u, text, value", [
    (ES, "sí", True), (ES, "si", True), (ES, "claro", True), (ES, "vale", True), (ES, "no", False),
    (ES, "incorrecto", False), (NL, "ja", True), (NL, "jawel", True), (NL, "klopt", True),
    (NL, "nee", False), (NL, "neen", False), (NL, "fiets", None),
])
def test_yes_no(u, text, value):
    assert u.yes_no(text) is value


@pytest.mark.parametrize("u, text, value", [
    (ES, "izquierda", "left"), (ES, "más a la derecha", "right"), (NL, "links", "left"), (NL, "naar rechts", "right"),
])
def test_sides(u, text, value):
    assert u.side(text) == value


@pytest.mark.parametrize("u, text, value", [
    (ES, "rojo", "red"), (ES, "azul, siete", "blue"), (ES, "morado", "purple"), (ES, "rosa", "pink"),
    (NL, "rood", "red"), (NL, "blauw zeven", "blue"), (NL, "paars", "purple"), (NL, "roze", "pink"),
])
def test_colours(u, text, value):
    assert u.colour(text) == value


@pytest.mark.parametrize("u", [ES, NL, Understanding("en")])
def test_every_global_command_has_words(u):
    from voicegame.language.words import COMMANDS

    for command in COMMANDS:
        phrases = u.command_words[command]
        assert phrases and all(u.command(p) == command for p in phrases)


@pytest.mark.parametrize("u, text, value", [
    (ES, "puntuacion", "score"), (ES, "repitelo", "repeat"), (ES, "mas despacio", "slower"),
    (NL, "spel beeindigen", "quit"),
])
def test_commands_without_accents(u, text, value):
    assert u.command(text) == value


@pytest.mark.parametrize("u, text, value", [(ES, "si", True), (NL, "oke", True), (NL, "oké", True)])
def test_yes_without_accents(u, text, value):
    assert u.yes_no(text) is value
