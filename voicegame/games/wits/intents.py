"""Understanding Wits & Wagers utterances: guesses, guess corrections and bets.

Built on the core :class:`voicegame.understanding.Understanding` (numbers,
colours, sides, yes/no); the extra words live in ``prompts/<lang>/words_wits.toml``.

Bets (K4) — every form below, with or without the player's name first
("red, …"); a slot is named by the guess in it ("2008"), by its odds and side
("the 3 to 1 on the left", "the left 3 to 1", "the middle"), by the player whose
guess it holds ("blue's guess"), or as "too high" / "smallest" / "largest".
The forms are the same in every language; only the words change (Spanish
"rojo, los dos en 2008", "azul, uno en 12 con 3 fichas y otro en demasiado
alto", "verde, 5 fichas en el 3 a 1 de la izquierda", "la de azul"; Dutch
"rood, allebei op 2008", "blauw, één op 12 met 3 fiches en één op te hoog",
"groen, 5 fiches op de 3 tegen 1 links", "die van blauw"):

- ``no bet`` — no token this question;
- ``both on SLOT [with N chips [each]]`` — both tokens on one slot, N chips in
  all (split over the two tokens; "each" puts N under each, also said before the
  number: Dutch "met elk 3 fiches"); ``without chips`` (Spanish "sin fichas")
  is 0 chips;
- ``split[:] SLOT [with N chips] and SLOT [with N chips]`` — one token on each;
- ``one on SLOT [with N chips], one on SLOT [with N chips]`` — two tokens; after a token
  that said its chips the next may give the count alone ("… and one on too high with
  one", ``[bets] with_short``);
- ``one on SLOT [with N chips]`` / ``N chips on SLOT`` / ``on SLOT`` — one token;
  it is *added* to the player's bets (a third token is refused, K4) unless
  ``only``/``just`` comes first, which replaces them.

:func:`parse_bet` returns every full reading of an utterance as a
:class:`BetRequest` (slot names still unresolved: "2008" may mean two thousand
and eight or two thousand, and eight…); :func:`resolve` turns one reading into
``(slot id, chips)`` pairs against the mat, raising :class:`SlotNameError`
subclasses (:class:`AmbiguousSlot` is asked back by the host).

Every slot name the host itself speaks is understood back: "the 2 to 1 in the
middle" / "el 2 a 1 del centro" / "de 2 tegen 1 in het midden" (``[sides] centre``,
only after the 2-to-1 odds); the reading with the fewest tokens comes first, so that
words naming one slot are never split into an extra token.

Guesses (K2) may end with unit words ("fifty kilometres", :meth:`WitsUnderstanding.guess_said`);
in a question asked in a scale (``[scales]``, :meth:`WitsUnderstanding.question_scale`: "How many
million…?") a guess said with a scale word is read in the question's unit ("seventeen million" → 17);
corrections (G4) may start with "no" ("no, blue forty"). The game's own listening
moments ("the mat", "repeat the question", "never mind", "that's right", extra "ready" words, "same age")
are ``[moments]`` phrases (:meth:`WitsUnderstanding.said`).

Every word comes from ``prompts/<lang>/words_wits.toml``: ``[bets]``, ``[slots]``,
``[guesses]`` and ``[moments]`` (phrases, also the recognizer grammar), ``[sides]``
(side words added to the core ones, e.g. Dutch "linker", and the centre), ``[grammar]``
(the English possessive "'s", the words around a corrected guess), ``[units]`` (silent units;
a calendar year's unit is silent only after a year question) and ``[scales]``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Iterator, Sequence

from voicegame.language.prompts import load_toml
from voicegame.games.wits.rules import CENTRE, TOO_HIGH, Mat
from voicegame.language.words import Understanding, fold, normalise, understanding

Number = int | float

#: Returned by :meth:`WitsUnderstanding.guess` for "no guess".
NO_GUESS = "no guess"


# --------------------------------------------------------------------------- results


@dataclass(frozen=True)
class SlotRef:
    """A payout slot as named by a player, not yet looked up on the mat.

    :ivar kind: ``"guess"`` (``value`` = the number), ``"player"`` (``value`` =
        whose guess), ``"odds"`` (``value`` = k, ``side`` = ``"left"``/``"right"``/``None``),
        ``"centre"``, ``"too_high"``, ``"smallest"`` or ``"largest"``.
    """

    kind: str
    value: Number | str | None = None
    side: str | None = None


@dataclass(frozen=True)
class TokenRequest:
    """One bet token as said: the slot and the chips under it (``None`` = not said, 0)."""

    slot: SlotRef
    chips: Number | None = None


@dataclass(frozen=True)
class BetRequest:
    """One bet utterance.

    :ivar player: the player named first, or ``None`` (the one whose turn it is).
    :ivar tokens: the tokens said (0 for "no bet"; 3 or more is possible and is
        refused by the rules, K4).
    :ivar replace: True when the tokens replace the player's bets; False when a
        single token is added to them.
    """

    player: str | None
    tokens: tuple[TokenRequest, ...]
    replace: bool = True


class SlotNameError(ValueError):
    """A slot name that does not pick one bettable slot on this mat."""


class AmbiguousSlot(SlotNameError):
    """Odds named without a side while two slots pay them ("the 3 to 1"): ask which.

    :ivar odds: k of "k to 1".
    :ivar slot_ids: the candidate slot ids, left first.
    """

    def __init__(self, odds: int, slot_ids: tuple[int, ...]):
        self.odds = odds
        self.slot_ids = slot_ids
        super().__init__(f"the {odds} to 1 slot is on both sides: {slot_ids}")


class UnknownGuess(SlotNameError):
    """No slot holds this guess. :ivar value: the number said."""

    def __init__(self, value: Number):
        self.value = value
        super().__init__(f"no guess {value!r} on the mat")


class NoGuessOf(SlotNameError):
    """The player named has no guess on the mat. :ivar player: the player."""

    def __init__(self, player: str):
        self.player = player
        super().__init__(f"{player} has no guess on the mat")


class NoGuesses(SlotNameError):
    """"Smallest"/"largest" named while the mat holds no guess."""

    def __init__(self):
        super().__init__("the mat holds no guess")


class NoSuchOdds(SlotNameError):
    """Odds that no slot pays (e.g. "7 to 1"). :ivar odds: the odds said."""

    def __init__(self, odds: Number):
        self.odds = odds
        super().__init__(f"no slot pays {odds} to 1")


class BadChips(SlotNameError):
    """Chips that are not a whole number ≥ 0. :ivar chips: the number said."""

    def __init__(self, chips: Number):
        self.chips = chips
        super().__init__(f"chips must be a whole number, not {chips!r}")


# --------------------------------------------------------------------------- the parser


class WitsUnderstanding:
    """Wits & Wagers phrases of one language.

    :param lang: language with ``prompts/<lang>/words.toml`` and ``words_wits.toml``.
    :raises voicegame.prompts.PromptError: a words file is missing or malformed.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.u: Understanding = understanding(lang)
        words = load_toml(lang, "words_wits")
        self.bets = {k: self._phrases(v) for k, v in words["bets"].items()}
        self.slots = {k: self._phrases(v) for k, v in words["slots"].items()}
        self.guesses = {k: self._phrases(v) for k, v in words["guesses"].items()}
        #: phrases of the game's own listening moments (``[moments]``): "the mat", "never mind",
        #: "that's right", extra "ready" words, "same age"
        self.moments = {k: self._phrases(v) for k, v in words.get("moments", {}).items()}
        self._folded = {k: frozenset(tuple(fold(w) for w in p) for p in v) for k, v in self.moments.items()}
        sources = words.get("sources", {})
        #: how the host says a source name (``[sources.spoken]``), and the capitalised
        #: abbreviations its voice says as a word ("NASA", ``[sources] words``)
        self.spoken_sources: dict[str, str] = dict(sources.get("spoken", {}))
        self.source_words = frozenset(sources.get("words", ()))
        units = words.get("units", {})
        self.silent_units = {normalise(w) for w in units.get("silent", [])}
        #: units of a calendar year: silent only in a question that asks for a year (``[units] year_question``)
        self.calendar_units = {normalise(w) for w in units.get("calendar", [])}
        self._year_question = self._phrases(units.get("year_question", ()))
        self.units_before = {normalise(w) for w in units.get("before", [])}
        #: words a guess may end with (units in general; the question's own unit is added per question)
        spoken = [w for phrase in units.get("spoken", []) for w in normalise(phrase).split()]
        self._unit_exact = frozenset(fold(w) for w in spoken)
        self._unit_stems = frozenset(s for w in spoken for s in _stems(w))
        #: small words inside a unit ("kilometres per hour", "kilómetros por hora")
        self._unit_glue = frozenset(fold(normalise(w)) for w in units.get("glue", []))
        self._unit_phrases = tuple(normalise(w) for w in units.get("spoken", []) + units.get("glue", []))
        extra_sides = words.get("sides", {})
        self.side_words = {k: tuple(v) + tuple(normalise(p) for p in extra_sides.get(k, ()))
                           for k, v in self.u.side_words.items()}
        self.sides = {k: self._phrases(v) for k, v in self.side_words.items()}
        #: "in the middle", "del centro", "in het midden": the side of the 2-to-1 slot, only after odds
        self.sides["centre"] = self._phrases(extra_sides.get("centre", ()))
        grammar = words.get("grammar", {})
        #: possessive endings split off a name ("blue's" → "blue", "'s"); English only
        self.possessive = tuple(grammar.get("possessive_suffix", ()))
        #: words between a colour and a corrected guess ("red's guess is 2009", "rojo dice 2009")
        self.fix_filler = frozenset(normalise(w) for w in grammar.get("fix_filler", ()))
        #: words after a corrected guess (Dutch "rood moet 2009 zijn")
        self.fix_tail = frozenset(normalise(w) for w in grammar.get("fix_tail", ()))
        #: phrases before the colour of a correction ("la respuesta de rojo es 2009")
        self.fix_lead = self._phrases(grammar.get("fix_lead", ()))
        #: words that may open a correction at "is that right?" ("no, blue forty", "nee, blauw veertig")
        self.fix_opening = self._phrases(grammar.get("fix_opening", ()))
        #: the scales a question may ask in (``[scales]``): value → (phrases said after a number or found
        #: in a unit, phrases of a question text asking in it, name alone, name before a unit)
        self.scales: dict[int, tuple] = {}
        for entry in words.get("scales", {}).values():
            name = str(entry["name"])
            self.scales[int(entry["value"])] = (self._phrases(entry.get("words", ())),
                                                self._phrases(entry.get("question", ())),
                                                name, str(entry.get("name_before_unit", name)))
        n = self.u.numbers
        #: words that join the parts of one number but never start one ("and", "y", "en")
        self._joiners = frozenset(n.connectors)
        self._number_words = set(n.units + n.tens + n.scales + n.decimal + n.minus + n.zero_words) | self._joiners
        self._number_words |= {w for h in n.half for w in h.split()}

    @staticmethod
    def _phrases(items) -> tuple[tuple[str, ...], ...]:
        out = {tuple(normalise(p).split()) for p in items}
        out.discard(())
        return tuple(sorted(out, key=len, reverse=True))

    # ------------------------------------------------------------------ tokens
    def words(self, text: str, players: Sequence[str] = ()) -> list[str]:
        """Normalised words; sentence punctuation stripped, "blue's" → "blue", "'s"
        (the language's possessive endings, ``[grammar] possessive_suffix``).

        A new list each call (the words of a ``(text, players)`` pair are remembered:
        every parser of a moment splits the same transcript)."""
        return list(self._words(text, tuple(players)))

    @lru_cache(maxsize=4096)
    def _words(self, text: str, players: tuple[str, ...]) -> tuple[str, ...]:
        names = {w for p in players for phrase in self.player_phrases(p) for w in phrase}
        out: list[str] = []
        for w in normalise(text).split():
            w = w.strip(".,:;")
            if not w:
                continue
            suffix = next((s for s in self.possessive if w.endswith(s) and (w[:-len(s)] in names
                                                                            or w[:-len(s)] in self._colour_words())), None)
            if suffix:
                out += [w[:-len(suffix)], suffix]
            else:
                out.append(w)
        return tuple(out)

    @cache
    def _colour_words(self) -> frozenset[str]:
        return frozenset(w for ps in self.u.colour_words.values() for p in ps for w in p.split())

    @lru_cache(maxsize=256)
    def player_phrases(self, player: str) -> tuple[tuple[str, ...], ...]:
        """The phrases that name ``player`` (a colour's synonyms, or the name itself; remembered)."""
        phrases = self.u.colour_words.get(player, (player,))
        return self._phrases((player, *phrases))

    # ------------------------------------------------------------------ matching helpers
    @staticmethod
    def _at(words: Sequence[str], i: int, phrases) -> Iterator[int]:
        """End positions j where ``words[i:j]`` is one of ``phrases`` (longest first)."""
        for p in phrases:
            if tuple(words[i:i + len(p)]) == p:
                yield i + len(p)

    def _opt(self, words, i, phrases) -> Iterator[int]:
        yield from self._at(words, i, phrases)
        yield i

    def _numbers(self, words: Sequence[str], i: int, limit: int = 9) -> Iterator[tuple[Number, int]]:
        """Every number that ``words[i:j]`` says, longest span first."""
        if i >= len(words) or words[i] in self._joiners and not (i + 1 < len(words) and words[i + 1] in self.u.numbers.scales):
            return
        j = i
        while j < len(words) and j - i < limit and self._number_word(words[j]):
            j += 1
        for end in range(j, i, -1):
            value = self.u.number(" ".join(words[i:end]))
            if value is not None:
                yield value, end

    def _number_word(self, w: str) -> bool:
        """A word of a spoken number: digits, a listed word, or a compound the core reads
        (Dutch "tweeduizend", "negenenzestig"; Spanish "veintiún")."""
        return (w in self._number_words or bool(re.fullmatch(r"-?[\d.,]*\d[\d.,]*", w))
                or any(self.u._is_number_word(t) for t in self.u._tokens(w)))

    def _player(self, words, i, players) -> Iterator[tuple[str, int]]:
        for p in players:
            for j in self._at(words, i, self.player_phrases(p)):
                yield p, j

    # ------------------------------------------------------------------ slots
    def _side(self, words, i) -> Iterator[tuple[str, int]]:
        for start in self._opt(words, i, self.slots["side_lead"]):
            for side, phrases in self.sides.items():
                for j in self._at(words, start, phrases):
                    for end in self._opt(words, j, self.slots["side_tail"]):
                        yield side, end

    def _odds(self, words, i) -> Iterator[tuple[Number, int]]:
        for k, j in self._numbers(words, i, limit=2):
            for j2 in self._at(words, j, self.slots["odds_to"]):
                for j3 in self._at(words, j2, self.slots["odds_one"]):
                    yield k, j3

    def _slot(self, words, i, players) -> Iterator[tuple[SlotRef, int]]:
        for start in self._opt(words, i, self.slots["article"]):
            for j in self._at(words, start, self.slots["too_high"]):
                yield SlotRef("too_high"), j
            for kind in ("smallest", "largest", "centre"):
                for j in self._at(words, start, self.slots[kind]):
                    yield SlotRef(kind), j
            for k, j in self._odds(words, start):
                yield from self._slot_after_odds(words, j, k, None)
                for side, j2 in self._side(words, j):
                    yield from self._slot_after_odds(words, j2, k, side)
            for side, j in self._side(words, start):
                for k, j2 in self._odds(words, j):
                    yield from self._slot_after_odds(words, j2, k, side)
            for lead in self._opt(words, start, self.slots.get("player_lead", ())):
                for p, j in self._player(words, lead, players):
                    for j2 in self._opt(words, j, self.slots["of_player"]):
                        for j3 in self._opt(words, j2, self.slots["slot_tail"]):
                            yield SlotRef("player", p), j3
            for value, j in self._numbers(words, start):
                for j2 in self._opt(words, j, self.slots["slot_tail"]):
                    yield SlotRef("guess", value), j2

    def _slot_after_odds(self, words, j, k, side) -> Iterator[tuple[SlotRef, int]]:
        if side == "centre" and k != 2:
            return  # only the 2-to-1 slot is in the middle
        for end in self._opt(words, j, self.slots["slot_tail"]):
            if k == 6:
                yield SlotRef("too_high"), end
            elif k == 2:
                yield SlotRef("centre"), end
            else:
                yield SlotRef("odds", k, side), end

    # ------------------------------------------------------------------ chips and tokens
    def _chips_count(self, words, i) -> Iterator[tuple[Number, int]]:
        for value, j in self._numbers(words, i, limit=4):
            for j2 in self._at(words, j, self.bets["chips"]):
                yield value, j2

    def _with(self, words, i, short: bool = False) -> Iterator[tuple[Number | None, bool, int]]:
        """``(chips, each, end)`` of an optional "with N chips [each]" / "with no chips"
        (also "with each N chips" and "without chips" where the language says so).

        :param short: also "with N" without the word "chips" (``[bets] with_short``): allowed
            for a token after one that said its chips ("one on Red's guess with 2 chips and one
            on too high with 1", Spanish "… y otro en demasiado alto con una").
        """
        if short:
            for j in self._at(words, i, self.bets.get("with_short", ())):
                for value, j2 in self._numbers(words, j, limit=4):
                    yield value, False, j2
        for j in self._at(words, i, self.bets["with"]):
            for value, j2 in self._chips_count(words, j):
                for j3 in self._at(words, j2, self.bets["each"]):
                    yield value, True, j3
                yield value, False, j2
            for j2 in self._at(words, j, self.bets.get("each_before", ())):
                for value, j3 in self._chips_count(words, j2):
                    yield value, True, j3
            for j2 in self._at(words, j, self.bets["no_chips"]):
                yield 0, False, j2
        for j in self._at(words, i, self.bets.get("without", ())):
            yield 0, False, j
        yield None, False, i

    def _token(self, words, i, players, short: bool = False) -> Iterator[tuple[TokenRequest, int]]:
        """One token; ``short``: its chips may be said without the word "chips" (:meth:`_with`)."""
        for j in self._at(words, i, self.bets["one"]):
            for j2 in self._at(words, j, self.bets["on"]):
                for slot, j3 in self._slot(words, j2, players):
                    for chips, each, j4 in self._with(words, j3, short):
                        if not each:
                            yield TokenRequest(slot, chips), j4
        for chips, j in self._chips_count(words, i):
            for j2 in self._at(words, j, self.bets["on"]):
                for slot, j3 in self._slot(words, j2, players):
                    yield TokenRequest(slot, chips), j3
        for j in self._at(words, i, self.bets["on"]):
            for slot, j2 in self._slot(words, j, players):
                for chips, each, j3 in self._with(words, j2, short):
                    if not each:
                        yield TokenRequest(slot, chips), j3

    def _tokens(self, words, i, players, depth: int = 0,
                short: bool = False) -> Iterator[tuple[tuple[TokenRequest, ...], int]]:
        """One or more tokens separated by "and"/"then"/nothing (commas are gone); after a
        token that said its chips, the next may give its count alone ("… with 1")."""
        for token, j in self._token(words, i, players, short):
            if depth < 3:
                for j2 in self._opt(words, j, self.bets["join"]):
                    for more, j3 in self._tokens(words, j2, players, depth + 1, short or token.chips is not None):
                        yield (token, *more), j3
            yield (token,), j

    def _body(self, words, i, players) -> Iterator[tuple[tuple[TokenRequest, ...], bool, int]]:
        """``(tokens, replace, end)`` readings of a bet without the player's name."""
        for j in self._at(words, i, self.bets["no_bet"]):
            yield (), True, j
        for start in self._opt(words, i, self.bets["only"]):
            only = start > i
            for j in self._at(words, start, self.bets["both"]):
                for j2 in self._at(words, j, self.bets["on"]):
                    for slot, j3 in self._slot(words, j2, players):
                        for chips, each, j4 in self._with(words, j3):
                            yield _both(slot, chips, each), True, j4
            for j in self._at(words, start, self.bets["split"]):
                for slot1, j2 in self._slot(words, j, players):
                    for chips1, each1, j3 in self._with(words, j2):
                        for j4 in self._at(words, j3, self.bets["join"]):
                            for j5 in self._opt(words, j4, self.bets["on"]):
                                for slot2, j6 in self._slot(words, j5, players):
                                    for chips2, each2, j7 in self._with(words, j6, chips1 is not None):
                                        if not (each1 or each2):
                                            yield (TokenRequest(slot1, chips1), TokenRequest(slot2, chips2)), True, j7
            for tokens, j in self._tokens(words, start, players):
                yield tokens, only or len(tokens) != 1, j

    # ------------------------------------------------------------------ public parsing
    def parse_bet(self, text: str, players: Sequence[str]) -> list[BetRequest]:
        """Every full reading of a bet utterance, most likely first (may be empty).

        :param players: the players of the game (their names may lead the bet
            and may name a slot: "blue's guess").
        """
        words = self.words(text, players)
        readings: list[BetRequest] = []
        starts: list[tuple[str | None, int]] = list(self._player(words, 0, players)) + [(None, 0)]
        for player, i in starts:
            for i2 in self._opt(words, i, self.bets["lead"]):
                for tokens, replace, j in self._body(words, i2, players):
                    for end in self._opt(words, j, self.bets["tail"]):
                        if end == len(words):
                            request = BetRequest(player, tokens, replace)
                            if request not in readings:
                                readings.append(request)
        # the reading with the fewest tokens first: "one on the 2 to 1 in the middle" is one
        # token on the centre, not "one on the 2 to 1" plus "in the middle" (stable sort)
        readings.sort(key=lambda r: len(r.tokens))
        return readings

    def guess(self, text: str, unit: str = "", scale: int = 1) -> Number | str | None:
        """A guess (K2): the number said, :data:`NO_GUESS` for "no guess", else ``None``.

        The number may be followed by unit words (:meth:`guess_said`).
        """
        said = self.guess_said(text, unit, scale)
        return None if said is None else said[0]

    def guess_said(self, text: str, unit: str = "", scale: int = 1) -> tuple[Number | str, tuple[str, ...]] | None:
        """A guess with the unit words said after it: ``(value, unit words)``, else ``None``.

        "fifty kilometres", "160 characters", "cincuenta kilómetros por hora",
        "honderdzestig tekens": a number followed only by unit words — the words of
        the question's ``unit`` (singular or plural) or the language's unit words
        (``[units] spoken``), with small joining words between them (``[units] glue``:
        "per", "por"); at least one real unit word. ``value`` is :data:`NO_GUESS` for
        "no guess" (then no unit words).

        In a question asked in a scale (``scale`` > 1, :meth:`question_scale`: "How many
        million square kilometres…?"), a number said with a scale word is read in the
        question's unit: "seventeen million" → 17, "zeventien komma één miljoen" → 17.1,
        "cuatro mil quinientos millones" in a question in "miles de millones" → 4.5,
        "thirty seven trillion" (a scale the core numbers lack) → 37. A number said
        without one is taken as it is ("seventeen" → 17).

        :param unit: the question's unit ("kilometres", "km/h"), "" if none.
        :param scale: the question's scale (1, 1000, 10**6, 10**9, 10**12).
        """
        if scale > 1:
            scaled = self._scaled_guess(text, unit, scale)
            if scaled is not None:
                return scaled
        said = self._plain_guess(text, unit)
        if said is None:
            return None
        value, number_words, tail = said
        if scale > 1 and value != NO_GUESS and self._has_scale_word(number_words):
            value = _in_scale(value, scale)
        return value, tail

    def _plain_guess(self, text: str, unit: str) -> tuple[Number | str, tuple[str, ...], tuple[str, ...]] | None:
        """``(value, the words of the number, the unit words after it)`` of a guess, else ``None``."""
        value = self.u.number(text)
        words = self.words(text)
        if value is not None:
            return value, tuple(words), ()
        if tuple(words) in self.guesses["no_guess"]:
            return NO_GUESS, (), ()
        for cut, tail in self._unit_tails(words, unit):
            value = self.u.number(" ".join(words[:cut]))
            if value is not None:
                return value, tuple(words[:cut]), tail
        return None

    def _unit_tails(self, words: Sequence[str], unit: str) -> Iterator[tuple[int, tuple[str, ...]]]:
        """``(cut, words[cut:])`` for every cut after which only unit words follow (at least one
        real unit word, not only glue), the longest tail first."""
        stems = self._unit_stems | {s for w in re.split(r"[\s/]+", normalise(unit)) if w for s in _stems(w)}

        def is_unit(w: str) -> bool:
            return fold(w) in self._unit_exact or bool(_stems(w) & stems) and not self._number_word(w)

        for cut in range(len(words) - 1, 0, -1):
            tail = words[cut:]
            if not all(fold(w) in self._unit_glue or is_unit(w) for w in tail):
                break  # a word further on is no unit word: no shorter number leaves only units
            if any(fold(w) not in self._unit_glue and is_unit(w) for w in tail):
                yield cut, tuple(tail)

    def _scaled_guess(self, text: str, unit: str, scale: int) -> tuple[Number, tuple[str, ...]] | None:
        """A number followed by a word of the question's own scale, then nothing or unit words:
        "17 million", "diecisiete millones de kilómetros cuadrados" → ``(17, unit words)``."""
        words = self.words(text)
        phrases = self.scales.get(scale, ((),))[0]
        for i in range(1, len(words)):
            for j in self._at(words, i, phrases):
                value = self.u.number(" ".join(words[:i]))
                if value is None:
                    continue
                rest = words[j:]
                if not rest:
                    return value, ()
                tails = dict(self._unit_tails(["-", *rest], unit))
                if 1 in tails:
                    return value, tails[1]
        return None

    def _has_scale_word(self, words: Sequence[str]) -> bool:
        """True when a number's words hold a word of a thousand or more ("million", "mil",
        Dutch compounds such as "tweeduizend") or a scale of this game (``[scales]``)."""
        n = self.u.numbers
        big = [w for w in n.scales if self.u._scale_value(w)]
        big += [p[0] for phrases, *_ in self.scales.values() for p in phrases if len(p) == 1]
        return any(b in fold(w) for w in words for b in map(fold, big))

    @lru_cache(maxsize=1024)
    def question_scale(self, question: str, unit: str = "") -> int:
        """The scale a question asks in: 10**6 for "How many million square kilometres…?" or the
        unit "million square kilometres", 1000 for "in thousands"…; 1 for none.

        The unit is looked at first (a scale word anywhere in it), then the question text (only
        the ``[scales] question`` phrases, such as "how many million" / "in millions", so that a
        number in the text — "dos mil veintiuno", "one trillion" — is no scale). The longest
        phrase found wins ("miles de millones" over "millones").
        """
        for text, which in ((unit, 0), (question, 1)):
            words = tuple(fold(w) for w in self.words(text))
            best = (0, 1)
            for value, entry in self.scales.items():
                for phrase in entry[which]:
                    folded = tuple(fold(w) for w in phrase)
                    if len(folded) > best[0] and any(words[i:i + len(folded)] == folded for i in range(len(words))):
                        best = (len(folded), value)
            if best[1] > 1:
                return best[1]
        return 1

    def scale_name(self, scale: int, before_unit: bool = False) -> str:
        """How the host says a scale: "million"; before a unit, Spanish "millones de"."""
        entry = self.scales.get(scale)
        if entry is None:
            return ""
        return entry[3] if before_unit else entry[2]

    def unit_names_scale(self, unit: str, scale: int) -> bool:
        """True when ``unit`` itself says the scale ("million square kilometres")."""
        return scale > 1 and self.question_scale("", unit) == scale

    def scale_phrases(self, scale: int) -> list[str]:
        """The phrases of a scale said after a number (for a recognizer grammar)."""
        return [" ".join(p) for p in self.scales.get(scale, ((),))[0]]

    def guess_fix(self, text: str, players: Sequence[str], unit: str = "",
                  scale: int = 1) -> tuple[str, Number | str] | None:
        """A correction "red 2009" / "red's guess is 2009" / "red, no guess" → ``(player, guess)``.

        Spanish "rojo dice 2009", "la respuesta de rojo es 2009", Dutch "rood moet 2009 zijn";
        also opened by "no" ("no, blue forty", ``[grammar] fix_opening``) and with unit
        words after the number ("red, twenty kilometres"); ``scale`` as in :meth:`guess_said`.
        """
        said = self.fix_said(text, players, unit, scale)
        return None if said is None else said[:2]

    def fix_said(self, text: str, players: Sequence[str], unit: str = "",
                 scale: int = 1) -> tuple[str, Number | str, tuple[str, ...]] | None:
        """:meth:`guess_fix` with the unit words heard: ``(player, guess, unit words)``."""
        words = self.words(text, players)
        for opening in self._opt(words, 0, self.fix_opening):
            for lead in self._opt(words, opening, self.fix_lead):
                for player, i in self._player(words, lead, players):
                    rest = words[i:]
                    while rest and rest[0] in self.fix_filler:
                        rest = rest[1:]
                    while rest and rest[-1] in self.fix_tail:
                        rest = rest[:-1]
                    if not rest:
                        continue
                    said = self.guess_said(" ".join(rest), unit, scale)
                    if said is not None:
                        return player, said[0], said[1]
        return None

    def fix_opening_rest(self, text: str) -> str | None:
        """What follows an opening "no" ("no, forty" → "forty"; ``[grammar] fix_opening``), or
        ``None`` when the utterance does not open with one or has nothing after it."""
        words = self.words(text)
        for end in self._at(words, 0, self.fix_opening):
            if words[end:]:
                return " ".join(words[end:])
        return None

    def unit_words(self, unit: str) -> list[str]:
        """Every unit word a guess may end with for a question with ``unit`` (a recognizer grammar)."""
        out = set(self._unit_phrases) | {w for w in re.split(r"[\s/]+", normalise(unit)) if w}
        return sorted(out)

    def player_named(self, text: str, players: Sequence[str]) -> str | None:
        """The one player of ``players`` named anywhere in the utterance, else ``None``."""
        words = self.words(text, players)
        found = {p for i in range(len(words)) for p, _ in self._player(words, i, players)}
        return found.pop() if len(found) == 1 else None

    def players_named(self, text: str, players: Sequence[str]) -> list[str]:
        """Every player of ``players`` named in the utterance, and every other colour
        named (a colour key), in the order said, each once ("red and blue" → red, blue)."""
        words = self.words(text, players)
        others = [c for c in self.u.colour_words if c not in players]
        found: list[str] = []
        i = 0
        while i < len(words):
            match = next(iter(self._player(words, i, players)), None) or next(iter(self._player(words, i, others)), None)
            if match is None:
                i += 1
                continue
            if match[0] not in found:
                found.append(match[0])
            i = match[1]
        return found

    def said(self, moment: str, text: str, contains: bool = False) -> bool:
        """True when the utterance is one of the ``[moments]`` phrases of ``moment``
        ("read_mat", "repeat_question", "back_out", "all_right", "ready", "same_age"); accents are
        ignored.

        :param contains: also when such a phrase is inside the utterance as whole words
            ("they are the same age").
        """
        words = tuple(fold(w) for w in self.words(text))
        phrases = self._folded.get(moment, frozenset())
        if words in phrases:
            return True
        return contains and any(words[i:i + len(p)] == p for p in phrases for i in range(len(words)))

    def is_ready(self, text: str) -> bool:
        """"Say ready when everyone is done" (``--timer off``): the core ready words, any
        yes ("ok", "vale", "sí"), and ``[moments] ready`` ("we're ready", "ya está", "hemos terminado")."""
        return self.u.is_ready(text) or self.u.yes_no(text) is True or self.said("ready", text)

    def confirm(self, text: str) -> bool | None:
        """"Is that right?" about the guesses: ``True`` for yes and ``[moments] all_right``
        ("that's right", "all good", "está bien", "perfecto"), ``False`` for no, else ``None``."""
        if self.said("all_right", text):
            return True
        return self.u.yes_no(text)

    def keeps_guesses(self, text: str) -> bool:
        """At "which guess should change?": nothing to change after all — "never mind",
        "nothing", "cancel" (``[moments] back_out``), or yes / "that's right" / "ready"."""
        return self.said("back_out", text) or self.confirm(text) is True or self.is_ready(text)

    def side(self, text: str) -> str | None:
        """``"left"`` or ``"right"`` (asked back for an ambiguous slot; the core side
        words plus the game's own, e.g. Dutch "de linker")."""
        return self.u.side(text) or self.u._match(text, self.side_words)

    def is_done(self, text: str) -> bool:
        """"no changes", "done", "no"… (closes betting / accepts)."""
        return tuple(self.words(text)) in self.guesses["done"]

    def wants_change(self, text: str) -> bool:
        """"yes", "change"… at "any changes?"."""
        return tuple(self.words(text)) in self.guesses["change"]

    def unit_is_silent(self, unit: str, question: str = "") -> bool:
        """True when the answer's unit is not spoken after it: none, a silent unit
        ("atomic number"), or a calendar year's unit in a question that asks for a year
        (:meth:`is_year_question`: "In what year…?" → "1969"; "How many years…?" with the
        unit "year" is a duration and keeps it).
        """
        unit_ = normalise(unit)
        if not unit_ or unit_ in self.silent_units:
            return True
        return unit_ in self.calendar_units and self.is_year_question(question)

    def is_year_question(self, question: str) -> bool:
        """True when the question asks for a calendar year ("In what year…?", "¿En qué año…?",
        "In welk jaar…?": ``[units] year_question``)."""
        words = tuple(fold(w) for w in self.words(question))
        for phrase in self._year_question:
            folded = tuple(fold(w) for w in phrase)
            if any(words[i:i + len(folded)] == folded for i in range(len(words))):
                return True
        return False

    def spoken_source(self, source: str) -> str:
        """A source name as the host's voice can say it: its ``[sources.spoken]`` form
        ("IMDb" → "I M D B"; an English name in the host's language), else as written."""
        return self.spoken_sources.get(source.strip(), source.strip())

    def unit_goes_before(self, unit: str) -> bool:
        """True when the unit is said before the number ("Mach 2", "pH 7")."""
        return normalise(unit) in self.units_before

    # ------------------------------------------------------------------ grammar
    def vocabulary(self, players: Sequence[str]) -> list[str]:
        """Every phrase a Wits & Wagers moment may use (for a recognizer grammar)."""
        out: list[str] = []
        for table in (self.bets, self.slots, self.guesses, self.moments):
            for phrases in table.values():
                out += [" ".join(p) for p in phrases]
        for p in players:
            out += [" ".join(ph) for ph in self.player_phrases(p)]
        out += [" ".join(p) for p in self.fix_lead + self.fix_opening] + sorted(self.fix_filler | self.fix_tail)
        out += [" ".join(p) for p in self.sides["centre"]]
        out += [" ".join(p) for entry in self.scales.values() for p in entry[0]]
        out += self.u.number_words() + self.side_phrases() + self.u.yes_no_phrases()
        return sorted(w for w in set(out) if w not in self.possessive)

    def side_phrases(self) -> list[str]:
        """Every phrase that names a side (core words and the game's own)."""
        return [p for ps in self.side_words.values() for p in ps]


