"""Text made ready for a speech engine: numbers written as digits become words.

espeak-ng reads "1,200,000" or "3.5" unreliably and differently per voice, so the
host turns every number into words with ``num2words`` in the game's language
before speaking (en, es, nl; any language num2words knows works).

Number syntax, per language:

- en: ``,`` groups thousands, ``.`` is the decimal point ("1,200,000", "3.5").
- es, nl (and others): ``.`` groups thousands, ``,`` is the decimal comma
  ("1.200.000", "3,5"). A separator is read as grouping only when every group
  after it has exactly three digits; a repeated separator with three-digit groups
  is grouping in any language ("1.200.000" in English); otherwise a single
  separator of either kind is a decimal point ("3.5" in Spanish is still 3,5).
- A leading ``-`` or ``−`` is "minus" only at the start of a number that does not
  follow a letter or digit ("-5", but "3-5" stays a range: "three-five").

Years — the heuristic: a number is read as a year (num2words ``to="year"``:
"nineteen eighty-four", "ten sixty-six") when it has no sign, separator or decimals, has
four digits, and either (a) lies between 1000 and 2099, or (b) the word before it is a year
cue ("in", "since", "year", "en", "desde", "año", "sinds", "jaar", …), as in "in 2150". So
write quantities from 1000 up with a thousands separator ("1,500 chips", "1,066 metres") to
have them read as quantities (the Wits host does).

Decimals: English reads the digits after the point one by one ("three point one four");
a language whose ``[speech]`` table in ``words.toml`` says ``decimal_digits = "number"``
reads one or two of them as a number, zeros in front one by one ("diez coma cuarenta y nueve",
"drie komma nul vijf"); three digits or more stay digit by digit, as a table reads them
("drie komma zeven acht vijf liter").

Units after exactly 1 are said in the singular: ``[speech.singular]`` of ``words.toml`` maps
a plural unit to its singular ("1 grams" → "one gram", "1 horas" → "una hora"); the longest
unit that starts the words after the 1 is taken.

Ordinals with a suffix are read as ordinals: en "2nd", "21st"; es "2º", "2ª",
"2.º"; nl "2e", "2de", "8ste". "°" after a number reads "degrees" (grados, graden),
"%" reads "percent" (por ciento, procent).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import cache

from num2words import num2words


def _speech_words(lang: str) -> dict:
    """The ``[speech]`` table of ``prompts/<lang>/words.toml`` (empty if none)."""
    from voicegame.language.prompts import PromptError, load_toml

    try:
        return load_toml(lang, "words").get("speech", {})
    except PromptError:
        return {}


def _agree(words: str, following: str, lang: str) -> str:
    """Gender agreement of a cardinal with the noun after it (Spanish: "veintiuna fichas",
    "doscientas personas"); the feminine nouns are listed in words.toml ``[speech]``."""
    speech = _speech_words(lang)
    feminine = set(speech.get("feminine_nouns", ()))
    if not feminine:
        return words
    if following.lower() not in feminine:
        # masculine nouns shorten "uno": "veintiún metros", "un año"; not before "de", "y"…
        if following.isalpha() and following.lower() not in set(speech.get("not_nouns", ())):
            if words.endswith("iuno"):
                return words[:-4] + "iún"
            if words == "uno" or words.endswith(" uno"):
                return words[:-3] + "un"
        return words
    out = []
    for w in words.split(" "):
        if w.endswith("cientos"):
            w = w[:-2] + "as"
        elif w in ("uno", "un") or w.endswith("iuno") or w.endswith("iún"):
            w = w[: -len("uno")] + "una" if w.endswith("uno") else (w[:-2] + "una" if w.endswith("ún") else "una")
        out.append(w)
    return " ".join(out)

_DEGREES = {"en": ("degree", "degrees"), "es": ("grado", "grados"), "nl": ("graad", "graden")}
_PERCENT = {"en": "percent", "es": "por ciento", "nl": "procent"}
_YEAR_CUES = {
    "en": {"in", "since", "year", "until", "till", "by", "before", "after", "around"},
    "es": {"en", "desde", "año", "hasta", "antes", "después", "hacia"},
    "nl": {"in", "sinds", "jaar", "tot", "voor", "na", "rond"},
}
_THOUSANDS = {"en": ","}  # every other language: "."

_ORDINAL = {
    "en": re.compile(r"(?<![\w.,])(\d+)(st|nd|rd|th)\b", re.IGNORECASE),
    "es": re.compile(r"(?<![\w.,])(\d+)\.?([ºª])"),
    "nl": re.compile(r"(?<![\w.,])(\d+)(ste|de|e)\b"),
}
# sign, digits with optional separators, optional unit sign
_NUMBER = re.compile(r"(?P<sign>(?<![\w.,])[-−])?(?P<num>\d+(?:[.,]\d+)*)(?P<unit>\s?[°%])?")


def _n2w(value, lang: str, **kw) -> str:
    try:
        return num2words(value, lang=lang, **kw)
    except (NotImplementedError, OverflowError, ValueError, TypeError, InvalidOperation):
        if "to" in kw:  # e.g. no year/ordinal form in this language: plain cardinal
            return _n2w(value, lang)
        digits = str(value).lstrip("-")
        return " ".join(num2words(int(d), lang=lang) for d in digits if d.isascii() and d.isdigit())


def _grouping(num: str, sep: str) -> bool:
    groups = num.split(sep)
    return len(groups) > 1 and 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


def _parse(num: str, lang: str) -> tuple[Decimal, bool]:
    """``(value, plain)`` for a digit string; ``plain`` = no separator at all.

    :raises InvalidOperation: the separators make no number ("1.2.3").
    """
    thousands = _THOUSANDS.get(lang, ".")
    decimal = "." if thousands == "," else ","
    seps = re.findall(r"[.,]", num)
    if not seps:
        return Decimal(num), True
    head, _, tail = num.partition(decimal)
    if _grouping(head, thousands) and (not tail or tail.isdigit()):
        whole = head.replace(thousands, "")
        return Decimal(f"{whole}.{tail}" if tail else whole), False
    if len(seps) > 1 and len(set(seps)) == 1 and _grouping(num, seps[0]):
        return Decimal(num.replace(seps[0], "")), False  # the other convention: "1.200.000" in en
    if len(seps) == 1:  # one separator that is not grouping: a decimal point
        return Decimal(num.replace(",", ".")), False
    raise InvalidOperation(num)


def _previous_word(text: str, start: int) -> str:
    m = re.search(r"(\w+)\W*$", text[:start])
    return m.group(1).lower() if m else ""


def speakable(text: str, lang: str = "en") -> str:
    """``text`` with every number written in digits turned into words of ``lang``.

    :param text: text for the speech engine.
    :param lang: a num2words language code (``"en"``, ``"es"``, ``"nl"``).
    :returns: the same text without digits ("3.5" → "three point five").
    """
    ordinal = _ORDINAL.get(lang)
    if ordinal is not None:
        def _ord(m: re.Match) -> str:
            words = _n2w(int(m.group(1)), lang, to="ordinal")
            if lang == "es" and m.group(2) == "ª" and words.endswith("o"):
                words = words[:-1] + "a"
            return words
        text = ordinal.sub(_ord, text)

    def _num(m: re.Match) -> str:
        sign, num, unit = m.group("sign"), m.group("num"), (m.group("unit") or "").strip()
        try:
            value, plain = _parse(num, lang)
        except InvalidOperation:  # e.g. "1.2.3": read each part
            words = " ".join(_n2w(int(p), lang) for p in re.split(r"[.,]", num))
            return (f"{_n2w(-1, lang).split()[0]} " if sign else "") + words + _unit(unit, 2, lang)
        if sign:
            value = -value
        is_int = value == value.to_integral_value() and plain
        year = (
            is_int and not sign and not unit and len(num) == 4
            and (1000 <= int(value) <= 2099
                 or _previous_word(text, m.start()) in _YEAR_CUES.get(lang, set()))
        )
        if year:
            words = _n2w(int(value), lang, to="year")
        elif is_int:
            words = _n2w(int(value), lang)
        else:
            words = _decimal_words(value, lang)
        spoken_unit = _unit(unit, value, lang)
        following = re.match(r"\s*(\w+)", spoken_unit or text[m.end():])
        if following and " " + _decimal_word(lang) + " " not in words:  # "uno coma cinco horas"
            words = _agree(words, following.group(1), lang)
        return words + spoken_unit

    return _NUMBER.sub(_num, _singular_after_one(text, lang))


def _decimal_word(lang: str) -> str:
    return _speech_words(lang).get("decimal_word") or {"en": "point", "es": "punto", "nl": "komma"}.get(lang, "")


def _decimal_words(value: Decimal, lang: str) -> str:
    """A number with decimals in words: "three point one four"; where the language reads the
    digits after the mark as a number, "diez coma cuarenta y nueve", "drie komma nul vijf"."""
    words = _n2w(value, lang)
    decimal_word = _speech_words(lang).get("decimal_word")
    if decimal_word:  # Spain says "coma", num2words says "punto"
        words = re.sub(r"\b(punto|point|komma|punt)\b", decimal_word, words)
    if _speech_words(lang).get("decimal_digits") != "number":
        return words
    digits = format(abs(value), "f").partition(".")[2]
    significant = digits.lstrip("0")
    if not significant or len(significant) > 2:
        return words
    whole = _n2w(int(abs(value)), lang)
    minus = _n2w(-1, lang).split()[0] + " " if value < 0 else ""
    zeros = [_n2w(0, lang)] * (len(digits) - len(significant))
    return " ".join([minus + whole, _decimal_word(lang), *zeros, _n2w(int(significant), lang)])


def _singular_after_one(text: str, lang: str) -> str:
    """"1 grams" → "1 gram", "1 horas" → "1 hora": after exactly 1 (not 1.5, not 21), the unit
    from ``[speech.singular]`` of ``words.toml`` in the singular."""
    singular = _speech_words(lang).get("singular") or {}
    if not singular:
        return text
    pattern = _singular_pattern(tuple(sorted(singular, key=len, reverse=True)))
    return pattern.sub(lambda m: m.group(1) + singular[m.group(2)], text)


@cache
def _singular_pattern(units: tuple[str, ...]) -> re.Pattern:
    alternatives = "|".join(re.escape(u) for u in units)
    return re.compile(rf"((?<![\w.,])[-−]?1\s+)({alternatives})(?![\w'])")


def _unit(unit: str, value, lang: str) -> str:
    if unit == "°":
        one, many = _DEGREES.get(lang, _DEGREES["en"])
        return " " + (one if abs(value) == 1 else many)
    if unit == "%":
        return " " + _PERCENT.get(lang, "percent")
    return ""


def format_number(value: int | float, decimal_mark: str = ".", places: int | None = None) -> str:
    """A number as written in the language: ``3.5`` → ``"3,5"`` with ``decimal_mark=","``;
    never in exponent form; ``places`` fixes the decimals (a confidence: ``"1,00"``)."""
    if places is not None:
        text = f"{value:.{places}f}"
    elif isinstance(value, float) and not value.is_integer():
        text = format(Decimal(repr(value)), "f")
    else:
        text = str(int(value))
    return text.replace(".", decimal_mark)
