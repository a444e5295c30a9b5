"""Judging a spoken ROFL! guess against the card's message (R4): the text work.

Normalisation (case, accents, punctuation, "&", numbers as digits or words via
``text2num``/``num2words``, contractions), the lenient-articles option, forgiving one
recognition slip in a long message (``rapidfuzz``), and carrier phrases ("I think
it's …", "is it …") stripped before judging. The per-language word lists are in
``prompts/<lang>/words_rofl.toml`` (``[judge]``). The rules only take the result.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any, Collection, Mapping

from num2words import num2words
from rapidfuzz import fuzz
from text_to_num import alpha2digit

from voicegame.language.prompts import PromptError, load_toml
from voicegame.language.words import fold, normalise

SLIP_THRESHOLD = 90.0
"""Least ``rapidfuzz.fuzz.ratio`` (0–100) of the normalised guess and message for
a one-word recognition slip to count as correct (R4).

Why 90: ``fuzz.ratio`` is ``100 * (1 - indel / (len_a + len_b))``, so one wrong
letter in a 20-character title costs about 5. Typical Vosk slips pass: "the lord
of the kings" for "...rings" scores 95.2, "...things" 93.0, "back to the feature"
91.9, "the cat in the bat" 94.4. A different word fails: "the lord of the swords"
83.7, "the cat in the box" 83.3, "back to the moon" 70.6; so does an article
swapped without the lenient option ("the cat in a hat", 88.2). Because the
whole-string ratio forgives more in long titles ("...under the cat" for "...under
the sea" scores 94.6), the differing word must also resemble the card's word:
see :data:`SLIP_WORD_THRESHOLD`.
"""
SLIP_WORD_THRESHOLD = 60.0
"""Least ``rapidfuzz.fuzz.ratio`` of the one differing word against the card's word
for a slip (R4): "kings"/"rings" 80, "things"/"rings" 73, "bat"/"hat" 67,
"strike"/"strikes" 92 pass; "cat"/"sea" 33, "sky"/"sea" 33, "swords"/"rings" 36 fail."""
SLIP_MIN_WORDS = 4
"""A recognition slip is only forgiven in messages of at least this many words (R4);
shorter messages need the exact words."""

# Judgement reasons (for logs and records; a host says only right or wrong).
EXACT = "exact"
"""Every word in order (after normalisation)."""
SLIP = "one-word recognition slip"
"""A long message with one misheard word, forgiven (R4)."""
EMPTY = "empty guess"
MISSING_WORDS = "missing words"
EXTRA_WORDS = "extra words"
WRONG_ORDER = "wrong order"
NUMBER_DIFFERS = "a number differs"
SHORT_SLIP = "one word differs in a short message"
BELOW_THRESHOLD = "one word differs too much"
UNLIKE_WORD = "one word is not like the card's word"
DIFFERENT_WORDS = "different words"


def _fold(word: str) -> str:
    """The package's fold, but "ñ" stays a letter of its own ("año" is not "ano", R4)."""
    return fold(word.replace("ñ", "\x00")).replace("\x00", "ñ")


@dataclass(frozen=True)
class JudgeWords:
    """A language's word lists for judging (``[judge]`` of ``words_rofl.toml``).

    :param articles: forgiven when missing or extra under the lenient option (R4).
    :param and_word: how "&" is said ("Pride & Prejudice" is guessed with "and").
    :param spellings: whole words written two ways that are one word when said, mapped
        to the form text2num and num2words use (Spanish "veintiún"; Dutch "'ns", "m'n").
    :param carriers: phrases around a guess that are not part of it ("i think it's",
        "is it"), stripped before judging, at the start or (``suffixes``) the end.
    """

    articles: frozenset[str] = frozenset()
    and_word: str = "and"
    spellings: Mapping[str, str] = field(default_factory=dict)
    carriers: tuple[str, ...] = ()
    suffixes: tuple[str, ...] = ()


@cache
def _words(lang: str) -> JudgeWords:
    """The judge's word lists of ``lang``; a language without them judges with none."""
    try:
        data = load_toml(lang, "words_rofl").get("judge", {})
    except PromptError:
        data = {}
    return JudgeWords(frozenset(data.get("articles", ())), data.get("and", "and"),
                      dict(data.get("spellings", {})),
                      tuple(sorted((normalise(c) for c in data.get("carriers", ())), key=len, reverse=True)),
                      tuple(sorted((normalise(c) for c in data.get("suffixes", ())), key=len, reverse=True)))


def guess_readings(guess: str, lang: str) -> list[str]:
    """The guess as said, then with carrier phrases stripped ("i think it's monty python"
    → "monty python"; "is it jaws" → "jaws"), one carrier at a time, so "I think it's a
    wonderful life" is also read as "it's a wonderful life". At most a few readings."""
    words = _words(lang)
    seen = [normalise(guess)]
    frontier = list(seen)
    while frontier:
        text = frontier.pop(0)
        for carrier in words.carriers:
            if text.startswith(carrier + " "):
                rest = text[len(carrier) + 1:].strip()
                if rest and rest not in seen:
                    seen.append(rest)
                    frontier.append(rest)
        for suffix in words.suffixes:
            if text.endswith(" " + suffix):
                rest = text[: -len(suffix) - 1].strip()
                if rest and rest not in seen:
                    seen.append(rest)
                    frontier.append(rest)
    return seen[:8]



@dataclass(frozen=True)
class Judgement:
    """The host's judgement of one spoken guess (R4); writers may overrule it.

    :param correct: True when the guess counts as the message.
    :param similarity: best ``rapidfuzz.fuzz.ratio`` (0–100) between the
        normalised guess and message.
    :param reason: one of the module's reason constants (:data:`EXACT`,
        :data:`SLIP`, :data:`MISSING_WORDS`, ...), for logs and records.
    """

    correct: bool
    similarity: float
    reason: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Judgement":
        """Rebuild from ``dataclasses.asdict`` output."""
        return cls(bool(data["correct"]), float(data["similarity"]), str(data["reason"]))


_APOSTROPHES = re.compile(r"['’‘ʼ`´]")
_THOUSANDS = re.compile(r"(?<=\d)[,.](?=\d{3}(?!\d))")
_PUNCT = re.compile(r"[^\w\s]|_")
_A_HUNDRED = re.compile(r"\ba (hundred|thousand|million)\b")
_ORDINAL = {
    "en": re.compile(r"^(\d+)(st|nd|rd|th)$"),
    "es": re.compile(r"^(\d+)[ºª°]$"),
    "nl": re.compile(r"^(\d+)(e|ste|de)$"),
}


@lru_cache(maxsize=16)
def _spellings_re(lang: str) -> re.Pattern | None:
    words = _words(lang).spellings
    if not words:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w'])(?:{alternatives})(?![\w'])")


