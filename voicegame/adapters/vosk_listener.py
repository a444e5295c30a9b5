"""The Vosk listener: offline speech recognition behind the ``Listener`` port.

One model per process and path (:func:`load_model`), one new
``vosk.KaldiRecognizer`` per listening moment (Vosk 0.3.45 leaks memory in
``SetGrammar``, so a grammar is only ever given to the constructor). Grammar
("limited") mode follows wyoming-vosk: the expected phrases, plus ``[unk]`` when the
model knows it, so noise is not forced onto a real word.

All timing is AUDIO time (samples fed to the recognizer / sample rate), so a
:class:`~voicegame.adapters.audio.WavSource` read at full speed gives the same
result every run.

Endpoints (``VoskListener.last_endpoint``):

- ``"flush"`` — grammar mode (and free mode with ``free_hang_s``): speech was heard and the audio has then been quiet
  for ``hang_s`` seconds (RMS below ``max(min_threshold, noise_factor × the noise
  floor measured in the half-duplex tail)``); Vosk's final result is asked for at
  once. Vosk's partial result lags the audio by 0.1–0.5 s, so this ends an utterance
  sooner than waiting for the partial to settle (see docs/performance.md). A flush
  that yields no word (noise) keeps listening.
- ``"early"`` — grammar mode: the partial result is a complete expected phrase (or
  a sequence of them) and has not changed for ``stable_s`` seconds of audio; we
  finish at once instead of waiting for Vosk's 0.5–2 s trailing-silence rule (the
  fallback where the room is too noisy for the flush).
- ``"vosk"`` — Vosk's own endpoint (``AcceptWaveform`` returned True).
- ``"max"`` — ``max_utterance_s`` seconds after speech started.
- ``"timeout"`` — no speech started within ``timeout_s`` → :class:`Silence`.
- ``"input_end"`` — the source ran out mid-utterance; what was heard is returned.

Confidence mapping (Vosk gives, per n-best alternative, a log-likelihood score
where higher is better): the best alternative's confidence is its softmax
posterior over the returned alternatives, ``1 / sum(exp(s_i - s_best))``. With a
small grammar Vosk often returns one alternative, so confidence is then 1.0 — do
not trust it alone; read important answers back. A transcript that is empty or
only ``[unk]`` has confidence 0.0.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
from pathlib import Path

from voicegame.ports import DeviceError, Expected, Heard, InputEnded, Silence

log = logging.getLogger(__name__)

UNK = "[unk]"
ENDPOINTS = frozenset({"flush", "early", "vosk", "max", "timeout", "input_end"})


def _import_vosk():
    try:
        import vosk
    except (ImportError, OSError) as exc:
        raise DeviceError(
            "The Vosk speech recognizer is missing: run `pip install vosk`, or play "
            "with --input keyboard."
        ) from exc
    return vosk


def load_model(path: str | Path):
    """Load a Vosk model once per process per path (later calls return the same object).

    :param path: the unpacked model folder (holds ``am/final.mdl`` or ``conf/model.conf``).
    :returns: a ``vosk.Model``.
    :raises DeviceError: the folder is missing, is not a Vosk model, or fails to load.
    """
    return _load_model_cached(str(Path(path).expanduser().resolve()))


@functools.cache
def _load_model_cached(path: str):
    from voicegame.models import looks_like_model

    p = Path(path)
    if not p.is_dir():
        raise DeviceError(
            f"The speech model folder {p} does not exist: run `voicegame models install "
            "<language>` or pass --model with an unpacked Vosk model folder."
        )
    if not looks_like_model(p):
        raise DeviceError(
            f"The folder {p} is not a Vosk model (no am/final.mdl or conf/model.conf): "
            "pass --model with the unpacked model folder itself."
        )
    vosk = _import_vosk()
    vosk.SetLogLevel(-1)
    try:
        return vosk.Model(str(p))
    except Exception as exc:  # vosk raises a bare Exception("Failed to create a model")
        raise DeviceError(
            f"The speech model in {p} could not be loaded (damaged or incomplete?): "
            "install it again with `voicegame models install <language>`."
        ) from exc


def missing_words(model, words) -> list[str]:
    """The words a model's vocabulary lacks (a grammar would silently ignore them).

    :param model: a ``vosk.Model``.
    :param words: words (``"[unk]"`` is checked like any other).
    :returns: the missing words, sorted, without duplicates.
    """
    return sorted({w for w in words if w and model.vosk_model_find_word(w) < 0})


def _rms(chunk: bytes) -> float:
    """Root-mean-square level of int16 little-endian mono audio."""
    import numpy as np

    x = np.frombuffer(chunk[: len(chunk) // 2 * 2], dtype="<i2").astype(np.float32)
    return float(np.sqrt(np.mean(x * x))) if x.size else 0.0


def _has_unk(model) -> bool:
    return model.vosk_model_find_word(UNK) >= 0


def _clean(text: str) -> str:
    return " ".join(w for w in text.split() if w != UNK)


def _covers(words: list[str], phrases: set[tuple[str, ...]]) -> bool:
    """True when ``words`` is one expected phrase or a sequence of expected phrases."""
    if not words or UNK in words:
        return False
    n = len(words)
    ok = [True] + [False] * n
    for end in range(1, n + 1):
        for p in phrases:
            start = end - len(p)
            if start >= 0 and ok[start] and tuple(words[start:end]) == p:
                ok[end] = True
                break
    return ok[n]


class VoskListener:
    """A :class:`~voicegame.ports.Listener` on Vosk and an :class:`AudioSource`.

    Half-duplex: each :meth:`listen` first drains the source and discards ``tail_s``
    seconds of audio (the host has just finished speaking).

    :param model: a ``vosk.Model`` (see :func:`load_model`).
    :param source: an :class:`~voicegame.adapters.audio.AudioSource`.
    :param stable_s: seconds of audio an expected phrase must stay the partial
        result before the early endpoint fires.
    :param tail_s: seconds of audio discarded at the start of each listen.
    :param max_utterance_s: seconds after speech start at which listening stops.
    :param clock: a :class:`~voicegame.ports.Clock` for the stalled-microphone guard
        only (``None`` is ``time.monotonic``); recognition timing is audio time.
    :param alternatives: how many n-best alternatives to ask Vosk for.
    :param stall_s: wall seconds without any audio before :class:`DeviceError`.
    :param hang_s: seconds of quiet audio after speech that end a grammar-mode
        utterance (``None`` turns the flush off).
    :param free_hang_s: the same for free-text moments (``None``: Vosk's own endpoint
        only; free speech pauses longer inside an utterance, so use ≥ 0.5 s).
    :param min_threshold: least RMS (int16 units; 300 ≈ -40 dBFS) that counts as speech.
    :param noise_factor: speech must be this many times louder than the noise floor.
    """

    def __init__(
        self,
        model,
        source,
        *,
        stable_s: float = 0.3,
        tail_s: float = 0.25,
        max_utterance_s: float = 12.0,
        clock=None,
        alternatives: int = 3,
        stall_s: float = 5.0,
        hang_s: float | None = 0.15,
        free_hang_s: float | None = None,
        min_threshold: float = 300.0,
        noise_factor: float = 3.0,
    ):
        self.model = model
        self.source = source
        self.stable_s = stable_s
        self.tail_s = tail_s
        self.max_utterance_s = max_utterance_s
        self.clock = clock
        self.alternatives = alternatives
        self.stall_s = stall_s
        self.hang_s = hang_s
        self.free_hang_s = free_hang_s
        self.min_threshold = min_threshold
        self.noise_factor = noise_factor
        #: RMS that counts as speech in the current listen (from the tail's noise floor).
        self.threshold = min_threshold
        self._unk = _has_unk(model)
        #: which endpoint ended the last listen: one of :data:`ENDPOINTS`, or None.
        self.last_endpoint: str | None = None
        #: audio seconds (from the recognizer's first sample) when speech started:
        #: the first word's start in Vosk's alignment, else when it was detected.
        self.last_speech_start_s: float | None = None
        #: audio seconds when the partial result first became non-empty (speech detected).
        self.last_speech_detected_s: float | None = None
        #: audio seconds when the last recognized word ended (Vosk word times).
        self.last_speech_end_s: float | None = None
        #: audio seconds fed to the recognizer when listen returned.
        self.last_return_s: float | None = None
        #: the words of the last grammar that the model's vocabulary lacks.
        self.last_missing: list[str] = []
        #: the raw Vosk result (dict) of the last utterance.
        self.last_result: dict | None = None

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
                "--input keyboard."
            )
        return None

    def _discard_tail(self) -> None:
        """Skip ``tail_s`` of audio (half-duplex) and measure the noise floor in it."""
        need = int(round(self.tail_s * self.source.sample_rate)) * 2
        stalled: list = [None]
        levels = []
        while need > 0:
            chunk = self._read(stalled)
            if chunk:
                need -= len(chunk)
                levels.append(_rms(chunk))
        floor = sorted(levels)[len(levels) // 2] if levels else 0.0
        self.threshold = max(self.min_threshold, self.noise_factor * floor)

    def _recognizer(self, expected: Expected):
        vosk = _import_vosk()
        rate = self.source.sample_rate
        if expected.free or not expected.phrases:
            self.last_missing = []
            rec = vosk.KaldiRecognizer(self.model, rate)
        else:
            self.last_missing = self.check_vocabulary(expected)
            if self.last_missing:
                log.warning(
                    "listening moment %r: the speech model lacks %s; those phrases cannot be heard",
                    expected.moment, ", ".join(self.last_missing),
                )
            grammar = list(dict.fromkeys(expected.phrases))
            if self._unk:
                grammar.append(UNK)
            rec = vosk.KaldiRecognizer(self.model, rate, json.dumps(grammar, ensure_ascii=False))
        rec.SetWords(True)
        rec.SetMaxAlternatives(self.alternatives)
        return rec

    def _heard(self, result: dict, audio_t: float, speech_start: float | None) -> Heard:
        self.last_result = result
        alts = result.get("alternatives")
        if alts is None:  # SetMaxAlternatives(0) shape
            alts = [{"text": result.get("text", ""), "confidence": 1.0,
                     "result": result.get("result", [])}]
        best = alts[0] if alts else {"text": "", "confidence": 0.0, "result": []}
        text = _clean(best.get("text", ""))
        words = [w for w in best.get("result", []) if w.get("word") != UNK]
        if words:
            self.last_speech_start_s = float(words[0]["start"])
            self.last_speech_end_s = float(words[-1]["end"])
            duration = self.last_speech_end_s - self.last_speech_start_s
        else:
            self.last_speech_end_s = None
            duration = audio_t - speech_start if speech_start is not None else 0.0
        if text:
            s_best = float(best.get("confidence", 0.0))
            total = sum(math.exp(min(50.0, float(a.get("confidence", 0.0)) - s_best)) for a in alts)
            confidence = 1.0 / total if total > 0 else 0.0
        else:
            confidence = 0.0
        others = []
        for a in alts[1:]:
            t = _clean(a.get("text", ""))
            if t and t != text and t not in others:
                others.append(t)
        return Heard(text, tuple(others), round(confidence, 4), round(max(0.0, duration), 3))

    def _finish(self, endpoint: str, audio_t: float) -> None:
        self.last_endpoint = endpoint
        self.last_return_s = audio_t

    # -- the port -----------------------------------------------------------
    def listen(self, expected: Expected, timeout_s: float | None) -> Heard | Silence:
        """Listen for one utterance (see the module docstring for the endpoints).

        :param expected: the phrases for the grammar, or a free-text moment.
        :param timeout_s: audio seconds to wait for speech to start; ``None`` waits forever.
        :returns: :class:`Heard` (lower-case text, ``[unk]`` removed) or :class:`Silence`.
        :raises InputEnded: the source ran out before any speech started.
        :raises DeviceError: the microphone fails or stops sending audio.
        """
        self.last_endpoint = None
        self.last_speech_start_s = self.last_speech_end_s = self.last_return_s = None
        self.last_speech_detected_s = None
        self.last_result = None
        self.source.start()
        self.source.drain()
        self._discard_tail()
        rec = self._recognizer(expected)
        grammar_mode = not expected.free and bool(expected.phrases)
        phrases = {tuple(p.split()) for p in expected.phrases if p.split()}
        rate = self.source.sample_rate
        fed = 0  # samples fed to the recognizer
        speech_start: float | None = None
        prev_words: list[str] | None = None
        partial_since = 0.0
        loud_seen = False
        quiet_s = 0.0
        stalled: list = [None]
        while True:
            try:
                chunk = self._read(stalled)
            except InputEnded:
                if speech_start is None:
                    raise
                audio_t = fed / rate
                heard = self._heard(json.loads(rec.FinalResult()), audio_t, speech_start)
                self._finish("input_end", audio_t)
                return heard
            if not chunk:
                continue
            n = len(chunk) // 2
            fed += n
            audio_t = fed / rate
            if _rms(chunk) >= self.threshold:
                loud_seen, quiet_s = True, 0.0
            elif loud_seen:
                quiet_s += n / rate
            if rec.AcceptWaveform(chunk):
                result = json.loads(rec.Result())
                heard = self._heard(result, audio_t, speech_start)
                if heard.text or speech_start is not None:
                    self._finish("vosk", audio_t)
                    return heard
                self.last_result = None  # noise-only segment before speech: keep waiting
                prev_words = None
            else:
                partial = json.loads(rec.PartialResult()).get("partial", "")
                words = partial.split()
                if words and speech_start is None:
                    speech_start = audio_t
                    self.last_speech_start_s = self.last_speech_detected_s = audio_t
                if words != prev_words:
                    prev_words = words
                    partial_since = audio_t
                elif (
                    grammar_mode
                    and audio_t - partial_since >= self.stable_s - 1e-9
                    and _covers(words, phrases)
                ):
                    heard = self._heard(json.loads(rec.FinalResult()), audio_t, speech_start)
                    self._finish("early", audio_t)
                    return heard
                hang = self.hang_s if grammar_mode else self.free_hang_s
                if hang is not None and loud_seen and quiet_s >= hang - 1e-9:
                    heard = self._heard(json.loads(rec.FinalResult()), audio_t, speech_start)
                    if heard.text:
                        self._finish("flush", audio_t)
                        return heard
                    # noise only: a fresh recognizer for the same moment, keep listening
                    rec = self._recognizer(expected)
                    loud_seen, quiet_s, prev_words, speech_start = False, 0.0, None, None
            if speech_start is None:
                if timeout_s is not None and audio_t >= timeout_s - 1e-9:
                    self._finish("timeout", audio_t)
                    return Silence(waited_s=round(audio_t, 3))
            elif audio_t - speech_start >= self.max_utterance_s - 1e-9:
                heard = self._heard(json.loads(rec.FinalResult()), audio_t, speech_start)
                self._finish("max", audio_t)
                return heard
