"""The table every game host plays at: a facade over the engine's parts.

A game host (``voicegame.games.<game>.host``) asks its :class:`Table` to say
something and to listen for something, then calls the pure rules. The table
joins small parts, each with one job:

- :class:`~voicegame.engine.speech.Speech` — prompts, "repeat", the private channel (G2);
- :mod:`~voicegame.engine.moment` — one listening moment: expected phrases, parse,
  re-prompts, global commands and pause (:meth:`Table.ask`, :meth:`Table.moment`);
- :class:`~voicegame.engine.timers.Timers` — game timers (G1);
- :class:`~voicegame.engine.journal.Recorder` — the record, autosave and journal,
  written to an injectable :class:`~voicegame.engine.journal.Storage`;
- :class:`~voicegame.engine.session.Replay` — replaying the input log (undo G4, resume).

:class:`Session` runs one game to its end and writes the record and autosave.
"""

from __future__ import annotations

import copy
import datetime as _dt
import logging
import os
import random
import traceback
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from voicegame.engine.journal import NoStorage, Recorder, Storage, data_dir, journal_path, private_folder, quarantine, tidy
from voicegame.engine.moment import (DEFAULT_LISTEN_S, MAX_TRIES, SILENT, Ambiguous, Commands, Moment,
                                     NotAllowed, NotUnderstood, ParseError, run_moment, try_parse, understood)
from voicegame.adapters.devices import SpeakerWatch
from voicegame.engine.observer import PUBLIC, Caption, CaptionedVoice, Observers, View
from voicegame.engine.session import (BadSave, IdleTable, QuitGame, Replay, Settings, SwitchClock, Undo, _is_seconds,
                                      replayed)
from voicegame.engine.speech import Speech
from voicegame.engine.timers import TimerWords, Timers
from voicegame.language.prompts import Prompts
from voicegame.language.words import Understanding, understanding
from voicegame.language.utterance import clean_heard
from voicegame.ports import Clock, DeviceError, Expected, Heard, InputEnded, Listener, Rejected, Silence, Voice

log = logging.getLogger("voicegame")

T = TypeVar("T")

__all__ = ["DEFAULT_LISTEN_S", "MAX_TRIES", "SILENT", "Ambiguous", "BadSave", "IdleTable", "Moment", "NoStorage",
           "NotAllowed", "NotUnderstood", "ParseError", "QuitGame", "Session", "Settings", "Storage",
           "SwitchClock", "Table", "Undo", "replayed", "try_parse", "understood", "write_crash_log"]

#: Seconds between checks for a microphone or a speaker that disappeared.
DEVICE_POLL_S = 3.0


