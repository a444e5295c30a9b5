"""The remembered grammar and word results (group 3's fixes, docs/performance.md section 3) are
keyed by everything they depend on: each equals a fresh computation, for every key asked."""

from __future__ import annotations

import csv

import pytest

from voicegame import bench
from voicegame.games.wavelength.intents import WavelengthUnderstanding, wavelength_understanding
from voicegame.games.wits.intents import WitsUnderstanding, wits_understanding
from voicegame.language.words import Understanding, fold, understanding

LANGS = ("en", "es", "nl")


@pytest.mark.parametrize("lang", LANGS)
def test_wavelength_grammars_per_pair_and_team_names(lang):
    wu = wavelength_understanding(lang)
    fresh_dial = WavelengthUnderstanding._dial_phrases.__wrapped__
    fresh_call = WavelengthUnderstanding._call_phrases.__wrapped__
    pairs = [("hot", "cold"), ("cold", "hot"), ("Grande", "pequeño"), ("hot", "dry")]
    for left, right in pairs:
        for teams in ((), ("red", "blue"), ("blue", "red"), ["green"]):
            got = wu.call_phrases(left, right, teams)
            assert got == list(fresh_call(wu, left, right, tuple(teams)))
            got.append("changed")  # the caller's own list
            assert "changed" not in wu.call_phrases(left, right, teams)
        got = wu.dial_phrases(left, right)
        assert got == list(fresh_dial(wu, left, right))
        got.clear()
        assert wu.dial_phrases(left, right)
    assert wu.dial_phrases("hot", "cold") != wu.dial_phrases("hot", "dry")
    assert wu.call_phrases("hot", "cold", ("red",)) != wu.call_phrases("hot", "cold", ("blue",))


@pytest.mark.parametrize("lang", LANGS)
def test_wits_scales_and_words_per_question_unit_and_players(lang):
    wu = wits_understanding(lang)
    fresh_scale = WitsUnderstanding.question_scale.__wrapped__
    fresh_words = WitsUnderstanding._words.__wrapped__
    bank = bench.SCRIPTS_DIR / ("wits_bank.csv" if lang == "en" else f"wits_bank_{lang}.csv")
    with bank.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    pairs = [(r["question"], r["unit"]) for r in rows] + [("How many million square kilometres?", ""),
                                                          ("", "million square kilometres"), ("", "")]
    for question, unit in pairs:
        for q, u in ((question, unit), (question, ""), ("", unit)):
            assert wu.question_scale(q, u) == fresh_scale(wu, q, u)
    assert wu.question_scale("", "million square kilometres") != wu.question_scale("", "") or lang != "en"
    for text in ["blue's guess is 2009", "rojo dice 2009", "rood moet 2009 zijn", "red, twenty kilometres"]:
        for players in ((), ("red", "blue"), ["blue"], ("Ana", "red")):
            got = wu.words(text, players)
            assert got == list(fresh_words(wu, text, tuple(players)))
            got.append("changed")
            assert "changed" not in wu.words(text, players)

def test_fold_remembered_equals_fresh():
    for text in ["puntuación", "één", "año", "Ünïcödé", "", "plain"]:
        assert fold(text) == fold.__wrapped__(text)
    assert fold("año") == "ano"


@pytest.mark.parametrize("lang", LANGS)
def test_yes_no_remembered_equals_fresh(lang):
    u = understanding(lang)
    fresh = Understanding.yes_no.__wrapped__
    for text in [*u.yes_words, *u.no_words, "not sure", "klopt niet", "sí, claro", "", "yes no", "blue"]:
        assert u.yes_no(text) == fresh(u, text)
    assert u.yes_no(u.yes_words[0]) is True and u.yes_no(u.no_words[0]) is False
