"""ROFL! phrases (voicegame.understanding.rofl): claims, passes, verdicts, disqualification."""

import pytest

from voicegame.engine.table import NotUnderstood
from voicegame.games.rofl.intents import ClaimIntent, Disqualify, TwoColours, Verdict, rofl_understanding
from voicegame.language.prompts import load_toml

#: One understanding per language (each loads its words file once).
U = {lang: rofl_understanding(lang) for lang in ("en", "es", "nl")}


def said(parse, *args):
    """What a parser understood, or ``None`` when it raised NotUnderstood."""
    try:
        return parse(*args)
    except NotUnderstood:
        return None


@pytest.mark.parametrize("lang, text, default, expected", [
    ("en", "blue, seven", None, ClaimIntent("blue", 7)),
    ("en", "Blue 7", None, ClaimIntent("blue", 7)),
    ("en", "blue takes space twelve", None, ClaimIntent("blue", 12)),
    ("en", "green claims number 3", None, ClaimIntent("green", 3)),
    ("en", "red, twenty", None, ClaimIntent("red", 20)),
    ("en", "violet, five", None, ClaimIntent("purple", 5)),          # a colour's other word (words.toml)
    ("en", "seven, yellow", None, ClaimIntent("yellow", 7)),         # colour last
    ("en", "blue pass", None, ClaimIntent("blue", None)),
    ("en", "blue passes", None, ClaimIntent("blue", None)),
    ("en", "green, no token", None, ClaimIntent("green", None)),
    # numbers off the board or not whole are returned as said; the rules refuse them
    ("en", "yellow, twenty five", None, ClaimIntent("yellow", 25)),
    ("en", "blue zero", None, ClaimIntent("blue", 0)),
    ("en", "blue 7.5", None, ClaimIntent("blue", 7.5)),
    # the writer the host just asked by name may leave out their colour
    ("en", "ten", "yellow", ClaimIntent("yellow", 10)),
    ("en", "pass", "red", ClaimIntent("red", None)),
    ("en", "green, four", "red", ClaimIntent("green", 4)),           # another writer answers instead
    # not claims
    ("en", "seven", None, None),
    ("en", "pass", None, None),
    ("en", "blue green three", None, None),                          # two colours
    ("en", "blue seven eight", None, None),                          # not one number
    ("en", "yellow, banana", None, None),
    ("en", "blue", None, None),
    ("en", "", None, None),
    ("es", "azul, siete", None, ClaimIntent("blue", 7)),
    ("es", "Azul siete", None, ClaimIntent("blue", 7)),
    ("es", "azul, me pido la casilla siete", None, ClaimIntent("blue", 7)),
    ("es", "verde en la doce", None, ClaimIntent("green", 12)),
    ("es", "rosa, el número tres", None, ClaimIntent("pink", 3)),
    ("es", "roja, dieciséis", None, ClaimIntent("red", 16)),       # a colour said in the feminine
    ("es", "amarilla, dieciseis", None, ClaimIntent("yellow", 16)),  # without the accent
    ("es", "azul, veinte", None, ClaimIntent("blue", 20)),
    ("es", "azul, veintiún", None, ClaimIntent("blue", 21)),       # off the board: the host refuses
    ("es", "azul, siete coma cinco", None, ClaimIntent("blue", 7.5)),
    ("es", "azul, 7", None, ClaimIntent("blue", 7)),
    ("es", "rojo, paso", None, ClaimIntent("red", None)),
    ("es", "roja pasa", None, ClaimIntent("red", None)),
    ("es", "amarillo, sin ficha", None, ClaimIntent("yellow", None)),
    ("es", "morado, no pongo ficha", None, ClaimIntent("purple", None)),
    ("es", "siete", "green", ClaimIntent("green", 7)),             # asked by name: no colour needed
    ("es", "paso", "green", ClaimIntent("green", None)),
    ("es", "siete", None, None),                                   # nobody named
    ("es", "azul verde siete", None, None),                        # two colours
    ("es", "azul, plátano", None, None),
    ("es", "no lo sé", "red", None),
    ("nl", "blauw, zeven", None, ClaimIntent("blue", 7)),
    ("nl", "blauw neemt vak zeven", None, ClaimIntent("blue", 7)),
    ("nl", "geel zet zijn pion op twaalf", None, ClaimIntent("yellow", 12)),
    ("nl", "roze, een", None, ClaimIntent("pink", 1)),
    ("nl", "roze, één", None, ClaimIntent("pink", 1)),
    ("nl", "oranje, negentien", None, ClaimIntent("orange", 19)),
    ("nl", "blauw, tweeëntwintig", None, ClaimIntent("blue", 22)),
    ("nl", "blauw, tweeentwintig", None, ClaimIntent("blue", 22)),  # without the diaeresis
    ("nl", "blauw, zeven komma vijf", None, ClaimIntent("blue", 7.5)),
    ("nl", "rood, pas", None, ClaimIntent("red", None)),
    ("nl", "paars past", None, ClaimIntent("purple", None)),
    ("nl", "oranje, geen pion", None, ClaimIntent("orange", None)),
    ("nl", "acht", "red", ClaimIntent("red", 8)),
    ("nl", "ik pas", "red", ClaimIntent("red", None)),
    ("nl", "acht", None, None),
    ("nl", "groen, fiets", None, None),
    ("nl", "weet ik niet", "red", None),
])
def test_claims(lang, text, default, expected):
    assert said(U[lang].claim, text, default) == expected


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "blue says correct", Verdict("blue", True)),
    ("en", "green, wrong", Verdict("green", False)),
    ("en", "Yellow: that's right", Verdict("yellow", True)),
    ("en", "red thinks it's wrong", Verdict("red", False)),
    ("en", "blue incorrect", Verdict("blue", False)),
    ("en", "correct", Verdict(None, True)),                          # no colour: the host asks for one
    ("en", "agreed", Verdict(None, None)),
    ("en", "we agree", Verdict(None, None)),
    ("en", "yes", Verdict(None, None, yes=True)),                    # plain agreement keeps the judgement
    ("en", "yes, agreed", Verdict(None, None, yes=True)),
    ("en", "blue says yes", Verdict("blue", None, yes=True)),        # own messages: "blue, yes" is correct
    ("en", "yes, that's correct", Verdict(None, True)),
    ("en", "no", Verdict(None, False)),
    ("en", "correct, wrong", None),                                  # both: not a verdict
    ("en", "blue agrees", None),                                     # not a listed phrase
    ("en", "maybe", None),
    ("en", "blue green correct", None),
    ("en", "the wizard of oz", None),
    ("es", "verde dice correcto", Verdict("green", True)),
    ("es", "Verde dice: ¡correcto!", Verdict("green", True)),
    ("es", "azul, incorrecto", Verdict("blue", False)),
    ("es", "rojo dice que está mal", Verdict("red", False)),
    ("es", "verde dice que no es correcto", Verdict("green", False)),
    ("es", "rojo, no está bien", Verdict("red", False)),
    ("es", "amarillo, bien", Verdict("yellow", True)),
    ("es", "verde dice que está bien", Verdict("green", True)),
    ("es", "azul, no ha acertado", Verdict("blue", False)),
    ("es", "morado dice sí", Verdict("purple", None, yes=True)),  # a plain yes agrees (own messages: correct)
    ("es", "vale", Verdict(None, None)),
    ("es", "sí", Verdict(None, None, yes=True)),
    ("es", "sí, vale", Verdict(None, None, yes=True)),
    ("es", "estoy de acuerdo", Verdict(None, None)),
    ("es", "sí, correcto", Verdict(None, True)),
    ("es", "de acuerdo", Verdict(None, None)),
    ("es", "estamos de acuerdo", Verdict(None, None)),
    ("es", "rojo, vale", Verdict("red", None)),
    ("es", "correcto", Verdict(None, True)),                      # the host asks for a colour
    ("es", "rojo dice quizás", None),
    ("es", "rojo verde correcto", None),
    ("nl", "groen zegt goed", Verdict("green", True)),
    ("nl", "blauw, fout", Verdict("blue", False)),
    ("nl", "rood zegt dat het klopt", Verdict("red", None, yes=True)),
    ("nl", "klopt", Verdict(None, None, yes=True)),
    ("nl", "ja", Verdict(None, None, yes=True)),
    ("nl", "ja, klopt", Verdict(None, None, yes=True)),
    ("nl", "ik ben het ermee eens", Verdict(None, None)),
    ("nl", "ja, goed", Verdict(None, True)),
    ("nl", "goed fout", None),                                    # both: not a verdict
    ("nl", "geel zegt klopt niet", Verdict("yellow", False)),
    ("nl", "oranje vindt het niet goed", Verdict("orange", False)),
    ("nl", "paars zegt juist", Verdict("purple", True)),
    ("nl", "akkoord", Verdict(None, None)),
    ("nl", "we zijn het eens", Verdict(None, None)),
    ("nl", "roze is het eens", Verdict("pink", None)),
    ("nl", "mee eens", Verdict(None, None)),
    ("nl", "goed", Verdict(None, True)),
    ("nl", "misschien", None),
])
def test_verdicts(lang, text, expected):
    assert said(U[lang].verdict, text) == expected


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "disqualified", Disqualify(None)),
    ("en", "Disqualified!", Disqualify(None)),
    ("en", "that's disqualified", Disqualify(None)),
    ("en", "blue is disqualified", Disqualify("blue")),
    ("en", "disqualify green", Disqualify("green")),
    ("en", "too many characters", Disqualify(None)),
    ("en", "the message is too long", Disqualify(None)),
    ("en", "no pain no gain", None),
    ("en", "blue", None),
    ("es", "descalificado", Disqualify(None)),
    ("es", "¡Descalificado!", Disqualify(None)),
    ("es", "rojo está descalificado", Disqualify("red")),
    ("es", "el mensaje de azul está descalificado", Disqualify("blue")),
    ("es", "tiene demasiados caracteres", Disqualify(None)),
    ("es", "la rosa de los vientos", None),                       # a guess with a colour word in it
    ("es", "verano azul", None),
    ("nl", "gediskwalificeerd", Disqualify(None)),
    ("nl", "blauw is gediskwalificeerd", Disqualify("blue")),
    ("nl", "het bericht van rood is gediskwalificeerd", Disqualify("red")),
    ("nl", "te veel tekens", Disqualify(None)),
    ("nl", "het meisje met het rode haar", None),
])
def test_disqualify(lang, text, expected):
    assert said(U[lang].disqualify, text) == expected


