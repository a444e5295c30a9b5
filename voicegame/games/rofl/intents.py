"""ROFL! phrases: board claims, writers' verdicts, disqualification, a guesser's pass, rules.

Colours and numbers come from the core :class:`~voicegame.language.words.Understanding`;
the ROFL!-only words are in ``prompts/<lang>/words_rofl.toml``. A recognizer cannot tell
voices apart, so a player names themselves by colour: "blue, seven" (R2), "blue says
correct" (R4); right after the host asks one writer by name the colour may be left out.

Intents (frozen dataclasses) are returned as said; whether the rules allow them is the
host's question (:mod:`voicegame.games.rofl.rules`). What is not one of the phrases
raises :class:`~voicegame.engine.table.NotUnderstood`; two colours at once raise
:class:`TwoColours` (ambiguous: who spoke?).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from num2words import num2words

from voicegame.engine.table import NotUnderstood
from voicegame.language.prompts import load_toml
from voicegame.language.words import Understanding, normalise, understanding

#: The board spaces a claim may name (R2); used for the grammar only.
GRAMMAR_SPACES = range(1, 21)


class TwoColours(NotUnderstood):
    """Two different colours in one utterance: ambiguous, nobody knows who spoke.

    :ivar colours: the colour keys heard, in order.
    """

    def __init__(self, colours: list[str]):
        super().__init__(f"two colours: {colours}")
        self.colours = colours


@dataclass(frozen=True)
class ClaimIntent:
    """A writer claims a board space, or passes (R2).

    :param colour: the writer's colour key (``"blue"``).
    :param space: the number said (may be off the board or not whole: the rules
        decide); ``None`` for a pass.
    """

    colour: str
    space: int | float | None

    @property
    def is_pass(self) -> bool:
        return self.space is None


@dataclass(frozen=True)
class Verdict:
    """A player's judgement of a guess (R4 overrule, R7 own message).

    :param colour: who said it, or ``None`` when no colour was said.
    :param correct: ``True`` "correct", ``False`` "wrong", ``None`` "agreed"
        (keep the host's judgement).
    :param yes: the agreement was a plain yes ("yes", "sí", "vale"… "ja", "klopt"): it
        keeps the host's judgement, and when the host cannot judge (own messages, R7)
        a writer's "blue, yes" says the guess is correct.
    """

    colour: str | None
    correct: bool | None
    yes: bool = False


@dataclass(frozen=True)
class Disqualify:
    """"Disqualified" said at reveal (R3).

    :param colour: the colour named with it ("blue is disqualified"), or ``None``.
    """

    colour: str | None


class RoflUnderstanding:
    """Turns ROFL! transcripts into intents.

    :param lang: a language with ``prompts/<lang>/words.toml`` and ``words_rofl.toml``.
    :raises voicegame.prompts.PromptError: a words file is missing or malformed.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.core: Understanding = understanding(lang)
        words = load_toml(lang, "words_rofl")
        self.pass_words = tuple(words["claim"]["pass"])
        self.claim_filler = frozenset(words["claim"]["filler"])
        self.correct_words = tuple(words["verdict"]["correct"])
        self.wrong_words = tuple(words["verdict"]["wrong"])
        self.agree_words = tuple(words["verdict"]["agree"])
        self.yes_words = tuple(words["verdict"]["yes"])
        self.verdict_filler = frozenset(words["verdict"]["filler"])
        self.disqualify_words = tuple(words["disqualify"]["words"])
        self.disqualify_filler = frozenset(words["disqualify"]["filler"])
        self.guess_pass_words = tuple(words["guess"]["pass"])
        self.rules_words = tuple(words["rules"]["words"])
        self.more_words = tuple(words["rules"]["more"])
        self.again_words = frozenset(normalise(w) for w in words["rules"].get("again", ()))

    # ------------------------------------------------------------------ helpers
    def _split_colour(self, text: str) -> tuple[str | None, list[str]]:
        """``(colour or None, the other words)``. :raises TwoColours: two different colours."""
        words = normalise(text).split()
        found = [(i, c) for i, w in enumerate(words) if (c := self.core.colour(w)) is not None]
        if not found:
            return None, words
        if len({c for _, c in found}) > 1:
            raise TwoColours(list(dict.fromkeys(c for _, c in found)))
        colour = found[0][1]
        return colour, [w for i, w in enumerate(words) if all(i != j for j, _ in found)]

    # ------------------------------------------------------------------ intents
    def claim(self, text: str, default_colour: str | None = None) -> ClaimIntent:
        """A claim ("blue, seven", "blue takes space 12") or a pass ("blue, pass").

        :param default_colour: the writer the host just asked by name; then a bare
            "seven" or "pass" is theirs.
        :raises NotUnderstood: not a claim (no colour and no default, no number, extra words).
        :raises TwoColours: two colours said.
        """
        colour, rest = self._split_colour(text)
        colour = colour or default_colour
        if colour is None:
            raise NotUnderstood(text)
        said = " ".join(rest)
        rest = [w for w in rest if w not in self.claim_filler]
        if not rest:
            raise NotUnderstood(text)
        phrase = " ".join(rest)
        if phrase in self.pass_words or said in self.pass_words:  # "azul, sin ficha", "blauw, geen pion"
            return ClaimIntent(colour, None)
        number = self.core.number(phrase, year=False)
        if number is None:
            raise NotUnderstood(text)
        return ClaimIntent(colour, number)

    def verdict(self, text: str) -> Verdict:
        """"blue says correct", "green, wrong", "agreed", "yes, agreed", "ja, klopt" →
        :class:`Verdict`.

        The words after the colour must be verdict phrases only (filler aside), read as
        few, long phrases as possible: all agreement ("yes", "agreed") → agreement; else
        "correct" or "wrong" (a "yes" beside it changes nothing: "yes, correct").

        :raises NotUnderstood: not a verdict, or both "correct" and "wrong".
        :raises TwoColours: two colours said.
        """
        colour, rest = self._split_colour(text)
        phrase = [w for w in rest if w not in self.verdict_filler]
        # the phrase without filler words first, then as said ("no es correcto", "mee eens")
        for candidate in (phrase, rest):
            kinds = self._verdict_kinds(candidate)
            if kinds is None:
                continue
            if "correct" in kinds and "wrong" in kinds:
                raise NotUnderstood(text)
            if "correct" in kinds:
                return Verdict(colour, True)
            if "wrong" in kinds:
                return Verdict(colour, False)
            return Verdict(colour, None, yes="yes" in kinds)
        raise NotUnderstood(text)

    def _verdict_kinds(self, words: list[str]) -> set[str] | None:
        """The kinds ("correct", "wrong", "agree", "yes") of the fewest verdict phrases that
        make up ``words`` exactly, or ``None`` when they cannot."""
        if not words:
            return None
        lists = (("correct", self.correct_words), ("wrong", self.wrong_words),
                 ("agree", self.agree_words), ("yes", self.yes_words))
        n = len(words)
        best: list[tuple[int, set[str]] | None] = [None] * (n + 1)  # fewest phrases covering words[:i]
        best[0] = (0, set())
        for i in range(n):
            if best[i] is None:
                continue
            for j in range(n, i, -1):
                said = " ".join(words[i:j])
                kind = next((k for k, phrases in lists if said in phrases), None)
                if kind is None:
                    continue
                count, kinds = best[i][0] + 1, best[i][1] | {kind}
                if best[j] is None or count < best[j][0]:
                    best[j] = (count, kinds)
        return best[n][1] if best[n] is not None else None

    def disqualify(self, text: str) -> Disqualify:
        """"disqualified", "blue is disqualified", "too many characters" → :class:`Disqualify`.

        :raises NotUnderstood: not a disqualification. :raises TwoColours: two colours said.
        """
        colour, rest = self._split_colour(text)
        phrase = " ".join(w for w in rest if w not in self.disqualify_filler)
        if phrase in self.disqualify_words or " ".join(rest) in self.disqualify_words:
            return Disqualify(colour)
        raise NotUnderstood(text)

    def guess_pass(self, text: str) -> bool:
        """True when the guesser gives up on the message on show ("pass", "no idea")."""
        return normalise(text) in self.guess_pass_words

    def rules_request(self, text: str) -> bool:
        """"rules", "how to play" (the first chunk of the rules) or "more" (the next one)."""
        said = normalise(text)
        return said in self.rules_words or said in self.more_words

    def message_again(self, text: str) -> bool:
        """True when a writer asks to hear the secret again ("the message again", G2)."""
        return normalise(text) in self.again_words

    def rules_more(self, text: str) -> bool:
        """True for "more" (go on with the rules), False for "rules" (from the start)."""
        return normalise(text) in self.more_words

    def is_ready(self, text: str) -> bool:
        """"ready" / "done": everyone has finished writing (timer off)."""
        return self.core.is_ready(text)

    # ------------------------------------------------------------------ grammar
    def space_words(self) -> list[str]:
        """The words of the numbers 1–20 (``num2words``), for a recognizer grammar."""
        out: list[str] = []
        for n in GRAMMAR_SPACES:
            out.extend(normalise(num2words(n, lang=self.lang)).split())
        return list(dict.fromkeys(out))

    def colour_phrases(self, colours) -> list[str]:
        """Every way the given colour keys are said in this language ("red" → "rojo", "roja")."""
        return [p for c in colours for p in self.core.colour_words.get(c, (c,))]

    def claim_phrases(self, colours) -> list[str]:
        """Grammar phrases of the claiming moment: the colours (keys, said in this language),
        1–20, pass and filler words, ready."""
        return [*self.colour_phrases(colours), *self.space_words(), *self.pass_words, *sorted(self.claim_filler),
                *self.core.ready_words, *self.rules_words, *self.more_words, *sorted(self.again_words)]

    def verdict_phrases(self, colours) -> list[str]:
        """Grammar phrases of the overrule/verdict moment (colours as in :meth:`claim_phrases`)."""
        return [*self.colour_phrases(colours), *self.correct_words, *self.wrong_words, *self.agree_words,
                *self.yes_words, *sorted(self.verdict_filler), *self.disqualify_words, *self.rules_words,
                *self.more_words]

    def all_words(self, colours) -> set[str]:
        """Every grammar word of the game (for the vocabulary check at game start)."""
        phrases = (self.claim_phrases(colours) + self.verdict_phrases(colours)
                   + list(self.disqualify_words) + list(self.guess_pass_words) + list(self.rules_words)
                   + list(self.more_words))
        return {w for p in phrases for w in normalise(p).split()}


@cache
def rofl_understanding(lang: str) -> RoflUnderstanding:
    """The (cached) :class:`RoflUnderstanding` for ``lang``."""
    return RoflUnderstanding(lang)
