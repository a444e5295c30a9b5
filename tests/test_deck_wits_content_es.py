"""Content checks for the Spanish Wits & Wagers question bank.

The bank is ``prompts/es/wits_questions.csv``: RFC 4180, UTF-8, one header row
``id,question,answer,unit,source,year`` (the same layout as the English bank).
The host reads each question aloud in Spanish and players answer with whole
numbers or decimals (K2), which the host speaks with "coma"; in the file the
answer is a plain number with "." as the decimal point. A game uses 7
questions (K1), so the bank must hold enough for 50 games.

The file is parsed here with the standard :mod:`csv` module on purpose, so
these checks do not depend on the production loader (:mod:`voicegame.decks`).
"""

from __future__ import annotations

import csv
import math
import re
import string
from pathlib import Path

import numpy as np
import pytest
from num2words import num2words
from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

BANK = Path(__file__).resolve().parents[1] / "prompts" / "es" / "wits_questions.csv"
HEADER = ["id", "question", "answer", "unit", "source", "year"]
MIN_ROWS = 350
MIN_DECIMALS = 25
NEAR_DUPLICATE_SCORE = 92  # fuzz.token_sort_ratio at or above this fails
ID_RE = re.compile(r"^es-\d{4}$")
# Digits, optional leading minus, optional "." fraction; no thousands separators.
ANSWER_RE = re.compile(r"^-?\d+(\.\d+)?$")
#: The unit of every "¿En qué año…?" question.
YEAR_UNIT = "año"
YEAR_OPENING = "¿En qué año "
#: Characters that have no spoken form and would be read out literally by espeak.
UNSPEAKABLE = "()[]{}<>/\\|_*#@\t\n"


def _load() -> tuple[list[str], list[dict[str, str]]]:
    with BANK.open(newline="", encoding="utf-8") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        rows = [dict(zip(header, record, strict=True)) for record in reader]
    return header, rows


@pytest.fixture(scope="module")
def bank() -> tuple[list[str], list[dict[str, str]]]:
    return _load()


@pytest.fixture(scope="module")
def rows(bank) -> list[dict[str, str]]:
    return bank[1]


# --- structure ------------------------------------------------------------------


def test_header_is_exact(bank):
    header, _ = bank
    assert header == HEADER


def test_enough_questions_for_fifty_games(rows):
    assert len(rows) >= MIN_ROWS
    assert len(rows) >= 50 * 7


def test_every_record_has_six_fields():
    with BANK.open(newline="", encoding="utf-8") as handle:
        widths = {i: len(rec) for i, rec in enumerate(csv.reader(handle), 1) if len(rec) != len(HEADER)}
    assert widths == {}, f"records (line: field count) with the wrong width: {widths}"


def test_every_field_is_non_empty_and_trimmed(rows):
    bad = [(r["id"], k) for r in rows for k in HEADER if not r[k] or r[k] != r[k].strip()]
    assert bad == [], f"empty or untrimmed fields: {bad}"


def test_ids_are_well_formed_and_unique(rows):
    ids = [r["id"] for r in rows]
    malformed = [i for i in ids if not ID_RE.match(i)]
    assert malformed == []
    assert len(set(ids)) == len(ids), "duplicate ids"


# --- answers, units, years ------------------------------------------------------------


def test_answers_are_plain_numbers_with_a_decimal_point(rows):
    bad = [(r["id"], r["answer"]) for r in rows if not ANSWER_RE.match(r["answer"])]
    assert bad == [], f"answers that are not plain numbers: {bad}"
    for r in rows:
        assert math.isfinite(float(r["answer"])), r["id"]
        assert "," not in r["answer"] and " " not in r["answer"], r["id"]


def test_years_are_integers_in_range(rows):
    bad = []
    for r in rows:
        try:
            year = int(r["year"])
        except ValueError:
            bad.append((r["id"], r["year"]))
            continue
        if not 1 <= year <= 2026:
            bad.append((r["id"], r["year"]))
    assert bad == [], f"bad year column: {bad}"


def test_year_answers_are_whole_years_not_after_their_year_column(rows):
    for r in rows:
        if r["unit"] == YEAR_UNIT:
            assert ANSWER_RE.match(r["answer"]) and "." not in r["answer"], r["id"]
            assert 1 <= int(r["answer"]) <= int(r["year"]), r["id"]


