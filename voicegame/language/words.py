"""Spoken-language understanding: transcripts → intents, for every game.

One module, per language, words from ``prompts/<lang>/words.toml``. Games never
parse text themselves; they call an :class:`Understanding`:

- :meth:`Understanding.command` — global commands (repeat, help, score, pause,
  resume, undo, slower, faster, louder, softer, quit).
- :meth:`Understanding.number` — integers and decimals said as words or digits,
  via ``text2num`` (https://github.com/allo-media/text2num), with the known
  traps of text2num 3.x handled here: small numbers left as words by
  ``alpha2digit``, decimals, year pairs ("nineteen eighty four"), "thirty and
  six", "a hundred", "oh" as zero, negatives.
- :meth:`yes_no`, :meth:`side`, :meth:`colour`, :meth:`concept` (a Wavelength card's concept).
- :meth:`grammar` — phrases for a recognizer grammar of a listening moment.

Fuzzy snapping of a transcript to the nearest expected phrase uses ``rapidfuzz``
(the "corrected" mode of wyoming-vosk).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from rapidfuzz import fuzz, process
from text_to_num import alpha2digit, text2num

from voicegame.language.prompts import load_toml

#: Global command names, in the order they are offered in help ("stop" alone stops the
#: host talking; "quit" needs a phrase such as "stop the game").
COMMANDS = ("repeat", "help", "score", "pause", "resume", "undo", "slower", "faster",
            "louder", "softer", "quit", "stop")

#: Digits ``int()`` reads: ``str.isdigit()`` also accepts "²" and "①", which it does not.
_ASCII_DIGITS = re.compile(r"[0-9]+")
_PUNCT = re.compile(r"[^\w\s'.,-]", re.UNICODE)


@lru_cache(maxsize=8192)
def fold(text: str) -> str:
    """Text without accents, diaereses or tildes ("puntuación" → "puntuacion", "één" → "een",
    "año" → "ano"), so typed or transcribed text without them still matches.

    The one fold of the package: every comparison of words folds both sides with it
    (cached: the same words are folded in every moment).
    """
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


@lru_cache(maxsize=4096)
def normalise(text: str) -> str:
    """Lower-case, strip punctuation except apostrophes and number marks, squeeze spaces
    (cached: every parser of a listening moment normalises the same transcript)."""
    text = _PUNCT.sub(" ", unicodedata.normalize("NFKC", text).lower().replace("’", "'"))
    text = re.sub(r"[.,](?!\d)|(?<!\d)[.,]", " ", text)  # sentence punctuation, not 3.5 / 1,200
    text = re.sub(r"(?<![\w])-(?!\d)|(?<=\w)-(?=\s|$)", " ", text)  # dashes that are not a minus sign
    return " ".join(text.split())


@dataclass(frozen=True)
class NumberWords:
    units: tuple[str, ...]
    tens: tuple[str, ...]
    scales: tuple[str, ...]
    connectors: tuple[str, ...]
    decimal: tuple[str, ...]
    minus: tuple[str, ...]
    half: tuple[str, ...]
    zero_words: tuple[str, ...]
    filler: tuple[str, ...]
    decimal_mark: str
    group_mark: str
    aliases: dict
    replacements: tuple
    article_one: tuple[str, ...]
    filler_phrases: tuple[str, ...]
    half_alone: tuple[str, ...]
    half_suffixes: tuple[str, ...]
    #: "one sixty" = 160, "two fifty" = 250: a digit then a two-digit number says the hundreds
    #: (``[numbers] hundreds_pairs``; English speech, not Spanish or Dutch)
    hundreds_pairs: bool = False

    def all_words(self) -> set[str]:
        return set(self.units + self.tens + self.scales + self.connectors + self.decimal
                   + self.minus + self.zero_words) | {w for h in self.half for w in h.split()}


class Understanding:
    """Turns transcripts of one language into intents.

    :param lang: language code with a ``prompts/<lang>/words.toml`` (``"en"``).
    :raises voicegame.prompts.PromptError: the words file is missing or malformed.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        words = load_toml(lang, "words")
        n = words["numbers"]
        self.numbers = NumberWords(
            tuple(n["units"]), tuple(n["tens"]), tuple(n["scales"]), tuple(n["connectors"]),
            tuple(n["decimal"]), tuple(n["minus"]), tuple(n.get("half", ())),
            tuple(n["zero_words"]), tuple(n.get("filler", ())), n.get("decimal_mark", "."),
            n.get("group_mark", ","), dict(n.get("aliases", {})),
            tuple(tuple(pair) for pair in n.get("replacements", ())), tuple(n.get("article_one", ())),
            tuple(sorted(n.get("filler_phrases", ()), key=len, reverse=True)), tuple(n.get("half_alone", ())),
            tuple(n.get("half_suffixes", ())), bool(n.get("hundreds_pairs", False)))
        self.yes_words = tuple(words["yes_no"]["yes"])
        self.no_words = tuple(words["yes_no"]["no"])
        self.side_words = {k: tuple(v) for k, v in words["sides"].items()}
        self.colour_words = {k: tuple(v) for k, v in words["colours"].items()}
        self.command_words = {k: tuple(v) for k, v in words["commands"].items()}
        self.ready_words = tuple(words.get("ready", {}).get("words", ()))
        #: the only answers that confirm quitting (folded)
        self.quit_confirm_words = tuple(words.get("quit", {}).get("confirm", ()))
        self._quit_confirm = {fold(normalise(p)) for p in self.quit_confirm_words}
        self._bare_yes = {fold(normalise(p)) for p in words.get("quit", {}).get("bare_yes", ())}
        #: folded command phrase → command (first listed wins), built once
        self._commands_folded: dict[str, str] = {}
        for key, phrases in self.command_words.items():
            for p in phrases:
                self._commands_folded.setdefault(fold(normalise(p)), key)
        self.words = words

    # ------------------------------------------------------------------ phrases
    def _match(self, text: str, table: dict[str, tuple[str, ...]]) -> str | None:
        """The key whose phrase equals the normalised text, or is contained in it as whole words."""
        t = normalise(text)
        if not t:
            return None
        for key, phrases in table.items():
            if t in phrases:
                return key
        padded = f" {t} "
        best = None
        for key, phrases in table.items():
            for p in phrases:
                if f" {p} " in padded and (best is None or len(p) > len(best[1])):
                    best = (key, p)
        return best[0] if best else None

    def command(self, text: str) -> str | None:
        """The global command the whole utterance is, else ``None``.

        Only a short utterance that *is* a command counts ("repeat", "what's the
        score"), so "lock it in" or a guess containing "go" is not taken for one.
        """
        return self._commands_folded.get(fold(normalise(text)))

    def confirms_quit(self, text: str) -> bool:
        """True only for an answer that says to stop the game ("yes, stop the game"), never
        for a bare yes, "okay" or "lock it in"."""
        return fold(normalise(text)) in self._quit_confirm

    def is_bare_yes(self, text: str) -> bool:
        """A plain "yes" (not "okay", "correct" or "lock it in"): at the quit question it
        wants to stop, but the words to stop are asked for."""
        return fold(normalise(text)) in self._bare_yes

    @lru_cache(maxsize=2048)
    def yes_no(self, text: str) -> bool | None:
        """``True`` for yes, ``False`` for no, ``None`` when neither (or both) was said
        (remembered per text: every confirm moment, and every undo replay, asks again)."""
        t = fold(normalise(text))
        yes = tuple(fold(w) for w in self.yes_words)
        no = tuple(fold(w) for w in self.no_words)
        if t in yes:
            return True
        if t in no:
            return False
        # every phrase said (whole words); one inside a longer phrase of the other side
        # ("klopt" in "klopt niet", "sure" in "not sure") does not count on its own
        said = t.split()
        spans = [(i, i + len(words), side) for side, phrases in (("yes", yes), ("no", no))
                 for words in (p.split() for p in phrases) for i in range(len(said) - len(words) + 1)
                 if words and said[i:i + len(words)] == words]
        kept = {side for a, b, side in spans
                if not any(c <= a and b <= d and d - c > b - a for c, d, _ in spans)}
        return None if len(kept) != 1 else kept == {"yes"}

    def side(self, text: str) -> str | None:
        """``"left"`` or ``"right"``, or ``None``."""
        return self._match(text, self.side_words)

    def colour(self, text: str) -> str | None:
        """The colour key (``"red"`` … ``"pink"``) named in the text, or ``None``."""
        return self._match(text, self.colour_words)

    def colour_name(self, key: str) -> str:
        """How a colour key (``"red"``) is said in this language (``"rojo"``); other names unchanged."""
        phrases = self.colour_words.get(key)
        return phrases[0] if phrases else key

    def is_ready(self, text: str) -> bool:
        """True when the utterance says the table is ready/done."""
        return normalise(text) in self.ready_words

    def snap(self, text: str, phrases, cutoff: float = 80.0) -> str | None:
        """The expected phrase nearest to ``text`` (rapidfuzz WRatio ≥ ``cutoff``), else ``None``."""
        t = normalise(text)
        if not t or not phrases:
            return None
        found = process.extractOne(t, list(phrases), scorer=fuzz.WRatio, score_cutoff=cutoff)
        return found[0] if found else None

    # ------------------------------------------------------------------ numbers
    def number(self, text: str, year: bool = True) -> int | float | None:
        """The number the whole utterance says, or ``None``.

        Accepts digits ("2008", "3.5", "1,200"), words ("three point five",
        "two thousand and eight", "a hundred", "thirty and six", "minus five",
        "three and a half", "one point two million"), and — when ``year`` is
        True — year pairs ("nineteen eighty four" → 1984, "twenty twenty four",
        "nineteen oh five"). Filler words ("about", "my guess is") are ignored.
        Any other word makes the utterance not a number.

        :returns: ``int`` when whole, else ``float``.
        """
        text = f" {normalise(text)} "
        for phrase in self.numbers.filler_phrases:  # "more or less", "más o menos": not a minus sign
            text = text.replace(f" {phrase} ", " ")
        tokens = self._tokens(text)
        tokens = [w for w in tokens if w not in self.numbers.filler or w in self.numbers.all_words()]
        if not tokens or len(tokens) > MAX_NUMBER_WORDS:
            return None
        return bounded(self._value(tokens, year))

    def _tokens(self, text: str) -> list[str]:
        """Normalised words with the language's spelling variants mapped
        ("veintiún" → "veintiuno", "tweeentwintig" → "tweeëntwintig")."""
        words = []
        for w in normalise(text).split():
            w = self.numbers.aliases.get(w, w)  # may become several words: "anderhalf" → "een komma vijf"
            for old, new in self.numbers.replacements:
                if old in w and not self._is_number_word(w):
                    candidate = w.replace(old, new)
                    if self._is_number_word(candidate):
                        w = candidate
            for suffix in self.numbers.half_suffixes:  # "tweeënhalf" → "twee komma vijf"
                head = w[: -len(suffix)]
                if w.endswith(suffix) and head and self._is_number_word(head):
                    w = f"{head} {self.numbers.decimal[0]} {self._digit_word(5)}"
            words.extend(w.split())
        return words

    def _digit_word(self, digit: int) -> str:
        """The word for a digit 0–9 in this language (from text2num's own reading)."""
        for w in self.numbers.units:
            if _text2num_word(w, self.lang) == digit:
                return w
        return str(digit)

    def _scale_value(self, word: str) -> int | None:
        """1000 for "thousand"/"mil"/"duizend", 10⁶ for "million"/"millones"… else ``None``."""
        if word not in self.numbers.scales:
            return None
        value = _text2num_word(word, self.lang)
        return value if value and value >= 1000 else None

    def _is_number_word(self, w: str) -> bool:
        """A word of a spoken number: listed in words.toml, or a compound text2num reads
        on its own (Dutch "vierentachtig", Spanish "veintiuno")."""
        return w in self.numbers.all_words() or _text2num_word(w, self.lang) is not None

    def numbers_in(self, text: str, year: bool = True) -> list[tuple[int, int, int | float]]:
        """Every maximal number span in the text as ``(start_word, end_word, value)``."""
        words = self._tokens(text)
        spans, i = [], 0
        while i < len(words):
            if self._is_number_token(words[i]) and not (words[i] in self.numbers.connectors and i + 1 < len(words) and words[i + 1] not in self.numbers.scales):
                j = i
                while j < len(words) and j - i < MAX_NUMBER_WORDS and self._is_number_token(words[j]):
                    j += 1
                # the longest prefix of the run that is one number ("twelve and fifteen" → 12, then 15)
                while j > i:
                    if words[j - 1] not in self.numbers.connectors:
                        value = bounded(self._value(words[i:j], year))
                        if value is not None:
                            spans.append((i, j, value))
                            break
                    j -= 1
                if j > i:
                    i = j
                    continue
            i += 1
        return spans

    def _is_number_token(self, w: str) -> bool:
        return bool(re.fullmatch(r"-?[\d.,]+", w)) and any(c.isdigit() for c in w) or self._is_number_word(w)

    def _digits(self, w: str) -> int | float | None:
        n = self.numbers
        if not re.fullmatch(r"-?\d[\d.,]*", w):
            return None
        w = w.replace(n.group_mark, "") if re.fullmatch(rf"-?\d{{1,3}}(\{n.group_mark}\d{{3}})+(\{n.decimal_mark}\d+)?", w) else w
        w = w.replace(n.decimal_mark, ".")
        try:
            v = float(w)
        except ValueError:
            return None
        return int(v) if v.is_integer() and "." not in w else v

    def _value(self, tokens: list[str], year: bool) -> int | float | None:
        n = self.numbers
        sign = 1
        if tokens and tokens[0] in n.minus:
            sign, tokens = -1, tokens[1:]
        if not tokens:
            return None
        if len(tokens) == 1 and (d := self._digits(tokens[0])) is not None:
            return sign * d
        if (len(tokens) == 2 and (d := self._digits(tokens[0])) is not None
                and (scale := self._scale_value(tokens[1]))):  # typed "1.5 million", "2 thousand"
            value = d * scale
            return sign * (int(value) if float(value).is_integer() else value)
        text = " ".join(tokens)
        if text in n.half_alone:  # "een half", "medio": one half
            return sign * 0.5
        # "half a million", "medio millón", "een half miljoen"
        for h in n.half_alone:
            if text.startswith(h + " ") and (scale := self._scale_value(text[len(h) + 1:])):
                return sign * (scale // 2)
        half = 0.0
        half_scale = 1
        for h in n.half:
            if text.endswith(" " + h):
                text, half = text[: -len(h) - 1], 0.5
                break
            if f" {h} " in f" {text} " and (scale := self._scale_value(text.split()[-1])):
                # "one and a half million": (1 + 0.5) × a million
                head = text[: text.index(h)].strip()
                if head and head + f" {h} {text.split()[-1]}" == text:
                    text, half, half_scale = head, 0.5, scale
                break
        tokens = text.split()
        if half and half_scale == 1 and tokens and (scale := self._scale_value(tokens[-1])):
            half *= scale  # "un millón y medio": plus half a million
        dec = next((i for i, t in enumerate(tokens) if t in n.decimal), None)
        if dec is not None:
            if half:
                return None
            whole = self._integer(tokens[:dec], year=False) if tokens[:dec] else 0
            frac_tokens = tokens[dec + 1:]
            scale = 1
            if frac_tokens and (value := self._scale_value(frac_tokens[-1])):
                scale = value
                frac_tokens = frac_tokens[:-1]
            frac = self._fraction(frac_tokens)
            if whole is None or frac is None:
                return None
            value = float(f"{whole}.{frac}") * scale
            value = sign * value
            return int(value) if value.is_integer() and scale > 1 else value
        whole = self._integer(tokens, year)
        if whole is None:
            return None
        if half_scale > 1:
            value = (whole + half) * half_scale
            return sign * (int(value) if float(value).is_integer() else value)
        if half and float(half).is_integer():
            return sign * (whole + int(half))
        return sign * (whole + half) if half else sign * whole

    def _fraction(self, tokens: list[str]) -> str | None:
        """Digits after the decimal word: "oh five" → "05", "two five" → "25", "twenty five" → "25"."""
        if not tokens:
            return None
        digits = []
        for t in tokens:
            if t in self.numbers.zero_words:
                digits.append("0")
            elif re.fullmatch(r"\d+", t):
                digits.append(t)
            else:
                v = self._integer([t], False)
                if v is None or v > 9:
                    digits = None
                    break
                digits.append(str(v))
        if digits is not None:
            return "".join(digits)
        v = self._integer(tokens, False)
        return None if v is None else str(v)

    def _integer(self, tokens: list[str], year: bool) -> int | None:
        n = self.numbers
        if not tokens:
            return None
        if len(tokens) == 1:
            d = self._digits(tokens[0])
            if isinstance(d, int):
                return d
            if tokens[0] in n.zero_words:
                return 0
        toks = list(tokens)
        if toks[0] in n.article_one and len(toks) > 1 and toks[1] in n.scales:
            toks[0] = n.units[2] if n.units[1] in n.zero_words else n.units[1]  # "a hundred" → "one hundred"
        if any(not (self._is_number_word(t) or _ASCII_DIGITS.fullmatch(t)) for t in toks):
            return None
        try:
            return int(text2num(" ".join(toks), self.lang))
        except ValueError:
            pass
        converted = alpha2digit(" ".join(toks), self.lang).split()
        if len(converted) == 1 and _ASCII_DIGITS.fullmatch(converted[0]):
            return int(converted[0])
        if n.hundreds_pairs and (pair := self._hundreds_pair(toks)) is not None:
            return pair
        if year:
            return self._year_pair(toks)
        return None

    def _hundreds_pair(self, toks: list[str]) -> int | None:
        """"one sixty" → 160, "two fifty" → 250, "one oh five" → 105: a digit word, then a
        number from 10 to 99 (or "oh" and a digit), as English speech says hundreds."""
        if len(toks) < 2 or toks[0] not in self.numbers.units:
            return None
        head = self._integer(toks[:1], False)
        if head is None or not 1 <= head <= 9:
            return None
        rest = toks[1:]
        if rest[0] in self.numbers.zero_words and len(rest) == 2:
            tail = self._integer(rest[1:], False)
            return head * 100 + tail if tail is not None and tail <= 9 else None
        if rest[0] in self.numbers.connectors:
            return None
        tail = self._integer(rest, False)
        return head * 100 + tail if tail is not None and 10 <= tail <= 99 else None

    def _year_pair(self, toks: list[str]) -> int | None:
        """"nineteen eighty four" → 1984, "twenty twenty four" → 2024, "nineteen oh five" → 1905."""
        n = self.numbers
        for i in range(1, len(toks)):
            left = self._integer(toks[:i], False)
            right_toks = toks[i:]
            if left is None or not 10 <= left <= 99:
                continue
            if right_toks[0] in n.zero_words and len(right_toks) == 2:
                r = self._integer(right_toks[1:], False)
                if r is not None and r <= 9:
                    return left * 100 + r
                continue
            right = self._integer(right_toks, False)
            if right is not None and 10 <= right <= 99:
                return left * 100 + right
        return None

    # ------------------------------------------------------------------ grammar
    def number_words(self) -> list[str]:
        """Every word a spoken number may use (for a recognizer grammar)."""
        return sorted(self.numbers.all_words())

    def command_phrases(self) -> list[str]:
        """Every global command phrase (added to every grammar)."""
        return [p for ps in self.command_words.values() for p in ps]

    def grammar(self, *groups) -> tuple[str, ...]:
        """A grammar: the given phrase groups plus every global command, deduplicated.

        Each group is normalised once and remembered (a game asks with the same large
        groups again and again; only a card's own words are new)."""
        seen: dict[str, None] = {}
        for group in (*groups, self.command_phrases()):
            seen.update(_normalised_group(tuple(group)))
        return tuple(seen)

    def yes_no_phrases(self) -> list[str]:
        return list(self.yes_words + self.no_words)

    def side_phrases(self) -> list[str]:
        return [p for ps in self.side_words.values() for p in ps]

    def colour_phrases(self) -> list[str]:
        return [p for ps in self.colour_words.values() for p in ps]


#: The largest number a player can mean (a guess beyond ±10^15 is refused as not a number).
MAX_NUMBER = 10 ** 15
#: The most words one spoken number takes ("two million three hundred and forty five
#: thousand six hundred and seventy eight" is 13); longer runs are split, so parsing stays linear.
MAX_NUMBER_WORDS = 16


def bounded(value: int | float | None) -> int | float | None:
    """``value`` when it is finite and within ±:data:`MAX_NUMBER`, else ``None``."""
    if value is None or not math.isfinite(value) or abs(value) > MAX_NUMBER:
        return None
    return value


@lru_cache(maxsize=512)
def _normalised_group(group: tuple[str, ...]) -> dict[str, None]:
    """The phrases of a group, normalised, without empties and duplicates (ordered)."""
    return dict.fromkeys(p for p in map(normalise, group) if p)


@cache
def _text2num_word(word: str, lang: str) -> int | None:
    """text2num of one word, or ``None`` (cached: compounds are looked up often)."""
    try:
        return int(text2num(word, lang))
    except (ValueError, TypeError):
        return None


@cache
def understanding(lang: str) -> Understanding:
    """The (cached) :class:`Understanding` for ``lang``."""
    return Understanding(lang)
