"""Every answer of every bank, as the host's voice says it: a number is a year only where the
question asks for a year ("In what year…?" → "nineteen sixty-nine"); every other quantity is a
quantity ("1,500 dollars" → "one thousand, five hundred dollars", never "fifteen hundred")."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from num2words import num2words

from voicegame.adapters.headless import ScriptListener, TextVoice, VirtualClock
from voicegame.engine.table import Settings, Table
from voicegame.games.wits.deck import Question, load_bank
from voicegame.games.wits.host import Host, validate
from voicegame.language.prompts import load_toml
from voicegame.language.speakable import speakable

LANGS = ("en", "es", "nl")


@pytest.fixture(scope="module")
def hosts(tmp_path_factory) -> dict[str, Host]:
    out = {}
    for lang in LANGS:
        bank = Path(tmp_path_factory.mktemp(lang)) / "bank.csv"
        bank.write_text("id,question,answer,unit,source,year\nq,?,1,,,\n", encoding="utf-8")
        settings = Settings(game="wits", lang=lang, seed=1, timer_s=None,
                            options={"players": ["red", "blue"], "questions": str(bank), "count": 1})
        validate(settings)
        out[lang] = Host(Table(ScriptListener([]), TextVoice(io.StringIO()), VirtualClock(), settings))
    return out


def spoken_answer(host: Host, q: Question, lang: str) -> str:
    return speakable(host.value_text(q, q.answer), lang)


def _genderless(words: str) -> str:
    """Spanish agreement left out: "setenta y un kilómetros", "doscientas personas"."""
    return re.sub(r"\bun[oa]?\b", "un", re.sub(r"ient[oa]s\b", "ientos", re.sub(r"iun[oa]?\b|iún\b", "iun", words)))


def _year_words(value: int, lang: str) -> str:
    return num2words(value, lang=lang, to="year")


@pytest.mark.parametrize("lang", LANGS)
def test_no_quantity_is_read_as_a_year(hosts, lang):
    host, bad, checked = hosts[lang], [], 0
    for q in load_bank(lang=lang):
        if host.asks_year(q) or not float(q.answer).is_integer() or not 1000 <= abs(q.answer) <= 9999:
            continue
        value = int(q.answer)
        said = spoken_answer(host, q, lang)
        cardinal = num2words(value, lang=lang)
        checked += 1
        if _genderless(cardinal) not in _genderless(said) or (_year_words(value, lang) != cardinal and _year_words(value, lang) in said):
            bad.append((q.id, q.answer, said))
    assert checked > 10  # the banks hold such quantities: the check is not empty
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_calendar_year_is_read_as_a_year(hosts, lang):
    host, bad = hosts[lang], []
    years = [q for q in load_bank(lang=lang) if host.asks_year(q)]
    assert len(years) > 100
    for q in years:
        said = spoken_answer(host, q, lang)
        if 1000 <= q.answer <= 2099 and _year_words(int(q.answer), lang) not in said:
            bad.append((q.id, q.answer, said))
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_answer_is_said_in_words(hosts, lang):
    """No digit reaches the voice, whatever the number (decimals, negatives, millions)."""
    host = hosts[lang]
    said = {q.id: spoken_answer(host, q, lang) for q in load_bank(lang=lang)}
    bad = [(qid, text) for qid, text in said.items() if any(ch.isdigit() for ch in text)]
    assert bad == []


@pytest.mark.parametrize("lang, unit, question, said", [
    ("en", "dollars", "How many dollars does each player start with?", "one thousand, five hundred dollars"),
    ("en", "metres", "How long is the main span, in metres?", "two thousand and twenty-three metres"),
    ("es", "metros", "¿Cuántos metros mide?", "mil quinientos metros"),
    ("nl", "meter", "Hoeveel meter is het?", "duizendvijfhonderd meter"),
])
def test_a_quantity_in_the_year_range_is_a_quantity(hosts, lang, unit, question, said):
    value = 2023 if "main span" in question else 1500
    assert spoken_answer(hosts[lang], Question("x", question, value, unit), lang) == said


def _singular_key(unit: str, singular: dict) -> str | None:
    """The longest plural of ``[speech.singular]`` that starts ``unit`` as whole words."""
    keys = [k for k in singular if unit == k or unit.startswith(k + " ")]
    return max(keys, key=len) if keys else None


@pytest.mark.parametrize("lang", LANGS)
def test_every_unit_of_every_bank_is_said_in_the_singular_after_one(hosts, lang):
    """"one gram", "one time zone", "una hora", "één dag": every unit the host says after a
    number is either listed with its singular or listed as unchanged, and after exactly 1 the
    singular is what the voice says (the answer and every guess read back alike)."""
    speech = load_toml(lang, "words")["speech"]
    singular, same = speech["singular"], set(speech["same_in_singular"])
    host, bad, unlisted, checked = hosts[lang], [], set(), 0
    for q in load_bank(lang=lang):
        if host.asks_year(q):
            continue
        unit = host.spoken_unit(q)
        key = _singular_key(unit, singular)
        if key is None:
            if unit and unit not in same and q.unit not in same:
                unlisted.add(unit)
            continue
        said = speakable(host.value_text(q, 1), lang)
        checked += 1
        if not said.endswith(singular[key] + unit[len(key):]) or any(ch.isdigit() for ch in said):
            bad.append((q.id, said))
    assert unlisted == set()
    assert checked > 250  # most answers have a unit that changes
    assert bad == []


@pytest.mark.parametrize("lang, value, unit, said", [
    ("en", 1, "grams", "one gram"),
    ("en", 1, "time zones", "one time zone"),
    ("en", 21, "grams", "twenty-one grams"),
    ("en", 1.5, "hours", "one point five hours"),
    ("es", 1, "horas", "una hora"),
    ("es", 1, "husos horarios", "un huso horario"),
    ("es", 10.49, "segundos", "diez coma cuarenta y nueve segundos"),
    ("nl", 1, "tijdzones", "één tijdzone"),
    ("nl", 10.49, "seconden", "tien komma negenenveertig seconden"),
    ("en", 10.49, "seconds", "ten point four nine seconds"),
])
def test_one_is_singular_and_decimals_read_as_the_table_says_them(hosts, lang, value, unit, said):
    q = Question("x", "?", value, unit)
    assert spoken_answer(hosts[lang], q, lang) == said
