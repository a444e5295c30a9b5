"""Content checks for the Dutch Wits & Wagers question bank.

The bank is ``prompts/nl/wits_questions.csv``: RFC 4180, UTF-8, one header row
``id,question,answer,unit,source,year``, ids ``nl-0001``…. Each question is read
aloud by the host in Dutch (K2: players answer with whole numbers or decimals,
said with "komma"), so the answer must be a plain number with "." as the decimal
point in the file and the question a spoken sentence ending in "?". A game uses
7 questions (K1); the bank must hold enough for 50 games.

Units are short Dutch words. ``jaar`` is reserved for calendar years (the host
does not speak it after the answer); durations use ``jaren``, ``jaar oud``,
``aardse jaren`` and the like.
"""

from __future__ import annotations

import csv
import math
import re
import string
from pathlib import Path

import numpy as np
import pytest
from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

BANK = Path(__file__).resolve().parents[1] / "prompts" / "nl" / "wits_questions.csv"
HEADER = ["id", "question", "answer", "unit", "source", "year"]
MIN_ROWS = 350
MIN_DECIMALS = 25
NEAR_DUPLICATE_SCORE = 92  # fuzz.token_sort_ratio at or above this fails
ID_RE = re.compile(r"^nl-\d{4}$")
# Digits, optional leading minus, optional "." fraction; no thousands separators.
ANSWER_RE = re.compile(r"^-?\d+(\.\d+)?$")
YEAR_UNIT = "jaar"
YEAR_QUESTION_RE = re.compile(r"^In welk jaar\b")


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


def test_answers_are_plain_numbers(rows):
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


def test_in_welk_jaar_questions_use_the_year_unit(rows):
    bad = [r["id"] for r in rows if YEAR_QUESTION_RE.match(r["question"]) and r["unit"] != YEAR_UNIT]
    assert bad == [], f'"In welk jaar" questions without unit "{YEAR_UNIT}": {bad}'


def test_units_are_short_words(rows):
    # Spoken after the answer ("achtduizend meter"): a few words, no digits.
    bad = [
        (r["id"], r["unit"])
        for r in rows
        if len(r["unit"].split()) > 4 or any(ch.isdigit() for ch in r["unit"])
    ]
    assert bad == [], f"units that are not a few spoken words: {bad}"


def test_questions_are_speakable_sentences(rows):
    bad = [
        r["id"]
        for r in rows
        if not r["question"].endswith("?")
        or not r["question"][0].isupper()
        or any(ch in r["question"] for ch in "()[]{}<>/\\|_*#@\t\n")
    ]
    assert bad == [], f"questions that do not read aloud as a single question: {bad}"


def test_questions_have_no_numbers_with_separators(rows):
    # "1.000" or "3,5" in Dutch text is ambiguous for the speech layer; spell such numbers out.
    bad = [r["id"] for r in rows if re.search(r"\d[.,]\d", r["question"])]
    assert bad == [], f"questions with grouped or decimal digits: {bad}"


def test_enough_decimal_answers(rows):
    decimals = [r for r in rows if "." in r["answer"]]
    assert len(decimals) >= MIN_DECIMALS


def test_answers_span_small_to_billions(rows):
    values = [abs(float(r["answer"])) for r in rows]
    assert sum(v < 10 for v in values) >= 20
    assert sum(v >= 1_000_000 for v in values) >= 10
    assert any(v >= 1_000_000_000 for v in values)


def _normalise(text: str) -> str:
    stripped = text.lower().translate(str.maketrans("", "", string.punctuation))
    return " ".join(stripped.split())


def test_no_exact_duplicate_questions(rows):
    seen: dict[str, str] = {}
    dupes = []
    for r in rows:
        key = _normalise(r["question"])
        if key in seen:
            dupes.append((seen[key], r["id"]))
        seen.setdefault(key, r["id"])
    assert dupes == [], f"duplicate questions: {dupes}"


def test_normalise_ignores_case_and_punctuation():
    assert _normalise("Hoe hoog, in meter, is hij?") == _normalise("hoe hoog in meter is hij")


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
    a = "Uit hoeveel botten bestaat het skelet van een volwassen mens?"
    b = "Uit hoeveel botten bestaat het skelet van een volwassene?"
    c = "Hoeveel toetsen heeft een moderne standaardpiano?"
    scores = process.cdist(
        [a], [b, c], scorer=fuzz.token_sort_ratio, processor=default_process,
        score_cutoff=NEAR_DUPLICATE_SCORE,
    )
    assert scores[0, 0] >= NEAR_DUPLICATE_SCORE
    assert scores[0, 1] == 0
