"""Table-driven tests of the Wavelength understanding: dial moves (W7), calls (W5), turn words (W8)."""

from __future__ import annotations

import pytest

from voicegame.engine.table import NotUnderstood

from voicegame.games.wavelength.deck import load_deck
from voicegame.games.wavelength.intents import (
    LOCK, MOVE, SET, WHERE, Call, DialCommand, DialOutOfRange, NotAClue, concept_key,
    wavelength_understanding,
)

#: One understanding per language (each loads its words file once).
W = {lang: wavelength_understanding(lang) for lang in ("en", "es", "nl")}
LEFT, RIGHT = "Breakfast food", "Cutting-edge"
ES_LEFT, ES_RIGHT = "Comida de desayuno", "Pasado de sal"
NL_LEFT, NL_RIGHT = "Rauw", "Aangebrand"
#: The card each language's phrases are said about: (left concept, right concept).
CARD = {"en": (LEFT, RIGHT), "es": (ES_LEFT, ES_RIGHT), "nl": (NL_LEFT, NL_RIGHT)}


@pytest.mark.parametrize("lang, said, expected", [
    # plain, small, tiny and big steps (15°, 5°, 1°, 45°)
    ("en", "left", DialCommand(MOVE, -15)),
    ("en", "right", DialCommand(MOVE, 15)),
    ("en", "more left", DialCommand(MOVE, -15)),
    ("en", "to the right", DialCommand(MOVE, 15)),
    ("en", "a little left", DialCommand(MOVE, -5)),
    ("en", "a little bit more to the right", DialCommand(MOVE, 5)),
    ("en", "slightly right", DialCommand(MOVE, 5)),
    ("en", "a tiny bit left", DialCommand(MOVE, -1)),
    ("en", "just a touch right", DialCommand(MOVE, 1)),
    ("en", "way right", DialCommand(MOVE, 45)),
    ("en", "a lot more left", DialCommand(MOVE, -45)),
    # the card's concepts: 0° is the left concept (W1)
    ("en", "more breakfast food", DialCommand(MOVE, -15)),
    ("en", "toward cutting edge", DialCommand(MOVE, 15)),
    ("en", "towards Cutting-edge", DialCommand(MOVE, 15)),
    ("en", "a little more breakfast food", DialCommand(MOVE, -5)),
    ("en", "way more cutting edge", DialCommand(MOVE, 45)),
    ("en", "a tiny bit toward breakfast food", DialCommand(MOVE, -1)),
    ("en", "less breakfast food", DialCommand(MOVE, 15)),
    ("en", "more brekfast food", DialCommand(MOVE, -15)),  # a near miss after "more" is snapped
    # absolute positions
    ("en", "centre", DialCommand(SET, 90)),
    ("en", "center", DialCommand(SET, 90)),
    ("en", "move it back to the middle", DialCommand(SET, 90)),
    ("en", "all the way left", DialCommand(SET, 0)),
    ("en", "all the way to cutting edge", DialCommand(SET, 180)),
    ("en", "all the way breakfast food", DialCommand(SET, 0)),
    # numbers: discouraged by the rulebook, not forbidden (W7)
    ("en", "ten degrees left", DialCommand(MOVE, -10)),
    ("en", "right 3", DialCommand(MOVE, 3)),
    ("en", "three point five degrees right", DialCommand(MOVE, 3.5)),
    ("en", "forty five degrees", DialCommand(SET, 45)),
    ("en", "a hundred and eighty degrees", DialCommand(SET, 180)),  # the end itself is on the dial
    ("en", "zero degrees", DialCommand(SET, 0)),
    # asking and ending
    ("en", "where is it", DialCommand(WHERE)),
    ("en", "where's the dial", DialCommand(WHERE)),
    ("en", "lock it in", DialCommand(LOCK)),
    ("en", "lock it in please", DialCommand(LOCK)),
    ("en", "okay lock it in", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("en", "lock it", DialCommand(LOCK)),
    ("en", "that's it", DialCommand(LOCK)),
    ("en", "That's it!", DialCommand(LOCK)),
    ("en", "we're done", DialCommand(LOCK)),
    ("en", "done", DialCommand(LOCK)),
    ("en", "okay, done", DialCommand(LOCK)),
    # a move past the end is a move: the host stops it at the edge and says so
    ("en", "left 500", DialCommand(MOVE, -500)),
    # Spanish (the card: Comida de desayuno / Pasado de sal)
    # plain 15°, a little 5°, a tiny bit 1°, a lot 45°
    ("es", "izquierda", DialCommand(MOVE, -15)),
    ("es", "a la derecha", DialCommand(MOVE, 15)),
    ("es", "más a la izquierda", DialCommand(MOVE, -15)),
    ("es", "hacia la derecha", DialCommand(MOVE, 15)),
    ("es", "un poco a la izquierda", DialCommand(MOVE, -5)),
    ("es", "un poquito a la izquierda", DialCommand(MOVE, -5)),
    ("es", "otro poquito a la derecha", DialCommand(MOVE, 5)),
    ("es", "ligeramente a la derecha", DialCommand(MOVE, 5)),
    ("es", "un pelín a la izquierda", DialCommand(MOVE, -1)),
    ("es", "una pizca a la derecha", DialCommand(MOVE, 1)),
    ("es", "mucho a la izquierda", DialCommand(MOVE, -45)),
    ("es", "mucho más a la derecha", DialCommand(MOVE, 45)),
    ("es", "gíralo un montón a la derecha", DialCommand(MOVE, 45)),
    # the card's concepts, "más <concepto>", "menos <concepto>", "hacia <concepto>"
    ("es", "más comida de desayuno", DialCommand(MOVE, -15)),
    ("es", "más pasado de sal", DialCommand(MOVE, 15)),
    ("es", "menos pasado de sal", DialCommand(MOVE, -15)),
    ("es", "hacia comida de desayuno", DialCommand(MOVE, -15)),
    ("es", "un poquito más pasado de sal", DialCommand(MOVE, 5)),
    ("es", "mucho más comida de desayuno", DialCommand(MOVE, -45)),
    ("es", "más pasao de sal", DialCommand(MOVE, 15)),  # a near miss after "más" is snapped
    ("es", "mas pasado de sal", DialCommand(MOVE, 15)),  # typed without the accent
    # absolute positions
    ("es", "del todo a la derecha", DialCommand(SET, 180)),
    ("es", "todo a la izquierda", DialCommand(SET, 0)),
    ("es", "a tope a la derecha", DialCommand(SET, 180)),
    ("es", "del todo hacia comida de desayuno", DialCommand(SET, 0)),
    ("es", "centro", DialCommand(SET, 90)),
    ("es", "al centro", DialCommand(SET, 90)),
    ("es", "pon el dial en el centro", DialCommand(SET, 90)),
    ("es", "vuelve al medio", DialCommand(SET, 90)),
    # numbers (W7: discouraged, not forbidden), accents or not
    ("es", "diez grados a la izquierda", DialCommand(MOVE, -10)),
    ("es", "un grado a la derecha", DialCommand(MOVE, 1)),
    ("es", "veintidós grados a la derecha", DialCommand(MOVE, 22)),
    ("es", "veintidos grados a la derecha", DialCommand(MOVE, 22)),
    ("es", "tres coma cinco grados a la izquierda", DialCommand(MOVE, -3.5)),
    ("es", "cuarenta y cinco grados", DialCommand(SET, 45)),
    ("es", "ciento veinte grados", DialCommand(SET, 120)),
    # asking and ending
    ("es", "¿dónde está?", DialCommand(WHERE)),
    ("es", "donde esta", DialCommand(WHERE)),
    ("es", "dónde está el dial", DialCommand(WHERE)),
    ("es", "fíjalo", DialCommand(LOCK)),
    ("es", "fijalo", DialCommand(LOCK)),
    ("es", "vale, fíjalo", DialCommand(LOCK)),
    ("es", "fíjalo, por favor", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("es", "vale", DialCommand(LOCK)),
    ("es", "listo", DialCommand(LOCK)),
    ("es", "déjalo ahí", DialCommand(LOCK)),
    ("es", "dejalo ahi", DialCommand(LOCK)),
    ("es", "ahí está bien", DialCommand(LOCK)),
    ("es", "vale, un poco a la izquierda", DialCommand(MOVE, -5)),  # "vale" before a move is only a filler
    # the diminutives of the 1° words are 1° too
    ("es", "un pelito a la izquierda", DialCommand(MOVE, -1)),
    ("es", "una chispa a la derecha", DialCommand(MOVE, 1)),
    # Dutch (the card: Rauw / Aangebrand)
    ("nl", "links", DialCommand(MOVE, -15)),
    ("nl", "naar rechts", DialCommand(MOVE, 15)),
    ("nl", "meer naar links", DialCommand(MOVE, -15)),
    ("nl", "een beetje naar rechts", DialCommand(MOVE, 5)),
    ("nl", "een klein beetje naar links", DialCommand(MOVE, -5)),
    ("nl", "iets naar rechts", DialCommand(MOVE, 5)),
    ("nl", "naar links een beetje", DialCommand(MOVE, -5)),  # free word order
    ("nl", "zet de wijzer een beetje naar links", DialCommand(MOVE, -5)),
    ("nl", "een tikje naar links", DialCommand(MOVE, -1)),
    ("nl", "een heel klein beetje naar rechts", DialCommand(MOVE, 1)),
    ("nl", "een stuk naar rechts", DialCommand(MOVE, 45)),
    ("nl", "veel meer naar links", DialCommand(MOVE, -45)),
    ("nl", "meer rauw", DialCommand(MOVE, -15)),
    ("nl", "minder rauw", DialCommand(MOVE, 15)),
    ("nl", "richting aangebrand", DialCommand(MOVE, 15)),
    ("nl", "iets meer aangebrand", DialCommand(MOVE, 5)),
    ("nl", "een stuk meer rauw", DialCommand(MOVE, -45)),
    ("nl", "meer aangebrandt", DialCommand(MOVE, 15)),  # a near miss after "meer" is snapped
    ("nl", "helemaal naar rechts", DialCommand(SET, 180)),
    ("nl", "helemaal naar rauw", DialCommand(SET, 0)),
    ("nl", "midden", DialCommand(SET, 90)),
    ("nl", "naar het midden", DialCommand(SET, 90)),
    ("nl", "zet hem in het midden", DialCommand(SET, 90)),
    ("nl", "tien graden naar links", DialCommand(MOVE, -10)),
    ("nl", "een graad naar rechts", DialCommand(MOVE, 1)),
    ("nl", "tweeëntwintig graden naar rechts", DialCommand(MOVE, 22)),
    ("nl", "tweeentwintig graden naar rechts", DialCommand(MOVE, 22)),  # without the diaeresis
    ("nl", "drie komma vijf graden naar links", DialCommand(MOVE, -3.5)),
    ("nl", "vijfenveertig graden", DialCommand(SET, 45)),
    ("nl", "honderdtwintig graden", DialCommand(SET, 120)),
    ("nl", "waar staat hij?", DialCommand(WHERE)),
    ("nl", "waar staat de wijzer", DialCommand(WHERE)),
    ("nl", "vastzetten", DialCommand(LOCK)),
    ("nl", "oké, vastzetten", DialCommand(LOCK)),
    ("nl", "oke vastzetten", DialCommand(LOCK)),
    ("nl", "zet hem vast", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("nl", "klaar", DialCommand(LOCK)),
    ("nl", "prima", DialCommand(LOCK)),
    ("nl", "zo is het goed", DialCommand(LOCK)),
    ("nl", "oké, zo is het goed", DialCommand(LOCK)),
    # "een tikkeltje" is as small as "een tikje" (1°)
    ("nl", "een tikkeltje naar links", DialCommand(MOVE, -1)),
    ("nl", "een tikkeltje meer aangebrand", DialCommand(MOVE, 1)),
])
def test_dial_commands(lang, said, expected):
    assert W[lang].dial_command(said, *CARD[lang]) == expected


@pytest.mark.parametrize("lang, said, degrees, move", [
    # a position off the dial is not applied: the host asks again (W7), it is not clamped
    ("en", "two hundred degrees", 200, False),
    ("en", "set it to two hundred", 200, False),
    ("en", "put it at 181", 181, False),
    ("en", "minus ten degrees", -10, False),
    ("es", "ponlo en doscientos", 200, False),
    ("es", "doscientos grados", 200, False),
    ("es", "menos diez grados", -10, False),
    ("nl", "zet hem op tweehonderd", 200, False),
    ("nl", "tweehonderd graden", 200, False),
    ("nl", "min tien graden", -10, False),
    # a move by a negative number is neither way: refused too, never turned into a move
    ("en", "right minus 20", -20, True),
    ("en", "left minus twenty degrees", -20, True),
    ("es", "derecha menos veinte", -20, True),
    ("es", "menos veinte grados a la izquierda", -20, True),
    ("nl", "rechts min twintig", -20, True),
])
def test_numbers_off_the_dial_raise_a_typed_error(lang, said, degrees, move):
    with pytest.raises(DialOutOfRange) as caught:
        W[lang].dial_command(said, *CARD[lang])
    assert (caught.value.degrees, caught.value.move) == (degrees, move)


@pytest.mark.parametrize("lang, said", [
    ("en", "banana"), ("en", ""), ("en", "left right"), ("en", "more breakfast food toward cutting edge"),
    ("en", "a little way left"), ("en", "all the way left ten degrees"), ("en", "hello there left"),
    ("en", "less left"), ("en", "ten degrees twenty"),
    ("es", "plátano"), ("es", ""), ("es", "izquierda derecha"), ("es", "un poco mucho a la izquierda"),
    ("es", "más comida de desayuno hacia pasado de sal"), ("es", "del todo a la izquierda diez grados"),
    ("es", "menos izquierda"), ("es", "hola izquierda"), ("es", "diez grados veinte"),
    ("nl", "banaan"), ("nl", ""), ("nl", "links rechts"), ("nl", "een beetje een stuk naar links"),
    ("nl", "meer rauw richting aangebrand"), ("nl", "helemaal naar links tien graden"),
    ("nl", "minder links"), ("nl", "hallo links"), ("nl", "tien graden twintig"),
])
def test_dial_nonsense_is_not_understood(lang, said):
    with pytest.raises(NotUnderstood):
        W[lang].dial_command(said, *CARD[lang])


@pytest.mark.parametrize("lang, moves", [
    ("en", ("a tiny bit left", "a little left", "left", "way left")),
    ("es", ("un pelín a la izquierda", "un poco a la izquierda", "izquierda", "mucho a la izquierda")),
    ("nl", ("een tikje naar links", "een beetje naar links", "links", "een stuk naar links")),
])
def test_step_sizes_are_as_documented(lang, moves):
    """The documented steps taught in the instructions: tiny 1°, a little 5°, plain 15°, way 45°
    (W7, fine control to 1°)."""
    sizes = [W[lang].dial_command(m, *CARD[lang]) for m in moves]
    assert sizes == [DialCommand(MOVE, -d) for d in (1, 5, 15, 45)]


TEAMS = ["Red", "Blue"]
COLOUR_TEAMS = ["red", "blue"]  # the default teams of es and nl: colour keys (G3)


@pytest.mark.parametrize("lang, said, left, right, teams, expected", [
    ("en", "left", LEFT, RIGHT, TEAMS, Call("left", None)),
    ("en", "blue left", LEFT, RIGHT, TEAMS, Call("left", 1)),
    ("en", "blue says right", LEFT, RIGHT, TEAMS, Call("right", 1)),
    ("en", "team blue right", LEFT, RIGHT, TEAMS, Call("right", 1)),
    ("en", "blue team, more breakfast food", LEFT, RIGHT, TEAMS, Call("left", 1)),
    ("en", "red says left", LEFT, RIGHT, TEAMS, Call("left", 0)),
    ("en", "we think it's more cutting edge", LEFT, RIGHT, TEAMS, Call("right", None)),
    ("en", "pass", LEFT, RIGHT, TEAMS, Call(None, None)),
    ("en", "blue pass", LEFT, RIGHT, TEAMS, Call(None, 1)),
    # a concept holding a team's name is the concept, not the team
    ("en", "red carpet", "Red carpet", "Doormat", TEAMS, Call("left", None)),
    ("en", "blue, more red carpet", "Red carpet", "Doormat", TEAMS, Call("left", 1)),
    # team names holding side words (the rulebook's Left Brain and Right Brain)
    ("en", "left brain, left", LEFT, RIGHT, ["Left Brain", "Right Brain"], Call("left", 0)),
    ("en", "right brain more cutting edge", LEFT, RIGHT, ["Left Brain", "Right Brain"], Call("right", 1)),
    ("es", "izquierda", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", None)),
    ("es", "azul, izquierda", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("es", "azul dice derecha", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("right", 1)),
    ("es", "equipo azul, a la derecha", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("right", 1)),
    ("es", "los azules dicen izquierda", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("es", "azul, más pasado de sal", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("right", 1)),
    ("es", "el equipo azul dice que más comida de desayuno", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("es", "creemos que está a la izquierda", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", None)),
    ("es", "rojo dice izquierda", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("left", 0)),
    ("es", "roja, derecha", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call("right", 0)),
    ("es", "paso", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call(None, None)),
    ("es", "azul pasa", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call(None, 1)),
    ("es", "nosotros pasamos", ES_LEFT, ES_RIGHT, COLOUR_TEAMS, Call(None, None)),
    ("nl", "links", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", None)),
    ("nl", "blauw, links", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("nl", "blauw zegt rechts", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("right", 1)),
    ("nl", "team blauw links", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("nl", "blauw, meer rauw", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", 1)),
    ("nl", "wij denken dat het links ligt", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", None)),
    ("nl", "ik denk meer aangebrand", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("right", None)),
    ("nl", "rood zegt links", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call("left", 0)),
    ("nl", "pas", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call(None, None)),
    ("nl", "blauw zegt pas", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call(None, 1)),
    ("nl", "we passen", NL_LEFT, NL_RIGHT, COLOUR_TEAMS, Call(None, None)),
])
def test_calls(lang, said, left, right, teams, expected):
    assert W[lang].call(said, left, right, teams) == expected


@pytest.mark.parametrize("lang, said", [
    ("en", "blue"), ("en", "hello"), ("en", "blue red left"), ("en", "left right"), ("en", ""), ("en", "lock it in"),
    ("es", "azul"), ("es", "hola"), ("es", "azul rojo izquierda"), ("es", "izquierda derecha"), ("es", "fíjalo"),
    ("nl", "blauw"), ("nl", "hallo"), ("nl", "blauw rood links"), ("nl", "links rechts"), ("nl", "vastzetten"),
])
def test_call_nonsense_is_not_understood(lang, said):
    with pytest.raises(NotUnderstood):
        W[lang].call(said, *CARD[lang], TEAMS if lang == "en" else COLOUR_TEAMS)


@pytest.mark.parametrize("lang, said, other_side, redo", [
    ("en", "other side", True, False), ("en", "flip the card", True, False), ("en", "redo", False, True),
    ("en", "new card", False, True), ("en", "toast", False, False), ("en", "the other side of the moon", False, False),
    ("es", "otro lado", True, False), ("es", "dale la vuelta", True, False), ("es", "la otra cara", True, False),
    ("es", "rehacer", False, True), ("es", "otra carta", False, True), ("es", "el otro lado de la luna", False, False),
    ("nl", "andere kant", True, False), ("nl", "draai de kaart om", True, False), ("nl", "overdoen", False, True),
    ("nl", "nieuwe kaart", False, True), ("nl", "de andere kant van de maan", False, False),
])
def test_turn_words(lang, said, other_side, redo):
    assert W[lang].is_other_side(said) is other_side
    assert W[lang].is_redo(said) is redo


#: Utterances made only of hesitation and one-word yes/no words: table talk at the clue moment (W7).
CLUE_TALK = {
    "en": ["hmm", "Hmm...", "yes", "no", "okay", "OK.", "yeah", "one second", "wait", "um, let me think",
           "uh", "er", "hold on", "yeah yeah", "no no no", "okay wait one sec", "sure", "nope", "hang on"],
    "es": ["mmm", "sí", "si", "no", "vale", "un momento", "espera", "eh, déjame pensar", "vale vale",
           "a ver", "venga", "ok, un segundo"],
    "nl": ["hmm", "ja", "nee", "oké", "oke", "momentje", "wacht even", "euh, even denken", "ja ja",
           "ok", "nou", "eens kijken"],
}
#: Clues that contain such words, or one-word yes/no words that are real clues too: still the clue.
CLUES_WITH_TALK_WORDS = {
    "en": ["okay boomer", "no way", "wait staff", "wait who is the psychic", "a second hand shop",
           "yes man", "hmm a dog", "negative", "absolutely", "correct"],
    "es": ["vale la pena", "no hay manera", "espera sentado", "sí señor", "un segundo plato", "mal", "claro",
           "negativo"],
    "nl": ["oké boomer", "nee hoor nooit", "wacht maar af", "ja knikker", "goed", "fout"],
}


@pytest.mark.parametrize("lang, said", [(lang, said) for lang, talk in CLUE_TALK.items() for said in talk])
def test_a_clue_made_only_of_hesitation_or_yes_no_words_is_table_talk(lang, said):
    with pytest.raises(NotAClue) as err:
        W[lang].clue(said)
    assert isinstance(err.value, NotUnderstood) and err.value.text == said.strip()


@pytest.mark.parametrize("lang, said", [(lang, said) for lang, clues in CLUES_WITH_TALK_WORDS.items()
                                        for said in clues])
def test_a_clue_that_contains_such_words_is_taken_as_said(lang, said):
    assert W[lang].clue(f"  {said} ") == said


@pytest.mark.parametrize("lang, said, clue", [
    ("en", "my clue is okay", "okay"), ("en", "My clue is: hot sauce", "hot sauce"), ("en", "the clue is yeah", "yeah"),
    ("es", "mi pista es vale", "vale"), ("es", "la pista es sí", "sí"), ("nl", "mijn hint is oké", "oké"),
    ("nl", "de hint is wacht even", "wacht even"),
])
def test_after_my_clue_is_even_a_talk_word_is_the_clue(lang, said, clue):
    """A Psychic whose clue is "okay" says "my clue is okay" (W7): what follows the intro is the clue."""
    assert W[lang].clue(said) == clue


@pytest.mark.parametrize("lang, said", [("en", "my clue is"), ("es", "mi pista es"), ("nl", "mijn hint is")])
def test_the_intro_alone_is_not_the_clue(lang, said):
    with pytest.raises(NotAClue):
        W[lang].clue(said)


@pytest.mark.parametrize("said", ["", "   "])
def test_an_empty_clue_is_not_understood(said):
    with pytest.raises(NotUnderstood) as err:
        W["en"].clue(said)
    assert not isinstance(err.value, NotAClue)


def test_concept_key_reads_hyphens_as_spaces():
    assert concept_key("Cutting-Edge!") == "cutting edge"
    assert concept_key("Kid's menu") == "kid's menu"


def test_grammars_hold_the_card_concepts_and_plain_sides():
    dial = W["en"].dial_phrases(LEFT, RIGHT)
    assert {"left", "right", "more breakfast food", "toward cutting edge", "lock it in", "where is it"} <= set(dial)
    call = W["en"].call_phrases(LEFT, RIGHT, TEAMS)
    assert {"left", "right", "blue left", "more cutting edge", "pass"} <= set(call)
    assert {"left", "right", "lock", "centre"} <= W["en"].all_words()


@pytest.mark.parametrize("lang, said, degrees", [
    ("en", "put it at eighty", 80), ("en", "set it to 80", 80),
    ("en", "set the dial to one hundred and twenty degrees", 120), ("en", "make it eighty", 80),
    ("en", "leave it at forty", 40), ("en", "move it to thirty degrees", 30), ("en", "put it on 80", 80),
    ("es", "pon el dial en 80", 80), ("es", "pon el dial en ochenta", 80), ("es", "ponlo en ochenta", 80),
    ("es", "ponedlo en ochenta", 80), ("es", "poned el dial en ciento veinte", 120),
    ("es", "ponedlo en ochenta grados", 80), ("es", "dejadlo en cuarenta", 40), ("es", "llevadlo a treinta", 30),
    ("es", "ponlo en el ochenta", 80), ("es", "en ochenta grados", 80),
    ("nl", "zet hem op tachtig", 80), ("nl", "zet de wijzer op 80", 80), ("nl", "draai hem naar honderdtwintig", 120),
])
def test_positions_said_with_a_number_and_a_verb(lang, said, degrees):
    """W7: an absolute position with the language's natural verbs ("set it to eighty") sets the dial there."""
    assert W[lang].dial_command(said, *CARD[lang]) == DialCommand(SET, degrees)


@pytest.mark.parametrize("lang, phrase, words", [
    ("en", "set it to", {"set", "put", "make"}), ("en", "put it at", {"set", "put", "make"}),
    ("es", "ponedlo en", {"ponedlo", "en"}), ("es", "ponlo en", {"ponlo", "en"}), ("nl", "zet hem op", {"zet", "hem", "op"}),
])
def test_the_position_verbs_are_in_the_dial_grammar(lang, phrase, words):
    assert phrase in W[lang].dial_phrases(*CARD[lang])
    assert words <= W[lang].all_words()


# ---------------------------------------------------------------------- each language's own words
@pytest.mark.parametrize("lang", ["es", "nl"])
def test_every_concept_of_the_deck_moves_the_dial_its_way(lang):
    """W7 on the whole built-in deck: "<cue> left concept" turns left, "<less> right concept" too."""
    w = W[lang]
    more, less = w.grammar_cues[0], sorted(w.less_words)[0]
    bad = []
    for card in load_deck(None, lang):
        for left, right in card.sides:
            got = (w.dial_command(f"{more} {left}", left, right), w.dial_command(f"{less} {right}", left, right),
                   w.dial_command(f"{more} {right}", left, right))
            if got != (DialCommand(MOVE, -15), DialCommand(MOVE, -15), DialCommand(MOVE, 15)):
                bad.append((left, right, got))
    assert bad == []


def test_a_concept_holding_a_colour_is_the_concept():
    """Concepts are matched before team names: "Rojo pasión" is a concept, not the red team."""
    assert W["es"].call("rojo pasión", "Rojo pasión", "Gris ratón", COLOUR_TEAMS) == Call("left", None)
    assert W["es"].call("azul, más rojo pasión", "Rojo pasión", "Gris ratón", COLOUR_TEAMS) == Call("left", 1)
    assert W["nl"].call("blauw, meer rood licht", "Rood licht", "Groen licht", COLOUR_TEAMS) == Call("left", 1)


def test_given_team_names_are_matched_as_said():
    assert W["es"].call("tiburones, izquierda", ES_LEFT, ES_RIGHT, ["Tiburones", "Delfines"]) == Call("left", 0)
    assert W["nl"].call("dolfijnen zegt rechts", NL_LEFT, NL_RIGHT, ["Haaien", "Dolfijnen"]) == Call("right", 1)


def test_turn_words_are_not_global_commands():
    """A Wavelength phrase must not be swallowed by a global command of the same language."""
    for w in (W["es"], W["nl"]):
        phrases = [*w.raw["lock"], *w.raw["where"], *w.raw["centre"], *w.other_side_raw, *w.redo_raw, *w.pass_raw]
        assert [p for p in phrases if w.core.command(p)] == []


def test_grammars_hold_the_phrases_with_their_accents():
    dial = set(W["es"].dial_phrases(ES_LEFT, ES_RIGHT))
    assert {"izquierda", "un poquito a la izquierda", "más comida de desayuno", "menos pasado de sal",
            "del todo a la derecha", "del todo hacia pasado de sal", "fíjalo", "dónde está", "grados"} <= dial
    call = set(W["es"].call_phrases(ES_LEFT, ES_RIGHT, COLOUR_TEAMS))
    assert {"azul izquierda", "azul dice derecha", "los azules más pasado de sal", "paso", "rojo derecha"} <= call
    dial = set(W["nl"].dial_phrases(NL_LEFT, NL_RIGHT))
    assert {"links", "een klein beetje naar links", "meer rauw", "helemaal naar rechts", "helemaal naar aangebrand",
            "vastzetten", "waar staat hij", "graden"} <= dial
    call = set(W["nl"].call_phrases(NL_LEFT, NL_RIGHT, COLOUR_TEAMS))
    assert {"blauw links", "blauw zegt rechts", "meer aangebrand", "pas"} <= call
    assert {"izquierda", "fíjalo", "poquito", "todo", "menos"} <= W["es"].all_words()
    assert {"links", "vastzetten", "beetje", "helemaal", "minder"} <= W["nl"].all_words()
    assert W["es"].team_vocabulary(COLOUR_TEAMS) == {"rojo", "roja", "rojos", "los", "azul", "azules"}
    assert W["nl"].team_vocabulary(COLOUR_TEAMS) == {"rood", "blauw"}


@pytest.mark.parametrize("lang, words", [
    ("es", {"un pelín", "un pelito", "una pizca", "una chispa"}),
    ("nl", {"een tikje", "een tikkeltje", "een haartje", "een ietsiepietsie"}),
])
def test_small_step_words_are_consistent(lang, words):
    """Diminutives of a 1° word are 1° too ("een tikkeltje" = "een tikje")."""
    w = W[lang]
    side = "a la izquierda" if lang == "es" else "naar links"
    assert {m: w.dial_command(f"{m} {side}", "A", "B") for m in words} == {m: DialCommand(MOVE, -1) for m in words}


@pytest.mark.parametrize("said", ["fijadlo", "fijadla", "fijad el dial", "vale, fijadlo", "fijadlo, por favor",
                                  "bloqueadlo", "dejadlo ahí", "dejadlo así",
                                  # the tú forms are understood too
                                  "fíjalo", "fijalo", "bloquéalo", "déjalo ahí"])
def test_spanish_lock_in_vosotros_and_tu(said):
    """The table is spoken to as vosotros: "fijadlo" locks the dial, and so does "fíjalo"."""
    assert W["es"].dial_command(said, ES_LEFT, ES_RIGHT) == DialCommand(LOCK)


@pytest.mark.parametrize("said, expected", [
    ("giradlo un poco a la izquierda", DialCommand(MOVE, -5)), ("movedlo mucho a la derecha", DialCommand(MOVE, 45)),
    ("girad a la izquierda", DialCommand(MOVE, -15)), ("llevadlo al centro", DialCommand(SET, 90)),
    ("ponedlo del todo a la derecha", DialCommand(SET, 180)),
])
def test_spanish_moves_with_vosotros_verbs(said, expected):
    assert W["es"].dial_command(said, ES_LEFT, ES_RIGHT) == expected