@pytest.mark.parametrize("lang, text, expected", [
    ("en", "pass", True), ("en", "I pass", True), ("en", "no idea", True), ("en", "passage to india", False), ("en", "a pass", False),
    ("es", "paso", True), ("es", "Yo paso.", True), ("es", "no sé", True), ("es", "no lo se", True),
    ("es", "ni idea", True), ("es", "me rindo", True),
    ("es", "solo sé que no sé nada", False), ("es", "paso a paso", False),
    ("nl", "pas", True), ("nl", "ik pas", True), ("nl", "geen idee", True), ("nl", "ik weet het niet", True),
    ("nl", "pas maar op", False), ("nl", "geen gezeur", False),
])
def test_guess_pass(lang, text, expected):
    assert U[lang].guess_pass(text) is expected


def test_grammar_has_colours_spaces_and_game_words():
    words = U["en"].all_words(["red", "blue", "green"])
    for w in ("red", "blue", "green", "one", "twelve", "twenty", "pass", "correct", "wrong", "agreed",
              "disqualified", "ready"):
        assert w in words
    assert "purple" not in words                                # only the players' colours
    assert all(w == w.lower() and " " not in w for w in words)
    assert U["en"].space_words()[:3] == ["one", "two", "three"] and len(U["en"].space_words()) == 20
    assert "blue" in U["en"].claim_phrases(["blue"]) and "seven" in U["en"].claim_phrases(["blue"])


