"""Content checks for the Spanish and Dutch ROFL! message decks.

``prompts/es/rofl_messages.txt`` and ``prompts/nl/rofl_messages.txt`` use the
English deck's format: one double-sided card per line,
``category | message | category | message``; ``#`` lines and blank lines are
ignored.  The parser here is local on purpose: these tests judge the data files
alone, independent of the loader in :mod:`voicegame.decks`.  Every check runs
once per language.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from pathlib import Path

import pytest
from rapidfuzz import fuzz
from rapidfuzz.process import cdist

PROMPTS = Path(__file__).resolve().parents[1] / "prompts"
LANGS = ["es", "nl"]
CATEGORIES = {"movie", "tv", "song", "book", "history", "saying"}
MIN_CARDS = 130
MIN_MESSAGES = 260
MIN_PER_CATEGORY = 30
NEAR_DUPLICATE_RATIO = 95
MIN_WORDS, MAX_WORDS = 2, 10
# A localised deck, not a copy of the English one: at most this share of its
# messages may also appear in the English deck (international titles do).
MAX_SHARED_WITH_ENGLISH = 0.10
# Spoken-friendly: Latin letters with their accents (á é ñ ë ü ...), digits,
# spaces, apostrophes, commas, hyphens.  Leaves out the Spanish opening marks
# (inverted question and exclamation marks), which sit outside these ranges.
ALLOWED = re.compile(r"[A-Za-z0-9\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff ',\-]+")


def _deck(lang: str) -> Path:
    return PROMPTS / lang / "rofl_messages.txt"


def _lines(path: Path) -> list[tuple[int, str]]:
    """(line number, raw text) of every card line, comments and blanks dropped."""
    text = path.read_text(encoding="utf-8")
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _fields(line: str) -> list[str]:
    return [field.strip() for field in line.split("|")]


def _messages(path: Path) -> list[tuple[int, str, str]]:
    """(line number, category, message) for both sides of every card.

    Malformed lines are skipped here; the four-field test reports them.
    """
    out = []
    for number, line in _lines(path):
        fields = _fields(line)
        if len(fields) != 4:
            continue
        out.append((number, fields[0], fields[1]))
        out.append((number, fields[2], fields[3]))
    return out


def _normalise(message: str) -> str:
    lowered = message.lower().replace("-", " ")
    stripped = lowered.translate(str.maketrans("", "", string.punctuation))
    return " ".join(stripped.split())


@pytest.fixture(params=LANGS)
def deck(request) -> Path:
    return _deck(request.param)


def test_normalise_keeps_accents_and_strips_case_and_punctuation():
    assert _normalise("Bienvenido, Mister Marshall") == "bienvenido mister marshall"
    assert _normalise("Zeg 'ns  Aaa") == "zeg ns aaa"
    assert _normalise("El príncipe de Bel-Air") == "el príncipe de bel air"


def test_allowed_pattern_accepts_accents_and_rejects_opening_marks():
    assert ALLOWED.fullmatch("Año de nieves, año de bienes")
    assert ALLOWED.fullmatch("Proletariërs aller landen, verenigt u")
    assert ALLOWED.fullmatch("Pak maar m'n hand")
    assert not ALLOWED.fullmatch("\u00bfPor qué no te callas")
    assert not ALLOWED.fullmatch("\u00a1Qué bello es vivir")
    assert not ALLOWED.fullmatch("Wie is de Mol?")


def test_deck_file_is_utf8_nfc_and_has_cards(deck):
    text = deck.read_bytes().decode("utf-8")
    # Precomposed accents, so a transcript's "é" compares equal to the card's.
    assert unicodedata.normalize("NFC", text) == text
    assert len(_lines(deck)) >= MIN_CARDS


def test_every_card_line_has_four_non_empty_fields(deck):
    bad = [
        (number, line)
        for number, line in _lines(deck)
        if len(_fields(line)) != 4 or not all(_fields(line))
    ]
    assert bad == []


def test_message_count(deck):
    assert len(_messages(deck)) >= MIN_MESSAGES


def test_categories_are_known_keys(deck):
    unknown = [(n, c) for n, c, _ in _messages(deck) if c not in CATEGORIES]
    assert unknown == []


def test_each_category_has_enough_messages(deck):
    counts = Counter(category for _, category, _ in _messages(deck))
    for category in sorted(CATEGORIES):
        assert counts[category] >= MIN_PER_CATEGORY, (category, counts[category])


def test_no_duplicate_messages(deck):
    counts = Counter(_normalise(message) for _, _, message in _messages(deck))
    duplicates = sorted(m for m, n in counts.items() if n > 1)
    assert duplicates == []


def test_no_near_duplicate_messages(deck):
    normalised = [_normalise(message) for _, _, message in _messages(deck)]
    scores = cdist(normalised, normalised, scorer=fuzz.ratio, workers=1)
    close = [
        (normalised[i], normalised[j])
        for i in range(len(normalised))
        for j in range(i + 1, len(normalised))
        if scores[i][j] >= NEAR_DUPLICATE_RATIO
    ]
    assert close == []


def test_near_duplicate_threshold_catches_small_variants():
    # Guards the check above: a one-letter variant must score over the bar,
    # two genuinely different titles must not.
    assert fuzz.ratio("cien años de soledad", "cien años de soledades") >= 90
    assert fuzz.ratio("het verdriet van belgië", "het verdriet van belgie") >= 95
    assert fuzz.ratio("entre dos aguas", "entre dos tierras") < NEAR_DUPLICATE_RATIO


def test_message_word_counts(deck):
    bad = [
        (number, message)
        for number, _, message in _messages(deck)
        if not MIN_WORDS <= len(message.split()) <= MAX_WORDS
    ]
    assert bad == []


def test_no_quotes_or_trailing_period(deck):
    quotes = {'"', "\u201c", "\u201d", "\u00ab", "\u00bb", "\u2018", "\u2019"}
    bad = [
        (number, message)
        for number, _, message in _messages(deck)
        if quotes & set(message) or message.endswith(".")
    ]
    assert bad == []


def test_messages_use_only_spoken_friendly_characters(deck):
    bad = [
        (number, message)
        for number, _, message in _messages(deck)
        if not ALLOWED.fullmatch(message)
    ]
    assert bad == []


def test_messages_have_no_stray_spacing(deck):
    bad = [
        (number, message)
        for number, _, message in _messages(deck)
        if message != " ".join(message.split()) or " ," in message
    ]
    assert bad == []


def test_two_sides_of_a_card_differ_in_category(deck):
    bad = [
        number
        for number, line in _lines(deck)
        if len(_fields(line)) == 4 and _fields(line)[0] == _fields(line)[2]
    ]
    assert bad == []


def test_deck_is_localised_not_the_english_deck(deck):
    english = {_normalise(m) for _, _, m in _messages(_deck("en"))}
    ours = [_normalise(m) for _, _, m in _messages(deck)]
    shared = sorted(m for m in ours if m in english)
    assert len(shared) <= MAX_SHARED_WITH_ENGLISH * len(ours), shared


def test_spanish_and_dutch_decks_differ():
    spanish = {_normalise(m) for _, _, m in _messages(_deck("es"))}
    dutch = {_normalise(m) for _, _, m in _messages(_deck("nl"))}
    assert len(spanish & dutch) <= MAX_SHARED_WITH_ENGLISH * len(dutch)