def _respell(text: str, lang: str) -> str:
    """The language's respellings (``[judge] spellings``) applied to lower-case NFC text (apostrophes already straight)."""
    pattern = _spellings_re(lang)
    return text if pattern is None else pattern.sub(lambda m: _words(lang).spellings[m.group(0)], text)


def _clean(text: str, lang: str) -> str:
    """Lower case, "&" said aloud, respellings mapped, apostrophes dropped, other
    punctuation to spaces."""
    t = unicodedata.normalize("NFC", text).lower()
    t = t.replace("&", f" {_words(lang).and_word} ")
    if _words(lang).spellings:
        t = _respell(_APOSTROPHES.sub("'", t), lang)
    if lang == "en":
        t = _A_HUNDRED.sub(r"one \1", t)
    t = _THOUSANDS.sub("", t)
    t = _APOSTROPHES.sub("", t)
    t = _PUNCT.sub(" ", t)
    return " ".join(t.split())


@lru_cache(maxsize=4096)
def _to_digits(text: str, lang: str) -> str:
    """``text_to_num.alpha2digit`` with threshold 0, so even "one" becomes "1"
    (its default threshold 3 leaves "one", "two", "three" as words)."""
    if not text:
        return text
    try:
        return " ".join(alpha2digit(text, lang, threshold=0).split())
    except ValueError:  # language not supported by text2num
        return text


