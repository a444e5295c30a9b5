"""The spoken lobby, set-up by voice, and kiosk mode.

``voicegame`` with no arguments (or ``voicegame kiosk``) runs :class:`Kiosk`: a queued
``transitions`` machine over the kiosk object, driven like the game hosts
(:mod:`voicegame.engine.phases`): each :class:`Phase` runs in its ``on_enter`` callback and
ends by firing the next trigger; a trigger that cannot fire raises ``PhaseError``::

    start ─┬─> offer_resume ─yes─> playing ─finished─> after_game ─ play again ─> playing
           │      │ no, the last      │ stop, idle         ├─ another game ─> lobby
           └──────┴─────> greet <─────┴────────── lobby ───┴─ a game's name ─> setup_players
                            │         (the input ended in a game: closed)
                            ▼
       closed <─ quit ─ lobby ─ resume ─> offer_resume    (rules, help, settings: lobby again)
                            │ "let's play Wits and Wagers"
                            ▼
          setup_players ─> setup_colours ─> setup_options ─ start ─> playing
                (co-op skips the colours; "quit" goes back to greet)

- **offer_resume** — unfinished autosaves, newest first, one by one (L2): yes (or "resume")
  replays the save's whole input log in its own language; no offers the next; "forget it",
  "quit" or silence offers no more; a game's name picks its save. Declined saves stay saved.
- **greet**, **lobby** — the lobby listens without a timeout: a game's name, "teach me …",
  "rules of …", "resume", "quit" (asks, then switches off), voice settings and a language (saved
  in the configuration, :mod:`voicegame.config`), "score" of the last game.
- **setup_*** — set-up by voice with defaults (L1): players (Wavelength: teams or co-op), colours
  in seat order (G3), then the settings; each answer read back, "start" starts, three silences
  take the default, "quit" cancels. Settings said early are kept for the settings question.
- **playing** — one :class:`~voicegame.engine.table.Session` on the shared ports; a quit or idle
  game comes back to the greeting, a finished one to **after_game** ("play again", "another
  game", a game's name, "rules of …", "score", "lobby").

The set-up becomes the game's own command-line options (:func:`build_settings`), so a game set
up by voice is exactly a game started with ``voicegame play``. When the input ends the kiosk
stops cleanly.
"""

from __future__ import annotations

import argparse
import copy
import enum
import logging
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from transitions import Machine

from voicegame import config as kiosk_config
from voicegame.adapters import tts
from voicegame.engine import phases
from voicegame.engine.journal import data_dir, journal_path, load_autosave
from voicegame.games.rofl import rules as rofl_rules
from voicegame.games.wavelength.intents import wavelength_understanding
from voicegame.games.wits import rules as wits_rules
from voicegame.language import prompts
from voicegame.games.decks import DeckError
from voicegame.games.registry import host_module
from voicegame.engine.moment import (DEFAULT_LISTEN_S, SILENT, Moment, NotAllowed, NotUnderstood, run_moment,
                                     understood)
from voicegame.engine.seats import SEAT_ORDER, default_seats
from voicegame.engine.session import Settings
from voicegame.adapters.devices import SpeakerWatch, wait_until
from voicegame.display import add_argument as add_display_argument
from voicegame.display.server import open_display
from voicegame.engine.observer import Caption, CaptionedVoice, Observers, View
from voicegame.engine.table import DEVICE_POLL_S, Session
from voicegame import env as env_module
from voicegame.env import PortChoice, device
from voicegame.ports import Expected, Heard, InputEnded, Ports, Silence
from voicegame.language.prompts import Prompts, PromptError
from voicegame.language.words import normalise, understanding
from voicegame.lobby.intents import GAME_ORDER, LobbyIntent, OptionChange, lobby_understanding

log = logging.getLogger("voicegame")

#: Seconds the host pauses after each part of the rules (for "skip" or "more").
RULES_PAUSE_S = 2.0
#: Silences at a set-up question (or the resume offer, or "what next?") before its default is taken.
SETUP_SILENCES = 3
#: Seconds a relaxed timer adds to the configured one (R7: "+30 s").
RELAXED_EXTRA_S = 30.0
#: Prompt files a language needs before the lobby can switch to it.
LANGUAGE_FILES = ("common", "lobby", "wavelength", "wits", "rofl", "words", "words_lobby")

class Phase(enum.Enum):
    """The lobby's phases, the machine's states; the value is the phase a :class:`View` names."""

    START = "start"
    OFFER_RESUME = "offer_resume"
    GREET = "greet"
    LOBBY = "lobby"
    SETUP_PLAYERS = "setup_players"
    SETUP_COLOURS = "setup_colours"
    SETUP_OPTIONS = "setup_options"
    PLAYING = "playing"
    AFTER_GAME = "after_game"
    CLOSED = "closed"


P = Phase
SETUP_PHASES = [P.SETUP_PLAYERS, P.SETUP_COLOURS, P.SETUP_OPTIONS]
TRANSITIONS = [
    {"trigger": "boot", "source": P.START, "dest": P.OFFER_RESUME, "conditions": "has_offer"},
    {"trigger": "boot", "source": P.START, "dest": P.GREET, "unless": "has_offer"},
    {"trigger": "offer_accepted", "source": P.OFFER_RESUME, "dest": P.PLAYING},
    {"trigger": "offer_declined", "source": P.OFFER_RESUME, "dest": P.OFFER_RESUME, "conditions": "has_offer"},
    {"trigger": "offer_declined", "source": P.OFFER_RESUME, "dest": P.GREET, "unless": "has_offer"},
    {"trigger": "greeted", "source": P.GREET, "dest": P.LOBBY},
    {"trigger": "lobby_answered", "source": P.LOBBY, "dest": P.LOBBY},  # rules, help, a setting: listen again
    {"trigger": "resume_asked", "source": P.LOBBY, "dest": P.OFFER_RESUME, "conditions": "has_offer"},
    {"trigger": "game_chosen", "source": [P.LOBBY, P.AFTER_GAME], "dest": P.SETUP_PLAYERS, "conditions": "has_setup"},
    {"trigger": "players_chosen", "source": P.SETUP_PLAYERS, "dest": P.SETUP_OPTIONS, "conditions": "is_coop"},
    {"trigger": "players_chosen", "source": P.SETUP_PLAYERS, "dest": P.SETUP_COLOURS, "unless": "is_coop"},
    {"trigger": "colours_chosen", "source": P.SETUP_COLOURS, "dest": P.SETUP_OPTIONS},
    {"trigger": "players_changed", "source": P.SETUP_OPTIONS, "dest": P.SETUP_PLAYERS},
    {"trigger": "setup_cancelled", "source": SETUP_PHASES, "dest": P.GREET},
    {"trigger": "setup_done", "source": P.SETUP_OPTIONS, "dest": P.PLAYING, "conditions": "has_job"},
    {"trigger": "game_ended", "source": P.PLAYING, "dest": P.AFTER_GAME, "conditions": "game_finished"},
    {"trigger": "game_ended", "source": P.PLAYING, "dest": P.CLOSED, "conditions": "input_gone"},
    {"trigger": "game_ended", "source": P.PLAYING, "dest": P.GREET, "unless": ["game_finished", "input_gone"]},
    {"trigger": "same_again", "source": P.AFTER_GAME, "dest": P.PLAYING, "conditions": "has_job"},
    {"trigger": "other_game", "source": P.AFTER_GAME, "dest": P.LOBBY},
    {"trigger": "lobby_chosen", "source": P.AFTER_GAME, "dest": P.GREET},
    {"trigger": "switch_off", "source": P.LOBBY, "dest": P.CLOSED},
]


