"""Content checks for the English ROFL! message deck.

The deck file ``prompts/en/rofl_messages.txt`` holds one double-sided card per
line, ``category | message | category | message``; ``#`` lines and blank lines
are ignored.  The parser here is local on purpose: these tests judge the data
file alone, independent of the loader in :mod:`voicegame.decks`.
"""

from __future__ import annotations

import re
import string
from collections import Counter
from pathlib import Path

from rapidfuzz import fuzz
from rapidfuzz.process import cdist

DECK = Path(__file__).resolve().parents[1] / "prompts" / "en" / "rofl_messages.txt"
CATEGORIES = {"movie", "tv", "song", "book", "history", "saying"}
MIN_CARDS = 125
MIN_MESSAGES = 250
MIN_PER_CATEGORY = 30
NEAR_DUPLICATE_RATIO = 95
MIN_WORDS, MAX_WORDS = 1, 12
# Spoken-friendly: letters, digits, spaces, apostrophes, commas, hyphens.
ALLOWED = re.compile(r"[A-Za-z0-9 ',\-]+")


def _lines() -> list[tuple[int, str]]:
    """(line number, raw text) of every card line, comments and blanks dropped."""
    text = DECK.read_text(encoding="utf-8")
    return [
        (number, line)
        for number, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]


def _fields(line: str) -> list[str]:
    return [field.strip() for field in line.split("|")]


def _messages() -> list[tuple[int, str, str]]:
    """(line number, category, message) for both sides of every card.

    Malformed lines are skipped here; the four-field test reports them.
    """
    out = []
    for number, line in _lines():
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


def test_normalise_strips_case_and_punctuation():
    assert _normalise("Take Me Home, Country Roads") == "take me home country roads"
    assert _normalise("The X-Files") == "the x files"
    assert _normalise("Ocean's  Eleven") == "oceans eleven"


def test_deck_file_is_utf8_and_has_cards():
    DECK.read_bytes().decode("utf-8")
    assert len(_lines()) >= MIN_CARDS


def test_every_card_line_has_four_non_empty_fields():
    bad = [
        (number, line)
        for number, line in _lines()
        if len(_fields(line)) != 4 or not all(_fields(line))
    ]
    assert bad == []


def test_message_count():
    assert len(_messages()) >= MIN_MESSAGES


def test_categories_are_known_keys():
    unknown = [(n, c) for n, c, _ in _messages() if c not in CATEGORIES]
    assert unknown == []


def test_each_category_has_enough_messages():
    counts = Counter(category for _, category, _ in _messages())
    for category in sorted(CATEGORIES):
        assert counts[category] >= MIN_PER_CATEGORY, (category, counts[category])


def test_no_duplicate_messages():
    counts = Counter(_normalise(message) for _, _, message in _messages())
    duplicates = sorted(m for m, n in counts.items() if n > 1)
    assert duplicates == []


def test_no_near_duplicate_messages():
    normalised = [_normalise(message) for _, _, message in _messages()]
    scores = cdist(normalised, normalised, scorer=fuzz.ratio, workers=1)
    close = [
        (normalised[i], normalised[j])
        for i in range(len(normalised))
        for j in range(i + 1, len(normalised))
        if scores[i][j] >= NEAR_DUPLICATE_RATIO
    ]
    assert close == []


def test_near_duplicate_threshold_catches_small_variants():
    # Guards the check above: a one-letter variant must score over the bar.
    assert fuzz.ratio("the shawshank redemption", "the shawshank redemptio") >= 95
    assert fuzz.ratio("let it be", "let it go") < NEAR_DUPLICATE_RATIO


def test_message_word_counts():
    bad = [
        (number, message)
        for number, _, message in _messages()
        if not MIN_WORDS <= len(message.split()) <= MAX_WORDS
    ]
    assert bad == []


def test_no_double_quotes_or_trailing_period():
    bad = [
        (number, message)
        for number, _, message in _messages()
        if '"' in message or "\u201c" in message or "\u201d" in message
        or message.endswith(".")
    ]
    assert bad == []


def test_messages_use_only_spoken_friendly_characters():
    bad = [
        (number, message)
        for number, _, message in _messages()
        if not ALLOWED.fullmatch(message)
    ]
    assert bad == []


def test_two_sides_of_a_card_differ_in_category():
    bad = [
        number
        for number, line in _lines()
        if len(_fields(line)) == 4 and _fields(line)[0] == _fields(line)[2]
    ]
    assert bad == []
