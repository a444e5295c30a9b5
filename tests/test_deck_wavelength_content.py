"""Content checks for the Wavelength decks, one run per language.

``prompts/<lang>/wavelength_cards.txt`` holds one double-sided spectrum card per
line, ``kind | left1 | right1 | left2 | right2``, 0° at the left concept and
180° at the right one (W1). The concepts are spoken by espeak and used as
recognition grammar words ("more <concept>", "más <concepto>", "meer
<concept>", W7), so they must be short, plain words that never contain a word
the players use to move the dial.

What differs between the languages is in :data:`LANGUAGES` at the top: the dial
words, the published cards the deck must not reuse, and which other decks a
translated deck must not be a copy of.

The files are parsed by a small local parser on purpose, so these checks do
not depend on the production loader (:mod:`voicegame.decks`).
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from rapidfuzz import fuzz

from voicegame.language.prompts import load_toml

PROMPTS = Path(__file__).resolve().parents[1] / "voicegame" / "prompts"

KINDS = {"everyday", "odd"}
MIN_CARDS = 155
#: Concepts are one to three words: short enough to say after "more"/"más"/"meer".
MAX_WORDS = 3
#: Two pairs on different cards this similar (token_sort_ratio, 0–100) are near-duplicates.
NEAR_DUPLICATE = 90
#: Letters (any alphabet), spaces, apostrophes and hyphens only: speakable grammar words.
CONCEPT_RE = re.compile(r"^[^\W\d_]+(?:[ '\-][^\W\d_]+)*$")
#: Dial words this long are also refused as the start of a longer word
#: ("rechtszaal", "centroamericano"): a fuzzy matcher would hear the dial word in it.
PREFIX_MIN_LEN = 5
#: At most this share of a deck's concepts may be spelled exactly like a concept of
#: a deck it must not copy (loanwords such as "Ninja" or "Origami" are fine;
#: untranslated lines are not).
MAX_SHARED_WITH_OTHER_DECK = 0.05


def fold(text: str) -> str:
    """Lower-cased text without accents or diaereses ("Más" -> "mas", "Feeën" -> "feeen")."""
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Language:
    """What the checks need to know about one language's deck."""

    code: str
    #: Words of the dial's voice moves in this language (W7), accent-folded, lower case.
    dial_words: frozenset[str]
    #: The rulebook's own example cards and the box's best-known cards, in this
    #: language: the deck must not reuse them.
    published: tuple[tuple[str, str], ...]
    #: Codes of the decks this one must not be a copy of.
    not_a_copy_of: tuple[str, ...]
    #: A pair as "left right", the same pair flipped, a near-copy the near-duplicate
    #: check must flag, and an unrelated pair it must not.
    near_duplicate_example: tuple[str, str, str, str]

    @property
    def deck(self) -> Path:
        return PROMPTS / self.code / "wavelength_cards.txt"


def _folded(text: str) -> frozenset[str]:
    """The accent-folded, lower-case words of ``text``."""
    return frozenset(fold(w) for w in text.split())


ENGLISH = Language(
    code="en",
    # W7: "a little left", "way right", "all the way left", "centre", "lock it in"
    dial_words=_folded("left right centre center middle lock way little bit all more less slightly"),
    published=(
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
        # a near-copy and close paraphrases found in review (docs/content.md), and weak sides
        # (two scales mixed, or no continuum) that must not come back
        ("Book is better", "Movie is better"),
        ("Cult classic", "Blockbuster"),
        ("Superhero", "Supervillain"),
        ("Fable hero", "Fable villain"),
        ("Fashion crime", "Fashion icon"),
        ("Gentle giant", "Tiny terror"),
        ("Whale song", "Car alarm"),
        ("Glitter", "Gravel"),
        ("Tea person", "Coffee person"),
        # found by the fresh readers: a paraphrase of "Mainstream – Niche", mixed scales
        ("Seen by few", "Seen by everyone"),
        ("Entry-level job", "Dream job"),
        ("Slimy", "Charming"),
    ),
    not_a_copy_of=(),
    near_duplicate_example=(
        "quiet hobby noisy hobby",
        "noisy hobby quiet hobby",
        "quiet hobbies noisy hobby",
        "pebble boulder",
    ),
)