def _spell_number(n: int, lang: str, year: bool, ordinal: bool) -> str | None:
    try:
        if ordinal:
            words = num2words(n, lang=lang, to="ordinal")
        elif year and 1000 <= n <= 2099:
            words = num2words(n, lang=lang, to="year")
        else:
            words = num2words(n, lang=lang)
    except (NotImplementedError, OverflowError, ValueError, TypeError, KeyError):
        return None
    return _clean(words, lang)


def _to_words(text: str, lang: str, year: bool) -> str:
    """Digits spelled out with ``num2words`` (ordinals such as "51st" too);
    ``year`` says four-digit numbers 1000–2099 as years ("nineteen eighty four")."""
    out = []
    ordinal_re = _ORDINAL.get(lang)
    for tok in text.split():
        spelled = None
        if tok.isascii() and tok.isdigit() and len(tok) <= 15:
            spelled = _spell_number(int(tok), lang, year, False)
        elif ordinal_re is not None and (m := ordinal_re.match(tok)) and len(m.group(1)) <= 15:
            spelled = _spell_number(int(m.group(1)), lang, False, True)
        out.append(spelled if spelled else tok)
    return " ".join(out)


@lru_cache(maxsize=4096)
def _forms(text: str, lang: str, articles: frozenset[str]) -> tuple[tuple[str, ...], ...]:
    """Equivalent word sequences of ``text``: as written, numbers as digits
    (alpha2digit), digits as words (num2words, cardinal and year style), and digits
    as words after alpha2digit (canonical words). ``articles`` are removed first
    (lenient option), unless that would leave nothing."""
    words = _clean(text, lang).split()
    if articles:
        kept = [w for w in words if w not in articles]
        if kept:
            words = kept
    base = " ".join(words)
    digits = _to_digits(base, lang)
    variants = [base, digits]
    for src in (base, digits):
        variants.append(_to_words(src, lang, False))
        variants.append(_to_words(src, lang, True))
    seen: dict[tuple[str, ...], None] = {}
    for v in variants:
        seen.setdefault(tuple(_fold(w) for w in v.split()), None)
    return tuple(seen)


@lru_cache(maxsize=64)
def _number_vocabulary(lang: str) -> frozenset[str]:
    """Number words of ``lang`` (num2words 0–100, hundreds, thousands, ordinals 1–20),
    accent-folded, without connecting words such as "and"."""
    vocab: set[str] = set()
    values = list(range(0, 101)) + [100 * k for k in range(2, 10)] + [1000, 10**6, 10**9]
    for n in values:
        s = _spell_number(n, lang, False, False)
        if s:
            vocab.update(_fold(w) for w in s.split())
    for n in range(1, 21):
        s = _spell_number(n, lang, False, True)
        if s:
            vocab.update(_fold(w) for w in s.split())
    vocab.discard(_words(lang).and_word)
    vocab.discard("and")
    return frozenset(vocab)


def _is_number(word: str, lang: str) -> bool:
    return any(c.isdigit() for c in word) or word in _number_vocabulary(lang) or _to_digits(word, lang) != word


def _slip_word(heard: str, card: str, lang: str) -> bool:
    """May ``heard`` be a misrecognition of ``card``? Not for numbers (R4)."""
    if _is_number(heard, lang) or _is_number(card, lang):
        return False
    return fuzz.ratio(heard, card) >= SLIP_WORD_THRESHOLD


