"""Wavelength phrases → intents: dial moves (W7), left/right calls (W5), turn commands (W8).

Built on the core :class:`voicegame.understanding.Understanding` (numbers, side
words, fuzzy snapping); the Wavelength words live in
``prompts/<lang>/words_wavelength.toml``.

Dial control (W7), degrees, 0° = the card's left concept, 180° = its right one (W1):

==========================================  =====================================
said                                        meaning
==========================================  =====================================
"left", "right", "more Hot", "toward Cold"  move 15° that way (the plain step)
"a tiny bit left", "a touch toward Cold"    move 1°
"a little right", "slightly more Hot"       move 5°
"way left", "a lot more Cold"               move 45°
"less Hot"                                  move 15° away from Hot
"ten degrees left", "left 3"                move that many degrees
"all the way right", "all the way to Cold"  0° or 180°
"centre" / "center" / "middle"              90°
"forty degrees" (a number, no direction)    that angle
"where is it?"                              say the position in words
"lock it in"                                end the dial phase (after a read-back)
==========================================  =====================================

A card's concept is matched as whole words of the utterance, hyphens read as
spaces ("Cutting-edge" = "cutting edge"); after a cue word ("more", "toward",
"less") a near miss is snapped to the nearer concept with rapidfuzz. Any word
that is not a known size, side, concept, number or filler word makes the
utterance not understood — the host never guesses.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from voicegame.prompts import load_toml
from voicegame.understanding import normalise, understanding

#: Dial command kinds.
MOVE, SET, WHERE, LOCK = "move", "set", "where", "lock"
#: Edge positions, degrees (W1).
LEFT_EDGE, RIGHT_EDGE, CENTRE = 0.0, 180.0, 90.0
#: rapidfuzz score (0–100) a near-miss concept must reach to be snapped.
CONCEPT_CUTOFF = 85.0


@dataclass(frozen=True)
class DialCommand:
    """One dial utterance, understood (W7).

    :param kind: ``"move"`` (relative), ``"set"`` (absolute), ``"where"`` or ``"lock"``.
    :param degrees: for ``move`` the signed change in degrees (negative = toward
        the left concept); for ``set`` the wanted angle in degrees (may lie
        outside 0–180°: the host clamps it and says so); else 0.
    """

    kind: str
    degrees: float = 0.0


@dataclass(frozen=True)
class Call:
    """A left/right utterance, understood (W5).

    :param side: ``"left"``, ``"right"``, or ``None`` for "pass" (no call).
    :param team: index of the team named in the utterance ("Blue, left"), or
        ``None`` when no team was named.
    """

    side: str | None
    team: int | None


def concept_key(text: str) -> str:
    """A concept or transcript as comparable words: normalised, hyphens as spaces."""
    return " ".join(normalise(text.replace("-", " ")).split())


def _phrase_tokens(phrases) -> list[tuple[str, ...]]:
    """Phrases as token tuples, longest first (so "a little bit" wins over "a little")."""
    return sorted({tuple(concept_key(p).split()) for p in phrases if concept_key(p)}, key=len, reverse=True)


class WavelengthUnderstanding:
    """Understands the Wavelength listening moments of one language.

    :param lang: a language with ``prompts/<lang>/words.toml`` and ``words_wavelength.toml``.
    :raises voicegame.prompts.PromptError: a words file is missing or malformed.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.core = understanding(lang)
        w = load_toml(lang, "words_wavelength")
        self.default_teams: list[str] = list(w["default_teams"])
        dial = w["dial"]
        self.plain_step = float(dial["plain_step"])
        self.steps: list[tuple[tuple[str, ...], float]] = sorted(
            ((tuple(concept_key(p).split()), float(step["degrees"])) for step in dial["steps"] for p in step["words"]),
            key=lambda item: len(item[0]), reverse=True)
        phrases = dial["phrases"]
        self.lock_phrases = {concept_key(p) for p in phrases["lock"]}
        self.where_phrases = {concept_key(p) for p in phrases["where"]}
        self.centre_phrases = {concept_key(p) for p in phrases["centre"]}
        self.centre_words = {w for p in self.centre_phrases for w in p.split()}
        self.edge_phrases = _phrase_tokens(phrases["edge"])
        self.less_words = {concept_key(p) for p in phrases["less"]}
        self.dial_filler = {concept_key(p) for p in phrases["filler"]}
        call = w["call"]
        self.call_filler = {concept_key(p) for p in call["filler"]}
        self.pass_phrases = {concept_key(p) for p in call["pass"]}
        self.team_words = {concept_key(p) for p in call["team"]}
        turn = w["turn"]
        self.other_side_phrases = {concept_key(p) for p in turn["other_side"]}
        self.redo_phrases = {concept_key(p) for p in turn["redo"]}
        # single side words from the core words ("left", "lefter"); phrases are handled by filler words
        self.side_tokens = {p: side for side, ps in self.core.side_words.items() for p in ps if " " not in p}
        self.cue_words = {"more", "toward", "towards", "closer", "to"} | self.less_words

    # ------------------------------------------------------------------ whole phrases
    def is_other_side(self, text: str) -> bool:
        """True when the utterance asks to use the card's back side."""
        return concept_key(text) in self.other_side_phrases

    def is_redo(self, text: str) -> bool:
        """True when the utterance is "redo": the Psychic gave the target away (W8)."""
        return concept_key(text) in self.redo_phrases

    def _is_centre(self, key: str) -> bool:
        """"move it back to the middle": only filler and centre words, one of them a centre word."""
        rest = [t for t in key.split() if t not in self.dial_filler]
        return bool(rest) and all(t in self.centre_words for t in rest) and any(t in self.centre_phrases for t in rest)

    # ------------------------------------------------------------------ tokens
    def _tag(self, text: str, left: str, right: str, team_names=None) -> tuple[list[str], int | None] | None:
        """Tokens of ``text`` with the concepts replaced by ``<L>``/``<R>`` and the side
        words by ``<l>``/``<r>``; with ``team_names``, the one team named is taken out
        too (concepts first, then team names, then side words, so "Red carpet" and a
        team called "Left Brain" both work).

        :returns: ``(tokens, team index or None)``, or ``None`` when two teams were named.
        """
        concepts = [(tuple(concept_key(left).split()), "<L>"), (tuple(concept_key(right).split()), "<R>")]
        tokens = self._replace(concept_key(text).split(), concepts)
        team = None
        if team_names:
            names = [(tuple(concept_key(n).split()), f"<team{i}>") for i, n in enumerate(team_names)]
            tokens = self._replace(tokens, names)
            named = {t for t in tokens if t.startswith("<team")}
            if len(named) > 1:
                return None
            team = int(named.pop()[5:-1]) if named else None
            tokens = [t for t in tokens if not t.startswith("<team")]
        out = []
        for t in tokens:
            side = self.side_tokens.get(t)
            out.append({"left": "<l>", "right": "<r>"}[side] if side else t)
        if not any(t in ("<L>", "<R>", "<l>", "<r>") for t in out):
            out = self._snap_concept(out, left, right)
        return out, team

    @staticmethod
    def _replace(tokens: list[str], phrases: list[tuple[tuple[str, ...], str]]) -> list[str]:
        """Replace whole-word occurrences of each phrase (longest first) by its tag."""
        phrases = sorted(phrases, key=lambda p: len(p[0]), reverse=True)
        out: list[str] = []
        i = 0
        while i < len(tokens):
            for words, tag in phrases:
                if words and tuple(tokens[i:i + len(words)]) == words:
                    out.append(tag)
                    i += len(words)
                    break
            else:
                out.append(tokens[i])
                i += 1
        return out

    def _snap_concept(self, tokens: list[str], left: str, right: str) -> list[str]:
        """After the last cue word, a near miss of a concept ("more hott") becomes that concept."""
        cues = [i for i, t in enumerate(tokens) if t in self.cue_words]
        if not cues:
            return tokens
        i = cues[-1] + 1
        rest = " ".join(tokens[i:])
        if not rest:
            return tokens
        options = {concept_key(left): "<L>", concept_key(right): "<R>"}
        found = self.core.snap(rest, list(options), cutoff=CONCEPT_CUTOFF)
        if found is None:
            return tokens
        return [*tokens[:i], options[found]]

    @staticmethod
    def _direction(tokens: list[str]) -> tuple[int | None, list[str]] | None:
        """The one direction named (-1 left, +1 right, None none) and the other tokens.

        ``None`` when two different directions were named. "less <concept>" flips it.
        """
        direction = None
        rest: list[str] = []
        for i, t in enumerate(tokens):
            if t in ("<L>", "<R>", "<l>", "<r>"):
                d = -1 if t in ("<L>", "<l>") else 1
                if t in ("<L>", "<R>") and i > 0 and tokens[i - 1] == "less":
                    d = -d
                    rest.pop()  # the "less"
                if direction is not None and direction != d:
                    return None
                direction = d
            else:
                rest.append(t)
        return direction, rest

    @staticmethod
    def _take(tokens: list[str], phrases) -> tuple[tuple[str, ...] | None, list[str]]:
        """Remove the first (longest) occurrence of any phrase; returns it and the rest."""
        for phrase in phrases:
            n = len(phrase)
            for i in range(len(tokens) - n + 1):
                if tuple(tokens[i:i + n]) == phrase:
                    return phrase, tokens[:i] + tokens[i + n:]
        return None, tokens

    def _number(self, tokens: list[str]) -> tuple[float | None, list[str]] | None:
        """The one number said (digits or words) and the other tokens; ``None`` if several."""
        spans = self.core.numbers_in(" ".join(tokens), year=False)
        if not spans:
            return None, tokens
        if len(spans) > 1:
            return None
        start, end, value = spans[0]
        return float(value), tokens[:start] + tokens[end:]

    # ------------------------------------------------------------------ dial
    def dial_command(self, text: str, left: str, right: str) -> DialCommand | None:
        """Understand one dial utterance (W7) for a side whose concepts are ``left``/``right``.

        :returns: a :class:`DialCommand`, or ``None`` when the utterance is not a dial command.
        """
        key = concept_key(text)
        if not key:
            return None
        core = " ".join(t for t in key.split() if t not in ("please", "okay", "ok", "um", "uh", "er", "now", "so", "well"))
        for phrases, kind in ((self.lock_phrases, LOCK), (self.where_phrases, WHERE)):
            if key in phrases or core in phrases:
                return DialCommand(kind)
        if key in self.centre_phrases or core in self.centre_phrases or self._is_centre(key):
            return DialCommand(SET, CENTRE)
        tagged, _ = self._tag(key, left, right)
        found = self._direction(tagged)
        if found is None:
            return None
        direction, rest = found
        edge, rest = self._take(rest, self.edge_phrases)
        number = self._number(rest)
        if number is None:
            return None
        value, rest = number
        size = None
        while True:
            step, rest2 = self._take(rest, [s for s, _ in self.steps])
            if step is None:
                break
            degrees = next(d for s, d in self.steps if s == step)
            if size is not None and size != degrees:
                return None
            size, rest = degrees, rest2
        if any(t not in self.dial_filler for t in rest):
            return None
        if direction is None:
            if value is not None and edge is None and size is None:
                return DialCommand(SET, value)
            return None
        if edge is not None:
            if value is not None or size is not None:
                return None
            return DialCommand(SET, LEFT_EDGE if direction < 0 else RIGHT_EDGE)
        if value is not None:
            if size is not None:
                return None
            return DialCommand(MOVE, direction * abs(value))
        return DialCommand(MOVE, direction * (size if size is not None else self.plain_step))

    # ------------------------------------------------------------------ left/right call
    def call(self, text: str, left: str, right: str, team_names) -> Call | None:
        """Understand a left/right call (W5): "left", "Blue, right", "more Hot", "pass".

        The card's concepts are matched before team names, so a concept that
        contains a team's name ("Red carpet") still counts as the concept.

        :param team_names: the two team names, by team index.
        :returns: a :class:`Call`, or ``None`` when the utterance is not a call.
        """
        key = concept_key(text)
        if not key:
            return None
        tagged = self._tag(key, left, right, team_names)
        if tagged is None:
            return None
        tokens, team = tagged
        found = self._direction(tokens)
        if found is None:
            return None
        direction, rest = found
        if direction is None:
            remainder = " ".join(t for t in rest if t not in self.team_words and t not in ("says", "say", "we", "calls"))
            if remainder in self.pass_phrases:
                return Call(None, team)
            return None
        if any(t not in self.call_filler and t not in self.team_words for t in rest):
            return None
        return Call("left" if direction < 0 else "right", team)

    # ------------------------------------------------------------------ grammar
    def dial_phrases(self, left: str, right: str) -> list[str]:
        """The dial moment's grammar for a side with these concepts (W7)."""
        sides = sorted(self.side_tokens)
        concepts = [concept_key(left), concept_key(right)]
        sizes = [" ".join(s) for s, _ in self.steps]
        out = list(self.lock_phrases | self.where_phrases | self.centre_phrases | self.redo_phrases)
        for target in [*sides, *(f"{cue} {c}" for c in concepts for cue in ("more", "toward", "towards", "less"))]:
            out.append(target)
            out.extend(f"{size} {target}" for size in sizes)
            out.extend(f"{edge} {target}" for edge in (" ".join(e) for e in self.edge_phrases))
        out.extend(f"{e} to {c}" for c in concepts for e in (" ".join(x) for x in self.edge_phrases))
        out.extend(self.core.number_words())
        out.extend(["degrees", "degree"])
        return out

    def call_phrases(self, left: str, right: str, team_names) -> list[str]:
        """The left/right moment's grammar: sides, concepts, team names, "pass" (W5)."""
        concepts = [concept_key(left), concept_key(right)]
        targets = [*sorted(self.side_tokens), *concepts, *(f"more {c}" for c in concepts)]
        names = [concept_key(n) for n in team_names]
        out = list(targets)
        out.extend(f"{n} {t}" for n in names for t in targets)
        out.extend(f"{n} says {t}" for n in names for t in targets)
        out.extend(self.pass_phrases)
        out.extend(self.redo_phrases)
        return out

    def clue_words(self) -> list[str]:
        """Phrases said in the (free-text) clue moment besides the clue itself."""
        return sorted(self.other_side_phrases | self.redo_phrases)

    def all_words(self) -> set[str]:
        """Every fixed word of the Wavelength grammars (for the vocabulary check at start)."""
        words: set[str] = set()
        groups = [self.lock_phrases, self.where_phrases, self.centre_phrases, self.less_words,
                  self.dial_filler, self.call_filler, self.pass_phrases, self.team_words,
                  self.other_side_phrases, self.redo_phrases, set(self.side_tokens),
                  {" ".join(s) for s, _ in self.steps}, {" ".join(e) for e in self.edge_phrases}]
        for group in groups:
            for phrase in group:
                words.update(phrase.split())
        return {w for w in words if re.fullmatch(r"[\w']+", w)}


@cache
def wavelength_understanding(lang: str) -> WavelengthUnderstanding:
    """The (cached) :class:`WavelengthUnderstanding` for ``lang``."""
    return WavelengthUnderstanding(lang)