SPANISH = Language(
    code="es",
    dial_words=_folded(
        # the dial words of the brief
        "izquierda derecha centro medio poco poquito mucho más menos todo fijar bloquear "
        # their other genders and numbers, which players say just as readily
        "izquierdo derecho poca pocos pocas poquita mucha muchos muchas toda todos todas "
        "media medios medias"
    ),
    published=(
        ("Subestimado", "Sobrevalorado"),  # rulebook (es) example
        ("Caliente", "Frío"),  # rulebook (es) example
        ("Bueno", "Malvado"),
        ("Inútil", "Útil"),
        ("Áspero", "Suave"),
        ("Fantasía", "Ciencia ficción"),
        ("Barato", "Caro"),
        ("Mascota normal", "Mascota exótica"),
        ("Mal hábito", "Buen hábito"),
        ("Convencional", "De nicho"),
        ("Mejor el libro", "Mejor la película"),
        ("Película de culto", "Taquillazo"),
        ("Superhéroe", "Supervillano"),
        ("Atentado estético", "Icono de moda"),
        ("Gigante bonachón", "Pequeño terror"),
        ("Canto de ballena", "Alarma de coche"),
        ("Confeti", "Grava"),
        ("Comida de desayuno", "Comida de cena"),
        ("Rata de sótano", "Estrella del escenario"),
        ("Precio justo", "Timo"),
        ("Película desconocida", "Película famosísima"),
        ("Primer empleo", "Trabajo soñado"),
        ("Trato de tú", "Trato de usted"),
        ("Chiste malo", "Humor negro"),
    ),
    not_a_copy_of=("en",),
    near_duplicate_example=(
        "afición tranquila afición ruidosa",
        "afición ruidosa afición tranquila",
        "afición tranquila aficiones ruidosas",
        "guijarro roca",
    ),
)

DUTCH = Language(
    code="nl",
    dial_words=_folded(
        # the dial words of the brief
        "links rechts midden centrum beetje veel meer minder helemaal vast vastzetten "
        # inflected forms players say just as readily ("zet hem vaste", "de linker")
        "vaste linker rechter"
    ),
    published=(
        ("Warm", "Koud"),  # rulebook (nl) example
        ("Onderschat", "Overschat"),
        ("Goed", "Kwaad"),
        ("Nutteloos", "Nuttig"),
        ("Ruw", "Glad"),
        ("Fantasy", "Sciencefiction"),
        ("Goedkoop", "Duur"),
        ("Normaal huisdier", "Exotisch huisdier"),
        ("Slechte gewoonte", "Goede gewoonte"),
        ("Mainstream", "Niche"),
        ("Boek is beter", "Film is beter"),
        ("Cultklassieker", "Kaskraker"),
        ("Superheld", "Superschurk"),
        ("Modeblunder", "Mode-icoon"),
        ("Zachtaardige reus", "Klein kreng"),
        ("Walvisgezang", "Autoalarm"),
        ("Glitter", "Grind"),
        ("Kabouter", "Engeltje"),
        ("Ontbijtkost", "Avondeten"),
        ("Feestjestruc", "Wereldvernietigende kracht"),
        ("Door weinigen gezien", "Door iedereen gezien"),
        ("Bijbaantje", "Droombaan"),
        ("Koektrommel dicht", "Koektrommel open"),
    ),
    not_a_copy_of=("en", "es"),
    near_duplicate_example=(
        "stille hobby lawaaiige hobby",
        "lawaaiige hobby stille hobby",
        "stille hobby's lawaaiige hobby",
        "kiezelsteen rotsblok",
    ),
)

LANGUAGES = {lang.code: lang for lang in (ENGLISH, SPANISH, DUTCH)}
#: (deck, deck it must not be a copy of), from :attr:`Language.not_a_copy_of`.
COPY_PAIRS = [(lang.code, other) for lang in LANGUAGES.values() for other in lang.not_a_copy_of]


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


@cache
def deck_rows(code: str) -> tuple[tuple[int, list[str]], ...]:
    """The parsed deck of language ``code``."""
    return tuple(parse_deck(LANGUAGES[code].deck.read_text(encoding="utf-8")))


def norm(concept: str) -> str:
    """Case-folded, whitespace-collapsed concept, for comparisons."""
    return " ".join(concept.lower().split())


