"""A host prompt cut into sentences and clauses, the pieces a neural voice speaks one by one.

Piper makes a sentence in one inference, so the first sound waits for the whole first
sentence; cut at its clauses, it starts once the first clause is made (measured:
"Red team," in 38 ms against 126 ms for the whole sentence, and the two pieces last as
long as the whole, the comma's pause kept; docs/performance.md §9).

Rules (pure text, stdlib only):

- sentences end at ``.``, ``!``, ``?`` or ``…`` (closing quotes and brackets kept with them)
  followed by white space;
- clauses end at ``,``, ``;``, ``:`` followed by white space, and at a dash: `` - ``,
  `` – `` or `` — `` between spaces, or ``—`` anywhere; the mark stays at the end of its
  clause (the voice keeps its pause). A mark with no space after it is no break, so
  "1,500", "3,5" and "3-5" stay whole: digits are split here, before they become words
  (``speakable`` reads "1,500" as "one thousand, five hundred", a comma that is no clause);
- nothing is cut inside quotes or brackets (``"…"``, ``“…”``, ``„…”``, ``«…»``, ``(…)``),
  nor inside a Spanish ``¿…?`` or ``¡…!`` (the question's or the exclamation's tune
  spans it); an opener never closed guards nothing;
- a clause of fewer than ``min_words`` words is joined to the next one in its sentence
  (the last one to the one before), so no "Yes," is spoken alone.
"""

from __future__ import annotations

import re

#: fewer words than this and a clause is joined to its neighbour: "Red team," (2) stays a
#: clause of its own, "Yes," (1) does not
MIN_WORDS = 2
_OPENERS = {'"': '"', "“": "”", "„": "”“", "«": "»", "(": ")", "[": "]", "¿": "?", "¡": "!"}
_SENTENCE_END = ".!?…"
_CLAUSE_END = ",;:"
_CLOSING = "\"”»)]’'"
_DASHES = "-–—"
_WORD = re.compile(r"\w", re.UNICODE)


def _cuts(text: str) -> list[tuple[int, bool]]:
    """Where ``text`` may be cut: ``(index after the mark and its closers, is a sentence end)``."""
    cuts: list[tuple[int, bool]] = []
    stack: list[str] = []
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        if stack and c in stack[-1]:
            stack.pop()
            if c in "?!":  # ¿…? / ¡…! closed: the sentence may end here
                j = i + 1
                while j < n and text[j] in _CLOSING:
                    j += 1
                if not stack and (j == n or text[j].isspace()):
                    cuts.append((j, True))
                    i = j
                    continue
            i += 1
            continue
        if c in _OPENERS and any(k in text[i + 1:] for k in _OPENERS[c]):  # an unclosed one guards nothing
            stack.append(_OPENERS[c])
            i += 1
            continue
        if stack:
            i += 1
            continue
        if c in _SENTENCE_END or c in _CLAUSE_END:
            j = i + 1
            while j < n and (text[j] in _SENTENCE_END or text[j] in _CLOSING):
                j += 1
            if j == n or text[j].isspace():
                cuts.append((j, any(ch in _SENTENCE_END for ch in text[i:j])))
                i = j
                continue
        elif c in _DASHES:
            spaced = (i == 0 or text[i - 1].isspace()) and (i + 1 == n or text[i + 1].isspace())
            if spaced or c == "—":
                cuts.append((i + 1, False))
        i += 1
    return cuts


def _words(clause: str) -> int:
    return sum(1 for w in clause.split() if _WORD.search(w))


def _merge(pieces: list[str], min_words: int) -> list[str]:
    """One sentence's clauses with the short ones joined to a neighbour."""
    out: list[str] = []
    held = ""
    for piece in pieces:  # each with the white space that followed it: joined as written
        held += piece
        if _words(held) >= min_words:
            out.append(held)
            held = ""
    if held.strip():
        if out and _words(held) < min_words:
            out[-1] += held
        else:
            out.append(held)
    return [c.strip() for c in out]


def sentences_and_clauses(text: str, min_words: int = MIN_WORDS) -> list[list[str]]:
    """``text``'s sentences, each as its clauses (white space inside each made single).

    :param min_words: a clause with fewer words is joined to a neighbour (see the module).
    :returns: e.g. ``[["Red team,", "turn the dial."], ["Go!"]]``; ``[]`` for blank text.
    """
    text = " ".join(text.split())
    sentences: list[list[str]] = []
    clause_pieces: list[str] = []
    start = 0
    for end, is_sentence in _cuts(text) + [(len(text), True)]:
        piece = text[start:end]
        start = end
        if piece.strip():
            clause_pieces.append(piece)
        elif clause_pieces:
            clause_pieces[-1] += piece
        if is_sentence and clause_pieces:
            sentences.append(_merge(clause_pieces, min_words))
            clause_pieces = []
    return sentences


def clauses(text: str, min_words: int = MIN_WORDS) -> list[str]:
    """``text`` as the clauses to speak one by one, in order (see the module docstring).

    >>> clauses("Red team, turn the dial to where the target is.")
    ['Red team,', 'turn the dial to where the target is.']
    >>> clauses("Yes, that is 1,500 points.")
    ['Yes, that is 1,500 points.']
    """
    return [c for sentence in sentences_and_clauses(text, min_words) for c in sentence]
