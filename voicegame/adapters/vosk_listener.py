"""The Vosk listener: offline speech recognition behind the ``Listener`` port.

One model per process and path (:func:`load_model`), one new
``vosk.KaldiRecognizer`` per utterance (Vosk 0.3.45 leaks memory in
``SetGrammar``, so a grammar is only ever given to the constructor). Grammar
("limited") mode follows wyoming-vosk: the expected phrases, plus ``[unk]`` when the
model knows it, plus filler words from the model's own vocabulary
(:mod:`voicegame.adapters.vocabulary`) so talk lands on them and not on a command.

The audio is resampled to 16 kHz and cut into the voice detector's frames
(:mod:`voicegame.adapters.vad`; Silero by default); every frame goes to the detector
and to Vosk. All timing is AUDIO time (samples / 16000 from the recognizer's first
sample), so a :class:`~voicegame.adapters.audio.WavSource` read at full speed gives
the same result every run.

End of utterance (``VoskListener.last_endpoint``):

- ``"early"`` — grammar mode: after ``early_pause_s`` of non-speech, the words heard
  form a complete phrase (or sequence of phrases) that no longer phrase of the moment
  extends and whose last word is not one of ``Expected.open_words`` ("left": yes;
  "blue" before "blue left", or "two" before "two thousand": no). Vosk's final result
  is asked for at once and must be the same phrase; when it is not, the utterance is
  decoded again and asked again after each further ``early_pause_s``. With nothing in the
  partial result yet (it can lag the speech by 0.45 s), the final result is asked anyway and
  taken when no other reading comes within ``blind_margin``. A different reading within
  ``tie_margin``, or a longer one within ``doubt_margin``, holds the end back (a tie once;
  not a longer one that is the same phrase said again over the same sound, "다시 다시").
- ``"pause"`` — ``pause_s`` of non-speech after speech (a real pause), whatever was heard.
- ``"vosk"`` — Vosk's own endpoint with words, when what has been heard is a closed
  phrase (talk behind a command keeps the detector on speech; Vosk's decoder hears
  it as silence), or whatever was heard when ``pause_s`` is ``None``; otherwise
  Vosk's segment is kept and listening goes on, so "blue … left" with a long pause
  still comes back whole.

Speech, for the end of utterance: a detector frame at least ``min_level`` loud and,
once speech has started, within ``speech_drop_db`` of the utterance's loudest frame
(the voices of the next table are far quieter than the player's) and at least
``floor_margin_db`` (or a third of the utterance's rise, if less) above the room's level
(the 20th percentile of the last 32 frames heard outside utterances): Silero stays on
speech for up to 5 frames after a word in loud steady noise. A voice whose loudest frame
is not ``floor_margin_db`` above that level is not judged by it (a loud noise that just
stopped is not the room), and the room's level alone never ends an utterance early
(``floor_needs_vad``). The real pause counts from the last frame above the room's level
(``pause_from_loud``); a click is judged by the detector alone. Measured: docs/performance.md §7.
- ``"max"`` — ``max_utterance_s`` after speech started (continuous talk: rejected in
  grammar mode).
- ``"timeout"`` — no speech started within ``timeout_s`` → :class:`Silence`.
- ``"input_end"`` — the source ran out mid-utterance; what was heard is returned.

Rejection ("not for me", :class:`~voicegame.ports.Rejected`, grammar mode only):
a filler word or ``[unk]`` in the result; more phrases than ``max_phrases`` (open
words not counted); speech longer than ``max_command_s`` (table talk is long, a
command is short).

The host's own voice (a ``speaker``, see :class:`~voicegame.ports.Interruptible`):
audio captured before the speaker's sound has left the loudspeaker (its
``speaking_until()``, which includes the output latency) plus ``tail_s`` is never
taken as an answer. With ``barge_in`` the listener listens through it and stops the
voice for a player:

- when the voice hands what it played (:class:`~voicegame.ports.EchoReference`), an
  echo canceller (:mod:`voicegame.adapters.echo`, kept for the listener's life)
  takes the host's echo out of every frame; once it has learned on
  ``echo_converge_s`` of the host's sound, ``barge_onset_frames`` detector frames of
  speech in its output (each keeping most of its level through the canceller) stop
  the host at once, and the utterance is decoded from ``barge_preroll_frames`` before
  them;
- otherwise (or before that): a filler-free grammar phrase in the partial result,
  spoken at least ``barge_margin_db`` louder than the host's own voice in the
  microphone (learned during this prompt).

Without a speaker it discards ``tail_s`` at the start of each listen (half-duplex).

Confidence mapping (Vosk gives, per n-best alternative, a log-likelihood score
where higher is better): the best alternative's confidence is its softmax
posterior over the returned alternatives, ``1 / sum(exp(s_i - s_best))``. With a
small grammar Vosk often returns one alternative, so confidence is then 1.0 — do
not trust it alone; read important answers back. A transcript that is empty or
only ``[unk]`` has confidence 0.0.
"""

from __future__ import annotations

import collections
import functools
import json
import logging
import math
import time
from pathlib import Path

import numpy as np

from voicegame.adapters.vad import RATE, Resampler, make_vad
from voicegame.ports import DeviceError, Expected, Heard, InputEnded, Rejected, Silence

log = logging.getLogger(__name__)

UNK = "[unk]"
ENDPOINTS = frozenset({"early", "pause", "vosk", "max", "timeout", "input_end"})
#: the room's level: this percentile of the levels of the last FLOOR_FRAMES detector frames
#: (32 ms) heard outside utterances (low and recent: a noise that just stopped is not the room).
FLOOR_PERCENTILE, FLOOR_FRAMES = 20, 32
#: model path of every model :func:`load_model` loaded (for its vocabulary).
_MODEL_DIRS: dict[int, str] = {}


def _import_vosk():
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise DeviceError(
            "The Vosk speech recognizer is missing: run `pip install vosk`, or play "
            "with --input keyboard.", key="common.devices.no_vosk"
        ) from exc
    return vosk


#: the seed of Kaldi's dither at the start of every listen (see :func:`seed_dither`)
DITHER_SEED = 1


def seed_dither(seed: int = DITHER_SEED) -> bool:
    """Seed the C library's ``rand()``, which Kaldi's feature dither draws from (its
    ``RandGauss``; models' ``mfcc.conf`` leave ``--dither`` at 1.0): without it the same
    audio decodes differently as the process goes on (log-likelihoods 0.1 apart, and now and
    then other words), so a listen's result depended on what was decoded before it.

    Listeners on several threads at once share that generator: each listen's own results
    are then not repeatable, and nothing else changes (the dither is noise either way).

    :returns: False where the C library cannot be reached (results are then not repeatable).
    """
    global _libc
    try:
        if _libc is None:
            import ctypes

            _libc = ctypes.CDLL(None)
        _libc.srand(int(seed) & 0xFFFFFFFF)
        return True
    except (OSError, AttributeError, TypeError):  # (CDLL(None) on Windows)
        global _dither_warned
        if not _dither_warned:
            log.info("Kaldi's dither cannot be seeded here: the same audio may decode a little differently")
            _dither_warned = True
        return False


