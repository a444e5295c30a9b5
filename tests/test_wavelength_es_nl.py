"""Wavelength in Spanish and Dutch (issue 8): the phrases of the dial (W7), the left/right
call (W5) and the turn words (W8) per language, table-driven; golden playthroughs in both
languages re-scored from their records by an independent function; the team names (colour
keys spoken in the table's language, G3), decimal commas, prompts and vocabulary.

The golden files under ``tests/playthroughs/`` are regenerated with
``VOICEGAME_REGEN=1 python -m pytest tests/test_wavelength_es_nl.py``.
"""

from __future__ import annotations

from functools import partial

import io
import json
import random
import string
import tomllib
from pathlib import Path

import pytest

from voicegame.engine.table import NotUnderstood

from tests.playthrough import frozen_deck, SCRIPTS, check_golden, run_cli
from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.games.wavelength.deck import load_deck
from voicegame.games.wavelength import host
from voicegame.engine.table import Session, Settings
from voicegame.ports import Heard, InputEnded, Silence
from voicegame.language.prompts import PROMPTS_DIR
from voicegame.language.speakable import speakable
from voicegame.games.wavelength.intents import (
    LOCK, MOVE, NEGATIVE, SET, WHERE, Call, DialCommand, wavelength_understanding,
)

ES = wavelength_understanding("es")
NL = wavelength_understanding("nl")
UNDERSTANDING = {"es": ES, "nl": NL, "en": wavelength_understanding("en")}
ES_LEFT, ES_RIGHT = "Comida de desayuno", "Pasado de sal"
NL_LEFT, NL_RIGHT = "Rauw", "Aangebrand"
TEAMS = ["red", "blue"]  # the default teams of es and nl: colour keys (G3)

ES_ARGS = ["--lang", "es", "--seed", "7", "--players", "3", "2"]
NL_ARGS = ["--lang", "nl", "--seed", "8", "--accessible", "--target-score", "7"]




