"""ROFL! in Spanish and Dutch (issue 8): phrases, judging, and whole games.

Table-driven understanding tests per language (claims, passes, verdicts,
disqualification, a guesser's pass), judging of guesses with Spanish and Dutch
numbers, accents, articles and contractions (R4), and golden playthroughs
(``tests/playthroughs/rofl_es.txt``, ``rofl_nl.txt``; regenerate on purpose with
``VOICEGAME_REGEN=1 python -m pytest tests/test_rofl_es_nl.py``). Every record is
re-scored by :func:`rescore`, written here from R3–R6 without the rules module.
"""

from __future__ import annotations

from functools import partial

import json
from pathlib import Path
import re

import pytest

from tests.playthrough import frozen_deck, SCRIPTS, check_golden, run_cli
from tests.test_host_rofl import play_tied_game
from voicegame.games.rofl.deck import CATEGORIES, load_deck
from voicegame.language.prompts import Prompts, load_toml
from voicegame.games.rofl import rules
from voicegame.games.rofl.judge import judge_guess
from voicegame.games.rofl import judge
from voicegame.language.speakable import speakable
from voicegame.language.words import normalise, understanding
from voicegame.engine.table import NotUnderstood
from voicegame.games.rofl.intents import ClaimIntent, Disqualify, Verdict, rofl_understanding

ES, NL = rofl_understanding("es"), rofl_understanding("nl")
WORDS = {"es": ES, "nl": NL}
GAME_ES = ["--lang", "es", "--players", "rojo,azul,verde", "--seed", "1"]
GAME_NL = ["--lang", "nl", "--players", "rood,blauw,geel", "--lenient", "--seed", "5"]


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def said(parse, *args):
    """What a parser understood, or ``None`` when it raised NotUnderstood."""
    try:
        return parse(*args)
    except NotUnderstood:
        return None


# ---------------------------------------------------------------------- helpers
mechanics_deck = partial(frozen_deck, "rofl")  # the frozen deck, as every scripted game deals


def play(tmp_path, script, extra, name="rec.json"):
    """Play ``script`` (a tests/scripts name or a path) to its end; (status, stdout, record)."""
    path = SCRIPTS / f"{script}.txt" if isinstance(script, str) else script
    record = tmp_path / name
    status, out, err = run_cli(["play", "rofl", "--input", str(path), "--output", "text",
                                "--record", str(record), *mechanics_deck(extra), *extra])
    assert err == "", err
    return status, out, json.loads(record.read_text())