_libc = None
_dither_warned = False


def load_model(path: str | Path):
    """Load a Vosk model once per process per path (later calls return the same object).

    :param path: the unpacked model folder (holds ``am/final.mdl`` or ``conf/model.conf``).
    :returns: a ``vosk.Model``.
    :raises DeviceError: the folder is missing, is not a Vosk model, or fails to load.
    """
    resolved = str(Path(path).expanduser().resolve())
    model = _load_model_cached(resolved)
    _MODEL_DIRS[id(model)] = resolved
    return model


@functools.cache
def _load_model_cached(path: str):
    from voicegame.models import looks_like_model

    p = Path(path)
    if not p.is_dir():
        raise DeviceError(
            f"The speech model folder {p} does not exist: run `voicegame models install "
            "<language>` or pass --model with an unpacked Vosk model folder.", key="common.devices.model_folder_missing",
            path=str(p))
    if not looks_like_model(p):
        raise DeviceError(
            f"The folder {p} is not a Vosk model (no am/final.mdl or conf/model.conf): "
            "pass --model with the unpacked model folder itself.", key="common.devices.not_a_model", path=str(p))
    vosk = _import_vosk()
    vosk.SetLogLevel(-1)
    try:
        return vosk.Model(str(p))
    except Exception as exc:  # vosk raises a bare Exception("Failed to create a model")
        raise DeviceError(
            f"The speech model in {p} could not be loaded (damaged or incomplete?): "
            "install it again with `voicegame models install <language>`.", key="common.devices.model_broken",
            path=str(p)) from exc


def missing_words(model, words) -> list[str]:
    """The words a model's vocabulary lacks (a grammar would silently ignore them).

    :param model: a ``vosk.Model``.
    :param words: words (``"[unk]"`` is checked like any other).
    :returns: the missing words, sorted, without duplicates.
    """
    return sorted({w for w in words if w and model.vosk_model_find_word(w) < 0})


def _has_unk(model) -> bool:
    return model.vosk_model_find_word(UNK) >= 0


def _clean(text: str) -> str:
    return " ".join(w for w in text.split() if w != UNK)


