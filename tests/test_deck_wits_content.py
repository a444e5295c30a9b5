"""Content checks for the Wits & Wagers question banks, one run per language.

Each bank is ``prompts/<lang>/wits_questions.csv``: RFC 4180, UTF-8, one header
row ``id,question,answer,unit,source,year``, ids ``<lang>-0001``…. The host
reads each question aloud and players answer with whole numbers or decimals
(K2; spoken with "point", "coma" or "komma"), so in the file the answer is a
plain number with "." as the decimal point and the question is one spoken
question. A game uses 7 questions (K1); every bank must hold enough for 50
games.

What differs between the languages is in :data:`LANGUAGES` at the top: the
unit of calendar-year questions (in Dutch ``jaar`` is reserved for calendar
years; durations use ``jaren``, ``jaar oud`` and the like), the Spanish opening
"¿", and the checks that only some banks pass (every Spanish number spelled
out; no question giving its answer away in words).

The files are parsed here with the standard :mod:`csv` module on purpose, so
these checks do not depend on the production loader (:mod:`voicegame.decks`).
"""

from __future__ import annotations

import csv
import math
import re
import string
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from num2words import num2words
from rapidfuzz import fuzz, process
from rapidfuzz.utils import default_process

from voicegame.language.prompts import load_toml

PROMPTS = Path(__file__).resolve().parents[1] / "voicegame" / "prompts"
HEADER = ["id", "question", "answer", "unit", "source", "year"]
MIN_ROWS = 350
MIN_DECIMALS = 25
NEAR_DUPLICATE_SCORE = 92  # fuzz.token_sort_ratio at or above this fails
# Digits, optional leading minus, optional "." fraction; no thousands separators.
ANSWER_RE = re.compile(r"^-?\d+(\.\d+)?$")
#: Characters that have no spoken form and would be read out literally by espeak.
UNSPEAKABLE = "()[]{}<>/\\|_*#@\t\n"


@dataclass(frozen=True)
class Language:
    """What the checks need to know about one language's bank."""

    code: str
    #: The unit of every calendar-year question; such answers are whole years.
    year_unit: str
    #: How a calendar-year question opens; it is always answered in :attr:`year_unit`.
    year_opening: str
    #: True if :attr:`year_unit` answers nothing but questions with :attr:`year_opening`.
    year_unit_only_after_opening: bool
    #: Units are spoken after the answer ("ocho mil metros"): at most this many words.
    max_unit_words: int
    #: The opening question mark a question starts with ("¿"), or "" if none.
    opening_mark: str
    #: True if questions must spell every number out (no digits at all).
    numbers_spelled_out: bool
    #: True if no whole-number answer may appear, spelled out, in its question.
    no_give_away: bool
    #: Two spellings of one question that must normalise alike.
    normalise_example: tuple[str, str]
    #: A question, a reworded copy the near-duplicate check must catch, and an
    #: unrelated question it must not.
    near_duplicate_example: tuple[str, str, str]

    @property
    def bank(self) -> Path:
        return PROMPTS / self.code / "wits_questions.csv"


ENGLISH = Language(
    code="en",
    year_unit="year",
    year_opening="In what year ",
    # en-0515 ("What year gives George Orwell's novel … its title?") is answered in years.
    year_unit_only_after_opening=False,
    max_unit_words=4,
    opening_mark="",
    # Years and record values are written in digits ("in 2020", "8848.86").
    numbers_spelled_out=False,
    # "ten" in "one hundred and ten metres hurdles" is not the answer 10.
    no_give_away=False,
    normalise_example=("How tall, in metres, is it?", "how tall in metres is it"),
    near_duplicate_example=(
        "How many bones are there in the adult human body?",
        "How many bones are in the adult human body?",
        "How many keys are there on a standard modern piano?",
    ),
)