def script_file(tmp_path, lines, name="script.txt"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def script_lines(name):
    return [line for line in (SCRIPTS / f"{name}.txt").read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def rescore(record):
    """Scores and winners from the record alone (R3–R6), not using the rules module.

    Per normal turn, walk the reveals in order, skipping disqualified ones; the first one
    that counts as correct (a writer's verdict when given, else the host's judgement)
    scores 3, 2 or 1 by its place for the guesser and that writer. Tiebreaker turns score
    nothing; the first tiebreaker message guessed names the winner.
    """
    players = record["settings"]["options"]["players"]
    scores = dict.fromkeys(players, 0)
    tiebreak_winner = None
    for turn in record["turns"]:
        place = 0
        for shown in turn["reveals"]:
            if shown["disqualified"]:
                continue
            place += 1
            verdict, judgement = shown["verdict"], shown["judgement"]
            correct = verdict["correct"] if verdict else bool(judgement and judgement["correct"])
            if not correct:
                continue
            if turn["tiebreak"]:
                tiebreak_winner = shown["writer"]
            else:
                points = {1: 3, 2: 2}.get(place, 1)
                scores[turn["guesser"]] += points
                scores[shown["writer"]] += points
            break
    top = max(scores.values())
    leaders = [p for p in players if scores[p] == top]
    return scores, leaders if len(leaders) in (1, len(players)) else [tiebreak_winner]


def check_record(record):
    scores, winners = rescore(record)
    assert {s["name"]: s["points"] for s in record["standings"]} == scores
    assert record["winners"] == winners
    awarded = dict.fromkeys(scores, 0)
    for award in record["awards"]:
        awarded[award["to"]] += award["amount"]
    assert awarded == scores and record["finished"] is True
    for turn in record["turns"]:
        assert turn["category"] in CATEGORIES and turn["message"]
    return scores


# ---------------------------------------------------------------------- claims (R2)
@pytest.mark.parametrize("lang, text, default, expected", [
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
    assert said(WORDS[lang].claim, text, default) == expected


# ---------------------------------------------------------------------- verdicts (R4, R7)
@pytest.mark.parametrize("lang, text, expected", [
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
    assert said(WORDS[lang].verdict, text) == expected


# ---------------------------------------------------------------------- disqualified (R3), pass
@pytest.mark.parametrize("lang, text, expected", [
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
    assert said(WORDS[lang].disqualify, text) == expected


@pytest.mark.parametrize("lang, text, expected", [
    ("es", "paso", True), ("es", "Yo paso.", True), ("es", "no sé", True), ("es", "no lo se", True),
    ("es", "ni idea", True), ("es", "me rindo", True),
    ("es", "solo sé que no sé nada", False), ("es", "paso a paso", False),
    ("nl", "pas", True), ("nl", "ik pas", True), ("nl", "geen idee", True), ("nl", "ik weet het niet", True),
    ("nl", "pas maar op", False), ("nl", "geen gezeur", False),
])
def test_guess_pass(lang, text, expected):
    assert WORDS[lang].guess_pass(text) is expected


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_every_listed_phrase_is_understood_as_listed(lang):
    """A filler word must never swallow part of a listed phrase ("no es correcto")."""
    u, words = WORDS[lang], load_toml(lang, "words_rofl")
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
    u = WORDS[lang]
    words = u.all_words(["red", "blue", "green"])
    colours = {"es": ("rojo", "roja", "azul", "verde"), "nl": ("rood", "blauw", "groen")}[lang]
    assert set(colours) <= words and not {"red", "blue", "green"} & words
    assert len(u.space_words()) == 20 and {"es": "siete", "nl": "zeven"}[lang] in words
    for w in {"es": ("paso", "correcto", "incorrecto", "descalificado", "listo"),
              "nl": ("pas", "goed", "fout", "akkoord", "gediskwalificeerd", "klaar")}[lang]:
        assert w in words


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_deck_messages_never_sound_like_a_command_or_control_word(lang):
    """A guess is free text, but a whole-utterance command, "disqualified" or "pass" comes first."""
    core, u = understanding(lang), WORDS[lang]
    clashes = [m.text for c in load_deck(None, lang) for m in c.sides
               if core.command(normalise(m.text)) or said(u.disqualify, m.text) or u.guess_pass(m.text)]
    assert clashes == []


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_prompts_have_the_english_keys_and_placeholders(lang):
    en, other = Prompts.load("en"), Prompts.load(lang)
    keys = {k for k in en.templates if k.startswith("rofl.")}
    assert keys == {k for k in other.templates if k.startswith("rofl.")}
    assert [k for k in sorted(keys) if en.placeholders(k) != other.placeholders(k)] == []
    assert {other.text(f"rofl.category.{c}") for c in CATEGORIES} == {
        "es": {"películas", "series de televisión", "canciones", "libros y cómics", "política e historia",
               "refranes"},
        "nl": {"films", "tv-series", "liedjes", "boeken en strips", "politiek en geschiedenis", "gezegdes"},
    }[lang]


# ---------------------------------------------------------------------- judging (R4)
JUDGE_ES_NL = [
    # Spanish numbers: "veintiún" is read by neither text2num nor num2words ("veintiuno")
    ("21 días", "Veintiún días", False, "es", True),
    ("veintiún días", "21 días", False, "es", True),
    ("veintiun dias", "Veintiún días", False, "es", True),
    ("veintiuno días", "Veintiún días", False, "es", True),
    ("ciento veintiún días", "121 días", False, "es", True),
    ("veintidós días", "21 días", False, "es", False),
    ("15 años tiene mi amor", "Quince años tiene mi amor", False, "es", True),
    ("la vuelta al mundo en 80 días", "La vuelta al mundo en ochenta días", False, "es", True),
    ("mil novecientos ochenta y cuatro", "1984", False, "es", True),
    ("las mil y una noches", "Las 1001 noches", False, "es", True),
    ("veinte mil leguas de viaje submarino", "20.000 leguas de viaje submarino", False, "es", True),
    ("al que no quiere caldo dos tazas", "Al que no quiere caldo, tres tazas", False, "es", False),
    # accents ignored, "ñ" kept
    ("olvidate de mi", "Olvídate de mí", False, "es", True),
    ("el ano", "El año", False, "es", False),
    # articles (lenient) and slips
    ("secreto de sus ojos", "El secreto de sus ojos", False, "es", False),
    ("secreto de sus ojos", "El secreto de sus ojos", True, "es", True),
    ("harry potter y la piedra filosófica", "Harry Potter y la piedra filosofal", False, "es", True),
    ("la regente", "La Regenta", False, "es", False),              # short message: exact words only
    # Dutch contractions are said in full
    ("zeg eens aaa", "Zeg 'ns Aaa", False, "nl", True),
    ("zeg ’ns aaa", "Zeg 'ns Aaa", False, "nl", True),
    ("pak maar mijn hand", "Pak maar m'n hand", False, "nl", True),
    ("het is weer voorbij die mooie zomer", "'t Is weer voorbij die mooie zomer", False, "nl", True),
    ("is weer voorbij die mooie zomer", "'t Is weer voorbij die mooie zomer", True, "nl", True),
    ("is weer voorbij die mooie zomer", "'t Is weer voorbij die mooie zomer", False, "nl", False),
    ("opa's fiets", "Opa's fiets", False, "nl", True),
    # Dutch numbers, "één" and articles
    ("rome is niet in een dag gebouwd", "Rome is niet in één dag gebouwd", False, "nl", True),
    ("rome is niet in 1 dag gebouwd", "Rome is niet in één dag gebouwd", False, "nl", True),
    ("rome is niet in dag gebouwd", "Rome is niet in één dag gebouwd", True, "nl", False),  # "één" is no article
    ("vijftien miljoen mensen", "15 miljoen mensen", False, "nl", True),
    ("twee voor twaalf", "2 voor 12", False, "nl", True),
    ("twee voor elf", "Twee voor twaalf", False, "nl", False),
    ("de tweeentwintig", "De 22", False, "nl", True),
    ("negentien vierentachtig", "1984", False, "nl", True),
    ("avonturen van kuifje", "De avonturen van Kuifje", True, "nl", True),
    ("avonturen van kuifje", "De avonturen van Kuifje", False, "nl", False),
    ("een ongeluk komt nooit alleen", "Een ongeluk komt zelden alleen", True, "nl", False),
]


@pytest.mark.parametrize("guess, message, lenient, lang, correct", JUDGE_ES_NL)
def test_judge_spanish_and_dutch(guess, message, lenient, lang, correct):
    assert judge_guess(guess, message, lenient, lang).correct is correct


@pytest.mark.parametrize("guess, message, lang", [
    ("21 días", "Veintiún días", "es"), ("zeg eens aaa", "Zeg 'ns Aaa", "nl"),
    ("pak maar mijn hand", "Pak maar m'n hand", "nl"),
])
def test_respelled_words_are_the_same_words_not_a_forgiven_slip(guess, message, lang):
    assert judge_guess(guess, message, False, lang).reason == judge.EXACT


# ---------------------------------------------------------------------- golden games
def test_spanish_game_with_a_tiebreaker(tmp_path):
    status, out, record = play(tmp_path, "rofl_es", GAME_ES)
    assert status == 0
    check_golden("rofl_es", out)
    assert check_record(record) == {"red": 15, "blue": 15, "green": 10}
    assert record["winners"] == ["blue"] and record["settings"]["options"]["players"] == ["red", "blue", "green"]
    turns = record["turns"]
    assert [t["guesser"] for t in turns] == ["red", "blue", "green"] * 3 + [None]
    first = turns[0]["reveals"][0]                                   # the writer overrules the host (R4)
    assert first["judgement"]["correct"] is False and first["verdict"] == {"by": "green", "correct": True}
    assert [(c["writer"], c["space"]) for c in turns[1]["claims"]] == [("green", 9), ("red", 12)]  # undo
    assert turns[2]["disqualified"] == ["red"] and turns[2]["position"] == 1     # R3
    assert turns[3]["reveals"][0]["judgement"]["reason"] == judge.SLIP
    assert turns[3]["passes"] == [{"writer": "green", "silent": True}]
    assert turns[9]["tiebreak"] and turns[9]["winner"] == "blue"
    assert "La 7,5 no está en el tablero" in out                     # decimal comma
    assert "PRIVATE writers: La Regenta." in out


def test_dutch_game_lenient_with_a_tiebreaker(tmp_path):
    status, out, record = play(tmp_path, "rofl_nl", GAME_NL)
    assert status == 0
    check_golden("rofl_nl", out)
    assert check_record(record) == {"red": 15, "blue": 15, "yellow": 10}
    assert record["winners"] == ["red"]
    turns = record["turns"]
    assert turns[0]["reveals"][0]["judgement"]["correct"] is True        # "de" left out, lenient
    assert turns[2]["reveals"][1]["guess"] == "zeg eens aaa" and turns[2]["reveals"][1]["correct"]
    wolf = turns[8]["reveals"][0]                                        # a writer overrules a slip
    assert wolf["judgement"]["reason"] == judge.SLIP and wolf["overruled"] and not wolf["correct"]
    assert "7,5 ligt niet op het bord" in out


@pytest.mark.parametrize("name", ["rofl_es", "rofl_nl"])
def test_every_host_sentence_is_speakable_without_digits(name):
    lang = name[-2:]
    text = (SCRIPTS.parent / "playthroughs" / f"{name}.txt").read_text(encoding="utf-8")
    lines = [ln.split(": ", 1)[1] for ln in text.splitlines() if ln.startswith(("HOST: ", "PRIVATE "))]
    assert lines and not [ln for ln in lines if re.search(r"\d", speakable(ln, lang))]


def test_players_as_colour_keys_play_the_same_game(tmp_path):
    _, words, _ = play(tmp_path, "rofl_es", GAME_ES, name="a.json")
    _, keys, _ = play(tmp_path, "rofl_es", ["--lang", "es", "--players", "red,blue,green", "--seed", "1"],
                      name="b.json")
    assert keys == words


@pytest.mark.parametrize("lang, players, words", [
    ("es", "rojo,azul,negro", "--players lleva colores (rojo, naranja, amarillo, verde, azul, morado, rosa), "
                              "no negro."),
    ("es", "rojo,azul,red", "--players repite un color: rojo,azul,red."),
    ("es", "blanco,azul,rojo", "no blanco."),
    ("nl", "rood,blauw", "ROFL! heeft 3 tot 7 spelers nodig; --players gaf er 2."),
    ("nl", "rood,wit,blauw", "--players verwacht kleuren (rood, oranje, geel, groen, blauw, paars, roze), niet wit."),
    ("nl", "rood,blauw,zwart", "(rood, oranje, geel, groen, blauw, paars, roze)"),
])
def test_bad_players_are_refused_in_one_sentence(lang, players, words):
    status, _, err = run_cli(["play", "rofl", "--lang", lang, "--players", players, "--input", "keyboard"])
    assert status == 2 and words in err and err.count("\n") == 1
    # printed before the game, in the game's language: no English sentence (playtest)
    assert not any(english in err for english in ("takes colours", "names a colour", "needs 3", " not "))


def test_dutch_game_resumes_to_the_same_scores(tmp_path):
    _, _, full = play(tmp_path, "rofl_nl", GAME_NL, name="full.json")
    lines = script_lines("rofl_nl")
    cut = lines.index("jurassic park")
    status, out, record = play(tmp_path, script_file(tmp_path, lines[:cut], "first.txt"), GAME_NL,
                               name="part.json")
    assert status == 0 and "Het script is afgelopen" in out and record["finished"] is False
    status, out, err = run_cli(["resume", "--input", str(script_file(tmp_path, lines[cut:], "rest.txt")),
                                "--output", "text"])
    assert status == 0, err
    assert out.startswith("HOST: Welkom terug.") and "PLAYER: blauw, zeven" not in out
    resumed = json.loads((tmp_path / "part.json").read_text())
    assert resumed["standings"] == full["standings"] and resumed["turns"] == full["turns"]
    check_record(resumed)


# ---------------------------------------------------------------------- other options
def test_spanish_without_timer_and_default_players(tmp_path):
    _, out, _ = play(tmp_path, script_file(tmp_path, ["azul, tres", "listo", "cuatro", "paso", "ni idea"]),
                     ["--lang", "es", "--timer", "off", "--seed", "5"])
    assert "HOST: Rojo, tápate los oídos." in out
    # R2 without a timer: writers claim once done writing; the reveal starts when all have claimed
    # or passed, and "listo" stops the waiting (the missing writers are asked by name)
    assert "Escritores: sin tiempo. Al terminar, pedid casilla así: Azul, siete." in out
    assert "Decid listo cuando todos hayáis terminado" not in out
    assert "HOST: Verde, ¿tu casilla, o paso?" in out and "HOST: Verde: la 4." in out
    assert "HOST: Amarillo pasa." in out
    # no timer: no time is promised; "pass" gives up (issue 5)
    assert "Sin tiempo: di paso para rendirte." in out and "HOST: Sin respuesta." in out
    assert "Tómate tu tiempo" not in out and "segundos" not in out


def test_dutch_own_messages_are_judged_by_a_writer(tmp_path):
    lines = ["blauw, drie", "geel, vier", "kuifje", "akkoord", "rood zegt goed", "blauw zegt goed"]
    _, out, _ = play(tmp_path, script_file(tmp_path, lines),
                     ["--lang", "nl", "--players", "rood,blauw,geel", "--own-message", "--hard", "--timer", "off"])
    assert "Blauw, verzin een titel of gezegde en laat het de schrijvers zien, niet Rood." in out
    assert "PRIVATE" not in out and "categorie:" not in out                # own message, hard mode (R7)
    assert "Ik hoorde: kuifje. Schrijvers, beoordeel het: je kleur en goed of fout." in out
    assert "Dit kan ik niet beoordelen." in out
    assert "Rood raadt; alleen schrijvers beoordelen." in out
    assert "Blauw zegt goed." in out
    assert "Rood en Blauw: elk 3 punten." in out


def test_spanish_private_screen(tmp_path):
    _, out, _ = play(tmp_path, script_file(tmp_path, []), ["--lang", "es", "--players", "rojo,azul,verde",
                                                          "--private", "screen", "--seed", "1"])
    assert "Solo para Azul y Verde: La Regenta." in out
    assert "Rojo, categoría: libros y cómics." in out


def test_spanish_tiebreak_with_several_guessers(tmp_path):
    """R6 with four players: the tied leaders write; the other two may guess, once per message."""
    text = play_tied_game(tmp_path, "es", ["rojo, tres", "azul, cuatro", "verde, cuatro", "<silence>", "<silence>",
                                           "la casa de bernarda alba", "de acuerdo"])
    assert ("Rojo y Verde empatan con 5 puntos: ¡desempate! Escriben Rojo y Verde; "
            "gana el primer mensaje acertado.") in text
    assert "Azul adivina, así que no tiene ficha." in text
    assert "Azul y Amarillo: uno de vosotros adivina, una vez, palabra por palabra." in text
    assert "Diez segundos. Azul y Amarillo, adivinad." in text
    assert "¡Verde rompe el empate!" in text
    # G2 ears mode: the guessers are the ones who must not hear, so they are told by name
    assert "HOST: Azul y Amarillo, tapaos los oídos." in text and "Todos menos" not in text


# ---------------------------------------------------------------------- playtest fixes
@pytest.mark.parametrize("lang, said", [
    ("es", "vale"), ("es", "sí"), ("es", "sí, vale"), ("es", "estoy de acuerdo"), ("es", "correcto"),
    ("nl", "klopt"), ("nl", "ja"), ("nl", "ja, klopt"), ("nl", "ik ben het ermee eens"), ("nl", "goed"),
])
def test_plain_agreement_keeps_the_judgement(tmp_path, lang, said):
    """At the overrule moment a plain "vale" / "sí" / "klopt" / "ja" (no colour) agrees with
    the host's "right!" instead of asking for a colour."""
    claims, guess, game, scored, refusal = {
        "es": (["azul, tres", "verde, cuatro"], "la regenta", GAME_ES,
               "3 puntos para Rojo y Azul.", "Empezad por vuestro color"),
        "nl": (["blauw, drie", "geel, vier"], "de avonturen van kuifje", GAME_NL,
               "Rood en Blauw: elk 3 punten.", "Begin met je kleur")}[lang]
    _, out, record = play(tmp_path, script_file(tmp_path, [*claims, guess, said]), game)
    assert refusal not in out and scored in out
    shown = record["turns"][0]["reveals"][0]
    assert shown["judgement"]["correct"] is True and shown["overruled"] is False


@pytest.mark.parametrize("lang, said", [("es", "sí"), ("es", "no"), ("nl", "ja"), ("nl", "fout")])
def test_plain_agreement_with_a_wrong_judgement(tmp_path, lang, said):
    claims, game, refusal, next_shown = {
        "es": (["azul, tres", "verde, cuatro"], GAME_ES, "Empezad por vuestro color", "Verde, muestra la 4"),
        "nl": (["blauw, drie", "geel, vier"], GAME_NL, "Begin met je kleur", "Geel, laat vak 4 zien"),
    }[lang]
    _, out, record = play(tmp_path, script_file(tmp_path, [*claims, "banana", said]), game)
    assert refusal not in out and next_shown in out
    assert "corrige:" not in out and "verbetert mij:" not in out          # no overrule


@pytest.mark.parametrize("lang, players, lines, example", [
    ("es", "rojo,azul,amarillo", ["ayuda", "azul, tres", "amarillo, cuatro", "plátano", "ayuda"],
     ["así: Azul, siete;", "De acuerdo, o un escritor: Azul dice correcto"]),
    ("nl", "rood,blauw,geel", ["help", "blauw, drie", "geel, vier", "banaan", "help"],
     ["zo: Blauw, zeven;", "Akkoord, of een schrijver: Blauw zegt goed"]),
])
def test_help_examples_name_a_colour_that_is_playing(tmp_path, lang, players, lines, example):
    _, out, _ = play(tmp_path, script_file(tmp_path, lines), ["--lang", lang, "--players", players, "--seed", "1"])
    assert all(e in out for e in example)
    assert "Verde" not in out and "Groen" not in out


@pytest.mark.parametrize("lang, lines, confirm, stays, gone", [
    ("es", ["azul, tres", "verde, cuatro", "descalificado", "no", "descalificado", "sí"],
     "¿Descalifico el mensaje de Azul? ¿Sí o no?", "HOST: Sigue en juego.",
     "El mensaje de Azul queda fuera."),
    ("nl", ["blauw, drie", "geel, vier", "gediskwalificeerd", "nee", "gediskwalificeerd", "ja"],
     "Het bericht van Blauw diskwalificeren? Ja of nee?", "HOST: Het blijft in het spel.",
     "Het bericht van Blauw ligt eruit."),
])
def test_disqualified_is_confirmed(tmp_path, lang, lines, confirm, stays, gone):
    _, out, _ = play(tmp_path, script_file(tmp_path, lines), GAME_ES if lang == "es" else GAME_NL)
    assert out.count(confirm) == 2 and out.count(stays) == 1 and out.count(gone) == 1
    assert out.index(stays) < out.index(gone)


@pytest.mark.parametrize("lang, players, timer_words", [
    ("es", "Rojo,Azul,Verde", ("segundos", "Se acabó el tiempo")),
    ("nl", "Rood,Blauw,Geel", ("seconden", "De tijd is om")),
])
def test_timer_off_promises_no_time_and_names_keep_a_capital(tmp_path, lang, players, timer_words):
    lines = {"es": ["azul, tres", "verde, cuatro", "<silence>", "<silence>", "<silence>"],
             "nl": ["blauw, drie", "geel, vier", "<silence>", "<silence>", "<silence>"]}[lang]
    _, out, record = play(tmp_path, script_file(tmp_path, lines),
                          ["--lang", lang, "--players", players, "--timer", "off", "--seed", "1"])
    assert record["settings"]["options"]["players"] == ["red", "blue", "green" if lang == "es" else "yellow"]
    assert not any(w in out for w in timer_words)
    last_try = {"es": "Rojo, última oportunidad: ¿tu respuesta?", "nl": "Rood, laatste kans: je gok?"}
    assert last_try[lang] in out


# ---------------------------------------------------------------------- second playtest
@pytest.mark.parametrize("lang, lines, said", [
    ("es", ["puntuación", "rojo, tres", "verde, cuatro", "algo", "rojo dice correcto"],
     ["HOST: Azul y Amarillo, tapaos los oídos.", "Azul con 2 puntos y Amarillo sin puntos."]),
    ("nl", ["stand", "rood, drie", "groen, vier", "iets", "rood zegt goed"],
     ["HOST: Blauw en Geel, oren dicht.", "Blauw 2 punten en Geel nog geen punten."]),
])
def test_no_points_is_said_in_words(tmp_path, lang, lines, said):
    """"Verde con 0 puntos" → "Verde sin puntos"; "Geel nog geen punten" during the game (the
    scores on request)."""
    text = play_tied_game(tmp_path, lang, lines)
    for sentence in said:
        assert sentence in text, sentence
    assert "0 puntos" not in text and "0 punten" not in text


@pytest.mark.parametrize("lang, key, values, sentence", [
    ("es", "rofl.scored", dict(guesser="Rojo", writer="Azul", points="3 puntos"), "3 puntos para Rojo y Azul."),
    ("nl", "rofl.scored", dict(guesser="Rood", writer="Blauw", points="1 punt"), "Rood en Blauw: elk 1 punt."),
    ("es", "rofl.recap", dict(turns=9, guessed=8), "Se acertaron 8 de 9 mensajes."),
])
def test_scoring_sentences_read_naturally(lang, key, values, sentence):
    assert Prompts.load(lang).text(key, **values) == sentence


@pytest.mark.parametrize("lang, claims, said", [
    ("es", ["azul, tres", "verde, cuatro", "amarillo, cinco"], "Escritores: sin tiempo."),
    ("nl", ["blauw, drie", "groen, vier", "geel, vijf"], "Schrijvers: geen timer."),
])
def test_without_a_timer_the_reveal_starts_once_all_have_claimed(tmp_path, lang, claims, said):
    """R2 with --timer off: the words say what the host does — the reveal starts as soon as every
    writer has claimed or passed (no "ready" needed); "ready" only stops the waiting."""
    _, out, _ = play(tmp_path, script_file(tmp_path, claims), ["--lang", lang, "--timer", "off", "--seed", "5"])
    assert said in out
    after = out.split("PLAYER: " + claims[-1])[1].splitlines()[1:3]
    assert after[1].startswith({"es": "HOST: Azul, muestra la 3.", "nl": "HOST: Blauw, laat vak 3 zien."}[lang])


def _sentence_starts(out: str) -> list[str]:
    starts = []
    for line in out.splitlines():
        if line.startswith(("HOST: ", "PRIVATE ")):
            for sentence in re.split(r"(?<=[.!?]) +", line.split(": ", 1)[1]):
                word = sentence.lstrip("¡¿\"«'")
                if word:
                    starts.append(word)
    return starts


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_names_are_capitalised_at_every_sentence_start(tmp_path, lang):
    """Player names (colours) start a sentence with a capital, whatever case --players used."""
    _, out, _ = play(tmp_path, f"rofl_{lang}", GAME_ES if lang == "es" else GAME_NL)
    starts = _sentence_starts(out)
    assert starts and [w for w in starts if w[:1].islower()] == []