class Cancelled(Exception):
    """"quit"/"stop" said at a set-up question, the resume offer or "what next?"."""


# --------------------------------------------------------------------------- the set-up


@dataclass(frozen=True)
class GameSpec:
    """What the voice set-up offers for one game.

    :param low, high: players (Wavelength: the two teams).
    :param switches: on/off settings offered (names of :class:`OptionChange`).
    :param timed: the game runs timers (G1), so the timer setting is offered.
    :param number: ``"questions"`` (Wits: ``--count``) or ``"points"`` (Wavelength:
        ``--target-score``), with its range and default.
    :param headcount: how many play is a setting ("five players": Wavelength, whose
        teams have no colours per player but whose Psychic goes round the table).
    """

    low: int
    high: int
    default_players: int
    switches: tuple[str, ...]
    timed: bool
    number: str | None = None
    number_range: tuple[int, int] = (1, 1)
    number_default: int = 0
    headcount: bool = False

#: Range of the Wavelength headcount (everyone, both teams together).
HEADCOUNT_RANGE = (2, 20)
#: Two teams need a dial-turner besides each Psychic: two players a side (W4, W7).
TEAMS_MIN_HEADCOUNT = 4


def game_specs() -> dict[str, GameSpec]:
    """The set-up of each game, from its rules and host modules (players K1, R1; W4 target)."""
    wits_host, rofl_host = host_module("wits"), host_module("rofl")
    return {
        "wavelength": GameSpec(2, 2, 2, ("accessible",), False, "points", (2, 30), 10, headcount=True),
        "wits": GameSpec(wits_rules.MIN_PLAYERS, wits_rules.MAX_PLAYERS, len(wits_host.DEFAULT_PLAYERS), (),
                         True, "questions", (1, 20), wits_rules.DEFAULT_QUESTIONS),
        "rofl": GameSpec(rofl_rules.MIN_PLAYERS, rofl_rules.MAX_PLAYERS, len(rofl_host.DEFAULT_PLAYERS),
                         ("lenient", "hard", "stacking", "own_message"), True),
    }


#: Command-line flag of each on/off setting.
SWITCH_FLAGS = {"lenient": "--lenient", "hard": "--hard", "stacking": "--stacking",
                "own_message": "--own-message", "accessible": "--accessible"}