SPANISH = Language(
    code="es",
    year_unit="año",
    year_opening="¿En qué año ",
    year_unit_only_after_opening=True,
    max_unit_words=5,  # "metros por segundo al cuadrado"
    opening_mark="¿",
    numbers_spelled_out=True,
    no_give_away=True,
    normalise_example=("¿Cuántos metros, de media, mide?", "cuántos metros de media mide"),
    near_duplicate_example=(
        "¿Cuántos huesos tiene el esqueleto de una persona adulta?",
        "¿Cuántos huesos tiene el esqueleto de la persona adulta?",
        "¿Cuántas teclas tiene un piano moderno estándar?",
    ),
)

DUTCH = Language(
    code="nl",
    year_unit="jaar",
    year_opening="In welk jaar ",
    # nl-0510 ("Welk jaartal draagt de roman van George Orwell … als titel?") is in jaar.
    year_unit_only_after_opening=False,
    max_unit_words=4,
    opening_mark="",
    numbers_spelled_out=False,
    no_give_away=True,
    normalise_example=("Hoe hoog, in meter, is hij?", "hoe hoog in meter is hij"),
    near_duplicate_example=(
        "Uit hoeveel botten bestaat het skelet van een volwassen mens?",
        "Uit hoeveel botten bestaat het skelet van een volwassene?",
        "Hoeveel toetsen heeft een moderne standaardpiano?",
    ),
)

LANGUAGES = {lang.code: lang for lang in (ENGLISH, SPANISH, DUTCH)}


def only(where: Callable[[Language], bool]) -> pytest.MarkDecorator:
    """Run a test for the languages whose settings satisfy ``where`` only."""
    return pytest.mark.parametrize(
        "lang", [code for code, lang in LANGUAGES.items() if where(lang)], indirect=True
    )


@cache
def read_records(path: Path) -> tuple[tuple[str, ...], ...]:
    """Every CSV record of ``path``, header included, as written."""
    with path.open(newline="", encoding="utf-8") as handle:
        return tuple(tuple(record) for record in csv.reader(handle))