def _repeats(words: list[str], phrase: list[str]) -> bool:
    """``words`` is ``phrase`` said two or more times over ("다시 다시" for "다시")."""
    n = len(phrase)
    return n > 0 and len(words) > n and len(words) % n == 0 and words == phrase * (len(words) // n)


def _end_s(reading: dict) -> float:
    """Seconds (from the segment's start) at which a Vosk reading's last word ends; 0.0 when
    it has no word times."""
    words = reading.get("result") or []
    return float(words[-1].get("end", 0.0)) if words else 0.0


def _best(result: dict) -> tuple[dict, list[dict]]:
    """The best alternative of a Vosk result and all of them (either result shape)."""
    alts = result.get("alternatives")
    if alts is None:  # SetMaxAlternatives(0) shape
        alts = [{"text": result.get("text", ""), "confidence": 1.0, "result": result.get("result", [])}]
    best = alts[0] if alts else {"text": "", "confidence": 0.0, "result": []}
    return best, alts


class _Decoder:
    """One recognizer over a whole utterance: Vosk's own segments are joined, not returned.

    ``words``/``score``/``span`` add up every finished segment (score: the best
    alternative's log-likelihood, higher is better; span: audio seconds of the first
    word's start and the last word's end).
    """

    def __init__(self, make, origin: float = 0.0):
        self.make = make
        self.origin = origin  # audio seconds of the listen when this decoder's first sample came
        self.fed_s = 0.0
        self.rec = make()
        self.seg_origin = origin
        self.words: list[str] = []
        self.score = 0.0
        self.span: list[float] | None = None
        self.unk = False
        self.last: dict = {}
        self.prefix: list[str] = []  # the words before the last finished segment

    def _take(self, result: dict) -> bool:
        best, _ = _best(result)
        self.unk = self.unk or UNK in best.get("text", "").split()
        timed = [w for w in best.get("result", []) if w.get("word") != UNK]
        words = _clean(best.get("text", "")).split()
        if not words:
            return False
        self.prefix = list(self.words)
        self.last = result
        self.words += words
        self.score += float(best.get("confidence", 0.0))
        if timed:
            start, end = self.seg_origin + float(timed[0]["start"]), self.seg_origin + float(timed[-1]["end"])
            self.span = [start, end] if self.span is None else [self.span[0], end]
        return True

    def feed(self, data: bytes) -> bool:
        """Feed audio; True when Vosk closed a segment with words in it."""
        self.fed_s += len(data) / 2 / RATE
        if self.rec.AcceptWaveform(data):
            got = self._take(json.loads(self.rec.Result()))
            self._renew()
            return got
        return False

    def _renew(self) -> None:
        self.rec = self.make()
        self.seg_origin = self.origin + self.fed_s

    def partial(self) -> list[str]:
        """The words so far: finished segments plus the current partial result."""
        return self.words + _clean(json.loads(self.rec.PartialResult()).get("partial", "")).split()

    def finish(self) -> None:
        """Close the current segment (Vosk's final result)."""
        self._take(json.loads(self.rec.FinalResult()))
        self._renew()


class PhraseSet:
    """The phrases of one listening moment, for the grammar-aware end of utterance.

    :param phrases: the moment's phrases (lower-case words).
    :param open_words: words after which more may follow (a number said word by word).
    """

    def __init__(self, phrases, open_words=()):
        self.phrases = {tuple(p.split()) for p in phrases if p.split()}
        self.prefixes = {p[:i] for p in self.phrases for i in range(1, len(p))}
        self.open = set(open_words)

    def _covered(self, words) -> list[bool]:
        ok = [True] + [False] * len(words)
        for end in range(1, len(words) + 1):
            ok[end] = any(ok[end - len(p)] and tuple(words[end - len(p):end]) == p
                          for p in self.phrases if len(p) <= end)
        return ok

    def complete(self, words) -> bool:
        """``words`` is one phrase or a sequence of phrases."""
        return bool(words) and self._covered(list(words))[-1]

    def extendable(self, words) -> bool:
        """More words could make a longer phrase: the last word is open, or a tail of
        ``words`` (after complete phrases) is the start of a longer phrase."""
        words = list(words)
        if not words:
            return True
        if words[-1] in self.open:
            return True
        ok = self._covered(words)
        return any(ok[i] and tuple(words[i:]) in self.prefixes for i in range(len(words)))

    def starts_longer(self, words) -> bool:
        """A tail of ``words`` (after complete phrases) is the start of a longer phrase
        (open words aside): "blue" of "blue left"."""
        words = list(words)
        ok = self._covered(words)
        return any(ok[i] and tuple(words[i:]) in self.prefixes for i in range(len(words)))

    def closed(self, words) -> bool:
        """Complete, and no longer phrase of the moment extends it: the utterance may end now."""
        return self.complete(words) and not self.extendable(words)

    def count(self, words) -> int:
        """How many phrases that are not open words ``words`` holds (fewest split)."""
        words = list(words)
        best = [0] + [10**6] * len(words)
        for end in range(1, len(words) + 1):
            for p in self.phrases:
                start = end - len(p)
                if start >= 0 and best[start] < 10**6 and tuple(words[start:end]) == p:
                    cost = 0 if (len(p) == 1 and p[0] in self.open) else 1
                    best[end] = min(best[end], best[start] + cost)
        return best[-1] if best[-1] < 10**6 else len(words)


def _rms(frame: np.ndarray) -> float:
    x = frame.astype(np.float64)
    return float(np.sqrt(np.mean(x * x))) if x.size else 0.0


class _EchoGate:
    """Tells a player's voice from the host's own voice in the microphone, by level.

    Keeps the levels (RMS, int16 units) of the frames heard while the host speaks; a
    frame opens the gate when it is ``margin_db`` louder than the upper quartile of the
    host's frames before it. Until ``warmup_s`` of frames above digital silence (the
    host's sound has arrived) the gate stays shut.
    """

    def __init__(self, margin_db: float, warmup_s: float):
        self.factor = 10 ** (margin_db / 20)
        self.warmup_frames = max(1, int(round(warmup_s * RATE / 512)))
        self.levels: list[float] = []
        self._ref: float | None = None

    def opens(self, level: float) -> bool:
        """True when ``level`` stands out of the host's own voice (shut frames are learned)."""
        if len(self.levels) % 8 == 0 or self._ref is None:
            heard = [v for v in self.levels[-400:] if v > 50.0]  # the host's sound has arrived
            self._ref = float(np.percentile(heard, 75)) if len(heard) >= self.warmup_frames else None
        if self._ref is not None and level > self.factor * max(self._ref, 50.0):
            return True
        self.levels.append(level)
        return False


class VoskListener:
    """A :class:`~voicegame.ports.Listener` on Vosk, a voice detector and an :class:`AudioSource`.

    :param model: a ``vosk.Model`` (see :func:`load_model`).
    :param source: an :class:`~voicegame.adapters.audio.AudioSource`; its optional
        ``time_s`` (end of the last chunk read, on the speaker's clock) lines the
        microphone up with the speaker's ``speaking_until()``.
    :param vad: ``"silero"`` (default) or ``"webrtc"``, or a detector object (see
        :mod:`voicegame.adapters.vad`).
    :param vad_threshold: speech probability at which a frame counts as speech.
    :param min_level: least RMS (int16 units; 150 ≈ −47 dBFS) of a speech frame, after the
        input gain (``gain_db``): the detector is level-blind, and a far reverberation tail is
        no player.
    :param early_pause_s: seconds of non-speech after which a closed phrase ends the
        utterance (``None``: never early).
    :param pause_s: seconds of non-speech that end any utterance in grammar mode
        (``None``: Vosk's own endpoint, as plain Vosk).
    :param free_pause_s: the same in free-text mode (``None``: Vosk's own endpoint).
    :param tail_s: seconds after the speaker's sound has left the loudspeaker (or, with
        no speaker, at the start of each listen) that are never taken as an answer.
    :param max_utterance_s: seconds after speech start at which listening stops.
    :param max_command_s: seconds of speech beyond which a grammar-mode utterance is
        table talk (rejected).
    :param min_speech_s: seconds of speech an utterance needs (shorter: a click, dropped).
    :param max_phrases: phrases (open words not counted) beyond which it is talk.
    :param fillers: how many filler words of the model's vocabulary make the second,
        filler grammar (0: none), or an explicit sequence of them.
    :param filler_margin: log-likelihood by which the filler grammar must explain an
        utterance better than the command grammar alone for it to be talk.
    :param max_padding: filler words the filler grammar may put around the same command
        (noise before or after it) without making it talk.
    :param doubt_margin: log-likelihood within which an n-best alternative that starts a
        longer phrase keeps a closed phrase from ending early (negative: never).
    :param vosk_end: Vosk's own endpoint ends a closed phrase (in grammar mode, with
        ``pause_s`` set; measured: commands over babble at 20 dB, docs/performance.md §7).
    :param speech_drop_db: once speech has started, a frame more than this many dB below
        the utterance's loudest speech frame is no longer speech (``None``: level-blind).
    :param agree: an early end needs Vosk's final result to be the very phrase of the
        partial result (else a coin toss between near phrases in noise ends at once).
    :param reprobe: after Vosk denied an early end, ask again after each further
        ``early_pause_s`` of non-speech (else only the real pause ends it).
    :param floor_margin_db: once speech has started, a frame less than this many dB (or a
        third of the utterance's rise above the room, if less) above the room's level is no
        longer speech (``None``: the room's level is not used).
    :param floor_needs_vad: an early end needs the detector itself to call the frame
        non-speech, not the room's level alone.
    :param blind_margin: with an empty partial result after ``early_pause_s``, Vosk's final
        result is asked anyway and taken when no other reading is within this log-likelihood
        (``None``: wait for the partial).
    :param doubt_longer: an n-best alternative of more words within ``doubt_margin`` keeps a
        closed phrase from ending early ("네 오른쪽" behind "네" for 노랑).
    :param tie_margin: a different n-best reading within this log-likelihood holds an early
        end back once: asked again after a further ``early_pause_s`` with ``reprobe``, else
        only after new speech, or the real pause ends it (``None``: never held back).
    :param pause_from_loud: in a grammar moment, the real pause (``pause_s``) counts from
        the last frame above the room's level, not the detector's last speech frame
        (Silero stays on speech after a word in loud steady noise; measured: white and pink
        noise at 5 dB, docs/performance.md §7). The click rule and free-text moments go
        by the detector alone.
    :param same_repeated: an n-best alternative that is the best phrase said again ("다시 다시"
        behind "다시", ending where it ends) does not keep it from ending early: either
        reading is the same command, and both end with the sound already heard (measured:
        white noise at 5 and 10 dB, docs/performance.md §7).
    :param quiet_db: a command (a grammar-mode :class:`Heard`, not talk, not a barge-in), or
        a voice in a grammar moment that Vosk made no word of, whose loudest speech frame is
        below this level (dBFS, RMS of a 32 ms frame, after the input gain) raises the input
        gain for what is heard after it toward ``gain_target_db``: Vosk hears little of a voice
        at −30 dBFS (a far or low-gain microphone) and most of it amplified (measured:
        docs/performance.md §7, "A quiet microphone"). Only a voice well above the room's
        level teaches it (``gain_rise_db``). ``None``: no gain.
    :param loud_db: a voice louder than this (dBFS, after the gain; a command, talk, or one
        Vosk made no word of) lowers a raised gain (a nearer player), never below 0 dB.
    :param gain_target_db: the level (dBFS) a gain change brings the loudest frame to.
    :param max_gain_db: the most input gain (dB); noise is amplified with the voice.
    :param gain_rise_db: a command teaches the gain only when its loudest frame is this many
        dB above the room's level (a player at the microphone; babble that slipped through
        as a command rises a few dB).
    :param gain_step: the share of the way to the new gain one command moves it.
    :param talk_fillers: filler words the filler grammar needs in an utterance to call it
        talk (1 filler for 1 command word is a near miss of the sound, frequent in noise).
    :param speaker: the host's voice (:class:`~voicegame.ports.Interruptible`), or ``None``.
    :param barge_in: listen while the speaker plays and stop it for a player's command.
    :param barge_margin_db: how much louder than the host's own voice in the
        microphone a barge-in must be.
    :param barge_min_s: seconds of voice louder than the host's a barge-in needs.
    :param barge_drop_s: seconds of non-speech after which a voice over the host's
        that has not made a command is dropped.
    :param echo: the echo canceller for a voice that hands its sound
        (:class:`~voicegame.ports.EchoReference`): ``"speex"`` (default), ``"webrtc"``,
        a canceller object (:mod:`voicegame.adapters.echo`), or ``None`` (level only).
        Kept for the listener's life, so it learns the room once.
    :param echo_converge_s: seconds of the host's sound the canceller learns on before
        its output is trusted; until then barge-in goes by level and grammar.
    :param barge_onset_frames: detector frames of speech in the echo-cancelled signal,
        one after another, that stop the host (5 × 32 ms).
    :param barge_preroll_frames: frames before those kept, so the utterance that cut in
        is decoded from its start.
    :param barge_kept_db: an onset frame must keep at least its level minus this (dB)
        through the canceller (a player's voice does; the host's residual echo does not).
    :param clock: a :class:`~voicegame.ports.Clock` for the stalled-microphone guard
        only (``None`` is ``time.monotonic``); recognition timing is audio time.
    :param alternatives: how many n-best alternatives to ask Vosk for.
    :param stall_s: wall seconds without any audio before :class:`DeviceError`.
    """

    def __init__(
        self,
        model,
        source,
        *,
        vad="silero",
        vad_threshold: float = 0.5,
        min_level: float = 150.0,
        early_pause_s: float | None = 0.128,
        pause_s: float | None = 0.6,
        free_pause_s: float | None = None,
        tail_s: float = 0.3,
        max_utterance_s: float = 12.0,
        max_command_s: float = 4.0,
        min_speech_s: float = 0.15,
        max_phrases: int = 2,
        fillers=120,
        filler_margin: float = 4.0,
        max_padding: int = 2,
        talk_fillers: int = 2,
        doubt_margin: float = 5.0,
        vosk_end: bool = True,
        speech_drop_db: float | None = 20.0,
        agree: bool = True,
        reprobe: bool = True,
        floor_margin_db: float | None = 6.0,
        floor_needs_vad: bool = True,
        blind_margin: float | None = 5.0,
        doubt_longer: bool = True,
        tie_margin: float | None = 0.5,
        early_one_phrase: bool = True,
        pause_from_loud: bool = True,
        same_repeated: bool = True,
        quiet_db: float | None = -24.0,
        loud_db: float = -6.0,
        gain_target_db: float = -15.0,
        max_gain_db: float = 30.0,
        gain_rise_db: float = 15.0,
        gain_step: float = 0.5,
        speaker=None,
        barge_in: bool = True,
        barge_margin_db: float = 10.0,
        barge_drop_s: float = 0.3,
        barge_min_s: float = 0.125,
        echo="speex",
        echo_converge_s: float = 1.0,
        barge_onset_frames: int = 5,
        barge_preroll_frames: int = 5,
        barge_kept_db: float = 20.0,
        clock=None,
        alternatives: int = 3,
        stall_s: float = 5.0,
    ):
        self.model = model
        self.source = source
        self.vad = make_vad(vad) if isinstance(vad, str) else vad
        self.vad_threshold = vad_threshold
        self.min_level = min_level
        self.early_pause_s = early_pause_s
        self.pause_s = pause_s
        self.free_pause_s = free_pause_s
        self.tail_s = tail_s
        self.max_utterance_s = max_utterance_s
        self.max_command_s = max_command_s
        self.min_speech_s = min_speech_s
        self.max_phrases = max_phrases
        self.fillers = fillers
        self.filler_margin = filler_margin
        self.max_padding = max_padding
        self.talk_fillers = talk_fillers
        self.doubt_margin = doubt_margin
        self.vosk_end = vosk_end
        self.speech_drop_db = speech_drop_db
        self.agree = agree
        self.reprobe = reprobe
        self.floor_margin_db = floor_margin_db
        self.floor_needs_vad = floor_needs_vad
        self.blind_margin = blind_margin
        self.doubt_longer = doubt_longer
        self.tie_margin = tie_margin
        self.early_one_phrase = early_one_phrase
        self.pause_from_loud = pause_from_loud
        self.same_repeated = same_repeated
        self.quiet_db = quiet_db
        self.loud_db = loud_db
        self.gain_target_db = gain_target_db
        self.max_gain_db = max_gain_db
        self.gain_rise_db = gain_rise_db
        self.gain_step = gain_step
        #: the input gain (dB) the microphone's audio gets before the detector and Vosk; set
        #: from the players' own voices, kept for the listener's life (see ``quiet_db``).
        self.gain_db = 0.0
        self.speaker = speaker
        self.barge_in = barge_in
        self.barge_margin_db = barge_margin_db
        self.barge_drop_s = barge_drop_s
        self.barge_min_s = barge_min_s
        self.echo = echo
        self.echo_converge_s = echo_converge_s
        self.barge_onset_frames = barge_onset_frames
        self.barge_preroll_frames = barge_preroll_frames
        self.barge_kept_db = barge_kept_db
        self._echo = None if isinstance(echo, str) or echo is None else (echo, None)
        self._echo_vad = None  # a second detector of the same kind, on the cancelled signal
        self._echo_heard_s = 0.0  # seconds of the host's sound the canceller has learned on
        self.clock = clock
        self.alternatives = alternatives
        self.stall_s = stall_s
        self._unk = _has_unk(model)
        self._filler_cache: dict[tuple, tuple[str, ...]] = {}
        #: which endpoint ended the last listen: one of :data:`ENDPOINTS`, or None.
        self.last_endpoint: str | None = None
        #: audio seconds (16 kHz samples fed / 16000) when speech started: the first
        #: word's start in Vosk's alignment, else when the detector found it.
        self.last_speech_start_s: float | None = None
        #: audio seconds when the detector first found speech.
        self.last_speech_detected_s: float | None = None
        #: audio seconds when the last recognized word ended (Vosk word times).
        self.last_speech_end_s: float | None = None
        #: audio seconds fed to the recognizer when listen returned.
        self.last_return_s: float | None = None
        #: audio seconds when a barge-in stopped the speaker in the last listen, or None.
        self.last_barge_in_s: float | None = None
        #: the words of the last grammar that the model's vocabulary lacks.
        self.last_missing: list[str] = []
        #: the raw Vosk result (dict) of the last utterance's final segment.
        self.last_result: dict | None = None
        #: the filler words of the last grammar.
        self.last_fillers: tuple[str, ...] = ()

    def attach(self, speaker) -> None:
        """Know the host's voice (an :class:`~voicegame.ports.Interruptible`) from now on."""
        self.speaker = speaker

    # -- vocabulary ---------------------------------------------------------
    def missing_words(self, words) -> list[str]:
        """Words (or phrases, split into words) the model cannot recognize; sorted.

        The Table calls this at game start and per card, so missing grammar words
        are reported aloud, never silently dropped.
        """
        return missing_words(self.model, {w for p in words for w in str(p).split()})

    def check_vocabulary(self, expected: Expected) -> list[str]:
        """Words of ``expected`` the model cannot recognize (sorted; empty = all known)."""
        return missing_words(self.model, expected.words())

    def fillers_for(self, phrases) -> tuple[str, ...]:
        """The filler words added to a grammar of ``phrases`` (see :mod:`~voicegame.adapters.vocabulary`)."""
        if not isinstance(self.fillers, int):
            own = {w for p in phrases for w in p.split()}
            return tuple(w for w in self.fillers if w not in own)
        if self.fillers <= 0:
            return ()
        key = tuple(sorted(phrases))
        if key not in self._filler_cache:
            from voicegame.adapters.vocabulary import filler_pool, pick_fillers

            model_dir = _MODEL_DIRS.get(id(self.model))
            pool = filler_pool(model_dir) if model_dir else ()
            if len(self._filler_cache) > 64:
                self._filler_cache.clear()
            self._filler_cache[key] = pick_fillers(pool, key, self.fillers, ordered_already=True)
        return self._filler_cache[key]

    # -- helpers ------------------------------------------------------------
    def _now(self) -> float:
        return self.clock.now() if self.clock is not None else time.monotonic()

    def _read(self, stalled_since: list) -> bytes | None:
        chunk = self.source.read(0.5)
        if chunk:
            stalled_since[0] = None
            return chunk
        now = self._now()
        if stalled_since[0] is None:
            stalled_since[0] = now
        elif now - stalled_since[0] > self.stall_s:
            raise DeviceError(
                "The microphone stopped sending audio: check its cable, or play with "
                "--input keyboard.", key="common.devices.microphone_silent")
        return None

    def _recognizer(self, expected: Expected, fillers: tuple[str, ...]):
        vosk = _import_vosk()
        if expected.free or not expected.phrases:
            rec = vosk.KaldiRecognizer(self.model, RATE)
        else:
            grammar = list(dict.fromkeys(p for p in expected.phrases if p not in self.last_missing))
            grammar += [w for w in fillers if w not in grammar]
            if self._unk:
                grammar.append(UNK)
            rec = vosk.KaldiRecognizer(self.model, RATE, json.dumps(grammar, ensure_ascii=False))
        rec.SetWords(True)
        rec.SetMaxAlternatives(self.alternatives)
        return rec

    def _heard(self, dec: _Decoder) -> Heard:
        result, prefix, span = dec.last, dec.prefix, dec.span
        self.last_result = result or None
        best, alts = _best(result) if result else ({"confidence": 0.0}, [])
        text = " ".join(dec.words)
        if span:
            self.last_speech_start_s, self.last_speech_end_s = span
            duration = span[1] - span[0]
        else:
            self.last_speech_end_s = None
            duration = 0.0
        if text and alts:
            s_best = float(best.get("confidence", 0.0))
            total = sum(math.exp(min(50.0, float(a.get("confidence", 0.0)) - s_best)) for a in alts)
            confidence = 1.0 / total if total > 0 else 0.0
        else:
            confidence = 0.0
        others = []
        for a in alts[1:]:
            t = " ".join(prefix + _clean(a.get("text", "")).split())
            if t and t != text and t not in others:
                others.append(t)
        return Heard(text, tuple(others), round(confidence, 4), round(max(0.0, duration), 3))

    def _doubtful(self, dec: _Decoder, grammar: PhraseSet) -> bool:
        """Vosk's n-best holds, within ``doubt_margin``, the start of a longer phrase instead
        of the closed one ("노랑" for "네" in a clatter): wait for the real pause."""
        if not dec.last:
            return False
        best, alts = _best(dec.last)
        s_best = float(best.get("confidence", 0.0))
        best_words = _clean(best.get("text", "")).split()
        return any(s_best - float(a.get("confidence", 0.0)) <= self.doubt_margin
                   and (grammar.starts_longer(dec.prefix + _clean(a.get("text", "")).split())
                        or self.doubt_longer and len(_clean(a.get("text", "")).split()) > len(best_words)
                        and not (self.same_repeated and _repeats(_clean(a.get("text", "")).split(), best_words)
                                 and _end_s(a) <= _end_s(best) + 0.05))
                   for a in alts[1:])

    def _unambiguous(self, dec: _Decoder, margin: float) -> bool:
        """Vosk's final result stands alone: no n-best alternative of other words within
        ``margin`` (log-likelihood) of it."""
        if not dec.last:
            return False
        best, alts = _best(dec.last)
        s_best = float(best.get("confidence", 0.0))
        text = _clean(best.get("text", ""))
        return all(_clean(a.get("text", "")) == text or s_best - float(a.get("confidence", 0.0)) > margin
                   for a in alts[1:])

    def _judge(self, heard: Heard, grammar: PhraseSet, fillers: set, speech_s: float,
               dec: _Decoder, fdec: _Decoder | None):
        """A grammar-mode result: the Heard, or Rejected when it is not for us."""
        words = heard.text.split()
        talk = False
        if fdec is not None and fillers.intersection(fdec.words):
            # the filler grammar explains the sound better than any command does, unless
            # it heard the same command with a filler or two for the noise around it
            n_fillers = sum(1 for w in fdec.words if w in fillers)
            padded = [w for w in fdec.words if w not in fillers] == words and n_fillers <= self.max_padding
            # one filler in place of a command is a near miss of the sound, not talk: in noise
            # the filler grammar often wins that coin toss (웨이천 for 왼쪽); talk is many words
            talk = not words or (not padded and n_fillers >= self.talk_fillers
                                 and fdec.score - dec.score > self.filler_margin)
        if dec.unk or talk:
            reason = "filler"
        elif speech_s > self.max_command_s + 1e-9:
            reason = "long"
        elif grammar.count(words) > self.max_phrases:
            reason = "phrases"
        else:
            return heard
        return Rejected(heard.text, reason, heard.duration_s)

    def _regain(self, peak: float) -> float | None:
        """The new input gain (dB) for an utterance whose loudest speech frame, after the
        present gain, has RMS ``peak`` (int16 units); ``None`` to keep it."""
        if self.quiet_db is None or peak <= 0:
            return None
        level_db = 20 * math.log10(peak / 32768.0)
        if self.quiet_db <= level_db <= self.loud_db or (level_db < self.quiet_db and self.gain_db >= self.max_gain_db):
            return None
        want = min(self.max_gain_db, max(0.0, self.gain_db + self.gain_target_db - level_db))
        return want if abs(want - self.gain_db) >= 1.0 else None

    def _learn_gain(self, state, may_raise: bool = True) -> float:
        """Move the input gain toward what the utterance's voice needs (``_regain``): any
        voice may lower it; only one well above the room's level (``gain_rise_db``; talk at
        the next table that slipped through rises a few dB) and ``may_raise`` (a command, or a
        voice Vosk made no word of, which at a quiet microphone is every voice) raises it.

        :returns: the factor by which the gain changed (1.0: unchanged).
        """
        gain = self._regain(state.peak)
        if gain is None:
            return 1.0
        if gain > self.gain_db and not (may_raise and state.floor is not None
                                        and state.peak >= state.floor * 10 ** (self.gain_rise_db / 20)):
            return 1.0
        new = self.gain_db + (gain - self.gain_db) * self.gain_step
        ratio = 10 ** ((new - self.gain_db) / 20)
        self.gain_db = new
        return ratio

    def _finish(self, endpoint: str, audio_t: float) -> None:
        self.last_endpoint = endpoint
        self.last_return_s = audio_t

    def _speaking_until(self) -> float | None:
        if self.speaker is None:
            return None
        try:
            return self.speaker.speaking_until()
        except Exception:  # a voice that cannot say is a silent voice
            return None

    def _echo_for(self, frame_samples: int):
        """The listener's echo canceller, made on first use; ``None`` when the voice hands
        no sound, echo cancellation is off, or its package is missing (level barge-in)."""
        if self.echo is None or not self.barge_in or not callable(getattr(self.speaker, "reference", None)):
            return None
        if self._echo is None:
            from voicegame.adapters.echo import make_echo

            try:
                # one canceller with Speex's residual-echo suppressor for the detector, one
                # without it (undistorted speech) for the recognizer
                self._echo = (make_echo(self.echo, frame_samples),
                              make_echo(self.echo, frame_samples, preprocess=False) if self.echo == "speex" else None)
            except DeviceError as exc:
                log.warning("barge-in goes by level alone: %s", exc)
                self.echo = None
                return None
        if self._echo_vad is None:
            self._echo_vad = make_vad(getattr(self.vad, "name", "silero"))
        return self._echo

    def _reference(self, start_s: float, samples: int):
        try:
            ref = self.speaker.reference(start_s, samples)
        except Exception:  # a voice that cannot say what it played gives no reference
            return None
        return None if ref is None else np.asarray(ref, dtype=np.int16)

    def _source_time(self) -> float:
        t = getattr(self.source, "time_s", None)
        return float(t) if t is not None else self._now()

    # -- the port -----------------------------------------------------------
    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence | Rejected:
        """Listen for one utterance (see the module docstring for endpoints and rejection).

        :param expected: the phrases for the grammar, or a free-text moment.
        :param timeout_s: audio seconds to wait for speech to start, counted once the
            host's own sound is over; ``None`` waits forever.
        :returns: :class:`Heard` (lower-case text, ``[unk]`` removed), :class:`Rejected`
            or :class:`Silence`.
        :raises InputEnded: the source ran out before any speech started.
        :raises DeviceError: the microphone fails or stops sending audio.
        """
        self.last_endpoint = None
        self.last_speech_start_s = self.last_speech_end_s = self.last_return_s = None
        self.last_speech_detected_s = self.last_barge_in_s = None
        self.last_result = None
        self.source.start()
        self.source.drain()
        seed_dither()  # the same audio, the same result, whatever was decoded before
        grammar_mode = not expected.free and bool(expected.phrases)
        if grammar_mode:
            self.last_missing = self.check_vocabulary(expected)
            if self.last_missing:
                log.warning(
                    "listening moment %r: the speech model lacks %s; those phrases cannot be heard",
                    expected.moment, ", ".join(self.last_missing),
                )
            fillers = tuple(w for w in self.fillers_for(expected.phrases)
                            if self.model.vosk_model_find_word(w) >= 0)
        else:
            self.last_missing, fillers = [], ()
        self.last_fillers = fillers
        filler_set = set(fillers)
        grammar = PhraseSet([p for p in expected.phrases if not set(p.split()) & set(self.last_missing)],
                            getattr(expected, "open_words", ()))
        command_rec = functools.partial(self._recognizer, expected, ())
        filler_rec = functools.partial(self._recognizer, expected, fillers)
        resample = Resampler(self.source.sample_rate, RATE)
        self.vad.reset()
        n = self.vad.frame_samples
        frame_s = n / RATE
        state = _Utterance(command_rec, filler_rec if fillers else None)
        pending = np.zeros(0, dtype=np.int16)
        audio_t = 0.0  # seconds of audio this listen has taken in (after any plain tail)
        preroll: collections.deque = collections.deque(maxlen=3)
        cand_run = 0
        was_own = False
        barged = False
        until: float | None = None  # when the speaker's sound has left the loudspeaker
        hold = 0
        loud = False
        closed_before = None  # the closed phrase the last early check saw
        probes = 0  # early checks Vosk denied since the last speech
        probed = None  # the speech time of the last early check that Vosk's final result denied
        waited = 0.0  # seconds of the listener's own turn (the host silent) before speech
        tail_left = self.tail_s if self.speaker is None else 0.0
        speaking = self.speaker is not None
        gate = _EchoGate(self.barge_margin_db, 1.0) if speaking and self.barge_in else None
        echo = self._echo_for(n) if speaking else None  # the canceller, when the voice hands its sound
        echo_run = 0
        by_echo = False  # this barge-in was found on the echo-cancelled signal
        cleaned: collections.deque = collections.deque(maxlen=self.barge_onset_frames + self.barge_preroll_frames)
        stalled: list = [None]
        room_levels: collections.deque = collections.deque(maxlen=FLOOR_FRAMES)  # this listen's, outside utterances

        def final(endpoint: str, audio_t: float, finished: bool = False):
            if not finished:
                state.finish()
            heard = self._heard(state.dec)
            self._finish(endpoint, audio_t)
            if not grammar_mode:
                return heard
            speech_s = (state.last_speech or audio_t) - (state.start or audio_t)
            # a barge-in was already told from the host's voice (by level and grammar, or on the
            # echo-cancelled signal); the filler grammar would only weigh what is left of the
            # host's echo in it (measured: it rejected right commands); the shape checks stay
            result = self._judge(heard, grammar, filler_set, speech_s, state.dec, None if barged else state.fdec)
            if not barged and state.start is not None:
                # a command may raise the gain; any voice, talk too, may lower it
                self._learn_gain(state, may_raise=isinstance(result, Heard) and bool(result.text))
            return result

        while True:
            try:
                chunk = self._read(stalled)
            except InputEnded:
                if state.start is None:
                    raise
                return final("input_end", audio_t)
            if not chunk:
                continue
            pending = np.concatenate([pending, resample(chunk)])
            chunk_end = self._source_time()
            now_until = self._speaking_until() if speaking else None
            if now_until is not None:
                until = now_until  # else keep the last one: its tail may still be running
            while pending.size >= n:
                frame, pending = pending[:n], pending[n:]
                if tail_left > 0:  # no speaker known: the plain half-duplex tail
                    tail_left -= frame_s
                    continue
                frame_time = chunk_end - pending.size / RATE  # source clock, end of this frame
                own = until is not None and frame_time < until + self.tail_s - 1e-9
                crossed, was_own = was_own and not own, own
                if own and gate is None:
                    continue  # the host's own sound: never heard
                audio_t += frame_s
                converged = False
                if self.gain_db and not (own or barged or by_echo):
                    # (learned from the players' voices: see quiet_db; never while the host's sound
                    # is out, so the echo canceller and the barge-in gate hear the microphone as is)
                    frame = np.clip(np.round(frame * 10 ** (self.gain_db / 20)), -32768, 32767).astype(np.int16)
                raw = decoded = frame  # the microphone, and what Vosk hears of this frame
                level = raw_level = _rms(frame)
                speech = self.vad(frame) >= self.vad_threshold and level >= self.min_level
                echo_speech = False
                if echo is not None and (own or by_echo):
                    ref = self._reference(frame_time - frame_s, n)
                    if ref is not None:
                        if own and np.any(ref):
                            self._echo_heard_s += frame_s
                        decoded = echo[1](raw, ref) if echo[1] is not None else None
                        frame = echo[0](raw, ref)
                        decoded = frame if decoded is None else decoded
                        converged = self._echo_heard_s >= self.echo_converge_s - 1e-9
                        # the echo path's own detector, on the cancelled signal
                        level = _rms(frame)
                        echo_speech = self._echo_vad(frame) >= self.vad_threshold and level >= self.min_level
                        if by_echo:
                            speech = echo_speech
                if own and (by_echo or (converged and not barged)):
                    # the host's echo is cancelled: the detector hears the players alone, and a
                    # voice onset stops the host at once; the utterance is decoded from its pre-roll
                    if not barged:  # (an utterance the level path began is replaced by this one)
                        cleaned.append(decoded)
                        # a player's voice survives the canceller; the host's residual echo is
                        # what is left of a frame the canceller took most of
                        kept = raw_level is None or level >= raw_level * 10 ** (-self.barge_kept_db / 20)
                        echo_run = echo_run + 1 if (echo_speech and kept) else 0
                        if echo_run >= self.barge_onset_frames:
                            barged = by_echo = True
                            self.last_barge_in_s = audio_t
                            self.speaker.stop()
                            state = _Utterance(command_rec, filler_rec if fillers else None,
                                               audio_t - len(cleaned) * frame_s)
                            for i, f in enumerate(cleaned):
                                state.feed(f.astype("<i2").tobytes(), i >= len(cleaned) - echo_run,
                                           audio_t - (len(cleaned) - 1 - i) * frame_s, frame_s)
                            echo_run = cand_run = 0
                            continue
                if own and not by_echo:  # (also while the canceller has found no onset)
                    frame, level = raw, raw_level  # the level barge-in decodes and weighs the microphone itself
                    preroll.append(frame)
                    hold = 6 if gate.opens(level) else max(0, hold - 1)
                    loud = hold > 0  # a player's voice holds the gate through the gaps between syllables
                    if barged and not loud:
                        frame = np.zeros_like(frame)  # the rest of the host's sound still on its way out
                    if state.start is None and not barged:
                        # over the host's voice, only a voice louder than it may start an utterance
                        cand_run = cand_run + 1 if (speech and loud) else 0
                        if cand_run < 2:
                            continue
                        state = _Utterance(command_rec, filler_rec if fillers else None,
                                           audio_t - len(preroll) * frame_s)
                        for i, f in enumerate(preroll):
                            state.feed(f.astype("<i2").tobytes(), i >= len(preroll) - 2,
                                       audio_t - (len(preroll) - 1 - i) * frame_s, frame_s)
                        cand_run = 0
                        continue
                if crossed and not barged and state.start is not None:
                    # a voice over the host's that made no command is not carried past its end
                    state = _Utterance(command_rec, filler_rec if fillers else None, audio_t - frame_s)
                if state.start is None and abs(state.dec.origin + state.dec.fed_s - (audio_t - frame_s)) > 1e-6:
                    state = _Utterance(command_rec, filler_rec if fillers else None, audio_t - frame_s)
                if own and not by_echo:
                    speech = speech and loud  # over the host, only the louder voice is a player
                heard_frame = decoded if by_echo else frame
                if speech and state.start is not None and not own and self.speech_drop_db is not None:
                    # a voice far below the utterance's own level is the room behind it (talk at
                    # the next table), not more of the command
                    speech = level >= state.peak * 10 ** (-self.speech_drop_db / 20)
                loud = speech  # speech that rises above the room's level: for the early end only
                if speech and state.start is not None and not own and state.floor is not None \
                        and state.peak >= state.floor * 10 ** (self.floor_margin_db / 20):
                    # a frame that hardly rises above the room is its noise, not the player: Silero
                    # stays on speech for up to 5 frames after a word in loud steady noise (a voice
                    # that does not rise above the room's level by the margin is not judged by it:
                    # the room was louder a moment ago, a blender that just stopped)
                    rise = 20 * math.log10(state.peak / state.floor)
                    loud = level >= state.floor * 10 ** (min(self.floor_margin_db, rise / 3) / 20)
                if state.start is None and not own:
                    room_levels.append(level)
                segment = state.feed(heard_frame.astype("<i2").tobytes(), speech, audio_t, frame_s, loud)
                if speech and state.start is not None and not own:
                    state.peak = max(state.peak, level)
                if state.start is not None and state.floor is None and not own and self.floor_margin_db is not None \
                        and len(room_levels) >= 10:
                    state.floor = max(1.0, float(np.percentile(room_levels, FLOOR_PERCENTILE)))
                if segment and (not grammar_mode or self.pause_s is None):
                    return final("vosk", audio_t)
                if segment and self.vosk_end and grammar_mode and state.start is not None and not own \
                        and grammar.closed(state.dec.words) and not self._doubtful(state.dec, grammar):
                    # Vosk's own endpoint after a closed phrase: the end of a command that the
                    # detector cannot see (talkers behind it keep it on speech)
                    return final("vosk", audio_t)
                if state.start is not None and self.last_speech_detected_s is None:
                    self.last_speech_detected_s = audio_t
                if state.start is None:
                    if not own:
                        waited += frame_s
                    if timeout_s is not None and waited >= timeout_s - 1e-9:
                        self._finish("timeout", audio_t)
                        return Silence(waited_s=round(waited, 3))
                    continue
                silence = audio_t - state.last_speech
                if own and not barged:
                    # over the host's voice: only a clear command counts, and it stops the host
                    if grammar_mode and state.voiced_s >= self.barge_min_s - 1e-9 \
                            and grammar.complete(state.dec.partial()):
                        self.last_barge_in_s = audio_t
                        barged = True
                        self.speaker.stop()
                        continue
                    if silence >= self.barge_drop_s - 1e-9 or audio_t - state.start > self.max_command_s:
                        state = _Utterance(command_rec, filler_rec if fillers else None)
                    continue
                if silence >= 0.1 and state.voiced_s < self.min_speech_s - 1e-9:
                    # a click or a clatter, shorter than any word: not an utterance (by the detector
                    # alone: a word's onset can hardly rise above loud noise)
                    state = _Utterance(command_rec, filler_rec if fillers else None, audio_t)
                    closed_before = None
                    continue
                quiet = audio_t - state.last_loud  # non-speech for the early end (the room's level counted)
                if grammar_mode and self.pause_from_loud:
                    silence = quiet  # the real pause too (not the click rule above)
                if grammar_mode and self.early_pause_s is not None and quiet >= self.early_pause_s - 1e-9 \
                        and (self.pause_s is None or silence < self.pause_s - 1e-9) \
                        and not (self.floor_needs_vad and speech):
                    # (the room's level alone never ends an utterance early: mid-word, in a clatter,
                    # a syllable can fall to it while the detector is sure of speech)
                    words = state.dec.partial()
                    steady, closed_before = closed_before == words, words if grammar.closed(words) else None
                    again = self.reprobe and probed == state.last_loud \
                        and quiet >= (probes + 1) * self.early_pause_s - 1e-9
                    # Vosk's partial result may lag the speech by 0.45 s while its final result has
                    # the word all along: with nothing in the partial, the final is asked anyway
                    # (not after a barge-in: there the host's echo is still in the sound)
                    blind = self.blind_margin is not None and not words and not barged
                    if (steady and words or blind) and (probed != state.last_loud or again):  # the same closed phrase two frames running
                        state.dec.finish()  # (the filler decoder is not cut by a probe)
                        if grammar.closed(state.dec.words) and not self._doubtful(state.dec, grammar) \
                                and (not self.early_one_phrase or tuple(state.dec.words) in grammar.phrases) \
                                and (self._unambiguous(state.dec, self.blind_margin) if blind
                                     else (not self.agree or state.dec.words == words)) \
                                and (self.tie_margin is None or probed == state.last_loud
                                     or self._unambiguous(state.dec, self.tie_margin)):
                            # (a near tie between two readings is asked once more, with more audio)
                            state.finish()  # the filler decoder; the command decoder's segment is empty
                            return final("early", audio_t, finished=True)
                        # Vosk's final result is not the partial's closed phrase: listen on, with
                        # the utterance decoded again from its start (the probe cut Vosk's segment,
                        # and a word split there is misheard: 노랑 as "네 오"); the next probe
                        # after another early_pause_s of non-speech (reprobe) or new speech
                        state.redecode()
                        probes = probes + 1 if probed == state.last_loud else 1
                        probed = state.last_loud
                pause = self.pause_s if grammar_mode else self.free_pause_s
                if pause is not None and silence >= pause - 1e-9:
                    result = final("pause", audio_t)
                    if isinstance(result, Rejected) or result.text:
                        return result
                    if grammar_mode and not barged and state.voiced_s >= self.min_speech_s - 1e-9:
                        # a voice Vosk made no word of: too quiet? (this listen goes on: the room's
                        # level is rescaled to the new gain, else the next floor is too low)
                        ratio = self._learn_gain(state)
                        if ratio != 1.0:
                            room_levels = collections.deque((v * ratio for v in room_levels), maxlen=FLOOR_FRAMES)
                    state = _Utterance(command_rec, filler_rec if fillers else None, audio_t)  # no word
                    continue
                if audio_t - state.start >= self.max_utterance_s - 1e-9:
                    return final("max", audio_t)


class _Utterance:
    """The state of one utterance: the command decoder, the filler decoder, speech times."""

    def __init__(self, command_rec, filler_rec, origin: float = 0.0):
        self.dec = _Decoder(command_rec, origin)
        self.fdec = _Decoder(filler_rec, origin) if filler_rec is not None else None
        self.start: float | None = None  # audio seconds when speech started
        self.last_speech: float | None = None
        self.run = 0
        self.voiced_s = 0.0
        self.peak = 0.0  # the loudest speech frame's level (RMS) since speech started
        self.floor: float | None = None  # the room's level (RMS) before speech started
        self.last_loud: float | None = None  # audio seconds of the last speech frame above it
        self.loud_s = 0.0  # seconds of speech above it
        self.audio: list[bytes] = []  # every frame fed, to decode the utterance again

    def feed(self, data: bytes, speech: bool, audio_t: float, frame_s: float, loud: bool | None = None) -> bool:
        """One frame to both decoders and the speech timing (``loud``: speech above the room's
        level, for the early end; default ``speech``); True when Vosk closed a segment with
        words in the command decoder."""
        closed = self.dec.feed(data)
        if self.fdec is not None:
            self.fdec.feed(data)
        self.audio.append(data)
        if closed and self.start is None:
            # words in a stretch the detector found no speech in (Vosk hears words in silence)
            self.dec = _Decoder(self.dec.make, audio_t)
            self.fdec = _Decoder(self.fdec.make, audio_t) if self.fdec is not None else None
            self.audio = []
            closed = False
        if speech:
            self.run += 1
            if self.start is not None:
                self.voiced_s += frame_s
                self.last_speech = audio_t
                if loud or loud is None:
                    self.last_loud = audio_t
                    self.loud_s += frame_s
            elif self.run >= 2:
                self.start, self.last_speech, self.voiced_s = audio_t - 2 * frame_s, audio_t, 2 * frame_s
                self.last_loud, self.loud_s = audio_t, 2 * frame_s
        else:
            self.run = 0
        return closed

    def finish(self) -> None:
        self.dec.finish()
        if self.fdec is not None:
            self.fdec.finish()

    def redecode(self) -> None:
        """The command decoder anew over every frame fed so far (one unbroken decoding; the
        filler decoder was never cut)."""
        self.dec = _Decoder(self.dec.make, self.dec.origin)
        for data in self.audio:
            self.dec.feed(data)
