""""Where is that from?": the source of the last answer, said only when asked, in words the
host's voice can say (abbreviations spelled, English names in the host's language)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import dataclasses
import pytest

from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.games.wits.deck import load_bank
from voicegame.engine.table import Settings, Table
from voicegame.games.wits.host import Host, validate
from voicegame.games.wits.rules import start_question
from voicegame.games.wits.intents import wits_understanding

BANK = {
    "en": "id,question,answer,unit,source,year\n"
          "a,How many keys does a standard modern piano have?,88,keys,IMDb,\n"
          "b,How many strings does a standard guitar have?,6,strings,,\n",
    "es": "id,question,answer,unit,source,year\n"
          "a,¿Cuántas teclas tiene un piano moderno estándar?,88,teclas,Encyclopaedia Britannica,\n"
          "b,¿Cuántas cuerdas tiene una guitarra clásica?,6,cuerdas,,\n",
    "nl": "id,question,answer,unit,source,year\n"
          "a,Hoeveel toetsen heeft een gewone moderne piano?,88,toetsen,IMDb,\n"
          "b,Hoeveel snaren heeft een gewone gitaar?,6,snaren,,\n",
}
ASK = {"en": ["where is that from", "what's the source"], "es": ["de dónde sale eso", "cuál es la fuente"],
       "nl": ["waar komt dat vandaan", "wat is de bron"]}
SPOKEN = {"en": "I M D B", "es": "la Enciclopedia Británica", "nl": "de filmdatabank I M D B"}


def _host(lang: str, tmp_path: Path, said) -> Host:
    bank = tmp_path / f"bank_{lang}.csv"
    bank.write_text(BANK[lang], encoding="utf-8")
    settings = Settings(game="wits", lang=lang, seed=1, timer_s=None,
                        options={"players": ["red", "blue"], "questions": str(bank), "count": 2})
    validate(settings)
    table = Table(ScriptListener([(i, line) for i, line in enumerate(said, 1)]), TextVoice(io.StringIO()),
                  VirtualClock(), settings)
    host = Host(table)
    host.questions = sorted(host.questions, key=lambda q: q.id)  # "a" (with a source) first, then "b"
    return host


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_where_is_that_from_says_the_last_answers_source_and_asks_again(lang, tmp_path):
    host = _host(lang, tmp_path, [ASK[lang][0], ASK[lang][1], "20"])
    host.game = dataclasses.replace(host.game, question_index=1)  # question "a" was revealed
    host.q = start_question(host.game)
    host.ask_guess("red")
    assert host.q.guesses == {"red": 20}
    out = host.table.live_voice.out.getvalue()
    said = host.text("wits.source", source=SPOKEN[lang])
    assert out.count(said) == 2, out
    assert "IMDb" not in out and "Encyclopaedia" not in out


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_before_any_answer_and_without_a_source(lang, tmp_path):
    host = _host(lang, tmp_path, [ASK[lang][0], "7"])
    host.q = start_question(host.game)
    host.ask_guess("red")
    assert host.q.guesses == {"red": 7}
    assert host.text("wits.source_none_yet") in host.table.live_voice.out.getvalue()
    host.game = dataclasses.replace(host.game, question_index=2)  # "b", without a source, was revealed last
    assert host.source_text() == host.text("wits.source_unknown")


_MIXED = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]|&")


@pytest.mark.parametrize("lang", ["en", "es", "nl"])
def test_every_source_of_every_bank_can_be_said_by_the_voice(lang):
    """No mixed-case names ("IMDb", "ESPNcricinfo"), no "&", and a capitalised abbreviation
    only when the voice says it as a word (``[sources] words``); else it is spelled with
    spaces ("F I V B"), which the voice reads as letters of its own language."""
    wu = wits_understanding(lang)
    bad = []
    for source in sorted({q.source for q in load_bank(lang=lang)}):
        spoken = wu.spoken_source(source)
        caps = [w for w in re.findall(r"\b[A-Z]{2,}\b", spoken) if w not in wu.source_words]
        if _MIXED.search(spoken) or caps:
            bad.append((source, spoken))
    assert not bad, bad


ENGLISH = {"of", "the", "and", "for", "institute", "association", "society", "company", "world", "official",
           "survey", "household", "union", "organization", "organisation", "standards"}


@pytest.mark.parametrize("lang", ["es", "nl"])
def test_spanish_and_dutch_sources_are_said_in_the_hosts_language(lang):
    wu = wits_understanding(lang)
    english = [(s, wu.spoken_source(s)) for s in sorted({q.source for q in load_bank(lang=lang)})
               if set(re.findall(r"\w+", wu.spoken_source(s).lower())) & ENGLISH]
    assert not english, english