class Table:
    """Speech, listening, timers, privacy, record and autosave for one game run.

    :param listener: the live Listener port.
    :param voice: the live Voice port.
    :param clock: the live Clock port.
    :param settings: the game's :class:`Settings`.
    :param replay: input-log entries to replay first (resume or undo), voice muted.
    :param screen: callable printing a private message on a screen (``--private screen``).
    :param observers: where captions and views are published (:mod:`voicegame.engine.observer`).
    :param live_at: ``"end"`` (resume): go live right after the last replayed input, so
        everything after it is said and timed for real; ``"next_listen"`` (undo): stay
        muted until the next listening moment starts, then repeat its prompt.
    :param storage: where the autosave, journal and record go (default: the disk).
    """

    def __init__(self, listener: Listener, voice: Voice, clock: Clock, settings: Settings,
                 replay: list[dict] | None = None, screen: Callable[[str], None] | None = None,
                 live_at: str = "end", observers: Observers | None = None, storage: Storage | None = None):
        self.live_listener = listener
        self.clock = SwitchClock(clock)
        # a speaker that disappears pauses the game on the sentence it was saying
        voice = SpeakerWatch(voice, self.clock, self._speaker_lost, self._speaker_back, DEVICE_POLL_S)
        self.live_voice = voice
        self.settings = settings
        self.prompts = Prompts.load(settings.lang)
        self.understanding: Understanding = understanding(settings.lang)
        #: the table's audiences: captions and views are published here (a screen subscribes to "public")
        self.observers = observers if observers is not None else Observers()
        self.speech = Speech(voice, self.prompts, lambda: self.clock.replaying, lambda: self.observers,
                             settings.private, screen)
        self.commands = Commands(self)
        self.timers = Timers(self)
        self.recorder = Recorder(settings, storage if storage is not None else Storage(), self._saving_failed)
        #: the game's one source of chance (deck order, targets, draws): seeded by the settings
        self.rng = random.Random(settings.seed)
        self.replay = Replay(replay, live_at)
        self.log: list[dict] = []
        self.phase = "setup"
        self.score_callback: Callable[[], None] | None = None
        #: the host's ``where_we_are() -> str | list[str]``: where a resumed game stands (game,
        #: turn or question, score), said first when a resume goes live; then the host says
        #: what is pending. :class:`Session` sets it from the host.
        self.where_we_are: Callable[[], str | list[str] | None] | None = None
        #: the host's ``speaker_of(text) -> player | None``: who said an utterance (the player it
        #: names, or the one asked now); "undo" then takes back only that speaker's last input (G4)
        self.speaker_of: Callable[[str | None], str | None] | None = None
        #: tips already given (:meth:`tip`): replays rebuild it, so undo never repeats one
        self._tips: set[str] = set()
        self.save_failed_said = False
        self._phase_dirty = False
        self._held: Heard | None = None
        self.last_heard_at = self.clock.now()
        #: True when this table replays a saved game (``voicegame resume``), not an undo;
        #: hosts use it to say again, at the first live moment, what the table needs to know.
        self.resuming = bool(self.replay) and live_at == "end"
        if self.replay or (replay is not None and live_at == "next_listen"):
            self.clock.start_replay()

    # ------------------------------------------------------------------ fields hosts read (kept)
    @property
    def pending(self) -> list[dict]:
        """Log entries still to replay (prefer :attr:`replay_ending`)."""
        return self.replay.pending

    @property
    def live_at(self) -> str:
        return self.replay.live_at

    @property
    def record(self) -> dict:
        """The game record (prefer :meth:`record_turn` and :meth:`note_record`)."""
        return self.recorder.record

    @property
    def last_prompt(self) -> str | None:
        """What "repeat" says (prefer :meth:`remember`)."""
        return self.speech.last_prompt

    @last_prompt.setter
    def last_prompt(self, sentence: str | None) -> None:
        self.speech.last_prompt = sentence

    @property
    def snapshot_callback(self) -> Callable[[], Any] | None:
        return self.recorder.snapshot_callback

    @snapshot_callback.setter
    def snapshot_callback(self, callback: Callable[[], Any] | None) -> None:
        self.recorder.snapshot_callback = callback

    @property
    def generation(self) -> str:
        return self.recorder.generation

    @property
    def screen(self) -> Callable[[str], None]:
        return self.speech.screen

    # ------------------------------------------------------------------ narrow interface for hosts
    @property
    def replaying(self) -> bool:
        """True while logged inputs are being replayed (voice muted, clock virtual)."""
        return self.clock.replaying

    @property
    def replay_ending(self) -> bool:
        """True while replaying and no logged input is left (the next listen goes live)."""
        return self.replaying and not self.replay

    def chance(self) -> random.Random:
        """The game's seeded random source (every chance step draws from it)."""
        return self.rng

    def remember(self, sentence: str | None) -> None:
        """Make ``sentence`` what "repeat" says (a question said in parts)."""
        self.speech.remember(sentence)

    def settings_changed(self) -> None:
        """The host's set-up added to ``settings.options`` (a chance step's outcome): the
        autosave and the record keep it (:meth:`Recorder.settings_changed`)."""
        self.recorder.settings_changed()

    def record_turn(self, turn: dict) -> None:
        """Append one finished turn to the record (JSON-serialisable)."""
        self.recorder.record["turns"].append(turn)

    def record_item(self, key: str, item: Any) -> None:
        """Append ``item`` to the record's list ``key`` (created when missing)."""
        self.recorder.record.setdefault(key, []).append(item)

    def note_record(self, **fields: Any) -> None:
        """Set record fields (``standings=…, winners=…``)."""
        self.recorder.record.update(fields)

    def recorded(self, key: str, default: Any = None) -> Any:
        """A copy of the record's field ``key`` (``standings``, ``winners``, …), or ``default``."""
        return copy.deepcopy(self.recorder.record.get(key, default))

    def last_heard(self) -> str:
        """The words of the last input heard (live or replayed); ``""`` for a silence or none."""
        return (self.log[-1].get("text") or "") if self.log else ""

    def recorded_turns(self) -> list[dict]:
        """The turns recorded so far (read only)."""
        return list(self.recorder.record["turns"])

    # ------------------------------------------------------------------ speech
    @property
    def voice(self) -> Voice:
        """The voice to speak with now: muted while replaying; every sentence captioned."""
        return self.speech.voice

    def text(self, key: str, **values) -> str:
        """The sentence for a prompt key in the table's language."""
        return self.prompts.text(key, **values)

    def name(self, player: str) -> str:
        """How a player or team is called aloud: colour keys in the table's language (G3)."""
        return self.understanding.colour_name(player)

    def say(self, key: str, **values) -> str:
        """Say the prompt ``key`` to everyone and remember it for "repeat"."""
        return self.speech.say(key, **values)

    def say_text(self, sentence: str, remember: bool = True) -> None:
        """Say an already-built sentence to everyone."""
        self.speech.say_text(sentence, remember)

    def say_private(self, audience: str, sentence: str) -> None:
        """Say ``sentence`` to one private audience only (its caption never goes public)."""
        self.speech.say_private(audience, sentence)

    def show(self, phase: str, data: dict, audience: str = PUBLIC) -> None:
        """Publish the game's view of the table for ``audience`` (after every change).

        :param data: JSON-serialisable; the public view never holds a secret.
        """
        self.observers.publish(View(self.settings.game, phase, data, audience))

    def tone(self, frequency_hz: float, label: str, duration_s: float = 0.12) -> None:
        """A short confirmation tone; the text adapter prints ``label``."""
        self.voice.tone(frequency_hz, duration_s, label)

    def tell_private(self, audience: str, sentence: str, audience_name: str | None = None,
                     cover: str | None = None) -> None:
        """Deliver secret information to one audience only (G2); see :meth:`Speech.tell_private`.

        :param audience_name: how to call that audience aloud, as in the middle of a
            sentence ("the Psychic"); capitalised where it starts one.
        :param cover: in ``ears`` mode, the sentence that asks the others to cover their
            ears when it is better said by naming them ("Red, cover your ears").
        """
        self.speech.tell_private(audience, sentence, audience_name, cover=cover)

    def private_lines(self, audience: str, sentence: str, audience_name: str | None = None,
                      cover: str | None = None) -> list[tuple[str, str]]:
        """What :meth:`tell_private` would say, as ``(how, text)`` (:meth:`Speech.private_lines`):
        a host counts its opening with it (:func:`voicegame.language.budget.heard_words`)."""
        return self.speech.private_lines(audience, sentence, audience_name, cover=cover)

    def tip(self, key: str, **values) -> bool:
        """A just-in-time tip: the first time this moment comes up, one sentence of what to
        say now (prompt ``key``); later, nothing. In "teach me" mode (``settings.teach``)
        the tip's ``<key>_more`` follows, when the prompts have one.

        :returns: True when the tip was given now.
        """
        if key in self._tips:
            return False
        self._tips.add(key)
        self.say_text(self.text(key, **values), remember=False)
        more = f"{key}_more"
        if self.settings.teach and self.prompts.has(more):
            self.say_text(self.text(more, **values), remember=False)
        return True

    @property
    def rules_heard(self) -> bool:
        """The table heard this game's rules in the lobby: the start never reads them again."""
        return bool(self.settings.rules_heard)

    # ------------------------------------------------------------------ listening (the moment's floor)
    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """One raw listen: replayed from the log first, then live. Logged and journalled."""
        if self.replaying and not self.replay:
            self.go_live(repeat_prompt=True)
        if self._phase_dirty and not self.replaying:
            self._phase_dirty = False
            self.autosave()
        if self._held is not None:  # said during a timer, kept for this moment
            held, self._held = self._held, None
            entry = self.log[-1]
            entry["phase"], entry["moment"] = self.phase, expected.moment
            self.journal()
            return held
        start = self.clock.now()
        if self.replay:
            entry, result = self.replay.next()
            self.clock.sleep(entry["elapsed"] if _is_seconds(entry.get("elapsed")) else 0.0)
            if not self.replay and self.replay.ends_live:
                self.go_live(repeat_prompt=False)
        else:
            self.replay.current = None
            if self.settings.idle_s and timeout_s is None:
                # a kiosk never waits forever: at most until the table counts as idle
                timeout_s = max(1.0, self.settings.idle_s - (self.clock.now() - self.last_heard_at))
            result = self._listen_through_device_loss(expected, timeout_s)
            if isinstance(result, Heard):
                result = clean_heard(result)
        entry = {
            "phase": self.phase,
            "moment": expected.moment,
            "text": result.text if isinstance(result, Heard) else None,
            "alternatives": list(result.alternatives) if isinstance(result, Heard) else [],
            "confidence": round(result.confidence, 3) if isinstance(result, Heard) else None,
            "elapsed": round(self.clock.now() - start, 3),
            "accepted": False,
        }
        if isinstance(result, Rejected):  # table talk the listener refused: replayed as such
            entry["rejected"] = result.reason or "rejected"
        self.log.append(entry)
        self.journal()  # every listen, whatever it turns out to be (a command, a pause…)
        if isinstance(result, Heard):
            self.last_heard_at = self.clock.now()
        elif (self.settings.idle_s and not self.replaying
              and self.clock.now() - self.last_heard_at >= self.settings.idle_s):
            raise IdleTable()
        return result

    def _listen_through_device_loss(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """Listen; a microphone that disappears pauses the moment: said once, then the
        listener is tried again every :data:`DEVICE_POLL_S` seconds until it hears again,
        and the same moment goes on (nothing is lost, nothing is logged meanwhile)."""
        said = False
        while True:
            try:
                return self.live_listener.listen(expected, timeout_s)
            except DeviceError as exc:
                if not said:
                    said = True
                    log.warning("microphone lost: %s", exc)
                    try:
                        self.voice.say(self.text("common.mic_lost"))
                    except DeviceError:
                        pass
                self.clock.sleep(DEVICE_POLL_S)
                self.last_heard_at = self.clock.now()  # a paused table is not an idle one

    def _speaker_lost(self, exc: Exception) -> None:
        """The speaker went away mid-sentence: said where it can be (the log and stderr, the
        screen's captions); :class:`~voicegame.adapters.devices.SpeakerWatch` checks again
        every :data:`DEVICE_POLL_S` seconds and says the sentence once it is back."""
        log.warning("speaker lost: %s", exc)
        self.observers.publish(Caption(self.text("common.speaker_lost")))

    def _speaker_back(self, paused_s: float) -> None:
        """The speaker is back: the pause counts neither as idleness nor against a game timer."""
        log.warning("speaker back after %.0f s", paused_s)
        self.observers.publish(Caption(self.text("common.speaker_back")))
        self.last_heard_at = self.clock.now()

    def hold(self) -> None:
        """Keep what the last listen heard for the next listening moment (it was said while a
        timer ran that takes no answers); the next :meth:`listen` returns it."""
        entry = self.log[-1]
        self._held = Heard(entry["text"], tuple(entry.get("alternatives", ())), entry.get("confidence") or 1.0)

    def replayed(self) -> dict | None:
        """The log entry the last :meth:`listen` replayed, else ``None`` (it was live)."""
        return self.replay.current

    def accepted(self, value: Any, intent: dict | None) -> None:
        """The last listen was the moment's answer: marked (undo can take it back), its
        intent stored beside the transcript, the record's inputs updated, journalled."""
        entry = self.log[-1]
        entry["accepted"] = True
        if intent is not None:
            entry["intent"] = intent
        if value is not SILENT:
            self.record["inputs"].append({k: entry[k] for k in ("phase", "moment", "text")})
        self.journal()  # the entry again, now accepted (a newer line for the same index)

    def missed(self) -> None:
        """The last utterance was not taken: its entry says so (a replay keeps it so)."""
        self.log[-1]["intent"] = None
        self.journal()

    def command(self, command: str, moment: Moment) -> Heard | None:
        """A global command heard in ``moment``: logged, journalled, done (:class:`Commands`);
        returns an utterance the command heard that was meant for the moment."""
        self.note_command(command)
        return self.commands(command, moment)

    def note_quit(self, decision: str) -> None:
        """What the last listen decided at the quit question (kept for replays)."""
        self.log[-1]["quit"] = decision
        self.journal()

    def note_command(self, command: str) -> None:
        self.log[-1]["command"] = command
        self.log[-1]["intent"] = None
        self.journal()

    def new_generation(self) -> None:
        """Start a new autosave lineage: journal lines written so far stop counting (the
        next save writes the whole log afresh). Needed whenever the log is cut short."""
        self.recorder.new_generation()

    def not_undoable(self) -> None:
        """The input just accepted asked or decided nothing ("where is it?", a silence
        that only let a timer run): "undo" (G4) passes over it to the last real input.

        Its log entry is un-marked (and journalled again) and it leaves the record's
        list of accepted inputs. A replay runs the same host code, so it stays so.
        """
        if not self.log or not self.log[-1].get("accepted"):
            return
        entry = self.log[-1]
        entry["accepted"] = False
        inputs = self.record["inputs"]
        if entry.get("text") is not None and inputs and inputs[-1]["text"] == entry["text"]:
            inputs.pop()
        self.journal()

    def go_live(self, repeat_prompt: bool) -> None:
        """Replay finished: unmute, switch to live time; a resume first says where the game
        is (the host's ``where_we_are`` hook); after an undo the prompt is repeated."""
        self.clock.go_live()
        self.last_heard_at = self.clock.now()  # silences before the replay ended are not idleness now
        if self.resuming and self.where_we_are is not None:
            try:
                sentences = self.where_we_are()
            except Exception:  # a broken hook never stops the game
                log.exception("where_we_are failed")
                sentences = None
            for sentence in ([sentences] if isinstance(sentences, str) else sentences or ()):
                self.say_text(sentence, remember=False)
        if repeat_prompt and self.last_prompt:
            self.live_voice.say(self.last_prompt)

    def moment(self, m: Moment) -> Any:
        """Run one listening moment (:func:`voicegame.engine.moment.run_moment`) here."""
        return run_moment(self, m)

    def ask(self, key: str | None, parse: Callable[[str], T], *, phrases: Iterable[str] = (),
            free: bool = False, help_key: str, moment: str, timeout_s: float | None = DEFAULT_LISTEN_S,
            silence_limit: int | None = None, silence_key: str = "common.didnt_hear",
            owned_commands: frozenset[str] = frozenset(), **values) -> T | object:
        """Say prompt ``key`` (if any), then listen until ``parse`` accepts an utterance.

        :param parse: turns the transcript into a value; raises a
            :class:`~voicegame.engine.moment.ParseError` (:class:`NotUnderstood`,
            :class:`NotAllowed`, :class:`Ambiguous`: the last two are spoken).
        :param phrases: the grammar of this moment (global commands are added).
        :param free: a free-text moment (no grammar).
        :param help_key: prompt key for "help" and for the options offered after
            three failed tries.
        :param moment: short name of the listening moment (records, vocabulary).
        :param timeout_s: seconds to wait for speech; ``None`` waits forever.
        :param silence_limit: after this many silences return :data:`SILENT`
            instead of asking again (e.g. "silence from a writer means a pass").
        :param owned_commands: global commands ``parse`` sees first (a "go on" that asks for
            more rules is not "resume").
        :returns: the parsed value, or :data:`SILENT`.
        :raises Undo: "undo" with an accepted input to take back in this phase.
        :raises QuitGame: "quit", confirmed.
        :raises InputEnded: the input source is exhausted.
        """
        return self.moment(Moment(key, parse, help_key, moment, phrases=phrases, free=free, timeout_s=timeout_s,
                                  silence_limit=silence_limit, silence_key=silence_key, owned_commands=owned_commands,
                                  values=values, help_values=values))

    def ask_yes_no(self, key: str | None, *, help_key: str = "common.help_yes_no", moment: str = "confirm",
                   **values) -> bool:
        """Ask a yes/no question until answered."""
        u = self.understanding

        def parse(text: str) -> bool:
            return understood(u.yes_no(text))

        return self.ask(key, parse, phrases=u.yes_no_phrases(), help_key=help_key, moment=moment, **values)

    # ------------------------------------------------------------------ what commands do to the game
    def undo_index(self) -> int | None:
        """Index of the last accepted input of the current phase, else ``None``. With the host's
        :attr:`speaker_of`, only when the one who says "undo" gave that input (:meth:`note_speaker`):
        undo never takes back another player's input (G4)."""
        if self.undo_is_ambiguous():
            return None
        speaker = self.speaker_of(self.log[-1].get("text")) if self.speaker_of and self.log else None
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i]["phase"] != self.phase:
                return None
            if self.log[i]["accepted"]:
                owner = self.log[i].get("speaker")
                return None if speaker is not None and owner is not None and owner != speaker else i
        return None

    def undo_is_ambiguous(self) -> bool:
        """True when nobody can tell whose input "undo" means: the host knows speakers
        (:attr:`speaker_of`), this "undo" names none and nobody was asked (a timer's open
        floor), and more than one player gave an input in this phase (G4)."""
        if not self.speaker_of or not self.log or self.speaker_of(self.log[-1].get("text")) is not None:
            return False
        owners = set()
        for entry in reversed(self.log):
            if entry["phase"] != self.phase:
                break
            if entry["accepted"] and entry.get("speaker") is not None:
                owners.add(entry["speaker"])
        return len(owners) > 1

    def note_speaker(self, player: str) -> None:
        """The input just accepted was ``player``'s (for undo, :meth:`undo_index`)."""
        if self.log:
            self.log[-1]["speaker"] = player
            self.journal()

    _undo_index = undo_index

    def undo(self, index: int) -> None:
        """Take back the log from ``index`` on. :raises Undo: always."""
        raise Undo(index)

    def quit(self) -> None:
        """The quit is confirmed: the log loses the quit (it is not replayed on resume).
        :raises QuitGame: always."""
        del self.log[self._quit_index():]
        self.new_generation()  # the journal holds the quit's lines: they must not count
        raise QuitGame()

    def _quit_index(self) -> int:
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].get("command") == "quit":
                return i
        return len(self.log)

    # ------------------------------------------------------------------ timers
    def run_timer(self, purpose_key: str, **values) -> None:
        """Run a game timer (G1): announce it, warn at 10 s left, end it aloud; global
        commands said during it take effect at once ("pause" stops it).

        With ``--timer off`` the table is asked to say "ready" instead.
        Seconds come from ``settings.timer_s``.
        """
        self.timers.run(purpose_key, **values)

    def timed_moment(self, purpose_key: str | None, parse: Callable[[str], T], *, done: Callable[[], bool],
                     on_answer: Callable[[T], None] | None = None, phrases: Iterable[str] = (),
                     help_key: str = "common.help_ready", moment: str = "timed", free: bool = False,
                     silence_limit: int | None = None, start_key: str | None = TimerWords.start,
                     warning_key: str | None = TimerWords.warning, end_key: str | None = TimerWords.end,
                     all_done_key: str | None = TimerWords.all_done, off_key: str = TimerWords.off,
                     **values) -> list[T]:
        """Listen for answers until every player has acted (``done()``) or the time is up.

        The timer is announced with ``purpose_key``; each answer ``parse`` accepts is
        passed to ``on_answer`` at once (apply it, read it back); global commands work
        as in any moment ("pause" stops the timer). With ``--timer off`` it listens until
        ``done()`` or "ready". ``values`` fill ``purpose_key`` and ``help_key``.

        :param silence_limit: 1: each silence that ends a listen is an answer (:data:`SILENT`).
        :param start_key: announces the timer (``{purpose}``, ``{seconds}``); ``None``: the
            host has said the question and its time (the same with ``--timer off``).
        :param warning_key, end_key, all_done_key: said at 10 s left, when the time runs
            out, when everyone has acted first; ``None``: nothing (:meth:`Timers.timed`).
        :param off_key: the start with ``--timer off`` (``{purpose}``; :class:`TimerWords`).
        :returns: the accepted answers, in order.
        """
        m = Moment(None, parse, help_key, moment, phrases=phrases, free=free, silence_limit=silence_limit,
                   help_values=values)
        words = TimerWords(start_key, warning_key, end_key, all_done_key, off_key)
        return self.timers.timed(purpose_key, m, done, on_answer, words, **values)

    def timer_start_text(self, purpose_key: str | None, start_key: str | None = TimerWords.start,
                         off_key: str = TimerWords.off, **values) -> str | None:
        """The sentence :meth:`timed_moment` would start its timer with (:meth:`Timers.start_text`)."""
        return self.timers.start_text(purpose_key, start_key, off_key, **values)

    def timer_left(self) -> float | None:
        """Seconds left on the running timer (below 0: an answer came after its end), else ``None``."""
        return self.timers.left_s()

    # ------------------------------------------------------------------ vocabulary
    def check_vocabulary(self, words: Iterable[str]) -> list[str]:
        """Words the live recognizer's model lacks (reported, never silently dropped).

        Listeners without a vocabulary (script, keyboard) report nothing.
        """
        checker = getattr(self.live_listener, "missing_words", None)
        if checker is None or self.replaying:
            return []
        missing = sorted(set(checker(sorted(set(words)))))
        if missing:
            log.warning("words missing from the speech model: %s", ", ".join(missing))
            self.say_text(self.text("common.missing_words", words=missing), remember=False)
        return missing

    # ------------------------------------------------------------------ records
    def enter_phase(self, phase: str) -> None:
        """Mark a new phase (for undo); the autosave and record are rewritten once before
        the next listening moment (several phases may pass without one)."""
        self.phase = phase
        self._phase_dirty = True

    def award(self, to: str, amount: int | float, unit: str, reason: str, turn: int | None = None) -> None:
        """Record points or chips given to ``to`` with the reason (re-scorable record)."""
        self.record["awards"].append({"to": to, "amount": amount, "unit": unit, "reason": reason,
                                      "turn": turn})

    def record_path(self) -> Path:
        return self.recorder.record_path()

    def autosave_path(self) -> Path:
        return self.recorder.autosave_path()

    def autosave(self, finished: bool = False, record: bool = True) -> None:
        """Write the autosave (settings + input log + state) and, with ``record``, the
        record (:class:`~voicegame.engine.journal.Recorder`); nothing while replaying.
        A failed write (full disk…) is said once; the game continues."""
        if not self.replaying:
            self.recorder.autosave(self.log, self.phase, finished, record)

    def forget_finished(self) -> None:
        """A finished game needs no autosave: once its record is safely on disk, the
        autosave and its journal go (nothing to resume, nothing piling up)."""
        if self.replaying or os.environ.get("VOICEGAME_KEEP_FINISHED") == "1":  # kept for inspection
            return
        storage = self.recorder.storage
        storage.flush()
        error = storage.take_error()
        if error is None and self.record_path().exists():
            self.close()
            for path in (self.autosave_path(), journal_path(self.autosave_path())):
                try:
                    storage.remove(path)
                except OSError:
                    pass
        elif error is not None:
            log.warning("saving failed: %s", error)

    def _saving_failed(self, exc: OSError) -> None:
        """Log a failed save and say so once (full disk…); the game goes on."""
        log.warning("saving failed: %s", exc)
        if not self.save_failed_said:
            self.save_failed_said = True
            self.say_text(self.text("common.save_failed"), remember=False)

    def journal(self) -> None:
        """Save the newest input-log entry by appending it to the autosave's journal."""
        if not self.replaying:
            self.recorder.journal(self.log, self.phase)

    def close(self) -> None:
        """Close the journal file (end of this table's run)."""
        self.recorder.close()

    def flush(self) -> None:
        """Wait until every save is on disk (end of a game)."""
        self.recorder.storage.flush()


