"""Wavelength phrases → intents: dial moves (W7), left/right calls (W5), turn words (W8, rules).

Every word lives in ``prompts/<lang>/words_wavelength.toml`` (en, es, nl); this module holds
none. Dial sizes: a tiny bit 1°, a little 5°, plain 15°, way 45°; "more/less <concept>",
"centre", "all the way left", a number of degrees, "set it to eighty", "where is it",
"lock it in"; a number the dial cannot take raises :class:`DialOutOfRange` (W7: asked again,
the dial stays). The clue is free text, but one made only of hesitation and yes/no
words ("hmm", "okay") raises :class:`NotAClue` (W7: table talk). An utterance is read as a
set of phrases (size, edge, side or concept, number, filler), so word order is free; size
words go before numbers ("un poco", "een beetje" start with a number word). Concepts match
as whole words, accents and hyphens ignored; after a cue word a near miss snaps to a concept
(rapidfuzz). Any other word makes the utterance not understood: the parsers raise
:class:`~voicegame.engine.table.NotUnderstood`, the host never guesses. A team whose name is
a colour key is recognised by every colour word for it (G3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from voicegame.engine.table import NotUnderstood, understood  # noqa: F401 (raised through understood)
from voicegame.language.prompts import load_toml
from voicegame.language.words import fold, normalise, understanding

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
        the left concept; a move past an end stops there, W7); for ``set`` the
        wanted angle, degrees in [0, 180] (W1); else 0.
    """

    kind: str
    degrees: float = 0.0


class DialOutOfRange(ValueError):
    """A dial utterance whose number the dial cannot take (W7): a position outside
    0–180° ("set it to two hundred", "minus ten degrees") or a move by a negative
    number ("right minus 20" is neither 20° right nor 20° left). The host asks again
    and the dial stays where it was.

    :ivar degrees: the number said, degrees.
    :ivar move: True for a move (a side was named), False for a position.
    """

    def __init__(self, degrees: float, move: bool):
        self.degrees = degrees
        self.move = move
        super().__init__(f"{'a move by' if move else 'a position of'} {degrees:g} degrees is off the dial")


class NotAClue(NotUnderstood):
    """An utterance at the clue moment made only of hesitation and one-word yes/no words
    ("hmm", "okay", "yeah, one second"): table talk, not the clue (W7, Chosen). The moment
    treats it as any :class:`~voicegame.engine.table.NotUnderstood`.

    :ivar text: the utterance as heard.
    """

    def __init__(self, text: str):
        super().__init__(f"table talk, not a clue: {text!r}")
        self.text = text


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
    """A concept or transcript as comparable words: normalised, hyphens as spaces.

    Accents are kept (the result is also a recognizer grammar phrase); see :func:`match_key`.
    """
    return " ".join(normalise(text.replace("-", " ")).split())


def match_key(text: str) -> str:
    """:func:`concept_key` with accents folded: what the matching compares."""
    return fold(concept_key(text))


def _keys(phrases) -> list[str]:
    """Phrases as grammar phrases (accents kept), in file order, without empties or repeats."""
    seen: dict[str, None] = {}
    for p in phrases:
        k = concept_key(p)
        if k:
            seen.setdefault(k, None)
    return list(seen)


def _folded(phrases) -> set[str]:
    return {fold(p) for p in _keys(phrases)}


def _phrase_tokens(phrases) -> list[tuple[str, ...]]:
    """Phrases as folded token tuples, longest first (so "a little bit" wins over "a little")."""
    return sorted({tuple(fold(p).split()) for p in _keys(phrases)}, key=len, reverse=True)


