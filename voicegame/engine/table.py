"""The table every game host plays at: speaking, listening with re-prompts, timers,
the private channel, global commands, the game record and autosave.

A game host (``voicegame.host.<game>``) is a ``transitions`` machine over a model
object; in each phase it asks the :class:`Table` to say something and to listen
for something, then calls the pure rules. The table owns everything that is the
same in every game:

- :meth:`Table.ask` — one listening moment with the re-prompt policy of the
  foundation issue: nothing heard → "I didn't hear anything" and ask again;
  heard but not understood → say what was heard and what may be said;
  understood but not allowed now → say why (:class:`NotAllowed`); after three
  failed tries the phase's options are offered aloud and the host keeps waiting.
  Global commands (repeat, help, score, pause/resume, undo, slower/faster,
  louder/softer, quit) are understood in every moment.
- :meth:`Table.run_timer` — G1: announced, warned at 10 s left, ended aloud; off
  with ``--timer off`` (then the table says "ready" when done).
- :meth:`Table.tell_private` — G2: ears (default), earpiece or screen.
- Undo (G4) and resume both replay the input log of the game: the game is
  deterministic given its settings, seed and inputs, so replaying the log with
  the voice muted and a virtual clock rebuilds exactly the state that was lost.

:class:`Session` runs one game to its end and writes the record and autosave.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import logging
import os
import random
import traceback
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from voicegame.adapters.headless import NullVoice, VirtualClock
from voicegame.engine.observer import PUBLIC, CaptionedVoice, Observers, View
from voicegame.ports import DeviceError, Clock, Expected, Heard, InputEnded, Listener, Silence, Voice
from voicegame.language.prompts import Prompts
from voicegame.language.utterance import clean_heard
from voicegame.engine.journal import (journal_path, private_folder, quarantine, tidy, atomic_write_json, background_writer, data_dir, open_journal, to_json,
                               write_journal_line)
from voicegame.language.words import Understanding, understanding

log = logging.getLogger("voicegame")

T = TypeVar("T")

#: Seconds a listening moment waits for speech to start before it counts as silence.
DEFAULT_LISTEN_S = 10.0
#: Failed tries before the phase's options are offered aloud.
MAX_TRIES = 3
#: Sentinel returned by :meth:`Table.ask` when ``silence_limit`` silences were heard.
SILENT = object()


class NotUnderstood(Exception):
    """Raised by a parse function: the utterance is not one of the phase's forms."""


def understood(value: T | None) -> T:
    """``value``, or :class:`NotUnderstood` when the understanding module found nothing
    (``None``): the one line a parse function needs for "not one of this moment's forms"."""
    if value is None:
        raise NotUnderstood
    return value


class NotAllowed(Exception):
    """Raised by a parse function: understood, but not allowed now.

    ``str(error)`` is the sentence the host says (already in the table's language).
    """


def try_parse(parse: Callable[[str], T], heard: Heard) -> tuple[str, Any]:
    """Parse the best transcript, then the alternatives, in order.

    :returns: ``("ok", value)``; else ``("not_allowed", sentence)`` for the first
        :class:`NotAllowed` seen; else ``("not_understood", None)``.
    """
    first_error = None
    for text in (heard.text, *heard.alternatives):
        try:
            return ("ok", parse(text))
        except NotAllowed as exc:
            first_error = first_error or ("not_allowed", str(exc))
        except NotUnderstood:
            pass
    return first_error or ("not_understood", None)


class QuitGame(Exception):
    """The table confirmed "quit": the game stops, its record and autosave are kept."""


class IdleTable(Exception):
    """Nobody spoke for ``settings.idle_s`` seconds (kiosk): the game is saved and the host
    returns to the lobby."""


class Undo(Exception):
    """Take back the last accepted input of the current phase (G4): replay the log up to ``index``."""

    def __init__(self, index: int):
        super().__init__(index)
        self.index = index


@dataclass
class Settings:
    """Everything that, with the input log, determines a game.

    :param game: ``"wavelength"``, ``"rofl"`` or ``"wits"``.
    :param timer_s: seconds for every game timer (G1), ``None`` for off.
    :param private: ``"ears"``, ``"earpiece:DEVICE"`` or ``"screen"`` (G2).
    :param options: game options (players, teams, modes, deck paths…), JSON-serialisable.
    """

    game: str
    lang: str = "en"
    seed: int = 0
    timer_s: float | None = 30.0
    private: str = "ears"
    options: dict = field(default_factory=dict)
    record: str | None = None
    autosave: str | None = None
    started: str = ""
    idle_s: float | None = None

    @classmethod
    def from_dict(cls, d: dict) -> "Settings":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


