"""Understanding the lobby and the set-up by voice (issue 6).

Built on the core :class:`~voicegame.understanding.Understanding` (numbers,
colours, yes/no, global commands); the extra words live in
``prompts/<lang>/words_lobby.toml``. Every parser takes a transcript and
returns a small value, or ``None`` when the utterance is not of that form:

- :meth:`LobbyUnderstanding.lobby` — "let's play Wavelength", "rules of ROFL",
  "what can we play", "speak Spanish", "resume Wits and Wagers" → :class:`LobbyIntent`
  (with the settings said with the game's name: "Wits and Wagers with three questions",
  and Wavelength's mode: "Wavelength in teams", "… cooperative");
- :meth:`LobbyUnderstanding.player_count`, :meth:`wavelength_mode`,
  :meth:`colours` — answers to the set-up questions;
- :meth:`LobbyUnderstanding.options` — option changes ("hard mode and no timer",
  "five questions", "play to six points") → list of :class:`OptionChange`;
- :meth:`LobbyUnderstanding.after_game` — "play again", "another game", "lobby";
- :meth:`LobbyUnderstanding.is_resume` — "resume", "continue" as the answer to the
  resume offer (the global command would otherwise say that no game is running);
  :meth:`is_forget` — "forget it", "not now": offer no more saved games.

Matching is by whole words: the longest listed phrase contained in the
utterance wins; a whole utterance also snaps fuzzily to a game's name
(rapidfuzz ``ratio`` ≥ :data:`FUZZY_CUTOFF`) so "wit an wagers" still means Wits & Wagers.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from voicegame.language.prompts import load_toml
from voicegame.language.words import Understanding, fold, normalise, understanding

#: Game keys as in :data:`voicegame.games.GAMES`, in the order the lobby names them.
GAME_ORDER = ("wavelength", "wits", "rofl")
#: rapidfuzz ``ratio`` (0-100) a whole utterance needs to be taken for a game's name.
FUZZY_CUTOFF = 80.0


@dataclass(frozen=True)
class LobbyIntent:
    """What an utterance in the lobby asks for.

    :param kind: ``"play"``, ``"rules"``, ``"rules_which"`` (rules of no named game),
        ``"teach"`` (play ``game`` learning it: "teach me Wavelength"), ``"list"`` (which
        games are there), ``"language"``, ``"quit"`` (switch the host off) or ``"resume"``
        (a saved game; of ``game`` when one is named: "resume Wits and Wagers").
    :param game: the game key for play/rules (and resume, when named).
    :param count: a number of players said with the game ("ROFL with three players");
        never the number in "two teams" or "one team".
    :param lang: the language code for ``"language"``.
    :param options: settings said with the game ("Wits with three questions"), in order;
        a number of players is ``count``, not an option.
    :param mode: Wavelength's mode said with its name (W9): ``"teams"`` ("in teams",
        "with two teams") or ``"coop"`` ("cooperative"), else ``None``.
    """

    kind: str
    game: str | None = None
    count: int | None = None
    lang: str | None = None
    options: tuple["OptionChange", ...] = ()
    mode: str | None = None


@dataclass(frozen=True)
class OptionChange:
    """One option said in the set-up.

    :param name: ``"timer"``, ``"lenient"``, ``"hard"``, ``"stacking"``, ``"own_message"``,
        ``"accessible"``, ``"questions"`` (Wits question count), ``"points"``
        (Wavelength target score) or ``"players"`` (how many play, "five players").
    :param value: ``"normal"``/``"relaxed"``/``"off"`` for the timer, a bool for a
        switch, an int for questions/points.
    """

    name: str
    value: object


def _phrases(values) -> tuple[str, ...]:
    return tuple(normalise(v) for v in values if normalise(v))


def _find(text: str, phrases) -> tuple[int, int] | None:
    """Word span ``(start, end)`` of the longest phrase of ``phrases`` in normalised ``text``."""
    words = text.split()
    best = None
    for p in phrases:
        pw = p.split()
        n = len(pw)
        for i in range(len(words) - n + 1):
            if words[i:i + n] == pw and (best is None or n > best[1] - best[0]):
                best = (i, i + n)
                break
    return best


class LobbyUnderstanding:
    """Lobby and set-up phrases of one language.

    :param lang: a language with ``prompts/<lang>/words.toml`` and ``words_lobby.toml``.
    :raises voicegame.prompts.PromptError: a words file is missing or malformed.
    """

    def __init__(self, lang: str = "en"):
        self.lang = lang
        self.u: Understanding = understanding(lang)
        w = load_toml(lang, "words_lobby")
        self.games = {k: _phrases(w["games"][k]) for k in GAME_ORDER}
        self.rules_words = _phrases(w["lobby"]["rules"])
        self.rules_alone = _phrases(w["lobby"].get("rules_alone", ()))
        self.play_words = _phrases(w["lobby"]["play"])
        self.list_words = _phrases(w["lobby"]["list"])
        self.resume_lead = _phrases(w["lobby"].get("resume", ()))
        # mode words too vague to mean a mode when said with the game's name ("together")
        self.mode_vague = set(_phrases(w["lobby"].get("mode_vague", ())))
        self.languages = {k: _phrases(v) for k, v in w["languages"].items() if k != "lead"}
        self.language_lead = _phrases(w["languages"].get("lead", ()))
        s = w["setup"]
        self.setup = {k: _phrases(v) for k, v in s.items()}
        self.setup.setdefault("articles", ())
        # "met z'n vieren": words that say how many without being a number
        self.count_words = {normalise(k): int(v) for k, v in w.get("count_words", {}).items()}
        self.option_words = {k: _phrases(v) for k, v in w["options"].items()}
        self.after = {k: _phrases(v) for k, v in w["after"].items()}
        self.resume_words = _phrases(w.get("resume", {}).get("yes", ()))
        self.forget_words = _phrases(w.get("resume", {}).get("forget", ()))
        self.quit_words = {fold(p) for p in _phrases(w["lobby"].get("quit", ()))}
        self.teach_words = _phrases(w["lobby"].get("teach", ()))
        self.cancel_words = {fold(p) for p in self.setup.get("cancel", ())}
        rules = w.get("rules", {})
        self.skip_words = {fold(p) for p in _phrases(rules.get("skip", ()))}
        self.more_words = {fold(p) for p in _phrases(rules.get("more", ()))}

    # ------------------------------------------------------------------ lobby
    def game(self, text: str) -> str | None:
        """The game named in the utterance (longest phrase; else a fuzzy match), or ``None``."""
        t = normalise(text)
        best = None
        for key, phrases in self.games.items():
            span = _find(t, phrases)
            if span and (best is None or span[1] - span[0] > best[1]):
                best = (key, span[1] - span[0])
        if best:
            return best[0]
        rest = self._strip(t, self.play_words + self.rules_words)
        if not rest:
            return None
        every = [p for ps in self.games.values() for p in ps if len(p) > 3]
        found = process.extractOne(rest, every, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF)
        return next((k for k, ps in self.games.items() if found[0] in ps), None) if found else None

    @staticmethod
    def _strip(t: str, phrases) -> str:
        """``t`` without the longest leading/contained phrase of ``phrases`` (once)."""
        span = _find(t, phrases)
        if not span:
            return t
        words = t.split()
        return " ".join(words[:span[0]] + words[span[1]:])

    def language(self, text: str) -> str | None:
        """The language code of "speak Spanish", "español", "in Dutch" …, else ``None``.

        Only an utterance made of a language name and optional lead words counts,
        so "the spanish inquisition" is not a request to change language.
        """
        t = normalise(text)
        for code, phrases in self.languages.items():
            span = _find(t, phrases)
            if not span:
                continue
            words = t.split()
            rest = " ".join(words[:span[0]] + words[span[1]:])
            while rest:
                lead = _find(rest, self.language_lead)
                if not lead:
                    break
                rw = rest.split()
                rest = " ".join(rw[:lead[0]] + rw[lead[1]:])
            if not rest:
                return code
        return None

    def count_in(self, text: str) -> int | None:
        """The first whole number said in the utterance ("three players" → 3), else ``None``.

        An indefinite article that is also "one" (Spanish "una partida", Dutch "een potje":
        ``[setup] articles``) counts only before a players word ("una persona"); a count
        word (Dutch "met z'n vieren": ``[count_words]``) counts as its number. A number
        that belongs to a setting ("three questions", "play to six points", "thirty
        seconds") or to Wavelength's mode ("two teams", "one team") is not a number of players.
        """
        words = normalise(text).split()
        setting = [False] * len(words)
        for start, end, change in self._option_spans(text):
            if change.name != "players":
                setting[start:end] = [True] * (end - start)
        for start, end in self._mode_spans(" ".join(words)):  # "two teams", "one team": not players
            setting[start:end] = [True] * (end - start)
        found = [(i, self.count_words[word]) for i, word in enumerate(words) if word in self.count_words]
        for start, end, value in self.u.numbers_in(text, year=False):
            if not (isinstance(value, int) or (isinstance(value, float) and value.is_integer())):
                continue
            if any(setting[start:end]):
                continue
            article = " ".join(words[start:end]) in self.setup["articles"]
            if article and " ".join(words[end:end + 1]) not in self.setup["players_unit"]:
                continue
            found.append((start, int(value)))
        return min(found)[1] if found else None

    def lobby(self, text: str) -> LobbyIntent | None:
        """An utterance in the lobby → :class:`LobbyIntent`, or ``None`` when not understood."""
        t = normalise(text)
        if not t:
            return None
        lang = self.language(t)
        if lang:
            return LobbyIntent("language", lang=lang)
        game = self.game(t)
        asks_rules = _find(t, self.rules_words) is not None
        if game and asks_rules:
            return LobbyIntent("rules", game)
        if game and _find(t, self.teach_words) is not None:
            return LobbyIntent("teach", game)
        if game and _find(t, self.resume_lead) is not None:
            return LobbyIntent("resume", game)
        if game:
            settings = tuple(c for c in self.options(t) if c.name != "players")
            mode = self.mode_in(t) if game == "wavelength" else None
            return LobbyIntent("play", game, count=self.count_in(t), options=settings, mode=mode)
        if self.is_resume(t):
            return LobbyIntent("resume")
        if fold(t) in self.quit_words:
            return LobbyIntent("quit")
        if _find(t, self.rules_alone):
            return LobbyIntent("rules_which")
        if _find(t, self.list_words) or t in self.play_words:
            return LobbyIntent("list")
        return None

    def is_cancel(self, text: str) -> bool:
        """"quit", "cancel", "never mind": the whole utterance leaves the set-up."""
        return fold(normalise(text)) in self.cancel_words

    def rules_reply(self, text: str) -> str | None:
        """While the rules are read: ``"skip"`` ("got it", "enough"), ``"more"`` ("next"), else ``None``."""
        t = fold(normalise(text))
        if t in self.skip_words:
            return "skip"
        if t in self.more_words:
            return "more"
        return None

    def rules_phrases(self) -> list[str]:
        return sorted(self.skip_words | self.more_words)

    # ------------------------------------------------------------------ set-up
    def is_default(self, text: str) -> bool:
        """"default", "the usual", "that's fine" … (take the offered default)."""
        t = normalise(text)
        return t in self.setup["default"] or self.u.yes_no(t) is True

    def is_start(self, text: str) -> bool:
        """"start", "let's go", "ready", "yes" … (start the game with the settings read back)."""
        t = normalise(text)
        return t in self.setup["start"] or t in self.setup["default"] or self.u.yes_no(t) is True

    def wants_player_change(self, text: str) -> bool:
        """"change players", "change the colours", "start over"."""
        return _find(normalise(text), self.setup["change_players"]) is not None

    def player_count(self, text: str) -> int | None:
        """A number of players: "three", "3", "three players", "we are four" (Dutch "met z'n
        vieren"); else ``None``."""
        t = normalise(text)
        value = self.u.number(t)
        if isinstance(value, int):
            return value
        unit = _find(t, self.setup["players_unit"])
        words = t.split()
        if unit is None and len(words) > 3 and not any(w in self.count_words for w in words):
            return None
        return self.count_in(t)

    def wavelength_mode(self, text: str) -> str | None:
        """``"coop"`` (cooperative, one team, 1) or ``"teams"`` (two teams, 2), else ``None``."""
        t = normalise(text)
        coop = _find(t, self.setup["coop"])
        teams = _find(t, self.setup["teams"])
        if coop and not teams:
            return "coop"
        if teams and not coop:
            return "teams"
        if coop and teams:  # "one team" inside "team game"? the longer phrase wins
            return "coop" if coop[1] - coop[0] >= teams[1] - teams[0] else "teams"
        n = self.u.number(t)
        return {1: "coop", 2: "teams"}.get(n) if isinstance(n, int) else None

    def _mode_spans(self, t: str) -> list[tuple[int, int]]:
        """Word spans of the coop and teams phrases in normalised ``t`` (every occurrence)."""
        words = t.split()
        spans = []
        for p in self.setup["coop"] + self.setup["teams"]:
            pw = p.split()
            spans += [(i, i + len(pw)) for i in range(len(words) - len(pw) + 1) if words[i:i + len(pw)] == pw]
        return spans

    def mode_in(self, text: str) -> str | None:
        """Wavelength's mode said with the game's name: ``"coop"`` ("let's play Wavelength
        cooperative") or ``"teams"`` ("… in teams", "… with two teams"), else ``None``.

        Unlike :meth:`wavelength_mode`, a bare number is no mode here, and the vague words
        of ``[lobby] mode_vague`` ("together") do not count: "let's all play Wavelength
        together" asks nothing about teams.
        """
        t = normalise(text)
        coop = _find(t, [p for p in self.setup["coop"] if p not in self.mode_vague])
        teams = _find(t, [p for p in self.setup["teams"] if p not in self.mode_vague])
        if coop and teams:
            return "coop" if coop[1] - coop[0] > teams[1] - teams[0] else \
                "teams" if teams[1] - teams[0] > coop[1] - coop[0] else None
        return "coop" if coop else "teams" if teams else None

    def colours(self, text: str) -> list[str]:
        """Colour keys in the order they are said ("red, blue and violet" → red, blue, purple)."""
        out = []
        for word in normalise(text).split():
            key = next((k for k, ps in self.u.colour_words.items() if word in ps), None)
            if key:
                out.append(key)
        return out

    def options(self, text: str) -> list[OptionChange]:
        """Every option said in the utterance, in order; ``[]`` when none.

        Non-overlapping longest phrases: "hard mode and no timer" → hard on, timer off;
        "five questions" → questions 5; "play to six points" → points 6.
        """
        return [change for _, _, change in self._option_spans(text)]

    def _option_spans(self, text: str) -> list[tuple[int, int, OptionChange]]:
        """:meth:`options` with the word span ``(start, end)`` of each, in order."""
        t = normalise(text)
        words = t.split()
        found: list[tuple[int, int, OptionChange]] = []
        taken = [False] * len(words)
        candidates = []
        for key, phrases in self.option_words.items():
            name, _, setting = key.rpartition("_")
            value: object = {"on": True, "off": False}.get(setting, setting) if name != "timer" else setting
            for p in phrases:
                candidates.append((len(p.split()), p, OptionChange(name, value)))
        candidates.sort(key=lambda c: -c[0])
        for n, p, change in candidates:
            pw = p.split()
            for i in range(len(words) - n + 1):
                if words[i:i + n] == pw and not any(taken[i:i + n]):
                    taken[i:i + n] = [True] * n
                    found.append((i, i + n, change))
        for start, end, value in self.u.numbers_in(t, year=False):
            if any(taken[start:end]) or not isinstance(value, int):
                continue
            after = " ".join(words[end:end + 1])
            if after in self.setup["questions_unit"]:
                found.append((start, end + 1, OptionChange("questions", value)))
            elif after in self.setup["points_unit"]:
                found.append((start, end + 1, OptionChange("points", value)))
            elif after in self.setup["headcount_unit"]:
                found.append((start, end + 1, OptionChange("players", value)))
        return sorted(found, key=lambda f: f[0])

    def is_resume(self, text: str) -> bool:
        """"resume", "continue", "let's carry on" (Spanish "continuar", "seguimos"; Dutch
        "verder", "hervatten") as a whole answer: yes to the resume offer. The global
        ``resume`` command's phrases count too (:meth:`Understanding.command`)."""
        t = normalise(text)
        return self.u.command(t) == "resume" or fold(t) in {fold(p) for p in self.resume_words}

    def is_forget(self, text: str) -> bool:
        """"forget it", "not now", "none of them" (Spanish "déjalo", Dutch "laat maar"): offer
        no more saved games; they all stay saved."""
        t = fold(normalise(text))
        return t in {fold(p) for p in self.forget_words}

    # ------------------------------------------------------------------ after a game
    def after_game(self, text: str) -> str | None:
        """``"again"``, ``"another"`` or ``"lobby"``; else ``None``."""
        t = normalise(text)
        best = None
        for key, phrases in self.after.items():
            span = _find(t, phrases)
            if span and (best is None or span[1] - span[0] > best[1]):
                best = (key, span[1] - span[0])
        return best[0] if best else None

    # ------------------------------------------------------------------ grammar
    def lobby_phrases(self) -> list[str]:
        """Phrases of the lobby moment (for a recognizer grammar)."""
        games = [p for ps in self.games.values() for p in ps]
        out = list(games)
        out += [f"{lead} {g}" for lead in self.play_words[:3] + self.rules_words[:4] + self.resume_lead[:2]
                for g in games]
        out += list(self.play_words) + list(self.list_words) + list(self.rules_words)
        out += [p for ps in self.languages.values() for p in ps]
        out += [f"{lead} {p}" for lead in self.language_lead[:1] for p in self.languages_said()]
        out += list(self.language_lead)
        out += [f"{lead} {g}" for lead in self.teach_words[:2] for g in games] + list(self.teach_words)
        out += sorted(self.quit_words)
        return out

    def languages_said(self) -> list[str]:
        return [ps[0] for ps in self.languages.values() if ps]

    def setup_phrases(self) -> list[str]:
        """Phrases of the set-up moments (numbers, colours, options, start/default)."""
        out = list(self.u.number_words()) + self.u.colour_phrases() + self.u.yes_no_phrases()
        for ps in (*self.setup.values(), *self.option_words.values()):
            out += list(ps)
        return out + list(self.count_words)

    def resume_phrases(self) -> list[str]:
        """Phrases of the resume offer besides yes/no (for a recognizer grammar): resume words,
        forget words, and the games' names (to pick another saved game)."""
        games = [p for ps in self.games.values() for p in ps]
        return list(self.resume_words) + list(self.forget_words) + games + \
            [f"{lead} {g}" for lead in self.resume_lead[:2] for g in games]

    def after_phrases(self) -> list[str]:
        return [p for ps in self.after.values() for p in ps] + [p for ps in self.games.values() for p in ps]

    def all_words(self) -> set[str]:
        """Every word of every lobby and set-up phrase (vocabulary check)."""
        phrases = self.lobby_phrases() + self.setup_phrases() + self.after_phrases() + self.resume_phrases()
        return {w for p in phrases for w in p.split()}


@cache
def lobby_understanding(lang: str) -> LobbyUnderstanding:
    """The (cached) :class:`LobbyUnderstanding` for ``lang``."""
    return LobbyUnderstanding(lang)