@dataclass
class Setup:
    """A game being set up by voice.

    :param game: ``"wavelength"``, ``"wits"`` or ``"rofl"``.
    :param coop: Wavelength cooperative mode (W9).
    :param players: colours in seat order (Wavelength: the two teams, first starts).
    :param timer: ``"normal"``, ``"relaxed"`` or ``"off"``.
    :param switches: on/off settings by name (see :data:`SWITCH_FLAGS`).
    :param number: Wits questions or Wavelength target score, ``None`` for the default.
    :param headcount: Wavelength: how many play (co-op: everyone; teams: split, the first
        team gets the odd player), ``None`` when not said.
    :param count: a number of players said with the game's name, not yet checked.
    :param pending: settings said before the settings question (with the game's name,
        or at the players question), applied when the settings are asked.
    :param mode: Wavelength's mode said with the game's name (``"teams"``/``"coop"``):
        the mode question is not asked.
    :param teach: "teach me": the rules in parts before the game, then the game teaches
        as it goes (``Settings.teach``).
    """

    game: str
    coop: bool = False
    players: list[str] = field(default_factory=list)
    timer: str = "normal"
    switches: dict[str, bool] = field(default_factory=dict)
    number: int | None = None
    headcount: int | None = None
    count: int | None = None
    pending: list[OptionChange] = field(default_factory=list)
    mode: str | None = None
    teach: bool = False

    def argv(self) -> list[str]:
        """The game's own command-line options for this set-up."""
        out: list[str] = []
        if self.game == "wavelength":
            if self.coop:
                out.append("--coop")
            else:
                out += ["--teams", *self.players]
                if self.number is not None:
                    out += ["--target-score", str(self.number)]
            if self.headcount is not None:
                n = self.headcount
                out += ["--players", str(n)] if self.coop else ["--players", str(n - n // 2), str(n // 2)]
        else:
            out += ["--players", ",".join(self.players)]
            if self.game == "wits" and self.number is not None:
                out += ["--count", str(self.number)]
        out += [SWITCH_FLAGS[name] for name, on in sorted(self.switches.items()) if on]
        return out

    @classmethod
    def from_settings(cls, settings: Settings, normal_timer_s: float | None) -> "Setup":
        """The set-up of a game that was not set up by voice (a resumed one), for "play again"."""
        o = settings.options
        if settings.timer_s is None:
            timer = "off"
        elif normal_timer_s is not None and abs(settings.timer_s - normal_timer_s) < 1e-9:
            timer = "normal"
        else:
            timer = "relaxed"
        players = list(o.get("teams") or []) if settings.game == "wavelength" else list(o.get("players") or [])
        number = o.get("count") if settings.game == "wits" else o.get("target_score")
        switches = {name: True for name in SWITCH_FLAGS if o.get(name) is True}
        headcount = None
        if settings.game == "wavelength" and o.get("players"):
            sizes = list(o["players"])
            headcount = sum(sizes) if o.get("coop") or len(sizes) == 2 else 2 * sizes[0]
        return cls(settings.game, bool(o.get("coop")), players, timer, switches,
                   number if isinstance(number, int) else None, headcount)


def build_settings(setup: Setup, *, lang: str, seed: int, timer_s: float | None, private: str,
                   idle_s: float | None, rules_heard: bool = False) -> Settings:
    """Settings for ``setup``, read through the host module's own option parser and validated.

    :param timer_s: the configured (normal) timer, seconds; ``None`` is off.
    :raises ValueError: the host module refuses the options (one sentence).
    """
    module = host_module(setup.game)
    parser = argparse.ArgumentParser(prog=f"voicegame play {setup.game}", add_help=False)
    module.add_arguments(parser)
    try:
        args = parser.parse_args(setup.argv())
    except SystemExit:
        raise ValueError(f"The set-up of {setup.game} cannot be read: {' '.join(setup.argv())}.") from None
    settings = Settings(game=setup.game, lang=lang, seed=seed, timer_s=timer_for(setup.timer, timer_s),
                        private=private, options=module.options_from_args(args), idle_s=idle_s,
                        teach=setup.teach, rules_heard=rules_heard or setup.teach)
    module.validate(settings)
    return settings


def timer_for(choice: str, normal_s: float | None) -> float | None:
    """Seconds per timer: ``normal`` is the configured timer, ``relaxed`` adds 30 s (R7), ``off`` is ``None``."""
    if choice == "off":
        return None
    if choice == "relaxed":
        return (normal_s or 30.0) + RELAXED_EXTRA_S
    return normal_s


@dataclass
class Job:
    """A game about to be played: its settings, its set-up, and the log to replay (resume)."""

    settings: Settings
    setup: Setup
    log: list[dict] | None = None


# --------------------------------------------------------------------------- the kiosk


class Kiosk:
    """The lobby: a ``transitions`` machine over this object (see the module docstring).

    :param ports: listener, voice and clock shared by the lobby and the games.
    :param config: the kiosk configuration (changed by voice: rate, volume, language).
    :param config_file: where to save it; ``None`` never saves (a malformed file is kept).
    :param environ: the process environment (data directory of the autosaves).
    :param seed: seeds the games (each game draws its seed from it); ``None`` is random.
    :param lang: the language to start in (default: the configuration's).
    :param config_error: the configuration file could not be used (the defaults are): said at start
        in one plain sentence naming the file and line (:meth:`config_problem`).
    """

    def __init__(self, ports: Ports, config: kiosk_config.Config, config_file: Path | None,
                 environ=None, seed: int | None = None, lang: str | None = None,
                 config_error: kiosk_config.ConfigError | None = None, observers: Observers | None = None):
        self.ports = ports
        #: the lobby's audiences (a screen subscribes to "public"); the games publish here too
        self.observers = observers if observers is not None else Observers()
        self._captioned = CaptionedVoice(self._watched(ports.voice), lambda: self.observers)
        #: an utterance heard while the rules were read, kept for the next moment
        self._held: Heard | None = None
        #: games whose rules were heard in this run (their start does not read them again)
        self.rules_heard: set[str] = set()
        self.config = config
        self.config_file = config_file
        self.environ = environ
        self.seeds = random.Random(seed) if seed is not None else random.SystemRandom()
        self.config_error = config_error
        self.specs = game_specs()
        wanted = lang or config.lang
        self.missing_language = None if language_available(wanted) else wanted
        self.set_language(wanted if self.missing_language is None else "en")
        self.last_prompt: str | None = None
        self.lobby_prompt: str | None = None
        self.first_greeting = True
        self.hint_saved = False
        #: saved games still to offer this round, newest first, and how many were offered so far
        self.offers: list[tuple[Path, dict]] = []
        self.offered = 0
        #: unreadable autosaves already named aloud
        self.broken_said: set[str] = set()
        #: the last finished game: (game, final standings of its record, cooperative), for "score"
        self.last_result: tuple[str, list, bool] | None = None
        self.setup: Setup | None = None
        self.job: Job | None = None
        self.last_job: Job | None = None
        self.outcome: str | None = None
        self.machine = Machine(model=self, states=Phase, transitions=TRANSITIONS, initial=Phase.START,
                               auto_transitions=False, queued=True)

    # ------------------------------------------------------------------ driver
    def run(self) -> int:
        """Run the lobby until it is switched off or the input ends; returns the exit status (0).

        The machine is queued: each phase's ``on_enter`` callback fires the next trigger and the
        machine runs the phases one after the other, so weeks of games never deepen the stack.

        :raises PhaseError: a trigger could not fire, or the lobby stopped before :attr:`Phase.CLOSED`
            (a bug: the command line logs it and says one sentence, :func:`voicegame.cli.main`).
        """
        try:
            self.publish_view()
            self.run_start()
            phases.play(self, "boot", Phase.CLOSED)
        except InputEnded:
            self.say("lobby.input_ended")
        return 0

    def fire(self, trigger: str) -> None:
        """Fire ``trigger`` (queued). :raises PhaseError: no transition of it can fire now."""
        phases.fire(self, trigger)

    # ------------------------------------------------------------------ conditions
    def has_offer(self) -> bool:
        """True while saved games are still to be offered this round."""
        return bool(self.offers)

    def has_setup(self) -> bool:
        """True once a game is chosen (:attr:`setup`)."""
        return self.setup is not None

    def has_job(self) -> bool:
        """True once the game to play is settled (:attr:`job`)."""
        return self.job is not None

    def is_coop(self) -> bool:
        """True for Wavelength's cooperative mode (W9): no team colours to ask."""
        return bool(self.setup and self.setup.coop)

    def game_finished(self) -> bool:
        """True when the last game was played to its end."""
        return self.outcome == "finished"

    def input_gone(self) -> bool:
        """True when the input ended during the last game (the lobby closes)."""
        return self.outcome == "input_ended"

    # ------------------------------------------------------------------ phases (each ends by firing the next trigger)
    def on_enter_OFFER_RESUME(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_offer_resume()

    def on_enter_GREET(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_greet()

    def on_enter_LOBBY(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_lobby()

    def on_enter_SETUP_PLAYERS(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_setup_players()

    def on_enter_SETUP_COLOURS(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_setup_colours()

    def on_enter_SETUP_OPTIONS(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_setup_options()

    def on_enter_PLAYING(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_playing()

    def on_enter_AFTER_GAME(self) -> None:  # noqa: N802
        self.publish_view()
        self.run_after_game()

    # ------------------------------------------------------------------ language, speech
    def set_language(self, lang: str) -> None:
        """Speak and understand ``lang`` from now on (prompts, words; ports via ``relang``)."""
        self.lang = lang
        self.prompts = Prompts.load(lang)
        self.u = understanding(lang)
        self.lu = lobby_understanding(lang)

    @property
    def voice(self):
        """The lobby's voice: every sentence captioned for the public audience."""
        if self._captioned.inner.inner is not self.ports.voice:  # the language changed the voice
            self._captioned = CaptionedVoice(self._watched(self.ports.voice), lambda: self.observers)
        return self._captioned

    def _watched(self, voice) -> SpeakerWatch:
        """``voice``, paused on the sentence it was saying while its speaker is gone (said on
        stderr and the screen's captions; checked again every few seconds on the clock)."""
        def lost(exc: Exception) -> None:
            log.warning("speaker lost: %s", exc)
            self.observers.publish(Caption(self.text("common.speaker_lost")))

        return SpeakerWatch(voice, self.ports.clock, lost, interval_s=DEVICE_POLL_S)

    def publish_view(self) -> None:
        """The lobby's public view (what a screen shows): the games, the set-up, the saved games."""
        s = self.setup
        setup = None
        if s is not None:
            setup = {"game": s.game, "players": [self.name(p) for p in s.players],
                     "options": {"coop": s.coop, "timer": s.timer, "switches": dict(s.switches),
                                 "number": s.number, "headcount": s.headcount, "teach": s.teach}}
        unfinished = []
        for _, save in self.offers:
            try:
                unfinished.append({"game": save["settings"]["game"], "progress": self.progress(save)})
            except (KeyError, TypeError, ValueError, AttributeError, PromptError):
                continue
        hint = self.text("lobby.nudge")
        self.observers.publish(View("lobby", self.state.value, {
            "lang": self.lang, "games": [{"id": g, "name": self.game_name(g)} for g in GAME_ORDER],
            "setup": setup, "unfinished": unfinished, "hint": hint}))

    def text(self, key: str, **values) -> str:
        return self.prompts.text(key, **values)

    def say(self, key: str, remember: bool = True, **values) -> str:
        sentence = self.text(key, **values)
        self.say_text(sentence, remember)
        return sentence

    def say_text(self, sentence: str, remember: bool = True) -> None:
        if remember:
            self.last_prompt = sentence
        self.voice.say(sentence)

    def game_name(self, game: str) -> str:
        return self.text(f"lobby.names.{game}")

    def name(self, player: str) -> str:
        """A player or team as read back: a colour key in the language, capitalised as a
        name ("red" → "Red", "Rojo", "Rood"); any other name with a capital too (G3)."""
        said = self.u.colour_name(player)
        return said[:1].upper() + said[1:]

    def names(self, players) -> list[str]:
        return [self.name(p) for p in players]

    def language_name(self, lang: str) -> str:
        key = f"lobby.language_names.{lang}"
        return self.text(key) if self.prompts.has(key) else lang

    # ------------------------------------------------------------------ listening (a floor of the engine)
    @property
    def understanding(self):
        return self.u

    def listen(self, expected: Expected, timeout_s: float | None):
        """One raw listen on the lobby's listener (the lobby keeps no input log); an utterance
        kept while the rules were read comes first."""
        if self._held is not None:
            held, self._held = self._held, None
            return held

        def lost(exc: Exception) -> None:  # a microphone gone: said once, then checked every few seconds
            log.warning("microphone lost: %s", exc)
            self.voice.say(self.text("lobby.waiting.no_microphone"))

        return wait_until(lambda: self.ports.listener.listen(expected, timeout_s), self.ports.clock,
                          on_problem=lost, interval_s=DEVICE_POLL_S)

    def replayed(self) -> None:
        return None

    def accepted(self, value, intent) -> None:
        pass

    def missed(self) -> None:
        pass

    def ask(self, key: str | None, parse: Callable[[str], object], *, help_key: str, moment: str,
            phrases=(), timeout_s: float | None = DEFAULT_LISTEN_S, silence_limit: int | None = None,
            nudge_key: str = "common.nudge", help_values: dict | None = None,
            owned_commands=frozenset(), **values):
        """Say ``key`` and listen until ``parse`` accepts an utterance: one moment of the
        engine (:func:`voicegame.engine.moment.run_moment`), the same policy as a game's.

        Lobby commands (:meth:`command`): repeat, help, slower/faster/louder/softer
        (saved), quit (:class:`Cancelled`); score says the last finished game's final
        standings; pause, undo and resume say that no game is running. A silence while
        nothing is timed (``timeout_s`` ``None``) gets no answer: the lobby waits quietly.

        :param owned_commands: commands ``parse`` takes as answers here (the lobby's "resume").
        :raises Cancelled: "quit" / "stop".
        :raises InputEnded: the input is exhausted.
        """
        def parse_or_cancel(text: str):
            if moment != "lobby" and self.lu.is_cancel(text):  # "quit", "cancel": leave the set-up
                raise Cancelled()
            return parse(text)

        return run_moment(self, Moment(key, parse_or_cancel, help_key, moment, phrases=phrases, timeout_s=timeout_s,
                                       silence_limit=silence_limit, quiet_untimed=True, nudge_key=nudge_key,
                                       owned_commands=frozenset(owned_commands), help_values=help_values or {},
                                       values=values))

    def ask_yes_no(self, key: str, *, help_key: str = "common.help_yes_no", moment: str = "confirm",
                   silence_limit: int | None = SETUP_SILENCES, **values):
        """A yes/no question: ``True``, ``False``, or :data:`SILENT` after ``silence_limit`` silences."""
        def parse(text: str) -> bool:
            return understood(self.u.yes_no(text))

        return self.ask(key, parse, help_key=help_key, moment=moment, phrases=self.u.yes_no_phrases(),
                        silence_limit=silence_limit, **values)

    def command(self, command: str, moment: Moment) -> None:
        """A global command heard in the lobby or the set-up."""
        help_key, help_values = moment.help_key, moment.help_values
        if command == "repeat":
            if self.last_prompt:
                self.voice.say(self.last_prompt)
        elif command == "help":
            self.say(help_key, remember=False, **help_values)
        elif command in ("slower", "faster", "louder", "softer"):
            self.adjust_voice(command)
        elif command == "quit":
            raise Cancelled()
        elif command == "stop":  # barge-in: stop talking, nothing else
            stop = getattr(self.ports.voice, "stop", None)
            if callable(stop):
                stop()
        elif command == "score" and self.last_result is not None:
            self.say_text(self.final_score(), remember=False)
        else:  # score, pause, resume, undo: only during a game
            self.say("lobby.not_now", remember=False)
            self.say(help_key, remember=False, **help_values)

    # ------------------------------------------------------------------ settings changed by voice
    def adjust_voice(self, command: str) -> None:
        """Slower/faster (±20 words a minute, 80-300) or louder/softer (±0.1, 0.2-1.0), saved."""
        c = self.config
        if command in ("slower", "faster"):
            step = -1 if command == "slower" else 1
            new = int(min(tts.RATE_MAX_WPM, max(tts.RATE_MIN_WPM, c.rate_wpm + step * tts.RATE_STEP_WPM)))
            if new == c.rate_wpm:
                self.say("lobby.slowest" if step < 0 else "lobby.fastest", remember=False)
                return
            c.rate_wpm = new
            self.voice.adjust(rate_step=step)
            self.say(f"lobby.{command}_saved", remember=False, wpm=new)
            self.save_config("rate_wpm")
            return
        step = 1 if command == "louder" else -1
        new = round(min(tts.VOLUME_MAX, max(tts.VOLUME_MIN, c.volume + step * tts.VOLUME_STEP)), 2)
        if new == c.volume:
            self.say("lobby.loudest" if step > 0 else "lobby.softest", remember=False)
            return
        c.volume = new
        self.voice.adjust(volume_step=step)
        self.say(f"lobby.{command}_saved", remember=False, percent=int(round(new * 100)))
        self.save_config("volume")

    def switch_language(self, lang: str) -> None:
        """"speak Spanish": switch (and save) when the language's sentences are installed."""
        if lang == self.lang:
            self.say("lobby.language_same", remember=False, language=self.language_name(lang))
            return
        if not language_available(lang):
            self.say("lobby.language_missing", remember=False, language=self.language_name(lang))
            return
        if self.ports.relang:
            self.ports.listener, self.ports.voice = self.ports.relang(lang)
        self.set_language(lang)
        self.config.lang = lang
        self.say("lobby.language_changed", remember=False, language=self.language_name(lang))
        self.save_config("lang")

    def save_config(self, key: str) -> None:
        """Write ``key`` into the configuration file (the owner's other lines stay as they are)."""
        if self.config_file is None:
            self.say("lobby.not_saved", remember=False)
            return
        try:
            kiosk_config.save(self.config, path=self.config_file, keys=(key,))
        except (OSError, ValueError) as exc:
            log.warning("cannot save %s: %s", self.config_file, exc)
            self.say("lobby.not_saved", remember=False)

    # ------------------------------------------------------------------ autosaves
    def saved_games(self, game: str | None = None) -> tuple[list[tuple[Path, dict]], list[Path]]:
        """The unfinished autosaves (of ``game``, when given), newest first, and the autosaves
        that cannot be read (truncated, not JSON, no game): ``(found, unreadable)``.

        Newest is the last save of the autosave or its journal (file times), then the start
        stamp of the game; a finished game is never listed.
        """
        folder = data_dir(self.environ) / "autosave"
        found: list[tuple[tuple, Path, dict]] = []
        unreadable: list[Path] = []
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            try:
                save = load_autosave(path)
                if save.get("finished"):
                    continue
                host_module(save["settings"]["game"])
                journal = journal_path(path)
                saved = max(path.stat().st_mtime, journal.stat().st_mtime if journal.exists() else 0.0)
                found.append(((saved, str(save["settings"].get("started", ""))), path, save))
            except (ValueError, KeyError, TypeError, AttributeError, OSError):
                unreadable.append(path)
        found.sort(key=lambda item: item[0], reverse=True)
        return [(path, save) for _, path, save in found if game in (None, save["settings"]["game"])], unreadable

    def say_unreadable(self, unreadable: list[Path], again: bool = False) -> bool:
        """Name each unreadable autosave in one sentence (once per kiosk run, unless ``again``);
        ``True`` when something was said."""
        said = False
        for path in unreadable:
            if again or str(path) not in self.broken_said:
                self.broken_said.add(str(path))
                self.say("lobby.resume_broken", remember=False, path=str(path))
                said = True
        return said

    def queue_offers(self, found: list[tuple[Path, dict]]) -> None:
        """Offer ``found`` (newest first) one by one from the next ``offer_resume``."""
        self.offers = list(found)
        self.offered = 0

    def progress(self, save: dict) -> str:
        """Where the saved game stopped ("question 4"): the host module's ``progress(save, prompts)``."""
        module = host_module(save["settings"]["game"])
        describe = getattr(module, "progress", None)
        return describe(save, self.prompts) if describe else self.text("lobby.progress_unknown")

    def final_score(self) -> str:
        """The last finished game's final standings, from its record ("Final score of the last
        Wits and Wagers game: Red 33 chips and Orange 4 chips.")."""
        game, standings, coop = self.last_result
        if coop:
            points = standings[0]["points"] if standings else 0
            return self.text("lobby.final_score_coop", n=points)
        items = []
        for line in standings:
            name = self.name(str(line.get("name", line.get("player", ""))))
            if "chips" in line:
                n = line["chips"]
                key = "lobby.score_chips_none" if n == 0 else "lobby.score_chips_one" if n == 1 else "lobby.score_chips"
            else:
                n = line.get("points", 0)
                key = "lobby.score_points_one" if n == 1 else "lobby.score_points"
            items.append(self.text(key, name=name, n=n))
        return self.text("lobby.final_score", game=self.game_name(game), items=items)

    # ------------------------------------------------------------------ phases
    def run_start(self) -> None:
        if self.config_error:
            self.say_text(self.config_problem(self.config_error), remember=False)
        if self.missing_language:
            self.say("lobby.language_missing", remember=False, language=self.language_name(self.missing_language))
        self.check_vocabulary()
        found, unreadable = self.saved_games()
        self.say_unreadable(unreadable)
        self.queue_offers(found)

    def config_problem(self, error: kiosk_config.ConfigError) -> str:
        """One plain sentence in the table's language: which file, which line (and key), and
        that the defaults are used. The parser's own text goes to the log only."""
        values = {"path": str(error.path), "line": error.line, "setting": error.key}
        if error.kind == "syntax" and error.line:
            return self.text("lobby.config_syntax", **values)
        if error.kind == "value" and error.key:
            return self.text("lobby.config_value" if error.line else "lobby.config_value_no_line", **values)
        if error.kind == "folder":
            return self.text("lobby.config_folder", **values)
        return self.text("lobby.config_unreadable", **values)

    def check_vocabulary(self) -> list[str]:
        """Lobby words the speech model lacks: logged; said aloud only when a game
        cannot be named at all (every phrase of its name has a missing word)."""
        checker = getattr(self.ports.listener, "missing_words", None)
        if checker is None:
            return []
        missing = set(checker(sorted(self.lu.all_words())))
        if missing:
            log.warning("lobby words missing from the speech model: %s", ", ".join(sorted(missing)))
        unnamed = [p for ps in self.lu.games.values() if all(set(p.split()) & missing for p in ps) for p in ps]
        if unnamed:
            self.say("common.missing_words", remember=False, words=unnamed)
        return sorted(missing)

    def run_offer_resume(self) -> None:
        path, save = self.offers.pop(0)
        first, self.offered = self.offered == 0, self.offered + 1
        several = first and bool(self.offers)
        try:
            settings = Settings.from_dict(save["settings"])
            log_entries = list(save["log"])  # every input, silences included: they decided things
            setup = Setup.from_settings(settings, self.config_timer_s())
            values = dict(game=self.game_name(settings.game), progress=self.progress(save),
                          players=self.players_words(setup) or self.text("lobby.players_unknown"))
        except (KeyError, TypeError, ValueError, AttributeError, PromptError):
            self.broken_said.add(str(path))
            self.say("lobby.resume_broken", path=str(path))
            self.fire("offer_declined")
            return
        if not language_available(settings.lang):
            self.say("lobby.language_missing", remember=False, language=self.language_name(settings.lang))
            self.fire("offer_declined")
            return
        if several:
            games = [self.game_name(s["settings"]["game"]) for _, s in [(path, save), *self.offers]]
            self.say("lobby.resume_several", remember=False, count=len(games), games=games)
        key = "lobby.resume_offer" if first and not several and self.first_greeting else "lobby.resume_ask"

        def parse(text: str):
            if self.lu.is_forget(text):
                return "forget"
            answer = self.u.yes_no(text)
            if answer is None and self.lu.is_resume(text):  # "resume", "continue": yes, not the global command
                answer = True
            if answer is not None:
                return answer
            game = understood(self.lu.game(text))  # "the Wits and Wagers one", "resume ROFL"
            if game == settings.game:
                return True
            others, _ = self.saved_games(game)
            if not others:
                raise NotAllowed(self.text("lobby.resume_none_game", game=self.game_name(game)))
            return others[0]

        more = bool(self.offers) or self.offered > 1
        try:
            answer = self.ask(key, parse, help_key="lobby.help_resume_more" if more else "lobby.help_resume",
                              moment="resume_offer", phrases=self.u.yes_no_phrases() + self.lu.resume_phrases(),
                              silence_limit=SETUP_SILENCES, owned_commands={"resume"}, **values)
        except Cancelled:
            answer = "forget"
        if isinstance(answer, tuple):  # another game's saved game, named: offer it next, then the rest
            self.offers = [answer] + [o for o in [(path, save), *self.offers] if o[0] != answer[0]]
            self.fire("offer_declined")
            return
        if answer is not True:
            if answer is not False or not self.offers:  # forget it, quit, silence, or no to the last one
                self.offers = []
                self.say("lobby.resume_kept_all" if more else "lobby.resume_kept")
            self.fire("offer_declined")
            return
        self.offers = []
        settings.autosave = str(path)
        settings.idle_s = self.idle_s
        if settings.lang != self.lang:  # its inputs are replayed in its language: it goes on in it
            language = self.language_name(settings.lang)
            self.say("lobby.resume_language", remember=False, language=language)
        self.job = Job(settings, setup, log_entries)
        self.fire("offer_accepted")

    def run_greet(self) -> None:
        self.say("lobby.greeting" if self.first_greeting else "lobby.back")
        self.first_greeting = False
        if self.hint_saved:
            self.hint_saved = False
            self.say_saved_hint()
        self.fire("greeted")

    def say_saved_hint(self) -> bool:
        """"A Wits and Wagers game is saved: say resume to continue it." (or, with several, all
        their games); ``True`` when a saved game was named."""
        found, _ = self.saved_games()
        games = [self.game_name(save["settings"]["game"]) for _, save in found]
        if len(games) == 1:
            self.say("lobby.saved_hint", remember=False, game=games[0])
        elif games:
            self.say("lobby.saved_hint_many", remember=False, count=len(games), games=games)
        return bool(games)

    def parse_lobby(self, text: str) -> LobbyIntent:
        intent = self.lu.lobby(text)
        if intent is not None:
            return intent
        command = self.u.command(text)
        if command in ("quit", "resume"):
            return LobbyIntent(command)
        raise NotUnderstood

    def run_lobby(self) -> None:
        key, self.lobby_prompt = self.lobby_prompt, None
        intent = self.ask(key, self.parse_lobby, help_key="lobby.help", moment="lobby",
                          phrases=self.lu.lobby_phrases(), timeout_s=None, nudge_key="lobby.nudge",
                          owned_commands={"resume", "quit"})
        self.fire(self.lobby_reply(intent))

    def lobby_reply(self, intent: LobbyIntent) -> str:
        """Do what ``intent`` asks in the lobby; returns the trigger that follows (a game chosen, the
        resume offers, switched off, else ``"lobby_answered"``: the lobby listens again)."""
        if intent.kind == "play":
            self.setup = Setup(intent.game, count=intent.count, pending=list(intent.options), mode=intent.mode)
            return "game_chosen"
        if intent.kind == "teach":
            self.setup = Setup(intent.game, teach=True)
            return "game_chosen"
        if intent.kind == "rules":
            self.say_rules(intent.game)
        elif intent.kind == "rules_which":
            self.say("lobby.rules_which")
        elif intent.kind == "list":
            self.say("lobby.games")
        elif intent.kind == "language":
            self.switch_language(intent.lang)
        elif intent.kind == "resume":
            if self.resume_in_lobby(intent.game):
                return "resume_asked"
        elif intent.kind == "quit":
            try:
                answer = self.ask_yes_no("lobby.quit_confirm", moment="confirm_quit")
            except Cancelled:  # "quit" again: yes
                answer = True
            if answer is True:
                self.say("lobby.goodbye")
                return "switch_off"
            self.say("lobby.quit_cancelled")
        return "lobby_answered"

    def say_rules(self, game: str, after: bool = True) -> None:
        """``game``'s rules in short parts, with a short pause after each: "skip" or "got it"
        ends them, "more" (or silence) goes on; anything else ends them too and is heard by
        the next moment. Then, with ``after``, how to play it.

        :raises Cancelled: "quit"/"cancel" while the rules are read.
        """
        self.rules_heard.add(game)
        chunks = self.prompts.lines(f"lobby.rules.{game}")
        expected = Expected(self.u.grammar(self.lu.rules_phrases()), False, "rules")
        for i, chunk in enumerate(chunks):
            self.say_text(chunk)
            if i == len(chunks) - 1:
                break
            heard = self.listen(expected, RULES_PAUSE_S)
            if not isinstance(heard, Heard):
                continue
            reply = self.lu.rules_reply(heard.text)
            command = self.u.command(heard.text)
            if reply == "more" or command == "resume":
                continue
            if reply == "skip" or command == "stop":
                self.say("lobby.rules_skipped", remember=False)
                break
            if command in ("repeat", "help", "slower", "faster", "louder", "softer"):
                self.command(command, Moment(None, lambda t: None, "lobby.help_rules", "rules"))
                continue
            if self.lu.is_cancel(heard.text) or command == "quit":
                self.say("lobby.rules_skipped", remember=False)
                return
            self._held = heard  # something for the lobby: the rules stop, the lobby hears it
            return
        if after:
            self.say("lobby.after_rules", remember=False, game=self.game_name(game))

    def resume_in_lobby(self, game: str | None) -> bool:
        """"resume" (every unfinished game, newest first) or "resume Wits and Wagers" (that game's):
        ``True`` when saved games are queued to be offered, else what was found is said."""
        found, unreadable = self.saved_games(game)
        if found:
            self.queue_offers(found)
            return True
        if game is not None:
            self.say("lobby.resume_none_game", remember=False, game=self.game_name(game))
            if self.say_saved_hint():
                return False
        elif not self.say_unreadable(unreadable, again=True):
            self.say("lobby.resume_none", remember=False)
        self.say("lobby.games")
        return False

    # ------------------------------------------------------------------ set-up by voice
    def run_setup_players(self) -> None:
        s = self.setup
        spec = self.specs[s.game]
        name = self.game_name(s.game)
        try:
            if s.game == "wavelength":
                self.ask_mode(s)
            else:
                self.ask_count(s, spec, name)
        except Cancelled:
            self.cancel_setup()
            return
        self.fire("players_chosen")

    def ask_mode(self, s: Setup) -> None:
        """Wavelength: two teams or cooperative (W9); a headcount said with it is kept ("co-op, five players").

        "Default" is two teams, read back as the default; a bare yes or no answers neither
        and is asked again; a setting said here is kept for the settings. A mode said with
        the game's name (:attr:`Setup.mode`) is read back without asking.
        """
        def parse(text: str) -> tuple[str, int | None, bool]:
            mode = self.lu.wavelength_mode(text)
            if mode is None:
                if normalise(text) in self.lu.setup["default"]:
                    return "teams", None, True
                if self.u.yes_no(text) is not None:
                    raise NotAllowed(self.text("lobby.mode_yes_no"))
                self.note_settings(s, text, "lobby.which_mode")
                raise NotUnderstood
            heads = [c.value for c in self.lu.options(text) if c.name == "players"]
            return mode, (self.check_headcount(heads[0], coop=mode == "coop") if heads else None), False

        if s.count is not None:
            try:
                s.headcount = self.check_headcount(s.count)
            except NotAllowed as exc:
                self.say_text(str(exc), remember=False)
        s.count = None
        if s.mode is not None:  # said with the game's name: "let's play Wavelength in teams"
            answer = (s.mode, None, False)
        else:
            answer = self.ask("lobby.ask_mode", parse, help_key="lobby.help_mode", moment="setup_mode",
                              phrases=self.lu.setup_phrases(), silence_limit=SETUP_SILENCES)
        if answer is SILENT:
            mode = "teams"
            self.say("lobby.default_mode", remember=False)
        else:
            mode, heads, default = answer
            s.headcount = heads if heads is not None else s.headcount
            key = "lobby.mode_default_read" if default else \
                "lobby.mode_coop_read" if mode == "coop" else "lobby.mode_teams_read"
            self.say(key, remember=False)
        s.coop = mode == "coop"
        if not s.coop and s.headcount is not None and s.headcount < 4:
            # two teams need someone to turn the dial besides each Psychic (W4, W7)
            self.say("lobby.teams_need_four", remember=False, count=s.headcount)
            s.headcount = None
        s.players = [] if s.coop else self.default_teams()

    def default_teams(self) -> list[str]:
        """Wavelength's two default teams, the same as ``voicegame play wavelength`` (Red and
        Blue, from ``words_wavelength.toml``), as colour keys; else the first two colours."""
        def colour_key(team: str) -> str | None:  # "red" (a key, as in es/nl) or "Red" (a colour word, en)
            said = normalise(team)
            return said if said in self.u.colour_words else next(iter(self.lu.colours(said)), None)

        keys = [colour_key(t) for t in wavelength_understanding(self.lang).default_teams]
        return keys if len(keys) == 2 and all(keys) and keys[0] != keys[1] else self.default_colours(2)

    def note_settings(self, s: Setup, text: str, question_key: str) -> None:
        """Settings said instead of the answer ("three questions" when asked how many play):
        checked, kept for the settings question, and :class:`NotAllowed` says so and asks again.
        Returns quietly when ``text`` holds no setting."""
        changes = [c for c in self.lu.options(text) if c.name != "players"]
        if not changes:
            return
        s.pending += [self.check_option(s, c) for c in changes]  # a setting of another game: refused now
        raise NotAllowed(self.text("lobby.setting_noted", question=self.text(question_key)))

    def check_headcount(self, n: int, coop: bool = True) -> int:
        """A Wavelength headcount in range (two teams: at least two a side), else
        :class:`NotAllowed` with the range."""
        low, high = HEADCOUNT_RANGE
        if not coop:
            low = TEAMS_MIN_HEADCOUNT
        if not low <= n <= high:
            raise NotAllowed(self.text("lobby.headcount_range", low=low, high=high, count=n))
        return n

    def ask_count(self, s: Setup, spec: GameSpec, name: str) -> None:
        """How many players (2-7 Wits, 3-7 ROFL!); a number said with the game's name is taken."""
        def check(n: int) -> int:
            if not spec.low <= n <= spec.high:
                raise NotAllowed(self.text("lobby.players_range", game=name, low=spec.low, high=spec.high,
                                           count=n))
            return n

        def parse(text: str) -> int:
            if self.lu.is_default(text):
                return spec.default_players
            n = self.lu.player_count(text)
            if n is None:
                self.note_settings(s, text, "lobby.how_many")
                raise NotUnderstood
            return check(n)

        count = None
        if s.count is not None:
            try:
                count = check(s.count)
            except NotAllowed as exc:
                self.say_text(str(exc), remember=False)
        s.count = None
        if count is None:
            count = self.ask("lobby.ask_players", parse, help_key="lobby.help_players", moment="setup_players",
                             phrases=self.lu.setup_phrases(), silence_limit=SETUP_SILENCES, game=name,
                             low=spec.low, high=spec.high, default=spec.default_players)
            if count is SILENT:
                count = spec.default_players
                self.say("lobby.default_players", remember=False, count=count)
                s.players = self.default_colours(count)
                return
        self.say("lobby.players_read", remember=False, count=count)
        s.players = self.default_colours(count)

    def default_colours(self, n: int) -> list[str]:
        """The first ``n`` colours of the one default seat order (G3)."""
        return default_seats(n)

    def example_colours(self, players: list[str]) -> list[str]:
        """As many colours as ``players`` for a spoken example: the first colours not taken
        (then the taken ones, last first), so the example never repeats the offer."""
        every = list(SEAT_ORDER)
        order = [c for c in every if c not in players] + [c for c in reversed(players) if c in every]
        return order[:max(2, len(players))]

    def run_setup_colours(self) -> None:
        s = self.setup
        spec = self.specs[s.game]
        name = self.game_name(s.game)
        team = s.game == "wavelength"

        def parse(text: str) -> list[str] | str:
            colours = self.lu.colours(text)
            if not colours:
                if self.lu.is_default(text) or self.lu.is_start(text):  # "start": these colours, go on
                    return list(s.players)
                if self.u.yes_no(text) is False:
                    return "no"
                raise NotUnderstood
            twice = next((c for i, c in enumerate(colours) if c in colours[:i]), None)
            if twice:
                raise NotAllowed(self.text("lobby.colours_twice", colour=self.name(twice)))
            if team and len(colours) != 2:
                raise NotAllowed(self.text("lobby.team_colours_count", example=example))
            if not spec.low <= len(colours) <= spec.high:
                raise NotAllowed(self.text("lobby.colours_count", count=len(colours), game=name, low=spec.low,
                                           high=spec.high))
            return colours

        names = self.names(s.players)
        example = self.names(self.example_colours(s.players))
        key, values = ("lobby.ask_team_colours" if team else "lobby.ask_colours"), {"colours": names,
                                                                                    "first": names[0]}
        help_key = "lobby.help_team_colours" if team else "lobby.help_colours"
        while True:
            try:
                colours = self.ask(key, parse, help_key=help_key, moment="setup_colours",
                                   phrases=self.lu.setup_phrases(), silence_limit=SETUP_SILENCES,
                                   help_values={"example": example}, **values)
            except Cancelled:
                self.cancel_setup()
                return
            if colours != "no":
                break
            # "no" to the offered colours: ask for them
            key = "lobby.team_colours_which" if team else "lobby.colours_which"
            values = {"example": example, "count": len(s.players)}
        if colours is SILENT:
            self.say("lobby.default_colours", remember=False, colours=names)
        else:
            s.players = colours
            names = self.names(colours)
            if team:
                self.say("lobby.team_colours_read", remember=False, first=names[0], second=names[1])
            else:
                self.say("lobby.colours_read", remember=False, colours=names)
        self.fire("colours_chosen")

    def choices(self, s: Setup) -> str:
        key = "wavelength_coop" if s.game == "wavelength" and s.coop else s.game
        return self.text(f"lobby.choices.{key}")

    def config_timer_s(self) -> float | None:
        try:
            return self.config.timer_s
        except ValueError:
            return 30.0

    def settings_items(self, s: Setup) -> list[str]:
        """The settings of ``s`` as words, for the read-back."""
        spec = self.specs[s.game]
        items = []
        if spec.timed:
            seconds = timer_for(s.timer, self.config_timer_s())
            if seconds is None:
                items.append(self.text("lobby.settings.timer_off"))
            else:
                key = "lobby.settings.timer_relaxed" if s.timer == "relaxed" else "lobby.settings.timer"
                items.append(self.text(key, seconds=int(seconds)))
        if spec.headcount and s.headcount is not None:
            items.append(self.text("lobby.settings.headcount", n=s.headcount))
        if s.game == "wavelength" and s.coop:
            items.append(self.text("lobby.settings.coop_cards"))
        elif spec.number:
            n = s.number if s.number is not None else spec.number_default
            items.append(self.text(f"lobby.settings.{spec.number}" + ("_one" if n == 1 else ""), n=n))
        items += [self.text(f"lobby.settings.{name}") for name in spec.switches if s.switches.get(name)]
        return items or [self.text("lobby.settings.none")]

    def players_words(self, s: Setup) -> list[str] | str:
        """Who plays, as read back: "everyone as one team" (Wavelength co-op), else the names."""
        if s.game == "wavelength" and s.coop:
            return self.text("lobby.everyone")
        return self.names(s.players)

    def check_option(self, s: Setup, change: OptionChange) -> OptionChange:
        """An option said in the set-up, refused (:class:`NotAllowed`) when this game has no such setting."""
        spec = self.specs[s.game]
        name = self.game_name(s.game)
        if change.name == "timer" and spec.timed:
            return change
        if change.name in spec.switches:
            return change
        if change.name == "players":
            if not spec.headcount:
                raise NotAllowed(self.text("lobby.option_players"))
            return OptionChange("players", self.check_headcount(int(change.value), coop=bool(s.coop)))
        if change.name == spec.number:
            low, high = spec.number_range
            if s.game == "wavelength" and s.coop:
                raise NotAllowed(self.text("lobby.option_coop_points"))
            if not low <= change.value <= high:
                raise NotAllowed(self.text(f"lobby.{spec.number}_range", high=high))
            return change
        raise NotAllowed(self.text("lobby.option_wrong_game", game=name, choices=self.choices(s)))

    def apply_option(self, s: Setup, change: OptionChange) -> None:
        """Put a checked option (:meth:`check_option`) into the set-up."""
        if change.name == "timer":
            s.timer = str(change.value)
        elif change.name in SWITCH_FLAGS:
            s.switches[change.name] = bool(change.value)
        elif change.name == "players":
            s.headcount = int(change.value)
        else:
            s.number = int(change.value)

    def run_setup_options(self) -> None:
        s = self.setup
        pending, s.pending = s.pending, []
        for change in pending:  # said earlier: with the game's name, or at the players question
            try:
                self.apply_option(s, self.check_option(s, change))
            except NotAllowed as exc:
                self.say_text(str(exc), remember=False)

        def parse(text: str):
            if self.lu.wants_player_change(text):
                return "players"
            changes = self.lu.options(text)
            if changes:
                return [self.check_option(s, c) for c in changes]
            if self.lu.is_start(text):
                return "start"
            raise NotUnderstood

        key = "lobby.ask_options"
        while True:
            try:
                answer = self.ask(key, parse, help_key="lobby.help_options", moment="setup_options",
                                  phrases=self.lu.setup_phrases(), silence_limit=SETUP_SILENCES,
                                  help_values={"choices": self.choices(s)},
                                  settings=self.settings_items(s), choices=self.choices(s))
            except Cancelled:
                self.cancel_setup()
                return
            if answer is SILENT:
                self.say("lobby.default_start", remember=False)
                break
            if answer == "start":
                break
            if answer == "players":
                self.fire("players_changed")
                return
            for change in answer:
                self.apply_option(s, change)
            key = "lobby.options_read"
        if s.teach and s.game not in self.rules_heard:  # "teach me": the rules in parts first
            try:
                self.say_rules(s.game, after=False)
            except Cancelled:
                self.cancel_setup()
                return
        self.say("lobby.start_readback", game=self.game_name(s.game), players=self.players_words(s),
                 settings=self.settings_items(s))
        if s.teach:
            self.say("lobby.teach_intro", remember=False, game=self.game_name(s.game))
        job = self.job_for(s)
        if job is None:
            self.setup = None
            self.fire("setup_cancelled")
            return
        self.job = job
        self.fire("setup_done")

    def cancel_setup(self) -> None:
        self.say("lobby.setup_cancelled", remember=False)
        self.setup = None
        self.fire("setup_cancelled")

    @property
    def idle_s(self) -> float | None:
        minutes = self.config.idle_minutes
        return float(minutes) * 60.0 if minutes and minutes > 0 else None

    def job_for(self, s: Setup) -> Job | None:
        """The game to play for ``s``; ``None`` after saying why it cannot start: its deck or
        question bank is broken (the sentence in the table's language, the details in the log)."""
        try:
            return Job(self.new_settings(s), s)
        except DeckError as exc:
            log.error("%s cannot start: %s", s.game, exc)
            self.say_text(exc.sentence(self.prompts), remember=False)
            return None

    def new_settings(self, s: Setup) -> Settings:
        return build_settings(s, lang=self.lang, seed=self.seeds.randrange(10 ** 6), timer_s=self.config_timer_s(),
                              private=self.config.private, idle_s=self.idle_s,
                              rules_heard=s.game in self.rules_heard)

    # ------------------------------------------------------------------ playing
    def run_playing(self) -> None:
        job, self.job = self.job, None
        self.last_result = None
        module = host_module(job.settings.game)
        other_language = job.settings.lang != self.lang and self.ports.relang is not None
        if other_language:  # a resumed game of another language: its speech model and voice
            self.ports.listener, self.ports.voice = self.ports.relang(job.settings.lang)
        try:
            session = Session(module.Host, self.ports.listener, self.ports.voice, self.ports.clock, job.settings,
                              log=job.log, screen=self.ports.screen, observers=self.observers)
            self.outcome = session.run()
        finally:
            if other_language:
                self.ports.listener, self.ports.voice = self.ports.relang(self.lang)
        self.first_greeting = False
        self.last_job = job
        standings = session.table.recorded("standings") if session.table is not None else None
        if self.outcome == "finished" and isinstance(standings, list):
            coop = job.settings.game == "wavelength" and bool(job.settings.options.get("coop"))
            self.last_result = (job.settings.game, standings, coop)
        if self.outcome in ("quit", "idle", "error"):
            self.hint_saved = True
        self.fire("game_ended")

    def run_after_game(self) -> None:
        job = self.last_job
        game = job.settings.game

        def parse(text: str):
            intent = self.lu.lobby(text)
            if intent is not None and intent.kind in ("rules", "rules_which"):  # "rules of ROFL": read them
                return intent
            what = self.lu.after_game(text)
            if what:
                return what
            if intent is not None and intent.kind == "play":
                return intent
            raise NotUnderstood

        while True:
            try:
                answer = self.ask("lobby.after_game", parse, help_key="lobby.help_after", moment="after_game",
                                  phrases=self.lu.after_phrases() + self.lu.lobby_phrases(),
                                  silence_limit=SETUP_SILENCES, game=self.game_name(game))
            except Cancelled:
                answer = "lobby"
            if not isinstance(answer, LobbyIntent) or answer.kind == "play":
                break
            if answer.kind == "rules":
                self.say_rules(answer.game)
            else:
                self.say("lobby.rules_which", remember=False)
        if answer is SILENT:
            self.say("lobby.after_silence", remember=False)
            answer = "lobby"
        if answer == "again":
            s = copy.deepcopy(job.setup)
            self.say("lobby.again_readback", game=self.game_name(s.game), players=self.players_words(s),
                     settings=self.settings_items(s))
            job = self.job_for(s)
            if job is None:
                self.fire("lobby_chosen")
                return
            self.job = job
            self.fire("same_again")
        elif answer == "another":
            self.lobby_prompt = "lobby.which_game"
            self.fire("other_game")
        elif isinstance(answer, LobbyIntent):
            self.setup = Setup(answer.game, count=answer.count, pending=list(answer.options), mode=answer.mode)
            self.fire("game_chosen")
        else:
            self.fire("lobby_chosen")


def language_available(lang: str) -> bool:
    """True when ``prompts/<lang>/`` holds every file the lobby and the games need (:data:`LANGUAGE_FILES`)."""
    folder = prompts.PROMPTS_DIR / lang
    return all((folder / f"{name}.toml").is_file() for name in LANGUAGE_FILES)


# --------------------------------------------------------------------------- command line


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``voicegame kiosk`` options (everything else is in the configuration file)."""
    parser.add_argument("--input", default="mic",
                        help="mic (default), keyboard, or PATH of a script file: one utterance per line")
    parser.add_argument("--output", default="speaker", choices=("speaker", "text"), help="speaker (default) or text")
    parser.add_argument("--model", default=None, help="directory of a Vosk model (default: searched)")
    parser.add_argument("--mic", default=None, metavar="DEVICE",
                        help="microphone: an index or a part of its name (default: the configuration's)")
    parser.add_argument("--speaker", default=None, metavar="DEVICE",
                        help="speaker: an index or a part of its name (default: the configuration's)")
    parser.add_argument("--lang", default=None, help="language for this run (default: the configuration's)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the games' seeds (default: random)")
    parser.add_argument("--no-barge-in", action="store_true", help="players cannot cut the host short")
    parser.add_argument("--config", default=None, metavar="PATH",
                        help="configuration file (default: config.toml in the user config dir)")
    add_display_argument(parser)
    from voicegame import engines

    engines.add_arguments(parser)


def build_ports(args, env, config: kiosk_config.Config, lang: str, observers: Observers | None = None) -> Ports:
    """Listener, voice and clock for the kiosk, with the configuration's devices, rate and volume.

    With a microphone the kiosk never falls back to the keyboard: it waits for a missing
    microphone, model or speaker (:func:`voicegame.appliance.unattended_ports`).

    :param observers: the kiosk's audiences: the waiting is captioned for its screen.
    :raises voicegame.env.CliError: unreadable script file.
    """
    choice = PortChoice(input=args.input, output=args.output, lang=lang, model=args.model,
                        mic=device(config.input_device), speaker=device(config.output_device),
                        private=config.private, rate_wpm=config.rate_wpm, volume=config.volume,
                        keyboard_fallback=False,
                        barge_in=bool(config.barge_in) and not getattr(args, "no_barge_in", False),
                        tts=getattr(args, "tts", None) or config.tts, asr=getattr(args, "asr", None) or config.asr)
    return env_module.build_ports(choice, env, observers)


def run_kiosk(args, env) -> int:
    """``voicegame kiosk``: load the configuration, build the ports and run the lobby.

    :returns: the exit status (0 when switched off or the input ended).
    :raises voicegame.env.CliError: unreadable script file.
    """
    path = Path(args.config) if args.config else kiosk_config.config_path(env.environ)
    error = None
    try:
        config = kiosk_config.load(path=path)
        save_to: Path | None = path
    except kiosk_config.ConfigError as exc:
        log.warning("%s", exc)
        config, save_to, error = kiosk_config.Config(), None, exc
    if args.mic:  # for this run only: never written to the file
        config.input_device = args.mic
    if args.speaker:
        config.output_device = args.speaker
    lang = args.lang or config.lang
    if not language_available(lang):
        lang = "en" if language_available("en") else lang
    observers = Observers()  # the screen first: it is served while the kiosk waits for its devices
    display = open_display(getattr(args, "display", None) or config.display, observers, env)
    try:
        ports = build_ports(args, env, config, lang, observers)
        kiosk = Kiosk(ports, config, save_to, environ=env.environ, seed=args.seed, lang=args.lang,
                      config_error=error, observers=observers)
        return kiosk.run()
    finally:
        if display is not None:
            display.stop()
