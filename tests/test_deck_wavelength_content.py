"""Content checks for the English Wavelength deck, ``prompts/en/wavelength_cards.txt``.

The deck is data: one double-sided spectrum card per line,
``kind | left1 | right1 | left2 | right2``, 0° at the left concept and 180° at
the right one (W1). The concepts are spoken by espeak and used as recognition
grammar words ("more <concept>", W7), so they must be short, plain words.

The file is parsed here by a small local parser on purpose, so these checks do
not depend on the production loader (:mod:`voicegame.decks`).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pytest
from rapidfuzz import fuzz

DECK = Path(__file__).resolve().parent.parent / "prompts" / "en" / "wavelength_cards.txt"

KINDS = {"everyday", "odd"}
MIN_CARDS = 150
#: Two pairs on different cards this similar (token_sort_ratio, 0–100) are near-duplicates.
NEAR_DUPLICATE = 90
#: Letters (any alphabet), spaces, apostrophes and hyphens only: speakable grammar words.
CONCEPT_RE = re.compile(r"^[^\W\d_]+(?:[ '\-][^\W\d_]+)*$")
#: Words of the dial's own voice moves (W7: "a little left", "way right", "all the way
#: left", "centre", "lock it in"); a concept containing one would make "more <concept>"
#: ambiguous for the recogniser.
DIAL_WORDS = {"left", "right", "centre", "center", "middle", "lock", "way", "little", "bit", "all", "more", "less", "slightly"}
#: The rulebook's own examples and the box's best-known cards: the deck must not reuse them.
PUBLISHED = [
    ("Hot", "Cold"),
    ("Underrated", "Overrated"),
    ("Good", "Evil"),
    ("Useless", "Useful"),
    ("Rough", "Smooth"),
    ("Fantasy", "Sci-fi"),
    ("Cheap", "Expensive"),
    ("Normal pet", "Exotic pet"),
    ("Bad habit", "Good habit"),
    ("Mainstream", "Niche"),
]


def parse_deck(text: str) -> list[tuple[int, list[str]]]:
    """Parse deck text into ``(line number, [kind, l1, r1, l2, r2])`` rows.

    Blank lines and lines starting with ``#`` are skipped; fields are stripped
    but otherwise kept as written, so malformed lines reach the assertions.
    """
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        rows.append((number, [field.strip() for field in stripped.split("|")]))
    return rows


def norm(concept: str) -> str:
    """Case-folded, whitespace-collapsed concept, for comparisons."""
    return " ".join(concept.lower().split())


def pair_key(left: str, right: str) -> frozenset[str]:
    """Orientation-free identity of a pair: {left, right} normalised."""
    return frozenset((norm(left), norm(right)))


@pytest.fixture(scope="module")
def rows() -> list[tuple[int, list[str]]]:
    return parse_deck(DECK.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def pairs(rows) -> list[tuple[int, str, str]]:
    """Every side of every well-formed card as ``(card index, left, right)``.

    Lines without five fields are reported by the structure test, not here.
    """
    out = []
    for index, (_, fields) in enumerate(rows):
        if len(fields) != 5:
            continue
        out.append((index, fields[1], fields[2]))
        out.append((index, fields[3], fields[4]))
    return out


# --- the parser itself ------------------------------------------------------


def test_parser_skips_comments_and_blanks_and_keeps_line_numbers():
    text = "# header\n\neveryday | A | B | C | D\n  # indented comment\nodd|E|F|G|H\n"
    assert parse_deck(text) == [
        (3, ["everyday", "A", "B", "C", "D"]),
        (5, ["odd", "E", "F", "G", "H"]),
    ]


def test_parser_keeps_malformed_lines_for_the_checks_to_reject():
    assert parse_deck("odd | A | B | C\n") == [(1, ["odd", "A", "B", "C"])]


# --- structure ----------------------------------------------------------------


def test_deck_is_utf8_and_large_enough(rows):
    assert len(rows) >= MIN_CARDS, f"only {len(rows)} cards, need {MIN_CARDS}"


def test_every_line_has_five_nonempty_fields_and_a_known_kind(rows):
    bad = [
        (number, fields)
        for number, fields in rows
        if len(fields) != 5 or any(not f for f in fields) or fields[0] not in KINDS
    ]
    assert bad == []


def test_kinds_are_balanced_between_40_and_60_percent(rows):
    counts = Counter(fields[0] for _, fields in rows)
    for kind in KINDS:
        share = counts[kind] / len(rows)
        assert 0.40 <= share <= 0.60, f"{kind}: {counts[kind]}/{len(rows)}"


# --- concepts -----------------------------------------------------------------


def test_concepts_have_no_digits(pairs):
    bad = [c for _, l, r in pairs for c in (l, r) if any(ch.isdigit() for ch in c)]
    assert bad == []


def test_concepts_are_at_most_four_words(pairs):
    bad = [c for _, l, r in pairs for c in (l, r) if len(c.split()) > 4]
    assert bad == []


def test_concepts_are_speakable_and_capitalised(pairs):
    bad = [
        c
        for _, l, r in pairs
        for c in (l, r)
        if not CONCEPT_RE.match(c) or not c[0].isupper()
    ]
    assert bad == []


def test_concepts_avoid_dial_command_words(pairs):
    bad = [
        c
        for _, l, r in pairs
        for c in (l, r)
        if DIAL_WORDS & set(re.split(r"[ \-]", c.lower()))
    ]
    assert bad == []


def test_the_two_concepts_of_a_pair_differ(pairs):
    bad = [(l, r) for _, l, r in pairs if norm(l) == norm(r)]
    assert bad == []


def test_concept_words_are_not_reused_too_often(pairs):
    """The same word set as a concept may appear on at most two cards."""
    cards_by_words: dict[frozenset[str], set[int]] = {}
    for card, left, right in pairs:
        for concept in (left, right):
            cards_by_words.setdefault(frozenset(norm(concept).split()), set()).add(card)
    overused = {tuple(sorted(w)): len(c) for w, c in cards_by_words.items() if len(c) > 2}
    assert overused == {}


# --- pairs --------------------------------------------------------------------


def test_the_two_sides_of_a_card_differ(rows):
    bad = [
        number
        for number, fields in rows
        if len(fields) == 5 and pair_key(fields[1], fields[2]) == pair_key(fields[3], fields[4])
    ]
    assert bad == []


def test_no_pair_appears_twice_in_either_orientation(pairs):
    seen = Counter(pair_key(l, r) for _, l, r in pairs)
    assert [sorted(k) for k, n in seen.items() if n > 1] == []


def test_published_cards_are_not_reused(pairs):
    used = {pair_key(l, r) for _, l, r in pairs}
    assert [p for p in PUBLISHED if pair_key(*p) in used] == []


def test_no_near_duplicate_pairs_across_cards(pairs):
    texts = [(card, f"{norm(l)} {norm(r)}") for card, l, r in pairs]
    close = [
        (a, b, score)
        for (card_a, a), (card_b, b) in itertools.combinations(texts, 2)
        if card_a != card_b
        and (score := fuzz.token_sort_ratio(a, b)) >= NEAR_DUPLICATE
    ]
    assert close == []


def test_near_duplicate_check_catches_a_reordered_pair():
    """The similarity measure used above flags a flipped or re-cased copy."""
    assert fuzz.token_sort_ratio("quiet hobby noisy hobby", "noisy hobby quiet hobby") == 100
    assert fuzz.token_sort_ratio("quiet hobby noisy hobby", "quiet hobbies noisy hobby") >= NEAR_DUPLICATE
    assert fuzz.token_sort_ratio("quiet hobby noisy hobby", "pebble boulder") < NEAR_DUPLICATE