def pair_key(left: str, right: str) -> frozenset[str]:
    """Orientation-free identity of a pair: {left, right} normalised."""
    return frozenset((norm(left), norm(right)))


def words(concept: str) -> list[str]:
    """Accent-folded words of a concept, split at spaces, hyphens and apostrophes."""
    return [w for w in re.split(r"[ '\-]", fold(concept)) if w]


def dial_word_clash(concept: str, dial_words: frozenset[str]) -> str | None:
    """The dial word a concept contains or starts a word with, else ``None``.

    A word equal to a dial word clashes; so does a word that merely starts with
    a dial word of at least :data:`PREFIX_MIN_LEN` letters.
    """
    for word in words(concept):
        if word in dial_words:
            return word
        for dial in dial_words:
            if len(dial) >= PREFIX_MIN_LEN and word.startswith(dial):
                return dial
    return None


def card_pairs(rows) -> list[tuple[int, str, str]]:
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


def deck_concepts(rows) -> list[str]:
    """Every concept of every well-formed card, as written."""
    return [c for _, left, right in card_pairs(rows) for c in (left, right)]


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def lang(request) -> Language:
    return LANGUAGES[request.param]


@pytest.fixture(scope="module")
def rows(lang) -> tuple[tuple[int, list[str]], ...]:
    return deck_rows(lang.code)


@pytest.fixture(scope="module")
def pairs(rows) -> list[tuple[int, str, str]]:
    return card_pairs(rows)


@pytest.fixture(scope="module")
def concepts(rows) -> list[str]:
    return deck_concepts(rows)


# --- the helpers themselves ---------------------------------------------------


def test_parser_skips_comments_and_blanks_and_keeps_line_numbers():
    text = "# cabecera\n\neveryday | Á | B | C | D\n  # kop\nodd|E|F|G|H\n"
    assert parse_deck(text) == [
        (3, ["everyday", "Á", "B", "C", "D"]),
        (5, ["odd", "E", "F", "G", "H"]),
    ]


def test_parser_keeps_malformed_lines_for_the_checks_to_reject():
    assert parse_deck("odd | A | B | C\n") == [(1, ["odd", "A", "B", "C"])]


def test_fold_drops_accents_and_diaereses():
    assert fold("Más Frío") == "mas frio"
    assert fold("Feeënzegen") == "feeenzegen"
    assert fold("Ñandú") == "nandu"


@pytest.mark.parametrize(
    ("code", "concept", "clash"),
    [
        ("en", "Way out", "way"),
        ("en", "Left-handed", "left"),
        ("en", "Rightful heir", "right"),
        ("en", "Middleweight", "middle"),
        ("en", "Allotment", None),  # "all" is too short to be refused as a prefix
        ("en", "Quiet hobby", None),
        ("es", "Mucho ruido", "mucho"),
        ("es", "Mas ruido", "mas"),  # said without the accent, still the dial word
        ("es", "Todas las noches", "todas"),
        ("es", "Centroamericano", "centro"),
        ("es", "Medianoche", "media"),
        ("es", "Remedio casero", None),  # "medio" inside a word is not its start
        ("es", "Poco hecho", "poco"),
        ("nl", "Veel te zout", "veel"),
        ("nl", "Vaste klant", "vaste"),
        ("nl", "Rechtszaal", "rechts"),
        ("nl", "Meerkoet", None),  # "meer" is too short to be refused as a prefix
        ("nl", "Midden-Oosten", "midden"),
        ("nl", "Boterham met kaas", None),
    ],
)
def test_dial_word_clash_finds_whole_words_and_long_prefixes(code, concept, clash):
    assert dial_word_clash(concept, LANGUAGES[code].dial_words) == clash


@pytest.mark.parametrize(
    ("code", "named"),
    [
        ("en", {"left", "right", "centre", "center", "middle", "lock", "way", "little", "bit", "all",
                "more", "less", "slightly"}),
        ("es", {"izquierda", "derecha", "centro", "medio", "poco", "poquito", "mucho", "mas", "menos",
                "todo", "fijar", "bloquear"}),
        ("nl", {"links", "rechts", "midden", "centrum", "beetje", "veel", "meer", "minder", "helemaal",
                "vast", "vastzetten"}),
    ],
)
def test_every_language_lists_the_dial_words_of_the_brief(code, named):
    assert named <= LANGUAGES[code].dial_words


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_near_duplicate_check_catches_a_reordered_pair(code):
    """The similarity measure used below flags a flipped or re-inflected copy."""
    pair, flipped, variant, unrelated = LANGUAGES[code].near_duplicate_example
    assert fuzz.token_sort_ratio(pair, flipped) == 100
    assert fuzz.token_sort_ratio(pair, variant) >= NEAR_DUPLICATE
    assert fuzz.token_sort_ratio(pair, unrelated) < NEAR_DUPLICATE


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