def tidy_before_game() -> None:
    """Housekeeping of the data dir (:func:`voicegame.engine.journal.tidy`) before each game,
    so a kiosk that runs for weeks keeps only the records it is configured to keep."""
    removed = tidy()
    if removed:
        log.info("housekeeping removed %d old files", len(removed))


def write_crash_log(details: str) -> Path:
    """Append an internal error's traceback to ``<data dir>/voicegame.log`` (for the
    kiosk owner; players never see it; with ``-v`` also on stderr). Returns the log's path."""
    from voicegame import logs

    return logs.crash(details)


def _now_stamp() -> str:
    return _dt.datetime.now().strftime("%Y%m%d-%H%M%S-%f")


class Session:
    """Runs one game from its settings (and an input log, to resume) to the end.

    :param host_factory: ``host_factory(table) -> host`` with a ``play()`` method
        that returns when the game is over.
    :param listener, voice, clock: the live ports.
    :param settings: the game settings; ``settings.started`` is stamped if empty.
    :param log: an input log to replay first (resume).
    :param observers: the audiences' event bus (a screen subscribes to its public events).
    :param storage: where the autosave, journal and record go (default: the disk).
    :returns: from :meth:`run`: ``"finished"``, ``"quit"``, ``"idle"``, ``"input_ended"`` or ``"error"``.
    """

    def __init__(self, host_factory: Callable[[Table], Any], listener: Listener, voice: Voice,
                 clock: Clock, settings: Settings, log: list[dict] | None = None,
                 screen: Callable[[str], None] | None = None, observers: Observers | None = None,
                 storage: Storage | None = None):
        self.host_factory = host_factory
        #: where every table of this session saves (default: the disk)
        self.storage = storage if storage is not None else Storage()
        #: every table of this session publishes here (undo makes a new table, the audience stays)
        self.observers = observers if observers is not None else Observers()
        self.live_voice = voice
        # the session's own sentences (resuming, undone, saved) pause on a lost speaker too
        spoken = SpeakerWatch(voice, clock, lambda exc: log.warning("speaker lost: %s", exc), interval_s=DEVICE_POLL_S)
        self.listener, self.voice, self.clock = listener, CaptionedVoice(spoken, lambda: self.observers), clock
        self.settings = settings
        if not settings.started:
            settings.started = _now_stamp()
        self.log = list(log or [])
        self.screen = screen
        self.table: Table | None = None
        self.tables: list[Table] = []
        self.resuming = bool(self.log)

    def run(self) -> str:
        """Play until the game ends, is quit, or input runs out; always writes the record."""
        try:
            return self._run()
        finally:
            for table in self.tables:
                table.close()
            self.storage.flush()
            error = self.storage.take_error()
            if self.table is not None and error is not None:
                log.warning("saving failed: %s", error)

    def _run(self) -> str:
        tidy_before_game()
        replay, live_at = (self.log, "end") if self.resuming else (None, "end")
        if self.resuming:
            self.voice.say(Prompts.load(self.settings.lang).text("common.resuming"))
        while True:
            table = Table(self.listener, self.live_voice, self.clock, self.settings, replay=replay,
                          screen=self.screen, live_at=live_at, observers=self.observers, storage=self.storage)
            # "saving failed" is said once a game, not once more after every undo
            table.save_failed_said = any(t.save_failed_said for t in self.tables)
            self.table = table
            self.tables.append(table)
            try:
                host = self.host_factory(table)
                table.where_we_are = getattr(host, "where_we_are", None)
                host.play()
                table.autosave(finished=True)
                table.forget_finished()
                return "finished"
            except Undo as undo:
                replay, live_at = table.log[: undo.index], "next_listen"
                self.voice.say(table.text("common.undone"))
                continue
            except QuitGame:
                table.autosave()
                self.voice.say(table.text("common.quit_saved"))
                return "quit"
            except IdleTable:
                table.autosave()
                self.voice.say(table.text("common.idle"))
                return "idle"
            except InputEnded as ended:
                if table.replaying:
                    table.clock.go_live()
                table.autosave()
                source = ended.args[0] if ended.args else "script"
                key = "common.keyboard_ended" if source == "keyboard" else "common.input_ended"
                self.voice.say(table.text("common.input_ended_unsaved" if table.save_failed_said else key))
                return "input_ended"
            except Exception:  # never show a traceback to a player
                crash_log = write_crash_log(traceback.format_exc())
                log.warning("the game stopped on an internal error; details in %s", crash_log)
                if table.replaying:  # the saved game itself fails: set it aside, never offer it again
                    table.clock.go_live()
                    try:
                        self.storage.flush()
                        moved = quarantine(table.autosave_path())
                        log.warning("the saved game could not be replayed; set aside as %s", moved)
                    except OSError:
                        log.warning("the saved game could not be replayed nor set aside")
                    self.voice.say(table.text("common.save_set_aside"))
                    return "error"
                try:
                    if table.log and not table.log[-1].get("accepted"):
                        # the input that met the error was never taken: resume asks for it again
                        table.log.pop()
                    if table.log:
                        table.autosave()
                    else:  # nothing was played: nothing to resume
                        self.storage.flush()
                        self.storage.remove(table.autosave_path())
                except Exception:
                    pass
                self.voice.say(table.text("common.crashed" if table.log else "common.crashed_at_start"))
                return "error"
