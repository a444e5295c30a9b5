"""How much the host says: words, sentences and turns of a printed game.

A voice host is judged by what players must sit through: the words before anyone
may speak, the words per turn, the length of each re-prompt and of the longest
sentence. These functions count them on the text output of a game
(``HOST: …`` / ``PLAYER: …`` lines, as ``--output text`` prints), and on the
sentences of a prompts file. Figures go into ``voicegame bench`` (voice group)
and the budget tests.
"""

from __future__ import annotations

import re
import statistics
from typing import Iterable

#: Most words a spoken sentence may have.
SENTENCE_WORDS = 25
#: Most host words before the first input of a game.
OPENING_WORDS = 40

_SENTENCE_END = re.compile(r"(?<=[.?!…])[\"”»)]?\s+(?=[\"“«(¿¡]?[A-ZÁÉÍÓÚÑÜ0-9])")
_PLACEHOLDER = re.compile(r"\{[^}]*\}")


def words(text: str) -> int:
    """Spoken words in ``text`` (a placeholder counts as one word)."""
    return len(_PLACEHOLDER.sub("x", text).split())


def heard_words(lines: Iterable[tuple[str, str]]) -> int:
    """Words of a host's ``(how, text)`` lines as the opening budget counts them: said
    (``"say"``) and private (``"private"``) lines, but a private line right after another
    (G2's second telling of a secret) and printed ones (``"screen"``) left out."""
    n, before = 0, ""
    for how, text in lines:
        if how == "say" or (how == "private" and before != "private"):
            n += words(text)
        before = how
    return n


def sentences(text: str) -> list[str]:
    """``text`` split into sentences (at ``.``, ``?``, ``!`` before a capital or digit)."""
    return [s.strip() for s in _SENTENCE_END.split(text.strip()) if s.strip()]


#: Most items of a spoken list (the rest on request).
LIST_ITEMS = 3
_CONJUNCTION = re.compile(r"\s(?:or|and|o|u|y|e|of|en)\s", re.I)
_CLAUSE = re.compile(r"[:;?!.…]")


def list_items(sentence: str) -> int:
    """Items of the longest spoken list in ``sentence``: in each clause (split at ``:`` and
    ``;``), the comma-separated parts, plus one when the last part joins two with a
    conjunction ("left, right, a little left, or lock it in" → 4; "Red 5, Blue 2 and Green 1" → 3)."""
    best = 1
    for clause in _CLAUSE.split(sentence):
        parts = [p for p in clause.split(",") if p.strip()]
        if not parts:
            continue
        n = len(parts)
        last = " " + parts[-1].strip() + " "
        if n >= 2 and _CONJUNCTION.search(last[1:]) and not _CONJUNCTION.match(last):
            n += 1
        best = max(best, n)
    return best


def longest_sentence(texts: Iterable[str]) -> tuple[int, str]:
    """The most words of any sentence in ``texts``, and that sentence."""
    best = (0, "")
    for text in texts:
        for sentence in sentences(text):
            n = words(sentence)
            if n > best[0]:
                best = (n, sentence)
    return best


def turns(output: str) -> list[list[str]]:
    """The host's lines between two player inputs: ``[[host line, …] before input 1, …]``.

    Lines are those of ``--output text``: ``HOST: …`` (private lines count too: they are
    spoken), ``PLAYER: …``; anything else is ignored.
    """
    out: list[list[str]] = [[]]
    for line in output.splitlines():
        if line.startswith("PLAYER:"):
            out.append([])
        elif line.startswith("HOST:"):
            out[-1].append(line[5:].strip())
        elif line.startswith("PRIVATE"):
            out[-1].append(line.split(":", 1)[1].strip() if ":" in line else "")
    return out


def figures(output: str, reprompts: Iterable[str] = ()) -> dict:
    """Voice figures of one printed game.

    :param reprompts: sentences that are re-prompts (nudges, re-asks), to measure
        the words per re-prompt.
    :returns: ``{"before_first_input", "per_turn_median", "per_turn_max", "turns",
        "reprompt_words_max", "longest_sentence", "longest"}`` (words).
    """
    host_turns = turns(output)
    per_turn = [sum(words(x) for x in t) for t in host_turns[1:] if t] or [0]
    reprompt_set = set(reprompts)
    said = [x for t in host_turns for x in t]
    longest = longest_sentence(said)
    re_words = [words(x) for x in said if x in reprompt_set]
    return {"before_first_input": sum(words(x) for x in host_turns[0]),
            "per_turn_median": statistics.median(per_turn), "per_turn_max": max(per_turn),
            "turns": len(host_turns) - 1, "reprompt_words_max": max(re_words, default=0),
            "longest_sentence": longest[0], "longest": longest[1]}


def prompt_sentences(table: dict, prefix: str = "") -> Iterable[tuple[str, str]]:
    """Every sentence of a prompts table as ``(key, sentence)`` (lists and sub-tables too)."""
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from prompt_sentences(value, name + ".")
        elif isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, str):
                    for s in sentences(item):
                        yield f"{name}[{i}]", s
        elif isinstance(value, str):
            for s in sentences(value):
                yield name, s