def test_two_colours_are_ambiguous():
    with pytest.raises(TwoColours) as err:
        U["en"].claim("blue green three")
    assert err.value.colours == ["blue", "green"]
    with pytest.raises(NotUnderstood):
        U["en"].verdict("correct and wrong")


# ---------------------------------------------------------------------- every language's own words
@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_listed_phrase_is_understood_as_listed(lang):
    """A filler word must never swallow part of a listed phrase ("no es correcto")."""
    u, words = U[lang], load_toml(lang, "words_rofl")
    colour = u.core.colour_name("blue")
    for phrase in words["claim"]["pass"]:
        assert said(u.claim, f"{colour}, {phrase}") == ClaimIntent("blue", None), phrase
    for key, correct in (("correct", True), ("wrong", False), ("agree", None)):
        for phrase in words["verdict"][key]:
            assert said(u.verdict, f"{colour} {phrase}") == Verdict("blue", correct), phrase
    for phrase in words["disqualify"]["words"]:
        assert said(u.disqualify, phrase) == Disqualify(None), phrase
    for phrase in words["guess"]["pass"]:
        assert u.guess_pass(phrase), phrase


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_grammar_uses_the_languages_colour_words(lang):
    u = U[lang]
    words = u.all_words(["red", "blue", "green"])
    colours = {"es": ("rojo", "roja", "azul", "verde"), "nl": ("rood", "blauw", "groen")}[lang]
    assert set(colours) <= words and not {"red", "blue", "green"} & words
    assert len(u.space_words()) == 20 and {"es": "siete", "nl": "zeven"}[lang] in words
    for w in {"es": ("paso", "correcto", "incorrecto", "descalificado", "listo"),
              "nl": ("pas", "goed", "fout", "akkoord", "gediskwalificeerd", "klaar")}[lang]:
        assert w in words