def test_concepts_have_no_digits(concepts):
    assert [c for c in concepts if any(ch.isdigit() for ch in c)] == []


def test_concepts_are_one_to_three_words(concepts):
    assert [c for c in concepts if not 1 <= len(c.split()) <= MAX_WORDS] == []


def test_concepts_are_speakable_and_capitalised(concepts):
    assert [c for c in concepts if not CONCEPT_RE.match(c) or not c[0].isupper()] == []


def test_concepts_avoid_dial_command_words(lang, concepts):
    bad = {c: clash for c in concepts if (clash := dial_word_clash(c, lang.dial_words))}
    assert bad == {}


def test_the_two_concepts_of_a_pair_differ(pairs):
    assert [(l, r) for _, l, r in pairs if norm(l) == norm(r)] == []


def test_concept_words_are_not_reused_too_often(pairs):
    """The same word set as a concept may appear on at most two cards."""
    cards_by_words: dict[frozenset[str], set[int]] = {}
    for card, left, right in pairs:
        for concept in (left, right):
            cards_by_words.setdefault(frozenset(norm(concept).split()), set()).add(card)
    overused = {tuple(sorted(w)): len(c) for w, c in cards_by_words.items() if len(c) > 2}
    assert overused == {}


@pytest.mark.parametrize(("code", "other"), COPY_PAIRS)
def test_deck_is_not_a_copy_of_another_language(code, other):
    """Only loanwords may be spelled exactly like a concept of the other deck."""
    ours = deck_concepts(deck_rows(code))
    theirs = {norm(c) for c in deck_concepts(deck_rows(other))}
    shared = sorted({c for c in ours if norm(c) in theirs})
    assert len(shared) <= MAX_SHARED_WITH_OTHER_DECK * len(ours), shared


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


def test_published_cards_are_not_reused(lang, pairs):
    used = {pair_key(l, r) for _, l, r in pairs}
    assert [p for p in lang.published if pair_key(*p) in used] == []


def test_no_near_duplicate_pairs_across_cards(pairs):
    texts = [(card, f"{norm(l)} {norm(r)}") for card, l, r in pairs]
    close = [
        (a, b, score)
        for (card_a, a), (card_b, b) in itertools.combinations(texts, 2)
        if card_a != card_b
        and (score := fuzz.token_sort_ratio(a, b)) >= NEAR_DUPLICATE
    ]
    assert close == []


def grammar_dial_words(code: str) -> frozenset[str]:
    """The one-word size, "less" and centre words of the dial grammar in
    ``words_wavelength.toml`` ("tiny", "barely", "apenas", "algo", "nauwelijks"): a concept
    holding one would be heard as part of a move ("more Tiny portion")."""
    dial = load_toml(code, "words_wavelength")["dial"]
    phrases = [w for step in dial["steps"] for w in step["words"]]
    # the cue words ("to", "naar", "bij") are not counted: "Better to play" is said whole
    phrases += [w for key in ("less", "centre") for w in dial["phrases"].get(key, ())]
    return frozenset(fold(p) for p in phrases if " " not in p)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
def test_grammar_dial_words_include_the_size_words_players_say(code):
    assert {"en": {"tiny", "barely"}, "es": {"apenas", "algo"}, "nl": {"nauwelijks"}}[code] <= grammar_dial_words(code)


def test_concepts_avoid_every_word_of_the_dial_grammar(lang, concepts):
    """The words file is the dial's vocabulary: no concept holds one of its size, "less" or
    centre words as a word (the hand-kept list above misses "tiny", "apenas", "nauwelijks")."""
    dial = grammar_dial_words(lang.code)
    bad = {c: w for c in concepts for w in words(c) if w in dial}
    assert bad == {}