class SwitchClock:
    """A clock that runs virtual time while a log is replayed, then live time, continuously."""

    def __init__(self, live: Clock):
        self.live = live
        self.virtual = VirtualClock()
        self.replaying = False
        self.offset = 0.0

    def now(self) -> float:
        return self.virtual.now() if self.replaying else self.live.now() + self.offset

    def sleep(self, seconds: float) -> None:
        (self.virtual if self.replaying else self.live).sleep(seconds)

    def start_replay(self) -> None:
        self.replaying = True
        self.virtual = VirtualClock(self.live.now() + self.offset)

    def go_live(self) -> None:
        self.offset = self.virtual.now() - self.live.now()
        self.replaying = False


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
    """

    def __init__(self, listener: Listener, voice: Voice, clock: Clock, settings: Settings,
                 replay: list[dict] | None = None, screen: Callable[[str], None] | None = None,
                 live_at: str = "end", observers: Observers | None = None):
        self.live_listener = listener
        self.live_voice = voice
        self._captioned = CaptionedVoice(voice, lambda: self.observers)
        self.clock = SwitchClock(clock)
        self.settings = settings
        self.prompts = Prompts.load(settings.lang)
        self.understanding: Understanding = understanding(settings.lang)
        self.screen = screen or print
        #: the table's audiences: captions and views are published here (a screen subscribes to "public")
        self.observers = observers if observers is not None else Observers()
        self.rng = random.Random(settings.seed)
        self.pending = list(replay or [])
        self.live_at = live_at
        self.log: list[dict] = []
        self.phase = "setup"
        self.last_prompt: str | None = None
        self.score_callback: Callable[[], None] | None = None
        self.snapshot_callback: Callable[[], Any] | None = None
        #: called once when a resume's replay ends, with the last replayed log entry, before the
        #: moment handles it (a host says where the game is even if that moment goes on listening)
        self.resumed_callback: Callable[[dict], None] | None = None
        self.save_failed_said = False
        self._state: Any = None
        #: identifies this table's autosave lineage; journal lines of other generations are ignored
        self.generation = ""
        self._generation_saved = False
        self.new_generation()
        self._phase_dirty = False
        self._journal_seq = 0
        self._journal = None
        self._settings_dict = dataclasses.asdict(settings)
        self.last_heard_at = self.clock.now()
        self.record: dict = {
            "format": "voicegame-record/1",
            "game": settings.game,
            "settings": dataclasses.asdict(settings),
            "seed": settings.seed,
            "inputs": [],
            "turns": [],
            "awards": [],
            "standings": None,
            "winners": None,
            "finished": False,
        }
        #: True when this table replays a saved game (``voicegame resume``), not an undo;
        #: hosts use it to say again, at the first live moment, what the table needs to know.
        self.resuming = bool(self.pending) and live_at == "end"
        if self.pending or (replay is not None and live_at == "next_listen"):
            self.clock.start_replay()

    # ------------------------------------------------------------------ speech
    @property
    def replaying(self) -> bool:
        """True while logged inputs are being replayed (voice muted, clock virtual)."""
        return self.clock.replaying

    @property
    def voice(self) -> Voice:
        """The voice to speak with now: muted while replaying; every sentence captioned."""
        return NullVoice() if self.replaying else self._captioned

    def text(self, key: str, **values) -> str:
        """The sentence for a prompt key in the table's language."""
        return self.prompts.text(key, **values)

    def name(self, player: str) -> str:
        """How a player or team is called aloud: colour keys in the table's language (G3)."""
        return self.understanding.colour_name(player)

    def say(self, key: str, **values) -> str:
        """Say the prompt ``key`` to everyone and remember it for "repeat"."""
        sentence = self.text(key, **values)
        self.say_text(sentence)
        return sentence

    def say_text(self, sentence: str, remember: bool = True) -> None:
        """Say an already-built sentence to everyone."""
        if remember:
            self.last_prompt = sentence
        self.voice.say(sentence)

    def say_private(self, audience: str, sentence: str) -> None:
        """Say ``sentence`` to one private audience only (its caption never goes public)."""
        self.voice.say(sentence, to=audience)

    def show(self, phase: str, data: dict, audience: str = PUBLIC) -> None:
        """Publish the game's view of the table for ``audience`` (after every change).

        :param data: JSON-serialisable; the public view never holds a secret.
        """
        self.observers.publish(View(self.settings.game, phase, data, audience))

    def tone(self, frequency_hz: float, label: str, duration_s: float = 0.12) -> None:
        """A short confirmation tone; the text adapter prints ``label``."""
        self.voice.tone(frequency_hz, duration_s, label)

    def tell_private(self, audience: str, sentence: str, audience_name: str | None = None) -> None:
        """Deliver secret information to one audience only (G2).

        - ``ears`` (default): everyone else covers their ears, a countdown from
          three, the secret twice, then "all clear".
        - ``earpiece:DEVICE``: the secret goes to the voice's private output.
        - ``screen``: the secret is printed on the screen; the host says so.

        :param audience: the private audience key (``"psychic"``, ``"writers"``).
        :param audience_name: how to call that audience aloud, as in the middle of a
            sentence ("the Psychic"); the table capitalises it where it starts one.
        """
        name = audience_name or audience
        mode = self.settings.private
        if mode.startswith("earpiece"):
            self.say_text(_capitalised(self.text("common.private_earpiece", audience=name)))
            self.say_private(audience, sentence)
        elif mode == "screen":
            self.say_text(_capitalised(self.text("common.private_screen", audience=name)))
            if not self.replaying:
                self.screen(self.text("common.private_screen_line", audience=name, secret=sentence))
        else:
            self.say("common.cover_ears", audience=name)
            self.say("common.countdown")
            self.say_private(audience, sentence)
            self.say_private(audience, sentence)
            self.say("common.all_clear")

    # ------------------------------------------------------------------ listening
    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """One raw listen: replayed from the log first, then live. Logged and autosaved."""
        if self.replaying and not self.pending:
            self.go_live(repeat_prompt=True)
        if self._phase_dirty and not self.replaying:
            self._phase_dirty = False
            self.autosave()
        start = self.clock.now()
        if self.pending:
            entry = self.pending.pop(0)
            self.clock.sleep(entry["elapsed"] if _is_seconds(entry.get("elapsed")) else 0.0)
            result: Heard | Silence = replayed(entry)
            if not self.pending and self.live_at == "end":
                self.go_live(repeat_prompt=False)
                if self.resumed_callback is not None:
                    self.resumed_callback(entry)
        else:
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

    def new_generation(self) -> None:
        """Start a new autosave lineage: journal lines written so far stop counting (the
        next save writes the whole log afresh). Needed whenever the log is cut short."""
        self.generation = uuid.uuid4().hex[:12]
        self._generation_saved = False

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
        """Replay finished: unmute, switch to live time, and (after an undo) repeat the prompt."""
        self.clock.go_live()
        self.last_heard_at = self.clock.now()  # silences before the replay ended are not idleness now
        if repeat_prompt and self.last_prompt:
            self.live_voice.say(self.last_prompt)

    def ask(self, key: str | None, parse: Callable[[str], T], *, phrases: Iterable[str] = (),
            free: bool = False, help_key: str, moment: str, timeout_s: float | None = DEFAULT_LISTEN_S,
            silence_limit: int | None = None, silence_key: str = "common.didnt_hear",
            **values) -> T | object:
        """Say prompt ``key`` (if any), then listen until ``parse`` accepts an utterance.

        :param parse: turns the transcript into a value; raises :class:`NotUnderstood`
            or :class:`NotAllowed` (whose text is spoken).
        :param phrases: the grammar of this moment (global commands are added).
        :param free: a free-text moment (no grammar).
        :param help_key: prompt key for "help" and for the options offered after
            three failed tries.
        :param moment: short name of the listening moment (records, vocabulary).
        :param timeout_s: seconds to wait for speech; ``None`` waits forever.
        :param silence_limit: after this many silences return :data:`SILENT`
            instead of asking again (e.g. "silence from a writer means a pass").
        :returns: the parsed value, or :data:`SILENT`.
        :raises Undo: "undo" with an accepted input to take back in this phase.
        :raises QuitGame: "quit", confirmed.
        :raises InputEnded: the input source is exhausted.
        """
        u = self.understanding
        expected = Expected.free_text(moment) if free else Expected(u.grammar(phrases), False, moment)
        if key:
            self.say(key, **values)
        failures = silences = 0
        while True:
            heard = self.listen(expected, timeout_s)
            if isinstance(heard, Silence):
                silences += 1
                if silence_limit is not None and silences >= silence_limit:
                    self.log[-1]["accepted"] = True  # the silence decided something: undo can take it back
                    self.journal()
                    return SILENT
                failures += 1
                if failures < MAX_TRIES:
                    self.say_text(self.text(silence_key), remember=False)
            else:
                command = u.command(heard.text)
                if command:
                    self.log[-1]["command"] = command
                    self.journal()
                    self._command(command, help_key)
                    continue
                outcome = try_parse(parse, heard)
                if outcome[0] == "ok":
                    self.log[-1]["accepted"] = True
                    self.record["inputs"].append({k: self.log[-1][k] for k in ("phase", "moment", "text")})
                    self.journal()  # the entry again, now accepted (a newer line for the same index)
                    return outcome[1]
                failures += 1
                if outcome[0] == "not_allowed":
                    self.say_text(outcome[1], remember=False)
                elif failures < MAX_TRIES:
                    self.say_text(self.text("common.not_understood", heard=heard.text,
                                            options=self.text(help_key)), remember=False)
            if failures >= MAX_TRIES:
                self.say_text(self.text("common.options", options=self.text(help_key)), remember=False)
                failures = 0

    def ask_yes_no(self, key: str | None, *, help_key: str = "common.help_yes_no", moment: str = "confirm",
                   **values) -> bool:
        """Ask a yes/no question until answered."""
        u = self.understanding

        def parse(text: str) -> bool:
            return understood(u.yes_no(text))

        return self.ask(key, parse, phrases=u.yes_no_phrases(), help_key=help_key, moment=moment, **values)

    def _command(self, command: str, help_key: str) -> None:
        voice = self.voice
        if command == "repeat":
            if self.last_prompt:
                voice.say(self.last_prompt)
        elif command == "help":
            self.say_text(self.text(help_key), remember=False)
            self.say_text(self.text("common.help_global"), remember=False)
        elif command == "score":
            if self.score_callback:
                self.score_callback()
            else:
                self.say_text(self.text("common.no_score_yet"), remember=False)
        elif command == "pause":
            self._pause()
        elif command == "resume":
            self.say_text(self.text("common.not_paused"), remember=False)
        elif command in ("slower", "faster"):
            voice.adjust(rate_step=-1 if command == "slower" else 1)
            self.say_text(self.text(f"common.{command}"), remember=False)
        elif command in ("louder", "softer"):
            voice.adjust(volume_step=1 if command == "louder" else -1)
            self.say_text(self.text(f"common.{command}"), remember=False)
        elif command == "undo":
            index = self._undo_index()
            if index is None:
                self.say_text(self.text("common.nothing_to_undo"), remember=False)
            else:
                raise Undo(index)
        elif command == "quit":
            interrupted = self.last_prompt
            if self.ask_yes_no("common.confirm_quit", moment="confirm_quit"):
                # the quit itself is not replayed on resume
                del self.log[self._quit_index():]
                self.new_generation()  # the journal holds the quit's lines: they must not count
                raise QuitGame()
            self.not_undoable()  # "no, don't quit" is no move of the game: undo passes over it
            self.last_prompt = interrupted  # "repeat" repeats the game's question again
            self.say_text(self.text("common.not_quitting"), remember=False)
            if interrupted:
                self.voice.say(interrupted)

    def _quit_index(self) -> int:
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i].get("command") == "quit":
                return i
        return len(self.log)

    def _undo_index(self) -> int | None:
        """Index of the last accepted input of the current phase, else ``None``."""
        for i in range(len(self.log) - 1, -1, -1):
            if self.log[i]["phase"] != self.phase:
                return None
            if self.log[i]["accepted"]:
                return i
        return None

    def _pause(self) -> None:
        self.say_text(self.text("common.paused"), remember=False)
        u = self.understanding
        expected = Expected(u.grammar(), False, "paused")
        while True:
            heard = self.listen(expected, None)
            if isinstance(heard, Heard) and (u.command(heard.text) == "resume" or u.yes_no(heard.text)
                                             or u.is_ready(heard.text)):
                self.say_text(self.text("common.resumed"), remember=False)
                if self.last_prompt:
                    self.voice.say(self.last_prompt)
                return
            if isinstance(heard, Heard) and u.command(heard.text) == "quit":
                self._command("quit", "common.help_paused")
                continue

    # ------------------------------------------------------------------ timers
    def run_timer(self, purpose_key: str, **values) -> None:
        """Run a game timer (G1): announce it, warn at 10 s left, end it aloud.

        With ``--timer off`` the table is asked to say "ready" instead.
        Seconds come from ``settings.timer_s``.
        """
        seconds = self.settings.timer_s
        if not seconds:
            u = self.understanding

            def parse(text: str) -> bool:
                if u.is_ready(text):
                    return True
                raise NotUnderstood

            self.ask("common.timer_off", parse, phrases=u.ready_words, help_key="common.help_ready",
                     moment="ready", timeout_s=None, purpose=self.text(purpose_key, **values))
            return
        self.say_text(self.text("common.timer_start", seconds=int(seconds), purpose=self.text(purpose_key, **values)),
                      remember=False)
        if seconds > 10:
            self.clock.sleep(seconds - 10)
            self.say_text(self.text("common.timer_warning"), remember=False)
            self.clock.sleep(10)
        else:
            self.clock.sleep(seconds)
        self.say_text(self.text("common.timer_end"), remember=False)

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
        if self.settings.record:
            return Path(self.settings.record)
        return data_dir() / "records" / f"{self.settings.game}-{self.settings.started}.json"

    def autosave_path(self) -> Path:
        if self.settings.autosave:
            return Path(self.settings.autosave)
        return data_dir() / "autosave" / f"{self.settings.game}-{self.settings.started}.json"

    def autosave(self, finished: bool = False, record: bool = True) -> None:
        """Write the autosave (settings + input log + state) and, with ``record``, the
        record, atomically. Every listening moment saves the log (so a killed process
        resumes with no input lost); every phase also rewrites the record.

        A failed write (full disk…) is said once; the game continues.
        """
        if self.replaying:
            return
        if self.snapshot_callback and (record or self._state is None):
            try:  # informative only (resume replays the log), so taken at phase changes
                self._state = self.snapshot_callback()
            except Exception:
                log.exception("snapshot failed")
        self._settings_dict["autosave"] = self.settings.autosave
        save = {"format": "voicegame-autosave/1", "settings": self._settings_dict,
                "generation": self.generation, "journal_seq": self._journal_seq, "log": self.log,
                "phase": self.phase,
                "state": self._state, "finished": finished}
        writer = background_writer()
        try:
            # Every listening moment appends to the journal (see journal()); the full
            # autosave and the record are rewritten at phase changes on the writer
            # thread (atomic + fsync), so the listening path never waits for the disk.
            # The first save of a generation is written at once: until it exists,
            # journal lines of this generation would have no autosave to continue.
            if not self._generation_saved:
                atomic_write_json(self.autosave_path(), save, durable=False)
                self._generation_saved = True
            if record or finished:
                writer.write(self.autosave_path(), to_json(save))
                self.record["finished"] = finished
                writer.write(self.record_path(), to_json(self.record))
            if writer.error is not None:
                error, writer.error = writer.error, None
                raise error
        except OSError as exc:
            self._saving_failed(exc)

    def forget_finished(self) -> None:
        """A finished game needs no autosave: once its record is safely on disk, the
        autosave and its journal go (nothing to resume, nothing piling up)."""
        if self.replaying or os.environ.get("VOICEGAME_KEEP_FINISHED") == "1":  # kept for inspection
            return
        writer = background_writer()
        writer.flush()
        if writer.error is None and self.record_path().exists():
            self.close()
            for path in (self.autosave_path(), journal_path(self.autosave_path())):
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    pass

    def _saving_failed(self, exc: OSError) -> None:
        """Log a failed save and say so once (full disk…); the game goes on."""
        log.warning("saving failed: %s", exc)
        if not self.save_failed_said:
            self.save_failed_said = True
            self.say_text(self.text("common.save_failed"), remember=False)

    def journal(self) -> None:
        """Save the newest input-log entry by appending it to the autosave's journal
        (microseconds; survives a killed process). A failure is said once."""
        if self.replaying or not self.log:
            return
        if not self._generation_saved:  # after a replay: the new generation's autosave first
            self.autosave(record=False)
        try:
            self._journal_seq += 1
            if self._journal is None:  # one open file per table: a line costs a write, not an open
                self._journal = open_journal(self.autosave_path())
            write_journal_line(self._journal, len(self.log) - 1, self.log[-1], self.generation,
                               self._journal_seq)
        except OSError as exc:
            self._saving_failed(exc)

    def close(self) -> None:
        """Close the journal file (end of this table's run)."""
        if self._journal is not None:
            try:
                self._journal.close()
            except OSError:
                pass
            self._journal = None

    def flush(self) -> None:
        """Wait until every save is on disk (end of a game)."""
        background_writer().flush()