class WavelengthUnderstanding:
    """Understands the Wavelength listening moments of one language.

    :param lang: a language with ``prompts/<lang>/words.toml`` and ``words_wavelength.toml``.
    :raises voicegame.prompts.PromptError: a words file is missing or malformed.
    :raises KeyError: the words file lacks a required table or list.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.core = understanding(lang)
        w = load_toml(lang, "words_wavelength")
        #: Team names when ``--teams`` is not given: names or colour keys (G3).
        self.default_teams: list[str] = list(w["default_teams"])
        #: Folded words a team name may not contain (they are dial or call words).
        self.reserved_team_words: set[str] = {fold(x) for p in _keys(w["reserved_team_words"]) for x in p.split()}
        dial = w["dial"]
        self.plain_step = float(dial["plain_step"])
        self.steps: list[tuple[tuple[str, ...], float]] = sorted(
            ((tuple(fold(p).split()), float(step["degrees"])) for step in dial["steps"] for p in _keys(step["words"])),
            key=lambda item: len(item[0]), reverse=True)
        self.step_raw: list[str] = [p for step in dial["steps"] for p in _keys(step["words"])]
        phrases = dial["phrases"]
        #: Each phrase list of ``[dial.phrases]`` as grammar phrases (accents kept).
        self.raw: dict[str, list[str]] = {
            name: _keys(phrases[name])
            for name in ("lock", "where", "centre", "edge", "less", "filler", "courtesy", "cue")}
        self.lock_phrases = _folded(phrases["lock"])
        self.where_phrases = _folded(phrases["where"])
        self.centre_phrases = _folded(phrases["centre"])
        self.centre_words = {x for p in self.centre_phrases for x in p.split()}
        self.edge_phrases = _phrase_tokens(phrases["edge"])
        self.less_words = _folded(phrases["less"])
        self.dial_filler = _folded(phrases["filler"])
        #: Words dropped around a whole "lock it in" / "where is it" ("okay, lock it in").
        self.courtesy = _folded(phrases["courtesy"])
        #: After the last of these, a near miss of a concept is snapped to it ("more hott").
        self.cue_words = _folded(phrases["cue"]) | self.less_words
        grammar = dial["grammar"]
        self.grammar_cues = _keys(grammar["cues"])
        self.grammar_edge_to = _keys(grammar["edge_to"])
        self.grammar_units = _keys(grammar["units"])
        self.grammar_extra_sides = _keys(grammar.get("extra_sides", []))
        #: What precedes a position said as a number ("set it to", "ponedlo en"): grammar words;
        #: understanding them is the filler's job.
        self.grammar_set = _keys(grammar.get("set", []))
        call = w["call"]
        self.call_filler_raw = _keys(call["filler"])
        self.call_filler = _folded(call["filler"])
        self.pass_raw = _keys(call["pass"])
        self.pass_phrases = _folded(call["pass"])
        self.pass_filler = _folded(call["pass_filler"])
        self.team_raw = _keys(call["team"])
        self.team_words = _folded(call["team"])
        self.team_aliases: dict[str, list[str]] = {k: _keys(v) for k, v in call.get("team_aliases", {}).items()}
        self.call_grammar_cues = _keys(call["grammar"]["cues"])
        self.call_grammar_says = _keys(call["grammar"]["says"])
        turn = w["turn"]
        self.other_side_raw = _keys(turn["other_side"])
        self.redo_raw = _keys(turn["redo"])
        self.other_side_phrases = _folded(turn["other_side"])
        self.redo_phrases = _folded(turn["redo"])
        self.target_again_raw = _keys(turn.get("target_again", []))
        self.target_again_phrases = _folded(turn.get("target_again", []))
        self.clue_again_raw = _keys(turn.get("clue_again", []))
        self.clue_again_phrases = _folded(turn.get("clue_again", []))
        self.psychic_ready_raw = _keys(turn.get("psychic_ready", []))
        self.psychic_ready_phrases = _folded(turn.get("psychic_ready", []))
        clue = w["clue"]
        still_clues = _folded(clue.get("yes_no_clues", []))
        one_word_yes_no = [p for p in _keys([*self.core.yes_words, *self.core.no_words])
                           if " " not in p and fold(p) not in still_clues]
        #: Folded token tuples an utterance made only of is table talk at the clue moment (W7).
        self.clue_talk = _phrase_tokens([*clue["hesitation"], *one_word_yes_no])
        #: "my clue is …": what follows is the clue as said, never table talk (W7)
        self.clue_intros = [re.compile(r"\W*" + r"\W+".join(map(re.escape, intro)) + r"\b[\s,:;.!-]*(?=\w)",
                                       re.IGNORECASE)
                            for intro in _phrase_tokens(clue.get("intro", []))]
        self.clue_intro_tokens = _phrase_tokens(clue.get("intro", []))
        said_rules = w["rules"]
        self.rules_raw = _keys(said_rules["ask"])
        self.rules_phrases_ = _folded(said_rules["ask"])
        self.rules_more_raw, self.rules_done_raw = _keys(said_rules["more"]), _keys(said_rules["done"])
        self.rules_more, self.rules_done = _folded(said_rules["more"]), _folded(said_rules["done"])
        # single side words from the core words ("left", "izquierda"); phrases are handled by filler words
        self.side_raw = sorted({p for ps in self.core.side_words.values() for p in _keys(ps) if " " not in p})
        self.side_tokens = {fold(p): side for side, ps in self.core.side_words.items()
                            for p in _keys(ps) if " " not in p}

    # ------------------------------------------------------------------ team names
    def team_phrases(self, name: str) -> list[str]:
        """Every way a team is said: a colour key's colour words and aliases, else the name itself.

        :param name: a team name as given (``"Sharks"``) or a colour key (``"red"``, G3).
        :returns: grammar phrases, accents kept ("rojo", "roja", "los rojos").
        """
        key = concept_key(name)
        colours = self.core.colour_words.get(key)
        if colours:
            return _keys([*colours, *self.team_aliases.get(key, [])])
        return [key] if key else []

    def team_word_set(self, name: str) -> set[str]:
        """The folded words that name a team (for the name checks of ``validate``): the words of
        its name or colour words, plus the alias words that are not call filler ("los" of "los rojos")."""
        key = concept_key(name)
        aliases = self.team_aliases.get(key, []) if key in self.core.colour_words else []
        words = {x for p in self.team_phrases(name) if p not in aliases for x in fold(p).split()}
        return words | {x for p in aliases for x in fold(p).split() if x not in self.call_filler}

    def team_vocabulary(self, names) -> set[str]:
        """The words (accents kept) the recognizer needs for these team names."""
        return {x for n in names for p in self.team_phrases(n) for x in p.split()}

    # ------------------------------------------------------------------ whole phrases
    def is_other_side(self, text: str) -> bool:
        """True when the utterance asks to use the card's back side."""
        return match_key(text) in self.other_side_phrases

    def is_redo(self, text: str) -> bool:
        """True when the utterance is "redo": the Psychic gave the target away (W8)."""
        return match_key(text) in self.redo_phrases

    def is_clue_again(self, text: str) -> bool:
        """The table asks to hear the card and the clue again ("what was the clue")."""
        return match_key(text) in self.clue_again_phrases

    def is_target_again(self, text: str) -> bool:
        """True when the Psychic asks to hear the target again ("the target again", G2)."""
        return match_key(text) in self.target_again_phrases

    def is_psychic_ready(self, text: str) -> bool:
        """True when the table says its Psychic is chosen ("ready", "me", "yes"): the card may be read."""
        return (match_key(text) in self.psychic_ready_phrases or self.core.is_ready(text)
                or self.core.is_bare_yes(text))  # not yes_no: "who wants to do it" holds a yes

    def psychic_ready_grammar(self) -> list[str]:
        """The grammar of the moment after "choose your Psychic"."""
        return [*self.psychic_ready_raw, *self.core.ready_words, *self.core.yes_no_phrases()]  # "no": table talk

    def is_rules(self, text: str) -> bool:
        """True when the utterance asks for the rules ("how to play")."""
        return match_key(text) in self.rules_phrases_

    def rules_answer(self, text: str) -> bool | None:
        """After a chunk of the rules: True for more ("next"), False for enough ("got it"), else None."""
        key = match_key(text)
        if key in self.rules_more:
            return True
        if key in self.rules_done:
            return False
        return None

    def rules_phrases(self) -> list[str]:
        """The grammar of the moment after a chunk of the rules."""
        return [*self.rules_more_raw, *self.rules_done_raw]

    def _is_centre(self, key: str) -> bool:
        """"move it back to the middle": only filler and centre words, one of them a centre word."""
        rest = [t for t in key.split() if t not in self.dial_filler]
        return bool(rest) and all(t in self.centre_words for t in rest) and any(t in self.centre_phrases for t in rest)

    # ------------------------------------------------------------------ tokens
    def _tag(self, key: str, left: str, right: str, team_names=None) -> tuple[list[str], int | None] | None:
        """Tokens of the folded ``key`` with the concepts replaced by ``<L>``/``<R>`` and the side
        words by ``<l>``/``<r>``; with ``team_names``, the one team named is taken out
        too (concepts first, then team names, then side words, so "Red carpet" and a
        team called "Left Brain" both work).

        :returns: ``(tokens, team index or None)``, or ``None`` when two teams were named.
        """
        concepts = [(tuple(match_key(left).split()), "<L>"), (tuple(match_key(right).split()), "<R>")]
        tokens = self._replace(key.split(), concepts)
        team = None
        if team_names:
            names = [(tuple(fold(p).split()), f"<team{i}>")
                     for i, n in enumerate(team_names) for p in self.team_phrases(n)]
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
        options = {match_key(left): "<L>", match_key(right): "<R>"}
        found = self.core.snap(rest, list(options), cutoff=CONCEPT_CUTOFF)
        if found is None:
            return tokens
        return [*tokens[:i], options[found]]

    def _direction(self, tokens: list[str]) -> tuple[int | None, list[str]] | None:
        """The one direction named (-1 left, +1 right, None none) and the other tokens.

        ``None`` when two different directions were named. "less <concept>" flips it.
        """
        direction = None
        rest: list[str] = []
        for i, t in enumerate(tokens):
            if t in ("<L>", "<R>", "<l>", "<r>"):
                d = -1 if t in ("<L>", "<l>") else 1
                if t in ("<L>", "<R>") and i > 0 and tokens[i - 1] in self.less_words:
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
    def dial_command(self, text: str, left: str, right: str) -> DialCommand:
        """Understand one dial utterance (W7) for a side whose concepts are ``left``/``right``.

        :returns: a :class:`DialCommand`.
        :raises NotUnderstood: the utterance is not a dial command (table talk, two sizes,
            two directions…).
        :raises DialOutOfRange: a dial command with a number the dial cannot take: a
            position outside 0–180° or a move by a negative number (W7).
        """
        return understood(self._dial_command(text, left, right))

    def _dial_command(self, text: str, left: str, right: str) -> DialCommand | None:
        key = match_key(text)
        if not key:
            return None
        core = " ".join(t for t in key.split() if t not in self.courtesy)
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
        # size words before numbers: "un poco", "een beetje" begin with a number word
        size = None
        while True:
            step, rest2 = self._take(rest, [s for s, _ in self.steps])
            if step is None:
                break
            degrees = next(d for s, d in self.steps if s == step)
            if size is not None and size != degrees:
                return None
            size, rest = degrees, rest2
        number = self._number(rest)
        if number is None:
            return None
        value, rest = number
        if any(t not in self.dial_filler for t in rest):
            return None
        if value is not None and value < 0:
            raise DialOutOfRange(value, move=direction is not None)
        if direction is None:
            if value is not None and edge is None and size is None:
                if value > RIGHT_EDGE:
                    raise DialOutOfRange(value, move=False)
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
        """Understand a left/right call (W5): "left", "Blue, right", "more Hot", "pass";
        "azul, izquierda", "los azules dicen más Frío"; "blauw, links", "blauw zegt meer Warm".

        The card's concepts are matched before team names, so a concept that
        contains a team's name ("Red carpet") still counts as the concept.

        :param team_names: the two team names (or colour keys, see :meth:`team_phrases`), by team index.
        :returns: a :class:`Call`.
        :raises NotUnderstood: the utterance is not a call (or names both teams).
        """
        return understood(self._call(text, left, right, team_names))

    def _call(self, text: str, left: str, right: str, team_names) -> Call | None:
        key = match_key(text)
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
            remainder = " ".join(t for t in rest if t not in self.team_words and t not in self.pass_filler)
            if remainder in self.pass_phrases:
                return Call(None, team)
            return None
        if any(t not in self.call_filler and t not in self.team_words for t in rest):
            return None
        return Call("left" if direction < 0 else "right", team)

    # ------------------------------------------------------------------ grammar
    def dial_phrases(self, left: str, right: str) -> list[str]:
        """The dial moment's grammar for a side with these concepts (W7); a new list each call
        (built once per pair: every dial moment of a card, and every undo replay, asks again)."""
        return list(self._dial_phrases(left, right))

    @lru_cache(maxsize=256)
    def _dial_phrases(self, left: str, right: str) -> tuple[str, ...]:
        concepts = [concept_key(left), concept_key(right)]
        edges = self.raw["edge"]
        out = [*self.raw["lock"], *self.raw["where"], *self.raw["centre"], *self.redo_raw, *self.rules_raw,
               *self.clue_again_raw]
        for target in [*self.side_raw, *self.grammar_extra_sides,
                       *(f"{cue} {c}" for c in concepts for cue in self.grammar_cues)]:
            out.append(target)
            out.extend(f"{size} {target}" for size in self.step_raw)
            out.extend(f"{edge} {target}" for edge in edges)
        out.extend(f"{e} {to} {c}" for c in concepts for e in edges for to in self.grammar_edge_to)
        out.extend(self.grammar_set)
        out.extend(self.core.number_words())
        out.extend(self.grammar_units)
        return tuple(out)

    def call_phrases(self, left: str, right: str, team_names) -> list[str]:
        """The left/right moment's grammar: sides, concepts, team names, "pass" (W5); a new
        list each call (built once per pair and team names)."""
        return list(self._call_phrases(left, right, tuple(team_names)))

    @lru_cache(maxsize=256)
    def _call_phrases(self, left: str, right: str, team_names: tuple[str, ...]) -> tuple[str, ...]:
        concepts = [concept_key(left), concept_key(right)]
        targets = [*self.side_raw, *concepts, *(f"{cue} {c}" for c in concepts for cue in self.call_grammar_cues)]
        names = [p for n in team_names for p in self.team_phrases(n)]
        out = list(targets)
        out.extend(f"{n} {t}" for n in names for t in targets)
        out.extend(f"{n} {says} {t}" for n in names for t in targets for says in self.call_grammar_says)
        out.extend(self.pass_raw)
        out.extend(self.redo_raw)
        out.extend(self.rules_raw)
        out.extend(self.clue_again_raw)
        return tuple(out)

    def clue(self, text: str) -> str:
        """The Psychic's clue: the utterance as said, stripped; never judged (W8 covers a bad one).

        :raises NotAClue: the utterance is made only of hesitation and one-word yes/no
            words (``[clue]`` of ``words_wavelength.toml``, ``[yes_no]`` of ``words.toml``):
            table talk (W7, Chosen). A clue that merely contains one ("okay boomer") is taken,
            and so is whatever follows an intro (``[clue] intro``: "my clue is okay" is "okay").
        :raises NotUnderstood: nothing was said.
        """
        said = text.strip()
        if not said:
            raise NotUnderstood
        if self.is_clue_intro(said):
            raise NotAClue(said)  # an intro alone ("my clue is"): the clue is still to come
        folded = fold(said)
        for intro in self.clue_intros:  # "my clue is okay": the clue is "okay", even a talk word
            m = intro.match(folded)
            if m:
                return (said if len(folded) == len(said) else folded)[m.end():].strip()
        if self.is_clue_talk(said):
            raise NotAClue(said)
        return said

    def is_clue_intro(self, text: str) -> bool:
        """The utterance is only an intro ("my clue is", ``[clue] intro``): the clue is still to come."""
        return tuple(match_key(text).split()) in self.clue_intro_tokens

    def is_clue_talk(self, text: str) -> bool:
        """True when every word of ``text`` belongs to a table-talk phrase of the clue moment."""
        tokens = match_key(text).split()
        covered = [False] * len(tokens) + [True]  # covered[i]: tokens[i:] split into talk phrases
        for i in range(len(tokens) - 1, -1, -1):
            covered[i] = any(tuple(tokens[i:i + len(p)]) == p and covered[i + len(p)] for p in self.clue_talk)
        return bool(tokens) and covered[0]

    def clue_words(self) -> list[str]:
        """Phrases said in the (free-text) clue moment besides the clue itself."""
        return sorted(set(self.other_side_raw) | set(self.redo_raw) | set(self.rules_raw) | set(self.target_again_raw))

    def all_words(self) -> set[str]:
        """Every fixed word of the Wavelength grammars, accents kept (for the vocabulary check at start)."""
        groups = [*self.raw.values(), self.step_raw, self.side_raw, self.grammar_extra_sides, self.grammar_set,
                  self.grammar_cues, self.grammar_edge_to, self.grammar_units, self.call_filler_raw, self.pass_raw,
                  self.team_raw, self.call_grammar_cues, self.call_grammar_says, self.other_side_raw,
                  self.redo_raw, self.psychic_ready_raw, self.target_again_raw, self.rules_raw, self.rules_more_raw,
                  self.rules_done_raw, self.clue_again_raw]
        words: set[str] = set()
        for group in groups:
            for phrase in group:
                words.update(phrase.split())
        return {w for w in words if re.fullmatch(r"[\w']+", w)}


@cache
def wavelength_understanding(lang: str) -> WavelengthUnderstanding:
    """The (cached) :class:`WavelengthUnderstanding` for ``lang``."""
    return WavelengthUnderstanding(lang)