def test_year_questions_and_year_unit_go_together(rows):
    """"¿En qué año…?" is answered in ``año``, and ``año`` only answers that question."""
    bad = [r["id"] for r in rows if r["question"].startswith(YEAR_OPENING) != (r["unit"] == YEAR_UNIT)]
    assert bad == []


def test_units_are_short_words(rows):
    bad = [
        (r["id"], r["unit"])
        for r in rows
        if len(r["unit"].split()) > 5 or any(ch.isdigit() for ch in r["unit"])
    ]
    assert bad == []


def test_enough_decimal_answers(rows):
    decimals = [r for r in rows if "." in r["answer"]]
    assert len(decimals) >= MIN_DECIMALS


def test_answers_span_small_to_billions(rows):
    values = [abs(float(r["answer"])) for r in rows]
    assert sum(v < 10 for v in values) >= 20
    assert sum(v >= 1_000_000 for v in values) >= 10
    assert any(v >= 1_000_000_000 for v in values)


# --- questions as spoken sentences ---------------------------------------------------------


def test_questions_are_single_spoken_spanish_questions(rows):
    bad = [
        r["id"]
        for r in rows
        if not r["question"].startswith("¿")
        or not r["question"].endswith("?")
        or r["question"].count("¿") != 1
        or r["question"].count("?") != 1
        or not r["question"][1].isupper()
        or any(ch in r["question"] for ch in UNSPEAKABLE)
    ]
    assert bad == [], f"questions that do not read aloud as a single question: {bad}"


def test_questions_spell_numbers_out(rows):
    """Numbers in a question are written as words, as the host will say them."""
    bad = [r["id"] for r in rows if any(ch.isdigit() for ch in r["question"])]
    assert bad == []


def _gives_away(question: str, answer: str) -> bool:
    """True if a whole-number answer appears, spelled out in Spanish, in the question."""
    value = float(answer)
    if not value.is_integer():
        return False
    words = num2words(int(value), lang="es")
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", question.lower()) is not None


def test_give_away_check_spots_a_spelled_out_answer():
    assert _gives_away("¿Cuántos jugadores hay en un equipo de rugby a quince?", "15")
    assert not _gives_away("¿Cuántos huesos tiene el cuerpo humano?", "206")
    assert not _gives_away("¿Cuántas vueltas hay en diez mil metros?", "25")


def test_no_question_gives_its_answer_away(rows):
    bad = [r["id"] for r in rows if _gives_away(r["question"], r["answer"])]
    assert bad == []


# --- duplicates ------------------------------------------------------------------------


def _normalise(text: str) -> str:
    stripped = text.lower().translate(str.maketrans("", "", string.punctuation + "¿¡"))
    return " ".join(stripped.split())


def test_normalise_ignores_case_and_punctuation():
    assert _normalise("¿Cuántos metros, de media, mide?") == _normalise("cuántos metros de media mide")


def test_no_exact_duplicate_questions(rows):
    seen: dict[str, str] = {}
    dupes = []
    for r in rows:
        key = _normalise(r["question"])
        if key in seen:
            dupes.append((seen[key], r["id"]))
        seen.setdefault(key, r["id"])
    assert dupes == [], f"duplicate questions: {dupes}"


def test_no_near_duplicate_questions(rows):
    questions = [r["question"] for r in rows]
    scores = process.cdist(
        questions,
        questions,
        scorer=fuzz.token_sort_ratio,
        processor=default_process,
        score_cutoff=NEAR_DUPLICATE_SCORE,
        dtype=np.uint8,
        workers=-1,
    )
    pairs = [
        (rows[i]["id"], rows[j]["id"], int(scores[i, j]))
        for i, j in zip(*np.nonzero(np.triu(scores, k=1)))
    ]
    assert pairs == [], f"near-duplicate questions (id, id, score): {pairs}"


def test_near_duplicate_check_catches_a_reworded_copy():
    a = "¿Cuántos huesos tiene el esqueleto de una persona adulta?"
    b = "¿Cuántos huesos tiene el esqueleto de la persona adulta?"
    c = "¿Cuántas teclas tiene un piano moderno estándar?"
    scores = process.cdist(
        [a], [b, c], scorer=fuzz.token_sort_ratio, processor=default_process,
        score_cutoff=NEAR_DUPLICATE_SCORE,
    )
    assert scores[0, 0] >= NEAR_DUPLICATE_SCORE
    assert scores[0, 1] == 0