def load(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and the rows (dicts keyed by the header) of a bank."""
    header, *records = read_records(path)
    return list(header), [dict(zip(header, record, strict=True)) for record in records]


def normalise(text: str) -> str:
    """Lower-cased question without punctuation (Spanish opening marks included)."""
    stripped = text.lower().translate(str.maketrans("", "", string.punctuation + "¿¡"))
    return " ".join(stripped.split())


def gives_away(question: str, answer: str, code: str) -> bool:
    """True if a whole-number answer appears, spelled out in language ``code``, in the question."""
    value = float(answer)
    if not value.is_integer():
        return False
    words = num2words(int(value), lang=code)
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", question.lower()) is not None


def near_duplicate_scores(queries: list[str], choices: list[str]) -> np.ndarray:
    """token_sort_ratio of every query against every choice; 0 below the threshold."""
    return process.cdist(
        queries,
        choices,
        scorer=fuzz.token_sort_ratio,
        processor=default_process,
        score_cutoff=NEAR_DUPLICATE_SCORE,
        dtype=np.uint8,
        workers=-1,
    )


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def lang(request) -> Language:
    return LANGUAGES[request.param]


@pytest.fixture(scope="module")
def bank(lang) -> tuple[list[str], list[dict[str, str]]]:
    return load(lang.bank)


@pytest.fixture(scope="module")
def rows(bank) -> list[dict[str, str]]:
    return bank[1]


# --- the helpers themselves ------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_normalise_ignores_case_and_punctuation(code):
    written, plain = LANGUAGES[code].normalise_example
    assert normalise(written) == normalise(plain)


@pytest.mark.parametrize(
    ("code", "question", "answer", "given_away"),
    [
        ("es", "¿Cuántos jugadores hay en un equipo de rugby a quince?", "15", True),
        ("es", "¿Cuántos huesos tiene el cuerpo humano?", "206", False),
        ("es", "¿Cuántas vueltas hay en diez mil metros?", "25", False),
        ("nl", "Hoeveel spelers staan er bij rugby vijftien in een team?", "15", True),
        ("nl", "Hoeveel botten heeft het menselijk lichaam?", "206", False),
        ("nl", "Hoeveel rondes zijn er in de tien kilometer?", "25", False),
    ],
    ids=["es-given", "es-absent", "es-other-number", "nl-given", "nl-absent", "nl-other-number"],
)
def test_give_away_check_spots_a_spelled_out_answer(code, question, answer, given_away):
    assert gives_away(question, answer, code) is given_away


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_near_duplicate_check_catches_a_reworded_copy(code):
    question, copy, unrelated = LANGUAGES[code].near_duplicate_example
    scores = near_duplicate_scores([question], [copy, unrelated])
    assert scores[0, 0] >= NEAR_DUPLICATE_SCORE
    assert scores[0, 1] == 0


# --- structure ------------------------------------------------------------------------


def test_header_is_exact(bank):
    header, _ = bank
    assert header == HEADER


def test_enough_questions_for_fifty_games(rows):
    assert len(rows) >= MIN_ROWS
    assert len(rows) >= 50 * 7


def test_every_record_has_six_fields(lang):
    records = enumerate(read_records(lang.bank), 1)
    widths = {i: len(rec) for i, rec in records if len(rec) != len(HEADER)}
    assert widths == {}, f"records (line: field count) with the wrong width: {widths}"


def test_every_field_is_non_empty_and_trimmed(rows):
    """Every field is filled, except the year of a timeless fact (a cat's teeth, a unit's size):
    an empty year says the figure holds for every year, where a year would be a placeholder."""
    bad = [(r["id"], k) for r in rows for k in HEADER
           if (not r[k] and k != "year") or r[k] != r[k].strip()]
    assert bad == [], f"empty or untrimmed fields: {bad}"


def test_ids_are_well_formed_and_unique(lang, rows):
    id_re = re.compile(rf"^{lang.code}-\d{{4}}$")
    ids = [r["id"] for r in rows]
    malformed = [i for i in ids if not id_re.match(i)]
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
        if not r["year"]:  # a timeless fact
            continue
        try:
            year = int(r["year"])
        except ValueError:
            bad.append((r["id"], r["year"]))
            continue
        if not 1 <= year <= 2026:
            bad.append((r["id"], r["year"]))
    assert bad == [], f"bad year column: {bad}"


def test_year_answers_are_whole_years_not_after_their_year_column(lang, rows):
    for r in rows:
        if asks_calendar_year(r, lang.code):
            assert ANSWER_RE.match(r["answer"]) and "." not in r["answer"], r["id"]
            assert r["year"], r["id"]
            assert 1 <= int(r["answer"]) <= int(r["year"]), r["id"]


def asks_calendar_year(row: dict[str, str], code: str) -> bool:
    """The row asks for a calendar year: the year unit and a year question ("In what year…?",
    "Welk jaartal…?"), as the host decides; "Hoeveel jaar slaapt…?" in "jaar" is a duration."""
    phrases = load_toml(code, "words_wits")["units"]["year_question"]
    return row["unit"] == LANGUAGES[code].year_unit and any(p in row["question"].lower() for p in phrases)


def said_year(year: int, code: str) -> str:
    """How a question names a year: digits in English and Dutch, words in Spanish."""
    return num2words(year, lang="es") if code == "es" else str(year)


def test_a_calendar_year_answer_is_its_own_year(lang, rows):
    """The year of an "In what year…?" question is the answer itself, unless the question is
    one that changes and says its "as of" year ("the most recent Elfstedentocht, as of 2024")."""
    bad = [r["id"] for r in rows if asks_calendar_year(r, lang.code) and r["year"] != r["answer"]
           and said_year(int(r["year"]), lang.code) not in r["question"].lower()]
    assert bad == [], f"year questions whose year column is not their answer: {bad}"


#: From this year on a figure is an "as of" figure (it may change after): the question says the year.
AS_OF_FROM = 2024


def test_an_as_of_year_is_said_in_the_question(lang, rows):
    """No placeholder years: a row whose year is recent (the figure as it stood then: members,
    records, titles so far) names that year in the question, so the table hears "as of 2024"."""
    bad = [(r["id"], r["year"]) for r in rows if r["year"] and int(r["year"]) >= AS_OF_FROM
           and said_year(int(r["year"]), lang.code) not in r["question"].lower()]
    assert bad == [], f"recent years the question does not say: {bad}"


@pytest.mark.parametrize(("code", "question"), [
    ("en", "As of 2024, how many member states does the United Nations have?"),
    ("es", "¿Cuántos Estados miembros tiene la ONU, según datos de dos mil veinticuatro?"),
    ("nl", "Hoeveel lijnen telt de Londense metro, volgens de stand van 2024?"),
])
def test_said_year_finds_the_as_of_year(code, question):
    assert said_year(2024, code) in question.lower()


def test_year_questions_use_the_year_unit(lang, rows):
    bad = [r["id"] for r in rows if r["question"].startswith(lang.year_opening) and r["unit"] != lang.year_unit]
    assert bad == [], f'"{lang.year_opening}…" questions without unit "{lang.year_unit}": {bad}'


@only(lambda lang: lang.year_unit_only_after_opening)
def test_year_unit_answers_only_year_questions(lang, rows):
    bad = [r["id"] for r in rows if r["unit"] == lang.year_unit and not r["question"].startswith(lang.year_opening)]
    assert bad == [], f'unit "{lang.year_unit}" on questions not opening "{lang.year_opening}": {bad}'


def test_units_are_short_words(lang, rows):
    bad = [
        (r["id"], r["unit"])
        for r in rows
        if len(r["unit"].split()) > lang.max_unit_words or any(ch.isdigit() for ch in r["unit"])
    ]
    assert bad == [], f"units that are not a few spoken words: {bad}"


def test_no_question_has_a_sentence_over_25_words(lang, rows):
    """The host reads the question whole, in the opening too: no sentence of it over the voice
    budget's 25 words (es-0187 had 26, and with the seats an untimed opening could not keep 40)."""
    from voicegame.language.budget import SENTENCE_WORDS, sentences, words

    bad = [(r["id"], words(s)) for r in rows for s in sentences(r["question"]) if words(s) > SENTENCE_WORDS]
    assert bad == [], f"questions with a sentence over {SENTENCE_WORDS} words: {bad}"


def test_enough_decimal_answers(rows):
    decimals = [r for r in rows if "." in r["answer"]]
    assert len(decimals) >= MIN_DECIMALS


def test_answers_span_small_to_billions(rows):
    values = [abs(float(r["answer"])) for r in rows]
    assert sum(v < 10 for v in values) >= 20
    assert sum(v >= 1_000_000 for v in values) >= 10
    assert any(v >= 1_000_000_000 for v in values)


# --- questions as spoken sentences ---------------------------------------------------------


def test_questions_are_single_spoken_questions(lang, rows):
    mark = lang.opening_mark

    def bad_question(question: str) -> bool:
        return (
            not question.startswith(mark)
            or (mark and question.count(mark) != 1)
            or not question.endswith("?")
            or question.count("?") != 1
            or not question[len(mark)].isupper()
            or any(ch in question for ch in UNSPEAKABLE)
        )

    bad = [r["id"] for r in rows if bad_question(r["question"])]
    assert bad == [], f"questions that do not read aloud as a single question: {bad}"


def test_questions_have_no_numbers_with_separators(rows):
    # "1.000" or "3,5" is ambiguous for the speech layer; spell such numbers out.
    bad = [r["id"] for r in rows if re.search(r"\d[.,]\d", r["question"])]
    assert bad == [], f"questions with grouped or decimal digits: {bad}"


@only(lambda lang: lang.numbers_spelled_out)
def test_questions_spell_numbers_out(rows):
    """Numbers in a question are written as words, as the host will say them."""
    bad = [r["id"] for r in rows if any(ch.isdigit() for ch in r["question"])]
    assert bad == []


@only(lambda lang: lang.no_give_away)
def test_no_question_gives_its_answer_away(lang, rows):
    bad = [r["id"] for r in rows if gives_away(r["question"], r["answer"], lang.code)]
    assert bad == []


def year_gives_away(question: str, answer: str, unit: str, year: str, code: str) -> bool:
    """True if a year the question says holds the answer in its spoken words: "dos mil
    veinticuatro" says "cuatro" and "dos", "tweeduizend vierentwintig" says "twee", "vier" and
    "vierentwintig", "twenty twenty-four" says "four" and "twenty-four". The decade or century
    said in every year of it ("twenty", "veinti-", "-twintig") is not counted: a table hears it
    in every year of the 2020s and does not take it for a clue."""
    value = float(answer)
    if not value.is_integer() or unit == LANGUAGES[code].year_unit or not 0 < value < 100:
        return False
    said = [int(y) for y in re.findall(r"(?<!\d)(1\d{3}|20\d{2})(?!\d)", question)]
    if year and code == "es" and num2words(int(year), lang="es") in question.lower():
        said.append(int(year))
    heard = set()
    for y in said:
        heard |= {y % 100, y % 10}
        if code != "en":  # "dos mil …", "tweeduizend …": the thousands are said as a number
            heard.add(y // 1000)
    return int(value) in heard - {0}


@pytest.mark.parametrize(("code", "question", "answer", "year", "given_away"), [
    ("es", "¿Cuántas veces había ganado el Dakar al terminar la edición de dos mil veinticuatro?", "4", "2024", True),
    ("es", "¿Cuántos escaños tiene, según datos de dos mil veinticuatro?", "23", "2024", False),
    ("nl", "Hoeveel gouden medailles won hij op de Spelen van Parijs in 2024?", "2", "2024", True),
    ("en", "As of 2024, how many official languages does the European Union have?", "24", "2024", True),
    ("en", "As of 2024, how many clubs play in the Premier League?", "20", "2024", False),
])
def test_year_give_away_check(code, question, answer, year, given_away):
    assert year_gives_away(question, answer, "", year, code) is given_away


def test_no_year_in_a_question_gives_its_answer_away(lang, rows):
    """An as-of or event year said in the question does not say the answer ("dos mil
    veinticuatro" for 4, "Parijs in 2024" for 2): such rows name another year when the figure
    held then too, or are dropped."""
    bad = [r["id"] for r in rows if year_gives_away(r["question"], r["answer"], r["unit"], r["year"], lang.code)]
    assert bad == []


# --- duplicates ------------------------------------------------------------------------


def test_no_exact_duplicate_questions(rows):
    seen: dict[str, str] = {}
    dupes = []
    for r in rows:
        key = normalise(r["question"])
        if key in seen:
            dupes.append((seen[key], r["id"]))
        seen.setdefault(key, r["id"])
    assert dupes == [], f"duplicate questions: {dupes}"


def test_no_near_duplicate_questions(rows):
    questions = [r["question"] for r in rows]
    scores = near_duplicate_scores(questions, questions)
    pairs = [
        (rows[i]["id"], rows[j]["id"], int(scores[i, j]))
        for i, j in zip(*np.nonzero(np.triu(scores, k=1)))
    ]
    assert pairs == [], f"near-duplicate questions (id, id, score): {pairs}"


#: Two questions about one fact: the same answer and unit, and wording this close (token_set_ratio).
SAME_FACT_SCORE = 80


def same_fact_pairs(rows) -> list[tuple[str, str, int]]:
    """(id, id, score) of questions with the same answer and unit and close wording."""
    groups: dict[tuple[str, str], list[dict[str, str]]] = {}
    for r in rows:
        groups.setdefault((r["answer"], r["unit"]), []).append(r)
    pairs = []
    for group in groups.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                score = fuzz.token_set_ratio(normalise(a["question"]), normalise(b["question"]))
                if score >= SAME_FACT_SCORE:
                    pairs.append((a["id"], b["id"], int(score)))
    return pairs


def test_same_fact_check_catches_a_reworded_fact():
    rows = [{"id": "a", "question": "How tall is Mount Fuji in metres?", "answer": "3776", "unit": "metres"},
            {"id": "b", "question": "In metres, how tall is Japan's Mount Fuji?", "answer": "3776", "unit": "metres"},
            {"id": "c", "question": "How tall is Mount Fuji in feet?", "answer": "12388", "unit": "feet"}]
    assert [p[:2] for p in same_fact_pairs(rows)] == [("a", "b")]


def test_no_same_fact_duplicates(rows):
    assert same_fact_pairs(rows) == []


#: Capitalised words that name no subject of their own (question openings, generic nouns).
GENERIC_NAMES = {"How", "What", "In", "Which", "At", "By", "Through", "Roughly", "About", "As", "The", "Met",
                 "Hoeveel", "Welk", "Welke", "Wat", "Hoe", "Cuántos", "Cuántas", "Qué", "En", "España",
                 "Copa", "Copas", "Mundo", "Mundial", "Olympic", "Olympics", "World", "Cup", "Juegos",
                 "Olímpicos", "Spelen", "Olympische"}


def names(question: str) -> set[str]:
    return set(re.findall(r"\b[A-ZÁÉÍÓÚÑ][\wáéíóúñü'-]{2,}", question)) - GENERIC_NAMES


@cache
def _number_pattern(answer: str, code: str) -> re.Pattern[str]:
    """The answer as the question would say it: digits, or (a whole number above two) words."""
    value = float(answer)
    if not value.is_integer():
        return re.compile(re.escape(answer))
    value = int(value)
    digits = rf"(?<![\d.,]){value}(?![\d.,])"
    if value <= 2:
        return re.compile(digits)
    return re.compile(rf"{digits}|(?<!\w){re.escape(num2words(value, lang=code))}(?!\w)", re.IGNORECASE)


def says_number(question: str, answer: str, code: str) -> bool:
    """The answer appears in the question, in digits or (above two) spelled out."""
    return _number_pattern(answer, code).search(question) is not None


def give_aways(rows, code: str) -> list[tuple[str, str]]:
    """(id, id): the first question names the second's answer, about the same named subject."""
    named = [(r, names(r["question"])) for r in rows]
    by_name: dict[str, list[int]] = {}
    for i, (_, found) in enumerate(named):
        for name in found:
            by_name.setdefault(name, []).append(i)
    out = []
    for i, (a, found) in enumerate(named):
        others = sorted({j for name in found for j in by_name[name] if j != i})
        out += [(a["id"], named[j][0]["id"]) for j in others
                if a["answer"] != named[j][0]["answer"] and says_number(a["question"], named[j][0]["answer"], code)]
    return out


def test_give_away_check_catches_two_questions_about_one_event():
    rows = [{"id": "y", "question": "In what year did Jesse Owens win four gold medals at the Berlin Olympics?",
             "answer": "1936"},
            {"id": "n", "question": "How many gold medals did Jesse Owens win at the 1936 Olympics?", "answer": "4"},
            {"id": "o", "question": "How many gold medals did Fanny Blankers-Koen win in London?", "answer": "4"}]
    assert give_aways(rows, "en") == [("y", "n"), ("n", "y")]


def test_no_question_gives_away_another(lang, rows):
    assert give_aways(rows, lang.code) == []