def _stems(word: str) -> set[str]:
    """The word (accents folded) and its forms without a plural or gender ending, for
    matching a unit word said with the unit as written ("kilometres" ~ "kilometre",
    "tekens" ~ "teken", "kilómetros" ~ "kilometro")."""
    w = fold(normalise(word))
    out = {w}
    for ending in ("s", "es", "en", "e"):
        if w.endswith(ending) and len(w) - len(ending) >= 3:
            out.add(w[:-len(ending)])
    return out


def _in_scale(value: Number, scale: int) -> Number:
    """``value`` counted in ``scale`` (17_100_000 in millions → 17.1), int when whole."""
    out = round(value / scale, 9)
    return int(out) if float(out).is_integer() else out


def _both(slot: SlotRef, chips: Number | None, each: bool) -> tuple[TokenRequest, TokenRequest]:
    """Both tokens on one slot: "with N chips" is N in all (N - N//2 and N//2), "each" N under each."""
    if chips is None or each or not isinstance(chips, int) or isinstance(chips, bool):
        return TokenRequest(slot, chips), TokenRequest(slot, chips)
    return TokenRequest(slot, chips - chips // 2), TokenRequest(slot, chips // 2)


# --------------------------------------------------------------------------- resolving


def resolve_slot(ref: SlotRef, mat: Mat, side: str | None = None) -> int:
    """The slot id a :class:`SlotRef` names on ``mat`` (an empty slot is returned as is:
    the rules refuse the bet with its reason, K4).

    :param side: the side given when an :class:`AmbiguousSlot` was asked back.
    :raises AmbiguousSlot: "the 3 to 1" without a side while it exists on both.
    :raises UnknownGuess, NoGuessOf, NoGuesses, NoSuchOdds: see each.
    """
    if ref.kind == "too_high":
        return TOO_HIGH
    if ref.kind == "centre":
        return CENTRE
    if ref.kind in ("smallest", "largest"):
        occupied = mat.occupied()
        if not occupied:
            raise NoGuesses()
        return occupied[0].id if ref.kind == "smallest" else occupied[-1].id
    if ref.kind == "player":
        slot_id = mat.slot_of_player(ref.value)
        if slot_id is None:
            raise NoGuessOf(ref.value)
        return slot_id
    if ref.kind == "guess":
        slot_id = mat.slot_for_guess(ref.value)
        if slot_id is None:
            raise UnknownGuess(ref.value)
        return slot_id
    if ref.kind == "odds":
        candidates = tuple(s.id for s in mat.slots_with_odds(ref.value) if not s.is_too_high)
        if not candidates:
            raise NoSuchOdds(ref.value)
        chosen = ref.side or side
        if chosen is None:
            if len(candidates) == 1:
                return candidates[0]
            raise AmbiguousSlot(ref.value, candidates)
        picked = [c for c in candidates if mat.slot(c).side == chosen]
        return picked[0] if picked else candidates[0]
    raise ValueError(f"unknown slot reference {ref!r}")


def resolve(request: BetRequest, mat: Mat, side: str | None = None) -> tuple[tuple[int, int], ...]:
    """``(slot id, chips)`` per token of ``request`` on ``mat``.

    :param side: answer to an earlier :class:`AmbiguousSlot` question, applied to
        every odds slot named without a side.
    :raises SlotNameError: a slot name that picks no slot, or chips that are not
        a whole number ≥ 0 (:class:`BadChips`).
    """
    out = []
    for token in request.tokens:
        chips = 0 if token.chips is None else token.chips
        if isinstance(chips, float):
            if not chips.is_integer():
                raise BadChips(chips)
            chips = int(chips)
        if chips < 0:
            raise BadChips(chips)
        out.append((resolve_slot(token.slot, mat, side), chips))
    return tuple(out)


@cache
def wits_understanding(lang: str) -> WitsUnderstanding:
    """The (cached) :class:`WitsUnderstanding` for ``lang``."""
    return WitsUnderstanding(lang)