# ---------------------------------------------------------------------- dial (W7)
@pytest.mark.parametrize("said, expected", [
    # plain 15°, a little 5°, a tiny bit 1°, a lot 45°
    ("izquierda", DialCommand(MOVE, -15)),
    ("a la derecha", DialCommand(MOVE, 15)),
    ("más a la izquierda", DialCommand(MOVE, -15)),
    ("hacia la derecha", DialCommand(MOVE, 15)),
    ("un poco a la izquierda", DialCommand(MOVE, -5)),
    ("un poquito a la izquierda", DialCommand(MOVE, -5)),
    ("otro poquito a la derecha", DialCommand(MOVE, 5)),
    ("ligeramente a la derecha", DialCommand(MOVE, 5)),
    ("un pelín a la izquierda", DialCommand(MOVE, -1)),
    ("una pizca a la derecha", DialCommand(MOVE, 1)),
    ("mucho a la izquierda", DialCommand(MOVE, -45)),
    ("mucho más a la derecha", DialCommand(MOVE, 45)),
    ("gíralo un montón a la derecha", DialCommand(MOVE, 45)),
    # the card's concepts, "más <concepto>", "menos <concepto>", "hacia <concepto>"
    ("más comida de desayuno", DialCommand(MOVE, -15)),
    ("más pasado de sal", DialCommand(MOVE, 15)),
    ("menos pasado de sal", DialCommand(MOVE, -15)),
    ("hacia comida de desayuno", DialCommand(MOVE, -15)),
    ("un poquito más pasado de sal", DialCommand(MOVE, 5)),
    ("mucho más comida de desayuno", DialCommand(MOVE, -45)),
    ("más pasao de sal", DialCommand(MOVE, 15)),  # a near miss after "más" is snapped
    ("mas pasado de sal", DialCommand(MOVE, 15)),  # typed without the accent
    # absolute positions
    ("del todo a la derecha", DialCommand(SET, 180)),
    ("todo a la izquierda", DialCommand(SET, 0)),
    ("a tope a la derecha", DialCommand(SET, 180)),
    ("del todo hacia comida de desayuno", DialCommand(SET, 0)),
    ("centro", DialCommand(SET, 90)),
    ("al centro", DialCommand(SET, 90)),
    ("pon el dial en el centro", DialCommand(SET, 90)),
    ("vuelve al medio", DialCommand(SET, 90)),
    # numbers (W7: discouraged, not forbidden), accents or not
    ("diez grados a la izquierda", DialCommand(MOVE, -10)),
    ("un grado a la derecha", DialCommand(MOVE, 1)),
    ("veintidós grados a la derecha", DialCommand(MOVE, 22)),
    ("veintidos grados a la derecha", DialCommand(MOVE, 22)),
    ("tres coma cinco grados a la izquierda", DialCommand(MOVE, -3.5)),
    ("cuarenta y cinco grados", DialCommand(SET, 45)),
    ("ciento veinte grados", DialCommand(SET, 120)),
    # asking and ending
    ("¿dónde está?", DialCommand(WHERE)),
    ("donde esta", DialCommand(WHERE)),
    ("dónde está el dial", DialCommand(WHERE)),
    ("fíjalo", DialCommand(LOCK)),
    ("fijalo", DialCommand(LOCK)),
    ("vale, fíjalo", DialCommand(LOCK)),
    ("fíjalo, por favor", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("vale", DialCommand(LOCK)),
    ("listo", DialCommand(LOCK)),
    ("déjalo ahí", DialCommand(LOCK)),
    ("dejalo ahi", DialCommand(LOCK)),
    ("ahí está bien", DialCommand(LOCK)),
    ("vale, un poco a la izquierda", DialCommand(MOVE, -5)),  # "vale" before a move is only a filler
    # the diminutives of the 1° words are 1° too
    ("un pelito a la izquierda", DialCommand(MOVE, -1)),
    ("una chispa a la derecha", DialCommand(MOVE, 1)),
    # a negative number is refused (the host says why), never turned into a move
    ("derecha menos veinte", DialCommand(NEGATIVE, -20)),
    ("menos veinte grados a la izquierda", DialCommand(NEGATIVE, -20)),
])
def test_spanish_dial(said, expected):
    assert ES.dial_command(said, ES_LEFT, ES_RIGHT) == expected


@pytest.mark.parametrize("said, expected", [
    ("links", DialCommand(MOVE, -15)),
    ("naar rechts", DialCommand(MOVE, 15)),
    ("meer naar links", DialCommand(MOVE, -15)),
    ("een beetje naar rechts", DialCommand(MOVE, 5)),
    ("een klein beetje naar links", DialCommand(MOVE, -5)),
    ("iets naar rechts", DialCommand(MOVE, 5)),
    ("naar links een beetje", DialCommand(MOVE, -5)),  # free word order
    ("zet de wijzer een beetje naar links", DialCommand(MOVE, -5)),
    ("een tikje naar links", DialCommand(MOVE, -1)),
    ("een heel klein beetje naar rechts", DialCommand(MOVE, 1)),
    ("een stuk naar rechts", DialCommand(MOVE, 45)),
    ("veel meer naar links", DialCommand(MOVE, -45)),
    ("meer rauw", DialCommand(MOVE, -15)),
    ("minder rauw", DialCommand(MOVE, 15)),
    ("richting aangebrand", DialCommand(MOVE, 15)),
    ("iets meer aangebrand", DialCommand(MOVE, 5)),
    ("een stuk meer rauw", DialCommand(MOVE, -45)),
    ("meer aangebrandt", DialCommand(MOVE, 15)),  # a near miss after "meer" is snapped
    ("helemaal naar rechts", DialCommand(SET, 180)),
    ("helemaal naar rauw", DialCommand(SET, 0)),
    ("midden", DialCommand(SET, 90)),
    ("naar het midden", DialCommand(SET, 90)),
    ("zet hem in het midden", DialCommand(SET, 90)),
    ("tien graden naar links", DialCommand(MOVE, -10)),
    ("een graad naar rechts", DialCommand(MOVE, 1)),
    ("tweeëntwintig graden naar rechts", DialCommand(MOVE, 22)),
    ("tweeentwintig graden naar rechts", DialCommand(MOVE, 22)),  # without the diaeresis
    ("drie komma vijf graden naar links", DialCommand(MOVE, -3.5)),
    ("vijfenveertig graden", DialCommand(SET, 45)),
    ("honderdtwintig graden", DialCommand(SET, 120)),
    ("waar staat hij?", DialCommand(WHERE)),
    ("waar staat de wijzer", DialCommand(WHERE)),
    ("vastzetten", DialCommand(LOCK)),
    ("oké, vastzetten", DialCommand(LOCK)),
    ("oke vastzetten", DialCommand(LOCK)),
    ("zet hem vast", DialCommand(LOCK)),
    # what a table naturally says to lock the dial
    ("klaar", DialCommand(LOCK)),
    ("prima", DialCommand(LOCK)),
    ("zo is het goed", DialCommand(LOCK)),
    ("oké, zo is het goed", DialCommand(LOCK)),
    # "een tikkeltje" is as small as "een tikje" (1°)
    ("een tikkeltje naar links", DialCommand(MOVE, -1)),
    ("een tikkeltje meer aangebrand", DialCommand(MOVE, 1)),
    # a negative number is refused (the host says why), never turned into a move
    ("rechts min twintig", DialCommand(NEGATIVE, -20)),
])
def test_dutch_dial(said, expected):
    assert NL.dial_command(said, NL_LEFT, NL_RIGHT) == expected


@pytest.mark.parametrize("lang, said", [
    ("es", "plátano"), ("es", ""), ("es", "izquierda derecha"), ("es", "un poco mucho a la izquierda"),
    ("es", "más comida de desayuno hacia pasado de sal"), ("es", "del todo a la izquierda diez grados"),
    ("es", "menos izquierda"), ("es", "hola izquierda"), ("es", "diez grados veinte"),
    ("nl", "banaan"), ("nl", ""), ("nl", "links rechts"), ("nl", "een beetje een stuk naar links"),
    ("nl", "meer rauw richting aangebrand"), ("nl", "helemaal naar links tien graden"),
    ("nl", "minder links"), ("nl", "hallo links"), ("nl", "tien graden twintig"),
])
def test_dial_nonsense_is_not_understood(lang, said):
    left, right = (ES_LEFT, ES_RIGHT) if lang == "es" else (NL_LEFT, NL_RIGHT)
    with pytest.raises(NotUnderstood):
        UNDERSTANDING[lang].dial_command(said, left, right)


@pytest.mark.parametrize("lang, moves", [
    ("es", ("un pelín a la izquierda", "un poco a la izquierda", "izquierda", "mucho a la izquierda")),
    ("nl", ("een tikje naar links", "een beetje naar links", "links", "een stuk naar links")),
])
def test_step_sizes_are_the_documented_ones(lang, moves):
    """The steps taught in the instructions: 1°, 5°, 15°, 45° (W7)."""
    w = UNDERSTANDING[lang]
    assert [w.dial_command(m, "A", "B") for m in moves] == [DialCommand(MOVE, -d) for d in (1, 5, 15, 45)]


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_every_concept_of_the_deck_moves_the_dial_its_way(lang):
    """W7 on the whole built-in deck: "<cue> left concept" turns left, "<less> right concept" too."""
    w = UNDERSTANDING[lang]
    more, less = w.grammar_cues[0], sorted(w.less_words)[0]
    bad = []
    for card in load_deck(None, lang):
        for left, right in card.sides:
            got = (w.dial_command(f"{more} {left}", left, right), w.dial_command(f"{less} {right}", left, right),
                   w.dial_command(f"{more} {right}", left, right))
            if got != (DialCommand(MOVE, -15), DialCommand(MOVE, -15), DialCommand(MOVE, 15)):
                bad.append((left, right, got))
    assert bad == []


# ---------------------------------------------------------------------- call (W5)
@pytest.mark.parametrize("said, expected", [
    ("izquierda", Call("left", None)),
    ("azul, izquierda", Call("left", 1)),
    ("azul dice derecha", Call("right", 1)),
    ("equipo azul, a la derecha", Call("right", 1)),
    ("los azules dicen izquierda", Call("left", 1)),
    ("azul, más pasado de sal", Call("right", 1)),
    ("el equipo azul dice que más comida de desayuno", Call("left", 1)),
    ("creemos que está a la izquierda", Call("left", None)),
    ("rojo dice izquierda", Call("left", 0)),
    ("roja, derecha", Call("right", 0)),
    ("paso", Call(None, None)),
    ("azul pasa", Call(None, 1)),
    ("nosotros pasamos", Call(None, None)),
])
def test_spanish_calls(said, expected):
    assert ES.call(said, ES_LEFT, ES_RIGHT, TEAMS) == expected


@pytest.mark.parametrize("said, expected", [
    ("links", Call("left", None)),
    ("blauw, links", Call("left", 1)),
    ("blauw zegt rechts", Call("right", 1)),
    ("team blauw links", Call("left", 1)),
    ("blauw, meer rauw", Call("left", 1)),
    ("wij denken dat het links ligt", Call("left", None)),
    ("ik denk meer aangebrand", Call("right", None)),
    ("rood zegt links", Call("left", 0)),
    ("pas", Call(None, None)),
    ("blauw zegt pas", Call(None, 1)),
    ("we passen", Call(None, None)),
])
def test_dutch_calls(said, expected):
    assert NL.call(said, NL_LEFT, NL_RIGHT, TEAMS) == expected


@pytest.mark.parametrize("lang, said", [
    ("es", "azul"), ("es", "hola"), ("es", "azul rojo izquierda"), ("es", "izquierda derecha"), ("es", "fíjalo"),
    ("nl", "blauw"), ("nl", "hallo"), ("nl", "blauw rood links"), ("nl", "links rechts"), ("nl", "vastzetten"),
])
def test_call_nonsense_is_not_understood(lang, said):
    left, right = (ES_LEFT, ES_RIGHT) if lang == "es" else (NL_LEFT, NL_RIGHT)
    with pytest.raises(NotUnderstood):
        UNDERSTANDING[lang].call(said, left, right, TEAMS)


def test_a_concept_holding_a_colour_is_the_concept():
    """Concepts are matched before team names: "Rojo pasión" is a concept, not the red team."""
    assert ES.call("rojo pasión", "Rojo pasión", "Gris ratón", TEAMS) == Call("left", None)
    assert ES.call("azul, más rojo pasión", "Rojo pasión", "Gris ratón", TEAMS) == Call("left", 1)
    assert NL.call("blauw, meer rood licht", "Rood licht", "Groen licht", TEAMS) == Call("left", 1)


def test_given_team_names_are_matched_as_said():
    assert ES.call("tiburones, izquierda", ES_LEFT, ES_RIGHT, ["Tiburones", "Delfines"]) == Call("left", 0)
    assert NL.call("dolfijnen zegt rechts", NL_LEFT, NL_RIGHT, ["Haaien", "Dolfijnen"]) == Call("right", 1)


# ---------------------------------------------------------------------- turn words (W8)
@pytest.mark.parametrize("lang, said, other_side, redo", [
    ("es", "otro lado", True, False), ("es", "dale la vuelta", True, False), ("es", "la otra cara", True, False),
    ("es", "rehacer", False, True), ("es", "otra carta", False, True), ("es", "el otro lado de la luna", False, False),
    ("nl", "andere kant", True, False), ("nl", "draai de kaart om", True, False), ("nl", "overdoen", False, True),
    ("nl", "nieuwe kaart", False, True), ("nl", "de andere kant van de maan", False, False),
])
def test_turn_words(lang, said, other_side, redo):
    w = UNDERSTANDING[lang]
    assert w.is_other_side(said) is other_side
    assert w.is_redo(said) is redo


def test_turn_words_are_not_global_commands():
    """A Wavelength phrase must not be swallowed by a global command of the same language."""
    for w in (ES, NL):
        phrases = [*w.raw["lock"], *w.raw["where"], *w.raw["centre"], *w.other_side_raw, *w.redo_raw, *w.pass_raw]
        assert [p for p in phrases if w.core.command(p)] == []


# ---------------------------------------------------------------------- grammar and vocabulary
def test_grammars_hold_the_phrases_with_their_accents():
    dial = set(ES.dial_phrases(ES_LEFT, ES_RIGHT))
    assert {"izquierda", "un poquito a la izquierda", "más comida de desayuno", "menos pasado de sal",
            "del todo a la derecha", "del todo hacia pasado de sal", "fíjalo", "dónde está", "grados"} <= dial
    call = set(ES.call_phrases(ES_LEFT, ES_RIGHT, TEAMS))
    assert {"azul izquierda", "azul dice derecha", "los azules más pasado de sal", "paso", "rojo derecha"} <= call
    dial = set(NL.dial_phrases(NL_LEFT, NL_RIGHT))
    assert {"links", "een klein beetje naar links", "meer rauw", "helemaal naar rechts", "helemaal naar aangebrand",
            "vastzetten", "waar staat hij", "graden"} <= dial
    call = set(NL.call_phrases(NL_LEFT, NL_RIGHT, TEAMS))
    assert {"blauw links", "blauw zegt rechts", "meer aangebrand", "pas"} <= call
    assert {"izquierda", "fíjalo", "poquito", "todo", "menos"} <= ES.all_words()
    assert {"links", "vastzetten", "beetje", "helemaal", "minder"} <= NL.all_words()
    assert ES.team_vocabulary(TEAMS) == {"rojo", "roja", "rojos", "los", "azul", "azules"}
    assert NL.team_vocabulary(TEAMS) == {"rood", "blauw"}


# ---------------------------------------------------------------------- prompts
def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _flat(table: dict, prefix: str = "") -> dict[str, str]:
    out = {}
    for key, value in table.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_prompts_have_every_english_key_and_placeholder(lang):
    en = _flat(tomllib.loads((PROMPTS_DIR / "en" / "wavelength.toml").read_text("utf-8")))
    other = _flat(tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8")))
    assert sorted(set(en) ^ set(other)) == []
    assert {k: _placeholders(v) for k, v in other.items()} == {k: _placeholders(v) for k, v in en.items()}


@pytest.mark.parametrize("lang, taught", [
    ("en", ["left", "a little left", "way right", "where is it", "lock it in"]),
    ("es", ["izquierda", "un poco a la izquierda", "mucho a la derecha", "dónde está", "fijadlo"]),
    ("nl", ["links", "een beetje naar links", "een stuk naar rechts", "waar staat hij", "vastzetten"]),
])
def test_what_the_instructions_teach_is_understood(lang, taught):
    """Every dial phrase the first dial prompt, the rules and the dial help teach appears there and works."""
    prompts = tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8"))
    text = (prompts["dial_start_first"] + prompts["rules_team_2"] + prompts["help_dial"]).lower()
    w = UNDERSTANDING[lang]
    for phrase in taught:
        assert phrase in text, phrase
        assert w.dial_command(phrase, "Xenon", "Yttrium") is not None, phrase  # concepts that clash with no word


def test_degrees_are_whole_and_spoken_in_words():
    """Angles are said in whole degrees (W1); the speakable form of a decimal still works."""
    assert host.fmt_degrees(70.94, ",") == "71" and host.fmt_degrees(75.0, ",") == "75"
    assert host.fmt_degrees(70.4) == "70" and host.fmt_degrees(180.0) == "180"
    assert speakable("El objetivo está en 70,9 grados.", "es") == "El objetivo está en setenta coma nueve grados."
    assert speakable("Het doel staat op 70,9 graden.", "nl") == "Het doel staat op zeventig komma negen graden."


# ---------------------------------------------------------------------- options (G3)
def _settings(lang: str, **options) -> Settings:
    return Settings(game="wavelength", lang=lang, options=dict(options))


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_default_teams_are_colour_keys(lang):
    settings = _settings(lang)
    host.validate(settings)
    assert settings.options["teams"] == ["red", "blue"]


@pytest.mark.parametrize("lang, teams, words", [
    ("es", ["Izquierda", "Azul"], "no pueden llevar las palabras izquierda:"),
    ("es", ["Los del centro", "Azul"], "no pueden llevar las palabras centro:"),
    ("nl", ["Links", "Blauw"], "mogen de woorden links niet bevatten"),
    ("nl", ["Helemaal Top", "Blauw"], "mogen de woorden helemaal niet bevatten"),
])
def test_team_names_cannot_hold_dial_words(lang, teams, words):
    """The error is printed before the game, in the table's language (one sentence)."""
    with pytest.raises(ValueError, match=words):
        host.validate(_settings(lang, teams=teams))


def test_team_names_must_not_share_a_word():
    with pytest.raises(ValueError, match="no pueden compartir ninguna palabra"):
        host.validate(_settings("es", teams=["Gatos negros", "Gatos"]))
    host.validate(_settings("es", teams=["Gatos", "Perros"]))  # fine


# ---------------------------------------------------------------------- independent re-scoring
def wedge(dial: float, target: float) -> int:
    """W2 from scratch: 4 within 4.5°, 3 within 13.5°, 2 within 22.5°; boundaries score better."""
    d = abs(dial - target)
    return 4 if d <= 4.5 + 1e-9 else 3 if d <= 13.5 + 1e-9 else 2 if d <= 22.5 + 1e-9 else 0


def rescore(record: dict) -> dict[str, int]:
    """Totals of a team game from its record alone: wedge points, calls (W5), no call after a 4."""
    scores = dict(record["start_scores"])
    for turn in record["turns"]:
        team = turn["team"]
        other = next(t for t in record["teams"] if t != team)
        points = wedge(turn["dial"], turn["target"])
        scores[team] += points
        if turn["call"] is not None and points != 4:
            right_side = turn["target"] > turn["dial"] if turn["call"] == "right" else turn["target"] < turn["dial"]
            scores[other] += right_side
        assert turn["scores_after"] == scores, f"turn {turn['turn']}"
    return scores


FIXTURES = Path(__file__).resolve().parent / "fixtures"


mechanics_deck = partial(frozen_deck, "wavelength")  # the frozen deck, as every scripted game deals


def _play(args: list[str], script: Path, record: Path) -> tuple[int, str, str]:
    return run_cli(["play", "wavelength", "--input", str(script), "--output", "text", "--record", str(record),
                    *mechanics_deck(args), *args])


# ---------------------------------------------------------------------- golden playthroughs
def test_spanish_team_game_golden_and_rescored(tmp_path):
    record_path = tmp_path / "es.json"
    status, out, err = _play(ES_ARGS, SCRIPTS / "wavelength_es.txt", record_path)
    assert status == 0, err
    check_golden("wavelength_es", out)
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["teams"] == ["red", "blue"]  # colour keys in the record…
    assert "HOST: Equipo Rojo, empezáis. Psíquico: jugador 1." in out  # …said in Spanish (G3)
    standings = {s["name"]: s["points"] for s in record["standings"]}
    assert rescore(record) == standings == {"red": 14, "blue": 12}
    assert record["winners"] == ["red"]
    turns = record["turns"]
    assert [t["team"] for t in turns] == ["red", "blue", "red", "red", "blue", "red", "blue", "red"]
    assert turns[3]["catch_up"] and turns[2]["catch_up_follows"]  # W6
    assert [t["sudden_death"] for t in turns] == [False] * 6 + [True, True]  # W4
    assert turns[0]["card"]["side"] == 2 and turns[0]["card"]["left"] == "Rana"  # "otro lado"
    assert turns[6]["call"] is None  # "rojo paso"
    assert len(record["redos"]) == 1 and record["redos"][0]["team"] == "blue"  # W8
    assert "PRIVATE psychic: 12 grados, bastante hacia Maldición de bruja." in out
    assert "HOST: Objetivo: 12 grados." in out  # whole degrees (W1)
    assert "HOST: El dial no baja de 0 grados." in out  # "derecha menos veinte"
    assert "PLAYER: paso\nHOST: Primero el equipo: Rojo, izquierda." in out  # a bare "paso"
    assert "Un número: podéis rehacer." in out
    assert "TONE 61°" in out and "HOST: Turno 2 de nuevo, mismo Psíquico." in out
    assert "PLAYER: plátano\nPLAYER: (silence)" in out  # table talk in the dial gets no answer


def test_dutch_team_game_golden_and_rescored(tmp_path):
    record_path = tmp_path / "nl.json"
    status, out, err = _play(NL_ARGS, SCRIPTS / "wavelength_nl.txt", record_path)
    assert status == 0, err
    check_golden("wavelength_nl", out)
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["teams"] == ["red", "blue"]
    standings = {s["name"]: s["points"] for s in record["standings"]}
    assert rescore(record) == standings == {"red": 6, "blue": 8}
    assert record["winners"] == ["blue"] and record["target_score"] == 7
    turns = record["turns"]
    assert [t["team"] for t in turns] == ["red", "blue", "red", "blue"]
    assert turns[0]["card"]["left"] == "Botermes" and turns[0]["dial"] == 130.0
    assert turns[1]["call"] is None and turns[1]["clue"] == "een zwitsers zakmes"
    assert turns[3]["dial"] == 102.0  # "tweeëntwintig graden naar rechts" then 5 and 5 back
    assert len(record["redos"]) == 1 and record["redos"][0]["phase"] == "dial"  # W8 "nieuwe kaart"
    assert "HOST: 150 graden, ver richting Slagzwaard.\nPLAYER: ongedaan maken" in out
    # --accessible: every move is said; the words of where it is when it enters another band
    assert "HOST: 135 graden, richting Slagzwaard.\nPLAYER: een beetje naar links\nTONE 130°\nHOST: 130 graden." in out
    assert "PRIVATE psychic: 129 graden, richting Keukengadget." in out
    # no --players: the Psychic is chosen, then passes to the left; the same after a redo (W8)
    turn_lines = [line for line in out.splitlines() if line.startswith(("HOST: Beurt ", "HOST: Team Rood begint"))][:5]
    assert [line.split(". ", 1)[-1] for line in turn_lines] == [
        "Kies jullie Helderziende.", "Kies jullie Helderziende.",
        "HOST: Beurt 2 opnieuw, zelfde Helderziende.",
        "Helderziende: de volgende links.", "Helderziende: de volgende links.",
    ]
    assert "Vast op 150 graden?" in out
    assert "PLAYER: links\nHOST: Begin met de naam van je team, zo: Blauw, links." in out  # a bare "links"
    assert out.rstrip().endswith("HOST: Dat was Wavelength. Bedankt voor het meespelen!")  # not a calque
    # undo passes over "waar staat hij" and says where the dial is now
    assert "HOST: Ongedaan gemaakt. We doen die stap opnieuw.\nHOST: 135 graden" in out


@pytest.mark.parametrize("lang, words, points, band", [
    ("es", ["pista", "mucho a la izquierda", "fijadlo", "sí"], 9, "De 7 a 9 puntos: probad a darle un buen meneo"),
    ("nl", ["hint", "een stuk naar links", "vastzetten", "ja"], 2, "Van 0 tot 3 punten: staat het apparaat"),
])
def test_coop_game_ends_with_the_rating_in_the_language(tmp_path, lang, words, points, band):
    """W9 in both languages: 7 cards plus bonus cards, no call phase, the rating band at the end."""
    clue, move, lock, yes = words
    script = tmp_path / "coop.txt"
    script.write_text("".join(f"{clue} {i}\n{move}\n{lock}\n{yes}\n" for i in range(12)), encoding="utf-8")
    record_path = tmp_path / "coop.json"
    status, out, err = _play(["--lang", lang, "--coop", "--seed", "11", "--players", "4"], script, record_path)
    assert status == 0, err
    record = json.loads(record_path.read_text("utf-8"))
    assert record["finished"] and record["mode"] == "coop"
    total = sum(3 if abs(t["dial"] - t["target"]) <= 4.5 else wedge(t["dial"], t["target"]) for t in record["turns"])
    assert total == record["standings"][0]["points"] == points
    assert len(record["turns"]) == 7 + sum(t["bonus_card"] for t in record["turns"])
    assert all(t["call"] is None for t in record["turns"])
    assert band in out
    assert " 1 cartas" not in out and " 1 kaarten" not in out
    last = {"es": "Carta 9, la última.", "nl": "Kaart 9, de laatste."}[lang] if len(record["turns"]) == 9 else \
        {"es": ", la última.", "nl": ", de laatste."}[lang]
    one_left = {"es": "puntos; queda 1 carta.", "nl": "punten, nog 1 kaart."}[lang]
    assert last in out and one_left in out


def test_spanish_game_resumes_after_a_stop(tmp_path):
    lines = (SCRIPTS / "wavelength_es.txt").read_text("utf-8").splitlines()
    cut = lines.index("nueve grados a la izquierda") + 1  # in the dial phase of turn 3
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    rest.write_text("\n".join(lines[cut:]) + "\n", encoding="utf-8")
    record_path = tmp_path / "resumed.json"
    status, out, err = _play(ES_ARGS, first, record_path)
    assert status == 0, err
    assert out.rstrip().endswith("El guion se ha terminado, así que la partida se detiene aquí. "
                                 "El registro de la partida está guardado.")
    status, out2, err = run_cli(["resume", "--input", str(rest), "--output", "text"])
    assert status == 0, err
    assert "Bienvenidos de nuevo" in out2
    resumed = json.loads(record_path.read_text("utf-8"))
    assert resumed["finished"] and rescore(resumed) == {"red": 14, "blue": 12}


# ---------------------------------------------------------------------- vocabulary check
class VocabularyListener(ScriptListener):
    """A script listener whose "model" lacks some words (like a small Vosk model)."""

    def __init__(self, lines, missing):
        super().__init__([(i + 1, t) for i, t in enumerate(lines)])
        self.missing = set(missing)
        self.asked: set[str] = set()

    def missing_words(self, words):
        self.asked.update(words)
        return [w for w in words if w in self.missing]


def test_missing_words_are_reported_in_spanish(tmp_path):
    settings = Settings(game="wavelength", lang="es", seed=1, record=str(tmp_path / "r.json"))
    host.validate(settings)
    listener = VocabularyListener(["una pista"], missing={"fíjalo", "pelín"})
    voice = TextVoice(io.StringIO())
    assert Session(host.Host, listener, voice, VirtualClock(), settings).run() == "input_ended"
    out = voice.out.getvalue()
    assert "Aviso: el modelo de voz no conoce estas palabras, así que puede que no las oiga: fíjalo y pelín." in out
    assert {"rojo", "azul", "izquierda", "poquito", "dónde"} <= listener.asked  # team names as said, accents kept


# ---------------------------------------------------------------------- random play
BOT_WORDS = {
    "es": {"clue": ["una cosa", "otro lado", "algo raro"], "yes": "sí", "no": "no", "pass": "paso",
           "dial": ["izquierda", "derecha", "un poco a la izquierda", "mucho a la derecha", "un pelín a la izquierda",
                    "centro", "del todo a la izquierda", "dónde está", "fíjalo", "fíjalo", "rehacer"],
           "teams": ["rojo", "azul", "los azules"], "sides": ["izquierda", "derecha"]},
    "nl": {"clue": ["een ding", "andere kant", "iets vreemds"], "yes": "ja", "no": "nee", "pass": "pas",
           "dial": ["links", "rechts", "een beetje naar links", "een stuk naar rechts", "een tikje naar links",
                    "midden", "helemaal naar links", "waar staat hij", "vastzetten", "vastzetten", "overdoen"],
           "teams": ["rood", "blauw", "team blauw"], "sides": ["links", "rechts"]},
}


class BotListener:
    """Answers every listening moment with a random but legal-looking utterance in one language."""

    def __init__(self, seed: int, lang: str):
        self.rng = random.Random(seed)
        self.words = BOT_WORDS[lang]
        self.count = 0

    def listen(self, expected, timeout_s):
        self.count += 1
        if self.count > 3000:
            raise InputEnded("bot")
        r, w, m = self.rng, self.words, expected.moment
        if r.random() < 0.05:
            return Silence(timeout_s or 0.0)
        if m == "clue":
            return Heard(r.choice(w["clue"]))
        if m == "dial":
            return Heard(r.choice(w["dial"]))
        if m == "call":
            return Heard(f"{r.choice(w['teams'])} {r.choice(w['sides'])}" if r.random() < 0.8 else w["pass"])
        if m.startswith("confirm"):
            return Heard(w["yes"] if r.random() < 0.8 else w["no"])
        return Heard("plátano")


@pytest.mark.parametrize("lang, seed", [(lang, seed) for lang in ("es", "nl") for seed in range(4)])
def test_random_games_end_and_rescore(lang, seed, tmp_path):
    coop = seed == 3
    settings = Settings(game="wavelength", lang=lang, seed=seed, options={"coop": coop, "target_score": 6},
                        record=str(tmp_path / "rec.json"))
    host.validate(settings)
    session = Session(host.Host, BotListener(seed, lang), TextVoice(io.StringIO()), VirtualClock(), settings)
    assert session.run() == "finished"
    record = json.loads((tmp_path / "rec.json").read_text("utf-8"))
    if coop:
        assert len(record["turns"]) == 7 + sum(t["bonus_card"] for t in record["turns"])
    else:
        assert rescore(record) == {s["name"]: s["points"] for s in record["standings"]}
        assert set(record["teams"]) == {"red", "blue"}


# ---------------------------------------------------------------------- fixes after the playtest
def test_spanish_deck_spells_calientabanquillos():
    cards = load_deck(None, "es")
    concepts = {c for card in cards for side in card.sides for c in side}
    assert "Calientabanquillos" in concepts and "Calienta banquillo" not in concepts


@pytest.mark.parametrize("lang, mode, line", [
    ("es", "screen", "HOST: El Psíquico, lee la pantalla ahora."),
    ("nl", "screen", "HOST: De Helderziende, lees nu het scherm."),
    ("es", "earpiece:hw:1", "HOST: El Psíquico, atención al auricular."),
    ("nl", "ears", "HOST: Oren dicht, behalve de Helderziende."),
])
def test_the_psychic_is_named_with_a_capital_at_a_sentence_start(tmp_path, lang, mode, line):
    script = tmp_path / "s.txt"
    script.write_text("una pista\n" if lang == "es" else "een hint\n", encoding="utf-8")
    status, out, _ = _play(["--lang", lang, "--seed", "1", "--private", mode], script, tmp_path / "r.json")
    assert status == 0
    assert line in out


@pytest.mark.parametrize("lang, teams, first", [
    ("es", ["verde", "naranja"], "HOST: Verde, girad el dial:"),
    ("nl", ["groen", "oranje"], "HOST: Groen, draai de wijzer:"),
])
def test_given_lower_case_team_names_start_sentences_with_a_capital(tmp_path, lang, teams, first):
    script = tmp_path / "s.txt"
    script.write_text("una pista\n" if lang == "es" else "een hint\n", encoding="utf-8")
    status, out, _ = _play(["--lang", lang, "--seed", "1", "--teams", *teams], script, tmp_path / "r.json")
    assert status == 0
    assert first in out


@pytest.mark.parametrize("lang, words", [
    ("es", {"un pelín", "un pelito", "una pizca", "una chispa"}),
    ("nl", {"een tikje", "een tikkeltje", "een haartje", "een ietsiepietsie"}),
])
def test_small_step_words_are_consistent(lang, words):
    """Diminutives of a 1° word are 1° too ("een tikkeltje" = "een tikje")."""
    w = UNDERSTANDING[lang]
    side = "a la izquierda" if lang == "es" else "naar links"
    assert {m: w.dial_command(f"{m} {side}", "A", "B") for m in words} == {m: DialCommand(MOVE, -1) for m in words}


# ---------------------------------------------------------------------- fixes after the second playtest
import re  # noqa: E402

from voicegame.language.prompts import Prompts  # noqa: E402


@pytest.mark.parametrize("said", ["fijadlo", "fijadla", "fijad el dial", "vale, fijadlo", "fijadlo, por favor",
                                  "bloqueadlo", "dejadlo ahí", "dejadlo así",
                                  # the tú forms are understood too
                                  "fíjalo", "fijalo", "bloquéalo", "déjalo ahí"])
def test_spanish_lock_in_vosotros_and_tu(said):
    """The table is spoken to as vosotros: "fijadlo" locks the dial, and so does "fíjalo"."""
    assert ES.dial_command(said, ES_LEFT, ES_RIGHT) == DialCommand(LOCK)


def test_spanish_prompts_tell_the_table_fijadlo_never_fijalo():
    """Every sentence to the table says "fijadlo" (vosotros), none says "fíjalo" (tú)."""
    prompts = _flat(tomllib.loads((PROMPTS_DIR / "es" / "wavelength.toml").read_text("utf-8")))
    assert not [k for k, v in prompts.items() if re.search(r"\bf[ií]jal[oa]\b", v.lower())]
    assert all("fijadlo" in prompts[k] for k in ("rules_team_2", "dial_start_first", "dial_start_coop_first",
                                                  "help_dial", "dial_nudge", "dial_silence_centre",
                                                  "dial_silence_moved"))


@pytest.mark.parametrize("lang, said, degrees", [
    ("es", "pon el dial en 80", 80), ("es", "pon el dial en ochenta", 80), ("es", "ponlo en ochenta", 80),
    ("es", "ponedlo en ochenta", 80), ("es", "poned el dial en ciento veinte", 120),
    ("es", "ponedlo en ochenta grados", 80), ("es", "dejadlo en cuarenta", 40), ("es", "llevadlo a treinta", 30),
    ("es", "ponlo en el ochenta", 80), ("es", "en ochenta grados", 80),
    ("nl", "zet hem op tachtig", 80), ("nl", "zet de wijzer op 80", 80), ("nl", "draai hem naar honderdtwintig", 120),
])
def test_absolute_numbers_with_natural_verbs(lang, said, degrees):
    """A position said with a number and the language's own verbs sets the dial there (W7)."""
    left, right = (ES_LEFT, ES_RIGHT) if lang == "es" else (NL_LEFT, NL_RIGHT)
    assert UNDERSTANDING[lang].dial_command(said, left, right) == DialCommand(SET, degrees)


@pytest.mark.parametrize("said, expected", [
    ("giradlo un poco a la izquierda", DialCommand(MOVE, -5)), ("movedlo mucho a la derecha", DialCommand(MOVE, 45)),
    ("girad a la izquierda", DialCommand(MOVE, -15)), ("llevadlo al centro", DialCommand(SET, 90)),
    ("ponedlo del todo a la derecha", DialCommand(SET, 180)),
])
def test_spanish_moves_with_vosotros_verbs(said, expected):
    assert ES.dial_command(said, ES_LEFT, ES_RIGHT) == expected


@pytest.mark.parametrize("lang, phrase", [("es", "ponedlo en"), ("es", "ponlo en"), ("nl", "zet hem op")])
def test_the_position_verbs_are_in_the_dial_grammar(lang, phrase):
    w = UNDERSTANDING[lang]
    assert phrase in w.dial_phrases("A", "B")
    assert set(phrase.split()) <= w.all_words()


#: The word that goes before a team's name in each language ("el equipo Chicas", "team Meiden").
TEAM_WORDS = {"en": ("team", "Team"), "es": ("equipo", "Equipo"), "nl": ("team", "Team")}
TEAM_PLACEHOLDERS = re.compile(r"\{(team|caller|first|second|other|psychic_team)\}")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_team_names_never_stand_alone_as_a_subject(lang):
    """A team name may be plural ("--teams chicas chicos"): every sentence says "el equipo
    Chicas", "team Meiden", "team Girls", so the verb agrees whatever the name. A bare name is
    only allowed in a list (the welcome, the score), in the example of what to say ("Azul, izquierda")
    and where the team is spoken to ("Rojo, girad el dial"; "Azul: ¿izquierda o derecha?")."""
    prompts = _flat(tomllib.loads((PROMPTS_DIR / lang / "wavelength.toml").read_text("utf-8")))
    side = {"en": "left", "es": "izquierda", "nl": "links"}[lang]
    bare = []
    for key, template in prompts.items():
        if key in ("welcome_team", "score_item") or key.startswith("errors."):
            continue
        for m in TEAM_PLACEHOLDERS.finditer(template):
            before = template[:m.start()].rstrip().rsplit(" ", 1)[-1] if template[:m.start()].strip() else ""
            example = template[m.end():].startswith(f", {side}.")
            # a name spoken to or as a label at a sentence start ("Red, turn the dial", "Blue: left?")
            starts = not template[:m.start()].strip() or template[:m.start()].rstrip()[-1] in ".!?¿¡"
            vocative = starts and template[m.end():m.end() + 1] in (",", ":")
            if before not in TEAM_WORDS[lang] and not example and not vocative:
                bare.append((key, m.group(0)))
    assert bare == []


def _bare_name_followers(out: str, name: str, lang: str) -> set[str]:
    """What follows each mention of ``name`` that is not preceded by the language's team word."""
    followers = set()
    for m in re.finditer(rf"(\S+ )?{name}\b(\S*)( \S+)?", out):
        if m.group(1) and m.group(1).strip() in TEAM_WORDS[lang]:
            continue
        after = m.group(2) or (m.group(3) or "").strip().rstrip(".,;:!?")
        followers.add(after)
    return followers


@pytest.mark.parametrize("lang, teams, lines, said", [
    ("es", ["chicas", "chicos"], ["una pista", "mucho a la izquierda", "fijadlo", "sí", "chicos izquierda", "sí",
                                   "otra pista", "fijadlo", "sí", "chicas paso", "sí"],
     ["HOST: Equipo Chicas, empezáis.", "HOST: Chicos: izquierda.", "para el equipo Chicas.",
      "equipo Chicos", "HOST: El equipo Chicas pasa"]),
    ("nl", ["meiden", "jongens"], ["een hint", "een stuk naar links", "vastzetten", "ja", "jongens links", "ja",
                                    "nog een hint", "vastzetten", "ja", "meiden pas", "ja"],
     ["HOST: Team Meiden begint.", "HOST: Jongens: links.", "HOST: Team Jongens raadde",
      "HOST: Team Meiden past"]),
])
def test_plural_team_names_read_well(tmp_path, lang, teams, lines, said):
    """Issue: "Chicas empieza", "Chicas se lleva 3 puntos", "Chicos dice izquierda"."""
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _play(["--lang", lang, "--seed", "1", "--teams", *teams], script, tmp_path / "r.json")
    assert status == 0, err
    for sentence in said:
        assert sentence in out, sentence
    host_lines = "\n".join(line for line in out.splitlines() if not line.startswith("PLAYER"))
    for name in (t.capitalize() for t in teams):
        # bare names only in lists ("Chicas y Chicos", "Chicas 0"), spoken to ("Chicos, girad", "Chicos: ¿izquierda?")
        assert _bare_name_followers(host_lines, name, lang) <= {",", ":", "y", "en", "0", "1", "2", "3", "4"}, name


@pytest.mark.parametrize("lang, argv, sentence", [
    ("es", ["--teams", "Izquierda", "Azul"], "Los nombres de equipo no pueden llevar las palabras izquierda: "
                                             "son palabras del juego, así que elegid otros nombres."),
    ("es", ["--teams", "Gatos negros", "Gatos"], "Los dos nombres de equipo no pueden compartir ninguna palabra"),
    ("es", ["--coop", "--teams", "a", "b"], "--teams es para el juego por equipos"),
    ("es", ["--target-score", "1"], "--target-score tiene que ser un número entero de al menos 2"),
    ("es", ["--players", "1"], "--players lleva los jugadores de cada equipo"),
    ("nl", ["--teams", "Links", "Blauw"], "Teamnamen mogen de woorden links niet bevatten"),
    ("nl", ["--teams", "rood", "Rood"], "--teams heeft twee verschillende teamnamen van letters nodig."),
    ("nl", ["--coop", "--players", "1"], "Met --coop krijgt --players één getal"),
])
def test_option_errors_are_printed_in_the_tables_language(lang, argv, sentence):
    """validate() errors are printed before the game, one sentence, in the game's language."""
    status, _, err = run_cli(["play", "wavelength", "--lang", lang, "--input", "keyboard", "--output", "text", *argv])
    assert status == 2 and sentence in err
    assert "Traceback" not in err


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_option_error_has_its_sentence_in_each_language(lang):
    errors = {k for k in Prompts.load(lang).templates if k.startswith("wavelength.errors.")}
    assert errors == {f"wavelength.errors.{k}" for k in ("teams_in_coop", "target_score", "teams_letters",
                                                         "teams_reserved", "teams_share", "players_coop",
                                                         "players_team")}


def _sentence_starts(out: str) -> list[str]:
    """The first word of every sentence the host says (HOST and PRIVATE lines)."""
    starts = []
    for line in out.splitlines():
        if not line.startswith(("HOST: ", "PRIVATE ")):
            continue
        text = line.split(": ", 1)[1]
        for sentence in re.split(r"(?<=[.!?]) +", text):
            word = sentence.lstrip("¡¿\"«'")
            if word:
                starts.append(word)
    return starts


@pytest.mark.parametrize("lang, teams, lines", [
    ("es", ["chicas", "los tiburones"], ["una pista", "fijadlo", "sí", "tiburones izquierda", "sí"]),
    ("nl", ["meiden", "de haaien"], ["een hint", "vastzetten", "ja", "haaien links", "ja"]),
    ("en", ["girls", "the sharks"], ["a clue", "lock it in", "yes", "sharks left", "yes"]),
])
def test_names_are_capitalised_at_every_sentence_start(tmp_path, lang, teams, lines):
    script = tmp_path / "s.txt"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _play(["--lang", lang, "--seed", "3", "--teams", *teams], script, tmp_path / "r.json")
    assert status == 0, err
    starts = _sentence_starts(out)
    assert starts and [w for w in starts if w[:1].islower()] == []