def _judge_one(
    guess: str,
    message: str,
    lenient: bool = False,
    lang: str = "en",
    articles: Collection[str] | None = None,
) -> Judgement:
    """Judge a spoken guess against the card's message (R4).

    Correct when the guess has all the message's words in order. Case, accents
    (but not "ñ") and punctuation are ignored; apostrophes vanish ("ocean's" ==
    "oceans"); "&" is the language's "and"; word spacing may differ ("spider man"
    == "Spider-Man"); numbers match as digits or words ("Ocean's 11" == "oceans
    eleven"; "2001" == "two thousand and one"; "1984" == "nineteen eighty four"),
    comparing ``text_to_num.alpha2digit`` and ``num2words`` normalisations of both
    sides ("a hundred" is "one hundred" in English; Spanish "veintiún" is "veintiuno"
    and Dutch contractions such as "'ns" and "m'n" are "eens" and "mijn", see
    ``[judge] spellings`` of ``words_rofl.toml``). With ``lenient``, missing
    or extra articles are forgiven: the guess is also compared with every article
    dropped from both sides (so "the" said as "a" passes too). A recognition
    slip is forgiven only in messages of at least :data:`SLIP_MIN_WORDS` words
    (counted as written on the card), within either comparison (with or without
    articles when lenient): same word count, exactly one word
    different, that word not a number and like the card's word
    (:data:`SLIP_WORD_THRESHOLD`) and not a word the message has elsewhere
    ("no pain no pain" is wrong for "No pain, no gain"), and ``rapidfuzz.fuzz.ratio`` of the whole
    normalised strings ≥ :data:`SLIP_THRESHOLD`. Missing, extra or reordered words are always wrong.

    :param guess: the transcript of the guess (may be empty: wrong).
    :param message: the card's text.
    :param lenient: the lenient-articles option (R4).
    :param lang: language code for number handling and articles ("en", "es", "nl";
        others work without number handling if text2num lacks them).
    :param articles: the article words; default the language's ``[judge] articles``.
    :returns: a :class:`Judgement`.
    :raises ValueError: the message has no words.
    """
    message_words = _clean(message, lang).split()
    if not message_words:
        raise ValueError(f"message {message!r} has no words")
    if not _clean(guess, lang).split():
        return Judgement(False, 0.0, EMPTY)
    modes: list[frozenset[str]] = [frozenset()]
    if lenient:
        arts = _words(lang).articles if articles is None else frozenset(a.lower() for a in articles)
        if arts:
            modes.append(arts)

    best = -1.0
    best_pair: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    exact = False
    slip = False
    for arts in modes:
        for g in _forms(guess, lang, arts):
            for m in _forms(message, lang, arts):
                ratio = float(fuzz.ratio(" ".join(g), " ".join(m)))
                if ratio > best:
                    best, best_pair = ratio, (g, m)
                if g == m or "".join(g) == "".join(m):
                    exact = True
                elif len(message_words) >= SLIP_MIN_WORDS and len(g) == len(m) and ratio >= SLIP_THRESHOLD:
                    diff = [i for i in range(len(g)) if g[i] != m[i]]
                    # a word the card already has elsewhere ("no pain no pain") is the
                    # player's repetition, not the recognizer's slip
                    if len(diff) == 1 and g[diff[0]] not in m and _slip_word(g[diff[0]], m[diff[0]], lang):
                        slip = True
    if exact:
        return Judgement(True, 100.0, EXACT)
    if slip:
        return Judgement(True, best, SLIP)
    g, m = best_pair
    if len(g) < len(m):
        reason = MISSING_WORDS
    elif len(g) > len(m):
        reason = EXTRA_WORDS
    elif sorted(g) == sorted(m):
        reason = WRONG_ORDER
    else:
        diff = [i for i in range(len(g)) if g[i] != m[i]]
        if len(diff) != 1:
            reason = DIFFERENT_WORDS
        elif _is_number(g[diff[0]], lang) or _is_number(m[diff[0]], lang):
            reason = NUMBER_DIFFERS
        elif len(message_words) < SLIP_MIN_WORDS:
            reason = SHORT_SLIP
        elif best >= SLIP_THRESHOLD:
            reason = UNLIKE_WORD
        else:
            reason = BELOW_THRESHOLD
    return Judgement(False, best, reason)


def judge_guess(
    guess: str,
    message: str,
    lenient: bool = False,
    lang: str = "en",
    articles: Collection[str] | None = None,
) -> Judgement:
    """Judge a spoken guess against the card's message (R4): the best of
    :func:`_judge_one` over the :func:`guess_readings` (the guess as said, and without
    carrier phrases such as "I think it's"), so "i think it's monty python and the holy
    grail" is right for "Monty Python and the Holy Grail" and "It's a Wonderful Life"
    still needs its "it's".

    :returns: a :class:`Judgement`.
    :raises ValueError: the message has no words.
    """
    best: Judgement | None = None
    for reading in guess_readings(guess, lang) if guess.strip() else [guess]:
        j = _judge_one(reading, message, lenient, lang, articles)
        if j.correct and j.reason == EXACT:
            return j
        if best is None or (j.correct, j.similarity) > (best.correct, best.similarity):
            best = j
    assert best is not None
    return best