class BadSave(ValueError):
    """A saved input log entry has the wrong shape; ``str()`` says which entry and field."""


def _is_seconds(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value < 1e7


def replayed(entry) -> Heard | Silence:
    """The listen result a saved log entry stands for (cleaned as a live one is).

    :raises BadSave: the entry is not an object, or its text / alternatives / confidence /
        elapsed have the wrong type.
    """
    if not isinstance(entry, dict):
        raise BadSave("an input log entry is not an object")
    text, alternatives = entry.get("text"), entry.get("alternatives", [])
    confidence, elapsed = entry.get("confidence", 1.0), entry.get("elapsed", 0.0)
    if elapsed is not None and not _is_seconds(elapsed):
        raise BadSave("an input log entry's 'elapsed' is not a number of seconds")
    if text is None:
        return Silence(float(elapsed or 0.0))
    if not isinstance(text, str):
        raise BadSave("an input log entry's 'text' is not text")
    if not isinstance(alternatives, list) or not all(isinstance(a, str) for a in alternatives):
        raise BadSave("an input log entry's 'alternatives' is not a list of texts")
    if confidence is None:
        confidence = 1.0
    if not isinstance(confidence, (int, float)) or isinstance(confidence, bool):
        raise BadSave("an input log entry's 'confidence' is not a number")
    return clean_heard(Heard(text, tuple(alternatives), float(confidence)))


def _capitalised(sentence: str) -> str:
    """The sentence with its first letter upper-case (an audience name may start it)."""
    return sentence[:1].upper() + sentence[1:]


#: Seconds between checks for a microphone that disappeared.
DEVICE_POLL_S = 3.0

def tidy_before_game() -> None:
    """Housekeeping of the data dir (:func:`voicegame.engine.journal.tidy`) before each game,
    so a kiosk that runs for weeks keeps only the records it is configured to keep."""
    removed = tidy()
    if removed:
        log.info("housekeeping removed %d old files", len(removed))


def write_crash_log(details: str) -> Path:
    """Append an internal error's traceback to ``<data dir>/voicegame.log`` (for the
    kiosk owner; players never see it). Returns the log's path."""
    path = data_dir() / "voicegame.log"
    try:
        private_folder(path.parent)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a", encoding="utf-8") as fh:
            fh.write(f"--- {_dt.datetime.now().isoformat(timespec='seconds')}\n{details}\n")
    except OSError:
        pass
    return path


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
    :returns: from :meth:`run`: ``"finished"``, ``"quit"``, ``"idle"``, ``"input_ended"`` or ``"error"``.
    """

    def __init__(self, host_factory: Callable[[Table], Any], listener: Listener, voice: Voice,
                 clock: Clock, settings: Settings, log: list[dict] | None = None,
                 screen: Callable[[str], None] | None = None, observers: Observers | None = None):
        self.host_factory = host_factory
        #: every table of this session publishes here (undo makes a new table, the audience stays)
        self.observers = observers if observers is not None else Observers()
        self.live_voice = voice
        self.listener, self.voice, self.clock = listener, CaptionedVoice(voice, lambda: self.observers), clock
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
            background_writer().flush()
            if self.table is not None and background_writer().error is not None:
                log.warning("saving failed: %s", background_writer().error)
                background_writer().error = None

    def _run(self) -> str:
        tidy_before_game()
        replay, live_at = (self.log, "end") if self.resuming else (None, "end")
        if self.resuming:
            self.voice.say(Prompts.load(self.settings.lang).text("common.resuming"))
        while True:
            table = Table(self.listener, self.live_voice, self.clock, self.settings, replay=replay,
                          screen=self.screen, live_at=live_at, observers=self.observers)
            self.table = table
            self.tables.append(table)
            try:
                host = self.host_factory(table)
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
                        background_writer().flush()
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
                        background_writer().flush()
                        table.autosave_path().unlink(missing_ok=True)
                except Exception:
                    pass
                self.voice.say(table.text("common.crashed" if table.log else "common.crashed_at_start"))
                return "error"
