"""Every transcript is cleaned once, where it enters the host (the listener boundary).

Speech never holds control characters, line separators or 5,000-digit numbers, but a
script, a keyboard or a misbehaving engine can: :func:`clean_text` makes any string
safe for every parser behind it.
"""

from __future__ import annotations

import math
import re
import unicodedata

from voicegame.ports import Heard

#: The longest utterance kept, in characters: about 60 seconds of fast speech.
MAX_UTTERANCE_CHARS = 600

#: Unicode categories replaced by a space: controls, format characters, line and
#: paragraph separators, unassigned/private code points, surrogates.
_DROP = {"Cc", "Cf", "Zl", "Zp", "Co", "Cn", "Cs"}
_SPACES = re.compile(r"\s+")


def clean_text(text: str) -> str:
    """``text`` in NFKC form (so "²", "①", full-width digits become plain digits), every
    control / separator character a space, runs of spaces one, trimmed, at most
    :data:`MAX_UTTERANCE_CHARS` characters (cut at a word boundary where there is one)."""
    text = unicodedata.normalize("NFKC", str(text))
    text = "".join(" " if unicodedata.category(ch) in _DROP else ch for ch in text)
    text = _SPACES.sub(" ", text).strip()
    if len(text) > MAX_UTTERANCE_CHARS:
        cut = text[:MAX_UTTERANCE_CHARS]
        text = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return text


def clean_heard(heard: Heard) -> Heard:
    """A :class:`Heard` with its text and alternatives cleaned and its confidence in 0.0–1.0."""
    confidence = heard.confidence if isinstance(heard.confidence, (int, float)) else 1.0
    if not math.isfinite(confidence):
        confidence = 0.0
    duration = heard.duration_s if isinstance(heard.duration_s, (int, float)) and math.isfinite(heard.duration_s) else 0.0
    return Heard(clean_text(heard.text), tuple(clean_text(a) for a in heard.alternatives[:10]),
                 min(1.0, max(0.0, float(confidence))), max(0.0, float(duration)))
